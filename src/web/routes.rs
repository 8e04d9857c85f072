//! The one `/api/` handler of `serve`: the request's endpoint found in
//! the API's table of routes ([`crate::api::ROUTES`], which the static
//! site's engine reads too), then its handler.

use super::api::{self, Shared_};
use super::{game, stream};
use crate::api::Endpoint;
use axum::body::Body;
use axum::extract::Path;
use axum::http::{Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Every `/api/` request: its endpoint found in the API's table of routes
/// ([`crate::api::route`]), then its handler.
pub(crate) async fn dispatch(state: Shared_, method: Method, uri: Uri, body: Body) -> Response {
    let route = match crate::api::route(method.as_str(), uri.path()) {
        Ok(route) => route,
        Err(e) => return e.into_response(),
    };
    let id = || Path(route.param(0).to_string());
    let pair = || Path((route.param(0).to_string(), route.param(1).to_string()));
    let answer = match route.endpoint {
        Endpoint::Solve => api::solve(state, body).await,
        Endpoint::SolveStream => stream::solve_stream(state, body).await,
        Endpoint::Analyze => api::analyze(state, body).await,
        Endpoint::AnalyzeStream => stream::analyze_stream(state, body).await,
        Endpoint::Replay => api::replay(state, body).await,
        Endpoint::Review => api::review(state, body).await,
        Endpoint::ReviewStream => stream::review_stream(state, body).await,
        Endpoint::Find => api::find(state, body).await,
        Endpoint::Board => api::board(state, body).await,
        Endpoint::Limits => Ok(Json(limits(&state.0.config)).into_response()),
        Endpoint::Atlas => Ok(super::atlas()),
        Endpoint::Puzzles => api::puzzles(state).await,
        Endpoint::Puzzle => api::puzzle(state, pair()).await,
        Endpoint::PuzzleCheck => api::check(state, pair(), body).await,
        Endpoint::GameNew => game::new_game(state, body).await,
        Endpoint::Game => game::get_game(state, id()).await,
        Endpoint::GameDelete => game::delete(state, id()).await,
        Endpoint::GamePick => game::pick(state, id(), body).await,
        Endpoint::GameReply => game::reply(state, id()).await,
        Endpoint::GameHint => game::hint(state, id()).await,
        Endpoint::GameUndo => game::undo(state, id()).await,
    };
    answer.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /api/limits` as `serve` answers it: the engine's bounds and
/// vocabulary, the memory a search may hold (`--max-memory`), and in
/// `endgames` the endgame databases it holds now, so that the pages can
/// say when a board has none (`serve` builds the GamePigeon boards' in
/// the background).
fn limits(config: &super::Config) -> serde_json::Value {
    let mut doc = crate::api::limits(config.max_memory);
    doc["endgames"] = config
        .endgames
        .list()
        .iter()
        .map(|db| {
            serde_json::json!({
                "rules": crate::format::json::preset_name(db.rules()),
                "pits_per_side": db.pits_per_side(),
                "stones": db.stones(),
            })
        })
        .collect();
    doc
}
