//! `/api/puzzles`: the collections, one puzzle, and a checked answer.

use super::Error;
use puzzle::session::{Outcome, Session};
use puzzle::{Collection, Puzzle};
use rules::Rules;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// One collection in `GET /api/puzzles`.
#[derive(Serialize)]
struct CollectionSummary<'a> {
    name: &'a str,
    rules: Rules,
    preset: Option<String>,
    count: usize,
    grades: [usize; 5],
    /// Every puzzle's id, grade and length, for the page to choose from.
    puzzles: Vec<Value>,
}

/// `GET /api/puzzles`: the collections.
pub fn puzzles(collections: &[Collection]) -> Value {
    let list: Vec<CollectionSummary> = collections
        .iter()
        .map(|c| CollectionSummary {
            name: &c.name,
            rules: c.rules,
            preset: format::json::preset_name(c.rules),
            count: c.puzzles.len(),
            grades: c.grade_counts(),
            puzzles: c
                .puzzles
                .iter()
                .map(|p| json!({"id": p.id, "difficulty": p.difficulty, "length": p.length}))
                .collect(),
        })
        .collect();
    json!({ "format": "mancala-sweep-web-puzzles/1", "collections": list })
}

/// The collection `name` and its puzzle `id`, or 404 naming what there is.
pub fn lookup<'a>(
    collections: &'a [Collection],
    name: &str,
    id: &str,
) -> Result<(&'a Collection, &'a Puzzle), Error> {
    let c = collections.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = collections.iter().map(|c| c.name.as_str()).collect();
        Error::status(
            404,
            format!("no collection {name:?}; there are {}", names.join(", ")),
        )
    })?;
    let p =
        c.puzzles.iter().find(|p| p.id == id).ok_or_else(|| {
            Error::status(404, format!("collection {name:?} has no puzzle {id:?}"))
        })?;
    Ok((c, p))
}

/// `GET /api/puzzles/{collection}/{id}`: one puzzle, as in its file.
pub fn puzzle(c: &Collection, p: &Puzzle) -> Value {
    json!({"collection": c.name, "rules": c.rules, "preset": format::json::preset_name(c.rules), "puzzle": p})
}

/// `/api/puzzles/{collection}/{id}/check`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// Picks so far.
    #[serde(default)]
    picks: Vec<u32>,
    /// Also give the next pick of a solution from there.
    #[serde(default)]
    hint: bool,
}

/// `POST /api/puzzles/{collection}/{id}/check`: play the picks in a
/// puzzle session (listing solutions for at most `seconds`) and say how
/// it went.
pub fn check(
    c: &Collection,
    p: &Puzzle,
    req: &CheckRequest,
    seconds: f64,
    cancel: &AtomicBool,
) -> Result<Value, Error> {
    let mut session = Session::new(c, p, seconds, cancel).map_err(|e| Error::bad(e.to_string()))?;
    let mut steps = Vec::new();
    for (i, &n) in req.picks.iter().enumerate() {
        let picked = session
            .pick(n)
            .map_err(|e| Error::bad(format!("pick {} ({n}): {e}", i + 1)).field("picks"))?;
        steps.push(json!({
            "pick": picked.pit,
            "to_move": picked.to_move,
            "left_solutions": picked.left_solutions,
            "store": session.board().store(),
            "pits": session.board().pits(),
            "board": session.board().one_line(),
        }));
        if !picked.to_move && i + 1 < req.picks.len() {
            return Err(Error::bad(format!(
                "pick {}: the turn ended at pick {} and takes no more picks",
                i + 2,
                i + 1
            ))
            .field("picks"));
        }
    }
    let outcome = session.outcome().map(|o| match o {
        Outcome::Solved | Outcome::Helped => "solved",
        Outcome::Failed => "failed",
    });
    let store = u32::from(session.board().store());
    let why = match (outcome, session.left_at()) {
        (Some("failed"), _) => Some(format!(
            "the turn is over with {store} in the store; the goal is {}",
            p.goal_store
        )),
        (_, Some((k, pit))) => Some(format!(
            "after pick {k} (pit {}) the goal of {} can no longer be reached this turn",
            pit.number(),
            p.goal_store
        )),
        _ => None,
    };
    let hint = if req.hint { session.hint() } else { None };
    let left = session.left_at().map(|(k, _)| k);
    Ok(json!({
        "format": "mancala-sweep-web-check/1",
        "collection": c.name,
        "id": p.id,
        "goal_store": p.goal_store,
        "picks": session.picks(),
        "steps": steps,
        "store": store,
        "to_move": session.board().can_move(c.rules) && outcome.is_none(),
        "outcome": outcome,
        "on_track": left.is_none(),
        "left_at": left,
        "why": why,
        "hint": hint,
        "knows_solutions": session.knows_solutions(),
    }))
}
