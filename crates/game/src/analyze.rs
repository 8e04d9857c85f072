//! Analysis: every whole turn of a position ranked by its value for the
//! game, within a budget of time or of nodes, better the longer it runs.
//!
//! This is the question a player in the middle of a game asks ("which pits
//! do I tap?"), which the one-turn search does not answer: the turn that
//! puts the most stones in the store now can lose the game. The analysis
//! runs on the exact solver ([`Solver`]): its table, its endgame database
//! and its threads; it adds no search of its own, only the order in which
//! the solver's searches are asked for and what is kept of each.
//!
//! # What it does, in three phases sharing one table
//!
//! 1. **Estimates.** Every turn (every distinct end-of-turn position, as
//!    [`GameState::turns`] lists them) gets the value of a depth-limited
//!    search of the position after it, deepened one turn at a time while a
//!    quarter of the budget lasts, and at most a second (or two million
//!    nodes): past that the estimates rarely change the best turn and the
//!    time is better spent proving (on avalanche's start, a 30 s quarter of
//!    a 120 s budget delayed the proof by as much). The evaluation at the
//!    horizon ([`Horizon::for_analysis`]) is the stores (mover's store minus
//!    the opponent's after that many turns) where nothing is captured, and
//!    the stores plus half the difference of the stones on each side under
//!    capture rules, where a side keeps the stones left on it: measured on
//!    the same positions, each is the better one under its rules. Depth 0
//!    is the stores right after the turn. The estimates run on one thread;
//!    with more than one, a helper starts phase 2's proof beside them in
//!    the same table ([`Solver::help_prove`]), where a core would idle;
//!    what it proves serves the estimates too (exact values stand in for
//!    the horizon's) and the proof that follows (docs/notebook/game-analyze.md),
//!    and once it has the value the estimates end ([`Solver::stop_when`]):
//!    the time left goes to the other turns' proofs.
//! 2. **The position's value.** MTD(f) to the end of the game on the
//!    position itself, as `game solve` does, its first null-window test at
//!    the best estimate ([`Solver::solve_near`]): a guess near the value
//!    needs fewer passes, so more positions are proved within the budget.
//!    Finished, it proves the value and the best turn (and its principal
//!    variation), and bounds every other turn from above by that value.
//!    When the budget runs out before the solver has found the best turn
//!    pick by pick, the turn is one whose end the table proves to reach
//!    the value ([`Solver::set_limits_within`]): the proof went through it.
//! 3. **Every other turn's value.** The positions after the other turns,
//!    best estimate first, solved to the end (from their estimates) in
//!    laps over the open turns, each a time (or node) slice that grows as
//!    turns are settled; a stopped search still leaves proven bounds
//!    (MTD(f) keeps the bounds of its finished passes).
//!
//! After every search of phases 2 and 3 each open turn also takes the
//! proven bounds that the table holds for the position after it
//! ([`Solver::proven_bounds`]): a search of the position that stopped
//! short has still proved bounds on the turns it went through, and a turn
//! whose estimate looked best can so be shown worse than another before
//! the position is proved (measured in docs/notebook/game-analyze.md).
//!
//! A value is called exact only when the solver proved it; otherwise the
//! turn carries proven `low`/`high` bounds and the estimate, kept within
//! them. The cancel flag (Ctrl-C, Stop) ends any phase at once with the
//! best answer so far.

use crate::endgame::EndgameDb;
use crate::error::GameError;
use crate::solve::{Horizon, SolveOptions, Solver};
use crate::state::{GameState, Side};
use base::clock::Instant;
use rules::Pit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub(crate) mod answer;
pub use answer::{Analysis, TurnValue};

/// The most time the estimates (phase 1) take of a budget in seconds.
pub const ESTIMATE_SECONDS: f64 = 1.0;
/// The most nodes the estimates take of a budget in nodes: about what one
/// core searches in [`ESTIMATE_SECONDS`].
pub const ESTIMATE_NODES: u64 = 2_000_000;

/// Estimate passes run within the whole budget rather than the
/// estimates' share: every answer looks at least this many turns ahead
/// unless the whole budget runs out first (a few thousand picks on 6 pits).
pub const FIRST_DEPTHS: u32 = 2;

/// How long an analysis may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall-clock seconds.
    Seconds(f64),
    /// Nodes (picks) searched, over all phases: the same answer on every
    /// run with one thread, for tests.
    Nodes(u64),
}

impl Budget {
    /// A `k`th of this budget: one of `k` searches' shares.
    pub fn split(self, k: usize) -> Budget {
        let k = k.max(1);
        match self {
            Budget::Seconds(s) => Budget::Seconds(s / k as f64),
            Budget::Nodes(n) => Budget::Nodes(n / k as u64),
        }
    }

    /// This budget after `spent` has gone on the answer's set-up (a cached
    /// endgame database read from disk): the player waits for both. Never
    /// below half of the seconds (a slow disk); a budget of nodes is
    /// unchanged.
    pub fn less(self, spent: Duration) -> Budget {
        match self {
            Budget::Seconds(s) => Budget::Seconds((s - spent.as_secs_f64()).max(s / 2.0)),
            nodes => nodes,
        }
    }
}

/// The progress callback: the analysis so far, after each step.
pub type Report<'a> = &'a (dyn Fn(&Analysis) + Sync);

/// Analyze `state` within `budget` on a fresh solver with `opts` (and the
/// database `db`, when given, as `game solve --endgame` reads it). Refuses
/// a finished game and a table over the memory cap, before any work.
pub fn analyze(
    state: &GameState,
    opts: &SolveOptions,
    db: Option<&EndgameDb>,
    budget: Budget,
    cancel: &AtomicBool,
    report: Option<Report<'_>>,
) -> Result<Analysis, GameError> {
    refuse_over(state)?;
    if let Some(a) = from_book(opts, state, report) {
        return Ok(a);
    }
    let t0 = Instant::now();
    let (rules, n) = (state.rules(), state.pits_per_side());
    let solver = Solver::builder()
        .options(opts.clone())
        .endgame(db)
        .cancel(cancel)
        .build(rules, n)?;
    let mut run = Run::new(state, budget, t0, cancel, report);
    let Some(mut solver) = solver else {
        // Stopped while the table was zeroed: the stores alone.
        run.analysis.cancelled = true;
        return Ok(run.finish());
    };
    Ok(run.on(&mut solver))
}

/// [`analyze`] on a solver kept from an earlier analysis (one that
/// [`Solver::takes`] `state`): its table and endgame database are filled
/// already, so the whole budget goes to the search. A player's companion
/// keeps one through a game, whose positions only lose stones.
pub fn analyze_on(
    solver: &mut Solver,
    state: &GameState,
    budget: Budget,
    cancel: &AtomicBool,
    report: Option<Report<'_>>,
) -> Result<Analysis, GameError> {
    refuse_taken(solver, state)?;
    if let Some(a) = from_book(solver.options(), state, report) {
        return Ok(a);
    }
    Ok(Run::new(state, budget, Instant::now(), cancel, report).on(solver))
}

/// The best turn of `state` within `budget`, for a player that needs that
/// turn only (the `analyze:S` agent, the pages' `perfect`): the first two
/// phases of [`analyze_on`], without proving the other turns' values,
/// which would spend the rest of the budget on turns it will not play.
/// The best turn is proved when [`Analysis::exact`]; otherwise it is the
/// best estimate, within proven bounds.
pub fn best_turn_on(
    solver: &mut Solver,
    state: &GameState,
    budget: Budget,
    cancel: &AtomicBool,
) -> Result<Analysis, GameError> {
    refuse_taken(solver, state)?;
    if let Some(a) = from_book(solver.options(), state, None) {
        return Ok(a);
    }
    let mut run = Run::new(state, budget, Instant::now(), cancel, None);
    run.read_book(solver);
    run.estimates(solver);
    run.root(solver);
    Ok(run.finish())
}

/// The committed opening book's answer for `state`, when `opts` allow
/// books and one holds it short of its frontier: every turn exact, at once.
fn from_book(
    opts: &SolveOptions,
    state: &GameState,
    report: Option<Report<'_>>,
) -> Option<Analysis> {
    let a = crate::book::lookup(state).filter(|_| opts.book)?;
    if let Some(report) = report {
        report(&a);
    }
    Some(a)
}

/// Refuse a finished game, and a position `solver` was not built for.
fn refuse_taken(solver: &Solver, state: &GameState) -> Result<(), GameError> {
    refuse_over(state)?;
    if !solver.takes(state) {
        return Err(GameError::SolverMismatch(state.board().one_line()));
    }
    Ok(())
}

/// A finished game has no turn to analyze.
fn refuse_over(state: &GameState) -> Result<(), GameError> {
    if !state.is_over() {
        return Ok(());
    }
    let v = state.mover_minus_opponent();
    Err(GameError::GameOver(match v.signum() {
        1 => format!("the player to move has won by {v}"),
        -1 => format!("the player to move has lost by {}", -v),
        _ => "a draw".into(),
    }))
}

/// A turn before any search: exact when it ends the game, else bounded by
/// the stones left and estimated by the stores.
fn first_guess(me: Side, picks: Vec<Pit>, after: GameState) -> TurnValue {
    let now = after.store(me) as i32 - after.store(me.other()) as i32;
    let left = if after.is_over() {
        0
    } else {
        after.stones_in_pits() as i32
    };
    TurnValue {
        picks,
        after,
        value: now,
        exact: left == 0,
        low: now - left,
        high: now + left,
        depth: 0,
        line: vec![],
    }
}

/// One analysis under way.
struct Run<'a> {
    me: Side,
    state: GameState,
    budget: Budget,
    t0: Instant,
    /// Nodes of the searches finished or stopped so far.
    nodes: u64,
    cancel: &'a AtomicBool,
    report: Option<Report<'a>>,
    analysis: Analysis,
    /// The position's value when an opening book holds it.
    known: Option<i32>,
}

impl<'a> Run<'a> {
    /// An analysis of `state` begun at `t0`: every turn listed, bounded by
    /// the stones left, ranked by the stores.
    fn new(
        state: &GameState,
        budget: Budget,
        t0: Instant,
        cancel: &'a AtomicBool,
        report: Option<Report<'a>>,
    ) -> Run<'a> {
        let mut run = Run {
            me: state.mover(),
            state: *state,
            budget,
            t0,
            nodes: 0,
            cancel,
            report,
            analysis: Analysis {
                turns: state
                    .turns()
                    .into_iter()
                    .map(|t| first_guess(state.mover(), t.picks, t.after))
                    .collect(),
                depth: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                cancelled: false,
                book: false,
            },
            known: None,
        };
        run.rank();
        run
    }

    /// What the committed opening books know of a position they hold at
    /// their frontier, or of the positions after its turns: the value
    /// bounds every turn from above, and a turn whose end the book holds
    /// is exact at once.
    fn read_book(&mut self, solver: &Solver) {
        if !solver.options().book {
            return;
        }
        let book = crate::book::book_value;
        if let Some(v) = book(&self.state) {
            self.known = Some(v);
            for t in &mut self.analysis.turns {
                t.narrow(i32::MIN, v);
            }
        }
        let me = self.me;
        for t in &mut self.analysis.turns {
            if let Some(v) = book(&t.after) {
                let v = if t.after.mover() == me { v } else { -v };
                t.narrow(v, v);
            }
        }
        self.rank();
    }

    /// The three phases on `solver`, then the analysis.
    fn on(mut self, solver: &mut Solver) -> Analysis {
        self.read_book(solver);
        self.estimates(solver);
        self.root(solver);
        self.others(solver);
        self.finish()
    }
}

impl Run<'_> {
    /// Limits for the next search: what is left of the budget up to the
    /// share `share` of the whole budget (from the start), as nodes or as
    /// a deadline.
    fn limits(&self, share: f64) -> (Option<u64>, Option<Instant>) {
        match self.budget {
            Budget::Nodes(all) => {
                let until = (all as f64 * share) as u64;
                (Some(until.saturating_sub(self.nodes)), None)
            }
            Budget::Seconds(s) => (None, Some(self.t0 + Duration::from_secs_f64(s * share))),
        }
    }

    /// True once the share `share` of the budget is spent, or cancelled.
    fn spent(&self, share: f64) -> bool {
        self.cancel.load(Ordering::Relaxed)
            || match self.budget {
                Budget::Nodes(all) => self.nodes >= (all as f64 * share) as u64,
                Budget::Seconds(s) => self.t0.elapsed().as_secs_f64() >= s * share,
            }
    }

    /// The value for the player to move of a value from `after`'s mover's view.
    fn mine(&self, after: &GameState, v: i32) -> i32 {
        if after.mover() == self.me {
            v
        } else {
            -v
        }
    }

    /// Phase 1: depth-limited estimates of every turn, one turn deeper a
    /// pass, while [`Run::estimate_share`] of the budget lasts. A pass that
    /// is stopped keeps the estimates it finished (each turn says its own depth).
    fn estimates(&mut self, solver: &mut Solver) {
        let was = solver.set_horizon(Horizon::for_analysis(self.state.rules()));
        match solver.helper() {
            // The estimates run on one thread: the position's proof (phase
            // 2's work) starts beside them on another, in the same table,
            // and ends them once it has the value.
            Some(mut helper) => {
                let (stop, state) = (AtomicBool::new(false), self.state);
                let proved = Arc::new(AtomicBool::new(false));
                solver.stop_when(Some(Arc::clone(&proved)));
                std::thread::scope(|scope| {
                    let proof = scope.spawn(|| {
                        let nodes = helper.help_prove(&state, &stop);
                        proved.store(true, Ordering::Relaxed);
                        nodes
                    });
                    self.deepen(solver);
                    stop.store(true, Ordering::Relaxed);
                    self.nodes += proof
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e));
                });
                solver.stop_when(None);
            }
            None => self.deepen(solver),
        }
        solver.set_horizon(was);
    }

    /// The passes of [`Run::estimates`], one turn deeper each.
    fn deepen(&mut self, solver: &mut Solver) {
        let mut depth = 1;
        // The first passes may use the whole budget, not only the
        // estimates' share: on a loaded machine the share can pass while
        // the table is zeroed, and an answer that looked 0 turns ahead
        // when the budget allowed more misleads.
        let later = self.estimate_share();
        let share = |depth: u32| if depth <= FIRST_DEPTHS { 1.0 } else { later };
        while !self.spent(share(depth)) && self.analysis.turns.iter().any(|t| !t.exact) {
            let mut all = true;
            for i in 0..self.analysis.turns.len() {
                if self.analysis.turns[i].exact {
                    continue;
                }
                let (nodes, deadline) = self.limits(share(depth));
                solver.set_limits(nodes, deadline);
                let after = self.analysis.turns[i].after;
                // The last estimate, from the mover of `after`'s view.
                let guess = self.mine(&after, self.analysis.turns[i].value);
                let v = solver.estimate(&after, depth, guess, self.cancel);
                self.nodes += solver.nodes();
                match v {
                    Some(v) => {
                        let v = self.mine(&after, v);
                        let t = &mut self.analysis.turns[i];
                        t.value = v.clamp(t.low, t.high);
                        t.depth = depth;
                    }
                    None => {
                        all = false;
                        break;
                    }
                }
            }
            if !all {
                break;
            }
            self.analysis.depth = depth;
            self.rank();
            self.progress();
            // A depth past the stones left cannot change any estimate.
            if depth > self.state.stones_in_pits() {
                break;
            }
            depth += 1;
        }
    }

    /// Phase 2: the position itself to the end of the game.
    fn root(&mut self, solver: &mut Solver) {
        if self.spent(1.0) || self.analysis.turns.iter().all(|t| t.exact) {
            return;
        }
        let (nodes, deadline) = self.limits(1.0);
        solver.set_limits_within(nodes, deadline);
        // The best estimate is MTD(f)'s first guess: near the value, the
        // proof needs fewer passes.
        let guess = self.known.unwrap_or(self.analysis.turns[0].value);
        let r = solver.solve_near(&self.state, guess, self.cancel);
        self.nodes += r.nodes;
        // Every turn is at most the position's value (bound proved either way).
        for t in &mut self.analysis.turns {
            t.narrow(i32::MIN, r.upper);
        }
        self.tighten(solver);
        if r.exact {
            // The best turn: the one that ends where the solver's best turn
            // does; when the budget ran out before the solver found it, a
            // turn the table proves to reach the value.
            let end = if r.best_turn.is_empty() {
                self.turn_reaching(solver, r.value)
            } else {
                let mut end = self.state;
                for &p in &r.best_turn {
                    end.play_unchecked(p);
                }
                end
            };
            if let Some(t) = self.analysis.turns.iter_mut().find(|t| t.after == end) {
                *t = TurnValue {
                    value: r.value,
                    exact: true,
                    low: r.value,
                    high: r.value,
                    line: r.pv.get(1..).unwrap_or_default().to_vec(),
                    ..t.clone()
                };
            }
        }
        self.rank();
        self.progress();
    }

    /// Phase 3: the other turns to the end, best estimate first, in laps
    /// over them, each a slice of what is left of the budget.
    fn others(&mut self, solver: &mut Solver) {
        loop {
            let open: Vec<usize> = (0..self.analysis.turns.len())
                .filter(|&i| !self.analysis.turns[i].exact)
                .collect();
            if open.is_empty() || self.spent(1.0) {
                return;
            }
            for (k, &i) in open.iter().enumerate() {
                if self.spent(1.0) {
                    return;
                }
                // This turn's slice: an equal share of what is left among
                // the turns still open in this lap.
                let share = self.slice_end(open.len() - k);
                let (nodes, deadline) = self.limits(share);
                solver.set_limits_within(nodes, deadline);
                let after = self.analysis.turns[i].after;
                let guess = self.mine(&after, self.analysis.turns[i].value);
                let r = solver.solve_near(&after, guess, self.cancel);
                self.nodes += r.nodes;
                let (lo, hi) = (self.mine(&after, r.upper), self.mine(&after, r.lower));
                let (lo, hi) = (lo.min(hi), lo.max(hi));
                let t = &mut self.analysis.turns[i];
                t.narrow(lo, hi);
                if r.exact {
                    t.line = r.pv;
                }
                self.tighten(solver);
                self.rank();
                self.progress();
            }
        }
    }

    /// The end of a turn that reaches `value`, the position's proved value:
    /// the best ranked whose proven bounds (after [`Run::tighten`]) say so,
    /// which the proof leaves in the table for the turn it went through
    /// (in the endgame database when the turn sweeps the board down to it);
    /// else the solver's, found pick by pick past the budget (so that a
    /// proved value always comes with its turn).
    fn turn_reaching(&mut self, solver: &mut Solver, value: i32) -> GameState {
        if let Some(t) = self.analysis.turns.iter().find(|t| t.low >= value) {
            return t.after;
        }
        solver.set_limits(None, None);
        let before = solver.nodes();
        let (_, picks) = solver.best_turn(&self.state, None, self.cancel);
        self.nodes += solver.nodes() - before;
        let mut end = self.state;
        for &p in &picks {
            end.play_unchecked(p);
        }
        end
    }

    /// Every open turn's bounds narrowed by what the table proved about the
    /// position after it: a search of the position (or of another turn)
    /// that stopped short still proved bounds on the turns it went through.
    fn tighten(&mut self, solver: &Solver) {
        let me = self.me;
        for t in self.analysis.turns.iter_mut().filter(|t| !t.exact) {
            if let Some((lo, hi)) = solver.proven_bounds(&t.after) {
                let (lo, hi) = if t.after.mover() == me {
                    (lo, hi)
                } else {
                    (-hi, -lo)
                };
                t.narrow(lo, hi);
            }
        }
    }

    /// The share of the budget for the estimates: a quarter, and at most
    /// [`ESTIMATE_SECONDS`] or [`ESTIMATE_NODES`].
    fn estimate_share(&self) -> f64 {
        match self.budget {
            Budget::Nodes(all) => (ESTIMATE_NODES as f64 / all.max(1) as f64).min(0.25),
            Budget::Seconds(s) => (ESTIMATE_SECONDS / s).min(0.25),
        }
    }

    /// The share of the whole budget at which a slice of `open` equal
    /// slices of what is left ends.
    fn slice_end(&self, open: usize) -> f64 {
        let used = match self.budget {
            Budget::Nodes(all) => self.nodes as f64 / all.max(1) as f64,
            Budget::Seconds(s) => self.t0.elapsed().as_secs_f64() / s,
        };
        (used + (1.0 - used).max(0.0) / open.max(1) as f64).min(1.0)
    }

    /// Best first: by value, proved before not, then the picks' order.
    fn rank(&mut self) {
        self.analysis.turns.sort_by(|a, b| {
            b.value
                .cmp(&a.value)
                .then(b.exact.cmp(&a.exact))
                .then(b.high.cmp(&a.high))
                .then_with(|| a.picks.cmp(&b.picks))
        });
    }

    fn progress(&mut self) {
        self.analysis.nodes = self.nodes;
        self.analysis.elapsed = self.t0.elapsed();
        if let Some(report) = self.report {
            report(&self.analysis);
        }
    }

    fn finish(mut self) -> Analysis {
        self.analysis.cancelled |= self.cancel.load(Ordering::Relaxed);
        self.analysis.nodes = self.nodes;
        self.analysis.elapsed = self.t0.elapsed();
        self.analysis
    }
}

#[cfg(test)]
mod tests;
