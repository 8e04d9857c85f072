//! The one `/api/` handler of `serve`: the request's endpoint found in
//! the API's table of routes ([`api::ROUTES`], which the static
//! site's engine reads too), then its handler.

use super::games;
use super::handlers::{self, Shared_};
use super::stream::Delivery::{Stream, Whole};
use api::Endpoint;
use axum::body::Body;
use axum::extract::Path;
use axum::http::{Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Every `/api/` request: its endpoint found in the API's table of routes
/// ([`api::route`]), then its handler.
pub(crate) async fn dispatch(state: Shared_, method: Method, uri: Uri, body: Body) -> Response {
    let route = match api::route(method.as_str(), uri.path()) {
        Ok(route) => route,
        Err(e) => return super::stream::ApiError(e).into_response(),
    };
    let id = || Path(route.param(0).to_string());
    let pair = || Path((route.param(0).to_string(), route.param(1).to_string()));
    let answer = match route.endpoint {
        Endpoint::Solve => handlers::solve(state, body, Whole).await,
        Endpoint::SolveStream => handlers::solve(state, body, Stream).await,
        Endpoint::Analyze => handlers::analyze(state, body, Whole).await,
        Endpoint::AnalyzeStream => handlers::analyze(state, body, Stream).await,
        Endpoint::Replay => handlers::replay(state, body).await,
        Endpoint::Review => handlers::review(state, body, Whole).await,
        Endpoint::ReviewStream => handlers::review(state, body, Stream).await,
        Endpoint::Find => handlers::find(state, body).await,
        Endpoint::Board => handlers::board(state, body).await,
        Endpoint::Limits => Ok(Json(limits(&state.0.config)).into_response()),
        Endpoint::Atlas => Ok(super::atlas()),
        Endpoint::Puzzles => handlers::puzzles(state).await,
        Endpoint::Puzzle => handlers::puzzle(state, pair()).await,
        Endpoint::PuzzleCheck => handlers::check(state, pair(), body).await,
        Endpoint::GameNew => games::new_game(state, body).await,
        Endpoint::Game => games::get_game(state, id()).await,
        Endpoint::GameDelete => games::delete(state, id()).await,
        Endpoint::GamePick => games::pick(state, id(), body).await,
        Endpoint::GameReply => games::reply(state, id()).await,
        Endpoint::GameHint => games::hint(state, id()).await,
        Endpoint::GameUndo => games::undo(state, id()).await,
    };
    answer.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /api/limits` as `serve` answers it: the engine's bounds and
/// vocabulary, the memory a search may hold (`--max-memory`), and in
/// `endgames` the endgame databases it holds now, so that the pages can
/// say when a board has none (`serve` builds the GamePigeon boards' in
/// the background).
fn limits(config: &super::Config) -> serde_json::Value {
    let mut doc = api::limits(config.max_memory);
    doc["endgames"] = config
        .endgames
        .list()
        .iter()
        .map(|db| {
            serde_json::json!({
                "rules": format::json::preset_name(db.rules()),
                "pits_per_side": db.pits_per_side(),
                "stones": db.stones(),
            })
        })
        .collect();
    doc
}
