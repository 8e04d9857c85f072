//! The web API's one table of routes: every endpoint's method and path,
//! read by both back-ends (`serve`'s axum router and the static site's
//! engine), so that an endpoint is added in one line here and a handler
//! in each back-end, and a path means the same thing to both.

use super::Error;

/// What a request asks for, once its method and path are matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /api/solve`: `solve --json`.
    Solve,
    /// `POST /api/solve/stream`: the same, with progress events.
    SolveStream,
    /// `POST /api/analyze`: `game analyze --json`.
    Analyze,
    /// `POST /api/analyze/stream`: the same, with progress events.
    AnalyzeStream,
    /// `POST /api/replay`: `replay --json`.
    Replay,
    /// `POST /api/review`: `game review --json` of the turns sent.
    Review,
    /// `POST /api/review/stream`: the same, with the review so far after
    /// every position settled.
    ReviewStream,
    /// `POST /api/find`: `find --json`.
    Find,
    /// `POST /api/board`: a board text read and checked.
    Board,
    /// `GET /api/limits`: the bounds of a board.
    Limits,
    /// `GET /api/atlas`: the committed atlas.
    Atlas,
    /// `GET /api/puzzles`: the puzzle collections.
    Puzzles,
    /// `GET /api/puzzles/{collection}/{id}`: one puzzle.
    Puzzle,
    /// `POST /api/puzzles/{collection}/{id}/check`: picks played in a puzzle.
    PuzzleCheck,
    /// `POST /api/game/new`: a game against the computer.
    GameNew,
    /// `GET /api/game/{id}`: the game now.
    Game,
    /// `DELETE /api/game/{id}`: the game forgotten.
    GameDelete,
    /// `POST /api/game/{id}/pick`: the person's pick.
    GamePick,
    /// `POST /api/game/{id}/reply`: the computer's turn.
    GameReply,
    /// `POST /api/game/{id}/hint`: the engine's pick for the person.
    GameHint,
    /// `POST /api/game/{id}/undo`: a turn taken back.
    GameUndo,
}

/// Every endpoint: its method, its path (a `{name}` segment is a
/// parameter), and what it asks for. The first row that matches a
/// request answers it (`/api/game/new` before `/api/game/{id}`).
pub const ROUTES: &[(&str, &str, Endpoint)] = &[
    ("POST", "/api/solve", Endpoint::Solve),
    ("POST", "/api/solve/stream", Endpoint::SolveStream),
    ("POST", "/api/analyze", Endpoint::Analyze),
    ("POST", "/api/analyze/stream", Endpoint::AnalyzeStream),
    ("POST", "/api/replay", Endpoint::Replay),
    ("POST", "/api/review", Endpoint::Review),
    ("POST", "/api/review/stream", Endpoint::ReviewStream),
    ("POST", "/api/find", Endpoint::Find),
    ("POST", "/api/board", Endpoint::Board),
    ("GET", "/api/limits", Endpoint::Limits),
    ("GET", "/api/puzzles", Endpoint::Puzzles),
    ("GET", "/api/puzzles/{collection}/{id}", Endpoint::Puzzle),
    (
        "POST",
        "/api/puzzles/{collection}/{id}/check",
        Endpoint::PuzzleCheck,
    ),
    ("GET", "/api/atlas", Endpoint::Atlas),
    ("POST", "/api/game/new", Endpoint::GameNew),
    ("GET", "/api/game/{id}", Endpoint::Game),
    ("DELETE", "/api/game/{id}", Endpoint::GameDelete),
    ("POST", "/api/game/{id}/pick", Endpoint::GamePick),
    ("POST", "/api/game/{id}/reply", Endpoint::GameReply),
    ("POST", "/api/game/{id}/hint", Endpoint::GameHint),
    ("POST", "/api/game/{id}/undo", Endpoint::GameUndo),
];

/// A request matched to its endpoint, with the path's parameters in the
/// order the path names them, percent-decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// What the request asks for.
    pub endpoint: Endpoint,
    /// The path's parameters (`{collection}`, `{id}`), decoded.
    pub params: Vec<String>,
}

impl Route {
    /// The `i`th parameter of the path ("" when there is none).
    pub fn param(&self, i: usize) -> &str {
        self.params.get(i).map_or("", String::as_str)
    }
}

/// The route of `method` and `path` (its query, if any, left aside): 404
/// listing every endpoint when no path matches, 405 naming the methods
/// the path takes when only the method is wrong.
pub fn route(method: &str, path: &str) -> Result<Route, Error> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let mut methods: Vec<&str> = Vec::new();
    for &(m, pattern, endpoint) in ROUTES {
        let Some(params) = matches(pattern, path) else {
            continue;
        };
        if m == method {
            return Ok(Route { endpoint, params });
        }
        methods.push(m);
    }
    if methods.is_empty() {
        Err(no_such_endpoint(method, path))
    } else {
        Err(Error::status(
            405,
            format!("{path} takes {}, not {method}", methods.join(" or ")),
        ))
    }
}

/// The parameters of `path` when it fits `pattern`.
fn matches(pattern: &str, path: &str) -> Option<Vec<String>> {
    let mut want = pattern.split('/');
    let mut got = path.split('/');
    let mut params = Vec::new();
    loop {
        match (want.next(), got.next()) {
            (None, None) => return Some(params),
            (Some(w), Some(g)) if w.starts_with('{') && !g.is_empty() => params.push(decode(g)),
            (Some(w), Some(g)) if w == g => {}
            _ => return None,
        }
    }
}

/// A path segment with its `%XX` escapes decoded (the pages escape a
/// collection's name and a puzzle's id with `encodeURIComponent`).
fn decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The 404 of a path no endpoint has, listing those there are.
fn no_such_endpoint(method: &str, path: &str) -> Error {
    let all: Vec<String> = ROUTES.iter().map(|(m, p, _)| format!("{m} {p}")).collect();
    Error::status(
        404,
        format!(
            "no such endpoint {method} {path}; there are {}",
            all.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_finds_its_endpoint_and_parameters() {
        let r = route("POST", "/api/puzzles/own%2Drelay/p%201/check").unwrap();
        assert_eq!(r.endpoint, Endpoint::PuzzleCheck);
        assert_eq!(r.params, ["own-relay", "p 1"]);
        assert_eq!(
            route("POST", "/api/game/new").unwrap().endpoint,
            Endpoint::GameNew
        );
        let r = route("DELETE", "/api/game/g7").unwrap();
        assert_eq!((r.endpoint, r.param(0)), (Endpoint::GameDelete, "g7"));
        assert_eq!(
            route("GET", "/api/limits?x=1").unwrap().endpoint,
            Endpoint::Limits
        );
        assert_eq!(route("GET", "/api/solve").unwrap_err().status, 405);
        let e = route("GET", "/api/nothing").unwrap_err();
        assert_eq!(e.status, 404);
        assert!(e.message.contains("POST /api/board"), "{}", e.message);
        assert_eq!(route("GET", "/api/game/").unwrap_err().status, 404);
        assert_eq!(route("", "").unwrap_err().status, 404);
    }
}
