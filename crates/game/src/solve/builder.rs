//! The one way to a fresh solver: what it is given (options, a database
//! filled whole, the flag that stops it, a watch) and what is asked of it
//! (the solver itself, or one position solved).

use super::{GameSolveResult, Keep, KeepEvent, SolveOptions, SolveWatch, Solver};
use crate::endgame::EndgameDb;
use crate::error::{EndgameError, GameError};
use crate::state::GameState;
use base::clock::Instant;
use rules::Rules;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A flag nobody sets: a builder not given one cannot be stopped.
static NEVER: AtomicBool = AtomicBool::new(false);

/// What a fresh [`Solver`] is made with, from [`Solver::builder`]: each
/// caller (a test, a command, a handler of the server, the page's engine)
/// names what it has and leaves the rest at its default, so that one
/// constructor serves every combination of a database, a stop flag and a
/// watch.
#[must_use = "a builder does nothing until built or asked to solve"]
pub struct SolverBuilder<'a> {
    opts: SolveOptions,
    db: Option<&'a EndgameDb>,
    cancel: &'a AtomicBool,
    watch: Option<Arc<SolveWatch>>,
}

impl Solver {
    /// A solver for `rules` on boards of `n` pits a side. Refuses when the
    /// table (and endgame database) would exceed `opts.memory_cap`. For a
    /// database filled whole, a stop flag or a watch: [`Solver::builder`].
    pub fn new(rules: Rules, n: usize, opts: SolveOptions) -> Result<Solver, GameError> {
        Ok(Solver::builder()
            .options(opts)
            .build(rules, n)?
            .expect("a builder without a stop flag is never stopped"))
    }

    /// The builder of a fresh solver: [`SolveOptions::default`], no
    /// database but the one filled on demand, no stop flag, no watch.
    pub fn builder<'a>() -> SolverBuilder<'a> {
        SolverBuilder {
            opts: SolveOptions::default(),
            db: None,
            cancel: &NEVER,
            watch: None,
        }
    }
}

impl<'a> SolverBuilder<'a> {
    /// The options of the search (table, threads, memory cap, database on
    /// demand).
    pub fn options(mut self, opts: SolveOptions) -> Self {
        self.opts = opts;
        self
    }

    /// A database filled whole (built or read from a file, see
    /// [`EndgameDb`]) in place of the one filled on demand
    /// ([`SolveOptions::endgame_stones`] is then not used), when given. Its
    /// bytes count against [`SolveOptions::memory_cap`] with the table's.
    pub fn endgame(mut self, db: Option<&'a EndgameDb>) -> Self {
        self.db = db;
        self
    }

    /// The flag that stops the solver: while its table is zeroed (seconds
    /// for gigabytes: [`SolverBuilder::build`] then gives `Ok(None)`) and
    /// while it searches (the answer then carries the bounds known).
    pub fn cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = flag;
        self
    }

    /// Where the search says how far it got, for another thread to show.
    pub fn watch(mut self, watch: Arc<SolveWatch>) -> Self {
        self.watch = Some(watch);
        self
    }

    /// The solver for `rules` on boards of `n` pits a side, or `Ok(None)`
    /// when the stop flag was set while its table was zeroed. Refuses when
    /// the table and database would exceed the memory cap, and a database
    /// built for other rules or another board size.
    pub fn build(self, rules: Rules, n: usize) -> Result<Option<Solver>, GameError> {
        if let Some(db) = self.db {
            if db.rules() != rules || db.pits_per_side() != n {
                return Err(EndgameError::Foreign {
                    built_n: db.pits_per_side(),
                    built: db.rules(),
                    n,
                    rules,
                }
                .into());
            }
        }
        let solver = Solver::create(rules, n, self.opts, self.db, self.cancel)?;
        Ok(solver.map(|mut s| {
            if let Some(w) = self.watch {
                s.watch = Some(w);
            }
            s
        }))
    }

    /// `state` solved exactly by a fresh solver for its rules and board
    /// size: the entry point of a command or a handler. Stopped while its
    /// table was zeroed, the answer knows nothing but what the stones
    /// allow (and says it was cancelled).
    pub fn solve(self, state: &GameState) -> Result<GameSolveResult, GameError> {
        let (t0, cancel) = (Instant::now(), self.cancel);
        let Some(mut solver) = self.build(state.rules(), state.pits_per_side())? else {
            return Ok(GameSolveResult::not_started(state, t0));
        };
        Ok(solver.solve(state, cancel))
    }

    /// [`SolverBuilder::solve`], keeping its work in `keep.path` so that a
    /// stopped or killed solve goes on where the last write left it when
    /// called again with the same arguments (the threads may differ).
    /// `heard` hears of the file read and of each write. Picks and seconds
    /// in the answer count every run's.
    pub fn solve_kept(
        self,
        state: &GameState,
        keep: Keep,
        heard: &mut dyn FnMut(KeepEvent),
    ) -> Result<GameSolveResult, GameError> {
        let (t0, cancel) = (Instant::now(), self.cancel);
        let Some(solver) = self.build(state.rules(), state.pits_per_side())? else {
            return Ok(GameSolveResult::not_started(state, t0));
        };
        super::checkpoint::solve_kept(solver, t0, state, cancel, keep, heard)
    }
}
