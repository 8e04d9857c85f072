//! The forward pass over a frontier on disk (`solve --spill DIR`): the
//! store on disk ([`Spill`]) opened, or resumed from its checkpoint, and
//! run through the same step driver as a search in memory
//! ([`Search::count`]), which takes a bucket a wave at a time from it and
//! lets it record a checkpoint after every bucket.
//!
//! Memory: the buffer of successors is written out past a third of
//! `--max-memory` (or [`SweepOptions::spill_buffer`]), and a wave's nodes
//! take a tenth of the buffer's bytes, which leaves room for their
//! successors (about three a node) and their copies while they are filed;
//! writing the buffer out needs about as much again for its sorted copy.

use super::counts::ForwardCounts;
use super::forward::Counted;
use super::key::Key;
use super::steps::Alone;
use super::store::disk::Spill;
use super::store::{Count, Run};
use super::{Fail, Progress, Search, SweepOptions};
use crate::control::Stop;
use std::path::Path;

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
    /// checkpoint if it has one for this search; on `u64` keys from the
    /// first bucket they fit when `narrow` (see `Search::count_narrowing`;
    /// the checkpoint names the search with its first key type either way).
    pub(super) fn count_spilled(
        &self,
        dir: &Path,
        opts: &SweepOptions,
        stop: &Stop,
        narrow: bool,
    ) -> Result<Counted<K>, Fail> {
        let buffer = opts.spill_buffer.unwrap_or(opts.max_memory / 3);
        let first = self.start.store() as usize;
        let (mut spill, checkpoint) = Spill::<K, C>::open(
            dir,
            self.identity(),
            self.shifts.clone(),
            buffer,
            opts.max_disk,
        )
        .map_err(|e| {
            let at_start = Progress::forward(first, self.max_store, 0, &[], 0);
            Fail::Spill(e, Box::new(at_start))
        })?;
        let tally = match checkpoint {
            Some(cp) => ForwardCounts {
                next: cp.next_store,
                ended: cp.ended().expect("checked on open"),
                by_store: cp.positions_by_store,
                seconds: cp.seconds,
            },
            None => {
                let seed = vec![(K::encode(self.start.ring(), self.n), C::ONE)];
                spill.push(first, Run::new(seed, self.shifts[first]));
                ForwardCounts::fresh(first, self.max_store)
            }
        };
        match self.narrow_from().filter(|_| narrow) {
            Some(from) => self.count_narrowing(spill, tally, from, false, opts, stop),
            None => self.count(&mut spill, tally, false, opts, stop, &mut Alone),
        }
    }
}
