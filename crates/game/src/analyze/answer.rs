//! What an analysis answers: every whole turn with what is known of its
//! value. An opening book answers with it too, so it sits below both the
//! search that fills it and the book.

use crate::state::GameState;
use rules::Pit;
use std::time::Duration;

/// One whole turn and what is known of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnValue {
    /// The picks (pit numbers from the mover's view), the first sequence in
    /// pit order that reaches this end of turn.
    pub picks: Vec<Pit>,
    /// The position after the turn.
    pub after: GameState,
    /// The value for the player to move (their final store minus the
    /// opponent's, as `game solve` gives it): exact when `exact`, else the
    /// estimate, within `low..=high`.
    pub value: i32,
    /// True when `value` is proved.
    pub exact: bool,
    /// The value is at least this (proved).
    pub low: i32,
    /// The value is at most this (proved).
    pub high: i32,
    /// Turns looked ahead after this one by the deepest estimate finished
    /// (0: the stores right after the turn).
    pub depth: u32,
    /// When `exact`: the best line after this turn, a turn an entry (pits
    /// from each mover's view), as far as the budget reached (to the end
    /// of the game when it lasted); empty otherwise and at the game's end.
    pub line: Vec<Vec<Pit>>,
}

/// What an analysis found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every whole turn, best first (by value, then proved before not,
    /// then by the picks' order); never empty.
    pub turns: Vec<TurnValue>,
    /// The deepest estimate finished for every turn (turns ahead).
    pub depth: u32,
    /// Nodes (picks) searched in all.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// True when the cancel flag stopped it.
    pub cancelled: bool,
    /// True when the answer is an opening book's ([`crate::book`]):
    /// every turn exact, with no search.
    pub book: bool,
}

impl TurnValue {
    /// Narrows the turn's bounds to what a proof found, `lo..=hi` (from
    /// the analyzed player's view), and keeps the estimate inside them:
    /// every phase that proves something about a turn goes through here.
    pub(super) fn narrow(&mut self, lo: i32, hi: i32) {
        self.low = self.low.max(lo);
        self.high = self.high.min(hi).max(self.low);
        self.exact = self.low == self.high;
        self.value = self.value.clamp(self.low, self.high);
    }
}

impl Analysis {
    /// The position's value for the player to move: the best turn's.
    pub fn value(&self) -> i32 {
        self.turns[0].value
    }

    /// True when the position's value is proved and the first turn is
    /// proved to reach it (every other turn's `high` is at most it).
    pub fn exact(&self) -> bool {
        let best = &self.turns[0];
        best.exact && self.turns[1..].iter().all(|t| t.high <= best.value)
    }

    /// The principal variation, a turn an entry, from the best turn on
    /// (pits from each turn's mover's view); past the first turn only when
    /// that turn's value is proved.
    pub fn pv(&self) -> Vec<Vec<Pit>> {
        let best = &self.turns[0];
        std::iter::once(best.picks.clone())
            .chain(best.line.iter().cloned())
            .collect()
    }

    /// The turns proved so far.
    pub fn proved(&self) -> usize {
        self.turns.iter().filter(|t| t.exact).count()
    }
}
