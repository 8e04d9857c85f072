//! `POST /api/solve/stream`, `POST /api/analyze/stream` and `POST
//! /api/review/stream`: a solve, an analysis or a review that reports as
//! it goes, as server-sent events, so that a
//! page can show a big board's search moving (and offer Stop) instead of
//! a blank wait.
//!
//! The events come from the search's own progress hook
//! ([`sweep::SweepOptions::progress`], the one that draws the
//! command line's bar): one `progress` event per store bucket, then one
//! `result` event with the same JSON as `/api/solve`, or one `error`
//! event with the error document. The search holds a `--max-solves`
//! slot and stops when the stream is dropped (the client hung up or
//! pressed Stop) or its time runs out.

use super::handlers::{read, threads, ApiResult, CancelOnDrop, Share, Shared_, Slot};
use api::{self, AnalyzeRequest, ReviewRequest, SolveHost, SolveRequest};
use axum::body::Body;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use game::Analysis;
use serde_json::Value;
use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What the search thread sends to the stream.
enum Message {
    Progress(Value),
    Result(Value),
    Error(Value),
}

/// `POST /api/solve/stream`: the body of `/api/solve`; the answer is a
/// `text/event-stream`. Bad input is refused before the stream starts,
/// with the usual JSON error and status.
pub(crate) async fn solve_stream(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: SolveRequest = read(&state, body).await?;
    let (rules, board, limit) = req.check()?;
    let slot = Slot::take(&state)?;
    let share = Share::new(&state);
    let (max_memory, seconds) = (state.config.max_memory, state.config.seconds);
    Ok(events(move |flag, tx| {
        let _slot = slot;
        let progress_tx = tx.clone();
        // Progress is dropped rather than queued when the client reads slowly.
        let send = |doc| {
            let _ = progress_tx.try_send(Message::Progress(doc));
        };
        // This request's guard counts what it adds, not the games and
        // other requests the server holds (those have their own caps).
        let held = share.held();
        let holding = |bytes| share.set(bytes);
        let host = SolveHost {
            threads: threads(),
            max_memory,
            seconds,
            memory_held: Some(&held),
            cancel: Some(flag),
            holding: Some(&holding),
            events: Some(&send),
        };
        match api::run_solve(rules, &board, limit, &host) {
            Ok(doc) => Message::Result(doc),
            Err(e) => Message::Error(e.doc()),
        }
    }))
}

/// `POST /api/analyze/stream`: the body of `/api/analyze`; a `progress`
/// event carries the whole analysis so far (the same document as the
/// result, `"stopped": false`, with fewer turns proved) after each step of
/// the search, then `result` carries the last one. Stop (the client going
/// away) ends the search at once.
pub(crate) async fn analyze_stream(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: AnalyzeRequest = read(&state, body).await?;
    let (game, budget) = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let max_memory = state.config.max_memory;
    let share = Share::new(&state);
    share.set(api::analysis_options(&game, max_memory).table_bytes);
    let db = state.config.endgames.for_game(&game, max_memory);
    Ok(events(move |flag, tx| {
        let _slot = slot;
        let _share = share;
        let progress_tx = tx.clone();
        let gate = api::ProgressGate::default();
        let report = move |a: &Analysis| {
            if gate.due() {
                let _ = progress_tx.try_send(Message::Progress(api::analysis_doc(&game, a)));
            }
        };
        match api::analysis(&game, budget, max_memory, db.as_ref(), flag, Some(&report)) {
            Ok(doc) => Message::Result(doc),
            Err(e) => Message::Error(e.doc()),
        }
    }))
}

/// `POST /api/review/stream`: the body of `/api/review`; a `progress`
/// event carries the review so far (the same document as the result,
/// `"stopped": false`) after every position settled, the finished and
/// booked ones first, then the last turns first; `result` carries the
/// whole review. Stop (the client going away) ends it at once.
pub(crate) async fn review_stream(state: Shared_, body: Body) -> ApiResult {
    let state = state.0;
    let req: ReviewRequest = read(&state, body).await?;
    let game = req.check(state.config.seconds)?;
    let slot = Slot::take(&state)?;
    let max_memory = state.config.max_memory;
    let share = Share::new(&state);
    share.set(api::review_options(&game.start, max_memory).table_bytes);
    let db = state.config.endgames.for_game(&game.start, max_memory);
    Ok(events(move |flag, tx| {
        let _slot = slot;
        let _share = share;
        let progress_tx = tx.clone();
        // Each document is small (a line a turn): none is dropped for
        // being too soon, so a turn is shown as soon as it is graded.
        let send = move |doc: Value| {
            let _ = progress_tx.try_send(Message::Progress(doc));
        };
        match api::run_review(&game, max_memory, db.as_ref(), flag, Some(&send)) {
            Ok(doc) => Message::Result(doc),
            Err(e) => Message::Error(e.doc()),
        }
    }))
}

/// An event stream fed by `work` on a blocking thread: what it sends
/// (progress) then what it returns (the last event); then what the work
/// freed is given back ([`sweep::allocator::give_back`]). The cancel flag it
/// is given rises when the stream is dropped (the client hung up or
/// pressed Stop).
fn events(
    work: impl FnOnce(&AtomicBool, &mpsc::Sender<Message>) -> Message + Send + 'static,
) -> Response {
    let cancel = Arc::new(AtomicBool::new(false));
    // Progress is dropped rather than queued when the client reads slowly;
    // the result always goes (it waits for room).
    let (tx, rx) = mpsc::channel::<Message>(64);
    let flag = cancel.clone();
    tokio::task::spawn_blocking(move || {
        let last = work(&flag, &tx);
        let _ = tx.blocking_send(last);
        sweep::allocator::give_back();
    });
    // The guard lives in the stream: when axum drops the stream (the
    // client went away), the search is told to stop.
    let guard = CancelOnDrop(cancel);
    let events = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let msg = rx.recv().await?;
        let event = match msg {
            Message::Progress(v) => Event::default().event("progress").data(v.to_string()),
            Message::Result(v) => Event::default().event("result").data(v.to_string()),
            Message::Error(v) => Event::default().event("error").data(v.to_string()),
        };
        Some((Ok::<_, Infallible>(event), (rx, guard)))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(10)))
        .into_response()
}
