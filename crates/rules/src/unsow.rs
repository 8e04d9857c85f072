//! Picks played backwards: every position and pick from which one pick
//! ends in the own store and leaves a given position.
//!
//! A sowing of `k = q * len + r` stones (`0 <= r < len`) from counter `f`
//! leaves `q` stones in `f` (one a lap) and adds `q` to every other counter,
//! and one more to the `r` after `f`; the last stone lands `r` places after
//! `f`. So given the position after a sowing and where its last stone
//! landed, each counter `f` is the start of at most one sowing: `r` is the
//! distance from `f` to the landing, `q` is what `f` holds now, and the
//! position before is what remains when those stones are taken back, if no
//! counter goes below zero.
//!
//! A pick is a chain of such sowings (relay): each one after the first
//! starts where the one before landed, which then held more than one stone.
//! Backwards, every sowing found can be the pick itself (if its pit is in
//! scope) or, when relay is on and it carried at least two stones, the
//! continuation of an earlier sowing that landed in its pit. The chains are
//! finite, because played forwards they stop (see [`crate::pick`]).
//!
//! The listing pass of [`sweep::exact`] uses this to find the nodes on
//! optimal lines from the top down without expanding every node: a tested
//! second path next to the forward engine.

use crate::Rules;

/// The largest ring: two sides of 16 pits and the own store.
const RING: usize = 33;

/// Call `f(before, pit)` for every position `before` and ring index `pit`
/// such that picking `pit` on `before` under `rules` ends in the own store
/// (a free turn) and leaves `after` (`2n+1` counters, own store at `n`).
/// `in_scope[i]` says whether ring index `i` may be picked. A position may
/// come more than once, with different pits.
pub fn free_turn_predecessors(
    after: &[u8],
    n: usize,
    rules: Rules,
    in_scope: &[bool],
    mut f: impl FnMut(&[u8], usize),
) {
    let len = after.len();
    assert!(len == 2 * n + 1 && len <= RING, "a ring of 2n+1 counters");
    let mut start = [0u8; RING];
    start[..len].copy_from_slice(after);
    // Positions after a sowing, with the counter its last stone landed in.
    let mut stack = vec![(start, n)];
    while let Some((ring, landed)) = stack.pop() {
        for from in (0..len).filter(|&i| i != n) {
            let Some(before) = unsow(&ring[..len], from, landed) else {
                continue;
            };
            let k = before[from];
            if in_scope[from] {
                f(&before[..len], from);
            }
            if rules.relay && k > 1 {
                stack.push((before, from));
            }
        }
    }
}

/// The position before a sowing from `from` whose last stone landed in
/// `landed`, leaving `ring`; `None` when there is none.
fn unsow(ring: &[u8], from: usize, landed: usize) -> Option<[u8; RING]> {
    let len = ring.len();
    let r = (landed + len - from) % len;
    let q = ring[from] as usize;
    let k = q * len + r;
    if k == 0 || k > u8::MAX as usize {
        return None;
    }
    let mut before = [0u8; RING];
    for (j, (b, &now)) in before.iter_mut().zip(ring).enumerate() {
        if j == from {
            *b = k as u8;
            continue;
        }
        let extra = ((j + len - from) % len).wrapping_sub(1) < r;
        *b = (now as usize).checked_sub(q + extra as usize)? as u8;
    }
    Some(before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pick::{play, PickEnd};
    use crate::Scope;

    /// Every predecessor found replays forward to the position, and every
    /// free turn into it from a small exhaustive set of positions is found.
    #[test]
    fn predecessors_are_exactly_the_free_turns_into_a_position() {
        for rules in [Rules::ANY_HOLE, Rules::AVALANCHE, Rules::KALAH] {
            let n = 2;
            let len = 2 * n + 1;
            let in_scope: Vec<bool> = (0..len)
                .map(|i| i != n && (rules.scope == Scope::Any || i < n))
                .collect();
            // All positions of 2x2 with up to 6 stones in pits, store 0..2.
            let mut all = Vec::new();
            for code in 0..7u32.pow(4) * 3 {
                let mut ring = [0u8; 5];
                let mut c = code;
                for i in [0, 1, 3, 4] {
                    ring[i] = (c % 7) as u8;
                    c /= 7;
                }
                ring[n] = c as u8;
                all.push(ring);
            }
            let mut into: std::collections::HashMap<[u8; 5], Vec<([u8; 5], usize)>> =
                std::collections::HashMap::new();
            for before in &all {
                for pit in (0..len).filter(|&i| in_scope[i] && before[i] > 0) {
                    let mut after = *before;
                    if play(&mut after, pit, rules) == PickEnd::FreeTurn {
                        into.entry(after).or_default().push((*before, pit));
                    }
                }
            }
            let mut checked = 0;
            for (after, want) in &into {
                let mut got = Vec::new();
                free_turn_predecessors(after, n, rules, &in_scope, |b, pit| {
                    let mut replay: [u8; 5] = b.try_into().unwrap();
                    assert_eq!(play(&mut replay, pit, rules), PickEnd::FreeTurn);
                    assert_eq!(&replay, after);
                    got.push((<[u8; 5]>::try_from(b).unwrap(), pit));
                });
                // Predecessors with more stones than the exhaustive set
                // holds are real but not in `want`.
                got.retain(|(b, _)| b[n] <= 2 && [0, 1, 3, 4].iter().all(|&i| b[i] <= 6));
                got.sort();
                let mut want = want.clone();
                want.sort();
                assert_eq!(got, want, "{rules:?} {after:?}");
                checked += 1;
            }
            assert!(checked > 100);
        }
    }
}
