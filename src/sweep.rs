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
//! bucket's sorted keys (delta-coded, see [`crate::level`]), and a *backward
//! pass* finds the good nodes from the top bucket down. For a sweep without
//! captures it plays picks backwards from the good nodes only
//! ([`crate::unsow`]) and looks the positions found up in the levels;
//! otherwise it expands every node again. A depth-first walk over good
//! nodes in pit order then emits optimal sequences in lexicographic order of
//! their pit numbers, without ever entering a dead end.
//!
//! Both expanding passes play picks through the engine's lockstep kernel
//! where it runs (reading its landings directly), or `for_each_pick`; the
//! worker threads only split the nodes of a bucket between them, and all
//! results are exact integer sums or sorted lists, so they do not depend on
//! `--threads`.
//!
//! The search is generic over the key width (`u64` or `u128`, see
//! [`crate::key`]), the count width (`u64`, rerun with `u128` if a count
//! overflows) and the packed ring width (see [`crate::engine`]), so the
//! common boards run on the narrowest types.

use crate::board::Board;
use crate::engine::{self, Engine, Packed};
use crate::error::{Error, Result};
use crate::frontier::{self, Count, Entry, Frontier, Nodes, Overflow, Run};
use crate::key::{bits_needed, Key};
use crate::level::Level;
use crate::pick::PickEnd;
use crate::pit::Pit;
use crate::relay::{Landings, Lanes, Picks};
use crate::rules::{Capture, Rules};
use crate::unsow;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// True when the cancel flag is raised.
#[inline]
pub(crate) fn cancelled(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|c| c.load(Ordering::Relaxed))
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
    fn max(self) -> usize {
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
/// after every bucket.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Which pass.
    pub phase: Phase,
    /// The store bucket just finished.
    pub store: usize,
    /// The highest store value (stones in play).
    pub max_store: usize,
    /// Distinct positions expanded so far.
    pub positions: u64,
    /// Bytes the search holds now (its own estimate, from buffer capacities).
    pub memory: u64,
    /// The best final store of the turns counted so far (a lower bound
    /// until the forward pass ends; the proved best in the backward pass).
    pub best: Option<u32>,
}

/// A progress callback; it runs on one of the search's worker threads, after each bucket.
pub type ProgressFn<'a> = &'a (dyn Fn(&Progress) + Sync);

/// Options for [`solve`].
#[derive(Copy, Clone)]
pub struct SolveOptions<'a> {
    /// Worker threads; 0 uses one per core.
    pub threads: usize,
    /// Which optimal sequences to list.
    pub listing: Listing,
    /// Stop with [`Error::MemoryLimit`] before the search holds more bytes than this.
    pub max_memory: u64,
    /// Called after every bucket.
    pub progress: Option<ProgressFn<'a>>,
    /// When this becomes true (Ctrl-C, a time budget), the search stops
    /// within a chunk of positions with [`Error::Interrupted`].
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            listing: Listing::Limit(10),
            max_memory: u64::MAX,
            progress: None,
            cancel: None,
        }
    }
}

impl std::fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("threads", &self.threads)
            .field("listing", &self.listing)
            .field("max_memory", &self.max_memory)
            .field("cancel", &self.cancel)
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
    /// Listed optimal sequences, in lexicographic order of pit numbers.
    pub optimal: Vec<Vec<Pit>>,
    /// Wall-clock time of the search.
    pub seconds: f64,
}

impl Solution {
    /// True when every stone in play ends in the store.
    pub fn sweep(&self) -> bool {
        self.best_store == self.total_stones
    }
}

/// Check that the player can move at the start, and build the pool of
/// `threads` workers (0: one per core) that a search runs on.
pub(crate) fn worker_pool(
    board: &Board,
    rules: Rules,
    threads: usize,
) -> Result<rayon::ThreadPool> {
    if !board.can_move(rules) {
        return Err(Error::NoMove {
            board: board.one_line(),
            scope: rules.scope,
        });
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Threads {
            threads,
            reason: e.to_string(),
        })
}

/// Search every turn from `board` under `rules`.
pub fn solve(board: &Board, rules: Rules, opts: &SolveOptions) -> Result<Solution> {
    let pool = crate::sweep::worker_pool(board, rules, opts.threads)?;
    let pits = 2 * board.pits_per_side();
    let bits = bits_needed(board.stones_in_pits(), pits);
    let narrow = 2 * board.pits_per_side() < 16;
    let started = Instant::now();
    let result = guarded(&pool, || match (bits, narrow) {
        (0..=64, true) => run::<u64, 2>(board, rules, opts),
        (0..=64, false) => run::<u64, 5>(board, rules, opts),
        (65..=128, true) => run::<u128, 2>(board, rules, opts),
        (65..=128, false) => run::<u128, 5>(board, rules, opts),
        _ => Err(SearchError::KeyTooWide(bits)),
    })?;
    let mut solution = result.map_err(|e| match e {
        SearchError::Overflow => overflow_error(rules, board),
        SearchError::Interrupted(p) => Error::Interrupted {
            store: p.store,
            max_store: p.max_store,
            positions: p.positions,
            best: p.best,
            backward: p.phase == Phase::Backward,
        },
        SearchError::Memory(p) => Error::MemoryLimit {
            limit: opts.max_memory,
            store: p.store,
            max_store: p.max_store,
            positions: p.positions,
            backward: p.phase == Phase::Backward,
        },
        SearchError::KeyTooWide(bits) => Error::KeyTooWide {
            stones: board.stones_in_pits(),
            pits,
            bits,
        },
    })?;
    solution.seconds = started.elapsed().as_secs_f64();
    Ok(solution)
}

/// [`solve`] with a wall-clock budget: the search is cancelled (with
/// [`Error::Interrupted`]) when `seconds` pass or when `stop` is raised.
/// `opts.cancel` is replaced by this budget's own flag.
pub fn solve_within(
    board: &Board,
    rules: Rules,
    opts: &SolveOptions,
    seconds: f64,
    stop: &AtomicBool,
) -> Result<Solution> {
    let started = Instant::now();
    let deadline = std::time::Duration::from_secs_f64(seconds);
    let cancel = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || started.elapsed() >= deadline {
                    cancel.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        let opts = SolveOptions {
            cancel: Some(&cancel),
            ..*opts
        };
        let r = solve(board, rules, &opts);
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// Run `f` on `pool`; a panic in it or in any worker it spawns becomes
/// [`Error::Internal`] instead of unwinding through the caller.
pub(crate) fn guarded<T: Send>(
    pool: &rayon::ThreadPool,
    f: impl FnOnce() -> T + Send,
) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(f)))
        .map_err(|p| Error::Internal(panic_text(&p)))
}

/// The message of a caught panic.
fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a worker panicked".to_string())
}

/// The error for a path count past `u128`, naming the variant.
fn overflow_error(rules: Rules, board: &Board) -> Error {
    Error::CountOverflow {
        variant: format!("rules {rules} on board {}", board.one_line()),
    }
}

/// Run with `u64` path counts, and again with `u128` if one overflows.
fn run<K: Key, const W: usize>(
    board: &Board,
    rules: Rules,
    opts: &SolveOptions,
) -> Result<Solution, SearchError> {
    match Search::<K, u64, W>::new(board, rules).run(opts) {
        Err(SearchError::Overflow) => Search::<K, u128, W>::new(board, rules).run(opts),
        other => other,
    }
}

enum SearchError {
    Overflow,
    KeyTooWide(u32),
    /// The memory guard stopped the search; how far it got.
    Memory(Progress),
    /// The cancel flag was raised; how far it got.
    Interrupted(Progress),
}

impl From<Overflow> for SearchError {
    fn from(_: Overflow) -> Self {
        SearchError::Overflow
    }
}

/// What expanding a chunk of nodes produced.
struct Sink<K, C> {
    /// Successor nodes by store value.
    successors: Vec<Vec<Entry<K, C>>>,
    /// Path counts of turns that ended, by final store.
    ended: Vec<u128>,
    overflow: bool,
}

impl<K: Key, C: Count> Sink<K, C> {
    /// What the chunk produced, its successors split into parts while
    /// they are fresh in this worker's cache.
    fn finish(self, shifts: &[u32]) -> Expanded<K, C> {
        let runs = self
            .successors
            .into_iter()
            .enumerate()
            .filter(|(_, run)| !run.is_empty())
            .map(|(store, run)| (store, Run::new(run, shifts[store])))
            .collect();
        Expanded {
            runs,
            ended: self.ended,
            overflow: self.overflow,
        }
    }

    fn new(max_store: usize) -> Self {
        Sink {
            successors: (0..=max_store).map(|_| Vec::new()).collect(),
            ended: vec![0; max_store + 1],
            overflow: false,
        }
    }

    /// File a pick the kernel played from a node reached by `count`
    /// sequences: how it ended and the stones then in the store, and the
    /// running sums of its ring (see [`Key::from_sums`], over `pits` pits).
    #[inline]
    fn file(&mut self, (end, to): (PickEnd, u8), sums: &[u8; 16], pits: usize, count: C) {
        match end {
            PickEnd::FreeTurn => {
                self.successors[to as usize].push((K::from_sums(sums, pits), count))
            }
            PickEnd::TurnOver => self.end(to as usize, count),
        }
    }

    #[inline]
    fn end(&mut self, store: usize, count: C) {
        let total = &mut self.ended[store];
        if C::BITS <= 64 {
            // A chunk adds far fewer than 2^64 counts, each below 2^64: the
            // sum fits a u128, so the hot path needs no overflow check.
            *total += count.into();
        } else {
            match total.checked_add(count.into()) {
                Some(c) => *total = c,
                None => self.overflow = true,
            }
        }
    }
}

/// A finished chunk: its successors as `(store, run)`, the path counts of
/// turns that ended by final store, and whether a sum overflowed.
struct Expanded<K, C> {
    runs: Vec<(usize, Run<K, C>)>,
    ended: Vec<u128>,
    overflow: bool,
}

/// The fixed part of a search: board shape, rules and the pits in scope.
struct Search<K, C, const W: usize> {
    rules: Rules,
    start: Board,
    n: usize,
    len: usize,
    max_store: usize,
    engine: Engine<W>,
    /// Ring indices of the pits the scope allows, in pit-number order.
    scope: Vec<usize>,
    /// [`frontier::part_shift`] of each bucket.
    shifts: Vec<u32>,
    _types: std::marker::PhantomData<(K, C)>,
}

/// Nodes the streaming kernel takes at a time: node numbers fit the two
/// bytes a record has for them, and the records stay in the L2 cache.
const STREAM_BATCH: usize = 2048;

/// A worker's buffers for [`Search::expand_stream`], reused from batch to batch.
#[derive(Default)]
struct Streams {
    picks: Vec<[u8; 16]>,
    free: Vec<[u8; 16]>,
    over: Vec<[u8; 16]>,
    sums: Vec<[u8; 16]>,
}

/// Nodes a worker expands at a time (at least; larger buckets use larger
/// chunks so that the number of successor runs stays small).
const CHUNK: usize = 4096;
/// Chunks a worker gets from a large bucket: enough to balance the load.
const CHUNKS_PER_THREAD: usize = 16;

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    fn new(start: &Board, rules: Rules) -> Self {
        let n = start.pits_per_side();
        let max_store = start.stones_in_play() as usize;
        Search {
            rules,
            start: *start,
            n,
            len: 2 * n + 1,
            max_store,
            engine: Engine::new(n, start.stones_in_play() as usize, rules),
            scope: rules.scope.pits(n).map(|p| p.ring(n)).collect(),
            shifts: (0..=max_store)
                .map(|store| frontier::part_shift(max_store, store, 2 * n))
                .collect(),
            _types: std::marker::PhantomData,
        }
    }

    #[inline]
    fn ring_of(&self, key: K, store: usize) -> Packed<W> {
        key.decode_packed(self.len, self.n, store as u8)
    }

    #[inline]
    fn key_of(&self, ring: &Packed<W>) -> K {
        K::encode_packed(ring, self.len, self.n)
    }

    /// Stones in the store of a packed ring.
    #[inline]
    fn store_of(&self, ring: &Packed<W>) -> usize {
        engine::get(ring, self.engine.store_index()) as usize
    }

    /// Call `f(pick ring index, ring after the pick, how it ended)` for
    /// every legal pick from the node `ring`, in pit order; returns false
    /// when the node has no legal pick.
    #[inline]
    fn for_each_pick(&self, ring: &Packed<W>, f: impl FnMut(usize, &Packed<W>, PickEnd)) -> bool {
        self.engine.for_each_pick(ring, &self.scope, f)
    }

    /// Every pick of node `key` through the lockstep kernel, decoding the
    /// key in the kernel where it can; `None` where the kernel does not run.
    #[inline]
    fn landings(&self, key: K, store: usize, out: &mut Landings) -> Option<usize> {
        if K::BITS == 64 {
            let picks =
                self.engine
                    .landings_of_key(key.to_u128() as u64, store as u8, &self.scope, out);
            if picks.is_some() {
                return picks;
            }
        }
        self.engine
            .landings(&self.ring_of(key, store), &self.scope, out)
    }

    /// Expand `nodes` of bucket `store` through the streaming kernel: one
    /// record for every legal pick of every node, all played in one stream,
    /// then filed by the node number each record carries. The kernel
    /// returns free turns and finished turns apart: only free turns (19%
    /// of the picks of any-hole 2x6x4) need running sums and a key, and
    /// each kind is filed in a loop without a branch on how a pick ended.
    fn expand_stream(
        &self,
        nodes: &[Entry<K, C>],
        store: usize,
        (lanes, scope): (&Lanes, &Picks),
        sink: &mut Sink<K, C>,
        buffers: &mut Streams,
    ) {
        debug_assert!(nodes.len() <= STREAM_BATCH);
        // Each node's records are stored four at a time.
        buffers
            .picks
            .resize(nodes.len() * self.scope.len() + 4, [0; 16]);
        let mut made = 0;
        for (i, &(key, count)) in nodes.iter().enumerate() {
            let key = key.to_u128() as u64;
            let out = &mut buffers.picks[made..];
            let m = lanes.records(key, store as u8, i as u16, scope, out);
            if m == 0 {
                sink.end(store, count);
            }
            made += m;
        }
        buffers.picks.truncate(made);
        let Streams {
            picks,
            free,
            over,
            sums,
        } = buffers;
        lanes.stream(picks, free, over);
        lanes.sums(free, sums);
        let node = |record: &[u8; 16]| u16::from_le_bytes([record[14], record[15]]) as usize;
        for (record, sums) in free.iter().zip(sums.iter()) {
            let key = K::from_sums(sums, self.len - 1);
            sink.successors[record[self.n] as usize].push((key, nodes[node(record)].1));
        }
        for record in over.iter() {
            let (end, to) = self.engine.finish_record(record);
            debug_assert_eq!(end, PickEnd::TurnOver, "a free turn lands in the store");
            sink.end(to as usize, nodes[node(record)].1);
        }
    }

    /// Expand one node of the forward pass into `sink`.
    #[inline]
    fn expand(
        &self,
        (key, count): Entry<K, C>,
        store: usize,
        sink: &mut Sink<K, C>,
        landings: &mut Landings,
    ) {
        if let Some(picks) = self.landings(key, store, landings) {
            // The kernel's stores, last counters and running sums settle
            // every pick without a look at its ring.
            for i in 0..picks {
                let end = self.engine.finish(landings, i);
                sink.file(end, &landings.sums[i], self.len - 1, count);
            }
            if picks == 0 {
                sink.end(store, count);
            }
            return;
        }
        let ring = self.ring_of(key, store);
        let moved = self.for_each_pick(&ring, |_, after, end| match end {
            PickEnd::FreeTurn => {
                sink.successors[self.store_of(after)].push((self.key_of(after), count))
            }
            PickEnd::TurnOver => sink.end(self.store_of(after), count),
        });
        if !moved {
            sink.end(store, count);
        }
    }

    /// Expand every node of a bucket, in parallel chunks.
    /// A chunk whose worker sees `cancel` raised is skipped; the caller then
    /// stops at its checkpoint.
    fn expand_bucket(
        &self,
        bucket: &Nodes<K, C>,
        store: usize,
        cancel: Option<&AtomicBool>,
    ) -> Vec<Expanded<K, C>> {
        let chunk = CHUNK.max(bucket.len() / (rayon::current_num_threads() * CHUNKS_PER_THREAD));
        bucket
            .chunks(chunk)
            .into_par_iter()
            .map(|slices| {
                let mut sink = Sink::new(self.max_store);
                let mut landings = Landings::default();
                let streaming = self.engine.streaming().filter(|_| K::BITS == 64);
                match streaming {
                    _ if cancelled(cancel) => {}
                    Some(lanes) => {
                        let mut buffers = Streams::default();
                        let kernel = (lanes, &lanes.picks(&self.scope));
                        for batch in slices.iter().flat_map(|s| s.chunks(STREAM_BATCH)) {
                            self.expand_stream(batch, store, kernel, &mut sink, &mut buffers);
                        }
                    }
                    None => {
                        for &e in slices.iter().copied().flatten() {
                            self.expand(e, store, &mut sink, &mut landings);
                        }
                    }
                }
                sink.finish(&self.shifts)
            })
            .collect()
    }

    /// Report progress and enforce the memory guard.
    fn checkpoint(&self, opts: &SolveOptions, progress: Progress) -> Result<(), SearchError> {
        if let Some(report) = opts.progress {
            report(&progress);
        }
        if cancelled(opts.cancel) {
            return Err(SearchError::Interrupted(progress));
        }
        if progress.memory > opts.max_memory {
            return Err(SearchError::Memory(progress));
        }
        Ok(())
    }

    fn run(&self, opts: &SolveOptions) -> Result<Solution, SearchError> {
        let listing = opts.listing;
        let start_store = self.start.store() as usize;
        let keep_levels = listing.max() > 0;
        let mut kept = 0u64;
        let mut frontier = Frontier::<K, C>::new(self.max_store);
        frontier.push(
            start_store,
            Run::new(
                vec![(K::encode(self.start.ring(), self.n), C::ONE)],
                self.shifts[start_store],
            ),
        );
        let mut ended = vec![0u128; self.max_store + 1];
        let mut levels: Vec<Level<K>> = (0..=self.max_store).map(|_| Level::default()).collect();
        let mut positions = 0u64;
        for (store, level) in levels.iter_mut().enumerate().skip(start_store) {
            let bucket = frontier.take(store)?;
            if bucket.is_empty() {
                continue;
            }
            positions += bucket.len() as u64;
            for chunk in self.expand_bucket(&bucket, store, opts.cancel) {
                if chunk.overflow {
                    return Err(SearchError::Overflow);
                }
                for (s, c) in chunk.ended.into_iter().enumerate() {
                    ended[s] = ended[s].checked_add(c).ok_or(SearchError::Overflow)?;
                }
                for (s, run) in chunk.runs {
                    frontier.push(s, run);
                }
            }
            let bucket_bytes = bucket.memory();
            if keep_levels {
                *level = Level::join(
                    bucket
                        .parts()
                        .par_iter()
                        .map(|part| Level::from_sorted(part.iter().map(|e| e.0)))
                        .collect(),
                );
                kept += level.memory();
            }
            let progress = Progress {
                phase: Phase::Forward,
                store,
                max_store: self.max_store,
                positions,
                memory: frontier.memory() + bucket_bytes + kept,
                best: ended.iter().rposition(|&c| c > 0).map(|b| b as u32),
            };
            self.checkpoint(opts, progress)?;
        }
        let best = ended
            .iter()
            .rposition(|&c| c > 0)
            .expect("a position with a legal pick has at least one complete turn");
        let mut turns_total = 0u128;
        for &c in &ended {
            turns_total = turns_total.checked_add(c).ok_or(SearchError::Overflow)?;
        }
        let optimal = if keep_levels {
            let good = if best == self.max_store && self.rules.capture == Capture::None {
                self.backward_by_unsowing(levels, best, opts, positions)?
            } else {
                self.backward(levels, best, opts, positions)?
            };
            self.list(&good, best, listing.max())
        } else {
            Vec::new()
        };
        Ok(Solution {
            rules: self.rules,
            start: self.start,
            best_store: best as u32,
            total_stones: self.max_store as u32,
            optimal_count: ended[best],
            turns_total,
            turns_by_store: ended,
            positions,
            optimal,
            seconds: 0.0,
        })
    }

    /// [`Search::checkpoint`] for a backward pass at bucket `store`,
    /// holding `memory` bytes.
    fn backward_checkpoint(
        &self,
        opts: &SolveOptions,
        store: usize,
        best: usize,
        positions: u64,
        memory: u64,
    ) -> Result<(), SearchError> {
        let progress = Progress {
            phase: Phase::Backward,
            store,
            max_store: self.max_store,
            positions,
            memory,
            best: Some(best as u32),
        };
        self.checkpoint(opts, progress)
    }

    /// Find, bucket by bucket from the top, the nodes from which a turn can
    /// still end with `best` stones. Each level is freed once it is done.
    /// The good sets are small next to the levels (a node is good only on an
    /// optimal line), so membership is a hash look-up that stays in cache.
    fn backward(
        &self,
        mut levels: Vec<Level<K>>,
        best: usize,
        opts: &SolveOptions,
        positions: u64,
    ) -> Result<Vec<GoodSet<W>>, SearchError> {
        let mut kept: u64 = levels.iter().map(Level::memory).sum();
        let mut good_bytes = 0u64;
        let mut good = no_good_sets::<W>(levels.len());
        for store in (0..levels.len()).rev() {
            let level = std::mem::take(&mut levels[store]);
            if level.is_empty() {
                continue;
            }
            let marked: Vec<Packed<W>> = level
                .par_iter()
                .map_init(Landings::default, |landings, key| {
                    self.reaches(key, store, best, &good, landings)
                        .then(|| self.ring_of(key, store))
                })
                .flatten()
                .collect();
            kept -= level.memory();
            drop(level);
            good[store] = marked.into_iter().collect();
            good_bytes += good_set_bytes(&good[store]);
            self.backward_checkpoint(opts, store, best, positions, kept + good_bytes)?;
        }
        Ok(good)
    }

    /// The good nodes of a sweep without captures, found from the top down
    /// by playing picks backwards ([`crate::unsow`]) from the good nodes
    /// only, instead of expanding every node as [`Search::backward`] does.
    ///
    /// In a sweep every stone ends in the store, so the last node of an
    /// optimal line is the empty board with no pick left, and every pick on
    /// the line is a free turn: a pick that ends the turn leaves its last
    /// stone in a pit, and without captures nothing takes it back. So a
    /// node is good exactly when it is the empty board at `best`, or a
    /// free-turn pick leads from it to a good node: the predecessors of
    /// good nodes that are nodes of the search (in their level). Each good
    /// node is unsown once, and the look-ups are binary searches in the
    /// levels; the good sets are the same as the other pass's (tested).
    fn backward_by_unsowing(
        &self,
        mut levels: Vec<Level<K>>,
        best: usize,
        opts: &SolveOptions,
        positions: u64,
    ) -> Result<Vec<GoodSet<W>>, SearchError> {
        let (n, len) = (self.n, self.len);
        let mut in_scope = vec![false; len];
        for &i in &self.scope {
            in_scope[i] = true;
        }
        let mut kept: u64 = levels.iter().map(Level::memory).sum();
        let mut good = no_good_sets::<W>(levels.len());
        let mut empty = vec![0u8; len];
        empty[n] = best as u8;
        if levels[best].contains(K::encode(&empty, n)) {
            good[best].insert(engine::pack(&empty));
        }
        for store in (0..levels.len()).rev() {
            let nodes: Vec<&Packed<W>> = good[store].iter().collect();
            let found: Vec<(usize, Packed<W>)> = nodes
                .into_par_iter()
                .flat_map_iter(|node| {
                    let mut after = vec![0u8; len];
                    engine::unpack(node, &mut after);
                    let mut found = Vec::new();
                    unsow::free_turn_predecessors(&after, n, self.rules, &in_scope, |before, _| {
                        let s = before[n] as usize;
                        if levels[s].contains(K::encode(before, n)) {
                            found.push((s, engine::pack(before)));
                        }
                    });
                    found
                })
                .collect();
            for (s, node) in found {
                good[s].insert(node);
            }
            // Predecessors have fewer stones in the store: this level is done.
            let level = std::mem::take(&mut levels[store]);
            kept -= level.memory();
            drop(level);
            let good_bytes: u64 = good.iter().map(good_set_bytes).sum();
            self.backward_checkpoint(opts, store, best, positions, kept + good_bytes)?;
        }
        Ok(good)
    }

    /// True when node `key` of bucket `store` has a pick that ends the turn
    /// with `best` stones or continues it at a good node (or it has no pick
    /// and `store` is `best`).
    fn reaches(
        &self,
        key: K,
        store: usize,
        best: usize,
        good: &[GoodSet<W>],
        landings: &mut Landings,
    ) -> bool {
        if let Some(picks) = self.landings(key, store, landings) {
            return (0..picks).any(|i| match self.engine.finish(landings, i) {
                (PickEnd::FreeTurn, to) => good[to as usize].contains(&engine::landed(landings, i)),
                (PickEnd::TurnOver, to) => to as usize == best,
            }) || (picks == 0 && store == best);
        }
        let mut ok = false;
        let moved = self.for_each_pick(&self.ring_of(key, store), |_, after, end| {
            ok = ok
                || match end {
                    PickEnd::FreeTurn => good[self.store_of(after)].contains(after),
                    PickEnd::TurnOver => self.store_of(after) == best,
                }
        });
        ok || (!moved && store == best)
    }

    /// Depth-first walk over good nodes, in pit order, collecting at most
    /// `limit` optimal sequences.
    fn list(&self, good: &[GoodSet<W>], best: usize, limit: usize) -> Vec<Vec<Pit>> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        let start = engine::pack(self.start.ring());
        self.walk(good, best, limit, &start, &mut path, &mut out);
        out
    }

    fn walk(
        &self,
        good: &[GoodSet<W>],
        best: usize,
        limit: usize,
        ring: &Packed<W>,
        path: &mut Vec<Pit>,
        out: &mut Vec<Vec<Pit>>,
    ) {
        let mut next = Vec::new();
        let moved = self.for_each_pick(ring, |from, after, end| next.push((from, *after, end)));
        if !moved && self.store_of(ring) == best {
            out.push(path.clone());
        }
        for (from, after, end) in next {
            if out.len() >= limit {
                return;
            }
            let pit = Pit::from_ring(from, self.n).expect("picks are pits");
            let store = self.store_of(&after);
            match end {
                PickEnd::TurnOver if store == best => {
                    path.push(pit);
                    out.push(path.clone());
                    path.pop();
                }
                PickEnd::FreeTurn if good[store].contains(&after) => {
                    path.push(pit);
                    self.walk(good, best, limit, &after, path, out);
                    path.pop();
                }
                _ => {}
            }
        }
    }
}

/// The nodes on optimal lines, one set per store value, as packed rings so
/// that the listing pass never encodes a key to look one up.
type GoodSet<const W: usize> = hashbrown::HashSet<Packed<W>, foldhash::fast::FixedState>;

/// An empty good set for each of `buckets` store values.
fn no_good_sets<const W: usize>(buckets: usize) -> Vec<GoodSet<W>> {
    (0..buckets).map(|_| GoodSet::default()).collect()
}

/// Bytes a good set holds: its slots and their control bytes.
fn good_set_bytes<const W: usize>(set: &GoodSet<W>) -> u64 {
    (set.capacity() * (size_of::<Packed<W>>() + 1)) as u64
}

/// One bucket of a real search and its expansion, for the benchmarks: the
/// nodes of bucket `store` (deduplicated, as the search expands them) and the
/// raw successor streams they produce, which deduplication consumes. Boards
/// up to 7 pits a side with 64-bit keys.
pub struct Bucket {
    search: Search<u64, u64, 2>,
    store: usize,
    nodes: Nodes<u64, u64>,
}

impl Bucket {
    /// Run the forward pass from `board` up to bucket `store` and keep it.
    pub fn new(board: &Board, rules: Rules, store: usize) -> Result<Bucket> {
        let bits = bits_needed(board.stones_in_pits(), 2 * board.pits_per_side());
        if bits > 64 || board.pits_per_side() > 7 {
            return Err(Error::KeyTooWide {
                stones: board.stones_in_pits(),
                pits: 2 * board.pits_per_side(),
                bits,
            });
        }
        let search = Search::<u64, u64, 2>::new(board, rules);
        let overflow = || overflow_error(rules, board);
        let mut frontier = Frontier::<u64, u64>::new(search.max_store);
        let first = board.store() as usize;
        let start = vec![(u64::encode(board.ring(), search.n), 1)];
        frontier.push(first, Run::new(start, search.shifts[first]));
        for s in first..store.min(search.max_store) {
            let bucket = frontier.take(s).map_err(|_| overflow())?;
            for chunk in search.expand_bucket(&bucket, s, None) {
                for (t, run) in chunk.runs {
                    frontier.push(t, run);
                }
            }
        }
        let nodes = frontier.take(store).map_err(|_| overflow())?;
        Ok(Bucket {
            search,
            store,
            nodes,
        })
    }

    /// The same bucket, expanded by `engine` applied to the search's
    /// engine (such as [`Engine::one_at_a_time`]), so that the benchmark
    /// can time the paths other CPUs take.
    pub fn with_engine(mut self, engine: impl FnOnce(Engine<2>) -> Engine<2>) -> Bucket {
        let n = self.search.n;
        let fresh = Engine::new(n, self.search.max_store, self.search.rules);
        self.search.engine = engine(fresh);
        self
    }

    /// Number of nodes in the bucket.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the bucket has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The bucket's nodes, keys and path counts, in key order.
    pub fn nodes(&self) -> impl Iterator<Item = &Entry<u64, u64>> + '_ {
        self.nodes.iter()
    }

    /// Expand every node; returns the successors by store, each store's
    /// stream being the runs of all chunks concatenated (split by part
    /// within each run).
    pub fn expand(&self) -> Vec<Vec<Entry<u64, u64>>> {
        let mut streams = vec![Vec::new(); self.search.max_store + 1];
        for chunk in self.search.expand_bucket(&self.nodes, self.store, None) {
            for (t, run) in chunk.runs {
                streams[t].extend_from_slice(run.entries());
            }
        }
        streams
    }

    /// The part shift of bucket `store` of this search (see
    /// [`crate::frontier::part_shift`]).
    pub fn shift(&self, store: usize) -> u32 {
        self.search.shifts[store]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontier::Count;

    /// A count type small enough to overflow on a real search, to exercise
    /// the overflow path that `u128` counts take on astronomically big ones.
    impl Count for u8 {
        const ONE: Self = 1;
        const BITS: u32 = 8;
        fn checked_add(self, other: Self) -> Option<Self> {
            u8::checked_add(self, other)
        }
    }

    #[test]
    fn a_panic_in_a_worker_is_an_error_not_a_hang() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let r = guarded(&pool, || {
            (0..1000).into_par_iter().for_each(|i| {
                if i == 777 {
                    panic!("worker {i} failed");
                }
            })
        });
        assert_eq!(r, Err(Error::Internal("worker 777 failed".into())));
        assert_eq!(guarded(&pool, || 5), Ok(5));
    }

    /// The kernels against the one-pick engine on whole searches: boards
    /// up to 6 pits a side stream their picks, 7 pits a side use the
    /// lockstep landings; Kalah exercises captures after the kernel.
    #[test]
    fn the_one_pick_engine_gives_the_same_search_as_the_lockstep_one() {
        let opts = SolveOptions {
            listing: Listing::Limit(25),
            ..Default::default()
        };
        for (rules, n, s) in [
            (Rules::ANY_HOLE, 5, 3),
            (Rules::AVALANCHE, 6, 4),
            (Rules::KALAH, 6, 4),
            (Rules::ANY_HOLE, 7, 2),
        ] {
            let board = Board::uniform(n, s).unwrap();
            let lockstep = Search::<u64, u64, 2>::new(&board, rules);
            let mut one = Search::<u64, u64, 2>::new(&board, rules);
            one.engine = one.engine.one_at_a_time();
            let (Ok(a), Ok(b)) = (lockstep.run(&opts), one.run(&opts)) else {
                panic!("{rules} {n}x{s} failed");
            };
            assert_eq!(a, b, "{rules} {n}x{s}");
        }
    }

    /// The two listing passes agree: unsowing from the good nodes finds
    /// exactly the good nodes that expanding every node finds, on sweeps
    /// of both scopes.
    #[test]
    fn unsowing_finds_the_same_good_nodes_as_expanding_every_node() {
        let opts = SolveOptions {
            listing: Listing::Limit(1),
            ..Default::default()
        };
        let mut sweeps = 0;
        // An own-side relay sweep: pits 1..6 hold 0 0 4 2 2 1.
        let own = Board::from_pits(&[0, 0, 4, 2, 2, 1, 0, 0, 0, 0, 0, 0], 0, 0).unwrap();
        for (rules, board) in [
            (Rules::ANY_HOLE, Board::uniform(6, 3).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(5, 3).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(4, 4).unwrap()),
            (Rules::ANY_HOLE, Board::uniform(3, 5).unwrap()),
            (Rules::AVALANCHE, Board::uniform(6, 1).unwrap()),
            (Rules::AVALANCHE, own),
        ] {
            let (n, s) = (board.pits_per_side(), board.stones_in_play());
            let search = Search::<u64, u64, 2>::new(&board, rules);
            let solution = search.run(&opts).ok().unwrap();
            if !solution.sweep() {
                continue;
            }
            sweeps += 1;
            let best = solution.best_store as usize;
            let levels = || levels_of(&search);
            let quick = search
                .backward_by_unsowing(levels(), best, &opts, 0)
                .ok()
                .unwrap();
            let full = search.backward(levels(), best, &opts, 0).ok().unwrap();
            assert_eq!(quick, full, "{rules} {n}x{s}");
            assert!(quick.iter().map(|g| g.len()).sum::<usize>() > 1);
            let lines = search.list(&quick, best, usize::MAX);
            assert_eq!(
                lines.len() as u128,
                solution.optimal_count,
                "{rules} {n}x{s}"
            );
        }
        assert!(sweeps >= 5, "the cases include sweeps of both scopes");
    }

    /// Every bucket's keys, as the forward pass keeps them for listing.
    fn levels_of(search: &Search<u64, u64, 2>) -> Vec<Level<u64>> {
        let mut levels: Vec<Level<u64>> =
            (0..=search.max_store).map(|_| Level::default()).collect();
        let mut frontier = Frontier::<u64, u64>::new(search.max_store);
        let first = search.start.store() as usize;
        let start = vec![(u64::encode(search.start.ring(), search.n), 1)];
        frontier.push(first, Run::new(start, search.shifts[first]));
        for (s, level) in levels.iter_mut().enumerate().skip(first) {
            let bucket = frontier.take(s).unwrap();
            for chunk in search.expand_bucket(&bucket, s, None) {
                for (t, run) in chunk.runs {
                    frontier.push(t, run);
                }
            }
            *level = Level::from_sorted(bucket.iter().map(|e| e.0));
        }
        levels
    }

    #[test]
    fn path_count_overflow_is_an_error_never_a_wrap() {
        // Any-hole 2x6x3 has positions reached by hundreds of pick sequences.
        let board = Board::uniform(6, 3).unwrap();
        let search = Search::<u64, u8, 2>::new(&board, Rules::ANY_HOLE);
        let opts = SolveOptions {
            listing: Listing::Limit(0),
            ..Default::default()
        };
        assert!(matches!(search.run(&opts), Err(SearchError::Overflow)));
        // With u64 counts the same search succeeds, and the error a u128
        // overflow would give names the variant.
        assert!(Search::<u64, u64, 2>::new(&board, Rules::ANY_HOLE)
            .run(&opts)
            .is_ok());
        assert_eq!(
            overflow_error(Rules::ANY_HOLE, &board).to_string(),
            "path count overflowed u128 for rules any-hole (scope=any relay=on capture=none) on board 3 3 3 3 3 3 / 0 0 / 3 3 3 3 3 3; the counts cannot be reported exactly"
        );
    }
}
