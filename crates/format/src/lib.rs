//! What the tool writes: the JSON documents (serde structs with a format
//! version), the text reports, and files written whole.
//!
//! This layer sits on the rules, the search and whole games and under the
//! product features (puzzles, atlas) and the command line, so that every one of them
//! writes the same formats the same way.
//!
//! # JSON formats
//!
//! Every document has a `format` key naming its kind and version. Counts that
//! can exceed 2^53 (`optimal_count`, `turns_total`, `turns_by_store`) are
//! decimal strings so that every JSON reader keeps them exact. Pit numbers
//! follow [`rules::pit`]; `pits` arrays hold the 2n counts in pit-number order.
//!
//! `solve --json` (`mancala-sweep-solve/1`):
//!
//! ```json
//! {"format":"mancala-sweep-solve/1","version":"0.1.0",
//!  "rules":{"scope":"own","relay":true,"capture":"none"},"preset":"avalanche",
//!  "start":{"board":"3 3 3 3 3 3 / 0 0 / 3 3 3 3 3 3","pits":[3,3,3,3,3,3,3,3,3,3,3,3],"store":0,"opponent_store":0},
//!  "complete":true,"best_store":10,"total_stones":36,"sweep":false,
//!  "optimal_count":"1","turns_total":"36",
//!  "turns_by_store":["0","1","7","5","2","3","2","5","6","4","1","0",...],
//!  "positions":11,"positions_by_store":[1,1,1,1,1,1,1,2,1,1,0,...],
//!  "optimal":[[5,1,2,6,6,2,6,4]],"listed":1,"seconds":0.0001,"threads":2}
//! ```
//!
//! A search that stopped prints the same `format` with `"complete": false`
//! and how far it got ([`SolveStoppedJson`]).
//!
//! `find --json` (`mancala-sweep-find/1`): `rules`, `preset`, `start`, `best_store`,
//! `total_stones`, `sweep`, `line` (pit numbers), `exact`, `seconds`,
//! `rounds`, `beam`, `positions`, `seed`, `threads`, `interrupted`.
//!
//! `replay --json` (`mancala-sweep-replay/1`): `rules`, `preset`, `start`,
//! `picks`, `steps` (one per pick: `pick`, `end` = `"free-turn"` or
//! `"turn-over"`, `pits`, `store`, `board`), and the final `store`,
//! `to_move`, `pits`, `opponent_store` and `board`.
//!
//! Each format has a JSON Schema in the repository's `schemas/` folder.

pub mod file;
pub mod game;
pub mod json;
pub mod record;
pub mod review;
pub mod text;
pub mod words;

pub use file::{write_atomic, FileError};
pub use game::{GameAnalysisJson, GameMatchJson, GameSolveJson};
pub use json::{FindJson, PositionJson, ReplayJson, SolveJson, SolveStoppedJson, StepJson};

pub use base::header::{Header, VERSION};

/// `format` of `solve --json`.
pub const SOLVE_FORMAT: &str = "mancala-sweep-solve/1";
/// `format` of `replay --json`.
pub const REPLAY_FORMAT: &str = "mancala-sweep-replay/1";
/// `format` of `find --json`.
pub const FIND_FORMAT: &str = "mancala-sweep-find/1";
/// `format` of `game solve --json`.
pub const GAME_SOLVE_FORMAT: &str = "mancala-sweep-game-solve/1";
/// `format` of `game match --json` and of a match's results file.
pub const GAME_MATCH_FORMAT: &str = "mancala-sweep-game-match/1";
/// The format of `game analyze --json`.
pub const GAME_ANALYSIS_FORMAT: &str = "mancala-sweep-game-analysis/1";
/// `format` of a kept game (`game play`, `game analyze --follow`), read by `game review`.
pub const GAME_RECORD_FORMAT: &str = "mancala-sweep-game-record/1";
/// `format` of `game review --json`.
pub const GAME_REVIEW_FORMAT: &str = "mancala-sweep-game-review/1";

/// Why a versioned JSON document could not be read: which of the three
/// steps of [`parse_versioned`] went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// Not JSON at all.
    #[error("not valid JSON ({0})")]
    Json(String),
    /// JSON of another kind or version.
    #[error("format {found:?} is not {expected:?}")]
    Format {
        /// The `format` key found ("" when there is none).
        found: String,
        /// The format asked for.
        expected: String,
    },
    /// The right format, but fields that do not read.
    #[error("not {what} ({message})")]
    Fields {
        /// The kind of document (`"an atlas"`).
        what: String,
        /// serde's message.
        message: String,
    },
}

/// Read a versioned JSON document: valid JSON, a `format` key equal to
/// `expected`, then the fields of `T`. Every file the tool reads back (puzzle
/// collections, atlases) goes through here, so that a file of another kind
/// or version is named as such instead of failing on some field. The error
/// says which of the three went wrong; `what` names the kind (`"an atlas"`).
pub fn parse_versioned<T: serde::de::DeserializeOwned>(
    text: &str,
    expected: &str,
    what: &str,
) -> Result<T, VersionError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| VersionError::Json(e.to_string()))?;
    let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
    if format != expected {
        return Err(VersionError::Format {
            found: format.to_string(),
            expected: expected.to_string(),
        });
    }
    serde_json::from_value(value).map_err(|e| VersionError::Fields {
        what: what.to_string(),
        message: e.to_string(),
    })
}
