//! The puzzle layer's errors: what the layers below refuse, and a file or
//! puzzle that does not hold what it should.

use format::FileError;
use rules::{BoardError, ReplayError, Rules};
use std::path::PathBuf;
use sweep::SearchError;
use thiserror::Error;

/// Everything making, reading and checking puzzles can fail with.
#[derive(Debug, Error)]
pub enum PuzzleError {
    /// A board that cannot exist.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A pick sequence that does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The search refused or failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A collection file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The output file exists and is not a collection (or cannot be read):
    /// it is not overwritten.
    #[error(transparent)]
    Occupied(FileError),
    /// The output file holds a collection for other rules.
    #[error("{}: it holds puzzles for rules {found}, not {wanted}", path.display())]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The rules of the collection in it.
        found: Rules,
        /// The rules asked for.
        wanted: Rules,
    },
    /// The output file holds a finished collection made by another command.
    #[error("{}: it holds a finished collection made by `{command}`", path.display())]
    Finished {
        /// The file.
        path: PathBuf,
        /// The command that made it.
        command: String,
    },
    /// A puzzle whose position cannot exist.
    #[error("{id}: {source}")]
    BadPosition {
        /// The puzzle's id.
        id: String,
        /// What is wrong with it.
        #[source]
        source: BoardError,
    },
    /// The cancel flag stopped `check` while it solved a puzzle.
    #[error("interrupted: the check stopped at puzzle {id} ({place} of {total}); {problems} mismatches in the puzzles before it")]
    CheckInterrupted {
        /// The puzzle being checked.
        id: String,
        /// Its place, from 1.
        place: usize,
        /// Puzzles in the collection.
        total: usize,
        /// Mismatches found before it.
        problems: usize,
    },
    /// A puzzle whose `board` text and `pits` disagree.
    #[error("{id}: its board {board:?} does not match its pits and stores")]
    BoardMismatch {
        /// The puzzle's id.
        id: String,
        /// Its board text.
        board: String,
    },
    /// No puzzle of this id in the collection.
    #[error("{}: no puzzle {id:?} in it", path.display())]
    NoSuchPuzzle {
        /// The collection file.
        path: PathBuf,
        /// The id asked for.
        id: String,
        /// An id that the file does hold, as an example.
        example: Option<String>,
    },
    /// A game of the `game-hard` source could not be played.
    #[error(transparent)]
    Game(#[from] game::GameError),
    /// No puzzle of the collection has the grade asked for.
    #[error("{}: no puzzle of grade {grade} in it", path.display())]
    NoGrade {
        /// The collection file.
        path: PathBuf,
        /// The grade asked for.
        grade: u8,
    },
    /// The collection holds no puzzles.
    #[error("{}: it holds no puzzles", path.display())]
    Empty {
        /// The collection file.
        path: PathBuf,
    },
}
