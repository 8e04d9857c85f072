//! The backward pass: which nodes can still reach the best score, found
//! bucket by bucket from the top, so that the listing walks only those.
//!
//! Two ways give the same sets (tested): expanding every kept node again
//! ([`Search::backward`]), and, for a sweep without captures, playing picks
//! backwards from the good nodes only ([`Search::backward_by_unsowing`]).

use super::key::Key;
use super::level::Level;
use super::store::Count;
use super::{Fail, Phase, Progress, Search, SolveOptions};
use crate::rules::PickEnd;
use crate::search::control::Stop;
use crate::search::kernel::packed::{self, Packed};
use crate::search::kernel::relay::Landings;
use rayon::prelude::*;

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
        opts: &SolveOptions,
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

    /// Find, bucket by bucket from the top, the nodes from which a turn can
    /// still end with `best` stones. Each level is freed once it is done.
    /// The good sets are small next to the levels (a node is good only on an
    /// optimal line), so membership is a hash look-up that stays in cache.
    pub(super) fn backward(
        &self,
        mut levels: Vec<Level<K>>,
        best: usize,
        opts: &SolveOptions,
        stop: &Stop,
        positions: u64,
    ) -> Result<Vec<GoodSet<W>>, Fail> {
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
            self.backward_checkpoint(opts, stop, store, best, positions, kept + good_bytes)?;
        }
        Ok(good)
    }

    /// The good nodes of a sweep without captures, found from the top down
    /// by playing picks backwards ([`crate::rules::unsow`]) from the good nodes
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
    pub(super) fn backward_by_unsowing(
        &self,
        mut levels: Vec<Level<K>>,
        best: usize,
        opts: &SolveOptions,
        stop: &Stop,
        positions: u64,
    ) -> Result<Vec<GoodSet<W>>, Fail> {
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
            good[best].insert(packed::pack(&empty));
        }
        for store in (0..levels.len()).rev() {
            let nodes: Vec<&Packed<W>> = good[store].iter().collect();
            let found: Vec<(usize, Packed<W>)> = nodes
                .into_par_iter()
                .flat_map_iter(|node| {
                    let mut after = vec![0u8; len];
                    packed::unpack(node, &mut after);
                    let mut found = Vec::new();
                    crate::rules::unsow::free_turn_predecessors(
                        &after,
                        n,
                        self.rules,
                        &in_scope,
                        |before, _| {
                            let s = before[n] as usize;
                            if levels[s].contains(K::encode(before, n)) {
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
            // Predecessors have fewer stones in the store: this level is done.
            let level = std::mem::take(&mut levels[store]);
            kept -= level.memory();
            drop(level);
            let good_bytes: u64 = good.iter().map(good_set_bytes).sum();
            self.backward_checkpoint(opts, stop, store, best, positions, kept + good_bytes)?;
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
