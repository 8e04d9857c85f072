//! The application's error: every layer's error, wrapped.
//!
//! Each layer has its own `thiserror` type that says what went wrong in its
//! own words ([`rules::BoardError`], [`sweep::SearchError`],
//! [`puzzle::PuzzleError`], ...). This one wraps them with `#[from]`
//! so that a caller of several layers (the command line, a web server) has
//! one type to match on, and answers the two questions every front end asks:
//! was it the user's input ([`Error::is_input`]), and was it a cancel.
//! Hints about flags are added by the command line only.

use atlas::AtlasError;
use format::FileError;
use game::{CheckpointError, EndgameError, GameError, GameFileError};
use puzzle::PuzzleError;
use rules::{BoardError, ReplayError};
use sweep::SearchError;
use thiserror::Error;

/// Everything the library can refuse or fail with.
#[derive(Debug, Error)]
pub enum Error {
    /// A board that cannot exist or be read.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// An illegal pick in a list of picks.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The search refused or failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// Making, reading or checking puzzles failed.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// Making an atlas failed.
    #[error(transparent)]
    Atlas(#[from] AtlasError),
    /// A whole game, agent or match refused or failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl Error {
    /// True when the error is about what the user asked for (a board, a
    /// pick, a file to read), not a failure of a run that was asked for
    /// correctly (the memory guard, an overflow, a cancel, a bug).
    pub fn is_input(&self) -> bool {
        match self {
            Error::Board(_) | Error::Replay(_) => true,
            // A full disk is not the input's fault (benches/faults.py).
            Error::File(e) => !e.is_disk_full(),
            Error::Search(e) => e.is_input(),
            Error::Puzzle(e) => match e {
                PuzzleError::Search(e) => e.is_input(),
                PuzzleError::CheckInterrupted { .. } => false,
                _ => true,
            },
            Error::Atlas(e) => match e {
                AtlasError::Search(e) => e.is_input(),
                AtlasError::Interrupted => false,
                _ => true,
            },
            Error::Game(e) => !matches!(
                e,
                GameError::AgentFailed(_)
                    | GameError::SolverMismatch(_)
                    | GameError::Endgame(EndgameError::Io(GameFileError {
                        disk_full: true,
                        ..
                    }))
                    | GameError::Checkpoint(CheckpointError::Io(GameFileError {
                        disk_full: true,
                        ..
                    }))
            ),
        }
    }

    /// The search error inside, if this is one.
    pub fn search(&self) -> Option<&SearchError> {
        match self {
            Error::Search(e)
            | Error::Puzzle(PuzzleError::Search(e))
            | Error::Atlas(AtlasError::Search(e)) => Some(e),
            _ => None,
        }
    }

    /// True when the user's cancel (Ctrl-C) stopped the run.
    pub fn is_cancelled(&self) -> bool {
        matches!(
            self,
            Error::Atlas(AtlasError::Interrupted)
                | Error::Puzzle(PuzzleError::CheckInterrupted { .. })
        ) || self.search().is_some_and(SearchError::is_cancelled)
    }
}

/// Result with the library's [`Error`](enum@Error).
pub type Result<T, E = Error> = std::result::Result<T, E>;
