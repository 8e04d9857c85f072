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
//! bucket's sorted keys (delta-coded, see `bucket_keys`) and the nodes with a
//! pick that ends the turn at the best store seen, and a *backward pass*
//! finds the other good nodes from the top bucket down: it plays free
//! turns backwards from the good nodes only ([`rules::unsow`], in
//! `backward`) and looks the positions found up in the kept keys. A
//! depth-first walk over good nodes in pit order then emits optimal
//! sequences in lexicographic order of their pit numbers, without ever
//! entering a dead end.
//!
//! The forward pass plays picks through the kernel that
//! [`crate::kernel::plan`] chose for the search; the worker threads only split the nodes of a bucket between them, and all
//! results are exact integer sums or sorted lists, so they do not depend on
//! `--threads`.
//!
//! The search is generic over the key width (`u64` or `u128`, see
//! `key`), the count width (`u64`, rerun with `u128` if a count
//! overflows) and the packed ring width (see [`crate::kernel::packed`]), so the
//! common boards run on the narrowest types. A search on `u128` keys, in
//! memory or on disk, goes on with `u64` keys from the first bucket whose
//! keys fit them (`Search::count_narrowing`): on the boards that need wide
//! keys at the start, nearly every position is in those buckets.

//!
//! The code follows the passes: `steps` (the forward pass's one loop
//! over the buckets of a `store::Store`, in memory or on disk), `forward`
//! (expanding a bucket and filing its successors), `backward` (the good
//! nodes), `listing` (the walk that emits lines); `key`, `bucket_keys` and
//! `store` are the data they share. `spilled` opens the store on disk
//! (or resumes it) for the same loop, and [`cluster`] runs the same
//! bucket expansion on timely-dataflow workers that each own a share of
//! every bucket, over processes and machines.

pub(crate) mod backward;
#[doc(hidden)]
pub mod bench;
pub(crate) mod bucket_keys;
pub mod cluster;
pub(crate) mod counts;
pub mod forecast;
pub(crate) mod forward;
pub mod key;
pub(crate) mod listing;
pub(crate) mod spilled;
pub(crate) mod steps;
pub mod store;

use self::key::{bits_needed, Key};
use self::store::SpillFail;
use self::store::{Count, Frontier, Rekey, Store};
use super::control::{guarded, worker_pool, Stop};
use super::error::{Reached, SearchError, StopCause};
use super::kernel::packed::Engine;
use super::kernel::{plan, KernelChoice, Plan};
use super::memory::{format_bytes, HeldFn};
use base::clock::Instant;
use rules::{Board, Line, Rules};
use std::path::Path;
use std::sync::atomic::AtomicBool;

pub use self::store::disk::{disk_free, Checkpoint, CHECKPOINT_FILE};
pub use self::store::DiskUse;

/// The checkpoint of a spilled search in `dir` ([`SweepOptions::spill`]),
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

/// A snapshot of a running search, passed to [`SweepOptions::progress`]
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
    /// [`crate::memory::resident_bytes`]).
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
    /// ([`SweepOptions::spill`]); `None` for a search in memory.
    pub disk: Option<DiskUse>,
    /// A forecast of the positions the forward pass has still to expand,
    /// this bucket's included, from the growth of the buckets done (see
    /// [`forecast`]); `None` in the backward pass and until enough buckets
    /// are done to make one.
    pub left: Option<u64>,
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
pub struct SweepOptions<'a> {
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
    /// built meanwhile would be charged to the solve). `None`, the
    /// default, counts the whole process, as a command's own run should.
    pub memory_held: Option<HeldFn<'a>>,
    /// Called after every bucket.
    pub progress: Option<ProgressFn<'a>>,
    /// When this becomes true (Ctrl-C, a closed page), the search stops
    /// within a chunk of positions with [`SearchError::Stopped`].
    pub cancel: Option<&'a AtomicBool>,
    /// A time budget in seconds: past it the search stops the same way,
    /// saying that time ran out.
    pub seconds: Option<f64>,
    /// Which kernels may play the picks (see [`crate::kernel`]).
    pub kernel: KernelChoice,
    /// Keep the frontier in this directory instead of memory, with a
    /// checkpoint after every bucket: the same call resumes a stopped
    /// search (see `store::disk`). Counts only: no lines are listed.
    pub spill: Option<&'a Path>,
    /// Stop with [`SearchError::DiskLimit`] before the run files in
    /// [`SweepOptions::spill`] take more bytes than this.
    pub max_disk: u64,
    /// With [`SweepOptions::spill`]: bytes of successors held in memory
    /// before they are written out as run files; `None` is a third of
    /// [`SweepOptions::max_memory`]. Smaller means more, smaller runs (the
    /// tests force many this way); the answer is the same.
    pub spill_buffer: Option<u64>,
}

impl Default for SweepOptions<'_> {
    fn default() -> Self {
        SweepOptions {
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

impl std::fmt::Debug for SweepOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SweepOptions")
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

/// The bytes [`SweepOptions::memory_held`] says are not the search's now.
pub(crate) fn held(opts: &SweepOptions) -> u64 {
    opts.memory_held.map_or(0, |held| held())
}

/// Search every turn from `board` under `rules`.
pub fn solve(board: &Board, rules: Rules, opts: &SweepOptions) -> Result<Solution, SearchError> {
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

/// Whether this build counts on a cluster (the `cluster` feature, on by
/// default): without it [`solve_cluster`] refuses with
/// [`SearchError::NoCluster`], and a front end can say so before it reads
/// the cluster's flags. The one place the feature shows above the sweep.
pub const CLUSTER: bool = cfg!(feature = "cluster");

/// [`solve_cluster`] in a build without the backend: refused.
#[cfg(not(feature = "cluster"))]
pub fn solve_cluster(
    _board: &Board,
    _rules: Rules,
    _opts: &SweepOptions,
    _cluster: &cluster::Cluster,
) -> Result<(Solution, cluster::Traffic), SearchError> {
    Err(SearchError::NoCluster)
}

/// Search every turn from `board` under `rules` on a cluster of
/// processes (timely-dataflow; see [`cluster`]), this process being
/// `cluster.process`: counts only, as with [`SweepOptions::spill`]. Every
/// process gets the answer, with the traffic between workers.
#[cfg(feature = "cluster")]
pub fn solve_cluster(
    board: &Board,
    rules: Rules,
    opts: &SweepOptions,
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
fn search_error(e: Fail, board: &Board, rules: Rules, opts: &SweepOptions) -> SearchError {
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
fn spill_error(e: SpillFail, p: Progress, opts: &SweepOptions) -> SearchError {
    let at = opts.spill.unwrap_or(Path::new("."));
    let dir = at.display().to_string();
    let resumable = spill_checkpoint(at).is_some();
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
            resumable,
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
            resumable,
        },
        SpillFail::DiskLimit { limit, needed } => SearchError::DiskLimit {
            limit,
            needed,
            dir,
            reached: p.reached(),
            resumable,
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
    opts: &SweepOptions,
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
    fn checkpoint(&self, opts: &SweepOptions, stop: &Stop, progress: Progress) -> Result<(), Fail> {
        if let Some(report) = opts.progress {
            report(&progress);
        }
        if let Some(cause) = stop.cause() {
            return Err(Fail::Stopped(cause, Box::new(progress)));
        }
        let resident = crate::memory::resident_above(held(opts));
        if stop.memory_tripped() || progress.memory.max(resident) > opts.max_memory {
            return Err(Fail::Memory(Box::new(progress)));
        }
        Ok(())
    }

    /// The forward pass, then the backward pass and the listing when lines
    /// are asked for.
    fn run(&self, opts: &SweepOptions, stop: &Stop) -> Result<Solution, Fail> {
        self.run_keys(opts, stop, true)
    }

    /// [`Search::run`], going on with `u64` keys once the buckets left fit
    /// them when `narrow` (the tests compare both ways).
    fn run_keys(&self, opts: &SweepOptions, stop: &Stop, narrow: bool) -> Result<Solution, Fail> {
        if let Some(dir) = opts.spill {
            let counted = self.count_spilled(dir, opts, stop, narrow)?;
            return Ok(self.solution(counted, Vec::new()));
        }
        let listing = opts.listing;
        let keep_keys = listing.max() > 0;
        let fresh = counts::ForwardCounts::fresh(self.start.store() as usize, self.max_store);
        let mut counted = match self.narrow_from().filter(|_| narrow) {
            Some(from) => {
                self.count_narrowing(self.seeded(), fresh, from, keep_keys, opts, stop)?
            }
            None => self.count(
                &mut self.seeded(),
                fresh,
                keep_keys,
                opts,
                stop,
                &mut steps::Alone,
            )?,
        };
        let best = counted.best;
        let optimal = if keep_keys {
            let good = self.backward(
                std::mem::take(&mut counted.bucket_keys),
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
    /// speed of a narrow board. The kept keys and finishers come back
    /// to this search's keys for the backward pass.
    pub(super) fn count_narrowing<S: Store<K, C> + Rekey<C>>(
        &self,
        mut frontier: S,
        tally: counts::ForwardCounts,
        from: usize,
        keep_keys: bool,
        opts: &SweepOptions,
        stop: &Stop,
    ) -> Result<forward::Counted<K>, Fail> {
        let alone = &mut steps::Alone;
        let wide = self.steps(&mut frontier, tally, from, keep_keys, opts, stop, alone)?;
        let bits = bits_needed((self.max_store - from) as u32, 2 * self.n);
        let narrow =
            Search::<u64, C, W>::new(&self.start, self.rules, plan(self.n, bits, opts.kernel));
        let mut frontier = frontier.rekey::<u64>();
        let end = self.max_store + 1;
        let rest = narrow.steps(&mut frontier, wide.tally, end, keep_keys, opts, stop, alone)?;
        let mut bucket_keys = wide.bucket_keys;
        for (keys, kept) in bucket_keys.iter_mut().zip(rest.bucket_keys).skip(from) {
            *keys = kept.rekey();
        }
        let mut finishers = wide.finishers;
        finishers.merge(rest.finishers.rekey());
        forward::Counted::new(
            rest.tally.ended,
            rest.tally.by_store,
            bucket_keys,
            finishers,
        )
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
mod tests;
