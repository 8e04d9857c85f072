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
//!   with a known stone count ([`SolveOptions::max_stones`]) its entries are
//!   8 bytes, eight to a 64-byte bucket, keyed exactly by the rank of the
//!   pit counts ([`CompactTable`]): four times the entries of the 32-byte
//!   layout (two to a bucket) in the same memory, which is what made
//!   Kalah(6,4) solvable in 4 GiB;
//! - threads ([`SolveOptions::threads`]): helpers run their own MTD(f) on
//!   the shared compact table (lazy SMP); the value and the principal
//!   variation do not depend on their number;
//! - move ordering: the table's pick, then picks that end in the store (the
//!   one nearest the store first), then the rest by the stones they put in
//!   the store at once (sown past it, captured), nearest the store first
//!   among equals ([`order_score`]; 7.5 M picks for Kalah(6,3)'s value
//!   with captures first by size, 1.4 M with this);
//! - enhanced transposition cutoffs ([`SolveOptions::etc`]): before
//!   searching a node's children, their table bounds are checked for a
//!   cutoff, at nodes with [`SolveOptions::etc_stones`] stones or more;
//! - an endgame database ([`SolveOptions::endgame_stones`]): exact values of
//!   every position with few stones in its pits, filled on demand in a dense
//!   array indexed by the position's rank, never replaced (each position's
//!   children ranked first and loaded together, so that their cache misses
//!   overlap), or built whole before the search, bottom-up by stone count
//!   ([`SolveOptions::endgame_build`]);
//! - iterative deepening before the exact search ([`SolveOptions::deepening`]):
//!   measured, it did not lower the node count, so it is off by default.
//!
//! # Limits
//!
//! [`SolveOptions::table_bytes`] is refused before any work if it exceeds
//! [`SolveOptions::memory_cap`] (the endgame database counts too). A cancel
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

/// What the solver may use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Bytes for the transposition table (rounded down to a power of two
    /// entries).
    pub table_bytes: u64,
    /// Most bytes the table and the endgame database may take together; a
    /// request above it is refused before the search starts.
    pub memory_cap: u64,
    /// Enhanced transposition cutoffs on.
    pub etc: bool,
    /// Enhanced transposition cutoffs only at positions with at least this
    /// many stones in their pits: they cost a table probe per child, which
    /// pays only where a cutoff saves a large subtree.
    pub etc_stones: u32,
    /// Positions with at most this many stones in their pits are solved
    /// into an endgame database (0: none). Only for [`Scope::Own`].
    pub endgame_stones: u32,
    /// Fill the whole endgame database before the search, layer by layer
    /// from the fewest stones up, on [`SolveOptions::threads`] threads,
    /// instead of on demand. Measured in docs/games.md: on Kalah(6,4) a
    /// 16-stone database built first cut the picks by 28% but not the
    /// time, so it is off by default.
    #[serde(default)]
    pub endgame_build: bool,
    /// Iterative deepening: depth-limited searches of 1, 2, ... this many
    /// turns (leaves scored by the stores) run before the search to the end,
    /// so that its move ordering comes from the table (0: none).
    pub deepening: u32,
    /// The most stones the pits of the positions to solve hold (0: not
    /// known); [`SolveOptions::fit_to`] sets it. Known, and with scope own,
    /// the table keys a position by the rank of its pit counts and packs an
    /// entry into 8 bytes, four times the entries of the 32-byte layout in
    /// the same memory, when the ranks fit its tag (see [`CompactTable`]).
    #[serde(default)]
    pub max_stones: u32,
    /// Threads for [`Solver::solve`] (1: the calling thread alone). More
    /// search the same root at once and share the table ("lazy SMP"), each
    /// helper trying the children of large positions in another order; only
    /// with the compact table, whose 8-byte entries are read and written
    /// whole. The value is exact whatever the count, and the principal
    /// variation is found by the calling thread alone afterwards, so both
    /// are the same for any count; the node count is not.
    #[serde(default = "one")]
    pub threads: u32,
}

fn one() -> u32 {
    1
}

impl Default for SolveOptions {
    /// 256 MiB of table, a 4 GiB cap, ETC at 20 stones and more, endgame
    /// database up to 12 stones, no deepening (measured in docs/games.md).
    fn default() -> Self {
        SolveOptions {
            table_bytes: 256 << 20,
            memory_cap: 4 << 30,
            etc: true,
            etc_stones: 20,
            endgame_stones: 12,
            endgame_build: false,
            deepening: 0,
            max_stones: 0,
            threads: 1,
        }
    }
}

impl SolveOptions {
    /// These options with the table no larger than the positions of at
    /// most `stones` stones in the pits of `n` pits a side can fill (twice
    /// their number, and a turn count per position under [`Scope::Any`]):
    /// a game on a small board needs kilobytes, not the default 256 MiB,
    /// and zeroing a table it cannot use was most of a small solve's time.
    /// Only ever lowers `table_bytes`. Records `stones` as
    /// [`SolveOptions::max_stones`], for the compact table.
    pub fn fit_to(mut self, rules: Rules, n: usize, stones: u32) -> SolveOptions {
        self.max_stones = stones;
        // Positions with at most `stones` stones in 2n pits: C(stones + 2n, 2n).
        let (a, b) = (stones as u128 + 2 * n as u128, 2 * n as u128);
        let mut positions: u128 = 1;
        for i in 0..b {
            positions = positions * (a - i) / (i + 1);
            if positions > 1 << 60 {
                return self.fit_endgame(rules, n);
            }
        }
        if rules.scope == Scope::Any {
            positions *= ANY_SCOPE_TURN_LIMIT as u128 + 1;
        }
        let bytes = (2 * positions * ENTRY_BYTES as u128).min(u64::MAX as u128) as u64;
        self.table_bytes = self.table_bytes.min(bytes.max(2 * ENTRY_BYTES));
        self.fit_endgame(rules, n)
    }

    /// These options with the endgame database filled on demand
    /// ([`SolveOptions::endgame_stones`]) lowered, a stone at a time, until
    /// it takes no more than the larger of the table and
    /// [`ENDGAME_ON_DEMAND_BYTES`], and the table and database together fit
    /// [`SolveOptions::memory_cap`]. Its size grows with the board as
    /// C(2n + stones, stones): 12 stones are 2.7 MB on 6 pits a side but
    /// 5.6 GB on 14 and 21 GB on 16, which would be refused for the cap (or
    /// take seconds to zero) although a smaller database does the same
    /// job. Only ever lowers `endgame_stones`.
    fn fit_endgame(mut self, rules: Rules, n: usize) -> SolveOptions {
        let most = self.table_bytes.max(ENDGAME_ON_DEMAND_BYTES);
        while self.endgame_stones > 0
            && (Endgame::bytes(2 * n, Solver::endgame_stones(rules, &self)) > most
                || Solver::bytes(rules, n, &self) > self.memory_cap)
        {
            self.endgame_stones -= 1;
        }
        self
    }
}

/// The most bytes [`SolveOptions::fit_to`] gives the endgame database filled
/// on demand when the table is smaller: 12 stones of 10 pits a side (225 MB)
/// fit, larger boards get fewer stones.
pub const ENDGAME_ON_DEMAND_BYTES: u64 = 256 << 20;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveResult {
    /// The value (mover's final store minus opponent's) when exact, else
    /// the middle of the bounds rounded down.
    pub value: i32,
    /// True when `lower == upper`: the search finished.
    pub exact: bool,
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The picks of the best first turn (empty when not exact or over).
    pub best_turn: Vec<Pit>,
    /// The principal variation: one entry per turn, each its picks (pit
    /// numbers from that turn's mover's view). Empty when not exact.
    pub pv: Vec<Vec<Pit>>,
    /// Nodes (picks) searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// True when the cancel flag stopped the search.
    pub cancelled: bool,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    k0: u64,
    k1: u64,
    lo: i16,
    hi: i16,
    best: u8,
    work: u8,
    /// Turns the bounds looked ahead; [`TO_THE_END`] for exact bounds.
    depth: u8,
}

/// Two entries in one cache line: a probe costs one miss.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

/// The depth of a search that goes to the end of the game.
const TO_THE_END: u8 = u8::MAX;

/// Bytes one table entry takes (two to a 64-byte bucket).
pub const ENTRY_BYTES: u64 = std::mem::size_of::<Bucket>() as u64 / 2;

type Cells = [u8; CYCLE_CAP];

/// A child of a node, played: (position ready for its mover, gain, kind):
/// kind 0 = terminal (gain is the whole value), 1 = free turn, 2 = turn
/// over.
type Child = (Cells, i32, u8);

/// The window and depths of a node, handed to its children's loop.
#[derive(Clone, Copy)]
struct Frame {
    alpha: i32,
    beta: i32,
    depth: u8,
    deeper: u8,
    turns_left: u32,
}

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
    opts: SolveOptions,
    table: Table,
    /// Buckets in the table, less one (a power of two, less one).
    mask: usize,
    nodes: u64,
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
    /// What the search has done so far, for another thread to show; the
    /// calling thread's alone (helpers have none).
    watch: Option<Arc<SolveWatch>>,
}

/// How far a running search has got, read by another thread for a progress
/// line: a whole-game solve or a deep agent's turn can take minutes, and a
/// line that only counts seconds does not say whether it is near its end.
/// Written where the search checks its cancel flag (every 4,096 picks) and
/// after each pass of MTD(f), so it costs the search nothing it would
/// notice.
#[derive(Debug, Default)]
pub struct SolveWatch {
    picks: AtomicU64,
    depth: std::sync::atomic::AtomicU32,
    lower: std::sync::atomic::AtomicI32,
    upper: std::sync::atomic::AtomicI32,
    passes: AtomicU64,
}

/// A reading of a [`SolveWatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchReading {
    /// Picks searched by the current call.
    pub picks: u64,
    /// Turns ahead of the last finished pass ([`None`]: to the end of the
    /// game), or `None` with no pass finished yet (then see `passes`).
    pub depth: Option<u32>,
    /// Bounds of the last finished pass, relative to the stores of the
    /// position that pass searched (the root's, in [`Solver::solve`]).
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
    /// Passes of MTD(f) finished so far in the current call.
    pub passes: u64,
}

impl SolveWatch {
    /// What the search has done so far.
    pub fn read(&self) -> WatchReading {
        let depth = self.depth.load(Ordering::Relaxed);
        WatchReading {
            picks: self.picks.load(Ordering::Relaxed),
            depth: (depth != TO_THE_END as u32).then_some(depth),
            lower: self.lower.load(Ordering::Relaxed),
            upper: self.upper.load(Ordering::Relaxed),
            passes: self.passes.load(Ordering::Relaxed),
        }
    }

    fn begin(&self) {
        self.picks.store(0, Ordering::Relaxed);
        self.passes.store(0, Ordering::Relaxed);
    }

    fn pass(&self, depth: u8, lo: i32, hi: i32, picks: u64) {
        self.depth.store(depth as u32, Ordering::Relaxed);
        self.lower.store(lo, Ordering::Relaxed);
        self.upper.store(hi, Ordering::Relaxed);
        self.picks.store(picks, Ordering::Relaxed);
        self.passes.fetch_add(1, Ordering::Relaxed);
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
}

impl Limits {
    const NONE: Limits = Limits {
        nodes: u64::MAX,
        deadline: None,
    };
}

/// Folds the bounds of a new search of a position into its entry: deeper
/// bounds replace shallower ones, bounds of the same depth intersect.
#[inline]
fn merge(e: &mut Entry, new: &Entry) {
    if new.depth > e.depth {
        e.lo = new.lo;
        e.hi = new.hi;
        e.depth = new.depth;
    } else if new.depth == e.depth {
        e.lo = e.lo.max(new.lo);
        e.hi = e.hi.min(new.hi);
    }
    e.work = e.work.max(new.work);
    if new.best != NO_MOVE {
        e.best = new.best;
    }
}

/// A zeroed table of `buckets` buckets, on huge pages where the system
/// gives them: the probes land anywhere in hundreds of megabytes, and with
/// 4 KiB pages most of them missed the TLB as well as the cache (measured:
/// the probe's load was most of the search's time). Zeroed 64 MiB at a
/// time, checking `cancel` between: zeroing 8 GiB takes about 25 s, and
/// Ctrl-C should not wait for it. `None` when cancelled.
fn table<B: Default>(buckets: usize, cancel: &AtomicBool) -> Option<Vec<B>> {
    huge_vec(buckets, cancel, B::default)
}

/// The table in one of its two layouts.
enum Table {
    /// 32-byte entries, two to a bucket, keyed by the pits themselves
    /// (`exact`: packed a byte a pit) or by a 128-bit hash of them.
    Wide { buckets: Vec<Bucket>, exact: bool },
    /// 8-byte entries keyed by rank.
    Compact(Arc<CompactTable>),
}

/// A table of 8-byte entries, eight to a 64-byte bucket (scope own, at
/// most 127 stones). A position's key is the rank of its 2n pit counts
/// among all counts of at most [`SolveOptions::max_stones`] stones
/// ([`Ranks`]), a number below 2^`key_bits`, put through a bijection of
/// `key_bits`-bit numbers ([`mix_bits`]). Its low bits pick the bucket and
/// the rest, at most [`TAG_BITS`] bits, are the tag kept in the entry, so
/// bucket and tag together name the position exactly: no two positions
/// ever share an entry. Positions with more stones than the ranks cover
/// are not kept (still exact, only slower). An entry packs, low bits
/// first: the best pick (6 bits), the work (6), the upper bound + 128
/// (8), the lower bound + 128 (8), the depth (8; 0 marks an empty entry)
/// and the tag (28).
struct CompactTable {
    buckets: Vec<CompactBucket>,
    ranks: Ranks,
    key_bits: u32,
    index_bits: u32,
}

/// Eight compact entries in one cache line: a probe costs one miss.
/// Atomic so that threads share the table: an entry is read and written
/// whole (relaxed: a lost update only loses a bound, every bound written is
/// proven).
#[derive(Default)]
#[repr(align(64))]
struct CompactBucket([AtomicU64; 8]);

/// Bytes of a compact entry.
const COMPACT_BYTES: u64 = 8;

/// Bits of a compact entry's tag.
const TAG_BITS: u32 = 28;

/// The key of a position the compact table does not keep.
const UNKEPT: (u64, u64) = (u64::MAX, u64::MAX);

/// A bijection of the numbers below 2^`bits` that spreads neighbouring
/// ranks over the buckets: each step (xor with a right shift, multiply by
/// an odd number modulo 2^`bits`) can be undone, so distinct ranks stay
/// distinct.
fn mix_bits(mut x: u64, bits: u32) -> u64 {
    let m = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let h = (bits / 2).max(1);
    x ^= x >> h;
    x = x.wrapping_mul(0xff51afd7ed558ccd) & m;
    x ^= x >> h;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53) & m;
    x ^ (x >> h)
}

impl CompactTable {
    /// The layout for `rules`, `n` pits a side and `opts`, when it applies:
    /// scope own, a known stone count of at most 127 (bounds are kept in a
    /// byte), and ranks that fit the bucket index and the tag together.
    /// Returns (entries, key bits, index bits).
    fn layout(rules: Rules, n: usize, opts: &SolveOptions) -> Option<(u64, u32, u32)> {
        if rules.scope != Scope::Own || opts.max_stones == 0 || opts.max_stones > 127 {
            return None;
        }
        let positions = Ranks::count(2 * n, opts.max_stones);
        let key_bits = 128 - (positions - 1).leading_zeros().min(127);
        let entries = (opts.table_bytes / COMPACT_BYTES).max(8);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let index_bits = (entries / 8).trailing_zeros();
        (key_bits <= index_bits + TAG_BITS && key_bits < 64)
            .then_some((entries, key_bits, index_bits))
    }

    /// The fields of the packed entry `e` (its tag in `k0`).
    #[inline]
    fn unpack(e: u64) -> Entry {
        Entry {
            k0: e >> 36,
            k1: 0,
            lo: ((e >> 20) & 0xff) as i16 - 128,
            hi: ((e >> 12) & 0xff) as i16 - 128,
            best: match (e & 0x3f) as u8 {
                0x3f => NO_MOVE,
                b => b,
            },
            work: ((e >> 6) & 0x3f) as u8,
            depth: ((e >> 28) & 0xff) as u8,
        }
    }

    /// `e` packed with `tag`, in the layout described at [`CompactTable`]
    /// (bounds within ±127, work and pick saturated to 6 bits).
    #[inline]
    fn pack(tag: u64, e: &Entry) -> u64 {
        (tag << 36)
            | (e.depth as u64) << 28
            | ((e.lo + 128) as u64 & 0xff) << 20
            | ((e.hi + 128) as u64 & 0xff) << 12
            | (e.work.min(0x3f) as u64) << 6
            | e.best.min(0x3f) as u64
    }
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

impl Solver {
    /// A solver for `rules` on boards of `n` pits a side. Refuses when the
    /// table (and endgame database) would exceed `opts.memory_cap`.
    pub fn new(rules: Rules, n: usize, opts: SolveOptions) -> Result<Solver, GameError> {
        let never = AtomicBool::new(false);
        Ok(Solver::new_cancellable(rules, n, opts, &never)?.expect("not cancelled"))
    }

    /// [`Solver::new`], or `Ok(None)` when `cancel` was set while the
    /// table was being zeroed (seconds for gigabytes).
    pub fn new_cancellable(
        rules: Rules,
        n: usize,
        opts: SolveOptions,
        cancel: &AtomicBool,
    ) -> Result<Option<Solver>, GameError> {
        Solver::create(rules, n, opts, None, cancel)
    }

    /// [`Solver::new_cancellable`] with a database filled whole (built or
    /// read from a file, see [`EndgameDb`]) instead of the one filled on
    /// demand ([`SolveOptions::endgame_stones`] is not used). Its bytes
    /// count against [`SolveOptions::memory_cap`] with the table's.
    pub fn with_endgame(
        rules: Rules,
        n: usize,
        opts: SolveOptions,
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
        Ok(Some(Solver {
            rules,
            n,
            table,
            mask: buckets as usize - 1,
            nodes: 0,
            stopped: false,
            endgame: match file_db {
                Some(db) => Some(db.db.clone()),
                None => on_demand,
            },
            endgame_whole: file_db.is_some(),
            helper: 0,
            etc_stones: opts.etc_stones as i32,
            limits: Limits::NONE,
            watch: Some(Arc::default()),
            opts,
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

    fn key(&self, pos: &Cells, turns_left: u32) -> (u64, u64) {
        let n = self.n;
        match &self.table {
            Table::Compact(t) => {
                let total = stones(pos, n);
                if total > t.ranks.max_stones {
                    return UNKEPT;
                }
                let r = t
                    .ranks
                    .rank(pos[..n].iter().chain(&pos[n + 1..=2 * n]), total);
                (mix_bits(r, t.key_bits), 0)
            }
            Table::Wide { exact: true, .. } => {
                let mut k: u128 = 0;
                for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                    k = (k << 8) | c as u128;
                }
                if self.rules.scope == Scope::Any {
                    k = (k << 16) | turns_left as u128;
                }
                // Never all-zero: a position in the table has stones.
                ((k >> 64) as u64, k as u64)
            }
            Table::Wide { exact: false, .. } => {
                let mut a: u64 = 0x9e3779b97f4a7c15 ^ turns_left as u64;
                let mut b: u64 = 0x7f4a7c159e3779b9;
                for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                    a = mix(a ^ c as u64);
                    b = mix(b.rotate_left(7) ^ c as u64 ^ 0x55);
                }
                (a | 1, b)
            }
        }
    }

    /// The bucket of key `k`.
    #[inline]
    fn slot(&self, k: (u64, u64)) -> usize {
        match &self.table {
            Table::Compact(_) => k.0 as usize & self.mask,
            Table::Wide { .. } => (mix(k.0 ^ k.1.rotate_left(17)) as usize) & self.mask,
        }
    }

    /// Ask the CPU to bring a table bucket into the cache.
    #[inline]
    fn prefetch(&self, k: (u64, u64)) {
        let i = self.slot(k);
        match &self.table {
            Table::Compact(t) => prefetch_line(&t.buckets[i]),
            Table::Wide { buckets, .. } => prefetch_line(&buckets[i]),
        }
    }

    #[inline]
    fn probe(&self, k: (u64, u64)) -> Option<Entry> {
        let i = self.slot(k);
        match &self.table {
            Table::Compact(t) => {
                if k == UNKEPT {
                    return None;
                }
                let tag = k.0 >> t.index_bits;
                t.buckets[i]
                    .0
                    .iter()
                    .map(|e| e.load(Ordering::Relaxed))
                    .find(|&e| e >> 36 == tag && (e >> 28) & 0xff != 0)
                    .map(CompactTable::unpack)
            }
            Table::Wide { buckets, .. } => buckets[i]
                .0
                .iter()
                .find(|e| e.k0 == k.0 && e.k1 == k.1)
                .copied(),
        }
    }

    fn store(&mut self, k: (u64, u64), lo: i32, hi: i32, best: u8, work: u8, depth: u8) {
        let i = self.slot(k);
        let fresh = Entry {
            k0: k.0,
            k1: k.1,
            lo: lo as i16,
            hi: hi as i16,
            best,
            work,
            depth,
        };
        match &mut self.table {
            Table::Compact(t) => {
                if k == UNKEPT {
                    return;
                }
                let t: &CompactTable = t;
                let tag = k.0 >> t.index_bits;
                let cells = &t.buckets[i].0;
                let mut b = [0u64; 8];
                for (w, c) in b.iter_mut().zip(cells) {
                    *w = c.load(Ordering::Relaxed);
                }
                let same = b
                    .iter()
                    .position(|&e| e >> 36 == tag && (e >> 28) & 0xff != 0);
                let (j, e) = match same {
                    Some(j) => {
                        let mut e = CompactTable::unpack(b[j]);
                        merge(&mut e, &fresh);
                        (j, e)
                    }
                    // Keep the entries that looked further, then the ones
                    // that cost more (an empty one has depth 0).
                    None => (
                        (0..8)
                            .min_by_key(|&j| (b[j] >> 28 & 0xff, b[j] >> 6 & 0x3f))
                            .unwrap_or(0),
                        fresh,
                    ),
                };
                cells[j].store(CompactTable::pack(tag, &e), Ordering::Relaxed);
            }
            Table::Wide { buckets, .. } => {
                let b = &mut buckets[i].0;
                let j = if b[0].k0 == k.0 && b[0].k1 == k.1 {
                    0
                } else if b[1].k0 == k.0 && b[1].k1 == k.1 {
                    1
                } else {
                    // Keep the entry that looked further, then the one that
                    // cost more.
                    let j = usize::from((b[0].depth, b[0].work) > (b[1].depth, b[1].work));
                    b[j] = fresh;
                    return;
                };
                merge(&mut b[j], &fresh);
            }
        }
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

    /// Make the next calls stop by themselves, as a cancel would, after
    /// `nodes` more nodes each (counted from each call's start) or at
    /// `deadline`, whichever comes first (`None`: no such limit).
    pub fn set_limits(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.limits = Limits {
            nodes: nodes.unwrap_or(u64::MAX),
            deadline,
        };
    }

    /// True once a limit of [`Solver::set_limits`] is reached.
    fn past_limits(&self) -> bool {
        self.nodes >= self.limits.nodes || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
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
    /// or at the game's end if sooner), by depth-limited MTD(f) on the same
    /// table, from the first guess `guess` (the estimate one turn shallower
    /// is a good one: MTD(f) then needs few passes, and the shallower
    /// passes are in the table already); `None` when stopped first. An
    /// estimate, not a bound: the stores a few turns on are the evaluation
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

    /// Solve `state` exactly (or until `cancel` is set).
    pub fn solve(&mut self, state: &GameState, cancel: &AtomicBool) -> SolveResult {
        let t0 = Instant::now();
        if let Some(w) = &self.watch {
            w.begin();
        }
        self.nodes = 0;
        self.stopped = false;
        let base = state.mover_minus_opponent();
        if state.is_over() {
            return SolveResult {
                value: base,
                exact: true,
                lower: base,
                upper: base,
                best_turn: vec![],
                pv: vec![],
                nodes: 0,
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
        let mut g = 0;
        for depth in 1..=self.opts.deepening.min(TO_THE_END as u32 - 1) {
            g = self.mtdf(&pos, g, s, depth as u8, turns_left, cancel).0;
        }
        let (lo, hi) = if self.opts.threads > 1 && matches!(self.table, Table::Compact(_)) {
            self.mtdf_shared(&pos, g, s, turns_left, cancel)
        } else {
            self.mtdf(&pos, g, s, TO_THE_END, turns_left, cancel).1
        };
        let exact = lo == hi;
        let pv = if exact {
            // The value is proved: the line that shows it follows from the
            // table's exact bounds, past any budget (the cancel flag still
            // stops it), so that a proved value always comes with its turn.
            // Its searches of later positions do not report to the watch,
            // which keeps the root's bounds.
            let limits = std::mem::replace(&mut self.limits, Limits::NONE);
            let watch = self.watch.take();
            let pv = self.principal_variation(state, cancel);
            self.watch = watch;
            self.limits = limits;
            pv
        } else {
            vec![]
        };
        SolveResult {
            value: base + if exact { lo } else { (lo + hi).div_euclid(2) },
            exact,
            lower: base + lo,
            upper: base + hi,
            best_turn: pv.first().cloned().unwrap_or_default(),
            pv,
            nodes: self.nodes,
            elapsed: t0.elapsed(),
            cancelled: !exact,
        }
    }

    /// [`Solver::mtdf`] to the end of the game on this thread while
    /// [`SolveOptions::threads`] − 1 helpers run their own on the same
    /// table (lazy SMP): every bound any of them stores is proven, so each
    /// reuses the others' work, and the helpers take the children of large
    /// positions in other orders so that they do not all search the same
    /// subtree. The helpers stop when this thread has the value (or is
    /// cancelled); their nodes are counted with this thread's.
    fn mtdf_shared(
        &mut self,
        pos: &Cells,
        g: i32,
        stones: i32,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> (i32, i32) {
        let Table::Compact(t) = &self.table else {
            return self.mtdf(pos, g, stones, TO_THE_END, turns_left, cancel).1;
        };
        let helpers: Vec<Solver> = (1..self.opts.threads as usize)
            .map(|helper| Solver {
                rules: self.rules,
                n: self.n,
                opts: self.opts.clone(),
                table: Table::Compact(Arc::clone(t)),
                mask: self.mask,
                nodes: 0,
                stopped: false,
                endgame: self.endgame.clone(),
                endgame_whole: self.endgame_whole,
                helper,
                etc_stones: self.etc_stones,
                // Helpers stop when this thread does.
                limits: Limits::NONE,
                watch: None,
            })
            .collect();
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    let done = &done;
                    scope.spawn(move || {
                        h.mtdf(pos, g, stones, TO_THE_END, turns_left, done);
                        h.nodes
                    })
                })
                .collect();
            let bounds = self.mtdf(pos, g, stones, TO_THE_END, turns_left, cancel).1;
            done.store(true, Ordering::Relaxed);
            for h in running {
                self.nodes += h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            bounds
        })
    }

    /// MTD(f): null-window searches from the guess `g` until the bounds
    /// meet (or the search is stopped). Returns the last value and the
    /// bounds.
    fn mtdf(
        &mut self,
        pos: &Cells,
        mut g: i32,
        stones: i32,
        depth: u8,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> (i32, (i32, i32)) {
        let (mut lo, mut hi) = (-stones, stones);
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
            return self.best_exact_turn(state, cancel);
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

    /// [`Solver::best_turn`] to the end of the game. The exact value of the
    /// position is found once; then each pick, in pit order, is tested with
    /// one null-window search for reaching that value, and the first that
    /// does is played (the lowest optimal pit, as `best_turn` promises).
    /// Exact values have no search instability, so some pick always passes;
    /// valuing every pick with a whole MTD(f) instead made the principal
    /// variation of Kalah(6,3) cost four times the solve itself.
    fn best_exact_turn(&mut self, state: &GameState, cancel: &AtomicBool) -> (i32, Vec<Pit>) {
        let n = self.n;
        let ready = |s: &GameState| ready(n, s);
        let me = state.mover();
        let mut picks = Vec::new();
        if state.is_over() {
            return (0, picks);
        }
        let (pos, tl) = ready(state);
        let (_, (lo, hi)) = self.mtdf(&pos, 0, stones(&pos, n) as i32, TO_THE_END, tl, cancel);
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
    /// end of the game, each found by [`Solver::best_turn`] (so the PV and
    /// the agents' choices are one code path). Stops short when `cancel`
    /// stops a search.
    fn principal_variation(&mut self, state: &GameState, cancel: &AtomicBool) -> Vec<Vec<Pit>> {
        let mut pv = Vec::new();
        let mut s = *state;
        while !s.is_over() {
            let (_, turn) = self.best_turn(&s, None, cancel);
            if turn.is_empty() {
                break;
            }
            for &p in &turn {
                s.play_unchecked(p);
            }
            pv.push(turn);
        }
        pv
    }

    /// Fail-soft alpha-beta on the pits of `pos` (stores zero), returning
    /// the mover's future gains minus the opponent's, looking `depth` turns
    /// ahead ([`TO_THE_END`]: to the end of the game, exact). A depth-limited
    /// leaf scores 0: no more gains, the stores as they are.
    fn search(
        &mut self,
        pos: &Cells,
        alpha: i32,
        beta: i32,
        depth: u8,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> i32 {
        let n = self.n;
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if let Some(w) = &self.watch {
                w.picks.store(self.nodes, Ordering::Relaxed);
            }
        }
        if self.nodes & 0xfff == 0 && (cancel.load(Ordering::Relaxed) || self.past_limits()) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let s = stones(pos, n);
        if let Some(db) = &self.endgame {
            if s <= db.ranks.max_stones {
                return self.endgame_value(pos, s, cancel);
            }
        }
        if depth == 0 {
            return 0;
        }
        let s = s as i32;
        let key = self.key(pos, turns_left);
        // The table probe misses the cache almost always: start the load
        // now and order the children while it comes.
        self.prefetch(key);
        let mut kids = [(0u8, 0i32); CYCLE_CAP];
        let mut count = 0;
        let len = 2 * n + 1;
        let top = if self.rules.scope == Scope::Any {
            len
        } else {
            n
        };
        for from in 0..top {
            let k = pos[from] as usize;
            if k == 0 || from == n {
                continue;
            }
            let score = order_score(pos, from, n, self.rules);
            kids[count] = (from as u8, score);
            count += 1;
        }
        let (mut lo, mut hi) = (-s, s);
        if let Some(e) = self.probe(key) {
            if e.depth >= depth {
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
            }
            if let Some(k) = kids[..count].iter_mut().find(|k| k.0 == e.best) {
                k.1 = 1 << 20;
            }
        }
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let alpha = alpha.max(lo);
        let beta = beta.min(hi);
        let nodes_before = self.nodes;

        // Children, ordered: the table's pick, then by [`order_score`].
        let kids = &mut kids[..count];
        kids.sort_unstable_by_key(|k| std::cmp::Reverse(k.1));
        if self.helper != 0 && s >= HELPER_STONES {
            // A helper thread starts elsewhere (see `mtdf_shared`).
            kids.rotate_left(self.helper % count);
        }

        let deeper = if depth == TO_THE_END {
            TO_THE_END
        } else {
            depth - 1
        };
        // Play a child, ready for its mover (see [`Child`]).
        let rules = self.rules;
        let play = |from: u8| -> Child {
            let mut c = *pos;
            let end = pick::play(&mut c[..len], from as usize, rules);
            let gain = c[n] as i32;
            c[n] = 0;
            if a_side_is_empty(&c, n) || (end == PickEnd::TurnOver && turns_left == 1) {
                let own = sum(&c[..n]) as i32;
                let opp = sum(&c[n + 1..=2 * n]) as i32;
                (c, gain + own - opp, 0)
            } else if end == PickEnd::FreeTurn {
                (c, gain, 1)
            } else {
                flip_cells(&mut c, n);
                (c, gain, 2)
            }
        };

        let frame = Frame {
            alpha,
            beta,
            depth,
            deeper,
            turns_left,
        };
        let etc = self.opts.etc && depth == TO_THE_END && s >= self.etc_stones;
        let db_near = self.endgame_whole
            && self
                .endgame
                .as_ref()
                .is_some_and(|db| s <= db.ranks.max_stones as i32 + DB_REACH);
        let searched = if etc || db_near {
            self.upfront_children(kids, &play, frame, etc, cancel)
        } else {
            self.children(
                kids.iter().map(|&(from, _)| (from, play(from))),
                frame,
                cancel,
            )
        };
        let (best, best_move) = match searched {
            Ok(found) => found,
            Err(v) => return v,
        };
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        if best >= beta {
            self.store(key, best, s, best_move, work, depth);
        } else {
            // best <= alpha: an upper bound (null window: never exact inside).
            self.store(key, -s, best, best_move, work, depth);
        }
        best
    }

    /// Every child played before any is searched, so that their memory
    /// loads overlap: the children in the endgame database are read from
    /// it at once (their lines fetched together, where searching them one
    /// by one waited for each miss in turn) and settle this node when one
    /// reaches beta; then, with `etc` (enhanced transposition cutoffs), a
    /// child whose table bound already reaches beta settles it without a
    /// search. Worth it only far from the leaves, where a cutoff saves a
    /// large subtree, or near the database, where most children are in it.
    /// The children played here are kept for the search, so each is played
    /// once; kept out of line so that only these nodes carry the array of
    /// children.
    #[inline(never)]
    fn upfront_children(
        &mut self,
        kids: &[(u8, i32)],
        play: &impl Fn(u8) -> Child,
        frame: Frame,
        etc: bool,
        cancel: &AtomicBool,
    ) -> Result<(i32, u8), i32> {
        let n = self.n;
        let mut played = [(0u8, ([0u8; CYCLE_CAP], 0i32, 0u8)); CYCLE_CAP];
        let mut keys = [(0u64, 0u64); CYCLE_CAP];
        // Per child: its database rank, or usize::MAX when not in it.
        let mut ranks = [usize::MAX; CYCLE_CAP];
        let db = self.endgame.clone();
        let mut in_db = 0;
        for (i, &(from, _)) in kids.iter().enumerate() {
            let child = play(from);
            let (c, gain, kind) = child;
            if kind == 0 && gain >= frame.beta {
                return Err(gain);
            }
            played[i] = (from, child);
            if kind == 0 {
                continue;
            }
            if let Some(db) = &db {
                let total = stones(&c, n);
                if total <= db.ranks.max_stones {
                    let r = db.rank_cells(&c, n, total);
                    prefetch_line(&db.values[r]);
                    ranks[i] = r;
                    in_db += 1;
                    continue;
                }
            }
            if etc {
                keys[i] = match kind {
                    1 => self.key(&c, frame.turns_left),
                    _ => self.key(&c, frame.turns_left.saturating_sub(1)),
                };
                self.prefetch(keys[i]);
            }
        }
        let played = &mut played[..kids.len()];
        if in_db > 0 {
            let db = db.as_deref().expect("ranked in the database");
            for (r, (_, (_, gain, kind))) in ranks.iter().zip(played.iter_mut()) {
                if *r == usize::MAX {
                    continue;
                }
                // Not filled yet: left to the search, which fills it only
                // if no sibling cuts first.
                let v = match db.values[*r].load(Ordering::Relaxed) {
                    UNKNOWN => continue,
                    v => v as i32,
                };
                self.nodes += 1;
                let v = if *kind == 1 { *gain + v } else { *gain - v };
                if v >= frame.beta {
                    return Err(v);
                }
                // Settled: searched as a child whose game is over. Counted
                // as a pick searched, as when it was a search of its own.
                (*gain, *kind) = (v, 0);
            }
        }
        if etc {
            for ((&k, &(_, (_, gain, kind))), r) in keys.iter().zip(played.iter()).zip(&ranks) {
                if *r != usize::MAX {
                    continue;
                }
                let bound = match (kind, self.probe(k)) {
                    (1, Some(e)) if e.depth == TO_THE_END => gain + e.lo as i32,
                    (2, Some(e)) if e.depth == TO_THE_END => gain - e.hi as i32,
                    _ => continue,
                };
                if bound >= frame.beta {
                    return Err(bound);
                }
            }
        }
        self.children(played.iter().copied(), frame, cancel)
    }

    /// Searches the children in the order given until one reaches beta;
    /// the best value and its pick, or `Err(0)` when the search was
    /// stopped.
    fn children(
        &mut self,
        kids: impl Iterator<Item = (u8, Child)>,
        frame: Frame,
        cancel: &AtomicBool,
    ) -> Result<(i32, u8), i32> {
        let Frame {
            mut alpha,
            beta,
            depth,
            deeper,
            turns_left,
        } = frame;
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        for (from, (c, gain, kind)) in kids {
            let v = match kind {
                0 => gain,
                1 => gain + self.search(&c, alpha - gain, beta - gain, depth, turns_left, cancel),
                _ => {
                    gain - self.search(
                        &c,
                        gain - beta,
                        gain - alpha,
                        deeper,
                        turns_left - 1,
                        cancel,
                    )
                }
            };
            if self.stopped {
                return Err(0);
            }
            if v > best {
                best = v;
                best_move = from;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        Ok((best, best_move))
    }

    /// The exact value of a position with few stones, from the database.
    fn endgame_value(&mut self, pos: &Cells, total: u32, cancel: &AtomicBool) -> i32 {
        let n = self.n;
        let db = self.endgame.as_deref().expect("endgame database");
        let r = db.rank_cells(pos, n, total);
        match db.values[r].load(Ordering::Relaxed) {
            UNKNOWN => match db.fill_cells(pos, r, n, self.rules, cancel) {
                Some(v) => v,
                None => {
                    // Stopped inside the fill: the search's value is
                    // dropped as for any stop.
                    self.stopped = true;
                    0
                }
            },
            v => v as i32,
        }
    }
}

/// `s` as the search takes it: its cells with both stores zeroed (the
/// search values future gains only), and the turns left before the turn
/// limit.
fn ready(n: usize, s: &GameState) -> (Cells, u32) {
    let mut pos: Cells = [0; CYCLE_CAP];
    pos[..2 * n + 2].copy_from_slice(s.cells());
    pos[n] = 0;
    pos[2 * n + 1] = 0;
    (
        pos,
        ANY_SCOPE_TURN_LIMIT + 1 - s.turn().min(ANY_SCOPE_TURN_LIMIT),
    )
}

#[inline]
fn stones(pos: &Cells, n: usize) -> u32 {
    sum(&pos[..n]) + sum(&pos[n + 1..=2 * n])
}

/// The move-ordering key of the pick from ring cell `from` (it holds
/// stones): picks that end in the store first (the one nearest the store
/// first), then the rest by what they put in the store at once (stones
/// sown past it and a capture), nearest the store first among equals.
/// Ordering by this gain rather than captures first by size cut the
/// nodes of Kalah(6,3) from 7.5 M to 1.4 M. Without relay the gain is
/// counted without playing the pick (how many stones each cell receives
/// follows from its distance); with relay the pick is played on a copy.
#[inline]
fn order_score(pos: &Cells, from: usize, n: usize, rules: Rules) -> i32 {
    let len = 2 * n + 1;
    let k = pos[from] as usize;
    let last = (from + k) % len;
    if last == n {
        return (1 << 16) + from as i32;
    }
    let gain = if rules.relay {
        let mut c = *pos;
        pick::play(&mut c[..len], from, rules);
        c[n] as usize
    } else {
        // Stones sown into ring cell `p`: one at distance d, d + len, ...
        // (the picked pit itself is at distance len).
        let into = |p: usize| {
            let d = match (p + len - from) % len {
                0 => len,
                d => d,
            };
            if k >= d {
                1 + (k - d) / len
            } else {
                0
            }
        };
        let mut gain = into(n);
        if last < n && rules.capture != Capture::None {
            let before = if last == from { 0 } else { pos[last] as usize };
            if before + into(last) == 1 {
                let opposite = 2 * n - last;
                let had = if opposite == from { 0 } else { pos[opposite] };
                let taken = had as usize + into(opposite);
                if taken > 0 || rules.capture == Capture::Empty {
                    gain += 1 + taken;
                }
            }
        }
        gain
    };
    (gain as i32) * 64 + from as i32
}

/// Solve `state` exactly with a fresh [`Solver`]: the entry point for a CLI
/// or a server. Refuses before starting when the table would exceed the cap.
pub fn solve(
    state: &GameState,
    opts: &SolveOptions,
    cancel: &AtomicBool,
) -> Result<SolveResult, GameError> {
    solve_with(state, opts, None, cancel)
}

/// [`solve`] with a database filled whole, when one is given (see
/// [`Solver::with_endgame`]).
pub fn solve_with(
    state: &GameState,
    opts: &SolveOptions,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
) -> Result<SolveResult, GameError> {
    solve_watched(state, opts, db, cancel, None)
}

/// [`solve_with`], reporting how far it got through `watch` (when given)
/// for another thread to show while it runs.
pub fn solve_watched(
    state: &GameState,
    opts: &SolveOptions,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
    watch: Option<Arc<SolveWatch>>,
) -> Result<SolveResult, GameError> {
    let t0 = Instant::now();
    let (rules, n) = (state.rules(), state.pits_per_side());
    let solver = match db {
        Some(db) => Solver::with_endgame(rules, n, opts.clone(), db, cancel)?,
        None => Solver::new_cancellable(rules, n, opts.clone(), cancel)?,
    };
    let Some(mut solver) = solver else {
        // Stopped while the table was zeroed: nothing is known yet.
        let (base, s) = (state.mover_minus_opponent(), state.stones_in_pits() as i32);
        return Ok(SolveResult {
            value: base,
            exact: false,
            lower: base - s,
            upper: base + s,
            best_turn: vec![],
            pv: vec![],
            nodes: 0,
            elapsed: t0.elapsed(),
            cancelled: true,
        });
    };
    if let Some(w) = watch {
        solver.watch = Some(w);
    }
    Ok(solver.solve(state, cancel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_fits_the_board() {
        let opts = SolveOptions::default();
        // 3 pits a side, 12 stones: C(18, 6) = 18,564 positions, a table of
        // twice as many entries, not 256 MiB.
        let small = opts.clone().fit_to(Rules::KALAH, 3, 12);
        assert_eq!(small.table_bytes, 2 * 18_564 * ENTRY_BYTES);
        // Scope any keys the turn count too.
        let any = opts.clone().fit_to(Rules::ANY_HOLE, 3, 12);
        assert_eq!(any.table_bytes, 2 * 18_564 * 201 * ENTRY_BYTES);
        // Kalah(6,4) can fill more than the default: left alone.
        let big = opts.clone().fit_to(Rules::KALAH, 6, 48);
        assert_eq!((big.table_bytes, big.max_stones), (opts.table_bytes, 48));
        // The same value with the fitted table as with the default one.
        let start = GameState::start(3, 4, Rules::KALAH).unwrap();
        let cancel = AtomicBool::new(false);
        let fitted = solve(&start, &opts.clone().fit_to(Rules::KALAH, 3, 24), &cancel).unwrap();
        let full = solve(&start, &opts, &cancel).unwrap();
        assert!(fitted.exact && full.exact);
        assert_eq!(fitted.value, full.value);
        assert_eq!(fitted.pv, full.pv);
    }

    /// Without relay, [`order_score`] counts a pick's gain without playing
    /// it: it must be what playing the pick puts in the store, for every
    /// capture rule and both scopes, laps around the board included.
    #[test]
    fn order_score_counts_the_gain_of_a_pick() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(14);
        for capture in [Capture::None, Capture::Kalah, Capture::Empty] {
            for scope in [Scope::Own, Scope::Any] {
                let rules = Rules {
                    scope,
                    relay: false,
                    capture,
                };
                for _ in 0..20_000 {
                    let n = rng.random_range(1..=6);
                    let len = 2 * n + 1;
                    let mut pos: Cells = [0; CYCLE_CAP];
                    for (i, c) in pos[..len].iter_mut().enumerate() {
                        if i != n {
                            *c = rng.random_range(0..=3 * len as u8);
                        }
                    }
                    let top = if scope == Scope::Any { len } else { n };
                    for from in (0..top).filter(|&f| f != n && pos[f] > 0) {
                        let mut c = pos;
                        let end = pick::play(&mut c[..len], from, rules);
                        let want = if end == PickEnd::FreeTurn {
                            (1 << 16) + from as i32
                        } else {
                            c[n] as i32 * 64 + from as i32
                        };
                        assert_eq!(order_score(&pos, from, n, rules), want, "{pos:?} {from}");
                    }
                }
            }
        }
    }

    /// A cancel flag set before the table is zeroed stops the solve before
    /// it zeroes 1 GiB: no picks, the bounds of the stones in the pits.
    #[test]
    fn cancel_stops_the_zeroing() {
        let start = GameState::start(6, 4, Rules::KALAH).unwrap();
        let opts = SolveOptions {
            table_bytes: 1 << 30,
            ..SolveOptions::default()
        }
        .fit_to(Rules::KALAH, 6, 48);
        let cancel = AtomicBool::new(true);
        let r = solve(&start, &opts, &cancel).unwrap();
        assert!(r.cancelled && !r.exact);
        assert_eq!((r.nodes, r.lower, r.upper), (0, -48, 48));
    }

    #[test]
    fn mix_bits_is_a_bijection() {
        for bits in 1..=14 {
            let mut seen = vec![false; 1 << bits];
            for x in 0..1u64 << bits {
                let y = mix_bits(x, bits) as usize;
                assert!(!seen[y], "{bits} bits: {x} collides");
                seen[y] = true;
            }
        }
    }

    /// In the compact table no two positions share a bucket and a tag: the
    /// key of every position of 2 pits a side with up to 9 stones, for
    /// tables from one bucket up, is distinct, and positions with more
    /// stones than the ranks cover are not kept.
    #[test]
    fn compact_keys_never_collide() {
        let n = 2;
        for table_bytes in [64, 1 << 10, 1 << 16] {
            let opts = SolveOptions {
                table_bytes,
                endgame_stones: 0,
                max_stones: 9,
                ..SolveOptions::default()
            };
            let solver = Solver::new(Rules::KALAH, n, opts).unwrap();
            let Table::Compact(t) = &solver.table else {
                panic!("not compact")
            };
            let mut seen = std::collections::HashSet::new();
            let mut pos: Cells = [0; CYCLE_CAP];
            for code in 0..10u32.pow(4) {
                let pits = [code % 10, code / 10 % 10, code / 100 % 10, code / 1000];
                (pos[0], pos[1], pos[3], pos[4]) =
                    (pits[0] as u8, pits[1] as u8, pits[2] as u8, pits[3] as u8);
                let k = solver.key(&pos, 0);
                if pits.iter().sum::<u32>() > 9 {
                    assert_eq!(k, UNKEPT);
                    continue;
                }
                let (slot, tag) = (solver.slot(k), k.0 >> t.index_bits);
                assert!(tag < 1 << TAG_BITS);
                assert!(seen.insert((slot, tag)), "{pits:?}");
            }
            assert_eq!(seen.len(), 715); // C(9 + 4, 4)
        }
    }

    /// A packed entry unpacks to what was packed, bounds at both ends.
    #[test]
    fn compact_entries_round_trip() {
        for (lo, hi, best, work, depth) in [
            (-127, 127, NO_MOVE, 63, TO_THE_END),
            (0, 0, 15, 0, 1),
            (-3, 5, 0, 17, 12),
        ] {
            let e = Entry {
                k0: 0,
                k1: 0,
                lo,
                hi,
                best,
                work,
                depth,
            };
            let tag = (1 << TAG_BITS) - 1;
            let u = CompactTable::unpack(CompactTable::pack(tag, &e));
            assert_eq!(
                (u.k0, u.lo, u.hi, u.best, u.work, u.depth),
                (tag, lo, hi, best, work, depth)
            );
        }
    }
}
