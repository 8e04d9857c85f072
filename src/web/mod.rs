//! The local web app of `mancala-sweep serve`: a JSON API under `/api/`
//! and the pages, embedded in the binary so that one file runs anywhere.
//!
//! The API answers with the same JSON documents as the command line
//! ([`crate::format::json`]), so a script can move between the two. Every
//! error is `{"error": "..."}`, one line a person can read, with the
//! status that says whose fault it was. The server reads no file after
//! start: the puzzle collections are given to [`Config`] whole.

mod api;

use crate::puzzle::Collection;
use axum::extract::Request;
use axum::http::{header, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use rust_embed::RustEmbed;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Instant;

/// What the server was started with; nothing a request says can widen it.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bytes one solve may hold before it stops with 503.
    pub max_memory: u64,
    /// Seconds one solve may run before it stops, answered incomplete.
    pub seconds: f64,
    /// Solves at once; one more is refused with 429 rather than queued,
    /// so that a busy page says so at once.
    pub max_solves: usize,
    /// Largest request body in bytes (413 above it).
    pub body_limit: usize,
    /// Puzzle collections, read at start.
    pub collections: Vec<Collection>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_memory: 1 << 30,
            seconds: 30.0,
            max_solves: 2,
            body_limit: 64 * 1024,
            collections: Vec::new(),
        }
    }
}

/// The collections committed with the crate (`puzzles/*.json`), embedded
/// so that the server needs no file to offer them.
pub fn committed_collections() -> Result<Vec<Collection>, String> {
    [
        include_str!("../../puzzles/avalanche.json"),
        include_str!("../../puzzles/any-hole.json"),
    ]
    .iter()
    .map(|text| crate::puzzle::parse(text))
    .collect()
}

/// Shared by the handlers.
pub(crate) struct State {
    pub(crate) config: Config,
    /// Solves running now, for the 429 limit.
    pub(crate) running: AtomicUsize,
}

#[derive(RustEmbed)]
#[folder = "web/"]
struct Assets;

/// The app: API and pages.
pub fn router(config: Config) -> Router {
    let state = Arc::new(State {
        config,
        running: AtomicUsize::new(0),
    });
    Router::new()
        .route("/api/solve", post(api::solve))
        .route("/api/replay", post(api::replay))
        .route("/api/find", post(api::find))
        .route("/api/puzzles", get(api::puzzles))
        .route("/api/puzzles/{collection}/{id}", get(api::puzzle))
        .route("/api/puzzles/{collection}/{id}/check", post(api::check))
        .route("/api/{*rest}", axum::routing::any(api::no_such_endpoint))
        .fallback(get(asset))
        .with_state(state)
        .layer(middleware::from_fn(log))
}

/// Serve `router(config)` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    axum::serve(listener, router(config)).await
}

/// One line per request on stderr, for whoever started the server.
async fn log(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let uri = req.uri().path().to_string();
    let res = next.run(req).await;
    eprintln!(
        "{method} {uri} {} {:.1} ms",
        res.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    res
}

/// The embedded pages; `/` is `index.html`.
async fn asset(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match Assets::get(path) {
        Some(file) => {
            let mime = match path.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("png") => "image/png",
                Some("svg") => "image/svg+xml",
                _ => "application/octet-stream",
            };
            ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
