//! The forward pass over a frontier on disk (`solve --spill DIR`): the
//! same expansion as [`super::forward`], fed a bucket a wave at a time
//! from [`Spill`], with a checkpoint after every bucket so that the same
//! command resumes a stopped search.
//!
//! Memory: the buffer of successors is written out past a third of
//! `--max-memory` (or [`SolveOptions::spill_buffer`]), and a wave's nodes
//! take a tenth of the buffer's bytes, which leaves room for their
//! successors (about three a node) and their copies while they are filed;
//! writing the buffer out needs about as much again for its sorted copy.

use super::forward::Counted;
use super::key::Key;
use super::level::Level;
use super::store::disk::{Spill, SpillFail};
use super::store::{Count, Entry, Run};
use super::{
    DiskUse, Fail, Phase, Progress, Search, SolveOptions, Within, WITHIN_MIN, WITHIN_STEPS,
};
use crate::clock::Instant;
use crate::search::control::Stop;
use std::path::Path;

/// Entries of a wave for a buffer of `buffer` bytes and entries of
/// `entry` bytes: a wave's nodes and their successors (about three a node,
/// and a copy while they are filed) take a few buffers' worth of tenths.
pub(super) fn wave_entries(buffer: u64, entry: usize) -> u64 {
    (buffer / (10 * entry as u64)).clamp(1 << 12, 1 << 26)
}

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    /// What a checkpoint must match to be resumed: the rules, the board
    /// and the key width (run files hold counts of any width).
    pub(super) fn identity(&self) -> String {
        format!(
            "rules {}; board {}; {}-bit keys",
            self.rules,
            self.start.one_line(),
            K::BITS
        )
    }

    /// The forward pass with the frontier in `dir`, resuming from its
    /// checkpoint if it has one for this search.
    pub(super) fn count_spilled(
        &self,
        dir: &Path,
        opts: &SolveOptions,
        stop: &Stop,
    ) -> Result<Counted<K>, Fail> {
        let buffer = opts.spill_buffer.unwrap_or(opts.max_memory / 3);
        let at_start = Progress {
            phase: Phase::Forward,
            store: self.start.store() as usize,
            max_store: self.max_store,
            positions: 0,
            memory: 0,
            best: None,
            within: None,
            disk: None,
            left: None,
        };
        let (mut spill, checkpoint) = Spill::<K, C>::open(
            dir,
            self.identity(),
            self.shifts.clone(),
            buffer,
            opts.max_disk,
        )
        .map_err(|e| Fail::Spill(e, Box::new(at_start)))?;
        let mut by_store = vec![0u64; self.max_store + 1];
        let (first, mut positions, mut ended, mut seconds) = match &checkpoint {
            Some(cp) => {
                by_store.copy_from_slice(&cp.positions_by_store);
                (
                    cp.next_store,
                    cp.positions,
                    cp.ended().expect("checked on open"),
                    cp.seconds,
                )
            }
            None => {
                let first = self.start.store() as usize;
                let seed = vec![(K::encode(self.start.ring(), self.n), C::ONE)];
                spill.push(first, Run::new(seed, self.shifts[first]));
                (first, 0, vec![0u128; self.max_store + 1], 0.0)
            }
        };
        let disk = |spill: &Spill<K, C>| {
            Some(DiskUse {
                used: spill.disk_used(),
                free: super::store::disk::disk_free(spill.dir()),
                written: spill.written(),
            })
        };
        let best = |ended: &[u128]| ended.iter().rposition(|&c| c > 0).map(|b| b as u32);
        for store in first..=self.max_store {
            let began = Instant::now();
            let progress = |positions, within, spill: &Spill<K, C>, ended: &[u128]| Progress {
                phase: Phase::Forward,
                store,
                max_store: self.max_store,
                positions,
                memory: crate::search::memory::resident_above(opts.memory_held).max(spill.memory()),
                best: best(ended),
                within,
                disk: disk(spill),
                left: None,
            };
            let fail = |e, positions, spill: &Spill<K, C>, ended: &[u128]| match e {
                SpillFail::Overflow => Fail::Overflow,
                e => Fail::Spill(e, Box::new(progress(positions, None, spill, ended))),
            };
            let mut taking = spill
                .take(store)
                .map_err(|e| fail(e, positions, &spill, &ended))?;
            let of = taking.entries();
            let mut done = 0u64;
            loop {
                let wave = taking.next_wave::<K, C>(wave_entries(buffer, size_of::<Entry<K, C>>()));
                let Some((nodes, entries)) =
                    wave.map_err(|e| fail(e, positions, &spill, &ended))?
                else {
                    break;
                };
                let report = |d: u64, o: u64| {
                    if let Some(report) = opts.progress {
                        let within = Within {
                            done: done + d * entries / o.max(1),
                            of,
                            seconds: began.elapsed().as_secs_f64(),
                        };
                        report(&Progress {
                            left: self.left(&by_store, store, Some(within)),
                            ..progress(positions + d, Some(within), &spill, &ended)
                        });
                    }
                };
                let tick = opts.progress.map(|_| &report as &(dyn Fn(u64, u64) + Sync));
                let expanded = self.expand_bucket(&nodes, store, stop, tick);
                // A bucket of many small waves reports between them, at
                // the same steps as a bucket expanded at once.
                let step = (of / WITHIN_STEPS).max(1);
                if of >= WITHIN_MIN && (done + entries) / step > done / step {
                    report(nodes.len() as u64, nodes.len() as u64);
                }
                positions += nodes.len() as u64;
                by_store[store] += nodes.len() as u64;
                done += entries;
                drop(nodes);
                for chunk in expanded {
                    if chunk.overflow {
                        return Err(Fail::Overflow);
                    }
                    for (total, c) in ended.iter_mut().zip(chunk.ended) {
                        *total = total.checked_add(c).ok_or(Fail::Overflow)?;
                    }
                    for (s, run) in chunk.runs {
                        spill.push(s, run);
                    }
                }
                spill
                    .relieve()
                    .map_err(|e| fail(e, positions, &spill, &ended))?;
                if stop.cause().is_some() || stop.memory_tripped() {
                    break;
                }
            }
            // A bucket cut short by a stop or the memory guard is not
            // recorded: the checkpoint of the bucket before stays, and a
            // resume does this one again.
            if let Some(cause) = stop.cause() {
                return Err(Fail::Stopped(
                    cause,
                    Box::new(progress(positions, None, &spill, &ended)),
                ));
            }
            if stop.memory_tripped() {
                return Err(Fail::Memory(Box::new(progress(
                    positions, None, &spill, &ended,
                ))));
            }
            seconds += began.elapsed().as_secs_f64();
            spill
                .checkpoint(
                    taking,
                    store + 1,
                    &by_store,
                    &ended,
                    seconds,
                    store == self.max_store,
                )
                .map_err(|e| fail(e, positions, &spill, &ended))?;
            let done = Progress {
                left: self.left(&by_store, store, None),
                ..progress(positions, None, &spill, &ended)
            };
            self.checkpoint(opts, stop, done)?;
        }
        let levels = (0..=self.max_store).map(|_| Level::default()).collect();
        Counted::new(ended, by_store, levels)
    }
}
