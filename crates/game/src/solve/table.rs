//! The solver's transposition table: entries of proven bounds, in one of
//! two layouts (wide entries keyed by the pits or a 128-bit hash, or
//! compact 8-byte entries keyed by rank), and the [`Solver`]'s probe and
//! store, and its entries as a checkpoint holds them. Apart from the search
//! so that the layouts and their packing can be read (and tested) on their
//! own.

use super::search::{pits, ready, stones};
use super::{PitCounts, SolveOptions, Solver, NO_MOVE, TO_THE_END};
use crate::endgame::{huge_vec, prefetch_line, Ranks, UNKNOWN};
use crate::state::GameState;
use rules::{Rules, Scope};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) k0: u64,
    pub(super) k1: u64,
    pub(super) lo: i16,
    pub(super) hi: i16,
    pub(super) best: u8,
    pub(super) work: u8,
    /// Turns the bounds looked ahead; [`TO_THE_END`] for exact bounds.
    pub(super) depth: u8,
}

/// Two entries in one cache line: a probe costs one miss.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
pub(super) struct Bucket([Entry; 2]);

/// Folds the bounds of a new search of a position into its entry: deeper
/// bounds replace shallower ones, bounds of the same depth intersect.
#[inline]
pub(super) fn merge(e: &mut Entry, new: &Entry) {
    if new.depth > e.depth {
        e.lo = new.lo;
        e.hi = new.hi;
        e.depth = new.depth;
    } else if new.depth == e.depth {
        e.lo = e.lo.max(new.lo);
        e.hi = e.hi.min(new.hi);
    }
    e.work = e.work.max(new.work);
    if new.best != NO_MOVE {
        e.best = new.best;
    }
}

/// A zeroed table of `buckets` buckets, on huge pages where the system
/// gives them: the probes land anywhere in hundreds of megabytes, and with
/// 4 KiB pages most of them miss the TLB as well as the cache, and the
/// probe's load is most of the search's time. Zeroed 64 MiB at a time,
/// checking `cancel` between: zeroing gigabytes takes seconds, and Ctrl-C
/// should not wait for it. `None` when cancelled.
pub(super) fn table<B: Default>(buckets: usize, cancel: &AtomicBool) -> Option<Vec<B>> {
    huge_vec(buckets, cancel, B::default)
}

/// The table in one of its two layouts.
pub(super) enum Table {
    /// 32-byte entries, two to a bucket, keyed by the pits themselves
    /// (`exact`: packed a byte a pit) or by a 128-bit hash of them.
    Wide { buckets: Vec<Bucket>, exact: bool },
    /// 8-byte entries keyed by rank.
    Compact(Arc<CompactTable>),
}

/// A table of 8-byte entries, eight to a 64-byte bucket (scope own, at
/// most 127 stones). A position's key is the rank of its 2n pit counts
/// among all counts of at most [`SolveOptions::max_stones`] stones
/// ([`Ranks`]), a number below 2^`key_bits`, put through a bijection of
/// `key_bits`-bit numbers ([`mix_bits`]). Its low bits pick the bucket and
/// the rest, at most [`TAG_BITS`] bits, are the tag kept in the entry, so
/// bucket and tag together name the position exactly: no two positions
/// ever share an entry. Positions with more stones than the ranks cover
/// are not kept (still exact, only slower). An entry packs, low bits
/// first: the best pick (6 bits), the work (6), the upper bound + 128
/// (8), the lower bound + 128 (8), the depth (8; 0 marks an empty entry)
/// and the tag (28).
pub(super) struct CompactTable {
    pub(super) buckets: Vec<CompactBucket>,
    pub(super) ranks: Ranks,
    pub(super) key_bits: u32,
    pub(super) index_bits: u32,
}

/// Eight compact entries in one cache line: a probe costs one miss.
/// Atomic so that threads share the table: an entry is read and written
/// whole (relaxed: a lost update only loses a bound, every bound written is
/// proven).
#[derive(Default)]
#[repr(align(64))]
pub(super) struct CompactBucket([AtomicU64; 8]);

/// Bytes of a compact entry.
pub(super) const COMPACT_BYTES: u64 = 8;

/// Bits of a compact entry's tag.
pub(super) const TAG_BITS: u32 = 28;

/// The key of a position the compact table does not keep.
pub(super) const UNKEPT: (u64, u64) = (u64::MAX, u64::MAX);

/// A bijection of the numbers below 2^`bits` that spreads neighbouring
/// ranks over the buckets: each step (xor with a right shift, multiply by
/// an odd number modulo 2^`bits`) can be undone, so distinct ranks stay
/// distinct.
pub(super) fn mix_bits(mut x: u64, bits: u32) -> u64 {
    let m = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let h = (bits / 2).max(1);
    x ^= x >> h;
    x = x.wrapping_mul(0xff51afd7ed558ccd) & m;
    x ^= x >> h;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53) & m;
    x ^ (x >> h)
}

impl CompactTable {
    /// The layout for `rules`, `n` pits a side and `opts`, when it applies:
    /// scope own, a known stone count of at most 127 (bounds are kept in a
    /// byte), and ranks that fit the bucket index and the tag together.
    /// Returns (entries, key bits, index bits).
    pub(super) fn layout(rules: Rules, n: usize, opts: &SolveOptions) -> Option<(u64, u32, u32)> {
        if rules.scope != Scope::Own || opts.max_stones == 0 || opts.max_stones > 127 {
            return None;
        }
        let positions = Ranks::count(2 * n, opts.max_stones);
        let key_bits = 128 - (positions - 1).leading_zeros().min(127);
        let entries = (opts.table_bytes / COMPACT_BYTES).max(8);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let index_bits = (entries / 8).trailing_zeros();
        (key_bits <= index_bits + TAG_BITS && key_bits < 64)
            .then_some((entries, key_bits, index_bits))
    }

    /// The fields of the packed entry `e` (its tag in `k0`).
    #[inline]
    pub(super) fn unpack(e: u64) -> Entry {
        Entry {
            k0: e >> 36,
            k1: 0,
            lo: ((e >> 20) & 0xff) as i16 - 128,
            hi: ((e >> 12) & 0xff) as i16 - 128,
            best: match (e & 0x3f) as u8 {
                0x3f => NO_MOVE,
                b => b,
            },
            work: ((e >> 6) & 0x3f) as u8,
            depth: ((e >> 28) & 0xff) as u8,
        }
    }

    /// `e` packed with `tag`, in the layout described at [`CompactTable`]
    /// (bounds within ±127, work and pick saturated to 6 bits).
    #[inline]
    pub(super) fn pack(tag: u64, e: &Entry) -> u64 {
        (tag << 36)
            | (e.depth as u64) << 28
            | ((e.lo + 128) as u64 & 0xff) << 20
            | ((e.hi + 128) as u64 & 0xff) << 12
            | (e.work.min(0x3f) as u64) << 6
            | e.best.min(0x3f) as u64
    }
}

pub(super) fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

impl Solver {
    /// The proven bounds on `state`'s value (from its mover's view, the
    /// stores included, as [`GameSolveResult`] gives values) that the
    /// table holds, if it holds any: what a search to the end of the game
    /// proved about a position it went through, even one that was stopped
    /// before its own root was proved. Depth-limited entries are not proofs
    /// and are left out. A position within the endgame database has its
    /// value there once filled, and never in the table (the search reads
    /// it from the database): a proof whose best turn sweeps the board
    /// down to the database leaves its value only there.
    pub fn proven_bounds(&self, state: &GameState) -> Option<(i32, i32)> {
        if state.is_over() {
            return None;
        }
        let (pos, turns_left) = ready(self.n, state);
        let base = state.mover_minus_opponent();
        if let Some(db) = &self.endgame {
            let total = stones(&pos, self.n);
            if total <= db.ranks.max_stones {
                let r = db.rank_cells(&pos, self.n, total);
                return match db.values.get(r, total) {
                    UNKNOWN => None,
                    v => Some((base + v as i32, base + v as i32)),
                };
            }
        }
        let e = self.probe(self.key(&pos, turns_left))?;
        (e.depth == TO_THE_END).then(|| (base + e.lo as i32, base + e.hi as i32))
    }

    pub(super) fn key(&self, pos: &PitCounts, turns_left: u32) -> (u64, u64) {
        self.key_of::<0>(pos, turns_left)
    }

    /// [`Solver::key`] compiled for `N` pits a side (see [`pits`]).
    #[inline(always)]
    pub(super) fn key_of<const N: usize>(&self, pos: &PitCounts, turns_left: u32) -> (u64, u64) {
        let n = pits::<N>(self.n);
        match &self.table {
            Table::Compact(t) => {
                let total = stones(pos, n);
                if total > t.ranks.max_stones {
                    return UNKEPT;
                }
                let r = t.ranks.rank_cells(pos, n, total);
                (mix_bits(r, t.key_bits), 0)
            }
            Table::Wide { exact: true, .. } => {
                let mut k: u128 = 0;
                for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                    k = (k << 8) | c as u128;
                }
                if self.rules.scope == Scope::Any {
                    k = (k << 16) | turns_left as u128;
                }
                // Never all-zero: a position in the table has stones.
                ((k >> 64) as u64, k as u64)
            }
            Table::Wide { exact: false, .. } => {
                let mut a: u64 = 0x9e3779b97f4a7c15 ^ turns_left as u64;
                let mut b: u64 = 0x7f4a7c159e3779b9;
                for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                    a = mix(a ^ c as u64);
                    b = mix(b.rotate_left(7) ^ c as u64 ^ 0x55);
                }
                (a | 1, b)
            }
        }
    }

    /// The bucket of key `k`.
    #[inline]
    pub(super) fn slot(&self, k: (u64, u64)) -> usize {
        match &self.table {
            Table::Compact(_) => k.0 as usize & self.mask,
            Table::Wide { .. } => (mix(k.0 ^ k.1.rotate_left(17)) as usize) & self.mask,
        }
    }

    /// Ask the CPU to bring a table bucket into the cache.
    #[inline]
    pub(super) fn prefetch(&self, k: (u64, u64)) {
        let i = self.slot(k);
        match &self.table {
            Table::Compact(t) => prefetch_line(&t.buckets[i]),
            Table::Wide { buckets, .. } => prefetch_line(&buckets[i]),
        }
    }

    #[inline]
    pub(super) fn probe(&self, k: (u64, u64)) -> Option<Entry> {
        let i = self.slot(k);
        match &self.table {
            Table::Compact(t) => t.probe(i, k),
            Table::Wide { buckets, .. } => buckets[i].probe(k),
        }
    }

    pub(super) fn store(&mut self, k: (u64, u64), lo: i32, hi: i32, best: u8, work: u8, depth: u8) {
        let i = self.slot(k);
        let fresh = Entry {
            k0: k.0,
            k1: k.1,
            lo: lo as i16,
            hi: hi as i16,
            best,
            work,
            depth,
        };
        match &mut self.table {
            Table::Compact(t) => t.store(i, k, &fresh),
            Table::Wide { buckets, .. } => buckets[i].store(k, fresh),
        }
    }
}

impl CompactTable {
    /// The entry of key `k` in bucket `i`, if the bucket holds it.
    #[inline]
    pub(super) fn probe(&self, i: usize, k: (u64, u64)) -> Option<Entry> {
        if k == UNKEPT {
            return None;
        }
        let tag = k.0 >> self.index_bits;
        self.buckets[i]
            .0
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&e| e >> 36 == tag && (e >> 28) & 0xff != 0)
            .map(CompactTable::unpack)
    }

    /// `fresh` folded into the entry of key `k` in bucket `i` ([`merge`]),
    /// or written over the entry that looked least far, then cost least
    /// (an empty one has depth 0). Shared between threads: each entry is
    /// read and written whole.
    pub(super) fn store(&self, i: usize, k: (u64, u64), fresh: &Entry) {
        if k == UNKEPT {
            return;
        }
        let tag = k.0 >> self.index_bits;
        let cells = &self.buckets[i].0;
        let mut b = [0u64; 8];
        for (w, c) in b.iter_mut().zip(cells) {
            *w = c.load(Ordering::Relaxed);
        }
        let same = b
            .iter()
            .position(|&e| e >> 36 == tag && (e >> 28) & 0xff != 0);
        let (j, e) = match same {
            Some(j) => {
                let mut e = CompactTable::unpack(b[j]);
                merge(&mut e, fresh);
                (j, e)
            }
            None => (
                (0..8)
                    .min_by_key(|&j| (b[j] >> 28 & 0xff, b[j] >> 6 & 0x3f))
                    .unwrap_or(0),
                *fresh,
            ),
        };
        cells[j].store(CompactTable::pack(tag, &e), Ordering::Relaxed);
    }
}

impl Bucket {
    /// The entry of key `k`, if this bucket of the wide layout holds it.
    #[inline]
    pub(super) fn probe(&self, k: (u64, u64)) -> Option<Entry> {
        self.0.iter().find(|e| e.k0 == k.0 && e.k1 == k.1).copied()
    }

    /// `fresh` folded into the entry of key `k` ([`merge`]), or written
    /// over the entry that looked less far, then cost less.
    pub(super) fn store(&mut self, k: (u64, u64), fresh: Entry) {
        let b = &mut self.0;
        match b.iter_mut().find(|e| e.k0 == k.0 && e.k1 == k.1) {
            Some(e) => merge(e, &fresh),
            None => {
                let j = usize::from((b[0].depth, b[0].work) > (b[1].depth, b[1].work));
                b[j] = fresh;
            }
        }
    }
}

/// Bytes a wide entry takes in a checkpoint: its two keys, bounds, pick,
/// work and depth, little-endian.
const WIDE_FILE_BYTES: usize = 23;

/// Entries a checkpoint moves through its buffer at a time.
const FILE_CHUNK: usize = 1 << 16;

impl Table {
    /// What the layout is, for a checkpoint to name the table it holds:
    /// its entries are read back only into the same layout.
    pub(super) fn layout_name(&self) -> String {
        match self {
            Table::Compact(t) => format!(
                "{} compact entries (ranks of up to {} stones, {}-bit keys)",
                t.buckets.len() * 8,
                t.ranks.max_stones,
                t.key_bits
            ),
            Table::Wide { buckets, exact } => format!(
                "{} wide entries keyed by {}",
                buckets.len() * 2,
                if *exact { "the pits" } else { "a hash" }
            ),
        }
    }

    /// Bytes [`Table::write_to`] writes.
    pub(super) fn file_bytes(&self) -> u64 {
        match self {
            Table::Compact(t) => t.buckets.len() as u64 * 8 * COMPACT_BYTES,
            Table::Wide { buckets, .. } => buckets.len() as u64 * 2 * WIDE_FILE_BYTES as u64,
        }
    }

    /// Every entry, bucket by bucket, little-endian (a checkpoint's body).
    /// Called between searches: a bound is written by a search only once
    /// proven, so the entries are proven bounds whenever no search runs.
    pub(super) fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            Table::Compact(t) => {
                let mut buf = Vec::with_capacity(FILE_CHUNK * 8);
                for chunk in t.buckets.chunks(FILE_CHUNK / 8) {
                    buf.clear();
                    for e in chunk.iter().flat_map(|b| &b.0) {
                        buf.extend_from_slice(&e.load(Ordering::Relaxed).to_le_bytes());
                    }
                    w.write_all(&buf)?;
                }
            }
            Table::Wide { buckets, .. } => {
                let mut buf = Vec::with_capacity(FILE_CHUNK * WIDE_FILE_BYTES);
                for chunk in buckets.chunks(FILE_CHUNK / 2) {
                    buf.clear();
                    for e in chunk.iter().flat_map(|b| &b.0) {
                        buf.extend_from_slice(&e.k0.to_le_bytes());
                        buf.extend_from_slice(&e.k1.to_le_bytes());
                        buf.extend_from_slice(&e.lo.to_le_bytes());
                        buf.extend_from_slice(&e.hi.to_le_bytes());
                        buf.extend_from_slice(&[e.best, e.work, e.depth]);
                    }
                    w.write_all(&buf)?;
                }
            }
        }
        Ok(())
    }

    /// The entries [`Table::write_to`] wrote for a table of this layout.
    pub(super) fn read_from(&mut self, r: &mut dyn Read) -> io::Result<()> {
        match self {
            Table::Compact(t) => {
                let mut buf = vec![0u8; FILE_CHUNK * 8];
                for chunk in t.buckets.chunks(FILE_CHUNK / 8) {
                    let bytes = &mut buf[..chunk.len() * 64];
                    r.read_exact(bytes)?;
                    for (e, b) in chunk.iter().flat_map(|b| &b.0).zip(bytes.chunks_exact(8)) {
                        let v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
                        e.store(v, Ordering::Relaxed);
                    }
                }
            }
            Table::Wide { buckets, .. } => {
                let mut buf = vec![0u8; FILE_CHUNK * WIDE_FILE_BYTES];
                for chunk in buckets.chunks_mut(FILE_CHUNK / 2) {
                    let bytes = &mut buf[..chunk.len() * 2 * WIDE_FILE_BYTES];
                    r.read_exact(bytes)?;
                    let fields = bytes.chunks_exact(WIDE_FILE_BYTES);
                    for (e, b) in chunk.iter_mut().flat_map(|b| &mut b.0).zip(fields) {
                        let u64_at =
                            |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
                        let i16_at =
                            |i: usize| i16::from_le_bytes(b[i..i + 2].try_into().expect("2"));
                        *e = Entry {
                            k0: u64_at(0),
                            k1: u64_at(8),
                            lo: i16_at(16),
                            hi: i16_at(18),
                            best: b[20],
                            work: b[21],
                            depth: b[22],
                        };
                    }
                }
            }
        }
        Ok(())
    }
}
