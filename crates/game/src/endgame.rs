//! The endgame database: the exact value of every position with at most
//! a given number of stones in its pits, for the whole-game solver.
//!
//! With scope own the game graph has no cycles, and a position's value (the
//! mover's future gains minus the opponent's) depends only on its pit
//! counts, not on the stores or on how the game got there, so one database
//! serves every game on the board size and rules it was built for. It is a
//! dense `i8` array indexed by the rank of the pit counts ([`Ranks`]),
//! filled on demand during a search or bottom-up ([`Endgame::build`]).

use crate::error::EndgameError;
use crate::state::{a_side_is_empty, flip_word, sum, CYCLE_CAP};
use rules::pick::{self, PickEnd};
use rules::Rules;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering};

mod build;
mod cache;
mod db;
mod packed;
mod values;
mod window;
pub use build::{BuildProgress, FillFile, SaveFile};
pub use cache::{CachedDb, EndgameCache, BUILD_BYTES, CACHE_BYTES, CACHE_STONES, SETUP_BYTES};
pub use db::{
    EndgameBuild, EndgameDb, EndgameHeader, Reading, ENDGAME_FORMAT, ENDGAME_FORMAT_BYTES,
};
use values::Values;

type Cells = [u8; CYCLE_CAP];

/// The smallest allocation [`advise_huge`] asks huge pages for. Where the
/// system has no free huge page, the first touch of one waits for the
/// kernel to compact memory: a long solve earns that back in fewer TLB
/// misses, a one-second analysis on its 64 MiB table does not (a fifth of
/// its second, measured in docs/notebook/game-solver.md#huge-pages).
#[cfg(target_os = "linux")]
const HUGE_FROM: usize = 128 << 20;

/// Asks the system to back `bytes` bytes at `start` with huge pages where
/// it gives them (rounded inward to whole 2 MiB pages): the endgame
/// database's random loads and the table's probes land anywhere in
/// hundreds of megabytes, and with 4 KiB pages most of them missed the TLB
/// as well as the cache. Call before the memory is first touched. Not
/// below [`HUGE_FROM`].
fn advise_huge(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let end = start + bytes;
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from && bytes >= HUGE_FROM {
            // SAFETY: madvise only advises: the range lies inside one
            // allocation of the caller's (rounded inward to whole huge
            // pages), and no memory changes owner. A refusal (no
            // transparent huge pages) changes nothing.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// A vector of `len` elements each made by `init`, on huge pages where the
/// system gives them ([`advise_huge`]), written 64 MiB at a time with
/// `cancel` checked between (a few gigabytes take seconds). `None` when
/// cancelled. Written whole, not allocated zeroed: Rust's allocator zeroes
/// memory aligned to 64 bytes by writing it, before the advice could be
/// given, and the table would fall on 4 KiB pages (measured in
/// docs/notebook/game-solver.md, "Sixth round").
pub(super) fn huge_vec<B>(
    len: usize,
    cancel: &AtomicBool,
    mut init: impl FnMut() -> B,
) -> Option<Vec<B>> {
    let mut t: Vec<B> = Vec::with_capacity(len);
    advise_huge(t.as_mut_ptr() as usize, len * std::mem::size_of::<B>());
    let step = ((64 << 20) / std::mem::size_of::<B>().max(1)).max(1);
    while t.len() < len {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        t.resize_with(len.min(t.len() + step), &mut init);
    }
    Some(t)
}

/// Exact values of every position with at most `max_stones` stones in its
/// pits (scope own only: there the game graph has no cycles), stored as
/// `i8` in a dense array by the rank of the pit counts, filled on demand.
pub(super) struct Endgame {
    pub(super) ranks: Ranks,
    /// Atomic so that threads share the database; a value, once there, is
    /// the same whoever wrote it.
    pub(super) values: Values,
}

/// Ranks of pit counts: the index of a composition of at most
/// `max_stones` stones over `pits` pits among all of them, ordered by
/// total, then pit by pit. Dense, so the endgame database is an array
/// indexed by it, and a bijection, so the compact table keys by it.
pub(super) struct Ranks {
    pits: usize,
    pub(super) max_stones: u32,
    /// `below[(parts * (S + 1) + left) * (S + 1) + c]`: the number of
    /// compositions of `left` stones over a pit and `parts` more pits whose
    /// first pit holds fewer than `c` (S = `max_stones`). The rank adds one
    /// of these a pit, where summing binomials stone by stone made the
    /// database's lookups a fifth of the solver's time.
    below: Vec<u64>,
    /// `tail[p * (S + 1) + l]`: the compositions of exactly `l` stones
    /// over `p + 1` pits, C(l + p, p). `below[p][l][c]` is
    /// `tail[p][l] - tail[p][l - c]` (the hockey-stick identity), so the
    /// rank is two loads a pit from this small table, each indexed by a
    /// sum of the pits before it rather than by the last load: the hot
    /// path's form ([`Ranks::rank_cells`]).
    tail: Vec<u64>,
    /// First index of the positions with exactly `t` stones.
    offset: Vec<u64>,
}

impl Ranks {
    /// Compositions of at most `stones` into `pits` parts: C(stones+pits, pits)
    /// (exact for the boards and stone counts the solver takes, at most 32
    /// pits and 127 stones where it matters).
    pub(super) fn count(pits: usize, stones: u32) -> u128 {
        let (a, b) = (stones as u128 + pits as u128, pits as u128);
        let mut c: u128 = 1;
        for i in 0..b {
            c = c.saturating_mul(a - i) / (i + 1);
        }
        c
    }

    /// The tables for `pits` pits and at most `max_stones` stones (sums
    /// saturate: the caller checks that the count fits 64 bits).
    pub(super) fn new(pits: usize, max_stones: u32) -> Ranks {
        let m = max_stones as usize + pits + 1;
        let mut binom = vec![vec![0u64; pits + 1]; m + 1];
        for a in 0..=m {
            binom[a][0] = 1;
            for b in 1..=pits.min(a) {
                binom[a][b] =
                    binom[a - 1][b - 1].saturating_add(if b < a { binom[a - 1][b] } else { 0 });
            }
        }
        let mut offset = vec![0u64; max_stones as usize + 2];
        for t in 0..=max_stones as usize {
            // Compositions of exactly t into `pits` parts: C(t+pits-1, pits-1).
            offset[t + 1] = offset[t].saturating_add(binom[t + pits - 1][pits - 1]);
        }
        let side = max_stones as usize + 1;
        let mut below = vec![0u64; pits.max(1) * side * side];
        for parts in 1..pits {
            for left in 0..side {
                let mut acc: u64 = 0;
                for c in 0..side {
                    below[(parts * side + left) * side + c] = acc;
                    if c <= left {
                        // First pit holds exactly c: the rest over `parts` pits.
                        acc = acc.saturating_add(binom[left - c + parts - 1][parts - 1]);
                    }
                }
            }
        }
        let mut tail = vec![0u64; pits.max(1) * side];
        for p in 0..pits {
            for l in 0..side {
                tail[p * side + l] = binom[l + p][p];
            }
        }
        Ranks {
            pits,
            max_stones,
            below,
            tail,
            offset,
        }
    }

    /// The rank of the counts `pits` (`pits` of them) holding `total`
    /// stones, at most `max_stones`.
    #[inline]
    #[cfg(test)]
    pub(super) fn rank<'a>(&self, pits: impl Iterator<Item = &'a u8>, total: u32) -> u64 {
        let side = self.max_stones as usize + 1;
        let mut left = total as usize;
        let mut r = self.offset[left];
        let m = self.pits;
        for (j, &c) in pits.take(m - 1).enumerate() {
            let parts = m - j - 1;
            r += self.below[(parts * side + left) * side + c as usize];
            left -= c as usize;
        }
        r
    }
}

impl Ranks {
    /// [`Ranks::rank`] of a position as the search holds it (`cells`: the
    /// mover's `n` pits, the store, the opponent's `n` pits; `2n` pits in
    /// all), from the small `tail` table: the endgame database's fill and
    /// the compact table's key rank every child, and rows of a table of
    /// hundreds of kilobytes for 48 stones, each load waiting for the last,
    /// would be the largest single share of a small solve's instructions
    /// (docs/notebook/game-solver.md, "Sixth round").
    #[inline(always)]
    pub(super) fn rank_cells(&self, cells: &Cells, n: usize, total: u32) -> u64 {
        debug_assert_eq!(self.pits, 2 * n);
        let side = self.max_stones as usize + 1;
        let tail = &self.tail[..2 * n * side];
        let mut left = total as usize;
        let mut r = self.offset[left];
        // The row of the pits after this one: 2n - 1 after the first, one
        // after the last but one (the last pit adds nothing).
        let mut row = (2 * n - 1) * side;
        let mut add = |c: u8| {
            r += tail[row + left];
            left -= c as usize;
            r -= tail[row + left];
            row -= side;
        };
        cells[..n].iter().for_each(|&c| add(c));
        cells[n + 1..2 * n].iter().for_each(|&c| add(c));
        r
    }
}

pub(super) const UNKNOWN: i8 = i8::MIN;

impl Endgame {
    pub(super) fn bytes(pits: usize, stones: u32) -> u64 {
        if stones == 0 {
            0
        } else {
            Ranks::count(pits, stones) as u64
        }
    }

    pub(super) fn new(pits: usize, max_stones: u32) -> Endgame {
        Endgame::new_until(pits, max_stones, &AtomicBool::new(false)).expect("not cancelled")
    }

    /// [`Endgame::new`], or `None` when `cancel` is raised while its values
    /// are set to unknown (a second for each few gigabytes).
    pub(super) fn new_until(pits: usize, max_stones: u32, cancel: &AtomicBool) -> Option<Endgame> {
        let ranks = Ranks::new(pits, max_stones);
        let total = ranks.offset[max_stones as usize + 1];
        Some(Endgame {
            ranks,
            values: Values::owned(huge_vec(total as usize, cancel, || AtomicI8::new(UNKNOWN))?),
        })
    }

    /// A complete database of `pits` pits and at most `max_stones` stones
    /// whose values are `packed`.
    pub(super) fn packed(pits: usize, max_stones: u32, packed: packed::PackedBuf) -> Endgame {
        let ranks = Ranks::new(pits, max_stones);
        let positions = ranks.offset[max_stones as usize + 1] as usize;
        Endgame {
            ranks,
            values: Values::packed(packed, positions),
        }
    }

    /// Writes the values of the first `positions` positions to `w`, a
    /// byte each (a database file's body, and the part of a solve's
    /// checkpoint after its table), a megabyte at a time: the database is
    /// too large to copy whole, and threads may still be filling it.
    pub(crate) fn write_values<W: Write + ?Sized>(
        &self,
        positions: usize,
        w: &mut W,
    ) -> std::io::Result<()> {
        let mut buf = vec![0u8; 1 << 20];
        for chunk in self.values.bytes()[..positions].chunks(buf.len()) {
            for (b, v) in buf.iter_mut().zip(chunk) {
                *b = v.load(Ordering::Relaxed) as u8;
            }
            w.write_all(&buf[..chunk.len()])?;
        }
        Ok(())
    }

    /// Reads every value from `r` as [`Endgame::write_values`] wrote them,
    /// into a database that may be shared already (a solver's, resumed
    /// from its checkpoint).
    pub(crate) fn read_values(&self, r: &mut impl Read) -> std::io::Result<()> {
        let mut buf = vec![0u8; 1 << 20];
        for chunk in self.values.bytes().chunks(buf.len()) {
            let bytes = &mut buf[..chunk.len()];
            r.read_exact(bytes)?;
            for (v, &b) in chunk.iter().zip(bytes.iter()) {
                v.store(b as i8, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    #[cfg(test)]
    pub(super) fn rank(&self, pits: &[u8]) -> usize {
        let total: u32 = pits.iter().map(|&c| c as u32).sum();
        self.ranks.rank(pits.iter(), total) as usize
    }

    /// Every value in rank order, `None` for a position with a side empty
    /// (the game is over there: never probed, and not kept exactly by a
    /// packed database): what two databases of the same positions are
    /// compared by.
    #[cfg(test)]
    pub(super) fn every_value(&self, n: usize) -> Vec<Option<i8>> {
        let m = 2 * n;
        let mut out = Vec::with_capacity(self.values.len());
        let mut pits = self.ranks.unrank(0);
        let mut total = 0;
        for r in 0..self.values.len() {
            let over = pits[..n].iter().all(|&c| c == 0) || pits[n..m].iter().all(|&c| c == 0);
            out.push((!over).then(|| self.values.get(r, total)));
            if !next_composition(&mut pits[..m]) && r + 1 < self.values.len() {
                total += 1;
                pits = self.ranks.unrank(r as u64 + 1);
            }
        }
        out
    }

    /// The rank of a position as the search holds it (`cells`: the
    /// mover's `n` pits, the store, the opponent's `n` pits), given the
    /// `total` stones in its pits, which the caller has already summed to
    /// see that it is in the database.
    #[inline]
    pub(super) fn rank_cells(&self, cells: &Cells, n: usize, total: u32) -> usize {
        self.ranks.rank_cells(cells, n, total) as usize
    }

    /// Exact future value of the position whose pits (mover's n, then the
    /// opponent's n) are `pits`, by plain negamax memoised here: the
    /// on-demand fill before [`Endgame::fill`], kept as the reference the
    /// tests check the database against.
    #[cfg(test)]
    fn value(&self, pits: &[u8], n: usize, rules: Rules) -> i32 {
        let r = self.rank(pits);
        let v = self.values.bytes()[r].load(Ordering::Relaxed);
        if v != UNKNOWN {
            return v as i32;
        }
        let len = 2 * n + 1;
        let mut best = i32::MIN;
        for from in 0..n {
            if pits[from] == 0 {
                continue;
            }
            let mut ring = [0u8; CYCLE_CAP];
            ring[..n].copy_from_slice(&pits[..n]);
            ring[n + 1..len].copy_from_slice(&pits[n..2 * n]);
            let end = pick::play(&mut ring[..len], from, rules);
            let gain = ring[n] as i32;
            ring[n] = 0;
            let own = sum(&ring[..n]) as i32;
            let opp = sum(&ring[n + 1..len]) as i32;
            let v = if own == 0 || opp == 0 {
                gain + own - opp
            } else {
                let mut child = [0u8; CYCLE_CAP];
                if end == PickEnd::FreeTurn {
                    child[..n].copy_from_slice(&ring[..n]);
                    child[n..2 * n].copy_from_slice(&ring[n + 1..len]);
                    gain + self.value(&child[..2 * n], n, rules)
                } else {
                    child[..n].copy_from_slice(&ring[n + 1..len]);
                    child[n..2 * n].copy_from_slice(&ring[..n]);
                    gain - self.value(&child[..2 * n], n, rules)
                }
            };
            best = best.max(v);
        }
        self.values.bytes()[r].store(best as i8, Ordering::Relaxed);
        best
    }
}

impl Ranks {
    /// The stones of the position of rank `r`.
    fn total_of(&self, r: usize) -> u32 {
        self.offset.partition_point(|&o| o <= r as u64) as u32 - 1
    }

    /// Positions with exactly `t` stones.
    fn layer_len(&self, t: u32) -> u64 {
        self.offset[t as usize + 1] - self.offset[t as usize]
    }

    /// The counts of rank `r` (below the total count), `pits` of them.
    pub(super) fn unrank(&self, mut r: u64) -> [u8; CYCLE_CAP] {
        let side = self.max_stones as usize + 1;
        let mut left = (0..=self.max_stones as usize)
            .rfind(|&t| self.offset[t] <= r)
            .unwrap_or(0);
        r -= self.offset[left];
        let m = self.pits;
        let mut out = [0u8; CYCLE_CAP];
        for (j, o) in out.iter_mut().enumerate().take(m - 1) {
            let parts = m - j - 1;
            let row = &self.below[(parts * side + left) * side..][..side];
            // The largest c <= left whose count of smaller first pits is <= r.
            let c = (0..=left).rfind(|&c| row[c] <= r).unwrap_or(0);
            r -= row[c];
            *o = c as u8;
            left -= c;
        }
        out[m - 1] = left as u8;
        out
    }
}

/// The counts after `c` (`m` pits, the same total) in rank order: the
/// next composition in lexicographic order. False after the last.
fn next_composition(c: &mut [u8]) -> bool {
    let m = c.len();
    // The last pit that may take a stone from those after it.
    let Some(p) = c.iter().rposition(|&x| x > 0) else {
        return false;
    };
    let j = if p == m - 1 {
        if m < 2 {
            return false;
        }
        m - 2
    } else if p == 0 {
        return false;
    } else {
        p - 1
    };
    let rest: u32 = c[j + 1..].iter().map(|&x| x as u32).sum::<u32>() - 1;
    c[j] += 1;
    c[j + 1..].fill(0);
    c[m - 1] = rest as u8;
    true
}

/// A position of the endgame database with its children played and
/// ranked ([`Endgame::plan_into`]): the children that are positions (each
/// played once and kept, for the fill that an unknown one needs), and the
/// best value of the picks that end the game.
#[derive(Clone, Copy)]
struct Plan {
    kids: [Kid; rules::MAX_PITS_PER_SIDE],
    count: usize,
    best: i32,
    /// The stones in the position's pits.
    total: u32,
}

impl Plan {
    const EMPTY: Plan = Plan {
        kids: [Kid {
            rank: 0,
            total: 0,
            gain: 0,
            free: false,
            cells: [0; CYCLE_CAP],
        }; rules::MAX_PITS_PER_SIDE],
        count: 0,
        best: i32::MIN,
        total: 0,
    };
}

/// A child of a database position: its rank, the stones the pick put in
/// the mover's store, whether the mover picks again, and its cells from
/// its own mover's view (stores zero).
#[derive(Clone, Copy)]
struct Kid {
    rank: usize,
    total: u32,
    gain: i32,
    free: bool,
    cells: Cells,
}

/// The cells of the pit counts `pits` (the mover's `n`, then the
/// opponent's `n`, as [`Ranks`] orders them): the mover's pits, an empty
/// store, the opponent's pits, an empty store.
#[inline]
fn cells_of(pits: &[u8; CYCLE_CAP], n: usize) -> Cells {
    let mut c = [0u8; CYCLE_CAP];
    for i in 0..n {
        c[i] = pits[i];
        c[n + 1 + i] = pits[n + i];
    }
    c
}

/// Ask the CPU to bring the cache line of `p` in (a hint: no effect on
/// what the program computes).
#[inline]
pub(super) fn prefetch_line<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault;
    // `p` is a reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            p as *const T as *const i8,
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl Endgame {
    /// Fills the whole database, layer by layer from the fewest stones up,
    /// on `threads` threads; false when `cancel` stopped it (the values
    /// written are exact, the rest are filled on demand). A pick either
    /// lowers the stones in the pits (into a finished layer: one load) or,
    /// ending the turn on the mover's own side without a capture, keeps
    /// them and moves stones towards the mover's store, so that the
    /// recursion inside a layer is short. Each position's children are
    /// played and ranked before any is loaded, so their cache misses
    /// overlap (the on-demand fill waited for each in turn). Threads take
    /// chunks of a layer; two that meet the same position write the same
    /// value.
    pub(super) fn build(
        &self,
        n: usize,
        rules: Rules,
        threads: usize,
        cancel: &AtomicBool,
    ) -> bool {
        let done = AtomicU64::new(0);
        (0..=self.ranks.max_stones).all(|t| {
            self.build_layer(t, n, rules, threads, cancel, &|k| {
                done.fetch_add(k, Ordering::Relaxed);
            })
        })
    }

    /// [`Endgame::build`] for the positions of exactly `t` stones, all of
    /// whose children with fewer stones are filled, `done` counting the
    /// positions as they are finished (a share of a layer, for a progress
    /// that moves within one); false when `cancel` stopped it.
    fn build_layer(
        &self,
        t: u32,
        n: usize,
        rules: Rules,
        threads: usize,
        cancel: &AtomicBool,
        done: &(dyn Fn(u64) + Sync),
    ) -> bool {
        const CHUNK: u64 = 1 << 14;
        const BATCH: usize = 8;
        let m = 2 * n;
        let t = t as usize;
        let (start, end) = (self.ranks.offset[t], self.ranks.offset[t + 1]);
        let next = AtomicU64::new(start);
        let work = || {
            let mut batch = [(0usize, Plan::EMPTY); BATCH];
            while !cancel.load(Ordering::Relaxed) {
                let from = next.fetch_add(CHUNK, Ordering::Relaxed);
                if from >= end {
                    break;
                }
                // In rank order: neighbours in rank share most of their
                // children's lines (filling with the sides swapped, to
                // share the mover's side instead, measures slower; see
                // docs/notebook/game-solver.md#endgame-lab-notes).
                // Planned BATCH positions at a time, their children's
                // lines prefetched, then finished: the misses of the
                // whole batch overlap.
                let mut c = self.ranks.unrank(from);
                let stop = end.min(from + CHUNK);
                let mut r = from;
                while r < stop {
                    let mut planned = 0;
                    while r < stop && planned < BATCH {
                        if self.values.get(r as usize, t as u32) == UNKNOWN {
                            let (pr, plan) = &mut batch[planned];
                            *pr = r as usize;
                            self.plan_into(plan, &cells_of(&c, n), n, rules, true);
                            planned += 1;
                        }
                        next_composition(&mut c[..m]);
                        r += 1;
                    }
                    for (pr, plan) in &batch[..planned] {
                        // Stopped, the loop above ends at its next chunk.
                        let _ = self.finish(plan, *pr, n, rules, cancel);
                    }
                }
                done(stop - from);
            }
        };
        if threads <= 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
        }
        !cancel.load(Ordering::Relaxed)
    }

    /// The value of the position `cells` (the search's form: the mover's
    /// pits, an empty store, the opponent's pits) of rank `r`, its
    /// children loaded together (see [`Endgame::build`]); written to the
    /// database. `None` when `cancel` was raised first: on a wide board
    /// one fill can visit millions of positions (seconds), and a stop must
    /// be heard within them. Only finished values are written, so a
    /// stopped fill leaves the database right.
    pub(super) fn fill(
        &self,
        cells: &Cells,
        r: usize,
        n: usize,
        rules: Rules,
        cancel: &AtomicBool,
    ) -> Option<i32> {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut plan = Plan::EMPTY;
        self.plan_into(&mut plan, cells, n, rules, false);
        self.finish(&plan, r, n, rules, cancel)
    }

    /// The children of `cells` played and ranked into `p`, their values
    /// not yet loaded; with `prefetch`, their cache lines asked for, so
    /// that a batch of positions waits for all its misses at once. Each
    /// child is played in its own slot of `p`, and a batch reuses its
    /// plans: making a plan anew, and moving it into the batch, wrote most
    /// of a kilobyte a position.
    fn plan_into(&self, p: &mut Plan, cells: &Cells, n: usize, rules: Rules, prefetch: bool) {
        match n {
            6 => self.plan_of::<6>(p, cells, rules, prefetch),
            _ => self.plan_any::<0>(p, cells, n, rules, prefetch),
        }
    }

    /// [`Endgame::plan_into`] compiled for `N` pits a side: GamePigeon's
    /// board, with its size known, loses its bounds checks and its loops
    /// over the pits (a sixth of the build's instructions).
    fn plan_of<const N: usize>(&self, p: &mut Plan, cells: &Cells, rules: Rules, prefetch: bool) {
        self.plan_any::<N>(p, cells, N, rules, prefetch)
    }

    /// [`Endgame::plan_into`] for any board (`N` is 0, or `n` when known
    /// at compile time).
    #[inline(always)]
    fn plan_any<const N: usize>(
        &self,
        p: &mut Plan,
        cells: &Cells,
        n: usize,
        rules: Rules,
        prefetch: bool,
    ) {
        let len = 2 * n + 1;
        p.count = 0;
        p.best = i32::MIN;
        let total = sum(&cells[..n]) + sum(&cells[n + 1..=2 * n]);
        p.total = total;
        for from in 0..n {
            if cells[from] == 0 {
                continue;
            }
            let kid = &mut p.kids[p.count];
            kid.cells = *cells;
            let end = pick::play(&mut kid.cells[..len], from, rules);
            let gain = kid.cells[n] as i32;
            kid.cells[n] = 0;
            if a_side_is_empty(&kid.cells, n) {
                // The pick ends the game: each side keeps its stones.
                let own = sum(&kid.cells[..n]) as i32;
                let opp = sum(&kid.cells[n + 1..len]) as i32;
                p.best = p.best.max(gain + own - opp);
                continue;
            }
            kid.free = end == PickEnd::FreeTurn;
            if !kid.free {
                flip_word::<N>(&mut kid.cells, n);
            }
            kid.gain = gain;
            kid.total = total - gain as u32;
            kid.rank = self.ranks.rank_cells(&kid.cells, n, kid.total) as usize;
            if prefetch {
                self.values.prefetch(kid.rank);
            }
            p.count += 1;
        }
    }

    /// The value of the position planned in `plan`, of rank `r`: its
    /// children's values loaded (the unknown ones filled first), written
    /// to the database.
    fn finish(
        &self,
        plan: &Plan,
        r: usize,
        n: usize,
        rules: Rules,
        cancel: &AtomicBool,
    ) -> Option<i32> {
        let kids = &plan.kids[..plan.count];
        let mut vals = [0i8; rules::MAX_PITS_PER_SIDE];
        for (v, k) in vals.iter_mut().zip(kids) {
            *v = self.values.get(k.rank, k.total);
        }
        let mut best = plan.best;
        for (&v, k) in vals.iter().zip(kids) {
            let v = if v == UNKNOWN {
                self.fill(&k.cells, k.rank, n, rules, cancel)?
            } else {
                v as i32
            };
            best = best.max(if k.free { k.gain + v } else { k.gain - v });
        }
        self.values.set(r, best as i8, plan.total);
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Capture;
    use std::path::Path;

    /// The first lines of the database files kept in the repository (the
    /// fuzzer's seeds, written before the header was the shared one, each
    /// after one byte that chooses the fuzzer's board) read, and write back
    /// byte for byte; a line with a key more is refused.
    #[test]
    fn endgame_headers_read_and_write_back_the_same_line() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/endgame_db");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let line = bytes[1..].split(|&b| b == b'\n').next().unwrap();
            let line = std::str::from_utf8(line).unwrap();
            let h: EndgameHeader = serde_json::from_str(line).unwrap();
            // Written in the first format, which is still read.
            assert_eq!(h.header.format, ENDGAME_FORMAT_BYTES);
            assert_eq!(serde_json::to_string(&h).unwrap(), line);
            let more = line.replacen('{', "{\"more\":1,", 1);
            assert!(
                serde_json::from_str::<EndgameHeader>(&more).is_err(),
                "{more}"
            );
            read += 1;
        }
        assert!(read >= 3, "only {read} files");
    }

    #[test]
    fn endgame_rank_is_dense() {
        let db = Endgame::new(4, 3);
        let mut seen = vec![false; db.values.len()];
        for a in 0..=3u8 {
            for b in 0..=3 - a {
                for c in 0..=3 - a - b {
                    for d in 0..=3 - a - b - c {
                        let r = db.rank(&[a, b, c, d]);
                        assert!(!seen[r]);
                        seen[r] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// Unranking inverts the rank, and the next composition in rank order
    /// has the next rank, for every count of at most 7 stones in 6 pits.
    #[test]
    fn unrank_and_next_follow_the_rank() {
        let ranks = Ranks::new(6, 7);
        let total = ranks.offset[8];
        let mut c = ranks.unrank(0);
        for r in 0..total {
            let u = ranks.unrank(r);
            assert_eq!(u, c, "rank {r}");
            let t: u32 = u[..6].iter().map(|&x| x as u32).sum();
            assert_eq!(ranks.rank(u[..6].iter(), t), r);
            if !next_composition(&mut c[..6]) {
                c = ranks.unrank(r + 1);
            }
        }
    }

    /// The search's rank of a position's cells (two loads a pit from the
    /// small `tail` table) is [`Ranks::rank`] of its pits, for every
    /// position of at most 9 stones on 2, 3 and 6 pits a side.
    #[test]
    fn rank_of_cells_is_the_rank_of_the_pits() {
        for (n, most) in [(2usize, 9u32), (3, 9), (6, 7)] {
            let ranks = Ranks::new(2 * n, most);
            for r in 0..ranks.offset[most as usize + 1] {
                let pits = ranks.unrank(r);
                let total: u32 = pits[..2 * n].iter().map(|&c| c as u32).sum();
                let cells = cells_of(&pits, n);
                assert_eq!(cells[n], 0);
                assert_eq!(
                    ranks.rank_cells(&cells, n, total),
                    r,
                    "{:?}",
                    &pits[..2 * n]
                );
                assert_eq!(ranks.rank(pits[..2 * n].iter(), total), r);
            }
        }
    }

    /// The database built bottom-up holds, for every position with stones
    /// on both sides, the value the on-demand negamax finds, for each capture rule, with relay, on
    /// boards of 2 to 4 pits a side and on 6 (the board the build has a
    /// path of its own for), on one thread and on three.
    #[test]
    fn endgame_built_bottom_up_agrees_with_negamax() {
        let cancel = AtomicBool::new(false);
        for rules in [
            Rules::KALAH,
            Rules {
                capture: Capture::Empty,
                ..Rules::KALAH
            },
            Rules {
                capture: Capture::None,
                ..Rules::KALAH
            },
            Rules::AVALANCHE,
        ] {
            for (n, stones) in [(2, 9), (3, 8), (4, 6), (6, 5)] {
                for threads in [1, 3] {
                    let built = Endgame::new(2 * n, stones);
                    assert!(built.build(n, rules, threads, &cancel));
                    let lazy = Endgame::new(2 * n, stones);
                    for r in 0..built.values.len() as u64 {
                        let pits = built.ranks.unrank(r);
                        if pits[..n].iter().all(|&c| c == 0)
                            || pits[n..2 * n].iter().all(|&c| c == 0)
                        {
                            continue; // the game is over: never asked
                        }
                        let want = lazy.value(&pits[..2 * n], n, rules);
                        let got = built.values.bytes()[r as usize].load(Ordering::Relaxed);
                        assert_eq!(got as i32, want, "{rules:?} {n} {:?}", &pits[..2 * n]);
                    }
                }
            }
        }
    }
}
