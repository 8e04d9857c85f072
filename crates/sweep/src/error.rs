//! The search layer's errors.
//!
//! They say what happened and how far the search got, in the words of the
//! search (buckets, positions, bytes); the command line adds what to type
//! next (see `cli::words`), a web page what to click.

use super::memory::format_bytes;
use rules::Scope;
use thiserror::Error;

/// How far a search got before it stopped: shown to the user, so that an
/// incomplete run still tells them something.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The store bucket reached.
    pub store: usize,
    /// The highest store value.
    pub max_store: usize,
    /// Positions expanded by then.
    pub positions: u64,
    /// True when the listing (backward) pass was running.
    pub backward: bool,
}

impl Reached {
    fn pass(&self) -> &'static str {
        if self.backward {
            " of the listing pass"
        } else {
            ""
        }
    }
}

/// Why a search stopped before its end without failing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum StopCause {
    /// The caller's cancel flag was raised (Ctrl-C, a page closed).
    Cancelled,
    /// The time budget ran out.
    Deadline {
        /// The budget, in seconds.
        seconds: f64,
    },
}

/// Everything the search can refuse or fail with.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SearchError {
    /// The player to move has no legal pick at the start.
    #[error("board {board:?}: the player to move has no legal pick under scope {scope} (all pits it may pick from are empty)")]
    NoMove {
        /// The board in its one-line text form.
        board: String,
        /// The scope in force.
        scope: Scope,
    },

    /// The position needs a key wider than the widest one the search has.
    #[error(
        "{stones} stones in {pits} pits: the exhaustive search takes at most {most} stones on {pits} pits (stones + pits - 1 <= 128, its widest position key): try fewer stones or pits, or `find` for a good line",
        most = 129usize.saturating_sub(*pits)
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
        "the search stopped at step {store} of {max_store} (the stones in the store){pass} after {positions} positions: it would hold more than {limit_text}",
        store = reached.store,
        max_store = reached.max_store,
        positions = reached.positions,
        pass = reached.pass(),
        limit_text = format_bytes(*limit)
    )]
    MemoryLimit {
        /// The limit in bytes.
        limit: u64,
        /// How far it got.
        reached: Reached,
    },

    /// The search was cancelled or ran out of time before it ended.
    #[error(
        "{head}: the search is incomplete; it reached step {store} of {max_store} (the stones in the store){pass} after {positions} positions{found}",
        head = match cause {
            StopCause::Cancelled => String::from("interrupted"),
            StopCause::Deadline { seconds } => format!("out of time after {seconds} s"),
        },
        store = reached.store,
        max_store = reached.max_store,
        positions = reached.positions,
        pass = reached.pass(),
        found = match (best, reached.backward) {
            (Some(b), true) => format!("; the best score, already proved, is {b}"),
            (Some(b), false) => format!("; the best final store so far is {b} (a lower bound)"),
            (None, _) => String::from("; no turn had ended yet"),
        }
    )]
    Stopped {
        /// Cancelled or out of time.
        cause: StopCause,
        /// How far it got.
        reached: Reached,
        /// Best final store among the turns counted so far.
        best: Option<u32>,
    },

    /// The spill directory holds something this search cannot use: a
    /// checkpoint of another search, or damaged files.
    #[error("{message}")]
    SpillDir {
        /// What is wrong, with the path.
        message: String,
    },

    /// The spill store could not read or write its files.
    #[error(
        "{message}; the search stopped at step {store} of {max_store} (the stones in the store) after {positions} positions{kept}",
        store = reached.store,
        max_store = reached.max_store,
        positions = reached.positions,
        kept = kept_text(*resumable, dir),
    )]
    Spill {
        /// What failed, with the path.
        message: String,
        /// The spill directory.
        dir: String,
        /// How far it got.
        reached: Reached,
        /// True when the directory holds a checkpoint the same search
        /// resumes from; false when it failed before the first one.
        resumable: bool,
    },

    /// A count on a cluster asked of a build without the backend (the
    /// `cluster` feature).
    #[error(
        "this build has no cluster support; build with `cargo build --release --features cluster`"
    )]
    NoCluster,

    /// The disk guard stopped a spilled search.
    #[error(
        "the search stopped at step {store} of {max_store} (the stones in the store) after {positions} positions: its run files would take {needed_text}, more than {limit_text}{kept}",
        store = reached.store,
        max_store = reached.max_store,
        positions = reached.positions,
        needed_text = format_bytes(*needed),
        limit_text = format_bytes(*limit),
        kept = kept_text(*resumable, dir),
    )]
    DiskLimit {
        /// The limit in bytes.
        limit: u64,
        /// Bytes the run files would have taken.
        needed: u64,
        /// The spill directory.
        dir: String,
        /// How far it got.
        reached: Reached,
        /// True when the directory holds a checkpoint to resume from.
        resumable: bool,
    },

    /// A cluster run could not start: its configuration, or a build
    /// without the `cluster` feature.
    #[error("{message}")]
    ClusterSetup {
        /// What is wrong, naming the value.
        message: String,
    },

    /// A cluster run failed on the way: a process or the network went away.
    #[error("{message}")]
    Cluster {
        /// What happened, on which process.
        message: String,
    },

    /// A worker thread panicked: a bug, reported instead of a hang.
    #[error(
        "internal error in a worker thread: {0}; please report it with the command that caused it"
    )]
    Internal(String),

    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the thread pool said.
        reason: String,
    },
}

/// What a stopped spilled search left: a resume only where its directory
/// holds a checkpoint, never a promise that cannot be kept.
fn kept_text(resumable: bool, dir: &str) -> String {
    if resumable {
        format!(", and what it finished is kept in {dir}, from where the same search resumes")
    } else {
        format!("; nothing was kept in {dir} to resume from")
    }
}

impl SearchError {
    /// True when a spilled search stopped with a checkpoint that the
    /// same command resumes from.
    pub fn resumable(&self) -> bool {
        matches!(
            self,
            SearchError::Spill {
                resumable: true,
                ..
            } | SearchError::DiskLimit {
                resumable: true,
                ..
            }
        )
    }

    /// True when the error is about the position or board asked for, not a
    /// failure of the run.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            SearchError::NoMove { .. }
                | SearchError::KeyTooWide { .. }
                | SearchError::SpillDir { .. }
                | SearchError::ClusterSetup { .. }
        )
    }

    /// True when the caller's cancel flag stopped the search.
    pub fn is_cancelled(&self) -> bool {
        matches!(
            self,
            SearchError::Stopped {
                cause: StopCause::Cancelled,
                ..
            }
        )
    }

    /// True when the time budget stopped the search.
    pub fn is_deadline(&self) -> bool {
        matches!(
            self,
            SearchError::Stopped {
                cause: StopCause::Deadline { .. },
                ..
            }
        )
    }
}
