//! The backward pass: which nodes can still reach the best score, found
//! bucket by bucket from the top, so that the listing walks only those.
//!
//! It plays picks backwards from the good nodes only ([`Search::backward`]),
//! starting from the nodes the forward pass kept as it expanded them;
//! the tests check it against expanding every kept node again
//! ([`Search::backward_by_expanding`]).

use super::bucket_keys::BucketKeys;
use super::forward::Finishers;
use super::key::Key;
use super::store::Count;
use super::{Fail, Phase, Progress, Search, SweepOptions};
use crate::control::Stop;
use crate::kernel::packed::{self, Packed};
#[cfg(test)]
use crate::kernel::relay::Landings;
use rayon::prelude::*;
#[cfg(test)]
use rules::PickEnd;

/// The nodes on optimal lines, one set per store value, as packed rings so
/// that the listing pass never encodes a key to look one up.
pub(super) type GoodSet<const W: usize> = hashbrown::HashSet<Packed<W>, foldhash::fast::FixedState>;

/// An empty good set for each of `buckets` store values.
fn no_good_sets<const W: usize>(buckets: usize) -> Vec<GoodSet<W>> {
    (0..buckets).map(|_| GoodSet::default()).collect()
}

/// Bytes a good set holds: its slots and their control bytes.
fn good_set_bytes<const W: usize>(set: &GoodSet<W>) -> u64 {
    (set.capacity() * (size_of::<Packed<W>>() + 1)) as u64
}

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    /// [`Search::checkpoint`] for a backward pass at bucket `store`,
    /// holding `memory` bytes.
    fn backward_checkpoint(
        &self,
        opts: &SweepOptions,
        stop: &Stop,
        store: usize,
        best: usize,
        positions: u64,
        memory: u64,
    ) -> Result<(), Fail> {
        let progress = Progress {
            phase: Phase::Backward,
            store,
            max_store: self.max_store,
            positions,
            memory,
            best: Some(best as u32),
            within: None,
            disk: None,
            left: None,
        };
        self.checkpoint(opts, stop, progress)
    }

    /// The good nodes, found from the top bucket down by playing picks
    /// backwards ([`rules::unsow`]) from the good nodes only.
    ///
    /// A node is good when it has a pick that ends the turn with `best`
    /// stones (or no pick, with `best` in its store), or a free turn to a
    /// good node. The first kind the forward pass kept as it expanded them
    /// (`finishers`, see [`Finishers`]); the second are the free-turn
    /// predecessors of good nodes that are nodes of the search (in their
    /// keys). A free turn never captures, under every rule set, so it
    /// can be played backwards; and it puts a stone in the store, so the
    /// predecessors of a bucket's good nodes lie in lower buckets, which
    /// are not done yet. Each good node is unsown once and the look-ups
    /// are binary searches in the kept keys: the pass costs a small part of
    /// the forward pass, where expanding every node again cost as much
    /// ([`Search::backward_by_expanding`], the tested second path).
    pub(super) fn backward(
        &self,
        mut bucket_keys: Vec<BucketKeys<K>>,
        best: usize,
        finishers: Finishers<K>,
        opts: &SweepOptions,
        stop: &Stop,
        positions: u64,
    ) -> Result<Vec<GoodSet<W>>, Fail> {
        debug_assert_eq!(
            finishers.top, best,
            "the forward pass kept the best store's nodes"
        );
        let (n, len) = (self.n, self.len);
        let mut in_scope = vec![false; len];
        for &i in &self.scope {
            in_scope[i] = true;
        }
        let mut kept: u64 = bucket_keys.iter().map(BucketKeys::memory).sum();
        let mut good = no_good_sets::<W>(bucket_keys.len());
        for (bucket, key) in finishers.nodes {
            good[bucket].insert(self.ring_of(key, bucket));
        }
        for store in (0..bucket_keys.len()).rev() {
            let nodes: Vec<&Packed<W>> = good[store].iter().collect();
            let found: Vec<(usize, Packed<W>)> = nodes
                .into_par_iter()
                .flat_map_iter(|node| {
                    let mut after = vec![0u8; len];
                    packed::unpack(node, &mut after);
                    let mut found = Vec::new();
                    rules::unsow::free_turn_predecessors(
                        &after,
                        n,
                        self.rules,
                        &in_scope,
                        |before, _| {
                            let s = before[n] as usize;
                            if bucket_keys[s].contains(K::encode(before, n)) {
                                found.push((s, packed::pack(before)));
                            }
                        },
                    );
                    found
                })
                .collect();
            for (s, node) in found {
                good[s].insert(node);
            }
            // Predecessors have fewer stones in the store: this bucket is done.
            let keys = std::mem::take(&mut bucket_keys[store]);
            kept -= keys.memory();
            drop(keys);
            let good_bytes: u64 = good.iter().map(good_set_bytes).sum();
            self.backward_checkpoint(opts, stop, store, best, positions, kept + good_bytes)?;
        }
        Ok(good)
    }

    /// The good nodes found the other way, for the tests: every kept node
    /// expanded again, bucket by bucket from the top, and marked when one
    /// of its picks ends the turn with `best` stones or continues it at a
    /// good node.
    #[cfg(test)]
    pub(super) fn backward_by_expanding(
        &self,
        mut bucket_keys: Vec<BucketKeys<K>>,
        best: usize,
    ) -> Vec<GoodSet<W>> {
        let mut good = no_good_sets::<W>(bucket_keys.len());
        for store in (0..bucket_keys.len()).rev() {
            let keys = std::mem::take(&mut bucket_keys[store]);
            let marked: Vec<Packed<W>> = keys
                .par_iter()
                .map_init(Landings::default, |landings, key| {
                    self.reaches(key, store, best, &good, landings)
                        .then(|| self.ring_of(key, store))
                })
                .flatten()
                .collect();
            good[store] = marked.into_iter().collect();
        }
        good
    }

    /// True when node `key` of bucket `store` has a pick that ends the turn
    /// with `best` stones or continues it at a good node (or it has no pick
    /// and `store` is `best`).
    #[cfg(test)]
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
                (PickEnd::FreeTurn, to) => good[to as usize].contains(&packed::landed(landings, i)),
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
}
