//! A turn: picks played one after another while each ends in the own store.
//!
//! [`Turn`] is the checked path. It refuses a pick that is out of range,
//! outside the scope, from an empty pit, or made after the turn has ended,
//! and it is what `replay`, the puzzle player and the tests that replay every
//! line the search returns go through.

use super::board::Board;
use super::error::{PickError, ReplayError};
use super::pick::{self, PickEnd, PickTrace};
use super::pit::Pit;
use super::variant::{Rules, Scope};

/// A turn in progress.
#[derive(Clone, Debug)]
pub struct Turn {
    board: Board,
    rules: Rules,
    picks: Vec<Pit>,
    last_end: Option<PickEnd>,
    last_trace: Option<PickTrace>,
    to_move: bool,
}

impl Turn {
    /// Start a turn on `board`. The player is to move when it has a legal pick.
    pub fn new(board: Board, rules: Rules) -> Turn {
        Turn {
            board,
            rules,
            picks: Vec::new(),
            last_end: None,
            last_trace: None,
            to_move: board.can_move(rules),
        }
    }

    /// The rules the turn is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Picks played so far.
    pub fn picks(&self) -> &[Pit] {
        &self.picks
    }

    /// How the last pick ended (`None` before the first).
    pub fn last_end(&self) -> Option<PickEnd> {
        self.last_end
    }

    /// What the last pick did: its sowings, relays and capture (`None`
    /// before the first).
    pub fn last_trace(&self) -> Option<&PickTrace> {
        self.last_trace.as_ref()
    }

    /// True while the player may still pick.
    pub fn to_move(&self) -> bool {
        self.to_move
    }

    /// Check that pit `number` may be picked now.
    pub fn check(&self, number: u32) -> std::result::Result<Pit, PickError> {
        let n = self.board.pits_per_side();
        let pit = Pit::new(number, n).ok_or(PickError::OutOfRange {
            n,
            scope: self.rules.scope,
        })?;
        if !self.to_move {
            return Err(PickError::TurnOver);
        }
        if self.rules.scope == Scope::Own && !pit.is_own(n) {
            return Err(PickError::OutsideScope { n });
        }
        if self.board.pit(pit) == 0 {
            return Err(PickError::Empty);
        }
        Ok(pit)
    }

    /// Play pit `number`. After a free turn with no legal pick left the turn ends.
    pub fn pick(&mut self, number: u32) -> std::result::Result<PickEnd, PickError> {
        let pit = self.check(number)?;
        let n = self.board.pits_per_side();
        let trace = pick::play_traced(self.board.ring_mut(), pit.ring(n), self.rules);
        let end = trace.end;
        self.picks.push(pit);
        self.last_end = Some(end);
        self.last_trace = Some(trace);
        self.to_move = end == PickEnd::FreeTurn && self.board.can_move(self.rules);
        Ok(end)
    }
}

/// Play `picks` from `board`, returning the turn after each pick (the first
/// entry is the start). An illegal pick is an error naming its place.
pub fn replay(board: Board, rules: Rules, picks: &[u32]) -> Result<Vec<Turn>, ReplayError> {
    let mut turn = Turn::new(board, rules);
    let mut states = vec![turn.clone()];
    for (i, &p) in picks.iter().enumerate() {
        turn.pick(p).map_err(|reason| ReplayError {
            place: i + 1,
            total: picks.len(),
            pick: p,
            reason,
        })?;
        states.push(turn.clone());
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_picks_are_named() {
        let b = Board::uniform(6, 4).unwrap();
        let err = |picks: &[u32], rules| replay(b, rules, picks).unwrap_err().to_string();
        assert_eq!(
            err(&[13], Rules::ANY_HOLE),
            "pick 1 of 1 (13): no such pit: pits are numbered 1 to 12"
        );
        assert!(err(&[7], Rules::AVALANCHE).contains("you may pick only your own pits, 1 to 6"));
        // Pit 3 ends in the store; picking it again finds it empty.
        assert!(err(&[3, 3], Rules::AVALANCHE).starts_with("pick 2 of 2 (3): the pit is empty"));
        // Kalah: pit 1 ends in pit 5, and the turn is over.
        assert!(err(&[1, 2], Rules::KALAH).contains("turn has already ended"));
    }

    #[test]
    fn a_free_turn_with_nothing_left_to_pick_ends_the_turn() {
        let b: Board = "0 / 0 0 / 1".parse().unwrap();
        let states = replay(b, Rules::AVALANCHE, &[1]).unwrap();
        assert!(!states.last().unwrap().to_move());
        assert_eq!(states.last().unwrap().board().store(), 1);
    }
}
