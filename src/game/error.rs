//! Errors of the game module: each names the value it refused and says what
//! is allowed, so a CLI or a web server can show it as it is.

use thiserror::Error;

/// Everything the game module can refuse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The board could not be built (pits per side, stone counts).
    #[error(transparent)]
    Board(#[from] crate::rules::BoardError),

    /// More stones on the board than a counter can hold.
    #[error("{0} stones on the board is too many: at most 255 are allowed in a game")]
    TooManyStones(u32),

    /// A pick that the rules do not allow now.
    #[error("pick {pick}: {reason}")]
    IllegalPick {
        /// The pit number as given.
        pick: u32,
        /// Why it is illegal.
        reason: PickRefusal,
    },

    /// A list of picks that is not one whole turn.
    #[error("not a whole turn: {0}")]
    IllegalTurn(String),

    /// An agent description that could not be read.
    #[error("agent {spec:?}: {reason}")]
    AgentSpec {
        /// The text as given.
        spec: String,
        /// What is wrong and what is allowed.
        reason: String,
    },

    /// An unknown level name.
    #[error("level {0:?} is not known: use easy, medium, hard or perfect")]
    Level(String),

    /// The solver's transposition table would pass the memory cap.
    #[error(
        "a transposition table of {requested} bytes would exceed the memory cap of {cap} bytes: raise the cap or ask for a smaller table"
    )]
    TableTooLarge {
        /// Bytes the table would take.
        requested: u64,
        /// The cap in force.
        cap: u64,
    },

    /// An endgame database that cannot be built or used as asked.
    #[error("endgame database: {0}")]
    Endgame(String),

    /// A match that cannot be played as asked.
    #[error("match: {0}")]
    Match(String),

    /// A position whose game is over, where a turn was asked for.
    #[error("the game is over on this board ({0}): there is no turn to analyse")]
    GameOver(String),

    /// An agent broke the rules (a bug, not bad input).
    #[error("{0}")]
    AgentFailed(String),

    /// A kept solver asked for a position it was not made for.
    #[error("this solver was made for other rules, another board size or fewer stones than {0}")]
    SolverMismatch(String),

    /// The computer's search was stopped (its time ran out or its client
    /// left) before it chose a turn; the game is as it was before.
    #[error("the computer's search was stopped before it chose its turn")]
    Stopped,
}

/// Why a pick is refused in a game: the rules engine's reason, or the
/// game's own (over, or not the person's turn).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PickRefusal {
    /// The rules do not allow it (no such pit, an opponent pit, empty).
    #[error(transparent)]
    Rules(#[from] crate::rules::PickError),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The computer is to move.
    #[error("it is the computer's turn")]
    ComputersTurn,
}
