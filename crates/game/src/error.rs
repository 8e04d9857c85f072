//! Errors of the game module: each names the value it refused and says what
//! is allowed, so a CLI or a web server can show it as it is.

use rules::{Rules, MAX_PITS_PER_SIDE};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Everything the game module can refuse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The board could not be built (pits per side, stone counts).
    #[error(transparent)]
    Board(#[from] rules::BoardError),

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

    /// The solver's transposition table and endgame database together
    /// would pass the memory cap. Both are named: on a wide board the
    /// database can be the larger part, and a message about the table alone
    /// sent people to `--table`, which could not help.
    #[error("{}", too_large(*table, *endgame, *cap))]
    TableTooLarge {
        /// Bytes the transposition table would take.
        table: u64,
        /// Bytes the endgame database would take (0: none).
        endgame: u64,
        /// The cap in force.
        cap: u64,
    },

    /// An endgame database that cannot be built or used as asked.
    #[error("endgame database: {0}")]
    Endgame(#[from] EndgameError),

    /// A match that cannot be played as asked.
    #[error("match: {0}")]
    Match(#[from] MatchError),

    /// A solve's checkpoint file that cannot be read, written or resumed.
    #[error("checkpoint {0}")]
    Checkpoint(#[from] CheckpointError),

    /// A position whose game is over, where a turn was asked for.
    #[error("the game is over on this board ({0}): there is no turn to analyze")]
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

    /// An opening book that cannot be made or read as asked.
    #[error("book: {0}")]
    Book(String),
}

/// Why a pick is refused in a game: the rules engine's reason, or the
/// game's own (over, or not the person's turn).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PickRefusal {
    /// The rules do not allow it (no such pit, an opponent pit, empty).
    #[error(transparent)]
    Rules(#[from] rules::PickError),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The computer is to move.
    #[error("it is the computer's turn")]
    ComputersTurn,
}

/// A file of the game layer (an endgame database, a solve's checkpoint)
/// that could not be read, written or removed. One type for both files:
/// the message, and what a front end makes of a full disk, are the same.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}: cannot {action} it ({message})", path.display())]
pub struct GameFileError {
    /// The file.
    pub path: PathBuf,
    /// `read`, `write` or `remove`.
    pub action: &'static str,
    /// The system's message (kept as text so that errors compare and
    /// clone).
    pub message: String,
    /// The disk (or the quota) was full: the run failed, not its input,
    /// and the same command resumes once space is freed.
    pub disk_full: bool,
}

impl GameFileError {
    /// The system's error `e` on `action` of the file at `path`.
    pub(crate) fn new(path: &Path, action: &'static str, e: std::io::Error) -> GameFileError {
        GameFileError {
            path: path.to_path_buf(),
            action,
            message: e.to_string(),
            disk_full: base::atomic_file::is_disk_full(&e),
        }
    }
}

/// Why an endgame database cannot be built, read, written or used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EndgameError {
    /// Scope any: stones can circle the board for ever, so the game graph
    /// has cycles that a database built bottom-up cannot order.
    #[error("rules {0}: a database needs scope own (with scope any stones can circle the board for ever)")]
    Scope(Rules),
    /// A board width outside 1 to 16.
    #[error("{0} pits a side: 1 to {MAX_PITS_PER_SIDE} are allowed")]
    Pits(usize),
    /// A stone count outside 1 to 127 (values are signed bytes).
    #[error("up to {0} stones: 1 to 127 are allowed")]
    Stones(u32),
    /// More bytes than the memory cap. What to change is the front end's
    /// to say (the command line names its flags), so the message stops at
    /// the numbers.
    #[error("up to {stones} stones on {n} pits a side take {requested} bytes, more than the memory cap of {cap} bytes")]
    OverCap {
        /// Stones asked for.
        stones: u32,
        /// Pits a side.
        n: usize,
        /// Bytes the database would take.
        requested: u64,
        /// The cap in force.
        cap: u64,
    },
    /// The file could not be read or written.
    #[error(transparent)]
    Io(#[from] GameFileError),
    /// The file's first line is not a header of this format.
    #[error("{}: not an endgame database (its first line is not a {} header)", path.display(), crate::files::ENDGAME_FORMAT)]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// A header of another format version.
    #[error("{}: format {format:?}: this version reads {} and {}", path.display(), crate::files::ENDGAME_FORMAT, crate::files::ENDGAME_FORMAT_BYTES)]
    Format {
        /// The file.
        path: PathBuf,
        /// The format the header names.
        format: String,
    },
    /// A file built for other rules or another board.
    #[error("{}: an endgame database for {built_n} pits a side under {built}, not for {n} pits a side under {rules}", path.display())]
    ForeignFile {
        /// The file.
        path: PathBuf,
        /// Pits a side it was built for.
        built_n: usize,
        /// Rules it was built for.
        built: Rules,
        /// Pits a side asked for.
        n: usize,
        /// Rules asked for.
        rules: Rules,
    },
    /// A database in memory built for other rules or another board.
    #[error(
        "built for {built_n} pits a side under {built}, not for {n} pits a side under {rules}"
    )]
    Foreign {
        /// Pits a side it was built for.
        built_n: usize,
        /// Rules it was built for.
        built: Rules,
        /// Pits a side asked for.
        n: usize,
        /// Rules asked for.
        rules: Rules,
    },
    /// A header whose counts do not agree.
    #[error("{}: {positions} positions for {stones} stones: the header is damaged", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Positions the header gives.
        positions: u64,
        /// Stones the header gives.
        stones: u32,
    },
    /// A file shorter or longer than its header says.
    #[error("{}: {len} bytes where its header promises {expected}: the file is cut short or damaged", path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// Its bytes.
        len: u64,
        /// The bytes its header promises.
        expected: u64,
    },
}

/// Why a whole-game solve's checkpoint file (`game solve --checkpoint`)
/// cannot be read, written or resumed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckpointError {
    /// The file could not be read, written or removed (a full disk
    /// leaves the file with the work of the last write).
    #[error(transparent)]
    Io(#[from] GameFileError),
    /// The file's first line is not a checkpoint's header.
    #[error("{}: not a checkpoint (its first line is not a {} header)", path.display(), crate::files::CHECKPOINT_FORMAT)]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// A header of another format version.
    #[error("{}: format {format:?}: this version reads {}", path.display(), crate::files::CHECKPOINT_FORMAT)]
    Format {
        /// The file.
        path: PathBuf,
        /// The format the header names.
        format: String,
    },
    /// The work of another search: other rules, position, table or
    /// endgame database.
    #[error("{}: the work of another search ({made_for}), not of this one ({asked})", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// The search the file holds the work of.
        made_for: String,
        /// The search asked for.
        asked: String,
    },
    /// A header whose bounds cross.
    #[error("{}: its bounds cross ({lower} above {upper}): the header is damaged", path.display())]
    Bounds {
        /// The file.
        path: PathBuf,
        /// The lower bound it gives.
        lower: i32,
        /// The upper bound it gives.
        upper: i32,
    },
    /// A file shorter or longer than its header says.
    #[error("{}: {len} bytes where its header promises {expected}: the file is cut short or damaged", path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// Its bytes.
        len: u64,
        /// The bytes its header promises.
        expected: u64,
    },
}

/// Why a match cannot be played as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchError {
    /// Games must come in pairs (each opening twice, each agent first once).
    #[error("{games} games: give an even number from 2 to {max} (each opening is played twice, each agent starting once)")]
    Games {
        /// Games asked for.
        games: u32,
        /// The most allowed.
        max: u32,
    },
    /// Too many random opening turns.
    #[error("{turns} opening turns: at most {max}")]
    OpeningTurns {
        /// Turns asked for.
        turns: u32,
        /// The most allowed.
        max: u32,
    },
}

/// The words of [`GameError::TableTooLarge`].
fn too_large(table: u64, endgame: u64, cap: u64) -> String {
    if endgame == 0 {
        format!(
            "a transposition table of {table} bytes would exceed the memory cap of {cap} bytes: raise the cap or ask for a smaller table"
        )
    } else {
        format!(
            "a transposition table of {table} bytes and an endgame database of {endgame} bytes ({} in all) would exceed the memory cap of {cap} bytes: raise the cap or ask for a smaller table or database",
            table + endgame
        )
    }
}
