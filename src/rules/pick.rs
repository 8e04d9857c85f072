//! A pick: empty one pit, sow it, follow relay sowings, and apply the capture
//! rule. This is the whole rules engine; [`crate::rules::turn`] strings picks into a
//! turn and [`crate::search::exact`] searches over them.
//!
//! Where the last stone lands decides what happens:
//! - the own store: a free turn ([`PickEnd::FreeTurn`]);
//! - with relay on, a pit that held stones before this stone: all its stones
//!   are taken up and sowing goes on from there, within the same pick;
//! - otherwise the turn ends ([`PickEnd::TurnOver`]), after a capture when the
//!   rules have one and the stone landed in an empty own pit.
//!
//! Relay chains always stop: a sowing that does not pass the store moves every
//! stone it carries closer to the store, and one that passes it adds to the
//! store, which only grows.

use super::sow::sow;
use crate::rules::{Capture, Rules};

/// How a pick ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PickEnd {
    /// The last stone fell into the own store: the player picks again.
    FreeTurn,
    /// The last stone fell into a pit and the turn is over.
    TurnOver,
}

/// Play a pick from ring index `from` on `ring` (2n+1 counters, store at
/// index n). The pit must be non-empty. This is the unchecked hot path of the
/// search; [`crate::rules::turn::Turn::pick`] is the checked one.
#[inline]
pub fn play(ring: &mut [u8], from: usize, rules: Rules) -> PickEnd {
    let n = ring.len() / 2;
    let mut from = from;
    loop {
        let k = ring[from];
        debug_assert!(k > 0, "pick from an empty pit");
        ring[from] = 0;
        let last = sow(ring, from, k);
        if last == n {
            return PickEnd::FreeTurn;
        }
        if ring[last] > 1 {
            if rules.relay {
                from = last;
                continue;
            }
            return PickEnd::TurnOver;
        }
        // The last stone fell into an empty pit.
        if last < n && rules.capture != Capture::None {
            let opposite = 2 * n - last;
            if ring[opposite] > 0 || rules.capture == Capture::Empty {
                ring[n] += ring[last] + ring[opposite];
                ring[last] = 0;
                ring[opposite] = 0;
            }
        }
        return PickEnd::TurnOver;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Scope;

    const N6: usize = 6;

    /// Ring for a 2x6 board from pits in pit-number order and a store.
    fn ring(pits: [u8; 12], store: u8) -> [u8; 13] {
        let mut r = [0u8; 13];
        r[..6].copy_from_slice(&pits[..6]);
        r[6] = store;
        r[7..].copy_from_slice(&pits[6..]);
        r
    }

    const NO_RELAY: Rules = Rules {
        scope: Scope::Own,
        relay: false,
        capture: Capture::None,
    };

    #[test]
    fn last_stone_in_store_is_a_free_turn() {
        // Pit 3 holds 4: pits 4, 5, 6 and the store.
        let mut r = ring([4; 12], 0);
        assert_eq!(play(&mut r, 2, Rules::AVALANCHE), PickEnd::FreeTurn);
        assert_eq!(r, ring([4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4], 1));
    }

    #[test]
    fn laps_past_the_store_with_2n_plus_1_or_more_stones() {
        // 13 stones from pit 1 on 2x6: one lap, every counter +1, the last
        // stone back in the (emptied) pit 1, which is empty before it.
        let mut pits = [0u8; 12];
        pits[0] = 13;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 0, NO_RELAY), PickEnd::TurnOver);
        assert_eq!(r, [1; 13]);
        // 19 stones from pit 1: one lap plus 6 more, the last in the store.
        pits[0] = 19;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 0, NO_RELAY), PickEnd::FreeTurn);
        assert_eq!(r, ring([1, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1], 2));
        // 26 stones from pit 6: two laps, the store passed twice, the last
        // stone in pit 6, which held a stone from the first lap.
        let mut pits = [0u8; 12];
        pits[5] = 26;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 5, NO_RELAY), PickEnd::TurnOver);
        assert_eq!(r, [2; 13]);
    }

    #[test]
    fn relay_on_the_opponent_side() {
        // Pit 6 holds 2: one stone to the store, the last to pit 7, which held
        // 1, so its 2 stones relay on to pits 8 and 9; pit 9 was empty.
        let mut pits = [0u8; 12];
        pits[5] = 2;
        pits[6] = 1;
        pits[9] = 2;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 5, Rules::AVALANCHE), PickEnd::TurnOver);
        assert_eq!(r, ring([0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0], 1));
    }

    #[test]
    fn relay_through_the_store() {
        // Pit 11 holds 1 -> pit 12 (3 -> 4): relay 4 from pit 12 goes round
        // to pits 1, 2, 3 and 4; pit 4 held 2 -> relay 3: pits 5, 6, store.
        let mut pits = [0u8; 12];
        pits[10] = 1;
        pits[11] = 3;
        pits[3] = 2;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 11, Rules::ANY_HOLE), PickEnd::FreeTurn);
        assert_eq!(r, ring([1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0], 1));
        // Without relay the same pick ends in pit 12.
        let mut r = ring(pits, 0);
        let any_plain = Rules {
            relay: false,
            ..Rules::ANY_HOLE
        };
        assert_eq!(play(&mut r, 11, any_plain), PickEnd::TurnOver);
        assert_eq!(r, ring([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4], 0));
    }

    #[test]
    fn captures_at_both_edges() {
        // Edge next to the store: pit 5 (1 stone) into empty pit 6, whose
        // opposite pit 7 holds 3.
        let mut pits = [0u8; 12];
        pits[4] = 1;
        pits[6] = 3;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 4, Rules::KALAH), PickEnd::TurnOver);
        assert_eq!(r, ring([0; 12], 4));
        // Edge 2: pit 12 holds 1 and sows into empty pit 1; opposite is pit 12,
        // now empty: kalah takes nothing, empty takes the lone stone.
        let mut pits = [0u8; 12];
        pits[11] = 1;
        let kalah_any = Rules {
            scope: Scope::Any,
            ..Rules::KALAH
        };
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 12, kalah_any), PickEnd::TurnOver);
        assert_eq!(r, ring([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0));
        let empty_any = Rules {
            capture: Capture::Empty,
            ..kalah_any
        };
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 12, empty_any), PickEnd::TurnOver);
        assert_eq!(r, ring([0; 12], 1));
        // A last stone in an empty opponent pit (7 -> 8) never captures, even
        // with stones opposite it in pit 5.
        let mut pits = [0u8; 12];
        pits[6] = 1;
        pits[4] = 5;
        let mut r = ring(pits, 0);
        assert_eq!(play(&mut r, 7, empty_any), PickEnd::TurnOver);
        assert_eq!(r[8], 1);
        assert_eq!(r[N6], 0);
    }
}
