//! `/api/replay`: a line of turns checked and played.

use super::{Error, Position};
use format::ReplayJson;
use rules::turn;
use serde::Deserialize;
use serde_json::{json, Value};

/// `/api/replay`'s body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    #[serde(flatten)]
    position: Position,
    /// Pit numbers to play.
    picks: Vec<u32>,
}

/// `POST /api/replay`: `replay --json`.
pub fn replay(req: &ReplayRequest) -> Result<Value, Error> {
    let (rules, board) = req.position.resolve()?;
    let states = turn::replay(board, rules, &req.picks)
        .map_err(|e| Error::bad(e.to_string()).field("picks"))?;
    Ok(json!(ReplayJson::new(rules, &states)))
}
