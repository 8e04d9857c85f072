//! The `/api/` handlers of `serve`: read the body within the limit, let
//! [`api`] check it and build the answer (the same code the static
//! site's engine runs), and run the search off the async threads with a
//! `--max-solves` slot and a cancel flag that the request's end raises.

use super::stream::{blocking, deliver, ApiError, ApiResult, Delivery};
use super::State;
use api::{
    self, AnalyzeRequest, BoardRequest, CheckRequest, FindRequest, ReplayRequest, ReviewRequest,
    SolveHost, SolveRequest,
};
use axum::body::Body;
use axum::extract::{Path, State as Shared};
use axum::response::IntoResponse;
use axum::Json;
use game::Analysis;
use serde::de::DeserializeOwned;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub(crate) type Shared_ = Shared<Arc<State>>;

/// The body as `T`, refusing more than the limit (413) and JSON that does
/// not fit (400, naming the field).
pub(crate) async fn read<T: DeserializeOwned>(state: &State, body: Body) -> Result<T, ApiError> {
    let limit = state.config.body_limit;
    let bytes = axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| api::too_large(limit))?;
    Ok(api::parse(&bytes, limit)?)
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
                429,
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

/// A request's share of what the server declares it holds, in
/// [`State::declared`]; dropping it gives the share back.
///
/// A solve's memory guard must count that solve only: counted as the
/// resident memory above what the server held when the solve began, a
/// game built or another solve grown meanwhile would be charged to it, and
/// a solve that fits would stop at its limit. The guard counts the process's
/// resident memory above what it held at the start plus what the rest of
/// the server has declared since ([`Share::held`]): the solve's own
/// buffers with the allocator's slack around them, and no one else's.
pub(crate) struct Share {
    state: Arc<State>,
    bytes: AtomicU64,
}

impl Share {
    pub(crate) fn new(state: &Arc<State>) -> Share {
        Share {
            state: state.clone(),
            bytes: AtomicU64::new(0),
        }
    }

    /// Say that this request holds `bytes` now.
    pub(crate) fn set(&self, bytes: u64) {
        // Added before the old share is taken off, so the sum never wraps.
        self.state.declared.fetch_add(bytes, Ordering::SeqCst);
        let old = self.bytes.swap(bytes, Ordering::SeqCst);
        self.state.declared.fetch_sub(old, Ordering::SeqCst);
    }

    /// What the rest of the server declares it holds now: the games' and
    /// hints' tables and every other request's share.
    fn others(&self) -> u64 {
        let all = self.state.games_bytes() + self.state.declared.load(Ordering::SeqCst);
        all.saturating_sub(self.bytes.load(Ordering::SeqCst))
    }

    /// The function for [`SweepOptions::memory_held`], from now on: the
    /// resident memory now, moved by what the rest of the server declares
    /// it has taken or given back since.
    pub(crate) fn held(&self) -> impl Fn() -> u64 + Sync + '_ {
        let resident = sweep::memory::resident_bytes().unwrap_or(0);
        let others = self.others();
        move || (resident + self.others()).saturating_sub(others)
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        self.set(0);
    }
}

/// `POST /api/solve` (`solve --json`) and `POST /api/solve/stream`: one
/// `progress` event a store bucket, from the search's own progress hook
/// ([`sweep::SweepOptions::progress`], the one that draws the command
/// line's bar).
pub(crate) async fn solve(state: Shared_, body: Body, delivery: Delivery) -> ApiResult {
    let state = state.0;
    let req: SolveRequest = read(&state, body).await?;
    let (rules, board, limit) = req.check()?;
    let slot = Slot::take(&state)?;
    let share = Share::new(&state);
    let (max_memory, seconds) = (state.config.max_memory, state.config.seconds);
    deliver(delivery, move |cancel, progress| {
        // The slot is freed when the search has really stopped, not when
        // the request went away.
        let _slot = slot;
        // This request's guard counts what it adds, not the games and
        // other requests the server holds (those have their own caps).
        let held = share.held();
        let holding = |bytes| share.set(bytes);
        let host = SolveHost {
            threads: threads(),
            max_memory,
            seconds,
            memory_held: Some(&held),
            cancel: Some(cancel),
            holding: Some(&holding),
            events: progress,
        };
        api::run_solve(rules, &board, limit, &host)
    })
    .await
}

/// The threads a search of the server runs on.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `POST /api/replay`: `replay --json`.
pub(crate) async fn replay(state: Shared_, body: Body) -> ApiResult {
    let req: ReplayRequest = read(&state.0, body).await?;
    Ok(Json(api::replay(&req)?).into_response())
}

/// `POST /api/board`: the board text read and checked by the engine.
pub(crate) async fn board(state: Shared_, body: Body) -> ApiResult {
    let req: BoardRequest = read(&state.0, body).await?;
    Ok(Json(api::board(&req)?).into_response())
}

/// `POST /api/find`: `find --json`.
pub(crate) async fn find(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: FindRequest = read(&state, body).await?;
    let (rules, board, opts) = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let doc = blocking(move |cancel| {
        let _slot = slot;
        let opts = sweep::FindOptions {
            cancel: Some(cancel),
            ..opts
        };
        api::find(&board, rules, &opts, threads())
    })
    .await??;
    Ok(Json(doc).into_response())
}

/// `POST /api/analyze` (`game analyze --json`, every turn ranked, in
/// `seconds` (default 1) or `nodes` picks) and `POST /api/analyze/stream`:
/// a `progress` event carries the whole analysis so far (the same document
/// as the result, `"stopped": false`, with fewer turns proved) after each
/// step of the search.
pub(crate) async fn analyze(state: Shared_, body: Body, delivery: Delivery) -> ApiResult {
    let state = state.0;
    let req: AnalyzeRequest = read(&state, body).await?;
    let (game, budget) = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let max_memory = state.config.max_memory;
    let share = Share::new(&state);
    share.set(api::analysis_options(&game, max_memory).table_bytes);
    let db = state.config.endgames.for_game(&game, max_memory);
    deliver(delivery, move |cancel, progress| {
        let _slot = slot;
        let _share = share;
        let gate = api::ProgressGate::default();
        let report = |a: &Analysis| {
            if let Some(send) = progress.filter(|_| gate.due()) {
                send(api::analysis_doc(&game, a));
            }
        };
        let report = progress.map(|_| &report as game::analyze::Report<'_>);
        api::analysis(&game, budget, max_memory, db.as_ref(), cancel, report)
    })
    .await
}

/// `POST /api/review` (`game review --json` of the turns sent, every
/// position within `seconds` (default 4) on average) and `POST
/// /api/review/stream`: a `progress` event carries the review so far (the
/// same document as the result, `"stopped": false`) after every position
/// settled, the finished and booked ones first, then the last turns first.
/// Each document is small (a line a turn): none is dropped for being too
/// soon, so a turn is shown as soon as it is graded.
pub(crate) async fn review(state: Shared_, body: Body, delivery: Delivery) -> ApiResult {
    let state = state.0;
    let req: ReviewRequest = read(&state, body).await?;
    let game = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let max_memory = state.config.max_memory;
    let share = Share::new(&state);
    share.set(api::review_options(&game.start, max_memory).table_bytes);
    let db = state.config.endgames.for_game(&game.start, max_memory);
    deliver(delivery, move |cancel, progress| {
        let _slot = slot;
        let _share = share;
        api::run_review(&game, max_memory, db.as_ref(), cancel, progress)
    })
    .await
}

/// `GET /api/puzzles`: the collections the server was started with.
pub(crate) async fn puzzles(state: Shared_) -> ApiResult {
    Ok(Json(api::puzzles(&state.0.config.collections)).into_response())
}

/// `GET /api/puzzles/{collection}/{id}`: one puzzle, as in its file.
pub(crate) async fn puzzle(state: Shared_, Path((name, id)): Path<(String, String)>) -> ApiResult {
    let (c, p) = api::lookup(&state.0.config.collections, &name, &id)?;
    Ok(Json(api::puzzle(c, p)).into_response())
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
    let (c, p) = api::lookup(&state.config.collections, &name, &id)?;
    let (c, p) = (c.clone(), p.clone());
    let seconds = state.config.seconds.min(10.0);
    let slot = Slot::take(&state)?;
    let doc = blocking(move |cancel| {
        let _slot = slot;
        api::check(&c, &p, &req, seconds, cancel)
    })
    .await??;
    Ok(Json(doc).into_response())
}
