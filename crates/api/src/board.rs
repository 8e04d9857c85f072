//! `/api/board` and `/api/limits`: the engine's own reading of a board
//! text and its limits, for the pages, so that a page checks what is
//! typed with the grammar and the bounds the engine applies instead of
//! its own copy of them.

use super::games::{page_seconds, DEFAULT_LEVEL};
use super::{Error, Position, MAX_BOARD_TEXT};
use format::json::{preset_name, PositionJson};
use game::Level;
use rules::{Capture, Preset, MAX_PITS_PER_SIDE, MAX_STONES_IN_PLAY};
use serde::Deserialize;
use serde_json::{json, Value};

/// The `"format"` of `/api/board`'s answer.
pub const BOARD_FORMAT: &str = "mancala-sweep-web-board/1";

/// The `"format"` of `/api/limits`'s answer.
pub const LIMITS_FORMAT: &str = "mancala-sweep-web-limits/1";

/// `/api/board`'s body: the rule and board fields of every request.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    #[serde(flatten)]
    position: Position,
}

/// `POST /api/board`: the board the request names, read and checked as
/// every other endpoint reads it, in its normal form (one line of board
/// text, the pits in pit-number order, both stores), with its rules; or
/// the error that every other endpoint would give, naming its field.
pub fn board(req: &BoardRequest) -> Result<Value, Error> {
    let (rules, board) = req.position.resolve()?;
    let mut doc = json!({
        "format": BOARD_FORMAT,
        "rules": rules,
        "preset": preset_name(rules),
        "pits_per_side": board.pits_per_side(),
        "stones_in_play": board.stones_in_play(),
    });
    let position = serde_json::to_value(PositionJson::from(&board))
        .map_err(|e| Error::status(500, e.to_string()))?;
    if let (Some(doc), Value::Object(position)) = (doc.as_object_mut(), position) {
        doc.extend(position);
    }
    Ok(doc)
}

/// `GET /api/limits`: the bounds a board must keep, as the engine checks
/// them: pits a side, stones in the pits and the mover's store (and in
/// the opponent's store), and the length of a board text; the memory a
/// search may hold on this back-end (`max_memory`, which each back-end
/// gives); and the engine's vocabulary, so that the pages hold no copy of
/// it: the rule presets (name, aliases, label, rules), the capture rules
/// (name, label) and the levels (name, words, label, seconds a turn).
pub fn limits(max_memory: u64) -> Value {
    json!({
        "format": LIMITS_FORMAT,
        "max_pits_per_side": MAX_PITS_PER_SIDE,
        "max_stones_in_play": MAX_STONES_IN_PLAY,
        "max_board_text": MAX_BOARD_TEXT,
        "max_memory": max_memory,
        "presets": Preset::ALL.map(preset_json),
        "captures": Capture::ALL.map(|c| json!({"name": c.name(), "label": c.label()})),
        "levels": Level::ALL.map(level_json),
        "default_level": DEFAULT_LEVEL.name(),
    })
}

/// A preset as `/api/limits` names it.
fn preset_json(p: Preset) -> Value {
    json!({
        "name": p.name(),
        "aliases": p.aliases(),
        "label": p.label(),
        "rules": p.rules(),
    })
}

/// A level as `/api/limits` names it: its label is its name and words,
/// with its most seconds a turn when it has one ("perfect: best play, up
/// to 15 s a turn").
fn level_json(level: Level) -> Value {
    let seconds = page_seconds(level);
    let mut label = format!("{}: {}", level.name(), level.words());
    if let Some(s) = seconds {
        label += &format!(", up to {s} s a turn");
    }
    json!({
        "name": level.name(),
        "words": level.words(),
        "label": label,
        "seconds": seconds,
    })
}
