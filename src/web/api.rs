//! The `/api/` handlers: read the body within the limit, turn it into the
//! library's options, run the search off the async threads, answer with
//! the command line's JSON.

use super::State;
use crate::format::{FindJson, GameAnalysisJson, ReplayJson, SolveJson, SolveStoppedJson};
use crate::game::{self, Budget, GameState, Side};
use crate::puzzle::session::{Outcome, Session};
use crate::puzzle::{Collection, Puzzle};
use crate::rules::{turn, Board, BoardError, Capture, Preset, RuleOptions, Rules, Scope};
use crate::search::{self, FindOptions, Listing, SearchError, SolveOptions};
use axum::body::Body;
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(crate) type Shared_ = Shared<Arc<State>>;

/// An API error: a status, one line, and the request field it is about
/// (when one is), so that a page can show the message beside that field.
pub(crate) struct ApiError(
    pub(crate) StatusCode,
    pub(crate) String,
    pub(crate) Option<&'static str>,
);

/// The `"format"` of every error document.
pub(crate) const ERROR_FORMAT: &str = "mancala-sweep-web-error/1";

impl ApiError {
    pub(crate) fn bad(msg: impl Into<String>) -> Self {
        ApiError(StatusCode::BAD_REQUEST, msg.into(), None)
    }

    pub(crate) fn status(status: StatusCode, msg: impl Into<String>) -> Self {
        ApiError(status, msg.into(), None)
    }

    /// The same error, about request field `name`.
    pub(crate) fn field(mut self, name: &'static str) -> Self {
        self.2 = Some(name);
        self
    }

    /// The error document: `{"format", "error", "field"?}`.
    pub(crate) fn doc(&self) -> serde_json::Value {
        let mut doc = json!({ "format": ERROR_FORMAT, "error": self.1 });
        if let Some(f) = self.2 {
            doc["field"] = json!(f);
        }
        doc
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(self.doc())).into_response()
    }
}

pub(crate) type ApiResult = Result<Response, ApiError>;

/// The body as `T`, refusing more than the limit (413) and JSON that does
/// not fit (400, with serde's line and column).
pub(crate) async fn read<T: DeserializeOwned>(state: &State, body: Body) -> Result<T, ApiError> {
    let limit = state.config.body_limit;
    let bytes = axum::body::to_bytes(body, limit).await.map_err(|_| {
        ApiError::status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body is larger than the limit of {limit} bytes"),
        )
    })?;
    let bytes = if bytes.is_empty() { &b"{}"[..] } else { &bytes };
    serde_json::from_slice(bytes).map_err(|e| {
        let err = ApiError::bad(format!("request body: {e}"));
        match field_at(bytes, e.line(), e.column()) {
            Some(f) => err.field(f),
            None => err,
        }
    })
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

/// Every field name a request body may have, for [`read`]'s errors.
const FIELDS: &[&str] = &[
    "board", "pits", "stones", "rules", "scope", "relay", "capture", "limit", "picks", "seconds",
    "seed", "hint", "level", "agent", "person", "pit", "nodes",
];

/// The rule and board fields every solving request may have, as the
/// command line's flags.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct Position {
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
    pub(crate) fn resolve(&self) -> Result<(Rules, Board), ApiError> {
        self.resolve_or(None)
    }

    /// As [`Position::resolve`], with `default` as the preset when the
    /// request names none (a game is Kalah unless it says otherwise).
    pub(crate) fn resolve_or(&self, default: Option<Preset>) -> Result<(Rules, Board), ApiError> {
        let preset = match &self.rules {
            Some(s) => Some(
                s.parse::<Preset>()
                    .map_err(|e| ApiError::bad(format!("rules: {e}")).field("rules"))?,
            ),
            None => default,
        };
        let scope = match &self.scope {
            Some(s) => Some(
                s.parse::<Scope>()
                    .map_err(|e| ApiError::bad(format!("scope: {e}")).field("scope"))?,
            ),
            None => None,
        };
        let capture = match &self.capture {
            Some(s) => Some(
                s.parse::<Capture>()
                    .map_err(|e| ApiError::bad(format!("capture: {e}")).field("capture"))?,
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
            ApiError::bad(e.to_string()).field(field)
        })
    }
}

/// Counts a running solve for the 429 limit; dropping it frees the slot.
pub(crate) struct Slot(Arc<State>);

impl Slot {
    pub(crate) fn take(state: &Arc<State>) -> Result<Slot, ApiError> {
        let max = state.config.max_solves;
        let now = state.running.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(state.clone());
        if now >= max {
            return Err(ApiError::status(
                StatusCode::TOO_MANY_REQUESTS,
                format!("busy: {max} solves are running already (--max-solves {max}); try again when one ends"),
            ));
        }
        Ok(slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Raises the search's cancel flag when the request goes away (the page
/// closed, the client hung up): axum drops the handler's future then.
pub(crate) struct CancelOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Run `work` on a blocking thread with a cancel flag that the request's
/// end raises.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let flag = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(flag.clone());
    tokio::task::spawn_blocking(move || work(&flag))
        .await
        .map_err(|e| {
            ApiError::status(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the search failed: {e}"),
            )
        })
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveRequest {
    #[serde(flatten)]
    pub(crate) position: Position,
    /// Optimal lines to list (default 10, at most 1000).
    pub(crate) limit: Option<u32>,
}

impl SolveRequest {
    /// The rules, board and number of lines asked for, checked.
    pub(crate) fn check(&self) -> Result<(Rules, Board, u32), ApiError> {
        let (rules, board) = self.position.resolve()?;
        let limit = self.limit.unwrap_or(10);
        if limit > 1000 {
            return Err(ApiError::bad(format!(
                "limit: {limit} is too many lines to list; allowed 0 to 1000"
            ))
            .field("limit"));
        }
        Ok((rules, board, limit))
    }
}

/// The answer to a finished or stopped solve, as `/api/solve` gives it
/// and the stream's `result` event carries it.
pub(crate) fn solve_answer(
    result: Result<search::Solution, SearchError>,
    rules: Rules,
    board: &Board,
    max_memory: u64,
) -> Result<serde_json::Value, ApiError> {
    match result {
        Ok(s) => Ok(serde_json::to_value(SolveJson::new(&s, threads())).expect("plain data")),
        Err(e @ SearchError::MemoryLimit { .. }) => Err(ApiError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{e} (the server's --max-memory is {max_memory} bytes; try find for a good line)"
            ),
        )),
        Err(e) => match SolveStoppedJson::new(rules, board, &e) {
            Some(doc) => Ok(serde_json::to_value(doc).expect("plain data")),
            None => Err(ApiError::bad(e.to_string())),
        },
    }
}

/// `POST /api/solve`: `solve --json`.
pub(crate) async fn solve(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: SolveRequest = read(&state, body).await?;
    let (rules, board, limit) = req.check()?;
    let slot = Slot::take(&state)?;
    let (max_memory, seconds) = (state.config.max_memory, state.config.seconds);
    let result = blocking(move |cancel| {
        // The slot is freed when the search has really stopped, not when
        // the request went away.
        let _slot = slot;
        let opts = SolveOptions {
            threads: 0,
            listing: Listing::Limit(limit as usize),
            max_memory,
            // This request's guard counts what it adds, not the games and
            // other requests the server holds (those have their own caps).
            memory_held: search::memory::resident_bytes().unwrap_or(0),
            cancel: Some(cancel),
            seconds: Some(seconds),
            ..Default::default()
        };
        search::solve(&board, rules, &opts)
    })
    .await?;
    Ok(Json(solve_answer(result, rules, &board, max_memory)?).into_response())
}

pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplayRequest {
    #[serde(flatten)]
    position: Position,
    /// Pit numbers to play.
    picks: Vec<u32>,
}

/// `POST /api/replay`: `replay --json`.
pub(crate) async fn replay(state: Shared_, body: Body) -> ApiResult {
    let req: ReplayRequest = read(&state.0, body).await?;
    let (rules, board) = req.position.resolve()?;
    let states = turn::replay(board, rules, &req.picks)
        .map_err(|e| ApiError::bad(e.to_string()).field("picks"))?;
    Ok(Json(ReplayJson::new(rules, &states)).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindRequest {
    #[serde(flatten)]
    position: Position,
    /// Seconds (at most the server's budget).
    seconds: Option<f64>,
    seed: Option<u64>,
}

/// `POST /api/find`: `find --json`.
pub(crate) async fn find(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: FindRequest = read(&state, body).await?;
    let (rules, board) = req.position.resolve()?;
    let budget = state.config.seconds;
    let seconds = req.seconds.unwrap_or(budget.min(5.0));
    if !(seconds > 0.0 && seconds <= budget) {
        return Err(ApiError::bad(format!(
            "seconds: {seconds} is not allowed; give more than 0 and at most {budget} (the server's --seconds)"
        ))
        .field("seconds"));
    }
    let seed = req.seed.unwrap_or(0);
    let slot = Slot::take(&state)?;
    let result = blocking(move |cancel| {
        let _slot = slot;
        let opts = FindOptions {
            seconds,
            seed,
            cancel: Some(cancel),
            ..Default::default()
        };
        search::find(&board, rules, &opts)
    })
    .await?;
    match result {
        Ok(f) => Ok(Json(FindJson::new(&f, seed, threads())).into_response()),
        Err(e) => Err(ApiError::bad(e.to_string())),
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyzeRequest {
    #[serde(flatten)]
    position: Position,
    /// Seconds (default 1, at most the server's budget).
    seconds: Option<f64>,
    /// Picks to search instead of seconds, for answers that repeat.
    nodes: Option<u64>,
}

/// The most picks a request may ask `/api/analyze` for: about a minute of
/// one core, so that a node budget cannot pass the server's time budget
/// by much (the seconds budget holds as well).
const MAX_ANALYZE_NODES: u64 = 200_000_000;

/// The table of a web analysis: what `game analyze` uses.
const ANALYZE_TABLE: u64 = 64 << 20;

impl AnalyzeRequest {
    /// The game state and budget asked for, checked.
    pub(crate) fn check(&self, budget: f64) -> Result<(GameState, Budget), ApiError> {
        let (rules, board) = self.position.resolve_or(Some(Preset::Kalah))?;
        let state = GameState::new(board, Side::First, rules)
            .map_err(|e| ApiError::bad(e.to_string()).field("board"))?;
        if state.is_over() {
            return Err(ApiError::bad(format!(
                "board: the game is over ({} to {}); there is no move to analyse",
                state.store(Side::First),
                state.store(Side::Second)
            ))
            .field("board"));
        }
        let seconds = self.seconds.unwrap_or(budget.min(1.0));
        if !(seconds > 0.0 && seconds <= budget) {
            return Err(ApiError::bad(format!(
                "seconds: {seconds} is not allowed; give more than 0 and at most {budget} (the server's --seconds)"
            ))
            .field("seconds"));
        }
        match self.nodes {
            Some(n) if n == 0 || n > MAX_ANALYZE_NODES => Err(ApiError::bad(format!(
                "nodes: {n} is not allowed; give 1 to {MAX_ANALYZE_NODES}"
            ))
            .field("nodes")),
            Some(n) => Ok((state, Budget::Nodes(n))),
            None => Ok((state, Budget::Seconds(seconds))),
        }
    }
}

/// An analysis of `game` on one thread with the web's table, as the
/// document `game analyze --json` prints; the search stops at `cancel`.
pub(crate) fn analysis(
    game: &GameState,
    budget: Budget,
    max_memory: u64,
    cancel: &AtomicBool,
    report: Option<game::analyze::Report<'_>>,
) -> Result<serde_json::Value, ApiError> {
    let opts = game::SolveOptions {
        table_bytes: ANALYZE_TABLE.min(max_memory / 2),
        memory_cap: max_memory,
        threads: 1,
        ..Default::default()
    }
    .fit_to(game.rules(), game.pits_per_side(), game.stones_in_pits());
    let a = game::analyze(game, &opts, None, budget, cancel, report)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(json!(GameAnalysisJson::new(game, &a, 1, usize::MAX)))
}

/// `POST /api/analyze`: `game analyze --json`, every turn ranked, in
/// `seconds` (default 1) or `nodes` picks.
pub(crate) async fn analyze(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: AnalyzeRequest = read(&state, body).await?;
    let (game, budget) = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let max_memory = state.config.max_memory;
    let doc = blocking(move |cancel| {
        let _slot = slot;
        analysis(&game, budget, max_memory, cancel, None)
    })
    .await??;
    Ok(Json(doc).into_response())
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
    puzzles: Vec<serde_json::Value>,
}

/// `GET /api/puzzles`: the collections the server was started with.
pub(crate) async fn puzzles(state: Shared_) -> ApiResult {
    let list: Vec<CollectionSummary> = state
        .0
        .config
        .collections
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
    Ok(
        Json(json!({ "format": "mancala-sweep-web-puzzles/1", "collections": list }))
            .into_response(),
    )
}

fn lookup<'a>(
    state: &'a State,
    name: &str,
    id: &str,
) -> Result<(&'a Collection, &'a Puzzle), ApiError> {
    let not_found = |msg: String| ApiError::status(StatusCode::NOT_FOUND, msg);
    let c = state
        .config
        .collections
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = state
                .config
                .collections
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            not_found(format!(
                "no collection {name:?}; the server has {}",
                names.join(", ")
            ))
        })?;
    let p = c
        .puzzles
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| not_found(format!("collection {name:?} has no puzzle {id:?}")))?;
    Ok((c, p))
}

/// `GET /api/puzzles/{collection}/{id}`: one puzzle, as in its file.
pub(crate) async fn puzzle(state: Shared_, Path((name, id)): Path<(String, String)>) -> ApiResult {
    let (c, p) = lookup(&state.0, &name, &id)?;
    Ok(Json(json!({"collection": c.name, "rules": c.rules, "preset": crate::format::json::preset_name(c.rules), "puzzle": p})).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckRequest {
    /// Picks so far.
    #[serde(default)]
    picks: Vec<u32>,
    /// Also give the next pick of a solution from there.
    #[serde(default)]
    hint: bool,
}

/// `POST /api/puzzles/{collection}/{id}/check`: play the picks in a
/// puzzle session and say how it went.
pub(crate) async fn check(
    state: Shared_,
    Path((name, id)): Path<(String, String)>,
    body: Body,
) -> ApiResult {
    let state = state.0;
    let req: CheckRequest = read(&state, body).await?;
    let (c, p) = lookup(&state, &name, &id)?;
    let (c, p) = (c.clone(), p.clone());
    let seconds = state.config.seconds.min(10.0);
    let slot = Slot::take(&state)?;
    blocking(move |cancel| {
        let _slot = slot;
        let mut session = Session::new(&c, &p, seconds, cancel).map_err(|e| ApiError::bad(e.to_string()))?;
        let mut steps = Vec::new();
        for (i, &n) in req.picks.iter().enumerate() {
            let picked = session.pick(n).map_err(|e| ApiError::bad(format!("pick {} ({n}): {e}", i + 1)).field("picks"))?;
            steps.push(json!({
                "pick": picked.pit,
                "to_move": picked.to_move,
                "left_solutions": picked.left_solutions,
                "store": session.board().store(),
                "pits": session.board().pits(),
                "board": session.board().one_line(),
            }));
            if !picked.to_move && i + 1 < req.picks.len() {
                return Err(ApiError::bad(format!(
                    "pick {}: the turn ended at pick {} and takes no more picks",
                    i + 2,
                    i + 1
                )).field("picks"));
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
        Ok(Json(json!({
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
        .into_response())
    })
    .await?
}

/// Any other `/api/` path: 404 in JSON, listing what there is.
pub(crate) async fn no_such_endpoint() -> ApiError {
    ApiError::status(
        StatusCode::NOT_FOUND,
        "no such endpoint; there are POST /api/solve, /api/solve/stream, /api/replay, /api/find, GET /api/puzzles, /api/puzzles/{collection}/{id}, POST /api/puzzles/{collection}/{id}/check, GET /api/atlas, POST /api/game/new, GET /api/game/{id}, POST /api/game/{id}/pick, /hint, /undo, DELETE /api/game/{id}",
    )
}
