//! The AVX-512 backend: the lockstep kernel (F, BW and VBMI), the stream
//! on VBMI2 (`stream`), and the same stream compiled for F and BW alone
//! (`bw`). How lanes, steps and the stream work is told in the parent
//! module; the AVX2 backend is the sibling `avx2` module.

use super::{Landings, Picks};
use std::arch::x86_64::*;

/// Lane constants; vectors repeat them in each 16-byte lane.
#[derive(Clone, Copy)]
pub struct Consts {
    /// Byte `j` of a lane is `j`: counter indices.
    j: __m512i,
    /// Every byte of lane `l` is `l`.
    lane: __m512i,
    /// Byte indices 0, 16, 32, 48: the first byte of each lane.
    firsts: __m512i,
    /// Byte indices of the own store in each lane.
    stores: __m512i,
    /// Shuffle that packs a lane's pits to its front, the own store
    /// left out, as a key codes them.
    pits: __m512i,
    /// The bytes of each lane whose pit has a separator after it in
    /// the key: all the pits but the last.
    separated: __mmask64,
    /// Shuffle from a key's pit counts to a ring with a hole at the
    /// own store (the inverse of `pits`).
    unkey: __m128i,
    /// Bytes 0..64 in order: bit positions of a key.
    positions: __m512i,
    /// 64 in every byte.
    sixty_four: __m512i,
    /// The own store's ring index.
    store_at: u32,
    /// 13 in every byte: a shuffle that spreads byte 13 over its lane.
    tag13: __m512i,
    /// Byte 13 of each lane.
    byte13: __mmask64,
    /// Every byte is the ring length.
    len: __m512i,
    /// Every 16-bit word is the ring length.
    len16: __m512i,
    /// The bytes that are ring counters.
    counters: __mmask64,
    /// Every byte is the own store's index.
    store: __m512i,
    /// Every 16-bit word is `ceil(65536 / len)`.
    reciprocal: __m512i,
    /// `0x00FF` in every 16-bit word.
    low: __m512i,
    /// `0xFE` in every byte: a counter above 1 has one of these bits.
    above_one: __m512i,
    one: __m512i,
    /// `k / len` and `k % len` for `k` in 0..64 and 64..128.
    laps: [__m512i; 2],
    rest: [__m512i; 2],
    /// Counts stay below 128, so the tables cover them, and the
    /// backend has VBMI to read them.
    tables: bool,
    relay: bool,
}

impl Consts {
    /// The constants for `n` pits a side and at most `stones` stones;
    /// `vbmi` when the backend may use the `vpermi2b` lap tables.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn new(n: usize, stones: usize, relay: bool, vbmi: bool) -> Consts {
        let len = 2 * n + 1;
        let mut j = [0u8; 64];
        let mut lane = [0u8; 64];
        let mut counters = 0u64;
        for (i, (b, l)) in j.iter_mut().zip(&mut lane).enumerate() {
            *b = (i % 16) as u8;
            *l = (i / 16) as u8;
            if i % 16 < len {
                counters |= 1 << i;
            }
        }
        let mut pits = [0x80u8; 64];
        let mut separated = 0u64;
        let mut unkey = [0x80u8; 16];
        let mut positions = [0u8; 64];
        for lane in 0..4 {
            for t in 0..2 * n {
                // Pit t of the key is ring index t, or t + 1 past the store.
                let r = if t < n { t } else { t + 1 };
                pits[16 * lane + t] = r as u8;
                unkey[r] = t as u8;
                if t + 1 < 2 * n {
                    separated |= 1 << (16 * lane + t);
                }
            }
        }
        for (i, p) in positions.iter_mut().enumerate() {
            *p = i as u8;
        }
        let mut laps = [0u8; 128];
        let mut rest = [0u8; 128];
        for k in 0..128 {
            laps[k] = (k / len) as u8;
            rest[k] = (k % len) as u8;
        }
        Consts {
            j: load(&j),
            lane: load(&lane),
            firsts: _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3020_1000),
            stores: _mm512_set1_epi32(0x3020_1000 + 0x0101_0101 * n as i32),
            pits: load(&pits),
            separated,
            unkey: _mm512_castsi512_si128(load(&[unkey; 4].concat().try_into().expect("64"))),
            positions: load(&positions),
            sixty_four: _mm512_set1_epi8(64),
            store_at: n as u32,
            tag13: _mm512_set1_epi8(13),
            byte13: 0x2000_2000_2000_2000,
            len: _mm512_set1_epi8(len as i8),
            len16: _mm512_set1_epi16(len as i16),
            counters,
            store: _mm512_set1_epi8(n as i8),
            reciprocal: _mm512_set1_epi16(super::reciprocal(len) as i16),
            low: _mm512_set1_epi16(0x00FF),
            above_one: _mm512_set1_epi8(0xFEu8 as i8),
            one: _mm512_set1_epi8(1),
            laps: [
                load(laps[..64].try_into().expect("64")),
                load(laps[64..].try_into().expect("64")),
            ],
            rest: [
                load(rest[..64].try_into().expect("64")),
                load(rest[64..].try_into().expect("64")),
            ],
            tables: vbmi && stones < 128,
            relay,
        }
    }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: reads exactly the 64 bytes of `bytes`; unaligned loads are allowed.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub fn play(c: &Consts, ring: [u64; 2], froms: &[usize], out: &mut Landings) -> usize {
    // SAFETY: reads exactly the 16 bytes of `ring`.
    let ring = unsafe { _mm_loadu_si128(ring.as_ptr().cast()) };
    sow(c, ring, froms, out)
}

/// Decode `key` (see [`crate::exact::key`]) with `store` stones in the own
/// store, then [`play`].
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx512vl")]
pub fn play_key(c: &Consts, key: u64, store: u8, froms: &[usize], out: &mut Landings) -> usize {
    sow(c, decode(c, key, store), froms, out)
}

/// `records`, `records_batch` and `records_ring` of a backend: each
/// compiled for the features `$features`, keys decoded by `$decode`.
/// Written once for the VBMI2 backend (a byte compress decodes a key)
/// and the F/BW one (bit scans), so that each inlines its own decoder.
macro_rules! record_fns {
    ($features:literal, $decode:ident) => {
        /// Write a record for every pick among `picks` from a non-empty
        /// counter of the ring that `key` and `store` code, tagged
        /// `node`, to the front of `out`; returns how many.
        #[inline]
        #[target_feature(enable = $features)]
        pub fn records(
            c: &Consts,
            key: u64,
            store: u8,
            node: u16,
            picks: &Picks,
            out: &mut [[u8; 16]],
        ) -> usize {
            records_of(c, $decode(c, key, store), node, picks, out)
        }

        /// [`records`] for every node of `nodes`, as the AVX2
        /// backend's `records_batch` does.
        #[target_feature(enable = $features)]
        pub fn records_batch<T>(
            c: &Consts,
            nodes: &[T],
            key: impl Fn(&T) -> u64,
            store: u8,
            picks: &Picks,
            out: &mut [[u8; 16]],
            stuck: &mut Vec<u16>,
        ) -> usize {
            records_batch_loop!(nodes, out, stuck, |node, i, rest| records_of(
                c,
                $decode(c, key(node), store),
                i as u16,
                picks,
                rest
            ))
        }

        /// [`records`] for a ring given as its 16 bytes (counters in
        /// bytes `0..2n+1`, the rest zero): for keys wider than 64
        /// bits, which the kernel does not decode.
        #[target_feature(enable = $features)]
        pub fn records_ring(
            c: &Consts,
            ring: [u64; 2],
            node: u16,
            picks: &Picks,
            out: &mut [[u8; 16]],
        ) -> usize {
            // SAFETY: reads exactly the 16 bytes of `ring`.
            let ring = unsafe { _mm_loadu_si128(ring.as_ptr().cast()) };
            records_of(c, ring, node, picks, out)
        }
    };
}

record_fns!(
    "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx512vl,bmi2,popcnt",
    decode
);

/// The records of the ring in the low 16 bytes of `ring`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi2,popcnt")]
fn records_of(c: &Consts, ring: __m128i, node: u16, picks: &Picks, out: &mut [[u8; 16]]) -> usize {
    assert!(
        out.len() >= 4 * picks.groups,
        "room for every pick, rounded up to 4"
    );
    let ring = _mm_insert_epi16::<7>(ring, node as i32);
    let filled = _mm_test_epi8_mask(ring, ring) as u32;
    // Bit i: pick i is from a non-empty counter (the picks are in
    // increasing order, so a bit gather keeps them in order).
    let legal = _pext_u32(filled, picks.mask);
    let rings = _mm512_broadcast_i32x4(ring);
    let mut m = 0;
    for (g, tags) in picks.tags[..picks.groups].iter().enumerate() {
        let four = (legal >> (4 * g)) & 0xF;
        // Both qwords of each legal pick's lane.
        let qwords = (_pdep_u32(four, 0x55) * 3) as u8;
        let records = _mm512_mask_mov_epi8(rings, c.byte13, load(tags));
        // SAFETY: `m` is at most 4g, and `out` has room for 4 records
        // from 4g on (asserted above).
        unsafe {
            _mm512_storeu_si512(
                out.as_mut_ptr().add(m).cast(),
                _mm512_maskz_compress_epi64(qwords, records),
            )
        };
        m += four.count_ones() as usize;
    }
    m
}

/// The ring that `key` and `store` code, in the low 16 bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx512vl")]
fn decode(c: &Consts, key: u64, store: u8) -> __m128i {
    // The key's zero bits are the separators after each pit but the
    // last, then every bit from the key's width up: compressed, their
    // positions are where each pit ends (64 fills in for a full key).
    let ends = _mm512_castsi512_si128(_mm512_mask_compress_epi8(c.sixty_four, !key, c.positions));
    // Pit t holds end[t] - end[t - 1] - 1 stones (end[-1] = -1).
    let one = _mm512_castsi512_si128(c.one);
    let counts = _mm_sub_epi8(ends, _mm_bslli_si128::<1>(_mm_add_epi8(ends, one)));
    _mm_mask_set1_epi8(
        _mm_shuffle_epi8(counts, c.unkey),
        1 << c.store_at,
        store as i8,
    )
}

/// Play every record of `input` (a ring, the picked counter in byte 13,
/// a node number in bytes 14 and 15) to the end of its relay chain,
/// appending the results to `free` (last stone in the own store) or
/// `over` in the order they finish, with byte 13 set to where the last
/// stone landed. Sixteen lanes are in flight; a lane whose chain ends is
/// written out and refilled from `input` at once, so lanes do not idle
/// until the longest chain of a position ends.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2,popcnt")]
pub fn stream(c: &Consts, input: &[[u8; 16]], free: &mut Vec<[u8; 16]>, over: &mut Vec<[u8; 16]>) {
    if c.tables {
        stream_with::<true>(c, input, free, over)
    } else {
        stream_with::<false>(c, input, free, over)
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,bmi2,popcnt")]
fn stream_with<const TABLES: bool>(
    c: &Consts,
    input: &[[u8; 16]],
    free: &mut Vec<[u8; 16]>,
    over: &mut Vec<[u8; 16]>,
) {
    // Finished lanes are stored a whole register at a time.
    for out in [&mut *free, &mut *over] {
        out.clear();
        out.reserve(input.len() + 4);
    }
    let (to_free, to_over) = (free.as_mut_ptr(), over.as_mut_ptr());
    let (mut frees, mut overs) = (0usize, 0usize);
    let mut queue = Queue {
        src: input.as_ptr().cast(),
        next: 0,
        total: input.len(),
    };
    // Four registers of four lanes, each its own variables so that they
    // stay in registers, and no branch but the loop's: a register with
    // no lane ending stores and loads nothing under empty masks.
    let zero = _mm512_setzero_si512();
    let [mut a, mut b, mut d, mut e] = [(zero, zero, zero, 0u64); 4];
    for r in [&mut a, &mut b, &mut d, &mut e] {
        refill(c, &mut queue, 0xFF, &mut r.0, &mut r.1, &mut r.2, &mut r.3);
    }
    // Two qwords a lane: a byte mask's bits at each lane's first byte
    // and the one 8 on give its qwords.
    const QWORDS: u64 = 0x0101_0101_0101_0101;
    macro_rules! turn {
        ($r:ident) => {{
            let was = $r.3;
            $r.3 = step::<TABLES>(c, &mut $r.0, &mut $r.1, &mut $r.2, was);
            let ended = was & !$r.3;
            let record = _mm512_mask_mov_epi8($r.0, c.byte13, $r.1);
            let done = _pext_u64(ended, QWORDS) as u8;
            let home = _pext_u64(ended & _mm512_cmpeq_epi8_mask($r.1, c.store), QWORDS) as u8;
            // SAFETY: each output has room for `input.len() + 4`
            // records and fewer than `input.len()` are written before
            // these stores of at most 4 (each record is written once; an
            // empty mask stores zeros past the records written so far).
            unsafe {
                _mm512_storeu_si512(
                    to_free.add(frees).cast(),
                    _mm512_maskz_compress_epi64(home, record),
                );
                _mm512_storeu_si512(
                    to_over.add(overs).cast(),
                    _mm512_maskz_compress_epi64(done & !home, record),
                );
            }
            frees += home.count_ones() as usize / 2;
            overs += (done & !home).count_ones() as usize / 2;
            refill(
                c, &mut queue, done, &mut $r.0, &mut $r.1, &mut $r.2, &mut $r.3,
            );
            $r.3
        }};
    }
    loop {
        let any = turn!(a) | turn!(b) | turn!(d) | turn!(e);
        if any == 0 {
            break;
        }
    }
    assert_eq!(frees + overs, input.len(), "every record comes out once");
    // SAFETY: the first `frees` and `overs` records were stored above.
    unsafe {
        free.set_len(frees);
        over.set_len(overs);
    }
}

/// Records not yet in a lane.
struct Queue {
    src: *const i64,
    next: usize,
    total: usize,
}

/// Load the next records into the lanes whose qwords `open` marks (both
/// qwords of a lane), as many as are left; none when `open` is empty.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,bmi2,popcnt")]
fn refill(
    c: &Consts,
    queue: &mut Queue,
    open: u8,
    ring: &mut __m512i,
    from: &mut __m512i,
    count: &mut __m512i,
    live: &mut u64,
) {
    let lanes = (open.count_ones() as usize / 2).min(queue.total - queue.next);
    let qwords = (1u64 << (2 * lanes)) - 1;
    let into = _pdep_u64(qwords, open as u64) as u8;
    // SAFETY: the masked load reads only the `lanes` records from
    // `next` on, which are within the input; masked-off qwords are
    // not read.
    let loaded = unsafe { _mm512_maskz_loadu_epi64(qwords as u8, queue.src.add(2 * queue.next)) };
    queue.next += lanes;
    *ring = _mm512_mask_expand_epi64(*ring, into, loaded);
    let bytes = _pdep_u64(into as u64, 0x0101_0101_0101_0101) * 0xFF;
    *from = _mm512_mask_shuffle_epi8(*from, bytes, *ring, c.tag13);
    *count = _mm512_mask_shuffle_epi8(*count, bytes, *ring, *from);
    *live |= bytes;
}

/// Running sums (see [`Landings::sums`]) of every record's ring.
#[target_feature(enable = "avx512f,avx512bw")]
pub fn sums(c: &Consts, records: &[[u8; 16]], out: &mut Vec<[u8; 16]>) {
    out.clear();
    out.reserve(records.len() + 4);
    let dst: *mut [u8; 16] = out.as_mut_ptr();
    for (i, four) in records.chunks(4).enumerate() {
        let qwords = ((1u32 << (2 * four.len())) - 1) as u8;
        // SAFETY: the masked load reads only the records of `four`; the
        // store writes 4 records at `4i`, within the `len + 4` reserved.
        unsafe {
            let rings = _mm512_maskz_loadu_epi64(qwords, four.as_ptr().cast());
            _mm512_storeu_si512(dst.add(4 * i).cast(), running_sums(c, rings));
        }
    }
    // SAFETY: every record's sums were stored above.
    unsafe { out.set_len(records.len()) };
}

/// Running sums within each lane: four shifted adds.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn running_sums(c: &Consts, rings: __m512i) -> __m512i {
    let pits = _mm512_shuffle_epi8(rings, c.pits);
    let mut sums = _mm512_mask_add_epi8(pits, c.separated, pits, c.one);
    sums = _mm512_add_epi8(sums, _mm512_bslli_epi128::<1>(sums));
    sums = _mm512_add_epi8(sums, _mm512_bslli_epi128::<2>(sums));
    sums = _mm512_add_epi8(sums, _mm512_bslli_epi128::<4>(sums));
    _mm512_add_epi8(sums, _mm512_bslli_epi128::<8>(sums))
}

/// One sowing on every `live` lane of a register:
/// returns the lanes that relay on; on the others `from` is where the
/// last stone landed.
///
/// `TABLES` takes laps and rest from the `vpermi2b` tables, which
/// need VBMI: only callers compiled with VBMI pass it (the lockstep
/// kernel and the VBMI stream), and this function inlines into them,
/// the table look-up with it. It is compiled for AVX-512 F and BW so
/// that the F/BW backend's stream can inline it too.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn step<const TABLES: bool>(
    c: &Consts,
    ring: &mut __m512i,
    from: &mut __m512i,
    count: &mut __m512i,
    live: __mmask64,
) -> __mmask64 {
    let k = *count;
    let (laps, rem) = if TABLES {
        // SAFETY: only callers with VBMI instantiate `TABLES` (above),
        // and `c.tables` is only set on a backend that has it.
        unsafe { tables(c, k) }
    } else {
        let k16 = _mm512_and_si512(k, c.low);
        let q16 = _mm512_mulhi_epu16(k16, c.reciprocal);
        let r16 = _mm512_sub_epi16(k16, _mm512_mullo_epi16(q16, c.len16));
        (
            _mm512_or_si512(q16, _mm512_slli_epi16(q16, 8)),
            _mm512_or_si512(r16, _mm512_slli_epi16(r16, 8)),
        )
    };
    let d = _mm512_sub_epi8(c.j, _mm512_add_epi8(*from, c.one));
    let dist = _mm512_mask_add_epi8(d, _mm512_movepi8_mask(d), d, c.len);
    let mut gain = _mm512_mask_add_epi8(laps, _mm512_cmplt_epu8_mask(dist, rem), laps, c.one);
    gain = _mm512_mask_sub_epi8(gain, _mm512_cmpeq_epi8_mask(c.j, *from), gain, k);
    *ring = _mm512_mask_add_epi8(*ring, live & c.counters, *ring, gain);
    let l = _mm512_add_epi8(*from, rem);
    let last = _mm512_mask_sub_epi8(l, _mm512_cmpge_epu8_mask(l, c.len), l, c.len);
    let here = _mm512_shuffle_epi8(*ring, last);
    *from = _mm512_mask_mov_epi8(*from, live, last);
    *count = here;
    if c.relay {
        live & _mm512_test_epi8_mask(here, c.above_one) & _mm512_cmpneq_epi8_mask(last, c.store)
    } else {
        0
    }
}

/// `k / len` and `k % len` of every byte of `k` (below 128) from the
/// tables.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn tables(c: &Consts, k: __m512i) -> (__m512i, __m512i) {
    (
        _mm512_permutex2var_epi8(c.laps[0], k, c.laps[1]),
        _mm512_permutex2var_epi8(c.rest[0], k, c.rest[1]),
    )
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn sow(c: &Consts, ring: __m128i, froms: &[usize], out: &mut Landings) -> usize {
    let wide = _mm512_zextsi128_si512(ring);
    let filled = _mm512_test_epi8_mask(wide, wide) as u32;
    let picks = &mut out.picks;
    let mut m = 0;
    for &from in froms {
        picks[m] = from as u8;
        m += (filled >> from) as usize & 1;
    }
    // Every lane starts from the ring; lane l of register g picks picks[4g + l].
    // SAFETY: reads exactly the 16 bytes of `picks`.
    let (start, picks) = unsafe {
        (
            _mm512_broadcast_i32x4(ring),
            _mm512_broadcast_i32x4(_mm_loadu_si128(picks.as_ptr().cast())),
        )
    };
    // The fewest registers that hold the picks: the loop runs until the
    // longest chain among them ends.
    match m {
        0 => {}
        1..=4 => group::<1>(c, start, picks, m, out),
        5..=8 => group::<2>(c, start, picks, m, out),
        9..=12 => group::<3>(c, start, picks, m, out),
        _ => group::<4>(c, start, picks, m, out),
    }
    m
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn group<const G: usize>(c: &Consts, start: __m512i, picks: __m512i, m: usize, out: &mut Landings) {
    let mut rings = [start; G];
    let mut from = [_mm512_setzero_si512(); G];
    let mut live = [0u64; G];
    for g in 0..G {
        from[g] = _mm512_shuffle_epi8(
            picks,
            _mm512_add_epi8(c.lane, _mm512_set1_epi8((4 * g) as i8)),
        );
        let lanes = m.saturating_sub(4 * g).min(4);
        live[g] = if lanes == 4 {
            u64::MAX
        } else {
            (1u64 << (16 * lanes)) - 1
        };
    }
    if c.tables {
        steps::<G, true>(c, &mut rings, &mut from, live);
    } else {
        steps::<G, false>(c, &mut rings, &mut from, live);
    }
    let mut lasts = [0u32; 4];
    let mut stores = [0u32; 4];
    for g in 0..G {
        // SAFETY: `rings[4g..4g + 4]` are 64 bytes at a 64-byte aligned
        // offset of `out` (it is `align(64)` and `rings` comes first).
        unsafe { _mm512_store_si512(out.rings[4 * g..].as_mut_ptr().cast(), rings[g]) };
        // Byte 0 of each lane, gathered into the low 4 bytes.
        let firsts = _mm512_permutexvar_epi8(c.firsts, from[g]);
        lasts[g] = _mm_cvtsi128_si32(_mm512_castsi512_si128(firsts)) as u32;
        let store = _mm512_permutexvar_epi8(c.stores, rings[g]);
        stores[g] = _mm_cvtsi128_si32(_mm512_castsi512_si128(store)) as u32;
        let sums = running_sums(c, rings[g]);
        // SAFETY: `sums[4g..4g + 4]` are 64 bytes at a 64-byte aligned
        // offset of `out` (`sums` follows the 256 bytes of `rings`).
        unsafe { _mm512_store_si512(out.sums[4 * g..].as_mut_ptr().cast(), sums) };
    }
    for (chunk, word) in out.lasts.chunks_exact_mut(4).zip(lasts) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    for (chunk, word) in out.stores.chunks_exact_mut(4).zip(stores) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
}

/// Sow every live lane until none relays on. On return `from` holds, in
/// every byte of each lane, where that lane's last stone landed.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn steps<const G: usize, const TABLES: bool>(
    c: &Consts,
    rings: &mut [__m512i; G],
    from: &mut [__m512i; G],
    mut live: [__mmask64; G],
) {
    let mut count = [_mm512_setzero_si512(); G];
    for g in 0..G {
        // Stones in the picked counter, in every byte of the lane.
        count[g] = _mm512_shuffle_epi8(rings[g], from[g]);
    }
    loop {
        let mut any: __mmask64 = 0;
        for g in 0..G {
            live[g] = step::<TABLES>(c, &mut rings[g], &mut from[g], &mut count[g], live[g]);
            any |= live[g];
        }
        if any == 0 {
            return;
        }
    }
}

/// The AVX-512 F/BW backend ([`super::Kernel::Avx512Bw`]): the same
/// stream and records for CPUs with AVX-512 F, BW and VL but no VBMI
/// (Skylake-X, Cascade Lake, Cooper Lake). The stream is the one above,
/// compiled for these features: laps and rest come from the 16-bit
/// reciprocal instead of the `vpermi2b` tables, and the compress and
/// expand of whole records are the 64-bit ones of AVX-512 F. Keys are
/// decoded with bit scans, as on AVX2 ([`super::pit_ends`]), instead of
/// a VBMI2 byte compress. No lockstep play: the listing pass and `find`
/// are scalar on such CPUs.
pub mod bw {
    use super::super::{pit_ends, Picks};
    use super::{records_of, Consts};
    use std::arch::x86_64::*;

    /// The ring that the 64-bit `key` and `store` code, in the low 16
    /// bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi1,bmi2,popcnt")]
    fn decode(c: &Consts, key: u64, store: u8) -> __m128i {
        let [lo, hi] = pit_ends(key);
        let ends = _mm_set_epi64x(hi as i64, lo as i64);
        // Pit t holds end[t] - end[t - 1] - 1 stones (end[-1] = -1).
        let one = _mm512_castsi512_si128(c.one);
        let counts = _mm_sub_epi8(ends, _mm_bslli_si128::<1>(_mm_add_epi8(ends, one)));
        _mm_mask_set1_epi8(
            _mm_shuffle_epi8(counts, c.unkey),
            1 << c.store_at,
            store as i8,
        )
    }

    record_fns!("avx512f,avx512bw,avx512vl,bmi1,bmi2,popcnt", decode);

    /// [`super::stream`] with laps and rest from the reciprocal.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi1,bmi2,popcnt")]
    pub fn stream(
        c: &Consts,
        input: &[[u8; 16]],
        free: &mut Vec<[u8; 16]>,
        over: &mut Vec<[u8; 16]>,
    ) {
        debug_assert!(!c.tables, "no VBMI for the tables");
        super::stream_with::<false>(c, input, free, over)
    }

    pub use super::sums;
}
