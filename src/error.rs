//! Typed errors for the library.
//!
//! Every variant that comes from user input carries the value it rejected and
//! says what is allowed, so that the binary can print it on one line and exit
//! with status 2 (see [`Error::is_input`]). The other variants are failures of
//! a run that was asked for correctly (a count that overflows `u128`, a search
//! that would pass the memory guard).

use thiserror::Error;

/// Everything the library can refuse or fail with.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// `--pits` (or the rows of a `--board`) out of range.
    #[error("pits per side {0} is not allowed: use 1 to {max}", max = crate::board::MAX_PITS_PER_SIDE)]
    PitsPerSide(usize),

    /// More stones in play than a pit counter (`u8`) can hold.
    #[error(
        "{0} stones in the pits and your store is too many: at most {max} are allowed",
        max = crate::board::MAX_STONES_IN_PLAY
    )]
    TooManyStones(u64),

    /// The opponent's store is out of range.
    #[error("opponent store {0} is too large: at most {max} is allowed", max = crate::board::MAX_STONES_IN_PLAY)]
    OpponentStore(u64),

    /// The `--board` text could not be read.
    #[error("board {text:?}: {reason}")]
    BoardText {
        /// The text as given (trimmed).
        text: String,
        /// What is wrong and what is allowed.
        reason: String,
    },

    /// The player to move has no legal pick at the start.
    #[error("board {board:?}: the player to move has no legal pick under scope {scope} (all pits it may pick from are empty)")]
    NoMove {
        /// The board in its one-line text form.
        board: String,
        /// The scope in force.
        scope: crate::rules::Scope,
    },

    /// An illegal pick in a list of picks (`replay`, `play`).
    #[error("pick {place} of {total} ({pick}): {reason}")]
    IllegalPick {
        /// 1-based place of the pick in the list.
        place: usize,
        /// How many picks the list has.
        total: usize,
        /// The pick as given.
        pick: u32,
        /// Why it is illegal.
        reason: crate::turn::PickError,
    },

    /// The position needs a key wider than the widest one the search has.
    #[error(
        "{stones} stones in {pits} pits need a {bits}-bit position key; exhaustive search supports at most 128 bits (stones + pits - 1 <= 128): try a smaller board"
    )]
    KeyTooWide {
        /// Stones in the pits.
        stones: u32,
        /// Number of pits on the board (both rows).
        pits: usize,
        /// Bits the key would need.
        bits: u32,
    },

    /// A path count did not fit in `u128`.
    #[error("path count overflowed u128 for {variant}; the counts cannot be reported exactly")]
    CountOverflow {
        /// The rules and board that overflowed.
        variant: String,
    },

    /// The memory guard stopped the search before it could finish.
    #[error(
        "the search stopped at store bucket {store} of {max_store}{pass} after {positions} positions: it would hold more than {limit_text} (--max-memory); try `find` for a heuristic line, a smaller board, --limit 0 to skip the listing, or a higher --max-memory",
        pass = if *backward { " of the listing pass" } else { "" },
        limit_text = crate::config::format_bytes(*limit)
    )]
    MemoryLimit {
        /// The limit in bytes.
        limit: u64,
        /// The store bucket reached.
        store: usize,
        /// The highest store value.
        max_store: usize,
        /// Positions expanded by then.
        positions: u64,
        /// True when the listing (backward) pass was running.
        backward: bool,
    },

    /// The search was interrupted (Ctrl-C or a time budget) before it ended.
    #[error(
        "interrupted: the search is incomplete; it reached store bucket {store} of {max_store}{pass} after {positions} positions{found}",
        pass = if *backward { " of the listing pass" } else { "" },
        found = match (best, backward) {
            (Some(b), true) => format!("; the best score, already proved, is {b}"),
            (Some(b), false) => format!("; the best final store so far is {b} (a lower bound)"),
            (None, _) => String::from("; no turn had ended yet"),
        }
    )]
    Interrupted {
        /// The store bucket reached.
        store: usize,
        /// The highest store value.
        max_store: usize,
        /// Positions expanded by then.
        positions: u64,
        /// Best final store among the turns counted so far.
        best: Option<u32>,
        /// True when the listing (backward) pass was running.
        backward: bool,
    },

    /// A file or directory could not be read or written, or holds something else.
    #[error("{path}: {reason}")]
    File {
        /// The path.
        path: String,
        /// What is wrong and what to do.
        reason: String,
    },

    /// `puzzles check` found puzzles that do not match a fresh solve.
    #[error("mismatch: {0}")]
    Mismatch(String),

    /// Ctrl-C stopped an atlas or generator run; says what was kept.
    #[error("interrupted: {0}")]
    Stopped(String),

    /// A worker thread panicked: a bug, reported instead of a hang.
    #[error(
        "internal error in a worker thread: {0}; please report it with the command that caused it"
    )]
    Internal(String),

    /// `--threads` could not be honoured.
    #[error("could not start {threads} worker threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the thread pool said.
        reason: String,
    },
}

impl Error {
    /// True when the error is about what the user typed (exit status 2).
    pub fn is_input(&self) -> bool {
        !matches!(
            self,
            Error::CountOverflow { .. }
                | Error::Threads { .. }
                | Error::MemoryLimit { .. }
                | Error::Interrupted { .. }
                | Error::Stopped(_)
                | Error::Mismatch(_)
                | Error::Internal(_)
        )
    }
}

/// Result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
