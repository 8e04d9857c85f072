//! The search's packed rules engine: the rules of [`rules::pick`], with the
//! ring packed into 64-bit words, one byte a counter.
//!
//! A sowing of `k` stones from ring index `from` is `q = k / len` laps plus
//! one stone for each of the next `r = k % len` counters, and it empties
//! `from` first. All of that is one precomputed word vector per `(from, k)`:
//! `q` in every byte, 1 more in the `r` bytes after `from`, and `-k` at
//! `from`. So a whole sowing, however many stones it carries, is `W` wrapping
//! word additions and a table look-up for where the last stone lands. The
//! result is exact: each word's true value after the sowing is a sum of
//! counters that each fit a byte, because at most 255 stones are in play (see
//! [`rules::board::MAX_STONES_IN_PLAY`]), so no carry or borrow is lost.
//!
//! [`rules::pick::play`] stays the reference: a property test checks that both
//! engines agree on random positions under every rule set, and `replay` and
//! the puzzle player use the reference.
//!
//! The search's forward pass streams picks through [`Engine::streaming`]
//! where it can (see [`crate::kernel::relay`]). Otherwise the search and `find` play
//! picks through [`Engine::for_each_pick`]. Where
//! the CPU has AVX-512 and a ring fits 16 bytes, it hands all the picks of a
//! position to the lockstep kernel of [`crate::kernel::relay`] and only finishes each
//! one here (the capture, if any); elsewhere it plays them one at a time.

use super::relay::{Landings, Lanes};
use super::Kernel;
use rules::pick::PickEnd;
use rules::Rules;

/// A packed ring: `W` little-endian words, byte `i` is ring counter `i`.
pub type Packed<const W: usize> = [u64; W];

/// The most words a packed ring has: 33 counters (16 pits a side).
pub const MAX_WORDS: usize = 5;

/// Byte `i` of a packed ring.
#[inline(always)]
pub fn get<const W: usize>(ring: &Packed<W>, i: usize) -> u8 {
    (ring[i >> 3] >> ((i & 7) * 8)) as u8
}

#[inline(always)]
fn clear<const W: usize>(ring: &mut Packed<W>, i: usize) {
    ring[i >> 3] &= !(0xFF << ((i & 7) * 8));
}

#[inline(always)]
fn add<const W: usize>(ring: &mut Packed<W>, i: usize, v: u8) {
    ring[i >> 3] += (v as u64) << ((i & 7) * 8);
}

/// Pack ring counters (at most `8 * W`).
#[inline]
pub fn pack<const W: usize>(bytes: &[u8]) -> Packed<W> {
    let mut ring = [0u64; W];
    for (i, &b) in bytes.iter().enumerate() {
        add(&mut ring, i, b);
    }
    ring
}

/// The ring after pick `i` of `landings`. The kernel only runs where a
/// ring fits two words, so the words above are empty.
#[inline]
pub fn landed<const W: usize>(landings: &Landings, i: usize) -> Packed<W> {
    let mut ring = [0u64; W];
    ring[..2].copy_from_slice(&landings.rings[i]);
    ring
}

/// Unpack into ring counters.
#[inline]
pub fn unpack<const W: usize>(ring: &Packed<W>, bytes: &mut [u8]) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = get(ring, i);
    }
}

/// Precomputed sowing tables for one board size and rule set.
pub struct Engine<const W: usize> {
    n: usize,
    rules: Rules,
    /// Largest pit a sowing can start from, plus one: the table stride.
    stride: usize,
    /// `deltas[from * stride + k]`: what sowing `k` stones from counter
    /// `from` adds to each word. Sized to the stones in play rather than 256
    /// so that the common boards' table stays in the L1 cache.
    deltas: Vec<Packed<W>>,
    /// `lasts[from * stride + k]`: where the last of those stones lands.
    lasts: Vec<u8>,
    /// The lockstep kernel that plays all picks of a position at once, on
    /// machines and boards where it runs (see [`crate::kernel::relay`]).
    lanes: Option<Lanes>,
}

impl<const W: usize> Engine<W> {
    /// Tables for `n` pits a side and at most `stones` stones in play,
    /// playing picks with `kernel` (as [`super::plan`] chose it; a SIMD
    /// kernel the CPU cannot run is refused there, and here falls back to
    /// the scalar one); `2n+1` counters must fit `8 * W` bytes.
    pub fn new(n: usize, stones: usize, rules: Rules, kernel: Kernel) -> Self {
        let len = 2 * n + 1;
        assert!(
            len <= 8 * W,
            "a ring of {len} counters does not fit {W} words"
        );
        let stride = stones.min(255) + 1;
        let mut deltas = Vec::with_capacity(len * stride);
        let mut lasts = Vec::with_capacity(len * stride);
        for from in 0..len {
            for k in 0..stride {
                // What the k stones add to each counter, as whole numbers.
                let mut gain = vec![(k / len) as i64; len];
                for j in 1..=k % len {
                    gain[(from + j) % len] += 1;
                }
                gain[from] -= k as i64;
                let mut delta = [0u64; W];
                for (i, g) in gain.iter().enumerate() {
                    let word = &mut delta[i >> 3];
                    *word = word.wrapping_add((*g as u64).wrapping_shl(((i & 7) * 8) as u32));
                }
                deltas.push(delta);
                lasts.push(((from + k) % len) as u8);
            }
        }
        Engine {
            n,
            rules,
            stride,
            deltas,
            lasts,
            lanes: match kernel {
                Kernel::Scalar => None,
                _ => {
                    assert!(
                        W == 2 && 2 * n < 16,
                        "the SIMD kernels need rings of 16 bytes at most"
                    );
                    Lanes::new(n, stones, rules.relay, kernel)
                }
            },
        }
    }

    /// True when [`Engine::for_each_pick`] plays picks in lockstep.
    pub fn lockstep(&self) -> bool {
        self.lockstep_lanes().is_some()
    }

    /// The lanes, where they play picks in lockstep (the AVX2 kernel only
    /// streams: with it, everything but the stream is scalar).
    #[inline]
    fn lockstep_lanes(&self) -> Option<&Lanes> {
        self.lanes.as_ref().filter(|lanes| lanes.lockstep())
    }

    /// Play every legal pick of `ring` among `scope` in lockstep into
    /// `out`, before captures, and return how many there were; `None` where
    /// the kernel does not run. The forward pass of the search reads the
    /// landings directly (stores and last counters, a ring only for a free
    /// turn), which is cheaper than a call per pick; captures are
    /// [`Engine::finish`]ed by the caller.
    #[inline]
    pub fn landings(&self, ring: &Packed<W>, scope: &[usize], out: &mut Landings) -> Option<usize> {
        self.lockstep_lanes()
            .map(|lanes| lanes.play([ring[0], ring[1]], scope, out))
    }

    /// [`Engine::landings`] of the ring that a 64-bit `key` and `store`
    /// code, decoded by the kernel itself; `None` where it cannot.
    #[inline]
    pub fn landings_of_key(
        &self,
        key: u64,
        store: u8,
        scope: &[usize],
        out: &mut Landings,
    ) -> Option<usize> {
        match self.lockstep_lanes() {
            Some(lanes) => lanes.play_key(key, store, scope, out),
            _ => None,
        }
    }

    /// The lockstep kernel, where it can stream picks ([`Lanes::stream`]).
    pub fn streaming(&self) -> Option<&Lanes> {
        self.lanes.as_ref().filter(|lanes| lanes.streams())
    }

    /// Finish a record that [`Lanes::stream`] returned: how the pick ended
    /// and the stones in the own store after its capture, if any.
    #[inline(always)]
    pub fn finish_record(&self, record: &[u8; 16]) -> (PickEnd, u8) {
        self.settle(record[13] as usize, record[self.n], || {
            pack(&record[..2 * self.n + 1])
        })
    }

    /// How a kernel's pick that landed its last stone in `last`, with
    /// `store` stones in the own store, ended; `after` gives its ring, which
    /// only a capture needs.
    #[inline(always)]
    fn settle(&self, last: usize, store: u8, after: impl FnOnce() -> Packed<W>) -> (PickEnd, u8) {
        if last == self.n {
            return (PickEnd::FreeTurn, store);
        }
        if !self.rules.capture.ever_takes() {
            return (PickEnd::TurnOver, store);
        }
        let mut after = after();
        let end = self.land(&mut after, last);
        (end, get(&after, self.n))
    }

    /// Finish pick `i` of `landings`: how it ended and the stones in the
    /// own store after its capture, if any.
    #[inline]
    pub fn finish(&self, landings: &Landings, i: usize) -> (PickEnd, u8) {
        self.settle(landings.lasts[i] as usize, landings.stores[i], || {
            landed(landings, i)
        })
    }

    /// Call `f(ring index, ring after the pick, how it ended)` for every
    /// legal pick from `ring` among the ring indices `scope`, in that order;
    /// returns false when none is legal (every pit in scope is empty).
    #[inline]
    pub fn for_each_pick(
        &self,
        ring: &Packed<W>,
        scope: &[usize],
        mut f: impl FnMut(usize, &Packed<W>, PickEnd),
    ) -> bool {
        let mut moved = false;
        match self.lockstep_lanes() {
            Some(lanes) => {
                let mut landings = Landings::default();
                let picks = lanes.play([ring[0], ring[1]], scope, &mut landings);
                for i in 0..picks {
                    moved = true;
                    let mut after = landed(&landings, i);
                    let end = self.land(&mut after, landings.lasts[i] as usize);
                    f(landings.picks[i] as usize, &after, end);
                }
            }
            _ => {
                for &from in scope {
                    if get(ring, from) == 0 {
                        continue;
                    }
                    moved = true;
                    let mut after = *ring;
                    let end = self.play(&mut after, from);
                    f(from, &after, end);
                }
            }
        }
        moved
    }

    /// Finish a pick whose relay chain (if any) is over and whose last
    /// stone landed at `last`: a free turn, or the turn ends, with a capture
    /// if the rules call for one.
    #[inline]
    fn land(&self, ring: &mut Packed<W>, last: usize) -> PickEnd {
        let n = self.n;
        if last == n {
            return PickEnd::FreeTurn;
        }
        let here = get(ring, last);
        if here > 1 {
            return PickEnd::TurnOver;
        }
        if last < n && self.rules.capture.ever_takes() {
            let opposite = 2 * n - last;
            let there = get(ring, opposite);
            if self.rules.capture.takes(u32::from(there)) {
                clear(ring, last);
                clear(ring, opposite);
                add(ring, n, here + there);
            }
        }
        PickEnd::TurnOver
    }

    /// Ring index of the own store.
    #[inline(always)]
    pub fn store_index(&self) -> usize {
        self.n
    }

    /// Play a pick from the non-empty ring counter `from`, as
    /// [`rules::pick::play`] does.
    #[inline]
    pub fn play(&self, ring: &mut Packed<W>, from: usize) -> PickEnd {
        let mut from = from;
        loop {
            let k = get(ring, from);
            debug_assert!(k > 0, "pick from an empty pit");
            let at = from * self.stride + k as usize;
            for (word, d) in ring.iter_mut().zip(&self.deltas[at]) {
                *word = word.wrapping_add(*d);
            }
            let last = self.lasts[at] as usize;
            if self.rules.relay && last != self.n && get(ring, last) > 1 {
                from = last;
                continue;
            }
            return self.land(ring, last);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{pick, Capture};

    #[test]
    fn packed_engine_matches_the_reference_on_every_single_pick() {
        // Every pit of a few boards, under every rule set.
        let boards: [&[u8]; 3] = [
            &[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4],
            &[0, 13, 1, 0, 2, 26, 5, 1, 0, 3, 0, 7, 1],
            &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
        ];
        for scope in [rules::Scope::Own, rules::Scope::Any] {
            for relay in [false, true] {
                for capture in Capture::ALL {
                    let rules = Rules {
                        scope,
                        relay,
                        capture,
                    };
                    let engine = Engine::<2>::new(6, 255, rules, Kernel::Scalar);
                    for b in boards {
                        for from in (0..13).filter(|&i| i != 6 && b[i] > 0) {
                            let mut slow = b.to_vec();
                            let end = pick::play(&mut slow, from, rules);
                            let mut fast: Packed<2> = pack(b);
                            assert_eq!(engine.play(&mut fast, from), end);
                            let mut back = [0u8; 13];
                            unpack(&fast, &mut back);
                            assert_eq!(back.to_vec(), slow, "{rules} {b:?} from {from}");
                        }
                    }
                }
            }
        }
    }
}
