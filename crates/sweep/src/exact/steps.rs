//! The forward pass's one step driver: buckets taken from a [`Store`]
//! lowest first, each a *step* of waves expanded with
//! [`Search::expand_bucket`] and filed back into the store, the counts
//! kept in a [`ForwardCounts`], progress reported and the guards asked after
//! every bucket.
//!
//! Both stores run through this loop, so the search in memory and the one
//! with its frontier on disk (`solve --spill DIR`) differ only where the
//! store does: a store on disk hands a bucket out in several waves, writes
//! its buffer out between them ([`Store::relieve`]) and records every
//! bucket ([`Store::checkpoint`]), so that a stopped search resumes from
//! the last. The progress of the forward pass is built in one place,
//! [`Progress::forward`].
//!
//! The cluster's workers run through it too: what they add is the
//! exchange between them, the [`Peers`] hooks (successors filed with
//! their owners, and a meeting at the end of every step that sums every
//! worker's counts and decides together whether to stop). A search in one
//! process has no peers ([`Alone`]).

use super::bucket_keys::BucketKeys;
use super::counts::ForwardCounts;
use super::forward::{Counted, Expanded, Finishers};
use super::key::Key;
use super::store::SpillFail;
use super::store::{Count, Entry, Nodes, Store};
use super::{
    DiskUse, Fail, Phase, Progress, Search, SweepOptions, Within, WITHIN_MIN, WITHIN_STEPS,
};
use crate::control::Stop;
use crate::memory::resident_above;
use base::clock::Instant;
use rayon::prelude::*;

/// Whether the wave that brings a bucket's entries done from `done` to
/// `done + entries` (of `of`) reports after it: many small waves report
/// between them, at the steps of a bucket expanded at once (which reports
/// from inside).
#[inline]
fn reports_between_waves(done: u64, entries: u64, of: u64) -> bool {
    let step = (of / WITHIN_STEPS).max(1);
    entries < of && of >= WITHIN_MIN && (done + entries) / step > done / step
}

/// Adds a wave's nodes to the parts of its bucket's kept keys: the waves come
/// in key order, so their parts in order are the bucket's, joined once
/// the bucket is done.
fn keep_bucket_parts<K: Key, C: Count>(parts: &mut Vec<BucketKeys<K>>, nodes: &Nodes<K, C>) {
    parts.par_extend(
        nodes
            .parts()
            .par_iter()
            .map(|part| BucketKeys::from_sorted(part.iter().map(|e| e.0))),
    );
}

/// The highest final store with a turn, of path counts by final store.
pub(crate) fn best(ended: &[u128]) -> Option<u32> {
    ended.iter().rposition(|&c| c > 0).map(|b| b as u32)
}

impl Progress {
    /// The forward pass at bucket `store` of `max_store`, after `positions`
    /// positions whose finished turns are `ended`, holding `memory` bytes:
    /// the one place the forward pass's progress is built. The bucket's
    /// progress within, the disk and the forecast are left empty for the
    /// caller that knows them.
    pub(crate) fn forward(
        store: usize,
        max_store: usize,
        positions: u64,
        ended: &[u128],
        memory: u64,
    ) -> Progress {
        Progress {
            phase: Phase::Forward,
            store,
            max_store,
            positions,
            memory,
            best: best(ended),
            within: None,
            disk: None,
            left: None,
        }
    }
}

/// Where a step stands, for its progress reports.
#[derive(Clone, Copy)]
pub(in crate::exact) struct At {
    store: usize,
    /// Positions expanded beyond those of the tally.
    more: u64,
    /// Bytes held (see [`Search::at`]).
    memory: u64,
    disk: Option<DiskUse>,
}

/// How the workers of one search meet: the hooks the step driver calls
/// where a worker among peers does something a search alone does not.
/// A worker among peers takes part in every step, an empty one too,
/// and learns of a stop, a failure or an overflow anywhere only at the
/// step's end, where every worker learns of it together: stopping on
/// its own would leave the others waiting for it.
pub(in crate::exact) trait Peers<K: Key, C: Count, const W: usize> {
    /// True for a search in one process: it skips empty buckets, guards
    /// its memory before every wave and stops as soon as it is asked.
    const ALONE: bool;
    /// Run `f` on the search's threads (a cluster's timely workers run
    /// the search in their process's pool).
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        f()
    }
    /// File the successors and finished turns of a wave: into `frontier`
    /// and `ended`, or, among peers, with the worker that owns each
    /// successor. The successors filed.
    fn file<S: Store<K, C>>(
        &mut self,
        search: &Search<K, C, W>,
        expanded: Vec<Expanded<K, C>>,
        frontier: &mut S,
        ended: &mut [u128],
    ) -> Result<u64, Fail>;
    /// Between two waves (a cluster's worker takes in what was sent to it).
    fn between_waves(&mut self) {}
    /// The end of bucket `store`'s step, `tally` holding this worker's
    /// counts added to `before`'s: among peers, every worker's counts
    /// instead; an error if the search stops here. The bytes to report as
    /// held, when they are not this worker's own.
    fn settle(
        &mut self,
        search: &Search<K, C, W>,
        store: usize,
        before: &ForwardCounts,
        tally: &mut ForwardCounts,
        at: &At,
        stop: &Stop,
    ) -> Result<Option<u64>, Fail>;
    /// The progress after a finished step, and a last check of the stop.
    fn report(
        &mut self,
        search: &Search<K, C, W>,
        progress: Progress,
        opts: &SweepOptions,
        stop: &Stop,
    ) -> Result<(), Fail>;
}

/// What [`Search::steps`] leaves: the counts so far, each bucket's keys
/// and the nodes with a turn ending at the highest store seen, when they
/// were kept.
pub(super) struct Steps<K> {
    pub(super) tally: ForwardCounts,
    pub(super) bucket_keys: Vec<BucketKeys<K>>,
    pub(super) finishers: Finishers<K>,
}

/// The search in one process: successors filed in its own store, stopped
/// at once by its stop or guards, its progress reported to the caller.
pub(in crate::exact) struct Alone;

impl<K: Key, C: Count, const W: usize> Peers<K, C, W> for Alone {
    const ALONE: bool = true;
    fn file<S: Store<K, C>>(
        &mut self,
        search: &Search<K, C, W>,
        expanded: Vec<Expanded<K, C>>,
        frontier: &mut S,
        ended: &mut [u128],
    ) -> Result<u64, Fail> {
        search.file(expanded, frontier, ended)
    }
    fn settle(
        &mut self,
        search: &Search<K, C, W>,
        _store: usize,
        _before: &ForwardCounts,
        tally: &mut ForwardCounts,
        at: &At,
        stop: &Stop,
    ) -> Result<Option<u64>, Fail> {
        search.cut_short(stop, at, tally)?;
        Ok(None)
    }
    fn report(
        &mut self,
        search: &Search<K, C, W>,
        progress: Progress,
        opts: &SweepOptions,
        stop: &Stop,
    ) -> Result<(), Fail> {
        search.checkpoint(opts, stop, progress)
    }
}

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    /// The forward pass over every bucket of `frontier` from `tally.next`
    /// up, meeting `peers` where a worker of a cluster must: the counts,
    /// and each bucket's keys and the nodes with a turn ending at the best
    /// store when `keep_keys` (for the listing; a search in memory only).
    pub(super) fn count<S: Store<K, C>, P: Peers<K, C, W>>(
        &self,
        frontier: &mut S,
        tally: ForwardCounts,
        keep_keys: bool,
        opts: &SweepOptions,
        stop: &Stop,
        peers: &mut P,
    ) -> Result<Counted<K>, Fail> {
        let end = self.max_store + 1;
        let done = self.steps(frontier, tally, end, keep_keys, opts, stop, peers)?;
        Counted::new(
            done.tally.ended,
            done.tally.by_store,
            done.bucket_keys,
            done.finishers,
        )
    }

    /// The steps of [`Search::count`] for the buckets from `tally.next`
    /// up to `end` (not included), leaving the higher buckets' successors
    /// in `frontier`: a search in memory on wide keys stops where the
    /// rest fit `u64` keys and goes on with them (see `Search::run`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn steps<S: Store<K, C>, P: Peers<K, C, W>>(
        &self,
        frontier: &mut S,
        mut tally: ForwardCounts,
        end: usize,
        keep_keys: bool,
        opts: &SweepOptions,
        stop: &Stop,
        peers: &mut P,
    ) -> Result<Steps<K>, Fail> {
        let mut bucket_keys: Vec<BucketKeys<K>> = (0..=self.max_store)
            .map(|_| BucketKeys::default())
            .collect();
        let mut kept = 0u64;
        let mut finishers = Finishers::above(0);
        let mut memory = frontier.memory();
        // Until a bucket is measured: one successor a pit in scope.
        let mut successors_per_node = self.scope.len() as f64;
        let (from, to) = (tally.next, end.min(self.max_store + 1));
        for (store, keys) in bucket_keys.iter_mut().enumerate().take(to).skip(from) {
            let began = Instant::now();
            let before = tally.clone();
            // A failing store: how far the search got, for its error.
            let fail = |e: SpillFail, tally: &ForwardCounts, frontier: &S| {
                self.failed(e, store, memory, tally, frontier, opts)
            };
            let mut taking = frontier
                .take(store)
                .map_err(|e| fail(e, &tally, frontier))?;
            let of = S::entries(&taking);
            if of == 0 && !S::ON_DISK && P::ALONE {
                continue;
            }
            let (mut done, mut nodes_in, mut pushed) = (0u64, 0u64, 0u64);
            let (mut parts, mut bucket_bytes) = (Vec::new(), 0u64);
            while let Some((nodes, entries)) = frontier
                .next_wave(&mut taking)
                .map_err(|e| fail(e, &tally, frontier))?
            {
                let mut at = self.at(store, memory, frontier, opts);
                if self.short::<S, P>(nodes.len(), successors_per_node, &at, &tally, opts)? {
                    let made = frontier.make_room();
                    made.map_err(|e| fail(e, &tally, frontier))?;
                    at = self.at(store, memory, frontier, opts);
                }
                // Progress within the bucket: `tick(d, o)` when `d` of the
                // wave's `o` nodes are done, in the bucket's entries.
                let report = |d: u64, o: u64| {
                    let done = done + d * entries / o.max(1);
                    self.report_within(opts, &at, d, &tally, (done, of), began);
                };
                let tick = opts.progress.map(|_| &report as &(dyn Fn(u64, u64) + Sync));
                let floor = keep_keys.then_some(finishers.top);
                let mut expanded =
                    peers.install(|| self.expand_bucket(&nodes, store, stop, tick, floor));
                Self::gather_finishers(&mut expanded, &mut finishers);
                if reports_between_waves(done, entries, of) {
                    report(nodes.len() as u64, nodes.len() as u64);
                }
                nodes_in += nodes.len() as u64;
                tally.by_store[store] += nodes.len() as u64;
                done += entries;
                bucket_bytes = bucket_bytes.max(nodes.memory());
                if keep_keys {
                    keep_bucket_parts(&mut parts, &nodes);
                }
                drop(nodes);
                pushed += peers.file(self, expanded, frontier, &mut tally.ended)?;
                frontier.relieve().map_err(|e| fail(e, &tally, frontier))?;
                if stop.cause().is_some() || stop.memory_tripped() {
                    break;
                }
                peers.between_waves();
            }
            let at = self.at(store, memory, frontier, opts);
            let held = peers.settle(self, store, &before, &mut tally, &at, stop)?;
            if nodes_in > 0 {
                successors_per_node = pushed as f64 / nodes_in as f64;
            }
            tally.seconds += began.elapsed().as_secs_f64();
            tally.next = store + 1;
            frontier
                .checkpoint(taking, &tally, store == self.max_store)
                .map_err(|e| fail(e, &tally, frontier))?;
            if keep_keys {
                *keys = BucketKeys::join(parts);
                kept += keys.memory();
            }
            memory = frontier.memory() + bucket_bytes + kept + finishers.memory();
            let mut at = self.at(store, memory, frontier, opts);
            at.memory = held.unwrap_or(at.memory);
            self.report_step(&at, &tally, opts, stop, peers)?;
        }
        Ok(Steps {
            tally,
            bucket_keys,
            finishers,
        })
    }

    /// The error for a store that failed in bucket `store`, with how far
    /// the search got: a step of its own so that every store call in
    /// [`Search::steps`] maps its error the same way in one line.
    fn failed<S: Store<K, C>>(
        &self,
        e: SpillFail,
        store: usize,
        memory: u64,
        tally: &ForwardCounts,
        frontier: &S,
        opts: &SweepOptions,
    ) -> Fail {
        match e {
            SpillFail::Overflow => Fail::Overflow,
            e => {
                let at = self.at(store, memory, frontier, opts);
                Fail::Spill(e, Box::new(self.progress(&at, tally)))
            }
        }
    }

    /// The finishers the chunks of a wave kept, merged into the step's:
    /// taken out of the chunks before they are filed, which consumes them.
    fn gather_finishers(expanded: &mut [Expanded<K, C>], finishers: &mut Finishers<K>) {
        for chunk in expanded {
            if let Some(found) = chunk.finishers.take() {
                finishers.merge(found);
            }
        }
    }

    /// The report at the end of a step, `at` its bucket with the bytes
    /// the peers agreed on: the peers hear it (a cluster's workers meet
    /// there), apart from the wave loop it closes.
    fn report_step<P: Peers<K, C, W>>(
        &self,
        at: &At,
        tally: &ForwardCounts,
        opts: &SweepOptions,
        stop: &Stop,
        peers: &mut P,
    ) -> Result<(), Fail> {
        let progress = Progress {
            left: self.left(&tally.by_store, at.store, None),
            ..self.progress(at, tally)
        };
        peers.report(self, progress, opts, stop)
    }

    /// A progress report from inside the bucket `at` stands at, `more`
    /// nodes on: `done` of its `of` entries expanded since `began`.
    fn report_within(
        &self,
        opts: &SweepOptions,
        at: &At,
        more: u64,
        tally: &ForwardCounts,
        (done, of): (u64, u64),
        began: Instant,
    ) {
        if let Some(report) = opts.progress {
            let within = Within {
                done,
                of,
                seconds: began.elapsed().as_secs_f64(),
            };
            let at = At {
                more: at.more + more,
                ..*at
            };
            report(&Progress {
                within: Some(within),
                left: self.left(&tally.by_store, at.store, Some(within)),
                ..self.progress(&at, tally)
            });
        }
    }

    /// Where bucket `store` stands, for a report: the bytes held are the
    /// search's own count (`memory`) in memory, and the process's for a
    /// store on disk, whose own count is only its buffer.
    fn at<S: Store<K, C>>(
        &self,
        store: usize,
        memory: u64,
        frontier: &S,
        opts: &SweepOptions,
    ) -> At {
        let memory = if S::ON_DISK {
            resident_above(super::held(opts)).max(frontier.memory())
        } else {
            memory
        };
        At {
            store,
            more: 0,
            memory,
            disk: frontier.disk(),
        }
    }

    /// The error for a bucket cut short by a stop or the memory guard,
    /// which is not recorded: a store on disk keeps its checkpoint of the
    /// bucket before, and a resume does this one again.
    fn cut_short(&self, stop: &Stop, at: &At, tally: &ForwardCounts) -> Result<(), Fail> {
        if let Some(cause) = stop.cause() {
            return Err(Fail::Stopped(cause, Box::new(self.progress(at, tally))));
        }
        if stop.memory_tripped() {
            return Err(Fail::Memory(Box::new(self.progress(at, tally))));
        }
        Ok(())
    }

    /// The progress at `at` after `tally`.
    fn progress(&self, at: &At, tally: &ForwardCounts) -> Progress {
        let positions = tally.positions() + at.more;
        Progress {
            disk: at.disk,
            ..Progress::forward(at.store, self.max_store, positions, &tally.ended, at.memory)
        }
    }

    /// The memory guard before the expansion of `nodes` nodes, where
    /// their successors would not [`fits`]: one search in memory stops
    /// (checking only after the bucket let a run pass its limit by half),
    /// a store on disk is to write its buffer out first (true), and a
    /// cluster's worker in memory goes on to the watch between the chunks
    /// and the step's end, which all its peers meet.
    ///
    /// [`fits`]: Self::fits
    fn short<S: Store<K, C>, P: Peers<K, C, W>>(
        &self,
        nodes: usize,
        successors_per_node: f64,
        at: &At,
        tally: &ForwardCounts,
        opts: &SweepOptions,
    ) -> Result<bool, Fail> {
        let fits = self.fits(nodes, successors_per_node, at, opts);
        if fits || S::ON_DISK || !P::ALONE {
            return Ok(!fits && S::ON_DISK);
        }
        let held = at.memory.max(resident_above(super::held(opts)));
        let at = At {
            memory: held,
            ..*at
        };
        Err(Fail::Memory(Box::new(self.progress(&at, tally))))
    }

    /// Whether the successors of `nodes` nodes, at the last bucket's rate
    /// (with a quarter more for the copies made while they are filed),
    /// fit under the memory guard beside what the search and the process
    /// hold now.
    fn fits(&self, nodes: usize, successors_per_node: f64, at: &At, opts: &SweepOptions) -> bool {
        let need =
            (nodes as f64 * successors_per_node * 1.25) as u64 * size_of::<Entry<K, C>>() as u64;
        let held = at.memory.max(resident_above(super::held(opts)));
        held.saturating_add(need) <= opts.max_memory
    }
}
