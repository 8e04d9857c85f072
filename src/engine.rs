//! The search's packed rules engine: the rules of [`crate::pick`], with the
//! ring packed into 64-bit words, one byte a counter.
//!
//! A sowing of `k` stones from ring index `from` is `q = k / len` laps plus
//! one stone for each of the next `r = k % len` counters. Both parts are
//! precomputed: a lap adds `q` to every byte, and the remainder adds a mask
//! with a 1 in the `r` bytes after `from`. So a whole sowing, however many
//! stones it carries, is `W` word additions. No byte can carry into the next,
//! because at most 255 stones are in play (see [`crate::board::MAX_STONES_IN_PLAY`]).
//!
//! [`crate::pick::play`] stays the reference: a property test checks that both
//! engines agree on random positions under every rule set, and `replay` and
//! the puzzle player use the reference.

use crate::pick::PickEnd;
use crate::rules::{Capture, Rules};

/// A packed ring: `W` little-endian words, byte `i` is ring counter `i`.
pub type Packed<const W: usize> = [u64; W];

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
    len: usize,
    rules: Rules,
    /// A 1 in every counter of the ring: one lap.
    lap: Packed<W>,
    /// `rest[from * len + r]`: a 1 in the `r` counters after `from`.
    rest: Vec<Packed<W>>,
    /// `(q, r)` for a pit of `k` stones: whole laps and remainder.
    laps: [(u8, u8); 256],
}

impl<const W: usize> Engine<W> {
    /// Tables for `n` pits a side; `2n+1` counters must fit `8 * W` bytes.
    pub fn new(n: usize, rules: Rules) -> Self {
        let len = 2 * n + 1;
        assert!(len <= 8 * W, "a ring of {len} counters does not fit {W} words");
        let lap = pack(&vec![1u8; len]);
        let mut rest = Vec::with_capacity(len * len);
        for from in 0..len {
            for r in 0..len {
                let mut bytes = vec![0u8; len];
                for j in 1..=r {
                    bytes[(from + j) % len] = 1;
                }
                rest.push(pack(&bytes));
            }
        }
        let mut laps = [(0u8, 0u8); 256];
        for (k, slot) in laps.iter_mut().enumerate() {
            *slot = ((k / len) as u8, (k % len) as u8);
        }
        Engine {
            n,
            len,
            rules,
            lap,
            rest,
            laps,
        }
    }

    /// Ring index of the own store.
    #[inline(always)]
    pub fn store_index(&self) -> usize {
        self.n
    }

    /// Play a pick from the non-empty ring counter `from`, as
    /// [`crate::pick::play`] does.
    #[inline]
    pub fn play(&self, ring: &mut Packed<W>, from: usize) -> PickEnd {
        let n = self.n;
        let mut from = from;
        loop {
            let k = get(ring, from);
            debug_assert!(k > 0, "pick from an empty pit");
            clear(ring, from);
            let (q, r) = self.laps[k as usize];
            let rest = &self.rest[from * self.len + r as usize];
            for w in 0..W {
                ring[w] += self.lap[w] * q as u64 + rest[w];
            }
            let mut last = from + r as usize;
            if last >= self.len {
                last -= self.len;
            }
            if last == n {
                return PickEnd::FreeTurn;
            }
            let here = get(ring, last);
            if here > 1 {
                if self.rules.relay {
                    from = last;
                    continue;
                }
                return PickEnd::TurnOver;
            }
            if last < n && self.rules.capture != Capture::None {
                let opposite = 2 * n - last;
                let there = get(ring, opposite);
                if there > 0 || self.rules.capture == Capture::Empty {
                    clear(ring, last);
                    clear(ring, opposite);
                    add(ring, n, here + there);
                }
            }
            return PickEnd::TurnOver;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pick;

    #[test]
    fn packed_engine_matches_the_reference_on_every_single_pick() {
        // Every pit of a few boards, under every rule set.
        let boards: [&[u8]; 3] = [
            &[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4],
            &[0, 13, 1, 0, 2, 26, 5, 1, 0, 3, 0, 7, 1],
            &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
        ];
        for scope in [crate::Scope::Own, crate::Scope::Any] {
            for relay in [false, true] {
                for capture in [Capture::None, Capture::Kalah, Capture::Empty] {
                    let rules = Rules { scope, relay, capture };
                    let engine = Engine::<2>::new(6, rules);
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
