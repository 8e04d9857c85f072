//! The rules layer's errors: a board that cannot exist, a pick that is not
//! allowed, a replay that stops at an illegal pick.
//!
//! Each carries the value it rejected and says what is allowed, in the
//! words of the game (pits, stones, scope), never of a command-line flag:
//! the same messages serve the terminal and a web page.

use super::limits::{MAX_PITS_PER_SIDE, MAX_STONES_IN_PLAY};
use super::Scope;
use thiserror::Error;

/// A board that cannot be built or read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Pits a side out of range.
    #[error("pits per side {0} is not allowed: use 1 to {MAX_PITS_PER_SIDE}")]
    PitsPerSide(usize),

    /// More stones in play than a pit counter (`u8`) can hold.
    #[error("{0} stones in the pits and your store is too many: at most {MAX_STONES_IN_PLAY} are allowed")]
    TooManyStones(u64),

    /// The opponent's store is out of range.
    #[error("opponent store {0} is too large: at most {MAX_STONES_IN_PLAY} is allowed")]
    OpponentStore(u64),

    /// The board text could not be read.
    #[error("board {text:?}: {reason}")]
    Text {
        /// The text as given (trimmed).
        text: String,
        /// What is wrong and what is allowed.
        reason: String,
    },
}

/// Why a single pick is illegal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PickError {
    /// Not a pit number on this board.
    #[error("no such pit: {}", pick_range(*n, *scope))]
    OutOfRange {
        /// Pits a side.
        n: usize,
        /// Which pits the rules let you pick: the message gives their
        /// range, the one the prompt gave (1 to n under scope own), not
        /// the whole board's.
        scope: Scope,
    },
    /// An opponent pit under scope `own`.
    #[error("an opponent pit: you may pick only your own pits, 1 to {n}")]
    OutsideScope {
        /// Pits a side.
        n: usize,
    },
    /// The pit holds no stones.
    #[error("the pit is empty: pick a pit that holds stones")]
    Empty,
    /// The turn has already ended.
    #[error(
        "the turn has already ended: a pick is allowed only after one that ended in the store"
    )]
    TurnOver,
}

/// The pits `scope` lets you pick on a board of `n` pits a side, in
/// words: `your pits are 1 to 6`, `pits are numbered 1 to 12`.
pub fn pick_range(n: usize, scope: Scope) -> String {
    match scope {
        Scope::Own => format!("your pits are 1 to {n}"),
        Scope::Any => format!("pits are numbered 1 to {}", 2 * n),
    }
}

/// An illegal pick in a list of picks (`replay`, a puzzle's solution).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("pick {place} of {total} ({pick}): {reason}")]
pub struct ReplayError {
    /// 1-based place of the pick in the list.
    pub place: usize,
    /// How many picks the list has.
    pub total: usize,
    /// The pick as given.
    pub pick: u32,
    /// Why it is illegal.
    #[source]
    pub reason: PickError,
}
