//! `/api/solve` and its progress stream: the request, the answer, the
//! best seen before a stop.

use super::{Error, Position};
use crate::format::{SolveJson, SolveStoppedJson};
use crate::rules::{Board, Rules};
use crate::search::{self, SearchError};
use serde::Deserialize;
use serde_json::{json, Value};

/// `/api/solve`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    #[serde(flatten)]
    position: Position,
    /// Optimal lines to list (default 10, at most 1000).
    limit: Option<u32>,
}

impl SolveRequest {
    /// The rules, board and number of lines asked for, checked.
    pub fn check(&self) -> Result<(Rules, Board, u32), Error> {
        let (rules, board) = self.position.resolve()?;
        let limit = self.limit.unwrap_or(10);
        if limit > 1000 {
            return Err(Error::bad(format!(
                "limit: {limit} is too many lines to list; allowed 0 to 1000"
            ))
            .field("limit"));
        }
        Ok((rules, board, limit))
    }
}

/// The best final store the progress reports of one search have shown so
/// far, kept for the answer of a search the memory guard stops (its error
/// carries no best). Reports may come from any thread.
#[derive(Default, Debug)]
pub struct BestSeen(std::sync::atomic::AtomicU32);

impl BestSeen {
    /// Note the best of report `p`.
    pub fn see(&self, p: &search::Progress) {
        if let Some(b) = p.best {
            self.0
                .fetch_max(b + 1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The best seen, or None when no turn had ended yet.
    pub fn get(&self) -> Option<u32> {
        self.0
            .load(std::sync::atomic::Ordering::Relaxed)
            .checked_sub(1)
    }
}

/// The answer to a finished or stopped solve on `threads` threads, as
/// `/api/solve` gives it and the stream's `result` event carries it.
/// A search the memory guard stopped is answered like one out of time
/// (`"complete": false`, `"stopped": "memory-limit"`), with `best` (the
/// best final store its progress showed) as the lower bound found so far,
/// so that the page can keep it and say what to do; before, it was a 503
/// whose technical message threw the best so far away.
pub fn solve_answer(
    result: Result<search::Solution, SearchError>,
    rules: Rules,
    board: &Board,
    threads: usize,
    best: Option<u32>,
) -> Result<Value, Error> {
    match result {
        Ok(s) => Ok(json!(SolveJson::new(&s, threads))),
        Err(e) => match SolveStoppedJson::new(rules, board, &e) {
            Some(mut doc) => {
                if matches!(e, SearchError::MemoryLimit { .. }) {
                    doc.best_store = best;
                }
                Ok(json!(doc))
            }
            None => Err(Error::bad(e.to_string())),
        },
    }
}

/// The `"format"` of a solve's progress event.
pub const PROGRESS_FORMAT: &str = "mancala-sweep-web-progress/1";

/// One progress event of a solve (`/api/solve/stream`), `seconds` after
/// it began: the search's own report, as the command line's bar reads it.
pub fn progress_json(p: &search::Progress, seconds: f64) -> Value {
    json!({
        "format": PROGRESS_FORMAT,
        "phase": match p.phase {
            search::Phase::Forward => "forward",
            search::Phase::Backward => "backward",
        },
        "store": p.store,
        "max_store": p.max_store,
        "positions": p.positions,
        "memory": p.memory,
        "best": p.best,
        "seconds": seconds,
    })
}
