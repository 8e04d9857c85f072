//! The web API's requests and answers, apart from any server: read a JSON
//! body, check it, run the library, build the answer document.
//!
//! Two back-ends answer the same pages with it: `serve` ([`crate::web`],
//! axum on the machine's threads) and the engine compiled to WebAssembly
//! that the static site runs in a Web Worker (`wasm/`). Each keeps only
//! what is its own (slots, threads, streams, the server's caps), so that a
//! page cannot tell them apart by their answers. Every error is
//! `{"format", "error", "field"?}` with an HTTP status: one line a person
//! can read, and the request field it is about, so that a page can show
//! it beside that field.

pub mod games;

use crate::format::{FindJson, GameAnalysisJson, ReplayJson, SolveJson, SolveStoppedJson};
use crate::game::{self, Budget, GameState, Side};
use crate::puzzle::session::{Outcome, Session};
use crate::puzzle::{Collection, Puzzle};
use crate::rules::{
    turn, Board, BoardError, Capture, Preset, RuleOptions, Rules, Scope, MAX_PITS_PER_SIDE,
    MAX_STONES_IN_PLAY,
};
use crate::search::{self, FindOptions, SearchError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// An API error: an HTTP status, one line, and the request field it is
/// about (when one is).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The HTTP status: 400 for bad input, 404, 409, 413, 429, 503.
    pub status: u16,
    /// One line a person can read.
    pub message: String,
    /// The request field the message is about.
    pub field: Option<&'static str>,
}

/// The `"format"` of every error document.
pub const ERROR_FORMAT: &str = "mancala-sweep-web-error/1";

impl Error {
    /// Bad input (400).
    pub fn bad(msg: impl Into<String>) -> Self {
        Error::status(400, msg)
    }

    /// An error of another status. The message is made one line here:
    /// some messages quote the body's own text (serde names an unknown
    /// field as it was sent, and a field name may hold a newline), so a
    /// control character is shown escaped (`\n`) instead.
    pub fn status(status: u16, msg: impl Into<String>) -> Self {
        let msg: String = msg.into();
        let message = if msg.contains(char::is_control) {
            msg.chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        } else {
            msg
        };
        Error {
            status,
            message,
            field: None,
        }
    }

    /// The same error, about request field `name`.
    pub fn field(mut self, name: &'static str) -> Self {
        self.field = Some(name);
        self
    }

    /// The error document: `{"format", "error", "field"?}`.
    pub fn doc(&self) -> Value {
        let mut doc = json!({ "format": ERROR_FORMAT, "error": self.message });
        if let Some(f) = self.field {
            doc["field"] = json!(f);
        }
        doc
    }
}

/// A body of at most `limit` bytes as `T`: more is 413; JSON that does not
/// fit is 400, naming the field where serde stopped. An empty body is
/// `{}`.
pub fn parse<T: DeserializeOwned>(bytes: &[u8], limit: usize) -> Result<T, Error> {
    if bytes.len() > limit {
        return Err(too_large(limit));
    }
    let bytes = if bytes.is_empty() { &b"{}"[..] } else { bytes };
    serde_json::from_slice(bytes).map_err(|e| {
        // A value of the wrong kind in a field we know: say in plain words
        // what the field takes (serde's "invalid type: string ..." is not
        // for people), and name the field.
        if let Some((field, msg)) = serde_json::from_slice::<Value>(bytes)
            .ok()
            .as_ref()
            .and_then(wrong_kind)
        {
            return Error::bad(msg).field(field);
        }
        let err = Error::bad(format!("request body: {e}"));
        // A key that is no field is not beside any field (and through the
        // flattened `Position` serde reports it at the object's end, where
        // the last key before it is some other, valid field).
        if e.to_string().starts_with("unknown field") {
            return err;
        }
        match field_at(bytes, e.line(), e.column()) {
            Some(f) => err.field(f),
            None => err,
        }
    })
}

/// The first field of `body` whose value is of a kind it cannot take
/// (text for a number, -3 or 2.7 for a count), with a message that says
/// what it takes: `pits: give a whole number from 1 to 16, not -3`.
fn wrong_kind(body: &Value) -> Option<(&'static str, String)> {
    let obj = body.as_object()?;
    for (key, value) in obj {
        let Some(field) = FIELDS.iter().copied().find(|f| f == key) else {
            continue;
        };
        let wants = match field {
            "pits" => Some(format!("a whole number from 1 to {MAX_PITS_PER_SIDE}")),
            "stones" => Some(format!("a whole number from 0 to {MAX_STONES_IN_PLAY}")),
            "limit" => Some("a whole number from 1 to 1000".to_string()),
            "seed" | "nodes" => Some("a whole number from 0 up".to_string()),
            "pit" => Some("a pit number (a whole number from 1 up)".to_string()),
            _ => None,
        };
        let ok = match field {
            "seed" | "nodes" => value.as_u64().is_some(),
            "pits" | "stones" | "limit" | "pit" => {
                // u32 fields: a whole number that fits.
                value.as_u64().is_some_and(|v| v <= u64::from(u32::MAX))
            }
            "seconds" => value.as_f64().is_some_and(|v| v >= 0.0),
            "picks" => value.as_array().is_some_and(|a| {
                a.iter()
                    .all(|v| v.as_u64().is_some_and(|v| v <= u64::from(u32::MAX)))
            }),
            "relay" | "hint" => value.is_boolean(),
            _ => value.is_string(),
        };
        if ok {
            continue;
        }
        let given = match value {
            Value::String(t) if t.trim().is_empty() => "it is blank".to_string(),
            Value::String(t) => format!("not {t:?}"),
            Value::Null => "not null".to_string(),
            Value::Array(_) => "not a list".to_string(),
            Value::Object(_) => "not an object".to_string(),
            other => format!("not {other}"),
        };
        let wants = wants.unwrap_or_else(|| {
            match field {
                "seconds" => "a number of seconds from 0 up, like 1 or 2.5",
                "picks" => "a list of pit numbers, like [3, 1]",
                "relay" | "hint" => "true or false",
                _ => "text in quotes",
            }
            .to_string()
        });
        let sep = if given == "it is blank" { ";" } else { "," };
        return Some((field, format!("{field}: give {wants}{sep} {given}")));
    }
    None
}

/// The 413 of a body over `limit` bytes.
pub fn too_large(limit: usize) -> Error {
    Error::status(
        413,
        format!("request body is larger than the limit of {limit} bytes"),
    )
}

/// The request field whose value ends at `line`, `column` of `body`
/// (where serde_json reports a value of the wrong type): the last key
/// before that point. serde does not name the field itself through the
/// flattened `Position`, and the page wants to put the error beside it.
fn field_at(body: &[u8], line: usize, column: usize) -> Option<&'static str> {
    let text = std::str::from_utf8(body).ok()?;
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.min(l.len());
            break;
        }
        offset += l.len();
    }
    let before = text.get(..offset)?;
    let colon = before.rfind("\":")?;
    let open = before[..colon].rfind('"')?;
    let key = &before[open + 1..colon];
    FIELDS.iter().copied().find(|f| *f == key)
}

/// Every field name a request body may have, for [`parse`]'s errors.
const FIELDS: &[&str] = &[
    "board", "pits", "stones", "rules", "scope", "relay", "capture", "limit", "picks", "seconds",
    "seed", "hint", "level", "agent", "person", "pit", "nodes",
];

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
    let f = search::find(board, rules, opts).map_err(|e| Error::bad(e.to_string()))?;
    Ok(json!(FindJson::new(&f, opts.seed, threads)))
}

/// `/api/analyze`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    #[serde(flatten)]
    position: Position,
    /// Seconds (default 1, at most the back-end's budget).
    seconds: Option<f64>,
    /// Picks to search instead of seconds, for answers that repeat.
    nodes: Option<u64>,
}

/// The most picks a request may ask `/api/analyze` for: about a minute of
/// one core.
pub const MAX_ANALYZE_NODES: u64 = 200_000_000;

/// The table of an analysis, in the terminal and on the web: on a 1-second
/// budget a 256 MiB table costs more to zero and fault in than it saves
/// (docs/games.md, "game analyze").
pub const ANALYZE_TABLE: u64 = 64 << 20;

impl AnalyzeRequest {
    /// The game state and budget asked for, checked, with at most
    /// `budget` seconds.
    pub fn check(&self, budget: f64) -> Result<(GameState, Budget), Error> {
        let (rules, board) = self.position.resolve_or(Some(Preset::Kalah))?;
        let state = GameState::new(board, Side::First, rules)
            .map_err(|e| Error::bad(e.to_string()).field("board"))?;
        if state.is_over() {
            return Err(Error::bad(format!(
                "board: the game is over ({} to {}); there is no move to analyse",
                state.store(Side::First),
                state.store(Side::Second)
            ))
            .field("board"));
        }
        let seconds = seconds_within(self.seconds, 1.0, budget)?;
        match self.nodes {
            Some(n) if n == 0 || n > MAX_ANALYZE_NODES => Err(Error::bad(format!(
                "nodes: {n} is not allowed; give 1 to {MAX_ANALYZE_NODES}"
            ))
            .field("nodes")),
            Some(n) => Ok((state, Budget::Nodes(n))),
            None => Ok((state, Budget::Seconds(seconds))),
        }
    }
}

/// The solver options of a web analysis of `game`: one thread, the web's
/// table (at most half of `max_memory`), sized for the stones of `game`.
pub fn analysis_options(game: &GameState, max_memory: u64) -> game::GameSolveOptions {
    game::GameSolveOptions {
        table_bytes: ANALYZE_TABLE.min(max_memory / 2),
        memory_cap: max_memory,
        threads: 1,
        ..Default::default()
    }
    .fit_to(game.rules(), game.pits_per_side(), game.stones_in_pits())
}

/// The database of `dbs` for `game`'s rules and board size, when the game
/// has more stones than it holds (otherwise the database filled on
/// demand holds the whole game) and it fits beside the analysis's table
/// within `max_memory`: a server reads the cached ones at start and
/// hands each analysis the one of its rules.
pub fn endgame_for<'a>(
    dbs: &'a [game::EndgameDb],
    game: &GameState,
    max_memory: u64,
) -> Option<&'a game::EndgameDb> {
    let table = analysis_options(game, max_memory).table_bytes;
    dbs.iter().find(|db| {
        db.rules() == game.rules()
            && db.pits_per_side() == game.pits_per_side()
            && game.stones_in_pits() > db.stones()
            && table.saturating_add(db.bytes()) <= max_memory
    })
}

/// An analysis of `game` on a fresh solver with [`analysis_options`] and
/// the endgame database `db` (else the one filled on demand), as the
/// document `game analyze --json` prints; the search stops at `cancel`,
/// and `report` hears of each step.
pub fn analysis(
    game: &GameState,
    budget: Budget,
    max_memory: u64,
    db: Option<&game::EndgameDb>,
    cancel: &AtomicBool,
    report: Option<game::analyze::Report<'_>>,
) -> Result<Value, Error> {
    let opts = analysis_options(game, max_memory);
    let a = game::analyze(game, &opts, db, budget, cancel, report)
        .map_err(|e| Error::bad(e.to_string()))?;
    Ok(analysis_doc(game, &a))
}

/// The document of an analysis of `game` on one thread.
pub fn analysis_doc(game: &GameState, a: &game::Analysis) -> Value {
    json!(GameAnalysisJson::new(game, a, 1, usize::MAX))
}

/// The least time between two progress documents of an analysis. Each one
/// holds every turn (24,324 at the avalanche start, megabytes of JSON), and
/// the search reports after every turn it narrows: sent each time, they
/// would take the search's time to write and the page's to read.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Lets an analysis's progress through at most once per [`PROGRESS_EVERY`]
/// (the first report at once); the result always follows the last.
#[derive(Default)]
pub struct ProgressGate {
    last: std::sync::Mutex<Option<crate::clock::Instant>>,
}

impl ProgressGate {
    /// True when a report now is due, which then counts as sent.
    pub fn due(&self) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let now = crate::clock::Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < PROGRESS_EVERY) {
            return false;
        }
        *last = Some(now);
        true
    }
}

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
            preset: crate::format::json::preset_name(c.rules),
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
    json!({"collection": c.name, "rules": c.rules, "preset": crate::format::json::preset_name(c.rules), "puzzle": p})
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
            "pick {k} (pit {}) leaves every solution: the goal of {} cannot be reached from here",
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
