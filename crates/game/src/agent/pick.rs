//! Agents that choose one pick at a time (`random`, `greedy-pick`): the
//! rule ([`PickRule`]) and the two places it plays ([`PickPlace`]): a
//! game, or a bare turn of the puzzle generator.

use super::Rng64;
use crate::state::{GameState, PickOutcome};
use rand::Rng;
use rules::{PickEnd, Pit, Turn};
/// Where an agent that chooses one pick at a time plays: a game
/// ([`GameState`]) or a bare turn on a board ([`Turn`]). The puzzle
/// generator's games are bare turns, the board turned round between them,
/// played on past the game's end (a side emptied is not swept): the
/// positions of its committed `game` puzzles came from those games, so the
/// same rule must keep playing them, and one rule serves both places.
pub trait PickPlace: Clone {
    /// The picks the mover may make now, in pit order; empty when the turn
    /// (or the game) is over.
    fn legal(&self) -> Vec<Pit>;
    /// Plays `p`, one of [`PickPlace::legal`]: what it did.
    fn play(&mut self, p: Pit) -> PickEffect;
}

/// What one pick did, as [`PickRule`] weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickEffect {
    /// The last stone fell into the mover's store, for a free turn. In a
    /// game a pick that ends the game earns none, and counts by its store
    /// alone (which then holds the mover's pits swept in).
    pub in_store: bool,
    /// The store of the player who picked, after the pick.
    pub store: u8,
    /// The same player picks again (a free turn with a pick left).
    pub again: bool,
}

impl PickPlace for GameState {
    fn legal(&self) -> Vec<Pit> {
        self.legal_picks()
    }
    fn play(&mut self, p: Pit) -> PickEffect {
        let me = self.mover();
        let outcome = self.play_unchecked(p);
        let free = outcome == PickOutcome::FreeTurn;
        PickEffect {
            in_store: free,
            store: self.store(me),
            again: free,
        }
    }
}

impl PickPlace for Turn {
    fn legal(&self) -> Vec<Pit> {
        if !self.to_move() {
            return Vec::new();
        }
        self.board().legal_picks(self.rules()).collect()
    }
    fn play(&mut self, p: Pit) -> PickEffect {
        let end = self.pick(p.number() as u32).expect("a legal pick");
        PickEffect {
            in_store: end == PickEnd::FreeTurn,
            store: self.board().store(),
            again: self.to_move(),
        }
    }
}

/// How an agent that chooses one pick at a time chooses it: the one
/// definition of `random` and `greedy-pick`, for games and for the puzzle
/// generator's. Every draw goes through the generator it is given, in the
/// same order, so the puzzle generator (which lends its own, shared with
/// its other choices) makes the same collection for the same seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickRule {
    /// Any legal pick, uniformly (`random`).
    Random,
    /// A pick that ends in the store if there is one, else the one that
    /// leaves the most in the store; ties broken at random (`greedy-pick`).
    Greedy,
}

impl PickRule {
    /// The next pick at `at`, drawn from `rng`; `None` when there is no
    /// legal pick.
    pub fn choose<P: PickPlace>(self, at: &P, rng: &mut Rng64) -> Option<Pit> {
        let legal = at.legal();
        if legal.is_empty() {
            return None;
        }
        Some(match self {
            PickRule::Random => legal[rng.random_range(0..legal.len())],
            PickRule::Greedy => {
                let score = |p: Pit| {
                    let mut after = at.clone();
                    let picked = after.play(p);
                    (picked.in_store, picked.store)
                };
                let scores: Vec<_> = legal.iter().map(|&p| score(p)).collect();
                let best = *scores.iter().max().expect("a legal pick");
                let top: Vec<Pit> = legal
                    .into_iter()
                    .zip(scores)
                    .filter(|&(_, s)| s == best)
                    .map(|(p, _)| p)
                    .collect();
                top[rng.random_range(0..top.len())]
            }
        })
    }

    /// Plays a whole turn at `at` by this rule, drawing from `rng`: picks
    /// until one ends the turn (or none is left); the picks played.
    pub fn play_turn<P: PickPlace>(self, at: &mut P, rng: &mut Rng64) -> Vec<Pit> {
        let mut picks = Vec::new();
        while let Some(p) = self.choose(at, rng) {
            picks.push(p);
            if !at.play(p).again {
                break;
            }
        }
        picks
    }
}
