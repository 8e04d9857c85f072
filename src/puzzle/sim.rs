//! Games between simple players, which the `game` source of the puzzle
//! generator draws positions from.
//!
//! This is deliberately small: a random and a greedy player and the board
//! turned round between turns. The whole-game engine (`crate::game`, with
//! real agents and the game's end) is the place for anything more.

use super::Rng64;
use crate::rules::{Board, PickEnd, Rules, Turn};
use rand::Rng;

/// How a simple player chooses its picks in a game.
#[derive(Copy, Clone, Debug)]
pub enum Player {
    /// Any legal pick, uniformly.
    Random,
    /// A pick that ends in the store if there is one, else the one that
    /// leaves the most in the store; ties broken at random.
    Greedy,
}

/// The board seen from the other side: the opponent's pits become the
/// player's, and the stores swap.
pub fn flip(board: &Board) -> Board {
    let n = board.pits_per_side();
    let pits = board.pits();
    let turned: Vec<u32> = pits[n..]
        .iter()
        .chain(&pits[..n])
        .map(|&c| c as u32)
        .collect();
    Board::from_pits(&turned, board.opponent_store() as u32, board.store() as u32)
        .expect("a flipped board holds the same stones")
}

/// Play one whole turn by `player` from `board`; returns the board when the
/// turn is over, from the mover's side.
pub fn play_turn(board: &Board, rules: Rules, player: Player, rng: &mut Rng64) -> Board {
    let mut turn = Turn::new(*board, rules);
    while turn.to_move() {
        let legal: Vec<u32> = turn
            .board()
            .legal_picks(rules)
            .map(|p| p.number() as u32)
            .collect();
        let choice = match player {
            Player::Random => legal[rng.random_range(0..legal.len())],
            Player::Greedy => {
                let score = |p: u32| {
                    let mut t = turn.clone();
                    let end = t.pick(p).expect("legal");
                    (end == PickEnd::FreeTurn, t.board().store())
                };
                let best = legal.iter().map(|&p| score(p)).max().expect("a legal pick");
                let top: Vec<u32> = legal.into_iter().filter(|&p| score(p) == best).collect();
                top[rng.random_range(0..top.len())]
            }
        };
        turn.pick(choice).expect("legal");
    }
    *turn.board()
}
