//! The exact solver: the value of a position with perfect play by both
//! sides, the best first turn, and the principal variation.
//!
//! # Value
//!
//! The value is the mover's final store minus the opponent's final store
//! (so, from the start, first player minus second player). Stores only grow
//! and never feed back into play, so the search works on the pits alone: a
//! node's value is the mover's future gains minus the opponent's, and the
//! stores already filled are added at the root. This makes positions that
//! differ only in their stores one transposition-table entry.
//!
//! # Search
//!
//! Picks are the nodes: a pick that ends in the store keeps the mover (the
//! child's value is added), one that ends the turn hands the board over (the
//! child's value is subtracted, negamax). The root is solved with MTD(f):
//! a sequence of null-window fail-soft alpha-beta searches that close in on
//! the value from the first guess 0. Table bounds carry the depth (in turns)
//! they looked ahead; a search to the end of the game uses only bounds that
//! did too, so its value is exact. Depth-limited searches serve the `mtdf`
//! agent ([`Solver::best_turn`]) and optional iterative deepening.
//!
//! What the search uses, and what each paid on Kalah(6,3) (docs/games.md's
//! "Whole games" figures):
//! - a transposition table of lower and upper bounds with the best pick,
//!   the entry that looked further and cost more kept; the bucket is
//!   prefetched while the children are ordered, and the table asks for huge
//!   pages (the probes' TLB misses were most of the time). Under scope own
//!   with a known stone count ([`GameSolveOptions::max_stones`]) its entries are
//!   8 bytes, eight to a 64-byte bucket, keyed exactly by the rank of the
//!   pit counts ([`CompactTable`]): four times the entries of the 32-byte
//!   layout (two to a bucket) in the same memory, which is what made
//!   Kalah(6,4) solvable in 4 GiB;
//! - threads ([`GameSolveOptions::threads`]): helpers run their own MTD(f) on
//!   the shared compact table (lazy SMP); the value and the principal
//!   variation do not depend on their number;
//! - move ordering: the table's pick, then picks that end in the store (the
//!   one nearest the store first), then the rest by the stones they put in
//!   the store at once (sown past it, captured), nearest the store first
//!   among equals ([`order_score`]; 7.5 M picks for Kalah(6,3)'s value
//!   with captures first by size, 1.4 M with this);
//! - enhanced transposition cutoffs ([`GameSolveOptions::etc`]): before
//!   searching a node's children, their table bounds are checked for a
//!   cutoff, at nodes with [`GameSolveOptions::etc_stones`] stones or more;
//! - an endgame database ([`GameSolveOptions::endgame_stones`]): exact values of
//!   every position with few stones in its pits, filled on demand in a dense
//!   array indexed by the position's rank, never replaced (each position's
//!   children ranked first and loaded together, so that their cache misses
//!   overlap), or built whole before the search, bottom-up by stone count
//!   ([`GameSolveOptions::endgame_build`]);
//! - iterative deepening before the exact search ([`GameSolveOptions::deepening`]),
//!   for MTD(f)'s first guess: on by default only where nothing is captured
//!   (see [`GameSolveOptions::fit_to`]), where the values are far from the
//!   guess of no more gains; with captures it did not lower the node count.
//!
//! # Limits
//!
//! [`GameSolveOptions::table_bytes`] is refused before any work if it exceeds
//! [`GameSolveOptions::memory_cap`] (the endgame database counts too). A cancel
//! flag stops the search; the result then carries the bounds known so far.
//! Under [`Scope::Any`] the value is that of the game with
//! [`ANY_SCOPE_TURN_LIMIT`] (turns left are part of the key there).

use crate::clock::Instant;
use crate::game::endgame::{huge_vec, prefetch_line, Endgame, EndgameDb, Ranks, UNKNOWN};
use crate::game::error::{EndgameError, GameError};
use crate::game::state::{
    a_side_is_empty, flip_cells, sum, GameState, PickOutcome, ANY_SCOPE_TURN_LIMIT, CYCLE_CAP,
};
use crate::rules::pick::{self, PickEnd};
use crate::rules::Pit;
use crate::rules::{Capture, Rules, Scope};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod checkpoint;
mod options;
mod search;
mod table;
mod watch;
pub use checkpoint::{solve_kept, Keep, KeepEvent, CHECKPOINT_FORMAT};
pub use options::{
    table_for, GameSolveOptions, ENDGAME_ON_DEMAND_BYTES, SMALL_TABLE, SMALL_TABLE_STONES,
};
use search::*;
use table::*;
pub use watch::{SolveWatch, WatchReading};

/// What the whole-game solver found: the game's value with perfect play,
/// not one turn's best store (that is the search's [`crate::search::Solution`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSolveResult {
    /// The value (mover's final store minus opponent's) when exact, else
    /// the middle of the bounds rounded down.
    pub value: i32,
    /// True when `lower == upper`: the search finished.
    pub exact: bool,
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The picks of the best first turn (empty when not exact or over,
    /// or when limits of [`Solver::set_limits_within`] ran out first).
    pub best_turn: Vec<Pit>,
    /// The principal variation: one entry per turn, each its picks (pit
    /// numbers from that turn's mover's view). Empty when not exact; to the
    /// end of the game, or, under a budget ([`Solver::set_limits`]), as
    /// far as the budget reached past the first turn.
    pub pv: Vec<Vec<Pit>>,
    /// Nodes (picks) searched, the principal variation's included.
    pub nodes: u64,
    /// Picks searched until the value was proved (before the principal
    /// variation), every thread's.
    pub value_nodes: u64,
    /// Positions whose picks were searched to prove the value (a pick
    /// answered at once by the table, the endgame database or the end of
    /// the game is a node but not an expanded position): what other
    /// solvers, Irving's among them, count as nodes.
    pub expanded: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// True when the cancel flag stopped the search.
    pub cancelled: bool,
}

/// The depth of a search that goes to the end of the game.
const TO_THE_END: u8 = u8::MAX;

/// Bytes one table entry takes (two to a 64-byte bucket).
pub const ENTRY_BYTES: u64 = std::mem::size_of::<Bucket>() as u64 / 2;

type Cells = [u8; CYCLE_CAP];

const NO_MOVE: u8 = u8::MAX;

/// Helper threads take the children of positions with at least this many
/// stones in their pits in another order than the calling thread.
const HELPER_STONES: i32 = 30;

/// Children are played before any is searched ([`Solver::upfront_children`])
/// at positions with at most this many stones more than the endgame
/// database holds: there many children are in the database, and their
/// lines are fetched together.
const DB_REACH: i32 = 8;

/// The exact solver for one rule set and board size; keep it between calls
/// to reuse its table (an agent that plays perfectly does).
pub struct Solver {
    rules: Rules,
    n: usize,
    opts: GameSolveOptions,
    table: Table,
    /// Buckets in the table, less one (a power of two, less one).
    mask: usize,
    nodes: u64,
    /// Positions whose picks were searched (see [`GameSolveResult::expanded`]).
    expanded: u64,
    stopped: bool,
    endgame: Option<Arc<Endgame>>,
    /// The endgame database is filled whole (built before the search or
    /// read from a file), so that the children in it are read at once
    /// ([`Solver::upfront_children`]); filled on demand, a child is filled
    /// only when searched.
    endgame_whole: bool,
    /// 0 for the calling thread; a helper's number otherwise (it varies
    /// the order of the children of large positions).
    helper: usize,
    /// Enhanced transposition cutoffs are tried at nodes with at least this
    /// many stones in their pits.
    etc_stones: i32,
    /// Where a search stops by itself as if cancelled: an analysis with a
    /// budget of time or of nodes (nodes for runs that must repeat exactly).
    limits: Limits,
    /// Set by another thread to stop the next calls as a limit would
    /// ([`Solver::stop_when`]).
    stop_when: Option<Arc<AtomicBool>>,
    /// What the search has done so far, for another thread to show; the
    /// calling thread's alone (helpers have none).
    watch: Option<Arc<SolveWatch>>,
    /// What a depth-limited search scores at its horizon.
    horizon: Horizon,
}

/// What a depth-limited search ([`Solver::estimate`], the `mtdf` and
/// `budget` agents) scores where it stops looking, beside the stores. The
/// search to the end never reaches a horizon, so exact values do not
/// depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Horizon {
    /// The stores alone: no gain past the horizon. Right where the stones
    /// on a side are not that side's (avalanche, any-hole: the opponent's
    /// next turn may sow them away), and what the agents play by.
    #[default]
    Stores,
    /// The stores, and half the difference of the stones in the pits of
    /// each side: with captures, a game ends with each side keeping the
    /// stones left on it, and stones on one's own side are hard to take.
    /// Measured on the analysis bench's 75 capture positions of 31 to 44
    /// stones (2 M picks each): the best turn right in 62 against 58 with
    /// the stores alone; on avalanche 84 of 100 against 89, so the analysis
    /// uses it for capture rules only ([`Horizon::for_analysis`]).
    Material,
}

impl Horizon {
    /// The horizon the analysis estimates with under `rules`: material when
    /// the rules capture, the stores otherwise (docs/games.md#targets).
    pub fn for_analysis(rules: Rules) -> Horizon {
        match rules.capture {
            Capture::None => Horizon::Stores,
            Capture::Kalah | Capture::Empty => Horizon::Material,
        }
    }
}

/// A search's own stopping point beside the cancel flag, checked where the
/// flag is (every 4,096 nodes), so that a budget needs no watcher thread.
#[derive(Clone, Copy, Debug)]
struct Limits {
    /// Stop once this many nodes were searched since the call began.
    nodes: u64,
    /// Stop at this moment.
    deadline: Option<Instant>,
    /// How far past them the line of a value proved within them goes.
    line: LineLimits,
}

/// What a value proved within [`Limits`] gets of its principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineLimits {
    /// Its first turn past the limits, the rest within them: a budget
    /// ([`Solver::set_limits`]), so that a proved value has its turn.
    TurnPast,
    /// All of it within them, the first turn too: a budget whose caller
    /// finds the turn otherwise ([`Solver::set_limits_within`]).
    Within,
    /// The whole line: a pause, not a budget ([`Solver::set_pause`]).
    Whole,
}

impl Limits {
    const NONE: Limits = Limits {
        nodes: u64::MAX,
        deadline: None,
        line: LineLimits::TurnPast,
    };
}

impl Solver {
    /// A solver for `rules` on boards of `n` pits a side. Refuses when the
    /// table (and endgame database) would exceed `opts.memory_cap`.
    pub fn new(rules: Rules, n: usize, opts: GameSolveOptions) -> Result<Solver, GameError> {
        let never = AtomicBool::new(false);
        Ok(Solver::new_cancellable(rules, n, opts, &never)?.expect("not cancelled"))
    }

    /// [`Solver::new`], or `Ok(None)` when `cancel` was set while the
    /// table was being zeroed (seconds for gigabytes).
    pub fn new_cancellable(
        rules: Rules,
        n: usize,
        opts: GameSolveOptions,
        cancel: &AtomicBool,
    ) -> Result<Option<Solver>, GameError> {
        Solver::create(rules, n, opts, None, cancel)
    }

    /// [`Solver::new_cancellable`] with a database filled whole (built or
    /// read from a file, see [`EndgameDb`]) instead of the one filled on
    /// demand ([`GameSolveOptions::endgame_stones`] is not used). Its bytes
    /// count against [`GameSolveOptions::memory_cap`] with the table's.
    pub fn with_endgame(
        rules: Rules,
        n: usize,
        opts: GameSolveOptions,
        db: &EndgameDb,
        cancel: &AtomicBool,
    ) -> Result<Option<Solver>, GameError> {
        if db.rules() != rules || db.pits_per_side() != n {
            return Err(EndgameError::Foreign {
                built_n: db.pits_per_side(),
                built: db.rules(),
                n,
                rules,
            }
            .into());
        }
        Solver::create(rules, n, opts, Some(db), cancel)
    }

    fn create(
        rules: Rules,
        n: usize,
        mut opts: GameSolveOptions,
        file_db: Option<&EndgameDb>,
        cancel: &AtomicBool,
    ) -> Result<Option<Solver>, GameError> {
        if file_db.is_some() {
            opts.endgame_stones = 0;
            opts.endgame_build = false;
        }
        let endgame_stones = Solver::endgame_stones(rules, &opts);
        let endgame = Endgame::bytes(2 * n, endgame_stones) + file_db.map_or(0, EndgameDb::bytes);
        let table_bytes = Solver::bytes(rules, n, &opts) - Endgame::bytes(2 * n, endgame_stones);
        if table_bytes + endgame > opts.memory_cap {
            return Err(GameError::TableTooLarge {
                table: table_bytes,
                endgame,
                cap: opts.memory_cap,
            });
        }
        // Zeroing a database of gigabytes takes seconds: a stop is heard
        // during it as during the table's.
        let on_demand = match file_db {
            Some(_) => None,
            None if endgame_stones > 0 => match Endgame::new_until(2 * n, endgame_stones, cancel) {
                Some(db) => Some(Arc::new(db)),
                None => return Ok(None),
            },
            None => None,
        };
        let any_bits = if rules.scope == Scope::Any { 16 } else { 0 };
        let (table, buckets) = match CompactTable::layout(rules, n, &opts) {
            Some((entries, key_bits, index_bits)) => (
                Table::Compact(Arc::new(CompactTable {
                    buckets: match table(entries as usize / 8, cancel) {
                        Some(t) => t,
                        None => return Ok(None),
                    },
                    ranks: Ranks::new(2 * n, opts.max_stones),
                    key_bits,
                    index_bits,
                })),
                entries / 8,
            ),
            None => {
                let entries = Solver::entries(&opts);
                (
                    Table::Wide {
                        buckets: match table(entries as usize / 2, cancel) {
                            Some(t) => t,
                            None => return Ok(None),
                        },
                        exact: 16 * n + any_bits <= 128,
                    },
                    entries / 2,
                )
            }
        };
        Ok(Some(Solver {
            rules,
            n,
            table,
            mask: buckets as usize - 1,
            nodes: 0,
            expanded: 0,
            stopped: false,
            endgame: match file_db {
                Some(db) => Some(db.db.clone()),
                None => on_demand,
            },
            endgame_whole: file_db.is_some(),
            helper: 0,
            etc_stones: opts.etc_stones as i32,
            limits: Limits::NONE,
            stop_when: None,
            watch: Some(Arc::default()),
            horizon: Horizon::Stores,
            opts,
        }))
    }

    /// Table entries for `opts` (a power of two).
    fn entries(opts: &GameSolveOptions) -> u64 {
        let entries = (opts.table_bytes / ENTRY_BYTES).max(2);
        1u64 << (63 - entries.leading_zeros())
    }

    /// Stones up to which the endgame database is built under `rules`.
    fn endgame_stones(rules: Rules, opts: &GameSolveOptions) -> u32 {
        if rules.scope == Scope::Own {
            opts.endgame_stones
        } else {
            0
        }
    }

    /// Bytes a solver for `rules` on `n` pits a side takes with `opts`
    /// (table and endgame database), as [`Solver::new`] counts them
    /// against the cap: a server that keeps solvers alive adds them up.
    pub fn bytes(rules: Rules, n: usize, opts: &GameSolveOptions) -> u64 {
        let db_bytes = Endgame::bytes(2 * n, Solver::endgame_stones(rules, opts));
        let table_bytes = match CompactTable::layout(rules, n, opts) {
            Some((entries, _, _)) => entries * COMPACT_BYTES,
            None => Solver::entries(opts) * ENTRY_BYTES,
        };
        table_bytes + db_bytes
    }

    /// The table's entries and the bytes of one: 8-byte entries keyed by
    /// rank where [`GameSolveOptions::max_stones`] lets them, 32-byte ones
    /// otherwise.
    pub fn table_entries(&self) -> (u64, u64) {
        match &self.table {
            Table::Compact(t) => (t.buckets.len() as u64 * 8, COMPACT_BYTES),
            Table::Wide { buckets, .. } => (buckets.len() as u64 * 2, ENTRY_BYTES),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &GameSolveOptions {
        &self.opts
    }

    /// True when this solver can search `state`: the same rules and board
    /// size, and no more stones in the pits than its table was made for
    /// ([`GameSolveOptions::max_stones`]), so that it can be kept from one
    /// position of a game to the next.
    pub fn takes(&self, state: &GameState) -> bool {
        self.rules == state.rules()
            && self.n == state.pits_per_side()
            && (self.opts.max_stones == 0 || state.stones_in_pits() <= self.opts.max_stones)
    }

    /// Make the next calls stop by themselves, as a cancel would, after
    /// `nodes` more nodes each (counted from each call's start) or at
    /// `deadline`, whichever comes first (`None`: no such limit).
    /// A value proved within the limits comes with its best turn; the rest
    /// of its principal variation only as far as the limits allow.
    pub fn set_limits(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.limits = Limits {
            nodes: nodes.unwrap_or(u64::MAX),
            deadline,
            line: LineLimits::TurnPast,
        };
    }

    /// [`Solver::set_limits`], but the best turn of a value proved within
    /// them is found within them too: a value proved as they run out then
    /// comes without its turn ([`GameSolveResult::best_turn`] empty). For
    /// a caller that can find the turn another way: an analysis knows its
    /// turns' end positions and reads their proven bounds, where the
    /// search for the turn, pick by pick, overran one-second analyses by
    /// up to a second (docs/games.md).
    pub fn set_limits_within(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.set_limits(nodes, deadline);
        self.limits.line = LineLimits::Within;
    }

    /// Make the next calls stop at `deadline` to be taken up again (a
    /// checkpoint's interval): as [`Solver::set_limits`], but a value
    /// proved before it gets its whole principal variation.
    pub(super) fn set_pause(&mut self, deadline: Instant) {
        self.limits = Limits {
            nodes: u64::MAX,
            deadline: Some(deadline),
            line: LineLimits::Whole,
        };
    }

    /// Make the next calls stop, as a limit does, once `flag` is set (by
    /// another thread: an analysis's estimates end when its helper has
    /// proved the position); `None` forgets the flag. The caller's cancel
    /// flag still stops them too.
    pub fn stop_when(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_when = flag;
    }

    /// True once a limit of [`Solver::set_limits`] is reached, or the flag
    /// of [`Solver::stop_when`] set.
    fn past_limits(&self) -> bool {
        self.nodes >= self.limits.nodes
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop_when
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// What the search of the current call has done so far, readable from
    /// another thread while it runs.
    pub fn watch(&self) -> Arc<SolveWatch> {
        self.watch.clone().unwrap_or_default()
    }

    /// Nodes (picks) searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `state` looking `depth` whole turns ahead, from its
    /// mover's view (mover's store minus the opponent's after `depth` turns,
    /// or at the game's end if sooner, plus what the [`Horizon`] set by
    /// [`Solver::set_horizon`] adds), by depth-limited MTD(f) on the same
    /// table, from the first guess `guess` (the estimate one turn shallower
    /// is a good one: MTD(f) then needs few passes, and the shallower
    /// passes are in the table already); `None` when stopped first. An
    /// estimate, not a bound: the evaluation a few turns on is a guess
    /// (see [`crate::game::analyze`]).
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
    pub(super) fn solve_from(
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
            return GameSolveResult {
                value: base,
                exact: true,
                lower: base,
                upper: base,
                best_turn: vec![],
                pv: vec![],
                nodes: 0,
                value_nodes: 0,
                expanded: 0,
                elapsed: t0.elapsed(),
                cancelled: false,
            };
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
        // Deepening is for a first guess: a given guess or known bounds
        // are better ones.
        let mut g = if guess.is_none() && known.is_none() {
            self.deepened_guess(&pos, s, turns_left, cancel)
        } else {
            0
        };
        let mut window = (self.floor(s, TO_THE_END), s);
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
            if window.0 > self.floor(s, TO_THE_END) {
                g = window.0;
            } else if window.1 < s {
                g = window.1;
            }
        }
        if let Some(w) = &self.watch {
            w.begin(window.0, window.1);
        }
        let (lo, hi) = if self.opts.threads > 1 && matches!(self.table, Table::Compact(_)) {
            self.mtdf_shared(&pos, g, window, turns_left, cancel)
        } else {
            self.mtdf_within(&pos, g, window, TO_THE_END, turns_left, cancel)
                .1
        };
        let exact = lo == hi;
        let (value_nodes, expanded) = (self.nodes, self.expanded);
        let pv = if exact {
            // The value is proved: the line that shows it follows from the
            // table's exact bounds. Its first turn is found past a budget
            // of `set_limits` (the cancel flag still stops it), so that a
            // proved value always comes with its turn, or within one of
            // `set_limits_within`; the rest of the line within what is
            // left of the budget (see `principal_variation`). Its
            // searches of later positions do not report to the watch,
            // which keeps the root's bounds.
            let limits = self.limits;
            if limits.line != LineLimits::Within {
                self.limits = Limits::NONE;
            }
            let watch = self.watch.take();
            let line = match limits.line {
                LineLimits::Whole => Limits::NONE,
                LineLimits::TurnPast | LineLimits::Within => limits,
            };
            let pv = self.principal_variation(state, base + lo, line, cancel);
            self.watch = watch;
            self.limits = limits;
            pv
        } else {
            vec![]
        };
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

    /// [`Solver::mtdf`] to the end of the game on this thread while
    /// [`GameSolveOptions::threads`] − 1 helpers run their own on the same
    /// table (lazy SMP): every bound any of them stores is proven, so each
    /// reuses the others' work, and the helpers take the children of large
    /// positions in other orders so that they do not all search the same
    /// subtree. The helpers stop when this thread has the value (or is
    /// cancelled); their nodes are counted with this thread's.
    fn mtdf_shared(
        &mut self,
        pos: &Cells,
        g: i32,
        window: (i32, i32),
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> (i32, i32) {
        let helpers: Option<Vec<Solver>> = (1..self.opts.threads as usize)
            .map(|helper| self.sibling(helper))
            .collect();
        let Some(helpers) = helpers else {
            return self
                .mtdf_within(pos, g, window, TO_THE_END, turns_left, cancel)
                .1;
        };
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    let done = &done;
                    scope.spawn(move || {
                        h.mtdf_within(pos, g, window, TO_THE_END, turns_left, done);
                        (h.nodes, h.expanded)
                    })
                })
                .collect();
            let bounds = self
                .mtdf_within(pos, g, window, TO_THE_END, turns_left, cancel)
                .1;
            done.store(true, Ordering::Relaxed);
            for h in running {
                let (nodes, expanded) = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                self.nodes += nodes;
                self.expanded += expanded;
            }
            bounds
        })
    }

    /// A solver for another thread on this one's table, helper number
    /// `helper` (which varies its order of the children of large
    /// positions): no limits of its own (it stops when told) and no watch.
    /// `None` when the table is not one to share (the wide layout).
    fn sibling(&self, helper: usize) -> Option<Solver> {
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
            helper,
            etc_stones: self.etc_stones,
            limits: Limits::NONE,
            stop_when: None,
            watch: None,
            horizon: self.horizon,
        })
    }

    /// A helper for work beside this solver's own on another thread, when
    /// it has more than one ([`GameSolveOptions::threads`]) and a table to
    /// share: see [`Solver::help_prove`]. It orders the children as this
    /// solver does (helper number 0): it searches alone what it searches,
    /// and the rotated order of lazy SMP's helpers is for searching the
    /// same tree at once (on its own it costs many times the picks).
    pub fn helper(&self) -> Option<Solver> {
        (self.opts.threads > 1).then(|| self.sibling(0)).flatten()
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
    /// in its pits): the value of [`GameSolveOptions::deepening`] turns of
    /// depth-limited search, each from the last, or 0 (no more gains)
    /// without deepening.
    fn deepened_guess(&mut self, pos: &Cells, s: i32, turns_left: u32, cancel: &AtomicBool) -> i32 {
        let mut g = 0;
        for depth in 1..=self.opts.deepening.min(TO_THE_END as u32 - 1) {
            g = self.mtdf(pos, g, s, depth as u8, turns_left, cancel).0;
        }
        g
    }

    /// MTD(f): null-window searches from the guess `g` until the bounds
    /// meet (or the search is stopped). Returns the last value and the
    /// bounds.
    fn mtdf(
        &mut self,
        pos: &Cells,
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
    fn mtdf_within(
        &mut self,
        pos: &Cells,
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

    /// The best turn from `state` looking `depth` turns ahead (`None`: to
    /// the end of the game, exact), and its value (mover's final store minus
    /// the opponent's when exact; the stores after `depth` turns otherwise).
    /// Each pick of the turn is chosen by searching every legal pick, so
    /// the choice does not depend on which pass of MTD(f) filled the table;
    /// ties go to the lowest pit number. Returns no picks once the game is
    /// over or when `cancel` stopped the search.
    pub fn best_turn(
        &mut self,
        state: &GameState,
        depth: Option<u32>,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>) {
        self.stopped = false;
        let n = self.n;
        let depth = depth.map_or(TO_THE_END, |d| d.clamp(1, TO_THE_END as u32 - 1) as u8);
        let ready = |s: &GameState| ready(n, s);
        // Warm the table, shallow first, for the move ordering.
        let (pos, tl) = ready(state);
        let in_pits = stones(&pos, n) as i32;
        if depth != TO_THE_END {
            let mut g = 0;
            for d in 1..=depth {
                g = self.mtdf(&pos, g, in_pits, d, tl, cancel).0;
            }
        }
        if depth == TO_THE_END {
            return self.best_exact_turn(state, None, cancel);
        }
        let mut picks = Vec::new();
        let mut s = *state;
        let mut total = 0;
        let me = state.mover();
        while !s.is_over() && !self.stopped && (picks.is_empty() || s.mover() == me) {
            let before = s.mover_minus_opponent();
            let mut chosen: Option<(i32, Pit, GameState)> = None;
            for p in s.legal_picks() {
                let mut c = s;
                let out = c.play_unchecked(p);
                let v = if out == PickOutcome::GameOver {
                    c.store(me) as i32 - c.store(me.other()) as i32 - before
                } else {
                    let (cpos, ctl) = ready(&c);
                    let cs = stones(&cpos, n) as i32;
                    let d = if out == PickOutcome::FreeTurn || depth == TO_THE_END {
                        depth
                    } else {
                        depth - 1
                    };
                    let future = if d == 0 {
                        0
                    } else {
                        let (_, (lo, hi)) = self.mtdf(&cpos, 0, cs, d, ctl, cancel);
                        (lo + hi).div_euclid(2)
                    };
                    let gained = c.store(me) as i32 - c.store(me.other()) as i32 - before;
                    if out == PickOutcome::FreeTurn {
                        gained + future
                    } else {
                        gained - future
                    }
                };
                if self.stopped {
                    break;
                }
                if chosen.as_ref().is_none_or(|(b, _, _)| v > *b) {
                    chosen = Some((v, p, c));
                }
            }
            let Some((v, p, c)) = chosen else { break };
            if picks.is_empty() {
                total = before + v;
            }
            picks.push(p);
            s = c;
            if s.mover() != me || s.is_over() {
                break;
            }
        }
        if self.stopped {
            picks.clear();
        }
        (total, picks)
    }

    /// [`Solver::best_turn`] deepened a turn at a time, from 1 up to
    /// `depth` turns, within about `picks` picks in all (the budget is
    /// checked every 4,096 picks, as a cancel is): the turn of the deepest
    /// search that finished, its value and that depth. A budget of picks
    /// rather than of seconds keeps the choice the same on every machine
    /// and under any load, as every agent's is, while bounding the time a
    /// turn takes. The first depth always finishes, whatever the budget,
    /// so that there is a turn to play; `cancel` stops it with no picks.
    pub fn best_turn_within(
        &mut self,
        state: &GameState,
        depth: u32,
        picks: u64,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>, u32) {
        let mut kept = (0, Vec::new(), 0);
        // The picks of the whole turn, every depth's (the progress line
        // shows them growing).
        self.nodes = 0;
        for d in 1..=depth.max(1) {
            if d > 1 {
                self.set_limits(Some(picks), None);
            }
            let (v, turn) = self.best_turn(state, Some(d), cancel);
            self.limits = Limits::NONE;
            if turn.is_empty() {
                break;
            }
            kept = (v, turn, d);
            if self.nodes >= picks {
                break;
            }
        }
        kept
    }

    /// [`Solver::best_turn`] to the end of the game. The exact value of the
    /// position is found once; then each pick, in pit order, is tested with
    /// one null-window search for reaching that value, and the first that
    /// does is played (the lowest optimal pit, as `best_turn` promises).
    /// Exact values have no search instability, so some pick always passes;
    /// valuing every pick with a whole MTD(f) instead made the principal
    /// variation of Kalah(6,3) cost four times the solve itself.
    /// `value`, when known (the principal variation knows each position's
    /// value from the one before), is MTD(f)'s first guess: from the value
    /// itself the proof takes one or two passes, where a guess of no more
    /// gains took many on avalanche, whose values are far from it.
    fn best_exact_turn(
        &mut self,
        state: &GameState,
        value: Option<i32>,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>) {
        let n = self.n;
        let ready = |s: &GameState| ready(n, s);
        let me = state.mover();
        let mut picks = Vec::new();
        if state.is_over() {
            return (0, picks);
        }
        let (pos, tl) = ready(state);
        let guess = value.map_or(0, |v| v - state.mover_minus_opponent());
        let (_, (lo, hi)) = self.mtdf(&pos, guess, stones(&pos, n) as i32, TO_THE_END, tl, cancel);
        if self.stopped || lo != hi {
            return (0, picks);
        }
        // `future`: what the mover can still gain on the opponent from `s`.
        let total = state.mover_minus_opponent() + lo;
        let mut future = lo;
        let mut s = *state;
        'picks: loop {
            let before = s.mover_minus_opponent();
            for p in s.legal_picks() {
                let mut c = s;
                let out = c.play_unchecked(p);
                let gained = c.store(me) as i32 - c.store(me.other()) as i32 - before;
                let reaches = match out {
                    PickOutcome::GameOver => gained >= future,
                    _ => {
                        let (cpos, ctl) = ready(&c);
                        if out == PickOutcome::FreeTurn {
                            // gained + child >= future
                            let b = future - gained;
                            self.search(&cpos, b - 1, b, TO_THE_END, ctl, cancel) >= b
                        } else {
                            // gained - child >= future
                            let b = gained - future + 1;
                            self.search(&cpos, b - 1, b, TO_THE_END, ctl, cancel) < b
                        }
                    }
                };
                if self.stopped {
                    return (0, Vec::new());
                }
                if reaches {
                    picks.push(p);
                    s = c;
                    if out != PickOutcome::FreeTurn {
                        break 'picks;
                    }
                    future -= gained;
                    continue 'picks;
                }
            }
            // Unreachable with exact values; stop rather than loop.
            break;
        }
        (total, picks)
    }

    /// The principal variation: the best turn of each side in turn, to the
    /// end of the game, each found as [`Solver::best_turn`] finds it (so
    /// the PV and the agents' choices are one code path), from `value`,
    /// the proved value of `state`: each turn's value gives the next
    /// position's, the first guess of its search. The first turn is found
    /// whatever the limits; the later ones within `limits` (the caller's
    /// budget, most of it spent on the proof), so that a budgeted call
    /// returns a line cut short rather than late: measured on positions of
    /// 31 to 44 stones, a one-second analysis that proved its value in the
    /// second went on up to 0.7 s more for the rest of the line
    /// (docs/games.md). Stops short when `cancel` stops a search.
    fn principal_variation(
        &mut self,
        state: &GameState,
        value: i32,
        limits: Limits,
        cancel: &AtomicBool,
    ) -> Vec<Vec<Pit>> {
        let mut pv = Vec::new();
        let mut s = *state;
        let mut value = value;
        while !s.is_over() {
            self.stopped = false;
            let (total, turn) = self.best_exact_turn(&s, Some(value), cancel);
            if turn.is_empty() {
                break;
            }
            let mover = s.mover();
            for &p in &turn {
                s.play_unchecked(p);
            }
            value = if s.mover() == mover { total } else { -total };
            pv.push(turn);
            self.limits = limits;
        }
        pv
    }
}
/// Solve `state` exactly with a fresh [`Solver`]: the entry point for a CLI
/// or a server. Refuses before starting when the table would exceed the cap.
pub fn solve(
    state: &GameState,
    opts: &GameSolveOptions,
    cancel: &AtomicBool,
) -> Result<GameSolveResult, GameError> {
    solve_with(state, opts, None, cancel)
}

/// [`solve`] with a database filled whole, when one is given (see
/// [`Solver::with_endgame`]).
pub fn solve_with(
    state: &GameState,
    opts: &GameSolveOptions,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
) -> Result<GameSolveResult, GameError> {
    solve_watched(state, opts, db, cancel, None)
}

/// [`solve_with`], reporting how far it got through `watch` (when given)
/// for another thread to show while it runs.
pub fn solve_watched(
    state: &GameState,
    opts: &GameSolveOptions,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
    watch: Option<Arc<SolveWatch>>,
) -> Result<GameSolveResult, GameError> {
    let t0 = Instant::now();
    let Some(mut solver) = Solver::for_state(state, opts, db, cancel, watch)? else {
        return Ok(GameSolveResult::not_started(state, t0));
    };
    Ok(solver.solve(state, cancel))
}

impl Solver {
    /// A fresh solver for `state`'s rules and board size, with `db` when
    /// given, reporting to `watch` when given; `Ok(None)` when `cancel`
    /// stopped it while its table was zeroed.
    fn for_state(
        state: &GameState,
        opts: &GameSolveOptions,
        db: Option<&EndgameDb>,
        cancel: &AtomicBool,
        watch: Option<Arc<SolveWatch>>,
    ) -> Result<Option<Solver>, GameError> {
        let (rules, n) = (state.rules(), state.pits_per_side());
        let solver = match db {
            Some(db) => Solver::with_endgame(rules, n, opts.clone(), db, cancel)?,
            None => Solver::new_cancellable(rules, n, opts.clone(), cancel)?,
        };
        Ok(solver.map(|mut s| {
            if let Some(w) = watch {
                s.watch = Some(w);
            }
            s
        }))
    }
}

impl GameSolveResult {
    /// The answer of a solve stopped before it began (while its table was
    /// zeroed): nothing known but what the stones allow.
    fn not_started(state: &GameState, t0: Instant) -> GameSolveResult {
        let (base, s) = (state.mover_minus_opponent(), state.stones_in_pits() as i32);
        GameSolveResult {
            value: base,
            exact: false,
            lower: base - s,
            upper: base + s,
            best_turn: vec![],
            pv: vec![],
            nodes: 0,
            value_nodes: 0,
            expanded: 0,
            elapsed: t0.elapsed(),
            cancelled: true,
        }
    }
}

#[cfg(test)]
mod tests;
