//! The forward pass: buckets taken from the store lowest first, every node
//! expanded once in parallel chunks, successors pushed to higher buckets
//! and finished turns counted by final store.
//!
//! The loop over the buckets is [`super::steps`]; this file expands one
//! bucket ([`Search::expand_bucket`]) and files what it produced
//! ([`Search::file`]). [`Search::step`] does both for one bucket alone,
//! for the listing tests and the benchmarks' [`super::bench::Bucket`].

use super::bucket_keys::BucketKeys;
use super::key::Key;
use super::store::{Count, Entry, Frontier, Nodes, Run, Store};
use super::{Fail, Search, WITHIN_MIN, WITHIN_STEPS};
use crate::control::Stop;
use crate::kernel::packed::{self, Packed};
use crate::kernel::relay::{Landings, Lanes, Picks};
use rayon::prelude::*;
use rules::PickEnd;
use std::sync::atomic::{AtomicU64, Ordering};

/// A progress hook within a bucket: positions done, positions in it.
type Tick<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// What expanding a chunk of nodes produced.
pub(super) struct Sink<K, C> {
    /// Successor nodes by store value.
    successors: Vec<Vec<Entry<K, C>>>,
    /// Path counts of turns that ended, by final store.
    ended: Vec<u128>,
    overflow: bool,
    /// When lines are to be listed: the chunk's bucket and its nodes with
    /// a turn ending at the highest store seen.
    finishers: Option<(usize, Finishers<K>)>,
}

/// The nodes with a turn that ends with the most stones seen so far, and
/// their buckets: what the forward pass keeps for the backward pass, which
/// unsows from them instead of expanding every node again (see
/// [`super::backward`]). A node is kept once the store its turn ends with
/// reaches `top`, and the list starts again when `top` rises, so at the
/// end it holds exactly the nodes with a turn ending at the best store.
#[derive(Debug)]
pub(super) struct Finishers<K> {
    /// The highest final store seen.
    pub(super) top: usize,
    /// `(bucket, key)` of the nodes with a turn ending at `top`.
    pub(super) nodes: Vec<(usize, K)>,
}

impl<K> Default for Finishers<K> {
    fn default() -> Self {
        Finishers {
            top: 0,
            nodes: Vec::new(),
        }
    }
}

impl<K: Key> Finishers<K> {
    /// Nothing seen above `floor` yet.
    pub(super) fn above(floor: usize) -> Self {
        Finishers {
            top: floor,
            nodes: Vec::new(),
        }
    }

    /// A turn from `node` of `bucket` ended with `store` stones, at least `top`.
    #[inline]
    fn note(&mut self, store: usize, bucket: usize, node: K) {
        if store > self.top {
            self.top = store;
            self.nodes.clear();
        }
        // A node's picks are filed one after another: keep it once.
        if self.nodes.last() != Some(&(bucket, node)) {
            self.nodes.push((bucket, node));
        }
    }

    /// Add another chunk's finishers: the higher top wins.
    pub(super) fn merge(&mut self, other: Finishers<K>) {
        if other.top > self.top {
            *self = other;
        } else if other.top == self.top {
            self.nodes.extend(other.nodes);
        }
    }

    /// Bytes held, for the memory guard.
    pub(super) fn memory(&self) -> u64 {
        (self.nodes.capacity() * size_of::<(usize, K)>()) as u64
    }

    /// The same nodes with keys of type `K2` (which hold them).
    pub(super) fn rekey<K2: Key>(self) -> Finishers<K2> {
        Finishers {
            top: self.top,
            nodes: self
                .nodes
                .into_iter()
                .map(|(bucket, key)| (bucket, key.to_key()))
                .collect(),
        }
    }
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
            finishers: self.finishers.map(|(_, f)| f),
        }
    }

    /// Reserve room for the successors of a chunk of `total` nodes, of
    /// which `done` are expanded, at the rate seen so far (and an eighth
    /// more). Grown by doubling instead, the vectors were copied on every
    /// growth: half of the search's memory copies.
    fn expect(&mut self, done: usize, total: usize) {
        if done == 0 || done >= total {
            return;
        }
        for run in &mut self.successors {
            let want = run.len() * total / done + run.len() * total / done / 8;
            run.reserve(want.saturating_sub(run.len()));
        }
    }

    /// A sink for a chunk of bucket `bucket`, keeping its finishers above
    /// `floor` when there is one.
    fn new(max_store: usize, bucket: usize, floor: Option<usize>) -> Self {
        Sink {
            successors: (0..=max_store).map(|_| Vec::new()).collect(),
            ended: vec![0; max_store + 1],
            overflow: false,
            finishers: floor.map(|f| (bucket, Finishers::above(f))),
        }
    }

    /// File a pick the kernel played from a node reached by `count`
    /// sequences: how it ended and the stones then in the store, and the
    /// running sums of its ring (see [`Key::from_sums`], over `pits` pits).
    #[inline]
    fn file(
        &mut self,
        (end, to): (PickEnd, u8),
        sums: &[u8; 16],
        pits: usize,
        (node, count): Entry<K, C>,
    ) {
        match end {
            PickEnd::FreeTurn => {
                self.successors[to as usize].push((K::from_sums(sums, pits), count))
            }
            PickEnd::TurnOver => self.end(to as usize, (node, count)),
        }
    }

    /// A turn from `node`, reached by `count` sequences, ended with `store`
    /// stones (a pick that ended it, or no pick left).
    #[inline]
    fn end(&mut self, store: usize, (node, count): Entry<K, C>) {
        if let Some((bucket, finishers)) = &mut self.finishers {
            if store >= finishers.top {
                finishers.note(store, *bucket, node);
            }
        }
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
pub(super) struct Expanded<K, C> {
    pub(super) runs: Vec<(usize, Run<K, C>)>,
    pub(super) ended: Vec<u128>,
    pub(super) overflow: bool,
    /// The chunk's finishers, when they were kept.
    pub(super) finishers: Option<Finishers<K>>,
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
    /// Nodes of the batch without a legal pick.
    stuck: Vec<u16>,
}

/// Nodes a worker expands at a time (at least; larger buckets use larger
/// chunks so that the number of successor runs stays small).
const CHUNK: usize = 4096;
/// Chunks a worker gets from a large bucket: enough to balance the load.
const CHUNKS_PER_THREAD: usize = 16;

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    #[inline]
    pub(super) fn ring_of(&self, key: K, store: usize) -> Packed<W> {
        key.decode_packed(self.len, self.n, store as u8)
    }

    #[inline]
    pub(super) fn key_of(&self, ring: &Packed<W>) -> K {
        K::encode_packed(ring, self.len, self.n)
    }

    /// Stones in the store of a packed ring.
    #[inline]
    pub(super) fn store_of(&self, ring: &Packed<W>) -> usize {
        packed::get(ring, self.engine.store_index()) as usize
    }

    /// Call `f(pick ring index, ring after the pick, how it ended)` for
    /// every legal pick from the node `ring`, in pit order; returns false
    /// when the node has no legal pick.
    #[inline]
    pub(super) fn for_each_pick(
        &self,
        ring: &Packed<W>,
        f: impl FnMut(usize, &Packed<W>, PickEnd),
    ) -> bool {
        self.engine.for_each_pick(ring, &self.scope, f)
    }

    /// Every pick of node `key` through the lockstep kernel, decoding the
    /// key in the kernel where it can; `None` where the kernel does not run.
    #[inline]
    pub(super) fn landings(&self, key: K, store: usize, out: &mut Landings) -> Option<usize> {
        if !self.engine.lockstep() {
            // Decoding the key for a kernel that does not run had cost the
            // scalar path a second decode of every node (8.6% of its time).
            return None;
        }
        if self.decode_keys {
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
        let made = if K::BITS <= 64 {
            // The kernel decodes the keys, a batch at a time.
            buffers.stuck.clear();
            let made = lanes.records_batch(
                nodes,
                |e| e.0.to_u128() as u64,
                store as u8,
                scope,
                &mut buffers.picks,
                &mut buffers.stuck,
            );
            for &i in &buffers.stuck {
                sink.end(store, nodes[i as usize]);
            }
            made
        } else {
            let mut made = 0;
            for (i, &(key, count)) in nodes.iter().enumerate() {
                // Wide keys are decoded here; the stream takes the ring.
                let ring = self.ring_of(key, store);
                let out = &mut buffers.picks[made..];
                let m = lanes.records_ring([ring[0], ring[1]], i as u16, scope, out);
                if m == 0 {
                    sink.end(store, (key, count));
                }
                made += m;
            }
            made
        };
        buffers.picks.truncate(made);
        let Streams {
            picks,
            free,
            over,
            sums,
            ..
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
            sink.end(to as usize, nodes[node(record)]);
        }
    }

    /// Expand one node of the forward pass into `sink`.
    #[inline]
    pub(super) fn expand(
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
                sink.file(end, &landings.sums[i], self.len - 1, (key, count));
            }
            if picks == 0 {
                sink.end(store, (key, count));
            }
            return;
        }
        let ring = self.ring_of(key, store);
        let moved = self.for_each_pick(&ring, |_, after, end| match end {
            PickEnd::FreeTurn => {
                sink.successors[self.store_of(after)].push((self.key_of(after), count))
            }
            PickEnd::TurnOver => sink.end(self.store_of(after), (key, count)),
        });
        if !moved {
            sink.end(store, (key, count));
        }
    }

    /// Expand every node of a bucket, in parallel chunks, keeping the
    /// nodes with a turn ending at `finishers` stones or more when it is
    /// given (see [`Finishers`]).
    /// A chunk whose worker sees `stop` is skipped; the caller then stops
    /// at its checkpoint.
    pub(super) fn expand_bucket(
        &self,
        bucket: &Nodes<K, C>,
        store: usize,
        stop: &Stop,
        tick: Option<Tick>,
        finishers: Option<usize>,
    ) -> Vec<Expanded<K, C>> {
        let chunk = CHUNK.max(bucket.len() / (rayon::current_num_threads() * CHUNKS_PER_THREAD));
        // Progress within a large bucket: `tick(done, of)` each time the
        // positions done cross another 1/WITHIN_STEPS of it.
        let of = bucket.len() as u64;
        let done = AtomicU64::new(0);
        let step = (of / WITHIN_STEPS).max(1);
        let advance = |n: usize| {
            if let Some(tick) = tick.filter(|_| of >= WITHIN_MIN) {
                let before = done.fetch_add(n as u64, Ordering::Relaxed);
                let after = before + n as u64;
                if after / step > before / step {
                    tick(after, of);
                }
            }
        };
        bucket
            .chunks(chunk)
            .into_par_iter()
            .map(|slices| {
                let mut sink = Sink::new(self.max_store, store, finishers);
                let mut landings = Landings::default();
                match self.engine.streaming() {
                    _ if stop.cause().is_some() || stop.over_memory() => {}
                    Some(lanes) => {
                        let mut buffers = Streams::default();
                        let kernel = (lanes, &lanes.picks(&self.scope));
                        let total: usize = slices.iter().map(|s| s.len()).sum();
                        let batches = slices.iter().flat_map(|s| s.chunks(STREAM_BATCH));
                        for (i, batch) in batches.enumerate() {
                            self.expand_stream(batch, store, kernel, &mut sink, &mut buffers);
                            advance(batch.len());
                            if i == 0 {
                                sink.expect(batch.len(), total);
                            }
                        }
                    }
                    None => {
                        // No reserve here: a node at a time, the copies of
                        // growth are a small part, and measured with it the
                        // scalar path's peak memory passed 1 GB once.
                        for batch in slices.iter().flat_map(|s| s.chunks(STREAM_BATCH)) {
                            for &e in batch {
                                self.expand(e, store, &mut sink, &mut landings);
                            }
                            advance(batch.len());
                        }
                    }
                }
                sink.finish(&self.shifts)
            })
            .collect()
    }

    /// File what the chunks of `expanded` produced: their successors
    /// pushed into `frontier`, the path counts of the turns they ended
    /// added to `ended` (by final store); the successors pushed.
    pub(super) fn file<S: Store<K, C>>(
        &self,
        expanded: Vec<Expanded<K, C>>,
        frontier: &mut S,
        ended: &mut [u128],
    ) -> Result<u64, Fail> {
        let mut pushed = 0;
        for chunk in expanded {
            if chunk.overflow {
                return Err(Fail::Overflow);
            }
            for (total, c) in ended.iter_mut().zip(chunk.ended) {
                *total = total.checked_add(c).ok_or(Fail::Overflow)?;
            }
            for (s, run) in chunk.runs {
                pushed += run.entries().len() as u64;
                frontier.push(s, run);
            }
        }
        Ok(pushed)
    }

    /// One bucket of the forward pass alone, for the listing tests and
    /// the benchmarks: take bucket `store` whole from an in-memory
    /// `frontier`, ask `room` whether its expansion fits (it gets the
    /// bucket's size), expand it and push its successors: the bucket
    /// (deduplicated, in key order), the path counts of the turns it
    /// ended, by final store, and the successors pushed; `None` for an
    /// empty bucket. The search itself runs [`Search::count`].
    pub(super) fn step(
        &self,
        frontier: &mut Frontier<K, C>,
        store: usize,
        stop: &Stop,
        tick: Option<Tick>,
        room: &dyn Fn(usize) -> Result<(), Fail>,
    ) -> Result<Option<Stepped<K, C>>, Fail> {
        let bucket = frontier.take(store)?;
        if bucket.is_empty() {
            return Ok(None);
        }
        room(bucket.len())?;
        let mut ended = vec![0u128; self.max_store + 1];
        let expanded = self.expand_bucket(&bucket, store, stop, tick, None);
        let pushed = self.file(expanded, frontier, &mut ended)?;
        Ok(Some((bucket, ended, pushed)))
    }
}

/// A bucket taken and expanded: its nodes, the path counts of the turns
/// it ended by final store, and the successors it pushed.
pub(super) type Stepped<K, C> = (Nodes<K, C>, Vec<u128>, u64);

impl<K> Counted<K> {
    /// The forward pass's result from its path counts of finished turns
    /// by final store, its buckets' sizes and kept keys.
    pub(super) fn new(
        ended: Vec<u128>,
        by_store: Vec<u64>,
        bucket_keys: Vec<BucketKeys<K>>,
        finishers: Finishers<K>,
    ) -> Result<Self, Fail> {
        let best = ended
            .iter()
            .rposition(|&c| c > 0)
            .expect("a position with a legal pick has at least one complete turn");
        let mut turns_total = 0u128;
        for &c in &ended {
            turns_total = turns_total.checked_add(c).ok_or(Fail::Overflow)?;
        }
        Ok(Counted {
            ended,
            turns_total,
            best,
            positions: by_store.iter().sum(),
            by_store,
            bucket_keys,
            finishers,
        })
    }
}

/// What the forward pass found.
pub(super) struct Counted<K> {
    /// Path counts of finished turns by final store.
    pub(super) ended: Vec<u128>,
    /// Their sum.
    pub(super) turns_total: u128,
    /// The highest final store with a turn.
    pub(super) best: usize,
    /// Distinct positions expanded.
    pub(super) positions: u64,
    /// Those positions by bucket.
    pub(super) by_store: Vec<u64>,
    /// Each bucket's keys, when they were kept.
    pub(super) bucket_keys: Vec<BucketKeys<K>>,
    /// The nodes with a turn ending at `best`, when the buckets' keys were kept.
    pub(super) finishers: Finishers<K>,
}
