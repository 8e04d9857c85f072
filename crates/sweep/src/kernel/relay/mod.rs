//! Relay chains of many picks at once, in lockstep on SIMD lanes.
//!
//! A relay chain is a data-dependent loop: each sowing decides where the next
//! one starts and whether there is one. Played one pick at a time (as
//! [`crate::kernel::packed::Engine::play`] does), every sowing waits for the one
//! before it and nearly every pick ends with a mispredicted branch; that was
//! 60% of the search's time.
//!
//! Here every legal pick of a position gets a 16-byte lane of an AVX-512
//! register (four lanes a register) holding its own copy of the ring (boards
//! up to 7 pits a side: at most 15 counters), and all lanes sow together.
//! One step sows every still-active lane once, computing each lane's sowing
//! from its pit and stone count instead of looking it up in memory:
//!
//! - `q = k / len` laps and `r = k % len` more stones, from two 128-byte
//!   tables held in registers (`vpermi2b`), or, when a pit can hold 128
//!   stones or more, a 16-bit multiply by a reciprocal that is exact for
//!   every `k < 256` (checked in the tests);
//! - counter `j` gains `q`, one more if it is among the `r` after `from`,
//!   and loses `k` if it is `from`;
//! - the last stone lands at `(from + r) % len`, and a byte shuffle reads
//!   the counter there to decide whether the lane relays on.
//!
//! The loop ends when no lane relays on: one branch a step instead of
//! several a sowing, and the steps of different registers overlap. Lanes
//! that finished early idle under a mask. Captures happen at most once, when
//! a chain ends, so [`crate::kernel::packed::Engine`] applies them afterwards, one
//! pick at a time.
//!
//! On a real bucket of any-hole 2x6x4 this plays a pick in about 10 ns
//! instead of 30 ns (the `sow` benchmark). The property tests check it
//! against the reference engine under every rule set. Machines without
//! AVX-512 (F, BW and VBMI) play a position's picks one at a time, and
//! stream them on AVX2 where they can (below); other architectures use the
//! one-pick engine.
//!
//! A position's registers step until its longest chain ends, and chains
//! vary a lot (2 to 3 sowings a pick on average, up to 15 and more), so on
//! any-hole 2x6x4 only 35 to 43% of the lanes are busy. The search's forward
//! pass therefore uses [`Lanes::stream`]: the picks of many positions as
//! one stream of 16-byte records (a ring, the picked counter and a node
//! number in the spare bytes), sixteen lanes in flight, and a lane whose
//! chain has ended is written out (a compress) and refilled from the
//! stream (an expand) at once, to one of two outputs: free turns, and
//! turns that are over (81% of the picks of any-hole 2x6x4), which the
//! search files differently. Each register of the stream has its own
//! variables and the loop has no branch but its exit (storing and loading
//! under empty masks where no lane ended): kept in an array and branched
//! on, the registers went through the stack, and the whole count took about
//! a fifth more CPU time. That needs AVX-512 VBMI2 and BMI2 as well,
//! and rings of at most 13 counters (6 pits a side). The listing pass and
//! `find` keep [`Lanes::play`], which returns a position's picks in order.
//!
//! CPUs without AVX-512 VBMI run the same stream on AVX2 (the `avx2`
//! module, [`super::Kernel::Avx2`]): the same 16-byte records and lane
//! arithmetic, two lanes a 256-bit register (`vpshufb` shuffles within
//! 16-byte lanes, which is what a ring needs), three registers in flight.
//! Without byte masks, compress and expand, and `vpermi2b` tables, lanes
//! are written out and refilled one at a time without a branch, and laps
//! and rest always come from the reciprocal. A [`Lanes`] holds one
//! backend or the other; the AVX2 one has no [`Lanes::play`], so where it
//! is the kernel, the listing pass and `find` are scalar.
//!
//! CPUs with AVX-512 F and BW but no VBMI run the AVX-512 stream itself
//! (`avx512::bw`, [`super::Kernel::Avx512Bw`]): the stream below is
//! compiled for F and BW and inlined into an entry point for those
//! features, laps and rest from the reciprocal (the tables need VBMI's
//! `vpermi2b`; on VBMI CPUs they save about 8% of the stream's CPU time),
//! the compress and expand of whole records the 64-bit ones of AVX-512 F,
//! and keys decoded with bit scans instead of VBMI2's byte compress.

// Off x86-64 no `Lanes` is ever built (`Lanes::new` returns `None`): the
// types stay so that callers compile the same everywhere, and their x86
// machinery goes unused.
#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unreachable_code, unused_macros, unused_imports)
)]

use super::{cpu, Kernel};

/// The picks of one position after their relay chains, before any
/// capture: what [`Lanes::play`] writes, laid out so that each register of
/// four lanes is stored whole.
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
pub struct Landings {
    /// The ring after each pick, packed as in [`crate::kernel::packed::Packed`].
    pub rings: [[u64; 2]; 16],
    /// For each pick, running sums over the ring's pits (the own store
    /// left out) of `count + 1`, except that the last pit adds just its
    /// count: where the separators of its key go, and the key's width (see
    /// [`crate::exact::key::Key::from_sums`]).
    pub sums: [[u8; 16]; 16],
    /// Ring index of each picked counter.
    pub picks: [u8; 16],
    /// Ring index of the counter each pick's last stone landed in.
    pub lasts: [u8; 16],
    /// Stones in the own store after each pick (before any capture), so
    /// that the search can file a pick without reading its ring.
    pub stores: [u8; 16],
}

/// Picks a [`Lanes::play`] call takes at most (two sides of 7 pits).
pub const MAX_PICKS: usize = 14;

/// The picks a search may make, as [`Lanes::records`] uses them: four
/// records are built in a register and stored at once, and which of them
/// are legal is one bit gather from the ring's non-empty counters.
#[derive(Clone, Debug)]
pub struct Picks {
    /// Pick `4g + l` in byte 13 of lane `l` of register `g`.
    tags: [[u8; 64]; 4],
    /// The picked counters' ring indices, one bit each.
    mask: u32,
    /// Registers of four picks.
    groups: usize,
    /// How many picks there are (the AVX2 kernel stores two at a time).
    len: usize,
}

/// The SIMD kernels for one board size and rule set: the lockstep and
/// streaming kernels on AVX-512, or the streaming kernel on AVX2; only
/// exists on machines that have what the kernel needs.
#[derive(Clone)]
pub struct Lanes {
    backend: Backend,
    /// The CPU also has AVX-512 VBMI2 and VL, which [`Lanes::play_key`]
    /// needs to decode a key.
    decodes: bool,
    /// See [`Lanes::streams`].
    streams: bool,
}

/// Which instruction set the lanes are built for, with its constants. Off
/// x86-64 there is none, and no `Lanes` is ever built.
// One `Lanes` is built per search and read in place, so the size of the
// smaller variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Backend {
    /// AVX-512 F, BW and VBMI: lockstep play, and the stream where `streams`.
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Consts),
    /// AVX2, BMI1, BMI2 and POPCNT: the stream only.
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Consts),
    /// AVX-512 F, BW and VL with AVX2, BMI1, BMI2 and POPCNT: the
    /// AVX-512 stream without VBMI (`avx512::bw`), the stream only.
    #[cfg(target_arch = "x86_64")]
    Avx512Bw(avx512::Consts),
}

/// Call `avx512::$f(consts, ...)` on the AVX-512 backend: lockstep play,
/// which the AVX2 backend does not have (callers check
/// [`Lanes::lockstep`]). Every caller has checked what the function needs
/// beyond what every AVX-512 `Lanes` has (AVX-512 F, BW and VBMI, detected
/// in [`Lanes::new`]): `decodes` for key decoding.
macro_rules! lockstep {
    ($lanes:ident, $f:ident($($arg:expr),*)) => {{
        match &$lanes.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the features the function is compiled for were
            // detected (see above).
            Backend::Avx512(c) => unsafe { avx512::$f(c, $($arg),*) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) | Backend::Avx512Bw(_) => {
                let _ = ($($arg),*);
                unreachable!("the AVX2 and AVX-512 F/BW kernels only stream")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => {
                let _ = ($($arg),*);
                unreachable!("Lanes::new returns None off x86-64")
            }
        }
    }};
}

/// The loop of each backend's `records_batch`: `$one` writes the records
/// of node `$node` (index `$i`) to the front of `$rest` and returns how
/// many; nodes without any go to `$stuck`. Written once, expanded inside
/// each backend's function so that its decoding and record building
/// inline into the loop under its target features.
macro_rules! records_batch_loop {
    ($nodes:ident, $out:ident, $stuck:ident, |$node:ident, $i:ident, $rest:ident| $one:expr) => {{
        let mut made = 0;
        for ($i, $node) in $nodes.iter().enumerate() {
            let $rest = &mut $out[made..];
            let m = $one;
            if m == 0 {
                $stuck.push($i as u16);
            }
            made += m;
        }
        made
    }};
}
use records_batch_loop;

/// Call `$f(consts, ...)` of the streaming kernel of the backend.
/// Every caller but `sums` has checked `streams`: on AVX-512 that VBMI2,
/// VL, BMI2 and POPCNT were detected as well (in [`Lanes::new`]); the
/// AVX-512 `sums` needs only AVX-512 F and BW. An AVX2 `Lanes` is only
/// built where AVX2, BMI1, BMI2 and POPCNT were detected, an AVX-512 F/BW
/// one where AVX-512 F, BW and VL were as well.
macro_rules! streaming {
    ($lanes:ident, $f:ident($($arg:expr),*)) => {{
        match &$lanes.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the features the function is compiled for were
            // detected (see above).
            Backend::Avx512(c) => unsafe { avx512::$f(c, $($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Backend::Avx2(c) => unsafe { avx2::$f(c, $($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Backend::Avx512Bw(c) => unsafe { avx512::bw::$f(c, $($arg),*) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => {
                let _ = ($($arg),*);
                unreachable!("Lanes::new returns None off x86-64")
            }
        }
    }};
}

impl Lanes {
    /// The lanes of `kernel` for `n` pits a side with at most `stones`
    /// stones in play: [`Kernel::Avx512Vbmi`] plays in lockstep on AVX-512,
    /// [`Kernel::Avx512Vbmi2`] streams on AVX-512 as well, [`Kernel::Avx512Bw`]
    /// only streams, on AVX-512 without VBMI, and [`Kernel::Avx2`] only
    /// streams, on AVX2. `None` for the scalar kernel, and when the CPU
    /// lacks what the kernel needs (see [`cpu`]). Which board gets which
    /// kernel is decided in [`super::plan`], not here.
    pub fn new(n: usize, stones: usize, relay: bool, kernel: Kernel) -> Option<Lanes> {
        let cpu = cpu();
        debug_assert!(
            2 * n < 16,
            "a ring of {} counters does not fit a lane",
            2 * n + 1
        );
        let streams = matches!(
            kernel,
            Kernel::Avx512Vbmi2 | Kernel::Avx2 | Kernel::Avx512Bw
        );
        debug_assert!(!streams || n <= 6, "records need 3 spare bytes");
        let runs = match kernel {
            Kernel::Scalar => false,
            Kernel::Avx2 => cpu.avx2,
            Kernel::Avx512Bw => cpu.avx512bw,
            Kernel::Avx512Vbmi => cpu.lockstep,
            Kernel::Avx512Vbmi2 => cpu.streams,
        };
        if !runs {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let backend = match kernel {
                // SAFETY: `cpu()` detected AVX2, which the constants are
                // built with.
                Kernel::Avx2 => Backend::Avx2(unsafe { avx2::Consts::new(n, stones, relay) }),
                Kernel::Avx512Bw => {
                    // SAFETY: `cpu()` detected AVX-512 F and BW, which the
                    // constants are built with.
                    let c = unsafe { avx512::Consts::new(n, stones, relay, false) };
                    Backend::Avx512Bw(c)
                }
                _ => {
                    // SAFETY: as above; VBMI was detected too, so the
                    // constants may enable the lap tables.
                    let c = unsafe { avx512::Consts::new(n, stones, relay, true) };
                    Backend::Avx512(c)
                }
            };
            Some(Lanes {
                decodes: cpu.decodes && matches!(backend, Backend::Avx512(_)),
                backend,
                streams,
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (n, stones, relay);
            unreachable!("cpu() finds no SIMD kernel off x86-64")
        }
    }

    /// True when [`Lanes::play`] runs here (the AVX-512 VBMI backend); the
    /// AVX2 and AVX-512 F/BW backends only stream.
    pub fn lockstep(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            matches!(self.backend, Backend::Avx512(_))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Play every pick from a non-empty counter among `froms` (ring
    /// indices) on `ring`, in that order, writing their landings to the
    /// front of `out`; returns how many there were.
    pub fn play(&self, ring: [u64; 2], froms: &[usize], out: &mut Landings) -> usize {
        assert!(froms.len() <= MAX_PICKS, "at most {MAX_PICKS} picks");
        assert!(self.lockstep(), "only the VBMI kernels play in lockstep");
        lockstep!(self, play(ring, froms, out))
    }

    /// True when [`Lanes::stream`] runs here: rings of at most 13
    /// counters (leaving a record's last three bytes free) on a CPU that
    /// also has VBMI2, VL and BMI2, or on the AVX2 and AVX-512 F/BW
    /// backends.
    pub fn streams(&self) -> bool {
        self.streams
    }

    /// The picks among `froms` (ring indices of counters, in increasing
    /// order, as a scope lists them) laid out for [`Lanes::records`].
    pub fn picks(&self, froms: &[usize]) -> Picks {
        assert!(
            froms.len() <= MAX_PICKS && froms.windows(2).all(|w| w[0] < w[1]),
            "at most {MAX_PICKS} picks, in increasing order"
        );
        let mut tags = [[0u8; 64]; 4];
        let mut mask = 0u32;
        for (i, &from) in froms.iter().enumerate() {
            tags[i / 4][16 * (i % 4) + 13] = from as u8;
            mask |= 1 << from;
        }
        Picks {
            tags,
            mask,
            groups: froms.len().div_ceil(4),
            len: froms.len(),
        }
    }

    /// Write a record for [`Lanes::stream`] for every legal pick among
    /// `picks` of the ring that the 64-bit `key` and `store` code, tagged
    /// with `node`, to the front of `out`; returns how many. `out` needs
    /// room for every pick among `picks`, rounded up to a multiple of 4:
    /// the records are built and stored four at a time.
    pub fn records(
        &self,
        key: u64,
        store: u8,
        node: u16,
        picks: &Picks,
        out: &mut [[u8; 16]],
    ) -> usize {
        assert!(self.streams, "records need the streaming kernel");
        streaming!(self, records(key, store, node, picks, out))
    }

    /// [`Lanes::records`] for every node of `nodes` (64-bit keys, given
    /// by `key`), each tagged with its index (below 2^16), one after the
    /// other from the front of `out`, which needs room for every pick of
    /// every node plus 4; the indices of nodes without a legal pick go to
    /// `stuck`. Returns how many records were written. The search's path:
    /// one call a batch of nodes instead of one a node.
    pub fn records_batch<T>(
        &self,
        nodes: &[T],
        key: impl Fn(&T) -> u64,
        store: u8,
        picks: &Picks,
        out: &mut [[u8; 16]],
        stuck: &mut Vec<u16>,
    ) -> usize {
        assert!(self.streams, "records need the streaming kernel");
        assert!(nodes.len() <= 1 << 16, "node numbers fit two bytes");
        assert!(
            out.len() >= nodes.len() * picks.len + 4,
            "room for every pick of every node"
        );
        streaming!(self, records_batch(nodes, key, store, picks, out, stuck))
    }

    /// [`Lanes::records`] for a packed ring (see
    /// [`crate::kernel::packed`]) of at most 13 counters, whose
    /// last three bytes are free for the record's pick and node: the path
    /// of keys wider than 64 bits, which the kernel does not decode.
    pub fn records_ring(
        &self,
        ring: [u64; 2],
        node: u16,
        picks: &Picks,
        out: &mut [[u8; 16]],
    ) -> usize {
        assert!(self.streams, "records need the streaming kernel");
        debug_assert_eq!(ring[1] >> 40, 0, "bytes 13 to 15 are free");
        streaming!(self, records_ring(ring, node, picks, out))
    }

    /// Play every record of `input` to the end of its relay chain (before
    /// any capture): each is a ring (bytes `0..2n+1`), the picked counter
    /// (byte 13), which must hold stones, and a node number (bytes 14 and
    /// 15, little-endian). The results go out in the order their chains
    /// end, each with byte 13 set to where the last stone landed: to `free`
    /// when that is the own store (a free turn), to `over` otherwise (the
    /// turn is over, perhaps after a capture). Split here, the search files
    /// each kind in a loop without a branch on it, and takes running sums
    /// only of the free turns. Lanes are refilled as soon as their chain
    /// ends, which keeps more of them busy than [`Lanes::play`], whose
    /// registers step until the longest chain of a position ends.
    pub fn stream(&self, input: &[[u8; 16]], free: &mut Vec<[u8; 16]>, over: &mut Vec<[u8; 16]>) {
        assert!(self.streams, "the CPU or board does not allow streaming");
        streaming!(self, stream(input, free, over))
    }

    /// The running sums of every record's ring, as in [`Landings::sums`].
    pub fn sums(&self, records: &[[u8; 16]], out: &mut Vec<[u8; 16]>) {
        streaming!(self, sums(records, out))
    }

    /// [`Lanes::play`] on the ring that the 64-bit stars-and-bars `key`
    /// (see [`crate::exact::key`]) and `store` stones in the own store code,
    /// decoding the key in registers: a compress of the bit positions of
    /// its separators gives where each pit ends. `None` when the CPU lacks
    /// AVX-512 VBMI2 or VL.
    pub fn play_key(
        &self,
        key: u64,
        store: u8,
        froms: &[usize],
        out: &mut Landings,
    ) -> Option<usize> {
        assert!(froms.len() <= MAX_PICKS, "at most {MAX_PICKS} picks");
        if !self.decodes {
            return None;
        }
        Some(lockstep!(self, play_key(key, store, froms, out)))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2;

#[cfg(target_arch = "x86_64")]
mod avx512;

/// Where each of the first 12 pits of a 64-bit stars-and-bars key (see
/// [`crate::exact::key`]) ends, one byte each, little-endian: the
/// positions of the key's zero bits (the separators after each pit but
/// the last, then every bit from the key's width up; 64 for the last pit
/// of a full key). Found one at a time, a bit scan and a clear of the
/// lowest bit, for all 12 pits whatever the board: the loop unrolls, and
/// the ends of pits a board does not have are shuffled out by the caller.
/// The key decoding of the backends without VBMI2's byte compress.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn pit_ends(key: u64) -> [u64; 2] {
    let mut zeros = !key;
    let mut ends = [0u64; 2];
    for t in 0..12 {
        ends[t / 8] |= u64::from(zeros.trailing_zeros()) << (8 * (t % 8));
        zeros &= zeros.wrapping_sub(1);
    }
    ends
}

/// What the kernels must give for a pick from ring index `from` of `ring`
/// (2n+1 counters, store at n; the pit holds stones), with or without
/// relay: the ring after its chain, before any capture, and where the last
/// stone landed. The rules engine's own pick
/// ([`rules::pick::play_traced`]) without a capture rule, so that
/// the kernels' tests check them against the reference engine itself.
#[doc(hidden)]
pub fn reference_chain(ring: &[u8], from: usize, relay: bool) -> (Vec<u8>, u8) {
    use rules::pick::{play_traced, Landing};
    use rules::{Capture, Rules, Scope};
    let rules = Rules {
        scope: Scope::Any,
        relay,
        capture: Capture::None,
    };
    let n = ring.len() / 2;
    let mut ring = ring.to_vec();
    let trace = play_traced(&mut ring, from, rules);
    let last = match trace
        .sowings
        .last()
        .expect("a pick sows once at least")
        .last
    {
        Landing::Store => n,
        Landing::Pit(pit, _) => pit.ring(n),
    };
    (ring, last as u8)
}

/// `ceil(65536 / len)`: for every stone count `k < 256`, `k * reciprocal >> 16`
/// is `k / len` on the rings that fit a lane (tested).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn reciprocal(len: usize) -> u16 {
    65536usize.div_ceil(len) as u16
}

#[cfg(test)]
mod tests {
    use super::{cpu, reference_chain as chain, Kernel, Lanes};

    /// The streaming kernels against a plain sowing on random records of
    /// every ring length, with and without relay, with fewer than 128
    /// stones and with pits of 128 stones and more, in batches of every
    /// size from 0 (so that lanes run dry at every point); the AVX-512,
    /// AVX-512 F/BW and AVX2 streams give the same records in each output.
    #[test]
    fn the_streams_play_random_records_as_a_plain_sowing_does() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let kernels: Vec<Kernel> = [Kernel::Avx2, Kernel::Avx512Bw, Kernel::Avx512Vbmi2]
            .into_iter()
            .filter(|k| k.supported().is_ok())
            .collect();
        println!("streams tested on random records: {kernels:?}");
        if cpu().avx2 {
            assert!(kernels.contains(&Kernel::Avx2), "AVX2 runs here");
        }
        if cpu().avx512bw {
            assert!(
                kernels.contains(&Kernel::Avx512Bw),
                "AVX-512 F/BW runs here"
            );
        }
        for n in 1..=6usize {
            let len = 2 * n + 1;
            for relay in [false, true] {
                for heavy in [false, true] {
                    let stones = if heavy { 255 } else { 127 };
                    let lanes: Vec<Lanes> = kernels
                        .iter()
                        .map(|&k| Lanes::new(n, stones, relay, k).expect("supported"))
                        .collect();
                    for size in (0..40).chain([100, 1000]) {
                        let mut input = Vec::new();
                        let mut want = Vec::new();
                        while input.len() < size {
                            let most = if heavy { 2 } else { 1 + random(12) };
                            let mut ring: Vec<u8> =
                                (0..len).map(|_| random(most + 1) as u8).collect();
                            if heavy {
                                ring[random(len as u64) as usize] = 128 + random(100) as u8;
                            }
                            let from = random(len as u64) as usize;
                            if from == n || ring[from] == 0 {
                                continue;
                            }
                            let node = input.len() as u16;
                            let mut record = [0u8; 16];
                            record[..len].copy_from_slice(&ring);
                            record[13] = from as u8;
                            record[14..].copy_from_slice(&node.to_le_bytes());
                            input.push(record);
                            let (after, last) = chain(&ring, from, relay);
                            record[..len].copy_from_slice(&after);
                            record[13] = last;
                            want.push(record);
                        }
                        let want_free: Vec<_> = want
                            .iter()
                            .filter(|r| r[13] as usize == n)
                            .copied()
                            .collect();
                        let want_over: Vec<_> = want
                            .iter()
                            .filter(|r| r[13] as usize != n)
                            .copied()
                            .collect();
                        let mut outputs = Vec::new();
                        for (lanes, kernel) in lanes.iter().zip(&kernels) {
                            let (mut free, mut over) = (Vec::new(), Vec::new());
                            lanes.stream(&input, &mut free, &mut over);
                            let what = format!("{kernel} n {n} relay {relay} heavy {heavy}");
                            let mut sorted = [free.clone(), over.clone()];
                            for out in &mut sorted {
                                out.sort_by_key(|r| u16::from_le_bytes([r[14], r[15]]));
                            }
                            assert_eq!(sorted[0], want_free, "free turns, {what}");
                            assert_eq!(sorted[1], want_over, "turns over, {what}");
                            outputs.push((free, over));
                        }
                        // Both kernels finish the chains in the same order
                        // only by chance; their outputs hold the same records.
                        assert!(outputs.windows(2).all(|w| w[0].0.len() == w[1].0.len()));
                    }
                }
            }
        }
    }

    #[test]
    fn the_reciprocal_divides_every_byte_exactly() {
        for n in 1..=7usize {
            let len = 2 * n + 1;
            let m = super::reciprocal(len) as usize;
            for k in 0..256usize {
                assert_eq!((k * m) >> 16, k / len, "len {len}, k {k}");
            }
        }
    }
}
