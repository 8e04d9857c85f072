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
//! Successors arrive as unsorted runs of `(key, count)`, one run per worker
//! chunk, and are kept as they come (no copy). A bucket is deduplicated when
//! it is taken: its runs are concatenated, sorted by key and equal neighbours
//! merged. That needs no shared hash table and gives the same order for any
//! number of threads.

use crate::key::Key;
use rayon::prelude::*;

/// A path count: `u64` while counts fit, `u128` when they do not.
pub trait Count: Copy + Send + Sync + Eq + std::fmt::Debug + Into<u128> + 'static {
    /// One path.
    const ONE: Self;
    /// Checked addition.
    fn checked_add(self, other: Self) -> Option<Self>;
}

impl Count for u64 {
    const ONE: Self = 1;
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        u64::checked_add(self, other)
    }
}

impl Count for u128 {
    const ONE: Self = 1;
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        u128::checked_add(self, other)
    }
}

/// A position key and the number of pick sequences that reach it.
pub type Entry<K, C> = (K, C);

/// A path count overflowed its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// Positions waiting to be expanded, as runs of entries, one list per store value.
pub struct Frontier<K, C> {
    pending: Vec<Vec<Vec<Entry<K, C>>>>,
}

impl<K: Key, C: Count> Frontier<K, C> {
    /// An empty frontier for store values `0..=max_store`.
    pub fn new(max_store: usize) -> Self {
        Frontier {
            pending: (0..=max_store).map(|_| Vec::new()).collect(),
        }
    }

    /// Add a run of successors to bucket `store`.
    pub fn push(&mut self, store: usize, run: Vec<Entry<K, C>>) {
        if !run.is_empty() {
            self.pending[store].push(run);
        }
    }

    /// Take bucket `store` out, deduplicated and sorted by key.
    pub fn take(&mut self, store: usize) -> Result<Vec<Entry<K, C>>, Overflow> {
        let mut runs = std::mem::take(&mut self.pending[store]);
        let total = runs.iter().map(Vec::len).sum();
        let mut bucket = Vec::with_capacity(total);
        for run in runs.drain(..) {
            bucket.extend_from_slice(&run);
        }
        merge_sorted(&mut bucket)?;
        Ok(bucket)
    }

    /// Bytes held by the waiting runs.
    pub fn memory(&self) -> u64 {
        self.pending
            .iter()
            .flatten()
            .map(|run| (run.capacity() * size_of::<Entry<K, C>>()) as u64)
            .sum()
    }

    /// Entries waiting in all buckets (before deduplication).
    pub fn pending_len(&self) -> usize {
        self.pending.iter().flatten().map(Vec::len).sum()
    }
}

/// Sort `entries` by key and merge equal keys, summing their counts.
pub fn merge_sorted<K: Key, C: Count>(entries: &mut Vec<Entry<K, C>>) -> Result<(), Overflow> {
    entries.par_sort_unstable_by_key(|e| e.0);
    let mut out = 0usize;
    for i in 0..entries.len() {
        let (key, count) = entries[i];
        if out > 0 && entries[out - 1].0 == key {
            entries[out - 1].1 = entries[out - 1].1.checked_add(count).ok_or(Overflow)?;
        } else {
            entries[out] = (key, count);
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
        let mut v: Vec<Entry<u64, u64>> = vec![(5, 1), (3, 2), (5, 4), (1, 1), (3, 1)];
        merge_sorted(&mut v).unwrap();
        assert_eq!(v, vec![(1, 1), (3, 3), (5, 5)]);
    }

    #[test]
    fn merge_reports_overflow() {
        let mut v: Vec<Entry<u64, u64>> = vec![(1, u64::MAX), (1, 1)];
        assert_eq!(merge_sorted(&mut v), Err(Overflow));
        let mut v: Vec<Entry<u64, u128>> = vec![(1, u128::MAX), (1, 1)];
        assert_eq!(merge_sorted(&mut v), Err(Overflow));
    }

    #[test]
    fn take_joins_runs() {
        let mut f = Frontier::<u64, u64>::new(3);
        f.push(2, vec![(7, 1), (3, 1)]);
        f.push(2, vec![(3, 5)]);
        f.push(2, vec![]);
        assert_eq!(f.pending_len(), 3);
        assert_eq!(f.take(2).unwrap(), vec![(3, 6), (7, 1)]);
        assert_eq!(f.pending_len(), 0);
    }
}
