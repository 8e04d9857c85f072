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
//! What the search uses (what each pays is measured by `cargo bench --bench
//! game`; docs/notebook/game-solver.md has the figures):
//! - a transposition table of lower and upper bounds with the best pick,
//!   the entry that looked further and cost more kept; the bucket is
//!   prefetched while the children are ordered, and the table asks for huge
//!   pages (the probes' TLB misses are most of the time). Under scope own
//!   with a known stone count ([`SolveOptions::max_stones`]) its entries are
//!   8 bytes, eight to a 64-byte bucket, keyed exactly by the rank of the
//!   pit counts ([`CompactTable`]): four times the entries of the 32-byte
//!   layout (two to a bucket) in the same memory, which is what makes
//!   Kalah(6,4) solvable in 4 GiB;
//! - threads ([`SolveOptions::threads`]): they share each search (Young
//!   Brothers Wait, [`split`]): a node's children after the first are
//!   searched side by side once the first did not cut; the value and the
//!   principal variation do not depend on their number;
//! - move ordering: the table's pick, then picks that end in the store (the
//!   one nearest the store first), then the rest by the stones they put in
//!   the store at once (sown past it, captured), nearest the store first
//!   among equals ([`order_score`]; about a fifth of the picks of
//!   ordering captures first by size);
//! - enhanced transposition cutoffs ([`SolveOptions::etc`]): before
//!   searching a node's children, their table bounds are checked for a
//!   cutoff, at nodes with [`SolveOptions::etc_stones`] stones or more;
//! - an endgame database ([`SolveOptions::endgame_stones`]): exact values of
//!   every position with few stones in its pits, filled on demand in a dense
//!   array indexed by the position's rank, never replaced (each position's
//!   children ranked first and loaded together, so that their cache misses
//!   overlap), or built whole before the search, bottom-up by stone count
//!   ([`SolveOptions::endgame_build`]);
//! - iterative deepening before the exact search ([`SolveOptions::deepening`]),
//!   for MTD(f)'s first guess: on by default only where nothing is captured
//!   (see [`SolveOptions::fit_to`]), where the values are far from the
//!   guess of no more gains; with captures it does not lower the node count.
//!
//! # Limits
//!
//! [`SolveOptions::table_bytes`] is refused before any work if it exceeds
//! [`SolveOptions::memory_cap`] (the endgame database counts too). A cancel
//! flag stops the search; the result then carries the bounds known so far.
//! Under [`Scope::Any`] the value is that of the game with
//! [`ANY_SCOPE_TURN_LIMIT`] (turns left are part of the key there).

use crate::endgame::{Endgame, EndgameDb, Ranks};
use crate::error::GameError;
use crate::state::{GameState, CYCLE_CAP};
use base::clock::Instant;
use rules::Pit;
use rules::{Rules, Scope};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

mod builder;
mod checkpoint;
mod limits;
mod options;
mod root;
mod search;
mod split;
mod table;
mod turn;
mod watch;
pub use builder::SolverBuilder;
pub use checkpoint::{Keep, KeepEvent, CHECKPOINT_FORMAT};
pub use options::{
    table_for, SolveOptions, ENDGAME_ON_DEMAND_BYTES, SMALL_TABLE, SMALL_TABLE_STONES,
};

use table::{table, Bucket, CompactTable, Table, COMPACT_BYTES};
pub use watch::{SolveWatch, WatchReading};

/// What the whole-game solver found: the game's value with perfect play,
/// not one turn's best store (that is the search's [`sweep::Solution`]).
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

/// A position's pits, both sides in play order, as the search keys them
/// (the stores apart).
type PitCounts = [u8; CYCLE_CAP];

const NO_MOVE: u8 = u8::MAX;

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
    opts: SolveOptions,
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
    /// The threads of a search on more than one, sharing its nodes
    /// ([`split`]); `None` on one thread.
    splits: Option<Arc<split::Splits>>,
    /// The innermost offered node this thread searches under.
    under: Option<Arc<split::SplitPoint>>,
    /// The stop was heard because another thread settled a node above
    /// ([`Solver::cut_above`]), not from the cancel flag or the limits.
    split_stop: bool,
    /// Nodes with this many stones in their pits or more may split
    /// ([`split::SPLIT_STONES`]).
    split_stones: i32,
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
    /// the rules capture, the stores otherwise: each estimates better under
    /// its rules (docs/notebook/game-analyze.md).
    pub fn for_analysis(rules: Rules) -> Horizon {
        if rules.capture.ever_takes() {
            Horizon::Material
        } else {
            Horizon::Stores
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
    /// A solver made as [`SolverBuilder::build`] asks; `Ok(None)` when
    /// `cancel` was set while the table was zeroed.
    fn create(
        rules: Rules,
        n: usize,
        mut opts: SolveOptions,
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
        let endgame = match file_db {
            Some(db) => Some(db.db.clone()),
            None => on_demand,
        };
        let endgame_max = endgame.as_ref().map_or(0, |db| db.ranks.max_stones as i32);
        Ok(Some(Solver {
            rules,
            n,
            table,
            mask: buckets as usize - 1,
            nodes: 0,
            expanded: 0,
            stopped: false,
            endgame,
            endgame_whole: file_db.is_some(),
            etc_stones: opts.etc_stones as i32,
            limits: Limits::NONE,
            stop_when: None,
            watch: Some(Arc::default()),
            horizon: Horizon::Stores,
            opts,
            splits: None,
            under: None,
            split_stop: false,
            split_stones: split::SPLIT_STONES.max(endgame_max + split::SPLIT_ABOVE_DB),
        }))
    }

    /// Table entries for `opts` (a power of two).
    fn entries(opts: &SolveOptions) -> u64 {
        let entries = (opts.table_bytes / ENTRY_BYTES).max(2);
        1u64 << (63 - entries.leading_zeros())
    }

    /// Stones up to which the endgame database is built under `rules`.
    fn endgame_stones(rules: Rules, opts: &SolveOptions) -> u32 {
        if rules.scope == Scope::Own {
            opts.endgame_stones
        } else {
            0
        }
    }

    /// Bytes a solver for `rules` on `n` pits a side takes with `opts`
    /// (table and endgame database), as [`Solver::new`] counts them
    /// against the cap: a server that keeps solvers alive adds them up.
    pub fn bytes(rules: Rules, n: usize, opts: &SolveOptions) -> u64 {
        let db_bytes = Endgame::bytes(2 * n, Solver::endgame_stones(rules, opts));
        let table_bytes = match CompactTable::layout(rules, n, opts) {
            Some((entries, _, _)) => entries * COMPACT_BYTES,
            None => Solver::entries(opts) * ENTRY_BYTES,
        };
        table_bytes + db_bytes
    }

    /// The table's entries and the bytes of one: 8-byte entries keyed by
    /// rank where [`SolveOptions::max_stones`] lets them, 32-byte ones
    /// otherwise.
    pub fn table_entries(&self) -> (u64, u64) {
        match &self.table {
            Table::Compact(t) => (t.buckets.len() as u64 * 8, COMPACT_BYTES),
            Table::Wide { buckets, .. } => (buckets.len() as u64 * 2, ENTRY_BYTES),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &SolveOptions {
        &self.opts
    }

    /// True when this solver can search `state`: the same rules and board
    /// size, and no more stones in the pits than its table was made for
    /// ([`SolveOptions::max_stones`]), so that it can be kept from one
    /// position of a game to the next.
    pub fn takes(&self, state: &GameState) -> bool {
        self.rules == state.rules()
            && self.n == state.pits_per_side()
            && (self.opts.max_stones == 0 || state.stones_in_pits() <= self.opts.max_stones)
    }
}

impl GameSolveResult {
    /// The answer of a solve stopped before it began (while its table was
    /// zeroed): nothing known but what the stones allow.
    fn not_started(state: &GameState, t0: Instant) -> GameSolveResult {
        let (base, s) = (state.mover_minus_opponent(), state.stones_in_pits() as i32);
        GameSolveResult {
            // Stopped: not called exact, even where no stone is left.
            exact: false,
            ..GameSolveResult::unsearched(base, (base - s, base + s), t0, true)
        }
    }

    /// An answer no search made: `value` within `(lower, upper)` (exact
    /// when they meet), no turn, no line, no picks.
    pub(super) fn unsearched(
        value: i32,
        (lower, upper): (i32, i32),
        t0: Instant,
        cancelled: bool,
    ) -> GameSolveResult {
        GameSolveResult {
            value,
            exact: lower == upper,
            lower,
            upper,
            best_turn: vec![],
            pv: vec![],
            nodes: 0,
            value_nodes: 0,
            expanded: 0,
            elapsed: t0.elapsed(),
            cancelled,
        }
    }
}

#[cfg(test)]
mod tests;
