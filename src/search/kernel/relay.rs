//! Relay chains of many picks at once, in lockstep on SIMD lanes.
//!
//! A relay chain is a data-dependent loop: each sowing decides where the next
//! one starts and whether there is one. Played one pick at a time (as
//! [`crate::search::kernel::packed::Engine::play`] does), every sowing waits for the one
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
//! a chain ends, so [`crate::search::kernel::packed::Engine`] applies them afterwards, one
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

use super::Kernel;

/// The picks of one position after their relay chains, before any
/// capture: what [`Lanes::play`] writes, laid out so that each register of
/// four lanes is stored whole.
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
pub struct Landings {
    /// The ring after each pick, packed as in [`crate::search::kernel::packed::Packed`].
    pub rings: [[u64; 2]; 16],
    /// For each pick, running sums over the ring's pits (the own store
    /// left out) of `count + 1`, except that the last pit adds just its
    /// count: where the separators of its key go, and the key's width (see
    /// [`crate::search::exact::key::Key::from_sums`]).
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

/// What this CPU can run, detected once: the feature checks are cheap,
/// but the search asks for every engine it builds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cpu {
    /// AVX-512 F, BW and VBMI: the lockstep kernel.
    pub lockstep: bool,
    /// Also VBMI2 and VL: the kernel decodes 64-bit keys.
    pub decodes: bool,
    /// Also BMI2 and POPCNT: the streaming kernel.
    pub streams: bool,
    /// AVX2, BMI1, BMI2 and POPCNT: the AVX2 streaming kernel.
    pub avx2: bool,
    /// Also AVX-512 F, BW and VL: the AVX-512 F/BW streaming kernel.
    pub avx512bw: bool,
}

/// The kernels' CPU features (none off x86-64).
pub(crate) fn cpu() -> Cpu {
    static CPU: std::sync::OnceLock<Cpu> = std::sync::OnceLock::new();
    *CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let lockstep = has!("avx512f") && has!("avx512bw") && has!("avx512vbmi");
            let decodes = lockstep && has!("avx512vbmi2") && has!("avx512vl");
            let streams = decodes && has!("bmi2") && has!("popcnt");
            let avx2 = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt");
            let avx512bw = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl");
            Cpu {
                lockstep,
                decodes,
                streams,
                avx2,
                avx512bw,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Cpu {
            lockstep: false,
            decodes: false,
            streams: false,
            avx2: false,
            avx512bw: false,
        }
    })
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
    /// stones in play: [`Kernel::Lockstep`] plays in lockstep on AVX-512,
    /// [`Kernel::Stream`] streams on AVX-512 as well, [`Kernel::Avx512Bw`]
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
        let streams = matches!(kernel, Kernel::Stream | Kernel::Avx2 | Kernel::Avx512Bw);
        debug_assert!(!streams || n <= 6, "records need 3 spare bytes");
        let runs = match kernel {
            Kernel::Scalar => false,
            Kernel::Avx2 => cpu.avx2,
            Kernel::Avx512Bw => cpu.avx512bw,
            Kernel::Lockstep => cpu.lockstep,
            Kernel::Stream => cpu.streams,
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
    /// [`crate::search::kernel::packed`]) of at most 13 counters, whose
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
    /// (see [`crate::search::exact::key`]) and `store` stones in the own store code,
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
mod avx512 {
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

    /// Decode `key` (see [`crate::search::exact::key`]) with `store` stones in the own
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
    fn records_of(
        c: &Consts,
        ring: __m128i,
        node: u16,
        picks: &Picks,
        out: &mut [[u8; 16]],
    ) -> usize {
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
        let ends =
            _mm512_castsi512_si128(_mm512_mask_compress_epi8(c.sixty_four, !key, c.positions));
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
    pub fn stream(
        c: &Consts,
        input: &[[u8; 16]],
        free: &mut Vec<[u8; 16]>,
        over: &mut Vec<[u8; 16]>,
    ) {
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
        let loaded =
            unsafe { _mm512_maskz_loadu_epi64(qwords as u8, queue.src.add(2 * queue.next)) };
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
    fn group<const G: usize>(
        c: &Consts,
        start: __m512i,
        picks: __m512i,
        m: usize,
        out: &mut Landings,
    ) {
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
}

/// Where each of the first 12 pits of a 64-bit stars-and-bars key (see
/// [`crate::search::exact::key`]) ends, one byte each, little-endian: the
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
/// ([`crate::rules::pick::play_traced`]) without a capture rule, so that
/// the kernels' tests check them against the reference engine itself.
#[doc(hidden)]
pub fn reference_chain(ring: &[u8], from: usize, relay: bool) -> (Vec<u8>, u8) {
    use crate::rules::pick::{play_traced, Landing};
    use crate::rules::{Capture, Rules, Scope};
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
        let kernels: Vec<Kernel> = [Kernel::Avx2, Kernel::Avx512Bw, Kernel::Stream]
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
