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
//! Successors arrive as runs of `(key, count)`, one run per worker chunk and
//! target store. The worker splits each run into [`PARTS`] parts by the top
//! bits of the key (a counting sort, while the run is fresh), so that a
//! part holds one contiguous range of keys. A bucket is deduplicated when it
//! is taken: the same part of every run is gathered into a buffer of a few
//! hundred KiB, sorted there by key, and equal neighbours merged. Each part
//! is sorted in cache, by one thread, and the parts in order are the whole
//! bucket in key order; sorting the concatenated bucket instead (kept as
//! [`merge_sorted`] for the benchmark) streams every pass of the sort
//! through memory. Measured on any-hole 2x6x4, the top 10 bits of a key
//! spread a bucket's nodes to within about 3.5x of an even split.
//!
//! The keys of a part share their top bits, so a part is sorted by a radix
//! sort on the few bits in which its keys differ (three to five passes of
//! at most 8 bits on any-hole 2x6x4), which beat the standard library's
//! comparison sort there: the whole search went from 9.5 s to 9.0 s.
//!
//! No step depends on the number of threads, so the order and the counts
//! are the same for any `--threads`.

use super::super::key::{bits_needed, Key};
use super::SpillFail;
use super::{Store, Wave};
use rayon::prelude::*;
use std::ops::Range;

/// A path count: `u64` while counts fit, `u128` when they do not.
pub trait Count: Copy + Send + Sync + Eq + std::fmt::Debug + Into<u128> + 'static {
    /// One path.
    const ONE: Self;
    /// Width in bits.
    const BITS: u32;
    /// Checked addition.
    fn checked_add(self, other: Self) -> Option<Self>;
    /// Wrapping addition and whether it overflowed.
    fn overflowing_add(self, other: Self) -> (Self, bool);
    /// The count from a `u128`, `None` when it does not fit.
    fn from_u128(v: u128) -> Option<Self>;
}

impl Count for u64 {
    const ONE: Self = 1;
    const BITS: u32 = 64;
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        u64::checked_add(self, other)
    }
    #[inline]
    fn overflowing_add(self, other: Self) -> (Self, bool) {
        u64::overflowing_add(self, other)
    }
    #[inline]
    fn from_u128(v: u128) -> Option<Self> {
        u64::try_from(v).ok()
    }
}

impl Count for u128 {
    const ONE: Self = 1;
    const BITS: u32 = 128;
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        u128::checked_add(self, other)
    }
    #[inline]
    fn overflowing_add(self, other: Self) -> (Self, bool) {
        u128::overflowing_add(self, other)
    }
    #[inline]
    fn from_u128(v: u128) -> Option<Self> {
        Some(v)
    }
}

/// A position key and the number of pick sequences that reach it.
pub type Entry<K, C> = (K, C);

/// A path count overflowed its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// Bits of a key's top that choose its part.
pub const PART_BITS: u32 = 10;
/// Parts a run is split into.
pub const PARTS: usize = 1 << PART_BITS;
/// Entries a take task gathers at least (parts are grouped up to this):
/// 512 KiB of `u64` entries, which sort within the L2 cache.
pub(crate) const TASK: usize = 1 << 15;

/// How far to shift the keys of bucket `store` right to get their part:
/// its keys have `bits_needed` bits for the `stones - store` stones left
/// in `pits` counters.
pub fn part_shift(stones: usize, store: usize, pits: usize) -> u32 {
    bits_needed(stones.saturating_sub(store) as u32, pits).saturating_sub(PART_BITS)
}

#[inline]
pub(crate) fn part_of<K: Key>(key: K, shift: u32) -> usize {
    // A 64-bit shift for keys that fit 64 bits: the `u128` one by a
    // variable amount is two double shifts and a select.
    let top = if K::BITS <= 64 {
        (key.to_u128() as u64 >> shift) as usize
    } else {
        (key.to_u128() >> shift) as usize
    };
    top.min(PARTS - 1)
}

/// Successors for one bucket from one worker chunk, grouped by part.
#[derive(Debug)]
pub struct Run<K, C> {
    entries: Vec<Entry<K, C>>,
    /// Part `p` is `entries[starts[p]..starts[p + 1]]`.
    starts: Box<[u32]>,
}

impl<K: Key, C: Count> Run<K, C> {
    /// Group `entries` by part (keys shifted right by `shift`, see
    /// [`part_shift`]); within a part they keep their order.
    pub fn new(entries: Vec<Entry<K, C>>, shift: u32) -> Self {
        assert!(
            entries.len() < u32::MAX as usize,
            "a run holds fewer than 2^32 entries"
        );
        let mut starts = vec![0u32; PARTS + 1].into_boxed_slice();
        for e in &entries {
            starts[part_of(e.0, shift) + 1] += 1;
        }
        for p in 0..PARTS {
            starts[p + 1] += starts[p];
        }
        let mut at: Vec<u32> = starts[..PARTS].to_vec();
        let mut out: Vec<Entry<K, C>> = Vec::with_capacity(entries.len());
        let slots = out.spare_capacity_mut();
        for &e in &entries {
            let p = part_of(e.0, shift);
            slots[at[p] as usize].write(e);
            at[p] += 1;
        }
        // Every slot below the length was written exactly once: part `p`
        // got `starts[p + 1] - starts[p]` entries, which is what was counted.
        assert!(at.iter().zip(&starts[1..]).all(|(a, s)| a == s));
        // SAFETY: the parts tile `0..len` (`starts` are the prefix sums of
        // the part sizes) and each slot of part `p` was written once, the
        // cursors having stopped at its end (checked just above).
        unsafe { out.set_len(entries.len()) };
        Run {
            entries: out,
            starts,
        }
    }

    /// Entries of the parts `parts`.
    fn parts(&self, parts: Range<usize>) -> &[Entry<K, C>] {
        &self.entries[self.starts[parts.start] as usize..self.starts[parts.end] as usize]
    }

    /// The entries, part by part.
    pub fn entries(&self) -> &[Entry<K, C>] {
        &self.entries
    }

    /// The same run with keys of type `K2`, which must hold every key (the
    /// parts stay: a part's shift depends on the bucket, not the type).
    fn rekey<K2: Key>(self) -> Run<K2, C> {
        let entries = self
            .entries
            .into_iter()
            .map(|(key, count)| (key.to_key(), count))
            .collect();
        Run {
            entries,
            starts: self.starts,
        }
    }
}

/// A taken bucket: deduplicated nodes in key order, held as the parts they
/// were sorted in (not joined, which would copy them once more).
#[derive(Debug, Default)]
pub struct Nodes<K, C> {
    parts: Vec<Vec<Entry<K, C>>>,
    len: usize,
}

impl<K: Key, C: Count> Nodes<K, C> {
    /// Nodes held as `parts`, which are each sorted and deduplicated and
    /// together in key order.
    pub(crate) fn from_parts(parts: Vec<Vec<Entry<K, C>>>) -> Self {
        let len = parts.iter().map(Vec::len).sum();
        Nodes { parts, len }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The parts the nodes are held in, in key order.
    pub fn parts(&self) -> &[Vec<Entry<K, C>>] {
        &self.parts
    }

    /// Every node, in key order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry<K, C>> + '_ {
        self.parts.iter().flatten()
    }

    /// Bytes held.
    pub fn memory(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| (p.capacity() * size_of::<Entry<K, C>>()) as u64)
            .sum()
    }

    /// The nodes cut into chunks of `size` nodes (the last one shorter),
    /// each chunk as the slices of the parts it spans.
    pub fn chunks(&self, size: usize) -> Vec<Vec<&[Entry<K, C>]>> {
        let size = size.max(1);
        let mut chunks = Vec::new();
        let mut chunk: Vec<&[Entry<K, C>]> = Vec::new();
        let mut room = size;
        for part in &self.parts {
            let mut rest = part.as_slice();
            while !rest.is_empty() {
                let (head, tail) = rest.split_at(room.min(rest.len()));
                chunk.push(head);
                room -= head.len();
                rest = tail;
                if room == 0 {
                    chunks.push(std::mem::take(&mut chunk));
                    room = size;
                }
            }
        }
        if !chunk.is_empty() {
            chunks.push(chunk);
        }
        chunks
    }
}

/// A take task's gathering buffer and the radix sort's second buffer,
/// reused from task to task.
type Buffers<K, C> = (Vec<Entry<K, C>>, Vec<Entry<K, C>>);

/// Positions waiting to be expanded, as runs of entries, one list per store value.
pub struct Frontier<K, C> {
    pending: Vec<Vec<Run<K, C>>>,
}

impl<K: Key, C: Count> Frontier<K, C> {
    /// An empty frontier for store values `0..=max_store`.
    pub fn new(max_store: usize) -> Self {
        Frontier {
            pending: (0..=max_store).map(|_| Vec::new()).collect(),
        }
    }

    /// Add a run of successors to bucket `store`; its parts must come from
    /// the same shift as every other run of that bucket.
    pub fn push(&mut self, store: usize, run: Run<K, C>) {
        if !run.entries.is_empty() {
            self.pending[store].push(run);
        }
    }

    /// Take bucket `store` out, deduplicated and sorted by key. Runs of
    /// parts are grouped into tasks of at least `TASK` entries; each task
    /// gathers its parts from every run into a buffer it reuses, sorts and
    /// merges them there, and keeps a copy of what is left.
    pub fn take(&mut self, store: usize) -> Result<Nodes<K, C>, Overflow> {
        let parts = self.take_into(store, |entries| entries.to_vec())?;
        Ok(Nodes::from_parts(parts))
    }

    /// Take bucket `store` out as [`Frontier::take`] does, but hand each
    /// task's deduplicated entries (whole key parts, in key order from
    /// task to task; never empty) to `keep` in the task's own buffer, and
    /// return what it made of them. Writing a bucket out codes it this
    /// way, so that it never holds the bucket twice decoded: a copy of
    /// the whole bucket beside the runs it came from took a store on disk
    /// past its memory guard, between two of the guard's readings.
    pub fn take_into<T: Send>(
        &mut self,
        store: usize,
        keep: impl Fn(&[Entry<K, C>]) -> T + Sync,
    ) -> Result<Vec<T>, Overflow> {
        let runs = std::mem::take(&mut self.pending[store]);
        let mut sizes = vec![0usize; PARTS];
        for run in &runs {
            for (p, size) in sizes.iter_mut().enumerate() {
                *size += (run.starts[p + 1] - run.starts[p]) as usize;
            }
        }
        let mut tasks = Vec::new();
        let (mut from, mut gathered) = (0, 0);
        for (p, size) in sizes.iter().enumerate() {
            gathered += size;
            if gathered >= TASK || p + 1 == PARTS {
                tasks.push(from..p + 1);
                (from, gathered) = (p + 1, 0);
            }
        }
        let kept: Vec<Option<T>> = tasks
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(buffer, spare): &mut Buffers<K, C>, parts| {
                    buffer.clear();
                    for run in &runs {
                        buffer.extend_from_slice(run.parts(parts.clone()));
                    }
                    radix_sort(buffer, spare);
                    let kept = merge_in_place(buffer)?;
                    Ok((kept > 0).then(|| keep(&buffer[..kept])))
                },
            )
            .collect::<Result<_, _>>()?;
        Ok(kept.into_iter().flatten().collect())
    }

    /// Bytes held by the waiting runs.
    pub fn memory(&self) -> u64 {
        self.pending
            .iter()
            .flatten()
            .map(|run| {
                (run.entries.capacity() * size_of::<Entry<K, C>>() + run.starts.len() * 4) as u64
            })
            .sum()
    }

    /// Buckets that hold runs, lowest first.
    pub(crate) fn pending_buckets(&self) -> Vec<usize> {
        (0..self.pending.len())
            .filter(|&s| !self.pending[s].is_empty())
            .collect()
    }

    /// Entries waiting in all buckets (before deduplication).
    pub fn pending_len(&self) -> usize {
        self.pending
            .iter()
            .flatten()
            .map(|run| run.entries.len())
            .sum()
    }
}

/// Bits a radix sort pass sorts on at most: 256 counters, and as many
/// write streams, which stay in the L1 cache.
const DIGIT_BITS: u32 = 8;
// `radix_sort` reads a digit as a byte.
const _: () = assert!(DIGIT_BITS <= 8);

/// Bytes of entries a radix sort scatters within the L2 cache: with its
/// second buffer, about the 2 MiB a core has on the machines measured.
const SORT_IN_CACHE: usize = 1 << 20;

/// Sort `entries` by key on just the bits in which their keys differ,
/// using `spare` as the second buffer. A task's keys share their top bits
/// (its parts are a range of keys), so that is 20 to 40 bits on any-hole
/// 2x6x4: three to five passes, where a comparison sort needs about 16
/// passes. Wider spreads and short slices go to the standard library's
/// sort.
///
/// Why a first pass on the top digit: the slices a bucket on disk is
/// taken in hold millions of entries (tens of MiB on 2x6x6), and every
/// pass of a least-significant-digit sort over them scattered entries
/// far beyond the L2 cache; the sort was a third of a large bucket's time
/// (perf, any-hole 2x6x6 bucket 40). Split by the top digit first, such
/// a slice crosses memory once and sorts the rest piece by piece in cache.
pub(crate) fn radix_sort<K: Key, C: Count>(
    entries: &mut Vec<Entry<K, C>>,
    spare: &mut Vec<Entry<K, C>>,
) {
    let Some(&first) = entries.first() else {
        return;
    };
    let len = entries.len();
    if spare.len() < len {
        spare.resize(len, first);
    }
    if sort_in(entries, &mut spare[..len]) {
        std::mem::swap(entries, spare);
        entries.truncate(len);
    }
}

/// Sort `a` by key with `b` (as long) as the second buffer; true when the
/// sorted entries ended in `b`, false when in `a`.
fn sort_in<K: Key, C: Count>(a: &mut [Entry<K, C>], b: &mut [Entry<K, C>]) -> bool {
    let Some(&first) = a.first() else {
        return false;
    };
    let (low, high) = a
        .iter()
        .fold((first.0, first.0), |(lo, hi), e| (lo.min(e.0), hi.max(e.0)));
    let width = 128 - (low.to_u128() ^ high.to_u128()).leading_zeros();
    let passes = width.div_ceil(DIGIT_BITS);
    if a.len() < 1024 || passes > 6 {
        a.sort_unstable_by_key(|e| e.0);
        return false;
    }
    if passes == 0 {
        return false; // one key
    }
    // The keys agree above bit `width`, at most 48 here, so their low 64
    // bits order them: digits come from a 64-bit shift (a `u128` shift by a
    // variable amount is two double shifts and a select, and was a fifth
    // of the sort's time), and a digit is at most a byte, which the
    // compiler sees, so the counters are indexed without a bounds check.
    debug_assert!(width <= 64);
    let low64 = |key: K| key.to_u128() as u64;
    if passes > 1 && size_of_val(a) > SORT_IN_CACHE {
        let shift = width - DIGIT_BITS;
        let digit = |key: K| (low64(key) >> shift) as u8 as usize;
        let mut at = [0usize; 1 << DIGIT_BITS];
        for e in a.iter() {
            at[digit(e.0)] += 1;
        }
        let mut sum = 0;
        let ends: Vec<usize> = at
            .iter_mut()
            .map(|start| {
                (*start, sum) = (sum, sum + *start);
                sum
            })
            .collect();
        for &e in a.iter() {
            let d = digit(e.0);
            b[at[d]] = e;
            at[d] += 1;
        }
        // Each piece sorted where it landed, with its range of `a` as the
        // second buffer, and left in `a`.
        let mut from = 0;
        for to in ends {
            if to > from && !sort_in(&mut b[from..to], &mut a[from..to]) {
                a[from..to].copy_from_slice(&b[from..to]);
            }
            from = to;
        }
        return false;
    }
    let bits = width.div_ceil(passes);
    let mask = (1usize << bits) - 1;
    let digit = |key: K, pass: u32| ((low64(key) >> (pass * bits)) as usize & mask) as u8 as usize;
    // Every pass's counts in one read of the entries.
    let mut counts = vec![[0usize; 1 << DIGIT_BITS]; passes as usize];
    for e in a.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(e.0, pass as u32)] += 1;
        }
    }
    for (pass, count) in counts.iter().enumerate() {
        let mut at = [0usize; 1 << DIGIT_BITS];
        let mut sum = 0;
        for (a, &c) in at.iter_mut().zip(count) {
            *a = sum;
            sum += c;
        }
        let (from, to) = if pass % 2 == 0 {
            (&*a, &mut *b)
        } else {
            (&*b, &mut *a)
        };
        for &e in from.iter() {
            let d = digit(e.0, pass as u32);
            to[at[d]] = e;
            at[d] += 1;
        }
    }
    passes % 2 == 1
}

/// Sort `entries` by key and merge equal keys, summing their counts. Both
/// steps run in parallel: the merge works on pieces cut between different
/// keys, then closes the gaps between them. This is how the frontier
/// deduplicated a bucket before runs were split into parts; the `dedup`
/// benchmark compares the two.
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
pub(crate) fn merge_in_place<K: Key, C: Count>(
    entries: &mut [Entry<K, C>],
) -> Result<usize, Overflow> {
    // Without a branch on whether a key repeats: which keys repeat is
    // data, and the mispredictions of such a branch make this loop a tenth
    // of a bucket's filing. `out` is one past the entry being summed; the
    // entry at `out - 1` is rewritten whether it grows or is a new key.
    if entries.is_empty() {
        return Ok(0);
    }
    let mut out = 1usize;
    let mut overflow = false;
    for i in 1..entries.len() {
        let (key, count) = entries[i];
        let (last, sum) = entries[out - 1];
        let same = last == key;
        let (summed, over) = sum.overflowing_add(count);
        overflow |= same & over;
        out += usize::from(!same);
        entries[out - 1] = (key, if same { summed } else { count });
    }
    if overflow {
        return Err(Overflow);
    }
    Ok(out)
}

/// The in-memory store hands a bucket out in one wave: all of it is in
/// memory already, and one expansion of the whole bucket balances the
/// workers best.
impl<K: Key, C: Count> Store<K, C> for Frontier<K, C> {
    type Taking = Option<Nodes<K, C>>;
    const ON_DISK: bool = false;
    fn push(&mut self, store: usize, run: Run<K, C>) {
        Frontier::push(self, store, run)
    }
    fn take(&mut self, store: usize) -> Result<Self::Taking, SpillFail> {
        Ok(Some(Frontier::take(self, store)?))
    }
    fn entries(taking: &Self::Taking) -> u64 {
        taking.as_ref().map_or(0, |nodes| nodes.len() as u64)
    }
    fn next_wave(&mut self, taking: &mut Self::Taking) -> Result<Option<Wave<K, C>>, SpillFail> {
        Ok(taking.take().map(|nodes| {
            let entries = nodes.len() as u64;
            (nodes, entries)
        }))
    }
    fn memory(&self) -> u64 {
        Frontier::memory(self)
    }
}

/// The frontier with keys of another type: for a search that goes on with
/// narrower keys once every bucket left fits them.
impl<K: Key, C: Count> super::Rekey<C> for Frontier<K, C> {
    type With<K2: Key> = Frontier<K2, C>;
    fn rekey<K2: Key>(self) -> Frontier<K2, C> {
        Frontier {
            pending: self
                .pending
                .into_iter()
                .map(|runs| runs.into_iter().map(Run::rekey).collect())
                .collect(),
        }
    }
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

    /// The branchless merge against a map on random sorted runs, with
    /// few distinct keys (long runs of repeats) and many (few repeats).
    #[test]
    fn merge_in_place_agrees_with_a_map() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(18);
        for distinct in [1u64, 3, 50, 1 << 20] {
            for len in [0usize, 1, 2, 7, 1000] {
                let mut v: Vec<Entry<u64, u64>> = (0..len)
                    .map(|_| (rng.random_range(0..distinct), rng.random_range(1..1000)))
                    .collect();
                v.sort_unstable_by_key(|e| e.0);
                let mut want = std::collections::BTreeMap::new();
                for &(k, c) in &v {
                    *want.entry(k).or_insert(0) += c;
                }
                let kept = merge_in_place(&mut v).unwrap();
                assert_eq!(v[..kept], want.into_iter().collect::<Vec<_>>()[..]);
            }
        }
        // An overflow anywhere in a run is reported, not only at its end.
        let mut v: Vec<Entry<u64, u64>> = vec![(1, 1), (2, u64::MAX), (2, 1), (3, 1)];
        assert_eq!(merge_in_place(&mut v), Err(Overflow));
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
        f.push(2, Run::new(vec![(7, 1), (3, 1)], 0));
        f.push(2, Run::new(vec![(3, 5)], 0));
        f.push(2, Run::new(vec![], 0));
        assert_eq!(f.pending_len(), 3);
        let nodes = f.take(2).unwrap();
        assert_eq!(
            nodes.iter().copied().collect::<Vec<_>>(),
            vec![(3, 6), (7, 1)]
        );
        assert_eq!(f.pending_len(), 0);
    }

    /// Many runs over many parts and tasks: the parts in order are the
    /// sorted, merged bucket, and chunks tile it.
    #[test]
    fn take_sorts_and_merges_across_parts_and_tasks() {
        let (stones, store, pits) = (48, 20, 12);
        let shift = part_shift(stones, store, pits);
        assert_eq!(shift, 39 - PART_BITS);
        let mut f = Frontier::<u64, u64>::new(stones);
        let mut all: Vec<(u64, u64)> = Vec::new();
        let mut x = 1u64;
        for r in 0..40u64 {
            let mut run = Vec::new();
            for i in 0..5000u64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Keys below 2^39, with many repeats across runs.
                let key = ((x >> 52) << 27) + (i % 3);
                run.push((key, r + 1));
            }
            all.extend_from_slice(&run);
            let split = Run::new(run, shift);
            let parts = split.entries();
            assert!(parts
                .windows(2)
                .all(|w| part_of(w[0].0, shift) <= part_of(w[1].0, shift)));
            f.push(store, split);
        }
        merge_sorted(&mut all).unwrap();
        let nodes = f.take(store).unwrap();
        assert!(nodes.parts.len() > 1, "several tasks");
        assert!(all.len() < 150_000, "repeated keys were merged");
        assert_eq!(nodes.len(), all.len());
        assert_eq!(nodes.iter().copied().collect::<Vec<_>>(), all);
        for size in [1, 7, 4096, 1 << 20] {
            let chunks = nodes.chunks(size);
            assert!(chunks
                .iter()
                .all(|c| c.iter().map(|s| s.len()).sum::<usize>() <= size));
            let joined: Vec<(u64, u64)> = chunks
                .iter()
                .flatten()
                .flat_map(|s| s.iter().copied())
                .collect();
            assert_eq!(joined, all);
        }
    }

    /// The radix sort against the standard sort: spreads of a few bits to
    /// beyond what it takes, with repeats, for both key widths; slices
    /// short, in cache, and beyond it (split by the top digit first), and
    /// crowded ones whose largest piece is split again.
    #[test]
    fn radix_sort_sorts_like_the_standard_sort() {
        let mut x = 7u64;
        let mut spare = Vec::new();
        let mut wide_spare = Vec::new();
        let beyond = SORT_IN_CACHE / size_of::<(u64, u64)>() * 3;
        for width in [1u32, 5, 8, 9, 17, 30, 47, 48, 49, 64] {
            for (len, crowded) in [
                (0usize, false),
                (3, false),
                (1023, false),
                (1024, false),
                (5000, false),
                (beyond, false),
                (beyond, true),
            ] {
                let mut v: Vec<(u64, u64)> = (0..len as u64)
                    .map(|i| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let mut spread = if width == 64 { x } else { x >> (64 - width) };
                        // Nine in ten keys share their top byte.
                        if crowded && width > 16 && !x.is_multiple_of(10) {
                            spread &= (1 << (width - 8)) - 1;
                        }
                        ((0xABCD << 40 | spread >> 3 << 3).wrapping_add(i % 4), i)
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_by_key(|e| e.0);
                radix_sort(&mut v, &mut spare);
                // Equal keys may come in any order: compare keys, then the sets.
                assert_eq!(
                    v.iter().map(|e| e.0).collect::<Vec<_>>(),
                    want.iter().map(|e| e.0).collect::<Vec<_>>(),
                    "width {width}, len {len}, crowded {crowded}"
                );
                let (mut a, mut b) = (v.clone(), want.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b);
                let mut w: Vec<(u128, u64)> =
                    v.iter().map(|&(k, c)| ((k as u128) << 60 | 5, c)).collect();
                w.reverse();
                radix_sort(&mut w, &mut wide_spare);
                assert!(w.windows(2).all(|p| p[0].0 <= p[1].0));
            }
        }
    }

    #[test]
    fn take_reports_overflow() {
        let mut f = Frontier::<u64, u64>::new(1);
        f.push(1, Run::new(vec![(1, u64::MAX)], 0));
        f.push(1, Run::new(vec![(1, 1)], 0));
        assert_eq!(f.take(1).unwrap_err(), Overflow);
    }
}
