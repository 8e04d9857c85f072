//! The search from the root: a position's value by MTD(f) (null-window
//! searches closing in on it), alone or with helper threads sharing its
//! nodes ([`super::split`]), and depth-limited for estimates.

use super::search::ready;
use super::split::Splits;
use super::table::Table;
use super::{GameSolveResult, Horizon, Limits, LineLimits, PitCounts, Solver, TO_THE_END};
use crate::state::GameState;
use base::clock::Instant;
use rules::Pit;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The answer for a game already over: its value is the stores as they
/// are, proved with no search; a step of its own so that
/// [`Solver::solve_from`] starts with the search.
fn game_over(base: i32, t0: Instant) -> GameSolveResult {
    GameSolveResult::unsearched(base, (base, base), t0, false)
}

impl Solver {
    /// The value of `state` looking `depth` whole turns ahead, from its
    /// mover's view (mover's store minus the opponent's after `depth` turns,
    /// or at the game's end if sooner, plus what the [`Horizon`] set by
    /// [`Solver::set_horizon`] adds), by depth-limited MTD(f) on the same
    /// table, from the first guess `guess` (the estimate one turn shallower
    /// is a good one: MTD(f) then needs few passes, and the shallower
    /// passes are in the table already); `None` when stopped first. An
    /// estimate, not a bound: the evaluation a few turns on is a guess
    /// (see [`crate::analyze`]).
    pub fn estimate(
        &mut self,
        state: &GameState,
        depth: u32,
        guess: i32,
        cancel: &AtomicBool,
    ) -> Option<i32> {
        self.nodes = 0;
        self.stopped = false;
        let base = state.mover_minus_opponent();
        if state.is_over() || depth == 0 {
            return Some(base);
        }
        let (pos, turns_left) = ready(self.n, state);
        let s = state.stones_in_pits() as i32;
        let d = depth.min(TO_THE_END as u32 - 1) as u8;
        let g = self
            .mtdf(&pos, (guess - base).clamp(-s, s), s, d, turns_left, cancel)
            .0;
        (!self.stopped).then_some(base + g)
    }

    /// Score depth-limited searches with `horizon` from now on; the one
    /// it replaces. Table entries of depth-limited searches are kept: an
    /// analysis sets the same horizon on its solver each time.
    pub fn set_horizon(&mut self, horizon: Horizon) -> Horizon {
        std::mem::replace(&mut self.horizon, horizon)
    }

    /// Solve `state` exactly (or until `cancel` is set).
    pub fn solve(&mut self, state: &GameState, cancel: &AtomicBool) -> GameSolveResult {
        self.solve_from(state, None, None, cancel)
    }

    /// [`Solver::solve`] with MTD(f)'s first null-window test at `guess`
    /// (the value from `state`'s mover's view, as an estimate gives it)
    /// rather than at the stores as they are. Same answer; a guess near
    /// the value needs fewer passes to prove it, which is what an analysis
    /// with estimates in hand and a second to spend needs.
    pub fn solve_near(
        &mut self,
        state: &GameState,
        guess: i32,
        cancel: &AtomicBool,
    ) -> GameSolveResult {
        self.solve_from(state, None, Some(guess), cancel)
    }

    /// [`Solver::solve`] going on from `known`, the bounds (`lower`,
    /// `upper`, as [`GameSolveResult`] gives them) that an earlier solve of
    /// `state` stopped with on this solver's table (a checkpoint's): MTD(f)
    /// starts inside them, and the table's proven bounds spare the work
    /// already done; the first pass tests at `guess` when one is given
    /// ([`Solver::solve_near`]).
    pub(crate) fn solve_from(
        &mut self,
        state: &GameState,
        known: Option<(i32, i32)>,
        guess: Option<i32>,
        cancel: &AtomicBool,
    ) -> GameSolveResult {
        let t0 = Instant::now();
        self.nodes = 0;
        self.expanded = 0;
        self.stopped = false;
        let base = state.mover_minus_opponent();
        if state.is_over() {
            return game_over(base, t0);
        }
        let n = self.n;
        assert_eq!(n, state.pits_per_side(), "solver built for another size");
        let (pos, turns_left) = ready(n, state);
        let s = state.stones_in_pits() as i32;
        if self.opts.endgame_build {
            if let Some(db) = self.endgame.clone() {
                // Cancelled, the search below stops at once with no bounds.
                self.endgame_whole =
                    db.build(n, self.rules, self.opts.threads.max(1) as usize, cancel);
            }
        }
        let ((lo, hi), (value_nodes, expanded), pv) = self.on_threads(|me| {
            // Deepening is for a first guess: a given guess or known bounds
            // are better ones.
            let mut g = if guess.is_none() && known.is_none() {
                me.deepened_guess(&pos, s, turns_left, cancel)
            } else {
                0
            };
            let mut window = (me.floor(s, TO_THE_END), s);
            if let Some(guess) = guess {
                g = (guess - base).clamp(window.0, s);
            }
            if let Some((lower, upper)) = known {
                window = (
                    (lower - base).clamp(window.0, s),
                    (upper - base).clamp(window.0, s),
                );
                // The next pass tests just above a lower bound earlier passes
                // raised, or at an upper bound they lowered (from the first
                // guess when they did neither).
                if window.0 > me.floor(s, TO_THE_END) {
                    g = window.0;
                } else if window.1 < s {
                    g = window.1;
                }
            }
            if let Some(w) = &me.watch {
                w.begin(window.0, window.1);
            }
            let (lo, hi) = me
                .mtdf_within(&pos, g, window, TO_THE_END, turns_left, cancel)
                .1;
            let counted = me.counted();
            let pv = if lo == hi {
                me.proved_line(state, base + lo, cancel)
            } else {
                vec![]
            };
            ((lo, hi), counted, pv)
        });
        let exact = lo == hi;
        GameSolveResult {
            value: base + if exact { lo } else { (lo + hi).div_euclid(2) },
            exact,
            lower: base + lo,
            upper: base + hi,
            best_turn: pv.first().cloned().unwrap_or_default(),
            pv,
            nodes: self.nodes,
            value_nodes,
            expanded,
            elapsed: t0.elapsed(),
            cancelled: !exact,
        }
    }

    /// The line that shows a proved `value` of `state`, which follows from
    /// the table's exact bounds: a step of its own because it runs under
    /// budgets of its own. Its first turn is found past a budget of
    /// `set_limits` (the cancel flag still stops it), so that a proved
    /// value always comes with its turn, or within one of
    /// `set_limits_within`; the rest of the line within what is left of
    /// the budget (see `principal_variation`). Its searches of later
    /// positions do not report to the watch, which keeps the root's bounds.
    fn proved_line(&mut self, state: &GameState, value: i32, cancel: &AtomicBool) -> Vec<Vec<Pit>> {
        let limits = self.limits;
        if limits.line != LineLimits::Within {
            self.limits = Limits::NONE;
        }
        let watch = self.watch.take();
        let line = match limits.line {
            LineLimits::Whole => Limits::NONE,
            LineLimits::TurnPast | LineLimits::Within => limits,
        };
        let pv = self.principal_variation(state, value, line, cancel);
        self.watch = watch;
        self.limits = limits;
        pv
    }

    /// Runs `work` on this thread with [`SolveOptions::threads`] − 1
    /// helpers sharing its searches ([`super::split`]): every search
    /// `work` makes to the end of the game, or to a depth, is searched by
    /// all the threads at once. On one thread, with a table not to share
    /// (the wide layout), or inside another call's threads, `work` alone.
    /// The helpers' picks are counted with this thread's as they leave
    /// each node they helped at.
    pub(super) fn on_threads<R>(&mut self, work: impl FnOnce(&mut Solver) -> R) -> R {
        if self.splits.is_some() {
            return work(self);
        }
        let helpers: Option<Vec<Solver>> = (1..self.opts.threads.max(1) as usize)
            .map(|_| self.sibling())
            .collect();
        let Some(helpers) = helpers.filter(|h| !h.is_empty()) else {
            return work(self);
        };
        let splits = Arc::new(Splits::default());
        self.splits = Some(Arc::clone(&splits));
        let done = std::thread::scope(|scope| {
            for mut h in helpers {
                let splits = Arc::clone(&splits);
                h.splits = Some(Arc::clone(&splits));
                scope.spawn(move || h.help_splits(&splits));
            }
            // The helpers are told even if `work` panics, so that the
            // scope's wait for them ends and the panic is heard.
            let _finish = splits.finish_on_drop();
            work(self)
        });
        (self.nodes, self.expanded) = self.counted();
        self.splits = None;
        done
    }

    /// A solver for another thread on this one's table: no limits of its
    /// own (it stops when told) and no watch. `None` when the table is not
    /// one to share (the wide layout).
    pub(super) fn sibling(&self) -> Option<Solver> {
        let Table::Compact(t) = &self.table else {
            return None;
        };
        Some(Solver {
            rules: self.rules,
            n: self.n,
            opts: self.opts.clone(),
            table: Table::Compact(Arc::clone(t)),
            mask: self.mask,
            nodes: 0,
            expanded: 0,
            stopped: false,
            endgame: self.endgame.clone(),
            endgame_whole: self.endgame_whole,
            etc_stones: self.etc_stones,
            limits: Limits::NONE,
            stop_when: None,
            watch: None,
            horizon: self.horizon,
            splits: None,
            under: None,
            split_stop: false,
            split_stones: self.split_stones,
        })
    }

    /// A helper for work beside this solver's own on another thread, when
    /// it has more than one ([`SolveOptions::threads`]) and a table to
    /// share: see [`Solver::help_prove`].
    pub fn helper(&self) -> Option<Solver> {
        (self.opts.threads > 1).then(|| self.sibling()).flatten()
    }

    /// Searches `state` to the end of the game, as [`Solver::solve`] does
    /// its value (MTD(f), from a deepened guess when the options deepen),
    /// until `stop` is set or the value is proved, and returns the picks
    /// searched: on a
    /// [`Solver::helper`], while the solver it came from does other work on
    /// the same table (an analysis's estimates, which leave a core idle).
    /// What it proves stays in the table for the solver's own searches;
    /// no principal variation, no result of its own.
    pub fn help_prove(&mut self, state: &GameState, stop: &AtomicBool) -> u64 {
        self.nodes = 0;
        self.stopped = false;
        if state.is_over() {
            return 0;
        }
        let (pos, turns_left) = ready(self.n, state);
        let s = state.stones_in_pits() as i32;
        let g = self.deepened_guess(&pos, s, turns_left, stop);
        self.mtdf(&pos, g, s, TO_THE_END, turns_left, stop);
        self.nodes
    }

    /// MTD(f)'s first guess for the search to the end of `pos` (`s` stones
    /// in its pits): the value of [`SolveOptions::deepening`] turns of
    /// depth-limited search, each from the last, or 0 (no more gains)
    /// without deepening.
    pub(super) fn deepened_guess(
        &mut self,
        pos: &PitCounts,
        s: i32,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> i32 {
        let mut g = 0;
        for depth in 1..=self.opts.deepening.min(TO_THE_END as u32 - 1) {
            g = self.mtdf(pos, g, s, depth as u8, turns_left, cancel).0;
        }
        g
    }

    /// MTD(f): null-window searches from the guess `g` until the bounds
    /// meet (or the search is stopped). Returns the last value and the
    /// bounds.
    pub(super) fn mtdf(
        &mut self,
        pos: &PitCounts,
        g: i32,
        stones: i32,
        depth: u8,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> (i32, (i32, i32)) {
        self.mtdf_within(
            pos,
            g,
            (self.floor(stones, depth), stones),
            depth,
            turns_left,
            cancel,
        )
    }

    /// [`Solver::mtdf`] with the value known to lie in `window` (both ends
    /// included) already.
    pub(super) fn mtdf_within(
        &mut self,
        pos: &PitCounts,
        mut g: i32,
        window: (i32, i32),
        depth: u8,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> (i32, (i32, i32)) {
        let (mut lo, mut hi) = window;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let v = self.search(pos, beta - 1, beta, depth, turns_left, cancel);
            if self.stopped {
                break;
            }
            g = v;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
            if let Some(w) = &self.watch {
                w.pass(depth, lo, hi, self.nodes);
            }
        }
        (g, (lo, hi))
    }
}
