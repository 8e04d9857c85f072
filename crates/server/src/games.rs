//! `/api/game/...`: games of a person against the computer.
//!
//! Every game is a [`GameSession`], the state machine that `game play`
//! drives on the terminal, so the web applies no rule of its own: who is
//! to move, what undo takes back and when the computer plays are the game
//! layer's. The server keeps the sessions in memory under two caps, a
//! number of games and the bytes of their agents' tables (a `perfect`
//! agent holds hundreds of megabytes); the least recently used game makes
//! room for a new one, and a game left alone for the idle time is dropped.
//! The computer's turn and hints run off the async threads with the same
//! cancel flag, time budget and `--max-solves` slot as a solve: a turn
//! that is stopped leaves the game as it was before the person's pick.

use super::handlers::{read, Share, Shared_, Slot};
use super::stream::{blocking, ApiError, ApiResult};
use super::State;
use api::games::{
    computer_moves, computer_reply, game_error, game_json, hint_analysis, hint_json, NewGame,
    NewGameSpec, PickRequest,
};
use api::ANALYZE_TABLE;
use axum::body::Body;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use game::{GameSession, Level};
use serde_json::json;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The games the server holds.
#[derive(Default)]
pub(crate) struct Games {
    map: HashMap<String, Arc<Entry>>,
    /// Bytes of the advisers that hints are building or using now: a hint
    /// builds an agent of the game's level, whose tables count against
    /// `--max-memory` beside the games' own while it runs.
    hints: u64,
}

impl Games {
    /// Bytes of the games' tables and of the hints' advisers.
    pub(crate) fn bytes(&self) -> u64 {
        self.map.values().map(|e| e.bytes).sum::<u64>() + self.hints
    }
}

/// A hint's share of `--max-memory`, given back when the hint ends.
struct HintBytes {
    state: Arc<State>,
    bytes: u64,
}

impl HintBytes {
    /// Reserve `bytes` for a hint, or refuse with 503 when the games' tables
    /// and the hints running now leave too little of `--max-memory`.
    fn take(state: &Arc<State>, bytes: u64) -> Result<HintBytes, ApiError> {
        let cap = state.config.max_memory;
        let mut games = state.games.lock().map_err(|_| {
            ApiError::status(
                StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                "game table poisoned",
            )
        })?;
        let used = games.bytes();
        if used + bytes > cap {
            return Err(ApiError::status(StatusCode::SERVICE_UNAVAILABLE.as_u16(),
                format!(
                    "a hint at this level needs {bytes} bytes of tables and the server's --max-memory of {cap} has {} left now; try again when other games end",
                    cap.saturating_sub(used)
                ),
            ));
        }
        games.hints += bytes;
        Ok(HintBytes {
            state: Arc::clone(state),
            bytes,
        })
    }
}

impl Drop for HintBytes {
    fn drop(&mut self) {
        if let Ok(mut games) = self.state.games.lock() {
            games.hints -= self.bytes;
        }
    }
}

/// One game.
struct Entry {
    id: String,
    /// Locked while a request works on the game; a second request for
    /// the same game meanwhile is refused with 409, not queued.
    session: Mutex<GameSession>,
    level: Option<Level>,
    /// Last use, for the idle expiry and for choosing which game to evict.
    last: Mutex<Instant>,
    /// The agent's tables (see [`AgentSpec::memory_bytes`]).
    bytes: u64,
}

impl Entry {
    fn touch(&self) {
        if let Ok(mut t) = self.last.lock() {
            *t = Instant::now();
        }
    }
    fn last(&self) -> Instant {
        self.last.lock().map_or_else(|_| Instant::now(), |t| *t)
    }
}

/// A new game id: random, so that one page cannot guess another's game.
fn new_id() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", h.finish())
}

/// Drop the games idle past the server's idle time.
fn expire(state: &State, games: &mut Games) {
    let idle = Duration::from_secs(state.config.game_idle_seconds);
    games.map.retain(|_, e| e.last().elapsed() < idle);
}

/// The game `id`, touched; 404 when there is none (never made, expired
/// or evicted).
fn find(state: &State, id: &str) -> Result<Arc<Entry>, ApiError> {
    let mut games = state.games.lock().map_err(|_| {
        ApiError::status(
            StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
            "game table poisoned",
        )
    })?;
    expire(state, &mut games);
    let e = games.map.get(id).cloned().ok_or_else(|| {
        ApiError::status(StatusCode::NOT_FOUND.as_u16(),
            format!(
                "no game {id:?}: it was never started, or it was dropped after {} s idle or to make room for newer games; start a new one",
                state.config.game_idle_seconds
            ),
        )
    })?;
    e.touch();
    Ok(e)
}

/// The locked session of `entry`, or 409 while another request has it.
fn lock(entry: &Entry) -> Result<std::sync::MutexGuard<'_, GameSession>, ApiError> {
    entry.session.try_lock().map_err(|_| {
        ApiError::status(
            StatusCode::CONFLICT.as_u16(),
            "this game is busy with another request (the computer is still thinking); wait for it",
        )
    })
}

/// Run `work` on the locked session of `entry` at once: for requests that
/// search nothing (look, undo), which need no `--max-solves` place.
fn quick<T>(
    entry: &Entry,
    work: impl FnOnce(&mut GameSession, &Entry) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut session = lock(entry)?;
    work(&mut session, entry)
}

/// Run `work` on the locked session of `entry` off the async threads,
/// with a cancel flag raised by the request's end or the time budget.
async fn with_session<T: Send + 'static>(
    state: &Arc<State>,
    entry: Arc<Entry>,
    work: impl FnOnce(&mut GameSession, &Entry, &AtomicBool) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slot = Slot::take(state)?;
    let seconds = state.config.seconds;
    blocking(move |cancel| {
        let _slot = slot;
        let mut session = lock(&entry)?;
        with_deadline(cancel, seconds, || work(&mut session, &entry, cancel))
    })
    .await?
}

/// Run `f` while a timer raises `cancel` once `seconds` have passed.
fn with_deadline<T>(cancel: &AtomicBool, seconds: f64, f: impl FnOnce() -> T) -> T {
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let wait = Duration::from_secs_f64(seconds.max(0.0));
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(wait) {
                cancel.store(true, Ordering::SeqCst);
            }
        });
        let out = f();
        let _ = done_tx.send(());
        out
    })
}

/// `POST /api/game/new`: start a game; when the computer moves first its
/// turn is in `played`.
pub(crate) async fn new_game(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: NewGame = read(&state, body).await?;
    let cap = state.config.max_memory;
    let NewGameSpec {
        start,
        person,
        spec,
        level,
        seed,
        bytes,
        memory_cap,
    } = req.check(cap, &format!("the server's --max-memory of {cap}"))?;
    let seconds = state.config.seconds;
    // Build the agent (its tables) and play the computer's first turn off
    // the async threads. Until the game is in the table its tables are
    // declared as this request's, so that a solve running meanwhile is not
    // charged for them.
    // The endgame database the server holds for these rules and board
    // (shared, already counted), for the `perfect` computer and the
    // hints, as `game play` reads the cached one.
    let db = state.config.endgames.for_game(&start, cap);
    let slot = Slot::take(&state)?;
    let building = Share::new(&state);
    building.set(bytes);
    let entry = blocking(move |cancel| {
        let _slot = slot;
        let session = GameSession::within(start, person, spec, seed, db, memory_cap)
            .map_err(|e| game_error(e, seconds))?;
        Ok::<_, ApiError>(Entry {
            id: new_id(),
            session: Mutex::new(session),
            level,
            last: Mutex::new(Instant::now()),
            bytes,
        })
        .and_then(|e| {
            let mut played = Vec::new();
            {
                let mut s = e.session.lock().map_err(|_| {
                    ApiError::status(
                        StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                        "game lock poisoned",
                    )
                })?;
                with_deadline(cancel, seconds, || {
                    computer_moves(&mut s, cancel, seconds, &mut played)
                })?;
            }
            Ok((e, played))
        })
    })
    .await??;
    let (entry, played) = entry;
    let entry = Arc::new(entry);
    {
        let mut games = state.games.lock().map_err(|_| {
            ApiError::status(
                StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                "game table poisoned",
            )
        })?;
        expire(&state, &mut games);
        // Evict the least recently used games until this one fits.
        loop {
            let used: u64 = games.map.values().map(|e| e.bytes).sum();
            if games.map.len() < state.config.max_games && used + bytes <= cap {
                break;
            }
            let oldest = games
                .map
                .values()
                .min_by_key(|e| e.last())
                .map(|e| e.id.clone());
            match oldest {
                Some(id) => {
                    games.map.remove(&id);
                }
                None => break,
            }
        }
        games.map.insert(entry.id.clone(), entry.clone());
    }
    drop(building);
    let s = entry.session.lock().map_err(|_| {
        ApiError::status(
            StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
            "game lock poisoned",
        )
    })?;
    Ok(Json(game_json(&entry.id, entry.level, &s, &played, None)).into_response())
}

/// `GET /api/game/{id}`: the game now.
pub(crate) async fn get_game(state: Shared_, Path(id): Path<String>) -> ApiResult {
    let entry = find(&state.0, &id)?;
    quick(&entry, |s, e| Ok(game_json(&e.id, e.level, s, &[], None)))
        .map(|doc| Json(doc).into_response())
}

/// `POST /api/game/{id}/pick`: the person's pick, then the computer's
/// whole turn if the turn passed to it; every pick in `played`. With
/// `"reply": false` the person's pick only, at once (no search, no
/// `--max-solves` place); `/reply` then asks for the computer's turn.
pub(crate) async fn pick(state: Shared_, Path(id): Path<String>, body: Body) -> ApiResult {
    let state = state.0;
    let req: PickRequest = read(&state, body).await?;
    let entry = find(&state, &id)?;
    let seconds = state.config.seconds;
    if !req.reply {
        return quick(&entry, |s, e| {
            let mine = s.pick(req.pit).map_err(|e| game_error(e, seconds))?;
            Ok(game_json(&e.id, e.level, s, &[mine], None))
        })
        .map(|doc| Json(doc).into_response());
    }
    with_session(&state, entry, move |s, e, cancel| {
        let mine = s.pick(req.pit).map_err(|e| game_error(e, seconds))?;
        let mut played = vec![mine];
        computer_moves(s, cancel, seconds, &mut played)?;
        Ok(game_json(&e.id, e.level, s, &played, None))
    })
    .await
    .map(|doc| Json(doc).into_response())
}

/// `POST /api/game/{id}/reply`: the computer's whole turn when it is to
/// move, every pick in `played` (none when it is not its turn).
pub(crate) async fn reply(state: Shared_, Path(id): Path<String>) -> ApiResult {
    let state = state.0;
    let entry = find(&state, &id)?;
    let seconds = state.config.seconds;
    with_session(&state, entry, move |s, e, cancel| {
        let played = computer_reply(s, cancel, seconds)?;
        Ok(game_json(&e.id, e.level, s, &played, None))
    })
    .await
    .map(|doc| Json(doc).into_response())
}

/// `POST /api/game/{id}/hint`: the best rest of the person's turn by an
/// analysis within [`api::games::HINT_SECONDS`], in `hint`, with
/// its value in `hint_value`; the analysis's table is reserved from
/// `--max-memory` while it runs.
pub(crate) async fn hint(state: Shared_, Path(id): Path<String>) -> ApiResult {
    let state = state.0;
    let entry = find(&state, &id)?;
    let seconds = state.config.seconds;
    let max_memory = state.config.max_memory;
    let _reserved = HintBytes::take(&state, ANALYZE_TABLE.min(max_memory / 2))?;
    with_session(&state, entry, move |s, e, cancel| {
        let a = hint_analysis(s, max_memory, cancel).map_err(|e| game_error(e, seconds))?;
        Ok(hint_json(&e.id, e.level, s, a.as_ref()))
    })
    .await
    .map(|doc| Json(doc).into_response())
}

/// `POST /api/game/{id}/undo`: take back the person's turn in progress or
/// their last whole turn with the computer's reply; `undone` says whether
/// there was anything to take back.
pub(crate) async fn undo(state: Shared_, Path(id): Path<String>) -> ApiResult {
    let state = state.0;
    let entry = find(&state, &id)?;
    quick(&entry, |s, e| {
        let undone = s.undo();
        let mut doc = game_json(&e.id, e.level, s, &[], None);
        doc["undone"] = json!(undone);
        Ok(doc)
    })
    .map(|doc| Json(doc).into_response())
}

/// `DELETE /api/game/{id}`: forget the game now rather than at expiry.
pub(crate) async fn delete(state: Shared_, Path(id): Path<String>) -> ApiResult {
    let state = state.0;
    find(&state, &id)?;
    if let Ok(mut games) = state.games.lock() {
        games.map.remove(&id);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
