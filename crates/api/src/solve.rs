//! `/api/solve` and its progress stream: the request, the answer, the
//! best seen before a stop.

use super::{Error, Position};
use format::{SolveJson, SolveStoppedJson};
use rules::{Board, Rules};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use sweep::{self, HeldFn, Listing, Progress, SearchError, SweepOptions};

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

/// What a back-end gives a solve: its threads, its caps, and the hooks
/// that tell it how the search goes.
#[derive(Default)]
pub struct SolveHost<'a> {
    /// Threads the search runs on (and the answer says).
    pub threads: usize,
    /// Bytes the search may hold before it stops.
    pub max_memory: u64,
    /// Seconds the search may run before it stops, answered incomplete.
    pub seconds: f64,
    /// What the rest of the process holds now, for the memory guard
    /// ([`SweepOptions::memory_held`]); `None` counts the whole process.
    pub memory_held: Option<HeldFn<'a>>,
    /// The flag that stops the search (a closed page, Stop).
    pub cancel: Option<&'a AtomicBool>,
    /// The bytes the search holds, at every report.
    pub holding: Option<&'a (dyn Fn(u64) + Sync)>,
    /// One progress event a bucket ([`progress_json`]), for a `/stream`
    /// request.
    pub events: Option<&'a (dyn Fn(Value) + Sync)>,
}

/// A solve of `board` listing `limit` lines, run on what `host` gives:
/// the answer of `/api/solve` (and of its stream's `result` event). The
/// one place that turns a request into the search's options, for every
/// back-end.
pub fn run_solve(
    rules: Rules,
    board: &Board,
    limit: u32,
    host: &SolveHost,
) -> Result<Value, Error> {
    let started = base::clock::Instant::now();
    let best = BestSeen::default();
    let report = |p: &Progress| {
        best.see(p);
        if let Some(holding) = host.holding {
            holding(p.memory);
        }
        // One event a bucket: the reports from inside a bucket are for
        // the command line's bar.
        if let Some(events) = host.events.filter(|_| p.within.is_none()) {
            events(progress_json(p, started.elapsed().as_secs_f64()));
        }
    };
    let opts = SweepOptions {
        threads: host.threads,
        listing: Listing::Limit(limit as usize),
        max_memory: host.max_memory,
        memory_held: host.memory_held,
        progress: Some(&report),
        cancel: host.cancel,
        seconds: Some(host.seconds),
        ..Default::default()
    };
    let result = sweep::solve(board, rules, &opts);
    solve_answer(result, rules, board, host.threads, best.get())
}

/// The best final store the progress reports of one search have shown so
/// far, kept for the answer of a search the memory guard stops (its error
/// carries no best). Reports may come from any thread.
#[derive(Default, Debug)]
pub struct BestSeen(std::sync::atomic::AtomicU32);

impl BestSeen {
    /// Note the best of report `p`.
    pub fn see(&self, p: &sweep::Progress) {
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
    result: Result<sweep::Solution, SearchError>,
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
pub fn progress_json(p: &sweep::Progress, seconds: f64) -> Value {
    json!({
        "format": PROGRESS_FORMAT,
        "phase": match p.phase {
            sweep::Phase::Forward => "forward",
            sweep::Phase::Backward => "backward",
        },
        "store": p.store,
        "max_store": p.max_store,
        "positions": p.positions,
        "memory": p.memory,
        "best": p.best,
        "seconds": seconds,
    })
}
