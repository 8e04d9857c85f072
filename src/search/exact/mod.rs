//! The exact search: every chain of free turns from a position, with the best
//! score, the number of pick sequences that reach it and a listing of them.
//!
//! # How it works
//!
//! A *node* is a position at which a pick is to be made: the start, and every
//! position reached by a pick that ended in the store. Nodes are expanded in
//! [`Frontier`] buckets by store value, lowest first, so that each node is
//! complete (all its paths counted) before it is expanded, and expanded once.
//! Each node carries the number of pick sequences that reach it; a pick that
//! ends the turn adds that number to a histogram of final scores. The best
//! score is the highest final score with a non-zero count, and its count is
//! the number of optimal sequences. This is the *forward pass*.
//!
//! Listing optimal sequences needs to know which nodes can still reach the
//! best score. When a listing is asked for, the forward pass keeps each
//! bucket's sorted keys (delta-coded, see `level`) and the nodes with a
//! pick that ends the turn at the best store seen, and a *backward pass*
//! finds the other good nodes from the top bucket down: it plays free
//! turns backwards from the good nodes only ([`crate::rules::unsow`], in
//! `backward`) and looks the positions found up in the levels. A
//! depth-first walk over good nodes in pit order then emits optimal
//! sequences in lexicographic order of their pit numbers, without ever
//! entering a dead end.
//!
//! The forward pass plays picks through the kernel that
//! [`crate::search::kernel::plan`] chose for the search; the worker threads only split the nodes of a bucket between them, and all
//! results are exact integer sums or sorted lists, so they do not depend on
//! `--threads`.
//!
//! The search is generic over the key width (`u64` or `u128`, see
//! `key`), the count width (`u64`, rerun with `u128` if a count
//! overflows) and the packed ring width (see [`crate::search::kernel::packed`]), so the
//! common boards run on the narrowest types. A search on `u128` keys, in
//! memory or on disk, goes on with `u64` keys from the first bucket whose
//! keys fit them (`Search::count_narrowing`): on the boards that need wide
//! keys at the start, nearly every position is in those buckets.

//!
//! The code follows the passes: `rounds` (the forward pass's one loop
//! over the buckets of a `store::Store`, in memory or on disk), `forward`
//! (expanding a bucket and filing its successors), `backward` (the good
//! nodes), `listing` (the walk that emits lines); `key`, `level` and
//! `store` are the data they share. `spilled` opens the store on disk
//! (or resumes it) for the same loop, and [`cluster`] runs the same
//! bucket expansion on timely-dataflow workers that each own a share of
//! every bucket, over processes and machines.

pub(crate) mod backward;
#[doc(hidden)]
pub mod bench;
pub mod cluster;
pub mod forecast;
pub(crate) mod forward;
pub(crate) mod key;
pub(crate) mod level;
pub(crate) mod listing;
pub(crate) mod rounds;
pub(crate) mod spilled;
pub(crate) mod store;

use self::key::{bits_needed, Key};
use self::store::disk::SpillFail;
use self::store::{Count, Frontier, Rekey, Store};
use super::control::{guarded, worker_pool, Stop};
use super::error::{Reached, SearchError, StopCause};
use super::kernel::packed::Engine;
use super::kernel::{plan, KernelChoice, Plan};
use super::memory::{format_bytes, HeldFn};
use crate::clock::Instant;
use crate::rules::{Board, Line, Rules};
use std::path::Path;
use std::sync::atomic::AtomicBool;

pub use self::store::disk::{Checkpoint, CHECKPOINT_FILE};

/// The checkpoint of a spilled search in `dir` ([`SolveOptions::spill`]),
/// if it has a readable one: to tell the user that a run resumes, and from
/// where.
pub fn spill_checkpoint(dir: &Path) -> Option<Checkpoint> {
    let text = std::fs::read_to_string(dir.join(CHECKPOINT_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// How many optimal sequences to list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// At most this many (0 skips the listing and the backward pass).
    Limit(usize),
    /// Every optimal sequence.
    All,
}

impl Listing {
    pub(crate) fn max(self) -> usize {
        match self {
            Listing::Limit(n) => n,
            Listing::All => usize::MAX,
        }
    }
}

/// Which pass of the search is running.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Counting: buckets expanded from the lowest store up.
    Forward,
    /// Marking the positions that reach the best score, from the top down.
    Backward,
}

/// A snapshot of a running search, passed to [`SolveOptions::progress`]
/// after every bucket, and while a large bucket is being expanded.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Which pass.
    pub phase: Phase,
    /// The store bucket just finished (or, with [`Progress::within`], the
    /// one being expanded).
    pub store: usize,
    /// The highest store value (stones in play).
    pub max_store: usize,
    /// Distinct positions expanded so far.
    pub positions: u64,
    /// Bytes the search holds now (its own count, from buffer capacities;
    /// the memory guard also looks at the whole process, see
    /// [`crate::search::memory::resident_bytes`]).
    pub memory: u64,
    /// The best final store of the turns counted so far (a lower bound
    /// until the forward pass ends; the proved best in the backward pass).
    pub best: Option<u32>,
    /// Set in the reports made while the forward pass expands a bucket
    /// of [`WITHIN_MIN`] positions or more (each 1/[`WITHIN_STEPS`] of it):
    /// a large bucket can take minutes, and a bar that moves only between
    /// buckets looks stuck. `None` in the report after each bucket.
    pub within: Option<Within>,
    /// The run files of a search that spills to disk
    /// ([`SolveOptions::spill`]); `None` for a search in memory.
    pub disk: Option<DiskUse>,
    /// A forecast of the positions the forward pass has still to expand,
    /// this bucket's included, from the growth of the buckets done (see
    /// [`forecast`]); `None` in the backward pass and until enough buckets
    /// are done to make one.
    pub left: Option<u64>,
}

/// Disk use of a search that spills its frontier.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiskUse {
    /// Bytes of run files now.
    pub used: u64,
    /// Bytes free on their disk (`None` where that is not known).
    pub free: Option<u64>,
    /// Bytes written to run files since the search began (over every
    /// resumed run).
    pub written: u64,
}

/// How far the expansion of the current bucket has got.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Within {
    /// Positions of the bucket expanded.
    pub done: u64,
    /// Positions in the bucket.
    pub of: u64,
    /// Seconds since the bucket's expansion began.
    pub seconds: f64,
}

/// Buckets with at least this many positions report their progress
/// within ([`Progress::within`]).
pub const WITHIN_MIN: u64 = 1 << 16;
/// Reports a large bucket makes while it is expanded.
pub const WITHIN_STEPS: u64 = 32;

/// A progress callback; it runs on one of the search's worker threads, after each bucket.
pub type ProgressFn<'a> = &'a (dyn Fn(&Progress) + Sync);

/// Options for [`solve`].
#[derive(Copy, Clone)]
pub struct SolveOptions<'a> {
    /// Worker threads; 0 uses one per core.
    pub threads: usize,
    /// Which optimal sequences to list.
    pub listing: Listing,
    /// Stop with [`SearchError::MemoryLimit`] before the search holds more
    /// bytes than this.
    pub max_memory: u64,
    /// The bytes the process holds *now* that are not this search's to
    /// count (a server's games and its other requests), asked at every
    /// check of the guard: the guard counts the resident memory above
    /// them. A function rather than a figure taken at the start, because
    /// what the rest of a server holds moves while a search runs (a game
    /// built meanwhile was charged to the solve, issue 36). `None`, the
    /// default, counts the whole process, as a command's own run should
    /// (issue 15).
    pub memory_held: Option<HeldFn<'a>>,
    /// Called after every bucket.
    pub progress: Option<ProgressFn<'a>>,
    /// When this becomes true (Ctrl-C, a closed page), the search stops
    /// within a chunk of positions with [`SearchError::Stopped`].
    pub cancel: Option<&'a AtomicBool>,
    /// A time budget in seconds: past it the search stops the same way,
    /// saying that time ran out.
    pub seconds: Option<f64>,
    /// Which kernels may play the picks (see [`crate::search::kernel`]).
    pub kernel: KernelChoice,
    /// Keep the frontier in this directory instead of memory, with a
    /// checkpoint after every bucket: the same call resumes a stopped
    /// search (see `store::disk`). Counts only: no lines are listed.
    pub spill: Option<&'a Path>,
    /// Stop with [`SearchError::DiskLimit`] before the run files in
    /// [`SolveOptions::spill`] take more bytes than this.
    pub max_disk: u64,
    /// With [`SolveOptions::spill`]: bytes of successors held in memory
    /// before they are written out as run files; `None` is a third of
    /// [`SolveOptions::max_memory`]. Smaller means more, smaller runs (the
    /// tests force many this way); the answer is the same.
    pub spill_buffer: Option<u64>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            listing: Listing::Limit(10),
            max_memory: u64::MAX,
            memory_held: None,
            progress: None,
            cancel: None,
            seconds: None,
            kernel: KernelChoice::Auto,
            spill: None,
            max_disk: u64::MAX,
            spill_buffer: None,
        }
    }
}

impl std::fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("threads", &self.threads)
            .field("listing", &self.listing)
            .field("max_memory", &self.max_memory)
            // Whether there is one, not its figure: asking it may lock
            // what its owner holds (a server's game table).
            .field("memory_held", &self.memory_held.is_some())
            .field("cancel", &self.cancel)
            .field("seconds", &self.seconds)
            .field("kernel", &self.kernel)
            .field("spill", &self.spill)
            .field("max_disk", &self.max_disk)
            .field("spill_buffer", &self.spill_buffer)
            .finish_non_exhaustive()
    }
}

/// The proved answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The rules searched under.
    pub rules: Rules,
    /// The start position.
    pub start: Board,
    /// The most stones the own store can hold when the turn ends.
    pub best_store: u32,
    /// Stones in the pits and the own store at the start: the most possible.
    pub total_stones: u32,
    /// Distinct pick sequences that end the turn with `best_store`.
    pub optimal_count: u128,
    /// Distinct complete turns (pick sequences that end the turn).
    pub turns_total: u128,
    /// Complete turns by final store: `turns_by_store[s]` end with `s` stones.
    pub turns_by_store: Vec<u128>,
    /// Distinct positions at which a pick is to be made.
    pub positions: u64,
    /// Those positions by the stones in the store: `positions_by_store[s]`
    /// is the size of bucket `s` of the search (see [`Frontier`]).
    pub positions_by_store: Vec<u64>,
    /// Listed optimal sequences, in lexicographic order of pit numbers.
    pub optimal: Vec<Line>,
    /// Wall-clock time of the search.
    pub seconds: f64,
}

impl Solution {
    /// True when every stone in play ends in the store.
    pub fn sweep(&self) -> bool {
        self.best_store == self.total_stones
    }
}

/// The bytes [`SolveOptions::memory_held`] says are not the search's now.
pub(crate) fn held(opts: &SolveOptions) -> u64 {
    opts.memory_held.map_or(0, |held| held())
}

/// Search every turn from `board` under `rules`.
pub fn solve(board: &Board, rules: Rules, opts: &SolveOptions) -> Result<Solution, SearchError> {
    let pool = worker_pool(board, rules, opts.threads)?;
    let pits = 2 * board.pits_per_side();
    let bits = bits_needed(board.stones_in_pits(), pits);
    let narrow = 2 * board.pits_per_side() < 16;
    let plan = plan(board.pits_per_side(), bits, opts.kernel);
    let tripped = AtomicBool::new(false);
    let mut stop = Stop::new(opts.cancel, opts.seconds);
    if opts.max_memory < u64::MAX {
        stop = stop.with_memory_limit(opts.max_memory, opts.memory_held, &tripped);
    }
    let started = Instant::now();
    let result = guarded(&pool, || match (bits, narrow) {
        (0..=64, true) => run::<u64, 2>(board, rules, plan, opts, &stop),
        (0..=64, false) => run::<u64, 5>(board, rules, plan, opts, &stop),
        (65..=128, true) => run::<u128, 2>(board, rules, plan, opts, &stop),
        (65..=128, false) => run::<u128, 5>(board, rules, plan, opts, &stop),
        _ => Err(Fail::KeyTooWide(bits)),
    })?;
    let mut solution = result.map_err(|e| search_error(e, board, rules, opts))?;
    solution.seconds = started.elapsed().as_secs_f64();
    Ok(solution)
}

/// Search every turn from `board` under `rules` on a cluster of
/// processes (timely-dataflow; see [`cluster`]), this process being
/// `cluster.process`: counts only, as with [`SolveOptions::spill`]. Every
/// process gets the answer, with the traffic between workers.
#[cfg(feature = "cluster")]
pub fn solve_cluster(
    board: &Board,
    rules: Rules,
    opts: &SolveOptions,
    cluster: &cluster::Cluster,
) -> Result<(Solution, cluster::Traffic), SearchError> {
    let pool = worker_pool(board, rules, opts.threads)?;
    let pits = 2 * board.pits_per_side();
    let bits = bits_needed(board.stones_in_pits(), pits);
    let plan = plan(board.pits_per_side(), bits, opts.kernel);
    let started = Instant::now();
    let (mut solution, traffic) = cluster::solve(board, rules, plan, opts, cluster, pool)?;
    solution.seconds = started.elapsed().as_secs_f64();
    Ok((solution, traffic))
}

/// The error for a search that stopped inside with `e`.
fn search_error(e: Fail, board: &Board, rules: Rules, opts: &SolveOptions) -> SearchError {
    match e {
        Fail::Overflow => overflow_error(rules, board),
        Fail::Stopped(cause, p) => SearchError::Stopped {
            cause,
            reached: p.reached(),
            best: p.best,
        },
        Fail::Memory(p) => SearchError::MemoryLimit {
            limit: opts.max_memory,
            reached: p.reached(),
        },
        Fail::KeyTooWide(bits) => SearchError::KeyTooWide {
            stones: board.stones_in_pits(),
            pits: 2 * board.pits_per_side(),
            bits,
        },
        Fail::Spill(e, p) => spill_error(e, *p, opts),
    }
}

impl<K, C, const W: usize> Search<K, C, W> {
    /// The forecast of positions left after bucket `store` of a forward
    /// pass whose buckets held `by_store` (see [`forecast`]); while the
    /// bucket is expanded, `within` has the positions of it done and in
    /// it.
    fn left(&self, by_store: &[u64], store: usize, within: Option<Within>) -> Option<u64> {
        let counters = self.len - 1;
        match within {
            None => forecast::positions_left(by_store, store, self.max_store, counters),
            Some(w) => {
                let mut sizes = by_store.to_vec();
                sizes[store] = w.of;
                let after = forecast::positions_left(&sizes, store, self.max_store, counters)?;
                Some(after + w.of.saturating_sub(w.done))
            }
        }
    }
}

impl Progress {
    /// How far the search got, for an error.
    fn reached(&self) -> Reached {
        Reached {
            store: self.store,
            max_store: self.max_store,
            positions: self.positions,
            backward: self.phase == Phase::Backward,
        }
    }
}

/// The error for a spill store that could not go on.
fn spill_error(e: SpillFail, p: Progress, opts: &SolveOptions) -> SearchError {
    let dir = opts.spill.unwrap_or(Path::new(".")).display().to_string();
    match e {
        SpillFail::Foreign { path, reason } => SearchError::SpillDir {
            message: format!("{}: {reason}", path.display()),
        },
        SpillFail::Io {
            action,
            path,
            source,
        } => SearchError::Spill {
            message: format!("{}: cannot {action} it ({source})", path.display()),
            dir,
            reached: p.reached(),
        },
        SpillFail::DiskFull { path, free, needed } => SearchError::Spill {
            message: format!(
                "{}: the disk has {} free, and the next run file needs {} and a margin",
                path.display(),
                format_bytes(free),
                format_bytes(needed)
            ),
            dir,
            reached: p.reached(),
        },
        SpillFail::DiskLimit { limit, needed } => SearchError::DiskLimit {
            limit,
            needed,
            dir,
            reached: p.reached(),
        },
        SpillFail::Overflow => unreachable!("mapped to Fail::Overflow where it arises"),
    }
}

/// The error for a path count past `u128`, naming the variant.
fn overflow_error(rules: Rules, board: &Board) -> SearchError {
    SearchError::CountOverflow {
        variant: format!("rules {rules} on board {}", board.one_line()),
    }
}

/// Run with `u64` path counts, and again with `u128` if one overflows.
fn run<K: Key, const W: usize>(
    board: &Board,
    rules: Rules,
    plan: Plan,
    opts: &SolveOptions,
    stop: &Stop,
) -> Result<Solution, Fail> {
    match Search::<K, u64, W>::new(board, rules, plan).run(opts, stop) {
        Err(Fail::Overflow) => Search::<K, u128, W>::new(board, rules, plan).run(opts, stop),
        other => other,
    }
}

/// Why a pass stopped before its end, inside the search.
#[derive(Debug)]
enum Fail {
    /// A path count did not fit the count type.
    Overflow,
    /// The board needs keys of this many bits, more than 128.
    KeyTooWide(u32),
    /// The memory guard stopped the search; how far it got.
    Memory(Box<Progress>),
    /// The cancel flag or the time budget stopped it; how far it got.
    Stopped(StopCause, Box<Progress>),
    /// The spill store could not go on; how far the search got.
    Spill(SpillFail, Box<Progress>),
}

impl From<store::Overflow> for Fail {
    fn from(_: store::Overflow) -> Self {
        Fail::Overflow
    }
}

/// The fixed part of a search: board shape, rules, the pits in scope and
/// the kernel that plays them.
struct Search<K, C, const W: usize> {
    rules: Rules,
    start: Board,
    n: usize,
    len: usize,
    max_store: usize,
    engine: Engine<W>,
    /// True when the kernel decodes 64-bit keys itself.
    decode_keys: bool,
    /// Ring indices of the pits the scope allows, in pit-number order.
    scope: Vec<usize>,
    /// [`store::memory::part_shift`] of each bucket.
    shifts: Vec<u32>,
    _types: std::marker::PhantomData<(K, C)>,
}

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    fn new(start: &Board, rules: Rules, plan: Plan) -> Self {
        let n = start.pits_per_side();
        let max_store = start.stones_in_play() as usize;
        Search {
            rules,
            start: *start,
            n,
            len: 2 * n + 1,
            max_store,
            engine: Engine::new(n, start.stones_in_play() as usize, rules, plan.kernel),
            decode_keys: plan.decode_keys,
            scope: rules.scope.pits(n).map(|p| p.ring(n)).collect(),
            shifts: (0..=max_store)
                .map(|store| store::memory::part_shift(max_store, store, 2 * n))
                .collect(),
            _types: std::marker::PhantomData,
        }
    }

    /// Report progress, then stop on the cancel flag, the time budget or
    /// the memory guard.
    fn checkpoint(&self, opts: &SolveOptions, stop: &Stop, progress: Progress) -> Result<(), Fail> {
        if let Some(report) = opts.progress {
            report(&progress);
        }
        if let Some(cause) = stop.cause() {
            return Err(Fail::Stopped(cause, Box::new(progress)));
        }
        let resident = crate::search::memory::resident_above(held(opts));
        if stop.memory_tripped() || progress.memory.max(resident) > opts.max_memory {
            return Err(Fail::Memory(Box::new(progress)));
        }
        Ok(())
    }

    /// The forward pass, then the backward pass and the listing when lines
    /// are asked for.
    fn run(&self, opts: &SolveOptions, stop: &Stop) -> Result<Solution, Fail> {
        self.run_keys(opts, stop, true)
    }

    /// [`Search::run`], going on with `u64` keys once the buckets left fit
    /// them when `narrow` (the tests compare both ways).
    fn run_keys(&self, opts: &SolveOptions, stop: &Stop, narrow: bool) -> Result<Solution, Fail> {
        if let Some(dir) = opts.spill {
            let counted = self.count_spilled(dir, opts, stop, narrow)?;
            return Ok(self.solution(counted, Vec::new()));
        }
        let listing = opts.listing;
        let keep_levels = listing.max() > 0;
        let fresh = rounds::Tally::fresh(self.start.store() as usize, self.max_store);
        let mut counted = match self.narrow_from().filter(|_| narrow) {
            Some(from) => {
                self.count_narrowing(self.seeded(), fresh, from, keep_levels, opts, stop)?
            }
            None => self.count(
                &mut self.seeded(),
                fresh,
                keep_levels,
                opts,
                stop,
                &mut rounds::Alone,
            )?,
        };
        let best = counted.best;
        let optimal = if keep_levels {
            let good = self.backward(
                std::mem::take(&mut counted.levels),
                best,
                std::mem::take(&mut counted.finishers),
                opts,
                stop,
                counted.positions,
            )?;
            self.list(&good, best, listing.max())
        } else {
            Vec::new()
        };
        Ok(self.solution(counted, optimal))
    }

    /// The first bucket whose keys all fit 64 bits, when this search's
    /// keys are wider: a bucket's key has a bit for every stone left in
    /// the pits and a separator between pits, so the keys narrow as the
    /// store fills (any-hole 2x6x5 needs 71 bits at the start and 64 from
    /// its bucket 7 on; avalanche 2x6x6 83 bits, and 64 from bucket 19,
    /// after 518 of its 2.16 million positions).
    fn narrow_from(&self) -> Option<usize> {
        if K::BITS <= 64 {
            return None;
        }
        let pits = 2 * self.n;
        let from = (self.max_store + pits).checked_sub(65)?;
        (from > self.start.store() as usize && from <= self.max_store).then_some(from)
    }

    /// The forward pass over `frontier` from `tally` with this search's
    /// keys up to bucket `from`, then with `u64` keys (in memory or on
    /// disk; a search resumed past `from` goes on with them at once): the
    /// kernels decode 64-bit keys themselves and sort and file half the
    /// bytes, so the buckets that hold nearly every position run at the
    /// speed of a narrow board. The kept levels and finishers come back
    /// to this search's keys for the backward pass.
    pub(super) fn count_narrowing<S: Store<K, C> + Rekey<C>>(
        &self,
        mut frontier: S,
        tally: rounds::Tally,
        from: usize,
        keep_levels: bool,
        opts: &SolveOptions,
        stop: &Stop,
    ) -> Result<forward::Counted<K>, Fail> {
        let alone = &mut rounds::Alone;
        let wide = self.rounds(&mut frontier, tally, from, keep_levels, opts, stop, alone)?;
        let bits = bits_needed((self.max_store - from) as u32, 2 * self.n);
        let narrow =
            Search::<u64, C, W>::new(&self.start, self.rules, plan(self.n, bits, opts.kernel));
        let mut frontier = frontier.rekey::<u64>();
        let end = self.max_store + 1;
        let rest = narrow.rounds(
            &mut frontier,
            wide.tally,
            end,
            keep_levels,
            opts,
            stop,
            alone,
        )?;
        let mut levels = wide.levels;
        for (level, kept) in levels.iter_mut().zip(rest.levels).skip(from) {
            *level = kept.rekey();
        }
        let mut finishers = wide.finishers;
        finishers.merge(rest.finishers.rekey());
        forward::Counted::new(rest.tally.ended, rest.tally.by_store, levels, finishers)
    }

    /// The answer from the forward pass's counts and the lines listed.
    fn solution(&self, counted: forward::Counted<K>, optimal: Vec<Line>) -> Solution {
        Solution {
            rules: self.rules,
            start: self.start,
            best_store: counted.best as u32,
            total_stones: self.max_store as u32,
            optimal_count: counted.ended[counted.best],
            turns_total: counted.turns_total,
            turns_by_store: counted.ended,
            positions: counted.positions,
            positions_by_store: counted.by_store,
            optimal,
            seconds: 0.0,
        }
    }

    /// A frontier holding just the start position.
    fn seeded(&self) -> Frontier<K, C> {
        let mut frontier = Frontier::<K, C>::new(self.max_store);
        let first = self.start.store() as usize;
        frontier.push(
            first,
            store::Run::new(
                vec![(K::encode(self.start.ring(), self.n), C::ONE)],
                self.shifts[first],
            ),
        );
        frontier
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::kernel::Kernel;

    /// A count type small enough to overflow on a real search, to exercise
    /// the overflow path that `u128` counts take on astronomically big ones.
    impl Count for u8 {
        const ONE: Self = 1;
        const BITS: u32 = 8;
        fn checked_add(self, other: Self) -> Option<Self> {
            u8::checked_add(self, other)
        }
        fn overflowing_add(self, other: Self) -> (Self, bool) {
            u8::overflowing_add(self, other)
        }
        fn from_u128(v: u128) -> Option<Self> {
            u8::try_from(v).ok()
        }
    }

    fn scalar() -> Plan {
        Plan {
            kernel: Kernel::Scalar,
            decode_keys: false,
        }
    }

    /// Every kernel this CPU runs against the scalar one on whole searches:
    /// boards up to 6 pits a side stream their picks, 7 pits a side use the
    /// lockstep landings; Kalah exercises captures after the kernel. Which
    /// kernels ran, and which this CPU lacks, is printed (see the README's
    /// test command).
    #[test]
    fn every_kernel_gives_the_same_search_as_the_scalar_one() {
        let opts = SolveOptions {
            listing: Listing::Limit(25),
            ..Default::default()
        };
        let stop = Stop::default();
        for kernel in Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar) {
            if let Err(missing) = kernel.supported() {
                println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}");
                continue;
            }
            let mut boards = 0;
            for (rules, n, s) in [
                (Rules::ANY_HOLE, 5, 3),
                (Rules::AVALANCHE, 6, 4),
                (Rules::KALAH, 6, 4),
                (Rules::ANY_HOLE, 7, 2),
            ] {
                let board = Board::uniform(n, s).unwrap();
                let bits = bits_needed(board.stones_in_pits(), 2 * n);
                let plan = plan(n, bits, KernelChoice::AtMost(kernel));
                if plan.kernel != kernel {
                    continue; // 7 pits a side do not stream
                }
                boards += 1;
                let fast = Search::<u64, u64, 2>::new(&board, rules, plan);
                let slow = Search::<u64, u64, 2>::new(&board, rules, scalar());
                let (Ok(a), Ok(b)) = (fast.run(&opts, &stop), slow.run(&opts, &stop)) else {
                    panic!("{rules} {n}x{s} failed");
                };
                assert_eq!(a, b, "{rules} {n}x{s} with kernel {kernel}");
            }
            assert!(boards >= 3, "kernel {kernel} ran on {boards} boards");
            println!("kernel {kernel}: tested on {boards} whole searches against scalar");
        }
    }

    /// A search on wide keys that goes on with `u64` keys from the first
    /// bucket they fit gives exactly the answer of the same search on wide
    /// keys all the way (counts by store, positions by bucket, every
    /// optimal line listed): through every kernel this CPU runs on small
    /// boards, and through the default one on avalanche 2x6x6 (2.16
    /// million positions), with Kalah captures, and on 7 pits a side.
    #[test]
    fn going_on_with_narrow_keys_changes_nothing() {
        let stop = Stop::default();
        let relay_capture = Rules {
            relay: true,
            ..Rules::KALAH
        };
        let small = [
            (Rules::AVALANCHE, "5 5 5 5 5 5 / 0 0 / 5 5 5 5 5 5"),
            (Rules::AVALANCHE, "6 6 6 6 6 / 0 0 / 6 6 6 6 6"),
            (relay_capture, "7 7 7 7 7 / 0 0 / 7 7 7 7 7"),
            (Rules::KALAH, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
        ];
        let large = [
            (Rules::AVALANCHE, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
            (relay_capture, "6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6"),
            (Rules::AVALANCHE, "5 5 5 5 5 5 5 / 0 0 / 5 5 5 5 5 5 5"),
        ];
        let runs = Kernel::ALL
            .into_iter()
            .filter(|kernel| match kernel.supported() {
                Ok(()) => true,
                Err(missing) => {
                    println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}");
                    false
                }
            })
            .flat_map(|kernel| small.map(|case| (KernelChoice::AtMost(kernel), case)))
            .chain(large.map(|case| (KernelChoice::Auto, case)));
        for (choice, (rules, board)) in runs {
            let opts = SolveOptions {
                listing: Listing::All,
                kernel: choice,
                ..Default::default()
            };
            let board: Board = board.parse().unwrap();
            let n = board.pits_per_side();
            let bits = bits_needed(board.stones_in_pits(), 2 * n);
            assert!(bits > 64, "{board} needs wide keys");
            let plan = plan(n, bits, choice);
            let search = Search::<u128, u64, 2>::new(&board, rules, plan);
            let from = search.narrow_from().expect("narrows");
            let wide = search.run_keys(&opts, &stop, false).unwrap();
            let narrow = search.run_keys(&opts, &stop, true).unwrap();
            let at = format!(
                "{rules} on {}, kernel {}, u64 from bucket {from}",
                board.one_line(),
                plan.kernel
            );
            assert!(!wide.optimal.is_empty(), "{at}");
            assert_eq!(narrow, wide, "{at}");
            println!("{at}: {} positions, the same answer", wide.positions);
        }
    }

    /// The two backward passes agree: unsowing from the nodes the forward
    /// pass kept finds exactly the good nodes that expanding every node
    /// again finds, on sweeps and on turns that fall short, with and
    /// without captures, through every kernel this CPU runs (each files
    /// the finished turns its own way); and the listing walks exactly the
    /// optimal count.
    #[test]
    fn unsowing_finds_the_same_good_nodes_as_expanding_every_node() {
        let opts = SolveOptions {
            listing: Listing::Limit(1),
            ..Default::default()
        };
        let stop = Stop::default();
        let pits = |p: &[u32]| Board::from_pits(p, 0, 0).unwrap();
        let empty_capture = Rules {
            capture: crate::rules::Capture::Empty,
            ..Rules::KALAH
        };
        let relay_capture = Rules {
            relay: true,
            ..Rules::KALAH
        };
        let cases = [
            (Rules::ANY_HOLE, Board::uniform(6, 3).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(5, 3).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(4, 4).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(3, 5).unwrap()),
            (Rules::ANY_HOLE, pits(&[3, 0, 7, 1, 2, 5, 0, 4, 1, 6, 2, 3])),
            (Rules::AVALANCHE, Board::uniform(6, 1).unwrap()),
            (Rules::AVALANCHE, Board::uniform(6, 4).unwrap()),
            // An own-side relay sweep: pits 1..6 hold 0 0 4 2 2 1.
            (
                Rules::AVALANCHE,
                pits(&[0, 0, 4, 2, 2, 1, 0, 0, 0, 0, 0, 0]),
            ),
            (
                Rules::AVALANCHE,
                pits(&[5, 1, 0, 9, 2, 3, 4, 0, 6, 2, 1, 3]),
            ),
            (Rules::KALAH, Board::uniform(6, 4).unwrap()),
            (Rules::KALAH, pits(&[1, 0, 3, 0, 2, 1, 4, 4, 0, 5, 1, 2])),
            (empty_capture, pits(&[6, 5, 4, 3, 2, 1, 0, 3, 3, 0, 2, 8])),
            (relay_capture, pits(&[2, 0, 5, 1, 0, 3, 2, 4, 0, 1, 6, 2])),
        ];
        let mut kernels = vec![Kernel::Scalar];
        for kernel in Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar) {
            match kernel.supported() {
                Ok(()) => kernels.push(kernel),
                Err(missing) => println!("kernel {kernel}: NOT TESTED, this CPU lacks {missing}"),
            }
        }
        for kernel in kernels {
            let (mut sweeps, mut short) = (0, 0);
            for (rules, board) in &cases {
                let n = board.pits_per_side();
                let bits = bits_needed(board.stones_in_pits(), 2 * n);
                let plan = match kernel {
                    Kernel::Scalar => scalar(),
                    _ => plan(n, bits, KernelChoice::AtMost(kernel)),
                };
                if plan.kernel != kernel {
                    continue;
                }
                let search = Search::<u64, u64, 2>::new(board, *rules, plan);
                let fresh = rounds::Tally::fresh(board.store() as usize, search.max_store);
                let counted = search
                    .count(
                        &mut search.seeded(),
                        fresh,
                        true,
                        &opts,
                        &stop,
                        &mut rounds::Alone,
                    )
                    .ok()
                    .unwrap();
                let best = counted.best;
                let at = format!("{rules} {} with kernel {kernel}", board.one_line());
                assert_eq!(counted.finishers.top, best, "{at}");
                if best == search.max_store {
                    sweeps += 1;
                } else {
                    short += 1;
                }
                let full = search.backward_by_expanding(counted.levels.clone(), best);
                let quick = search
                    .backward(counted.levels, best, counted.finishers, &opts, &stop, 0)
                    .ok()
                    .unwrap();
                assert_eq!(quick, full, "{at}");
                let optimal = counted.ended[best];
                if optimal <= 100_000 {
                    let lines = search.list(&quick, best, usize::MAX);
                    assert_eq!(lines.len() as u128, optimal, "{at}");
                }
            }
            assert!(
                sweeps >= 4 && short >= 4,
                "kernel {kernel}: {sweeps} sweeps, {short} short"
            );
            println!(
                "kernel {kernel}: backward passes agree on {sweeps} sweeps and {short} short turns"
            );
        }
    }

    /// The guard between the chunks of a bucket's expansion (issue 17): a
    /// bucket whose expansion the guard before it let through (an estimate
    /// of its successors) is still stopped once the process passes the
    /// limit; its chunks are skipped and the pass ends at its checkpoint
    /// with the memory error, never with counts of half a bucket.
    #[test]
    fn the_memory_guard_holds_inside_a_bucket() {
        let resident = crate::search::memory::resident_bytes().expect("Linux has /proc");
        let board = Board::uniform(6, 3).unwrap();
        let search = Search::<u64, u64, 2>::new(&board, Rules::ANY_HOLE, scalar());
        let tripped = AtomicBool::new(false);
        let stop = Stop::default().with_memory_limit(resident / 2, None, &tripped);
        let mut frontier = search.seeded();
        let first = search.start.store() as usize;
        // The guard before the bucket says it fits; the one inside does not.
        let (bucket, ended, pushed) = search
            .step(&mut frontier, first, &stop, None, &|_| Ok(()))
            .ok()
            .unwrap()
            .expect("the start is a node");
        assert_eq!(bucket.len(), 1);
        assert!(tripped.load(std::sync::atomic::Ordering::Relaxed));
        assert_eq!((pushed, ended.iter().sum::<u128>()), (0, 0), "skipped");
        let opts = SolveOptions {
            listing: Listing::Limit(0),
            ..Default::default()
        };
        let progress = Progress::forward(first, search.max_store, 1, &[], 0);
        assert!(matches!(
            search.checkpoint(&opts, &stop, progress),
            Err(Fail::Memory(_))
        ));
        // Without the limit the same bucket expands.
        let mut frontier = search.seeded();
        let (_, _, pushed) = search
            .step(&mut frontier, first, &Stop::default(), None, &|_| Ok(()))
            .ok()
            .unwrap()
            .unwrap();
        assert!(pushed > 0);
    }

    #[test]
    fn path_count_overflow_is_an_error_never_a_wrap() {
        // Any-hole 2x6x3 has positions reached by hundreds of pick sequences.
        let board = Board::uniform(6, 3).unwrap();
        let search = Search::<u64, u8, 2>::new(&board, Rules::ANY_HOLE, scalar());
        let opts = SolveOptions {
            listing: Listing::Limit(0),
            ..Default::default()
        };
        let stop = Stop::default();
        assert!(matches!(search.run(&opts, &stop), Err(Fail::Overflow)));
        // With u64 counts the same search succeeds, and the error a u128
        // overflow would give names the variant.
        assert!(
            Search::<u64, u64, 2>::new(&board, Rules::ANY_HOLE, scalar())
                .run(&opts, &stop)
                .is_ok()
        );
        assert_eq!(
            overflow_error(Rules::ANY_HOLE, &board).to_string(),
            "path count overflowed u128 for rules any-hole (scope=any relay=on capture=none) on board 3 3 3 3 3 3 / 0 0 / 3 3 3 3 3 3; the counts cannot be reported exactly"
        );
    }

    #[test]
    fn a_deadline_and_a_cancel_are_told_apart() {
        let board = Board::uniform(6, 3).unwrap();
        let cancel = AtomicBool::new(true);
        let cancelled = solve(
            &board,
            Rules::ANY_HOLE,
            &SolveOptions {
                cancel: Some(&cancel),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(
            cancelled.is_cancelled() && !cancelled.is_deadline(),
            "{cancelled}"
        );
        assert!(cancelled.to_string().starts_with("interrupted: "));
        let late = solve(
            &board,
            Rules::ANY_HOLE,
            &SolveOptions {
                seconds: Some(0.0),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(late.is_deadline() && !late.is_cancelled(), "{late}");
        assert!(
            late.to_string().starts_with("out of time after 0 s: "),
            "{late}"
        );
    }

    /// Issue 34 (1): with `memory_held`, the guard counts the process above
    /// what it held before (a server's games), so a limit below what the
    /// process holds no longer stops every search; the same limit without
    /// it still does (the test below). The figures leave room for the
    /// other tests of this binary, which grow and shrink the process
    /// while this one runs (a guard at half the resident size once failed
    /// here when a neighbour freed its table).
    #[test]
    fn the_memory_guard_counts_above_what_was_held() {
        let resident = crate::search::memory::resident_bytes().expect("Linux has /proc");
        let board = Board::uniform(2, 1).unwrap();
        let opts = SolveOptions {
            max_memory: SMALL_LIMIT,
            memory_held: Some(&|| resident + (64 << 30)),
            listing: Listing::Limit(0),
            ..Default::default()
        };
        assert!(solve(&board, Rules::AVALANCHE, &opts).is_ok());
    }

    /// A memory limit far above what the tiny search holds (a few KiB) and
    /// far below what any test process holds (its binary alone is larger).
    const SMALL_LIMIT: u64 = 512 << 10;

    /// Regression (issue 15): the memory guard counted only the search's own
    /// buffers, so a run could pass it by the size of the process around
    /// them. A guard below what the process already holds now stops even a
    /// tiny search at its first bucket.
    #[test]
    fn the_memory_guard_counts_the_whole_process() {
        let resident = crate::search::memory::resident_bytes().expect("Linux has /proc");
        let board = Board::uniform(2, 1).unwrap();
        let opts = |max_memory| SolveOptions {
            max_memory,
            listing: Listing::Limit(0),
            ..Default::default()
        };
        // The search itself holds a few KiB: far below the small limit.
        assert!(solve(&board, Rules::AVALANCHE, &opts(u64::MAX)).is_ok());
        assert!(resident > 2 * SMALL_LIMIT, "{resident} bytes resident");
        let stopped = solve(&board, Rules::AVALANCHE, &opts(SMALL_LIMIT)).unwrap_err();
        assert!(
            matches!(stopped, SearchError::MemoryLimit { .. }),
            "{stopped}"
        );
    }
}
