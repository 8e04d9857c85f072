//! A pick: empty one pit, sow it, follow relay sowings, and apply the capture
//! rule. This is the whole rules engine; [`crate::turn`] strings picks into a
//! turn and [`sweep::exact`] searches over them.
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

use super::pit::Pit;
use super::sow::sow;
use super::variant::Rules;

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
/// search; [`crate::turn::Turn::pick`] is the checked one.
#[inline]
pub fn play(ring: &mut [u8], from: usize, rules: Rules) -> PickEnd {
    play_inlined(ring, from, rules)
}

/// [`play`], always inlined: for a caller compiled for one ring length
/// (the game solver's search for 6 pits a side), whose copy then knows
/// the length and loses its bounds checks and loops; a call costs more
/// than such a pick.
#[inline(always)]
pub fn play_inlined(ring: &mut [u8], from: usize, rules: Rules) -> PickEnd {
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
        if last < n && rules.capture.ever_takes() {
            let opposite = 2 * n - last;
            if rules.capture.takes(u32::from(ring[opposite])) {
                ring[n] += ring[last] + ring[opposite];
                ring[last] = 0;
                ring[opposite] = 0;
            }
        }
        return PickEnd::TurnOver;
    }
}

/// Where the last stone of a sowing fell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Landing {
    /// The player's own store.
    Store,
    /// A pit, and how many stones it held before the stone fell in.
    Pit(Pit, u8),
}

/// One sowing of a pick: the pick itself, then one for each relay.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// The pit emptied.
    pub from: Pit,
    /// Stones taken up from it.
    pub stones: u8,
    /// Where the last one fell.
    pub last: Landing,
}

/// A capture at the end of a pick.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Captured {
    /// The own pit the last stone fell into.
    pub pit: Pit,
    /// The pit opposite it.
    pub opposite: Pit,
    /// Stones taken from the opposite pit (the last stone adds one more).
    pub stones: u8,
}

/// What happened in one pick, for people: every sowing, the capture if
/// any, and how it ended. [`play_traced`] makes it; the text reports and a
/// web page tell a player what a pick did from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickTrace {
    /// The sowings, the pick's own first.
    pub sowings: Vec<Sowing>,
    /// The capture, when the rules made one.
    pub capture: Option<Captured>,
    /// How the pick ended.
    pub end: PickEnd,
}

/// [`play`], recording what happened. It follows the same rules step by
/// step (a test checks both on random positions), for the checked path
/// only: the search never pays for the record.
pub fn play_traced(ring: &mut [u8], from: usize, rules: Rules) -> PickTrace {
    let n = ring.len() / 2;
    let pit = |r: usize| Pit::from_ring(r, n).expect("a sowing starts and ends in pits");
    let mut from = from;
    let mut sowings = Vec::new();
    loop {
        let k = ring[from];
        debug_assert!(k > 0, "pick from an empty pit");
        ring[from] = 0;
        let last = sow(ring, from, k);
        if last == n {
            sowings.push(Sowing {
                from: pit(from),
                stones: k,
                last: Landing::Store,
            });
            return PickTrace {
                sowings,
                capture: None,
                end: PickEnd::FreeTurn,
            };
        }
        sowings.push(Sowing {
            from: pit(from),
            stones: k,
            last: Landing::Pit(pit(last), ring[last] - 1),
        });
        if ring[last] > 1 {
            if rules.relay {
                from = last;
                continue;
            }
            return PickTrace {
                sowings,
                capture: None,
                end: PickEnd::TurnOver,
            };
        }
        let mut capture = None;
        if last < n && rules.capture.ever_takes() {
            let opposite = 2 * n - last;
            if rules.capture.takes(u32::from(ring[opposite])) {
                capture = Some(Captured {
                    pit: pit(last),
                    opposite: pit(opposite),
                    stones: ring[opposite],
                });
                ring[n] += ring[last] + ring[opposite];
                ring[last] = 0;
                ring[opposite] = 0;
            }
        }
        return PickTrace {
            sowings,
            capture,
            end: PickEnd::TurnOver,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capture, Scope};

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
