//! The local web app of `mancala-sweep serve`: a JSON API under `/api/`
//! and the pages, embedded in the binary so that one file runs anywhere.
//!
//! The API answers with the same JSON documents as the command line
//! ([`format::json`]), so a script can move between the two; the
//! documents only the web has (games, progress events, errors, the
//! puzzle list and checks) carry a `format` of their own and a schema in
//! `schemas/web-*.schema.json`. Every error is `{"format", "error",
//! "field"?}`: one line a person can read, the status that says whose
//! fault it was, and the request field it is about, so a page can show it
//! beside that field. The server reads no file after start: the puzzle
//! collections are given to [`Config`] whole, the atlas and the pages are
//! built into the binary.

mod games;
mod handlers;
mod routes;
mod stream;

use axum::extract::Request;
use axum::http::{header, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use puzzle::Collection;
use rust_embed::RustEmbed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
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
    /// Games held at once; a new game evicts the least recently used one.
    /// The games' agent tables also count against `max_memory` together.
    pub max_games: usize,
    /// Seconds a game may stay unused before it is dropped.
    pub game_idle_seconds: u64,
    /// The pages (`web/`) by path: the binary embeds them and lends them
    /// here, so that a page edited rebuilds the binary's own crate and no
    /// layer under it.
    pub pages: Pages,
    /// Endgame databases read at start (`serve` reads those `game analyze`
    /// keeps in the cache folder), at most one a rule set and board size:
    /// an analysis of their rules reads its own ([`api::endgame_for`])
    /// instead of filling one on demand, and proves far more within its
    /// second. Held for the server's life, shared by every analysis; not
    /// what a solve adds, so not counted by its guard.
    pub endgames: Endgames,
}

/// The endgame databases a server holds: those read at start, joined by
/// the larger ones a build in the background finishes (`serve` starts
/// one), each taking the place of the one of its rules and board. Clones
/// share them, so the front end that builds hands each database to the
/// running server.
#[derive(Clone, Debug, Default)]
pub struct Endgames(std::sync::Arc<std::sync::RwLock<Vec<game::EndgameDb>>>);

impl Endgames {
    /// The databases `dbs`.
    pub fn new(dbs: Vec<game::EndgameDb>) -> Endgames {
        Endgames(std::sync::Arc::new(std::sync::RwLock::new(dbs)))
    }

    /// The databases held now (cheap: each shares its values).
    pub fn list(&self) -> Vec<game::EndgameDb> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The database an analysis of `game` reads within `max_memory`
    /// ([`api::endgame_for`]), if the server holds one.
    pub fn for_game(&self, game: &game::GameState, max_memory: u64) -> Option<game::EndgameDb> {
        api::endgame_for(&self.list(), game, max_memory).cloned()
    }

    /// Holds `db` from now on, in the place of the one of its rules and
    /// board (analyses under way keep the one they took).
    pub fn add(&self, db: game::EndgameDb) {
        let mut dbs = self.0.write().unwrap_or_else(|e| e.into_inner());
        dbs.retain(|d| (d.rules(), d.pits_per_side()) != (db.rules(), db.pits_per_side()));
        dbs.push(db);
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_memory: 1 << 30,
            seconds: 30.0,
            max_solves: 2,
            body_limit: 64 * 1024,
            collections: Vec::new(),
            max_games: 64,
            game_idle_seconds: 3600,
            endgames: Endgames::default(),
            pages: no_pages,
        }
    }
}

/// The collections committed with the crate (`puzzles/*.json`), embedded
/// so that the server needs no file to offer them: the puzzle layer holds
/// them ([`puzzle::committed`]), as the command line needs them too.
pub fn committed_collections() -> Result<Vec<Collection>, String> {
    puzzle::committed()
}

/// Shared by the handlers.
pub(crate) struct State {
    pub(crate) config: Config,
    /// Solves running now, for the 429 limit.
    pub(crate) running: AtomicUsize,
    /// The games in progress.
    pub(crate) games: std::sync::Mutex<games::Games>,
    /// Bytes the running requests say they hold now (each solve its own
    /// count, each analysis its table, each game being built its agent's
    /// tables): with the games' tables, what a solve's memory guard leaves
    /// out (see [`handlers::Share`]).
    pub(crate) declared: AtomicU64,
}

impl State {
    /// Bytes the games' tables and the hints' advisers hold, as declared.
    pub(crate) fn games_bytes(&self) -> u64 {
        self.games.lock().map_or(0, |games| games.bytes())
    }
}

/// A file of the pages by its path (`index.html`, `analyze.js`), if there
/// is one.
pub type Pages = fn(&str) -> Option<std::borrow::Cow<'static, [u8]>>;

/// No pages: a server of the API alone.
pub fn no_pages(_path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    None
}

/// The committed atlas (`docs/atlas/`: `atlas.json` and its heat maps),
/// embedded so that the page shows the tables the repository holds.
#[derive(RustEmbed)]
#[folder = "../../docs/atlas/"]
struct Atlas;

/// The app: API and pages.
pub fn router(config: Config) -> Router {
    let state = Arc::new(State {
        config,
        running: AtomicUsize::new(0),
        games: Default::default(),
        declared: AtomicU64::new(0),
    });
    // Every `/api/` path goes to one dispatcher, which matches it in the
    // API's own table of routes ([`api::ROUTES`]), the one the
    // static site's engine reads too.
    Router::new()
        .route("/api/{*rest}", any(routes::dispatch))
        .route("/atlas/{file}", get(atlas_file))
        .fallback(get(asset))
        .with_state(state)
        .layer(middleware::from_fn(log))
}

/// Serve `router(config)` on `listener` until the process ends, with the
/// allocator set up to give back what finished requests freed
/// ([`sweep::allocator::tune`]).
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    sweep::allocator::tune();
    axum::serve(listener, router(config)).await
}

/// One line per request on stderr, for whoever started the server. A
/// request whose client hangs up before the answer (the page's Stop, a
/// closed tab) has its future dropped here too; the guard still writes its
/// line, with "cancelled" for the status.
async fn log(req: Request, next: Next) -> Response {
    struct LogLine {
        start: Instant,
        method: axum::http::Method,
        uri: String,
        status: Option<u16>,
    }
    impl Drop for LogLine {
        fn drop(&mut self) {
            let status = self
                .status
                .map_or_else(|| "cancelled".to_string(), |s| s.to_string());
            eprintln!(
                "{} {} {status} {:.1} ms",
                self.method,
                self.uri,
                self.start.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
    let mut line = LogLine {
        start: Instant::now(),
        method: req.method().clone(),
        uri: req.uri().path().to_string(),
        status: None,
    };
    let res = next.run(req).await;
    line.status = Some(res.status().as_u16());
    res
}

/// The content type of a file by its name.
fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// The pages; `/` is `index.html`.
async fn asset(
    axum::extract::State(state): axum::extract::State<Arc<State>>,
    uri: Uri,
) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match (state.config.pages)(path) {
        Some(data) => ([(header::CONTENT_TYPE, mime(path))], data.into_owned()).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// `GET /api/atlas`: the committed `docs/atlas/atlas.json` as it is
/// (`mancala-sweep-atlas/1`, the document `atlas --json` writes).
pub(crate) fn atlas() -> Response {
    match Atlas::get("atlas.json") {
        Some(file) => (
            [(header::CONTENT_TYPE, mime("atlas.json"))],
            file.data.into_owned(),
        )
            .into_response(),
        None => stream::ApiError::status(StatusCode::NOT_FOUND.as_u16(), "this build has no atlas")
            .into_response(),
    }
}

/// `GET /atlas/{file}`: the atlas's heat maps (`own-relay-none.svg`, ...).
async fn atlas_file(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    match Atlas::get(&file).filter(|_| file.ends_with(".svg")) {
        Some(f) => ([(header::CONTENT_TYPE, mime(&file))], f.data.into_owned()).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
