//! `/api/find`: the beam search for a long turn within seconds.

use super::{seconds_within, Error, Position};
use format::FindJson;
use rules::{Board, Rules};
use serde::Deserialize;
use serde_json::{json, Value};
use sweep::{self, FindOptions};

/// `/api/find`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct FindRequest {
    #[serde(flatten)]
    position: Position,
    /// Seconds (at most the back-end's budget).
    seconds: Option<f64>,
    seed: Option<u64>,
}

impl FindRequest {
    /// The rules, board and find options (without a cancel flag) asked
    /// for within `budget` seconds, checked.
    pub fn check(&self, budget: f64) -> Result<(Rules, Board, FindOptions<'static>), Error> {
        let (rules, board) = self.position.resolve()?;
        let seconds = seconds_within(self.seconds, 5.0, budget)?;
        let opts = FindOptions {
            seconds,
            seed: self.seed.unwrap_or(0),
            ..Default::default()
        };
        Ok((rules, board, opts))
    }
}

/// `POST /api/find`'s answer: `find --json`.
pub fn find(
    board: &Board,
    rules: Rules,
    opts: &FindOptions,
    threads: usize,
) -> Result<Value, Error> {
    let f = sweep::find(board, rules, opts).map_err(|e| Error::bad(e.to_string()))?;
    Ok(json!(FindJson::new(&f, opts.seed, threads)))
}
