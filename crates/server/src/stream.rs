//! How an answer goes out: the API's error as axum sends it, work run off
//! the async threads with a cancel flag the request's end raises, and a
//! long answer whole or as it goes: `POST /api/solve`,
//! `/api/analyze` and `/api/review` and their `…/stream` twins, the latter
//! as server-sent events, so that a page can show a big board's search
//! moving (and offer Stop) instead of a blank wait.
//!
//! The events come from the search's own progress hook
//! ([`sweep::SweepOptions::progress`], the one that draws the
//! command line's bar): one `progress` event per store bucket, then one
//! `result` event with the same JSON as `/api/solve`, or one `error`
//! event with the error document. The search holds a `--max-solves`
//! slot and stops when the stream is dropped (the client hung up or
//! pressed Stop) or its time runs out.

use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// An API error as axum sends it: the API's own error (a status, one line,
/// and the request field it is about), which knows nothing of axum, wrapped
/// here so that a handler can answer with it.
#[derive(Debug)]
pub struct ApiError(pub api::Error);

impl ApiError {
    /// An error with this status and line.
    pub fn status(status: u16, msg: impl Into<String>) -> ApiError {
        ApiError(api::Error::status(status, msg))
    }
}

impl From<api::Error> for ApiError {
    fn from(e: api::Error) -> ApiError {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(self.0.doc())).into_response()
    }
}

pub(crate) type ApiResult = Result<Response, ApiError>;

/// Raises the search's cancel flag when the request goes away (the page
/// closed, the client hung up): axum drops the handler's future then.
pub(crate) struct CancelOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Run `work` on a blocking thread with a cancel flag that the request's
/// end raises; then, on that thread, give back what it freed if the
/// process grew ([`sweep::allocator::give_back`]).
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let flag = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(flag.clone());
    tokio::task::spawn_blocking(move || {
        let out = work(&flag);
        sweep::allocator::give_back();
        out
    })
    .await
    .map_err(|e| ApiError::status(500, format!("the search failed: {e}")))
}

/// What the search thread sends to the stream.
enum Message {
    Progress(Value),
    Result(Value),
    Error(Value),
}

/// How a long answer goes out: whole when it is done (`/api/solve`,
/// `/api/analyze`, `/api/review`), or as a stream (`…/stream`): a
/// `progress` event a step, then a `result` event with the same document
/// as the whole answer, or an `error` event with the error document. One
/// handler an endpoint serves both, so that the checks, the `--max-solves`
/// slot and the memory share are written once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// The document when it is done.
    Whole,
    /// Server-sent events while it runs; bad input is still refused before
    /// the stream starts, with the usual JSON error and status.
    Stream,
}

/// Where a piece of work sends its progress documents: nowhere for a whole
/// answer, the stream otherwise (dropped rather than queued when the client
/// reads slowly).
pub(crate) type Progress<'a> = Option<&'a (dyn Fn(Value) + Sync)>;

/// Run `work` off the async threads with a cancel flag that the request's
/// end raises (the client hung up or pressed Stop), and answer with its
/// document as `delivery` says.
pub(crate) async fn deliver(
    delivery: Delivery,
    work: impl FnOnce(&AtomicBool, Progress) -> Result<Value, api::Error> + Send + 'static,
) -> ApiResult {
    match delivery {
        Delivery::Whole => {
            let doc = blocking(move |cancel| work(cancel, None)).await??;
            Ok(Json(doc).into_response())
        }
        Delivery::Stream => Ok(events(move |flag, tx| {
            let progress_tx = tx.clone();
            let send = move |doc: Value| {
                let _ = progress_tx.try_send(Message::Progress(doc));
            };
            match work(flag, Some(&send)) {
                Ok(doc) => Message::Result(doc),
                Err(e) => Message::Error(e.doc()),
            }
        })),
    }
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
