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
    /// Width in bits.
    const BITS: u32;
    /// Checked addition.
    fn checked_add(self, other: Self) -> Option<Self>;
}

impl Count for u64 {
    const ONE: Self = 1;
    const BITS: u32 = 64;
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        u64::checked_add(self, other)
    }
}

impl Count for u128 {
    const ONE: Self = 1;
    const BITS: u32 = 128;
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
        let runs = std::mem::take(&mut self.pending[store]);
        let mut bucket = concat(runs);
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

/// Join runs into one buffer, copying them in parallel and freeing each as
/// soon as it is copied.
fn concat<T: Copy + Send + Sync>(runs: Vec<Vec<T>>) -> Vec<T> {
    let total: usize = runs.iter().map(Vec::len).sum();
    let mut out: Vec<T> = Vec::with_capacity(total);
    let mut slots: Vec<&mut [std::mem::MaybeUninit<T>]> = Vec::with_capacity(runs.len());
    let mut rest = &mut out.spare_capacity_mut()[..total];
    for run in &runs {
        let (slot, tail) = rest.split_at_mut(run.len());
        slots.push(slot);
        rest = tail;
    }
    runs.into_par_iter().zip(slots).for_each(|(run, slot)| {
        for (s, v) in slot.iter_mut().zip(run) {
            s.write(v);
        }
    });
    // SAFETY: the slots tile `..total` (their lengths are the runs' lengths,
    // which sum to `total`), and each was written in full from its run.
    unsafe { out.set_len(total) };
    out
}

/// Sort `entries` by key and merge equal keys, summing their counts. Both
/// steps run in parallel: the merge works on pieces cut between different
/// keys, then closes the gaps between them.
pub fn merge_sorted<K: Key, C: Count>(entries: &mut Vec<Entry<K, C>>) -> Result<(), Overflow> {
    entries.par_sort_unstable_by_key(|e| e.0);
    let pieces = rayon::current_num_threads() * 4;
    let mut cuts = vec![0usize];
    for p in 1..pieces {
        let mut at = (entries.len() * p / pieces).max(*cuts.last().expect("starts with 0"));
        while at > 0 && at < entries.len() && entries[at - 1].0 == entries[at].0 {
            at += 1;
        }
        cuts.push(at.min(entries.len()));
    }
    cuts.push(entries.len());
    let mut parts: Vec<&mut [Entry<K, C>]> = Vec::with_capacity(pieces);
    let mut rest = entries.as_mut_slice();
    for w in cuts.windows(2) {
        let (part, tail) = rest.split_at_mut(w[1] - w[0]);
        parts.push(part);
        rest = tail;
    }
    let kept: Vec<usize> = parts
        .into_par_iter()
        .map(merge_in_place)
        .collect::<Result<_, _>>()?;
    let mut write = 0;
    for (w, k) in cuts.windows(2).zip(kept) {
        entries.copy_within(w[0]..w[0] + k, write);
        write += k;
    }
    entries.truncate(write);
    entries.shrink_to_fit();
    Ok(())
}

/// Merge equal neighbours of a sorted slice, summing their counts; the kept
/// entries end up at the front and their number is returned.
fn merge_in_place<K: Key, C: Count>(entries: &mut [Entry<K, C>]) -> Result<usize, Overflow> {
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
    Ok(out)
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
    fn merge_across_piece_boundaries() {
        // Long runs of equal keys, so that piece cuts have to move.
        let mut v: Vec<Entry<u64, u64>> = (0..10_000u64).map(|i| (i % 7, 1)).collect();
        merge_sorted(&mut v).unwrap();
        assert_eq!(v.len(), 7);
        assert!(v.iter().all(|e| e.1 == 10_000 / 7 || e.1 == 10_000 / 7 + 1));
        assert_eq!(v.iter().map(|e| e.1).sum::<u64>(), 10_000);
        let mut v: Vec<Entry<u64, u64>> = (0..5000u64).rev().map(|i| (i, 2)).collect();
        merge_sorted(&mut v).unwrap();
        assert_eq!(v, (0..5000u64).map(|i| (i, 2)).collect::<Vec<_>>());
        let mut empty: Vec<Entry<u64, u64>> = Vec::new();
        merge_sorted(&mut empty).unwrap();
        assert!(empty.is_empty());
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
