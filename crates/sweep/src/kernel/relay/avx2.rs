//! The streaming kernel on AVX2: the lanes of [`super::avx512`]'s stream,
//! two to a 256-bit register.
//!
//! Every 16-byte lane holds one record (a ring, the pick in byte 13, the
//! node in bytes 14 and 15), as on AVX-512, and `vpshufb` shuffles within
//! each 16-byte lane, which is exactly the look-up a ring needs: where the
//! last stone landed, and how many stones the next sowing takes. What
//! AVX2 lacks is done otherwise:
//!
//! - no byte masks: a lane's liveness is a byte vector (`0xFF` on every
//!   byte of a live lane), and the blends are `vpblendvb`;
//! - no `vpermi2b` lap tables: laps and rest always come from the 16-bit
//!   reciprocal multiply, spread over the lane by one pack and two shuffles;
//! - no compress and expand: a register's two lanes are written out and
//!   refilled one at a time, without a branch: each lane's record is stored
//!   at the end of both outputs and exactly one of the two counts (or
//!   neither, when the lane has not ended) moves on, and every lane loads
//!   the next input record (or a dead dummy when the input is used up) and
//!   keeps it only if it has just ended;
//! - no compress of a key's separators: [`records`] finds them one at a
//!   time with bit scans, and writes each pick's record at the end of the
//!   ones written, moving on past the legal ones.
//!
//! There is no lockstep `play` here: the listing pass and `find` use the
//! scalar engine where this is the kernel.

use super::Picks;
use std::arch::x86_64::*;

/// Lane constants; vectors repeat them in each 16-byte lane.
#[derive(Clone, Copy)]
pub struct Consts {
    /// Byte `j` of a lane is `j`: counter indices.
    j: __m256i,
    /// Byte `j` of a lane is `j - 1` on the ring counters, and 100 past
    /// them: far enough from every `from` that no stone of a sowing is
    /// counted there (see [`step`]).
    j_minus_one: __m256i,
    /// 0 on the ring counters, `0x80` past them: a shuffle by it spreads
    /// byte 0 over the counters and zeroes the rest.
    on_counters: __m256i,
    /// `0xFF` on every byte but the own store: the store never relays.
    not_store: __m256i,
    /// `0xFF` on byte 13 of each lane: where a record keeps its pick.
    byte13: __m256i,
    /// 13 in every byte: a shuffle that spreads byte 13 over its lane.
    tag13: __m256i,
    /// 16 in every byte: pick indices below it are real ones.
    sixteen: __m256i,
    /// Every byte is the ring length.
    len: __m256i,
    /// Every 16-bit word is the ring length.
    len16: __m256i,
    /// Every byte is the own store's index.
    store: __m256i,
    /// Every 16-bit word is `ceil(65536 / len)`.
    reciprocal: __m256i,
    /// `0x00FF` in every 16-bit word.
    low: __m256i,
    /// Shuffle from a key's pit counts to a ring with a hole at the own
    /// store.
    unkey: __m128i,
    one: __m256i,
    /// Shuffle that packs a lane's pits to its front, the own store left
    /// out, as a key codes them.
    pits: __m256i,
    /// 1 on the bytes whose pit has a separator after it in the key.
    separated: __m256i,
    /// Pits a side.
    n: usize,
    /// A pit can hold 128 stones or more: counts are compared unsigned.
    wide: bool,
    relay: bool,
}

impl Consts {
    #[target_feature(enable = "avx2")]
    pub fn new(n: usize, stones: usize, relay: bool) -> Consts {
        let len = 2 * n + 1;
        let mut j = [0u8; 32];
        let mut j_minus_one = [100u8; 32];
        let mut on_counters = [0x80u8; 32];
        let mut not_store = [0xFFu8; 32];
        let mut byte13 = [0u8; 32];
        let mut pits = [0x80u8; 32];
        let mut separated = [0u8; 32];
        let mut unkey = [0x80u8; 16];
        for lane in 0..2 {
            for b in 0..16 {
                j[16 * lane + b] = b as u8;
                if b < len {
                    j_minus_one[16 * lane + b] = (b as u8).wrapping_sub(1);
                    on_counters[16 * lane + b] = 0;
                }
            }
            not_store[16 * lane + n] = 0;
            byte13[16 * lane + 13] = 0xFF;
            for t in 0..2 * n {
                // Pit t of the key is ring index t, or t + 1 past the store.
                let r = if t < n { t } else { t + 1 };
                pits[16 * lane + t] = r as u8;
                unkey[r] = t as u8;
                if t + 1 < 2 * n {
                    separated[16 * lane + t] = 1;
                }
            }
        }
        let one = _mm256_set1_epi8(1);
        Consts {
            j: load(&j),
            j_minus_one: load(&j_minus_one),
            on_counters: load(&on_counters),
            not_store: load(&not_store),
            byte13: load(&byte13),
            tag13: _mm256_set1_epi8(13),
            sixteen: _mm256_set1_epi8(16),
            len: _mm256_set1_epi8(len as i8),
            len16: _mm256_set1_epi16(len as i16),
            store: _mm256_set1_epi8(n as i8),
            reciprocal: _mm256_set1_epi16(super::reciprocal(len) as i16),
            low: _mm256_set1_epi16(0x00FF),
            // SAFETY: reads exactly the 16 bytes of `unkey`.
            unkey: unsafe { _mm_loadu_si128(unkey.as_ptr().cast()) },
            one,
            pits: load(&pits),
            separated: load(&separated),
            n,
            wide: stones >= 128,
            relay,
        }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(bytes: &[u8; 32]) -> __m256i {
    // SAFETY: reads exactly the 32 bytes of `bytes`; unaligned loads are allowed.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Write a record for every legal pick among `picks` of the ring that
/// the 64-bit `key` and `store` code, tagged `node`, to the front of
/// `out`; returns how many. `out` needs room for every pick, rounded up
/// to a multiple of 2.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn records(
    c: &Consts,
    key: u64,
    store: u8,
    node: u16,
    picks: &Picks,
    out: &mut [[u8; 16]],
) -> usize {
    records_of(decode(c, key, store), node, picks, out)
}

/// The ring that the 64-bit `key` and `store` code.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn decode(c: &Consts, key: u64, store: u8) -> __m128i {
    // Where each pit ends, from bit scans; the ends of pits a board does
    // not have are shuffled out below.
    let [lo, hi] = super::pit_ends(key);
    let ends = _mm_set_epi64x(hi as i64, lo as i64);
    // Pit t holds end[t] - end[t - 1] - 1 stones (end[-1] = -1).
    let one = _mm_set1_epi8(1);
    let counts = _mm_sub_epi8(ends, _mm_bslli_si128::<1>(_mm_add_epi8(ends, one)));
    _mm_or_si128(
        _mm_shuffle_epi8(counts, c.unkey),
        _mm_cvtsi64_si128(i64::from(store) << (8 * c.n)),
    )
}

/// [`records`] for every node of `nodes` (its key given by `key`), tagged
/// with its index, one after the other from the front of `out`; the
/// indices of nodes without a legal pick go to `stuck`. Returns how many
/// records were written. One call a batch: called once a node, the call
/// itself (saved registers, `vzeroupper`) was a good part of the records'
/// time, which is twice the AVX-512 kernel's.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn records_batch<T>(
    c: &Consts,
    nodes: &[T],
    key: impl Fn(&T) -> u64,
    store: u8,
    picks: &Picks,
    out: &mut [[u8; 16]],
    stuck: &mut Vec<u16>,
) -> usize {
    super::records_batch_loop!(nodes, out, stuck, |node, i, rest| records_of(
        decode(c, key(node), store),
        i as u16,
        picks,
        rest
    ))
}

/// [`records`] for a packed ring of at most 13 counters.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn records_ring(
    _c: &Consts,
    ring: [u64; 2],
    node: u16,
    picks: &Picks,
    out: &mut [[u8; 16]],
) -> usize {
    // SAFETY: reads exactly the 16 bytes of `ring`.
    let ring = unsafe { _mm_loadu_si128(ring.as_ptr().cast()) };
    records_of(ring, node, picks, out)
}

/// The records of `ring`: two a register, the pick or-ed into byte 13 of
/// each lane from the tags of `picks`, each stored at the end of the
/// records written so far, which a legal pick moves on.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn records_of(ring: __m128i, node: u16, picks: &Picks, out: &mut [[u8; 16]]) -> usize {
    let pairs = picks.len.div_ceil(2);
    assert!(
        out.len() >= 2 * pairs,
        "room for every pick, rounded up to 2"
    );
    let ring = _mm_insert_epi16::<7>(ring, i32::from(node));
    let filled = !_mm_movemask_epi8(_mm_cmpeq_epi8(ring, _mm_setzero_si128())) as u32;
    // Bit i: pick i is from a non-empty counter (the picks are in
    // increasing order, so a bit gather keeps them in order).
    let legal = _pext_u32(filled, picks.mask);
    let rings = _mm256_broadcastsi128_si256(ring);
    let tags: *const u8 = picks.tags.as_ptr().cast();
    let dst: *mut [u8; 16] = out.as_mut_ptr();
    let mut m = 0;
    for p in 0..pairs {
        // SAFETY: the tags are 256 bytes, 16 a pick, of which these are
        // the 32 bytes of picks 2p and 2p + 1 (p < 7). `m` is at most 2p,
        // and `out` has room for 2 records from 2p on (asserted above).
        unsafe {
            let records = _mm256_or_si256(rings, _mm256_loadu_si256(tags.add(32 * p).cast()));
            _mm_storeu_si128(dst.add(m).cast(), _mm256_castsi256_si128(records));
            m += (legal >> (2 * p)) as usize & 1;
            _mm_storeu_si128(dst.add(m).cast(), _mm256_extracti128_si256::<1>(records));
            m += (legal >> (2 * p + 1)) as usize & 1;
        }
    }
    m
}

/// Running sums (see [`super::Landings::sums`]) of every record's ring.
#[target_feature(enable = "avx2")]
pub fn sums(c: &Consts, records: &[[u8; 16]], out: &mut Vec<[u8; 16]>) {
    out.clear();
    out.reserve(records.len() + 2);
    let dst: *mut [u8; 16] = out.as_mut_ptr();
    let mut pairs = records.chunks_exact(2);
    for (i, two) in pairs.by_ref().enumerate() {
        // SAFETY: reads the 32 bytes of the two records of `two`; writes two
        // records at `2i`, within the `len + 2` reserved.
        unsafe {
            let rings = _mm256_loadu_si256(two.as_ptr().cast());
            _mm256_storeu_si256(dst.add(2 * i).cast(), running_sums(c, rings));
        }
    }
    if let [last] = pairs.remainder() {
        // SAFETY: reads the 16 bytes of `last`; writes two records at the
        // last one's index, within the `len + 2` reserved.
        unsafe {
            let rings = _mm256_zextsi128_si256(_mm_loadu_si128(last.as_ptr().cast()));
            _mm256_storeu_si256(dst.add(records.len() - 1).cast(), running_sums(c, rings));
        }
    }
    // SAFETY: every record's sums were stored above.
    unsafe { out.set_len(records.len()) };
}

/// Running sums within each lane: four shifted adds.
#[inline]
#[target_feature(enable = "avx2")]
fn running_sums(c: &Consts, rings: __m256i) -> __m256i {
    let pits = _mm256_shuffle_epi8(rings, c.pits);
    let mut sums = _mm256_add_epi8(pits, c.separated);
    sums = _mm256_add_epi8(sums, _mm256_bslli_epi128::<1>(sums));
    sums = _mm256_add_epi8(sums, _mm256_bslli_epi128::<2>(sums));
    sums = _mm256_add_epi8(sums, _mm256_bslli_epi128::<4>(sums));
    _mm256_add_epi8(sums, _mm256_bslli_epi128::<8>(sums))
}

/// Play every record of `input` to the end of its relay chain, appending
/// the results to `free` (last stone in the own store) or `over`, in the
/// order they finish, with byte 13 set to where the last stone landed.
/// Eight lanes (four registers) are in flight; a lane whose chain ends is
/// written out and refilled from `input` at once.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn stream(c: &Consts, input: &[[u8; 16]], free: &mut Vec<[u8; 16]>, over: &mut Vec<[u8; 16]>) {
    if c.wide {
        stream_with::<true>(c, input, free, over)
    } else {
        stream_with::<false>(c, input, free, over)
    }
}

/// A register of two lanes in flight: the records, where each lane sows
/// from next, and `0xFF` on every byte of the live lanes (whole lanes, so
/// that a lane's end is a mask of whole lanes for the refill's blends
/// without a shuffle to spread it). (The stones
/// to sow are read from the ring at each step: a fourth register for them
/// is one more to spill, AVX2 having only 16.)
#[derive(Clone, Copy)]
struct Pair {
    ring: __m256i,
    from: __m256i,
    live: __m256i,
}

/// A record no lane plays: its pick, 127, is no counter (a shuffle by it
/// reads the zero in byte 15), so a lane refilled with it stays dead.
const DUMMY: [u8; 16] = {
    let mut d = [0u8; 16];
    d[13] = 127;
    d
};

/// Refill the lanes of register `$r` whose (whole-lane) mask `$ended` is
/// set, as bit 0 and 16 of `$bits` say, from the records at `$src + $next`,
/// moving `$next` on past the ones taken. A macro, not a function, so that
/// [`stream_with`]'s loop keeps its state in registers: it expands where
/// it did when it was written inside that function.
macro_rules! refill {
    ($c:ident, $src:ident, $next:ident, $r:ident, $ended:expr, $bits:expr) => {{
        let bits = $bits as usize;
        let lanes = $ended;
        // SAFETY: `next` is below the input's length, or `src` is the
        // tail and `next` within it (see `tail`): both reads are of 16
        // bytes of a record or a dummy.
        let fresh = unsafe {
            let p0 = $src.add($next);
            $next += bits & 1;
            let p1 = $src.add($next);
            $next += (bits >> 16) & 1;
            _mm256_loadu2_m128i(p1.cast(), p0.cast())
        };
        $r.ring = _mm256_blendv_epi8($r.ring, fresh, lanes);
        $r.from = _mm256_blendv_epi8($r.from, _mm256_shuffle_epi8(fresh, $c.tag13), lanes);
        let real = _mm256_cmpgt_epi8($c.sixteen, $r.from);
        $r.live = _mm256_or_si256($r.live, _mm256_and_si256(lanes, real));
    }};
}

/// One sowing of register `$r`: the lanes that end are written at the
/// end of both outputs (`$to_free`, `$to_over`), the right one's pointer
/// moves on, and they are refilled; evaluates to the lanes still live. A
/// macro for the same reason as [`refill!`].
macro_rules! turn {
    ($wide:ident, $c:ident, $src:ident, $next:ident, $to_free:ident, $to_over:ident, $r:ident) => {{
        let relay = step::<$wide>($c, &mut $r);
        let ended = _mm256_andnot_si256(relay, $r.live);
        $r.live = relay;
        let record = _mm256_blendv_epi8($r.ring, $r.from, $c.byte13);
        let home = _mm256_cmpeq_epi8($r.from, $c.store);
        let done = _mm256_movemask_epi8(ended) as u32 & 0x0001_0001;
        let free_bits = _mm256_movemask_epi8(home) as u32 & done;
        let over_bits = done ^ free_bits;
        // SAFETY: each output has room for `input.len() + 2` records;
        // each record is counted once, when its lane ends, so no more
        // than `input.len()` are counted before any of these stores,
        // which are all within the room (a record not counted is
        // overwritten or left past the length).
        unsafe {
            let lo = _mm256_castsi256_si128(record);
            let hi = _mm256_extracti128_si256::<1>(record);
            _mm_storeu_si128($to_free.cast(), lo);
            _mm_storeu_si128($to_over.cast(), lo);
            $to_free = $to_free.add(free_bits as usize & 1);
            $to_over = $to_over.add(over_bits as usize & 1);
            _mm_storeu_si128($to_free.cast(), hi);
            _mm_storeu_si128($to_over.cast(), hi);
            $to_free = $to_free.add((free_bits >> 16) as usize);
            $to_over = $to_over.add((over_bits >> 16) as usize);
        }
        refill!($c, $src, $next, $r, ended, done);
        $r.live
    }};
}

#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn stream_with<const WIDE: bool>(
    c: &Consts,
    input: &[[u8; 16]],
    free: &mut Vec<[u8; 16]>,
    over: &mut Vec<[u8; 16]>,
) {
    // Every lane's record is stored at the end of both outputs, whether or
    // not it ended: one past the records written.
    for out in [&mut *free, &mut *over] {
        out.clear();
        out.reserve(input.len() + 2);
    }
    // Where the next record of each output goes.
    let (mut to_free, mut to_over) = (free.as_mut_ptr(), over.as_mut_ptr());
    // Lanes read the input at `src + next`, with no check of its end: once
    // fewer than `IN_FLIGHT` records are left, the rest is copied to
    // `tail`, followed by dummies, and read from there. At most one record
    // a lane in flight and one per record left are taken after the switch
    // (a dummy lane never ends), so 2 * IN_FLIGHT + 1 slots suffice.
    const IN_FLIGHT: usize = 6;
    let mut tail = [DUMMY; 2 * IN_FLIGHT + 2];
    let mut src = input.as_ptr();
    let mut in_tail = false;
    let mut next = 0usize;
    let switch = |src: &mut *const [u8; 16], next: &mut usize, tail: &mut [[u8; 16]; 14]| {
        let rest = &input[*next..];
        tail[..rest.len()].copy_from_slice(rest);
        *src = tail.as_ptr();
        *next = 0;
    };
    let zero = _mm256_setzero_si256();
    let start = Pair {
        ring: zero,
        from: zero,
        live: zero,
    };
    // Three registers of two lanes, each its own variables (as in the
    // AVX-512 stream), and no branch but the loop's. AVX2 has 16 vector
    // registers: with four in flight more of them spill to the stack, and
    // with two the lanes wait on each other's latency (both measured
    // slower; docs/notebook/one-turn-search.md#avx2-lab-notes).
    let [mut a, mut b, mut d] = [start; 3];
    if input.len() < IN_FLIGHT {
        switch(&mut src, &mut next, &mut tail);
        in_tail = true;
    }
    for r in [&mut a, &mut b, &mut d] {
        let all = _mm256_set1_epi8(-1);
        let r = &mut *r;
        refill!(c, src, next, r, all, 0x0001_0001);
    }
    loop {
        // A turn of all three registers takes at most IN_FLIGHT records.
        if !in_tail && next + IN_FLIGHT > input.len() {
            switch(&mut src, &mut next, &mut tail);
            in_tail = true;
        }
        let la = turn!(WIDE, c, src, next, to_free, to_over, a);
        let lb = turn!(WIDE, c, src, next, to_free, to_over, b);
        let ld = turn!(WIDE, c, src, next, to_free, to_over, d);
        let any = _mm256_or_si256(_mm256_or_si256(la, lb), ld);
        if _mm256_testz_si256(any, any) != 0 {
            break;
        }
    }
    // SAFETY: both pointers moved on within their output, from its start.
    let (frees, overs) = unsafe {
        (
            to_free.offset_from(free.as_ptr()) as usize,
            to_over.offset_from(over.as_ptr()) as usize,
        )
    };
    assert_eq!(frees + overs, input.len(), "every record comes out once");
    // SAFETY: the first `frees` and `overs` records were stored above.
    unsafe {
        free.set_len(frees);
        over.set_len(overs);
    }
}

/// One sowing on every live lane of a register: returns `0xFF` on the
/// lanes that relay on; on the others `from` is where the last stone
/// landed.
#[inline]
#[target_feature(enable = "avx2")]
fn step<const WIDE: bool>(c: &Consts, r: &mut Pair) -> __m256i {
    let k = _mm256_shuffle_epi8(r.ring, r.from);
    // Laps and rest from the reciprocal, the same in every 16-bit word of
    // a lane; put in bytes 0 (laps) and 1 (rest) of each word and spread.
    let k16 = _mm256_and_si256(k, c.low);
    let q16 = mulhi_epu16(k16, c.reciprocal);
    let r16 = _mm256_sub_epi16(k16, _mm256_mullo_epi16(q16, c.len16));
    // Laps on the counters only; the rest on every byte of the lane.
    let laps = _mm256_shuffle_epi8(q16, c.on_counters);
    let rem = _mm256_shuffle_epi8(r16, _mm256_setzero_si256());
    // Counter j is `dist` after `from` (mod len): below `rem` it gets one
    // more stone. Small values, so the signed compares are exact. Past the
    // counters `dist` is at least 87 (see `j_minus_one`) and the laps are
    // zero, so bytes 13 to 15 (the pick and the node) gain nothing without
    // a mask; dead lanes gain garbage, which nothing reads (they never end,
    // so they are never written out).
    let d = _mm256_sub_epi8(c.j_minus_one, r.from);
    let dist = _mm256_min_epu8(d, _mm256_add_epi8(d, c.len));
    let mut gain = _mm256_sub_epi8(laps, _mm256_cmpgt_epi8(rem, dist));
    gain = _mm256_sub_epi8(gain, _mm256_and_si256(_mm256_cmpeq_epi8(c.j, r.from), k));
    r.ring = _mm256_add_epi8(r.ring, gain);
    let l = _mm256_add_epi8(r.from, rem);
    let last = _mm256_min_epu8(l, _mm256_sub_epi8(l, c.len));
    r.from = last;
    if !c.relay {
        return _mm256_setzero_si256();
    }
    // The stones where the last one landed, with the own store read as
    // empty: a chain relays on from a counter that now holds more than one.
    let here = _mm256_shuffle_epi8(_mm256_and_si256(r.ring, c.not_store), last);
    if WIDE {
        let one_or_less = _mm256_cmpeq_epi8(_mm256_subs_epu8(here, c.one), _mm256_setzero_si256());
        _mm256_andnot_si256(one_or_less, r.live)
    } else {
        _mm256_and_si256(_mm256_cmpgt_epi8(here, c.one), r.live)
    }
}

/// `_mm256_mulhi_epu16` as the one instruction it names. The intrinsic is
/// written as a widening multiply, which LLVM turned here into two
/// multiplies of zero-extended halves, a pack and a permute: five more
/// instructions in every step, three of them on the shuffle port.
#[inline]
#[target_feature(enable = "avx2")]
fn mulhi_epu16(a: __m256i, b: __m256i) -> __m256i {
    let high: __m256i;
    // SAFETY: `vpmulhuw` on registers only: no memory, stack or flags, and
    // the function is only compiled for (and called on) AVX2.
    unsafe {
        std::arch::asm!(
            "vpmulhuw {high}, {a}, {b}",
            high = lateout(ymm_reg) high,
            a = in(ymm_reg) a,
            b = in(ymm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    high
}
