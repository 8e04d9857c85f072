//! Pit numbers and where each pit sits on the sowing ring.
//!
//! Pit numbers are the public interface (input, output, JSON): 1..2n in sowing
//! order. Own pits are 1..n from left to right, pit n sits next to the own
//! store, pit n+1 is the opponent pit right after the store (opposite pit n),
//! and pit 2n is opposite pit 1. The opposite of pit i is 2n+1-i.
//!
//! Internally a board is a *ring* of 2n+1 counters in sowing order with the
//! own store in the middle: ring index `i-1` for own pit `i`, index `n` for
//! the store, and index `i` for opponent pit `i`. Sowing is then a walk along
//! the ring, and the opponent's store, which is always skipped, is not on it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A pit number, 1..=2n in sowing order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pit(u8);

impl Pit {
    /// The pit with this number on a board with `n` pits a side, if there is one.
    pub fn new(number: u32, n: usize) -> Option<Pit> {
        (1..=2 * n as u32)
            .contains(&number)
            .then_some(Pit(number as u8))
    }

    /// The pit number, 1..=2n.
    pub fn number(self) -> u8 {
        self.0
    }

    /// True for the player's own pits (1..=n).
    pub fn is_own(self, n: usize) -> bool {
        (self.0 as usize) <= n
    }

    /// The pit across the board: 2n+1-i.
    pub fn opposite(self, n: usize) -> Pit {
        Pit((2 * n + 1) as u8 - self.0)
    }

    /// Index of this pit on the sowing ring (see the module docs).
    #[inline]
    pub fn ring(self, n: usize) -> usize {
        let i = self.0 as usize;
        if i <= n {
            i - 1
        } else {
            i
        }
    }

    /// The pit at ring index `r`; `None` for the store (`r == n`).
    #[inline]
    pub fn from_ring(r: usize, n: usize) -> Option<Pit> {
        match r.cmp(&n) {
            std::cmp::Ordering::Less => Some(Pit(r as u8 + 1)),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(Pit(r as u8)),
        }
    }

    /// Every pit of a board with `n` pits a side, in pit-number order.
    pub fn all(n: usize) -> impl Iterator<Item = Pit> {
        (1..=2 * n as u8).map(Pit)
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_documented_layout() {
        let n = 6;
        // Pit n sits next to the store, n+1 right after it.
        assert_eq!(Pit::new(6, n).unwrap().ring(n), 5);
        assert_eq!(Pit::from_ring(6, n), None);
        assert_eq!(Pit::new(7, n).unwrap().ring(n), 7);
        assert_eq!(Pit::new(7, n).unwrap().opposite(n).number(), 6);
        assert_eq!(Pit::new(12, n).unwrap().opposite(n).number(), 1);
        assert!(Pit::new(0, n).is_none());
        assert!(Pit::new(13, n).is_none());
    }

    #[test]
    fn ring_round_trip() {
        for n in 1..=16 {
            for p in Pit::all(n) {
                assert_eq!(Pit::from_ring(p.ring(n), n), Some(p));
                assert_eq!(p.opposite(n).opposite(n), p);
                assert_ne!(p.is_own(n), p.opposite(n).is_own(n));
            }
        }
    }
}
