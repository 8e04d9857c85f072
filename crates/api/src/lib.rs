//! The web API's requests and answers, apart from any server: read a JSON
//! body, check it, run the library, build the answer document.
//!
//! Two back-ends answer the same pages with it: `serve` ([`server`],
//! axum on the machine's threads) and the engine compiled to WebAssembly
//! that the static site runs in a Web Worker (`wasm/`). Each keeps only
//! what is its own (slots, threads, streams, the server's caps), so that a
//! page cannot tell them apart by their answers. Every error is
//! `{"format", "error", "field"?}` with an HTTP status: one line a person
//! can read, and the request field it is about, so that a page can show
//! it beside that field.

mod analyze;
mod board;
mod error;
mod find;
pub mod games;
mod puzzles;
mod replay;
mod review;
mod route;
mod solve;

pub use analyze::{
    analysis, analysis_doc, analysis_options, endgame_for, AnalyzeRequest, ProgressGate,
    ANALYZE_TABLE, MAX_ANALYZE_NODES, PROGRESS_EVERY,
};
pub use board::{board, limits, BoardRequest, BOARD_FORMAT, LIMITS_FORMAT};
pub use error::{parse, too_large, Error, ERROR_FORMAT};
pub use find::{find, FindRequest};
pub use puzzles::{check, lookup, puzzle, puzzles, CheckRequest};
pub use replay::{replay, ReplayRequest};
pub use review::{
    review_doc, review_options, run_review, ReviewGame, ReviewRequest, MAX_REVIEW_TURNS,
    REVIEW_TABLE,
};
pub use route::{route, Endpoint, Route, ROUTES};
pub use solve::{
    progress_json, run_solve, solve_answer, BestSeen, SolveHost, SolveRequest, PROGRESS_FORMAT,
};

use rules::{Board, BoardError, Capture, Preset, RuleOptions, Rules, Scope, MAX_PITS_PER_SIDE};
use serde::Deserialize;

/// The longest board text read: a board of 16 pits a side with three-digit
/// counts and a comment line or two fits many times over. Longer text (a
/// paste of thousands of pits) is refused before it is read.
pub const MAX_BOARD_TEXT: usize = 2000;

/// Refuse board text over [`MAX_BOARD_TEXT`] characters before reading it.
pub fn board_text_fits(text: &str) -> Result<(), Error> {
    let len = text.chars().count();
    if len > MAX_BOARD_TEXT {
        return Err(Error::bad(format!(
            "board: the text is {len} characters long; a board text may be at most {MAX_BOARD_TEXT} (a board has at most {MAX_PITS_PER_SIDE} pits a side)"
        ))
        .field("board"));
    }
    Ok(())
}

/// The rule and board fields every solving request may have, as the
/// command line's flags.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Board text format.
    board: Option<String>,
    pits: Option<usize>,
    stones: Option<u32>,
    rules: Option<String>,
    scope: Option<String>,
    relay: Option<bool>,
    capture: Option<String>,
}

impl Position {
    /// The rules and board, checked.
    pub fn resolve(&self) -> Result<(Rules, Board), Error> {
        self.resolve_or(None)
    }

    /// As [`Position::resolve`], with `default` as the preset when the
    /// request names none (a game is Kalah unless it says otherwise).
    pub fn resolve_or(&self, default: Option<Preset>) -> Result<(Rules, Board), Error> {
        if let Some(text) = &self.board {
            board_text_fits(text)?;
        }
        let preset = match &self.rules {
            Some(s) => Some(
                s.parse::<Preset>()
                    .map_err(|e| Error::bad(format!("rules: {e}")).field("rules"))?,
            ),
            None => default,
        };
        let scope = match &self.scope {
            Some(s) => Some(
                s.parse::<Scope>()
                    .map_err(|e| Error::bad(format!("scope: {e}")).field("scope"))?,
            ),
            None => None,
        };
        let capture = match &self.capture {
            Some(s) => Some(
                s.parse::<Capture>()
                    .map_err(|e| Error::bad(format!("capture: {e}")).field("capture"))?,
            ),
            None => None,
        };
        let opts = RuleOptions {
            preset,
            scope,
            relay: self.relay,
            capture,
            pits: self.pits,
            stones: self.stones,
            board: self.board.clone(),
        };
        opts.resolve().map_err(|e| {
            let field = match e {
                _ if self.board.is_some() => "board",
                BoardError::PitsPerSide(_) => "pits",
                _ => "stones",
            };
            Error::bad(e.to_string()).field(field)
        })
    }
}

/// Seconds asked for in field `seconds`, or `default` (at most `budget`);
/// refused unless more than 0 and at most `budget`.
fn seconds_within(asked: Option<f64>, default: f64, budget: f64) -> Result<f64, Error> {
    let seconds = asked.unwrap_or(budget.min(default));
    if seconds > 0.0 && seconds <= budget {
        Ok(seconds)
    } else {
        Err(Error::bad(format!(
            "seconds: {seconds} is not allowed; give more than 0 and at most {budget}"
        ))
        .field("seconds"))
    }
}
