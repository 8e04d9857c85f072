//! The search frontier: positions waiting to be expanded, bucketed by the
//! number of stones in the own store.
//!
//! Every pick that continues the turn ends in the store, so it adds at least
//! one stone to it. Successors of bucket `s` therefore land in buckets above
//! `s`, and once every bucket below `s` has been expanded, bucket `s` is
//! complete: it can be deduplicated, expanded and freed. Deduplication merges
//! the path counts of equal keys, so a position reached by many pick
//! sequences is expanded once with the number of sequences that reach it.
//!
//! Successors arrive as unsorted `(key, count)` runs. A bucket is
//! deduplicated by sorting on the key and summing the counts of equal
//! neighbours, which needs no shared hash table and gives the same order for
//! any number of threads.

use crate::key::Key;
use rayon::prelude::*;

/// A position key and the number of pick sequences that reach it.
pub type Entry<K> = (K, u128);

/// Positions waiting to be expanded, one buffer per store value.
pub struct Frontier<K> {
    pending: Vec<Vec<Entry<K>>>,
}

/// A path count overflowed `u128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

impl<K: Key> Frontier<K> {
    /// An empty frontier for store values `0..=max_store`.
    pub fn new(max_store: usize) -> Self {
        Frontier {
            pending: (0..=max_store).map(|_| Vec::new()).collect(),
        }
    }

    /// Add successors to bucket `store`.
    pub fn push(&mut self, store: usize, entries: &mut Vec<Entry<K>>) {
        self.pending[store].append(entries);
    }

    /// Take bucket `store` out, deduplicated and sorted by key.
    pub fn take(&mut self, store: usize) -> Result<Vec<Entry<K>>, Overflow> {
        let mut bucket = std::mem::take(&mut self.pending[store]);
        merge_sorted(&mut bucket)?;
        Ok(bucket)
    }

    /// Entries waiting in all buckets (before deduplication).
    pub fn pending_len(&self) -> usize {
        self.pending.iter().map(Vec::len).sum()
    }
}

/// Sort `entries` by key and merge equal keys, summing their counts.
pub fn merge_sorted<K: Key>(entries: &mut Vec<Entry<K>>) -> Result<(), Overflow> {
    entries.par_sort_unstable_by_key(|e| e.0);
    let mut out = 0usize;
    for i in 0..entries.len() {
        if out > 0 && entries[out - 1].0 == entries[i].0 {
            entries[out - 1].1 = entries[out - 1]
                .1
                .checked_add(entries[i].1)
                .ok_or(Overflow)?;
        } else {
            entries[out] = entries[i];
            out += 1;
        }
    }
    entries.truncate(out);
    entries.shrink_to_fit();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_sums_counts_of_equal_keys() {
        let mut v: Vec<Entry<u64>> = vec![(5, 1), (3, 2), (5, 4), (1, 1), (3, 1)];
        merge_sorted(&mut v).unwrap();
        assert_eq!(v, vec![(1, 1), (3, 3), (5, 5)]);
    }

    #[test]
    fn merge_reports_overflow() {
        let mut v: Vec<Entry<u64>> = vec![(1, u128::MAX), (1, 1)];
        assert_eq!(merge_sorted(&mut v), Err(Overflow));
    }
}
