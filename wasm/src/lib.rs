//! The engine of the static site: the web API of `mancala-sweep serve`,
//! answered inside the browser by the library compiled to WebAssembly.
//!
//! The pages talk to it as they talk to the server: a method, a path and a
//! JSON body in; a status and a JSON document out, built by the same code
//! ([`mancala_sweep::api`]). `web/engine.js` runs it in a Web Worker, so a
//! search never freezes the page, and Stop ends the worker (and the games
//! it held; the puzzle collections are read again on the next start).
//!
//! The boundary is a few plain exports rather than wasm-bindgen: the
//! request and the answer are text, and the module needs nothing from the
//! host but the clock and a way to send progress, so it loads with
//! `WebAssembly.instantiate` and the site needs no build tool beyond
//! `cargo` (docs/site.md says what this saves).
//!
//! - `alloc(len) -> ptr`: room for a request of `len` bytes.
//! - `call(ptr, len) -> len`: answer the request at `ptr` (freeing it),
//!   `"METHOD /path\n"` then the body; the answer, `"STATUS\n"` then the
//!   JSON document, is at `answer()` until the next call.
//! - imports `mancala_sweep.now_ms() -> f64` (the clock) and
//!   `mancala_sweep.event(ptr, len)`: one event, its kind and a newline
//!   then its JSON: `progress` while a `/stream` request runs, `endgame`
//!   while a database is built.
//! - `wanted() -> len`, `endgame_build(ptr, len) -> len` and
//!   `endgame_load(ptr, len) -> len`: the endgame database (see
//!   [`endgame`]): which one an analysis asked for, building it, taking it.
//!   Its bytes stay in the host: imports `mancala_sweep.input(ptr, len)
//!   -> len` (the next bytes of the database being read, 0 at its end)
//!   and `mancala_sweep.output(ptr, len)` (the next bytes of the file
//!   being written).

use mancala_sweep::api::games::{
    computer_moves, computer_reply, game_error, game_json, hint_analysis, hint_json, NewGame,
    PickRequest,
};
use mancala_sweep::api::{
    self, AnalyzeRequest, BoardRequest, CheckRequest, Endpoint, FindRequest, ReplayRequest,
    ReviewRequest, SolveHost,
};
use mancala_sweep::game::{analyze_on, Analysis, GameSession, Level, Solver};
use mancala_sweep::puzzle::Collection;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

pub mod endgame;

/// Seconds a request may ask for: a phone player waits a minute at most,
/// and Stop ends any wait sooner.
pub const BUDGET_SECONDS: f64 = 60.0;

mod cap;
pub use cap::MAX_MEMORY;

/// Memory the module keeps beside its searches and databases for itself:
/// its data and stack, the buffers requests and answers pass through, the
/// allocator's own.
const MODULE_ROOM: u64 = 16 << 20;

/// The most the module gives its work (searches, tables, databases,
/// games, a build): [`MAX_MEMORY`] less [`MODULE_ROOM`].
pub(crate) const WORK_MEMORY: u64 = MAX_MEMORY - MODULE_ROOM;

/// The allocator counts what the module holds, which [`room`] and the
/// one-turn search's memory guard read.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: mancala_sweep::sweep::memory::Counting = mancala_sweep::sweep::memory::Counting;

/// Bytes the module may still take for a search: [`WORK_MEMORY`] less
/// what it holds now (the databases, the games, the kept solver), as its
/// allocator counts them. A phone's browser gives a
/// tab a few hundred megabytes; a search that would pass this stops with
/// a plain message, and the cap stops what the guards misjudge.
pub(crate) fn room() -> u64 {
    WORK_MEMORY.saturating_sub(mancala_sweep::sweep::memory::live_bytes())
}

/// The memory to give a game-tree search handed the database `db`: the
/// [`room`] left, and the database itself, which the search's options
/// count beside its table though the module holds it already.
pub(crate) fn share(db: Option<&mancala_sweep::game::EndgameDb>) -> u64 {
    room() + db.map_or(0, |d| d.bytes())
}

/// Largest request body, as `serve`'s default.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The committed puzzle collections, read once.
fn collections() -> Result<&'static [Collection], api::Error> {
    static COLLECTIONS: OnceLock<Result<Vec<Collection>, String>> = OnceLock::new();
    COLLECTIONS
        .get_or_init(mancala_sweep::puzzle::committed)
        .as_deref()
        .map_err(|e| api::Error::status(500, e.clone()))
}

/// The memory a new game's computer may hold: half the [`room`] left,
/// because a hint builds an agent of the same size beside the computer's.
fn game_memory() -> u64 {
    room() / 2
}

/// `memory`, a game's share, in the words of a game refused for it.
fn game_memory_words(memory: u64) -> String {
    format!(
        "the {} MiB a game may hold on this page now (half of what its engine's {} MiB leave, keeping room for a hint); the command line or `serve` can go further",
        memory >> 20,
        MAX_MEMORY >> 20
    )
}

/// Answer one request: (status, document). `event` hears the progress of
/// a `/stream` request.
pub fn answer(
    method: &str,
    path: &str,
    body: &[u8],
    event: &(dyn Fn(&Value) + Sync),
) -> (u16, Value) {
    match route(method, path, body, event) {
        // A game deleted: no document, as `serve` answers.
        Ok(Value::Null) => (204, json!({})),
        Ok(doc) => (200, doc),
        Err(e) => (e.status, e.doc()),
    }
}

/// One request, matched in the API's table of routes
/// ([`api::route`], the one `serve` reads too), then answered.
fn route(
    method: &str,
    path: &str,
    body: &[u8],
    event: &(dyn Fn(&Value) + Sync),
) -> Result<Value, api::Error> {
    let never = AtomicBool::new(false);
    let route = api::route(method, path)?;
    match route.endpoint {
        Endpoint::Solve | Endpoint::SolveStream => {
            let req: api::SolveRequest = api::parse(body, BODY_LIMIT)?;
            let (rules, board, limit) = req.check()?;
            let send = |doc: Value| event(&doc);
            // The analysis's table goes; the search's guard counts
            // everything else the module holds.
            forget_solver();
            let host = SolveHost {
                threads: 1,
                max_memory: WORK_MEMORY,
                seconds: BUDGET_SECONDS * 5.0,
                events: (route.endpoint == Endpoint::SolveStream)
                    .then_some(&send as &(dyn Fn(Value) + Sync)),
                ..Default::default()
            };
            api::run_solve(rules, &board, limit, &host)
        }
        Endpoint::Analyze | Endpoint::AnalyzeStream => {
            analyze(body, route.endpoint == Endpoint::AnalyzeStream, event)
        }
        Endpoint::Replay => api::replay(&api::parse::<ReplayRequest>(body, BODY_LIMIT)?),
        Endpoint::Review | Endpoint::ReviewStream => {
            review(body, route.endpoint == Endpoint::ReviewStream, event)
        }
        Endpoint::Find => {
            let req: FindRequest = api::parse(body, BODY_LIMIT)?;
            let (rules, board, opts) = req.check(BUDGET_SECONDS)?;
            api::find(&board, rules, &opts, 1)
        }
        Endpoint::Board => api::board(&api::parse::<BoardRequest>(body, BODY_LIMIT)?),
        Endpoint::Limits => Ok(api::limits(MAX_MEMORY)),
        // The site's atlas is a file of the site (`atlas/atlas.json`),
        // which the page reads itself.
        Endpoint::Atlas => Err(api::Error::status(
            404,
            "the engine has no atlas: the site's is its file atlas/atlas.json",
        )),
        Endpoint::Puzzles => Ok(api::puzzles(collections()?)),
        Endpoint::Puzzle => {
            let (c, p) = api::lookup(collections()?, route.param(0), route.param(1))?;
            Ok(api::puzzle(c, p))
        }
        Endpoint::PuzzleCheck => {
            let req: CheckRequest = api::parse(body, BODY_LIMIT)?;
            let (c, p) = api::lookup(collections()?, route.param(0), route.param(1))?;
            api::check(c, p, &req, 10.0, &never)
        }
        Endpoint::GameNew => new_game(body),
        Endpoint::Game
        | Endpoint::GameDelete
        | Endpoint::GamePick
        | Endpoint::GameReply
        | Endpoint::GameHint
        | Endpoint::GameUndo => game(route.endpoint, route.param(0), body),
    }
}

/// `POST /api/game/new`: a game kept in this engine's memory.
fn new_game(body: &[u8]) -> Result<Value, api::Error> {
    let never = AtomicBool::new(false);
    let req: NewGame = api::parse(body, BODY_LIMIT)?;
    // The analysis's table goes, so that the game's computer and its
    // hints have its room beside the endgame database.
    forget_solver();
    // Older games make room when this one does not fit beside them: a
    // page makes a game it still shows again from the position it kept.
    let g = loop {
        let memory = game_memory();
        match req.check(memory, &game_memory_words(memory)) {
            Err(e) if e.status == 503 && GAMES.with(|g| g.borrow_mut().drop_oldest()) => {}
            checked => break checked?,
        }
    };
    let mut session = GameSession::within(
        g.start,
        g.person,
        g.spec,
        g.seed,
        endgame::for_game(&g.start),
        g.memory_cap,
    )
    .map_err(|e| game_error(e, BUDGET_SECONDS))?;
    let mut played = Vec::new();
    computer_moves(&mut session, &never, BUDGET_SECONDS, &mut played)?;
    GAMES.with(|games| {
        let mut games = games.borrow_mut();
        let id = games.add(session, g.level);
        let (s, level) = &games.map[&id];
        Ok(game_json(&id, *level, s, &played, None))
    })
}

/// A request about the game `id` (`/api/game/{id}` and what follows it),
/// on the games this engine holds.
fn game(endpoint: Endpoint, id: &str, body: &[u8]) -> Result<Value, api::Error> {
    let never = AtomicBool::new(false);
    GAMES.with(|games| {
        let mut games = games.borrow_mut();
        if endpoint == Endpoint::GameDelete {
            games.remove(id)?;
            return Ok(Value::Null);
        }
        let (s, level) = games.find(id)?;
        let level = *level;
        match endpoint {
            Endpoint::GamePick => {
                let req: PickRequest = api::parse(body, BODY_LIMIT)?;
                let mine = s.pick(req.pit).map_err(|e| game_error(e, BUDGET_SECONDS))?;
                let mut played = vec![mine];
                if req.reply {
                    computer_moves(s, &never, BUDGET_SECONDS, &mut played)?;
                }
                Ok(game_json(id, level, s, &played, None))
            }
            Endpoint::GameReply => {
                let played = computer_reply(s, &never, BUDGET_SECONDS)?;
                Ok(game_json(id, level, s, &played, None))
            }
            Endpoint::GameHint => {
                let a = hint_analysis(s, share(s.endgame()), &never)
                    .map_err(|e| game_error(e, BUDGET_SECONDS))?;
                Ok(hint_json(id, level, s, a.as_ref()))
            }
            Endpoint::GameUndo => {
                let undone = s.undo();
                let mut doc = game_json(id, level, s, &[], None);
                doc["undone"] = json!(undone);
                Ok(doc)
            }
            _ => Ok(game_json(id, level, s, &[], None)),
        }
    })
}

/// An analysis (`/api/analyze`, streamed when `streaming`), on the solver
/// of the last one when it takes the position, else on a fresh one with
/// the endgame database of its rules when the engine holds it (else
/// asking for it, see [`endgame`]).
fn analyze(
    body: &[u8],
    streaming: bool,
    event: &(dyn Fn(&Value) + Sync),
) -> Result<Value, api::Error> {
    let never = AtomicBool::new(false);
    let req: AnalyzeRequest = api::parse(body, BODY_LIMIT)?;
    let (game, budget) = req.check(BUDGET_SECONDS)?;
    let gate = api::ProgressGate::default();
    let report = |a: &Analysis| {
        if streaming && gate.due() {
            event(&api::analysis_doc(&game, a));
        }
    };
    SOLVER.with(|kept| {
        let mut kept = kept.borrow_mut();
        // The solver of the last analysis, when it can take this
        // position (a game goes on): its table and endgame database are
        // filled, so the budget goes to the search. A database handed
        // to the engine since drops it ([`forget_solver`]).
        if !kept.as_ref().is_some_and(|s| s.takes(&game)) {
            *kept = None;
            let (rules, n) = (game.rules(), game.pits_per_side());
            // Asked for even with one held: a larger one may come.
            endgame::want(&game);
            let db = endgame::for_game(&game);
            let opts = api::analysis_options(&game, share(db.as_ref()));
            let solver = Solver::builder()
                .options(opts)
                .endgame(db.as_ref())
                .build(rules, n)
                .map_err(|e| api::Error::bad(e.to_string()))?;
            *kept = Some(solver.expect("never stopped"));
        }
        let solver = kept.as_mut().expect("kept above");
        let a = analyze_on(solver, &game, budget, &never, Some(&report))
            .map_err(|e| api::Error::bad(e.to_string()))?;
        Ok(api::analysis_doc(&game, &a))
    })
}

/// A review (`/api/review`, streamed when `streaming`: the review so far
/// after every position settled), with the endgame database of its rules
/// when the engine holds it (else asking for it, as an analysis does).
/// The page goes position by position through the stream; Stop ends the
/// worker, and the page keeps the last review it was sent.
fn review(
    body: &[u8],
    streaming: bool,
    event: &(dyn Fn(&Value) + Sync),
) -> Result<Value, api::Error> {
    let never = AtomicBool::new(false);
    let req: ReviewRequest = api::parse(body, BODY_LIMIT)?;
    let game = req.check(BUDGET_SECONDS)?;
    // The review builds a solver of its own: the analysis's kept one goes
    // first, so that the two tables are never held at once.
    forget_solver();
    let db = endgame::for_game(&game.start);
    endgame::want(&game.start);
    let send = |doc: Value| event(&doc);
    let report = streaming.then_some(&send as &(dyn Fn(Value) + Sync));
    api::run_review(&game, share(db.as_ref()), db.as_ref(), &never, report)
}

/// Drops the solver kept from the last analysis: the next one starts a
/// fresh solver (with a database just handed to the engine), and its
/// table's room goes to the work at hand.
pub fn forget_solver() {
    SOLVER.with(|kept| *kept.borrow_mut() = None);
}

/// Games held at once; a new one drops the oldest.
const MAX_GAMES: usize = 8;

/// The games of this page, in the worker's memory: Stop ends the worker
/// and the games with it (the page starts a new one).
#[derive(Default)]
struct Games {
    map: std::collections::HashMap<String, (GameSession, Option<Level>)>,
    /// Ids given so far, oldest first.
    order: std::collections::VecDeque<String>,
    next: u64,
}

impl Games {
    /// Keep `session`; its id.
    fn add(&mut self, session: GameSession, level: Option<Level>) -> String {
        while self.map.len() >= MAX_GAMES && self.drop_oldest() {}
        self.next += 1;
        let id = format!("g{}", self.next);
        self.order.push_back(id.clone());
        self.map.insert(id.clone(), (session, level));
        id
    }

    /// Drops the oldest game; false when there is none.
    fn drop_oldest(&mut self) -> bool {
        match self.order.pop_front() {
            Some(old) => {
                self.map.remove(&old);
                true
            }
            None => false,
        }
    }

    /// Drops the game `id`, from the order of games too.
    fn remove(&mut self, id: &str) -> Result<(), api::Error> {
        self.find(id)?;
        self.map.remove(id);
        self.order.retain(|g| g != id);
        Ok(())
    }

    fn find(&mut self, id: &str) -> Result<&mut (GameSession, Option<Level>), api::Error> {
        self.map.get_mut(id).ok_or_else(|| {
            api::Error::status(
                404,
                format!("no game {id:?}: this page's engine was restarted (Stop ends it) or the game made room for newer ones; start a new one"),
            )
        })
    }
}

thread_local! {
    static GAMES: std::cell::RefCell<Games> = std::cell::RefCell::new(Games::default());
    /// The solver of the last analysis, kept for the next one.
    static SOLVER: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
}

/// Answer a request in the boundary's text form: `"METHOD /path\n"` and
/// the body in; `"STATUS\n"` and the document out.
pub fn answer_text(request: &[u8], event: &(dyn Fn(&Value) + Sync)) -> String {
    let cut = request
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(request.len());
    let head = String::from_utf8_lossy(&request[..cut]);
    let body = request.get(cut + 1..).unwrap_or(&[]);
    let mut words = head.split_whitespace();
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let (status, doc) = answer(method, path, body, event);
    format!("{status}\n{doc}")
}

#[cfg(target_arch = "wasm32")]
mod boundary {
    use std::cell::RefCell;

    #[link(wasm_import_module = "mancala_sweep")]
    extern "C" {
        /// One progress event: `"progress\n"` then its JSON.
        fn event(ptr: *const u8, len: usize);
        /// Writes up to `len` next bytes of the database being read at
        /// `ptr`; how many (0: its end).
        fn input(ptr: *mut u8, len: usize) -> usize;
        /// The next `len` bytes, at `ptr`, of the file being written.
        fn output(ptr: *const u8, len: usize);
    }

    /// The database the host hands over, read through `input`.
    struct HostReader;

    impl std::io::Read for HostReader {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            // SAFETY: the host writes at most `buf.len()` bytes into
            // `buf`, which lives until this returns.
            Ok(unsafe { input(buf.as_mut_ptr(), buf.len()) })
        }
    }

    /// The host's bytes a megabyte at a time.
    fn host_bytes() -> std::io::BufReader<HostReader> {
        std::io::BufReader::with_capacity(1 << 20, HostReader)
    }

    thread_local! {
        /// The last answer, read by the host through `answer()`.
        static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    /// Keeps `out` as the answer; its length.
    fn keep(out: Vec<u8>) -> usize {
        let len = out.len();
        ANSWER.with(|a| *a.borrow_mut() = out);
        len
    }

    /// Sends one event to the host: its kind, a newline, its JSON.
    fn send(kind: &str, doc: &serde_json::Value) {
        let text = format!("{kind}\n{doc}");
        // SAFETY: the host reads `text.len()` bytes at its pointer before
        // this returns, and `text` lives until then.
        unsafe { event(text.as_ptr(), text.len()) }
    }

    /// Room for a request of `len` bytes, for the host to write into.
    #[no_mangle]
    pub extern "C" fn alloc(len: usize) -> *mut u8 {
        let mut v = Vec::<u8>::with_capacity(len);
        let ptr = v.as_mut_ptr();
        std::mem::forget(v);
        ptr
    }

    /// Answer the request of `len` bytes at `ptr` (from `alloc`, which it
    /// frees); the answer's length. Its bytes are at `answer()`.
    ///
    /// # Safety
    /// `ptr` comes from `alloc(len)` and holds `len` bytes written by the host.
    #[no_mangle]
    pub unsafe extern "C" fn call(ptr: *mut u8, len: usize) -> usize {
        // SAFETY: the host wrote `len` bytes into the buffer `alloc(len)` gave.
        let request = unsafe { Vec::from_raw_parts(ptr, len, len) };
        keep(super::answer_text(&request, &|doc| send("progress", doc)).into_bytes())
    }

    /// The endgame database an analysis asked for since the last call
    /// (its key's JSON at `answer()`, see `endgame::take_wanted`), or 0.
    #[no_mangle]
    pub extern "C" fn wanted() -> usize {
        super::endgame::take_wanted().map_or(0, |key| keep(key.to_string().into_bytes()))
    }

    /// Builds the endgame database of the key of `len` bytes at `ptr`
    /// (from `alloc`, which it frees) on the one whose bytes `input`
    /// gives (the key's `"base"` of them), sending `"endgame"` progress
    /// events, the file through `output` and an `"endgame-saved"` event
    /// once it is whole; the answer's length: `"200\n"` and what was
    /// built, or a status and an error document.
    ///
    /// # Safety
    /// As `call`.
    #[no_mangle]
    pub unsafe extern "C" fn endgame_build(ptr: *mut u8, len: usize) -> usize {
        // SAFETY: the host wrote `len` bytes into the buffer `alloc(len)` gave.
        let key = unsafe { Vec::from_raw_parts(ptr, len, len) };
        let mut out = |piece: &[u8]| {
            // SAFETY: the host copies the piece before this returns.
            unsafe { output(piece.as_ptr(), piece.len()) }
        };
        keep(super::endgame::build(
            &key,
            &mut host_bytes(),
            |doc| send("endgame", doc),
            &mut out,
            &|doc| send("endgame-saved", doc),
        ))
    }

    /// Takes the endgame database of the key of `len` bytes at `ptr`
    /// (from `alloc`, which it frees), its bytes read through `input`.
    /// The answer's length: `"STATUS\n"` and a document.
    ///
    /// # Safety
    /// As `call`.
    #[no_mangle]
    pub unsafe extern "C" fn endgame_load(ptr: *mut u8, len: usize) -> usize {
        // SAFETY: the host wrote `len` bytes into the buffer `alloc(len)` gave.
        let key = unsafe { Vec::from_raw_parts(ptr, len, len) };
        let out = match super::endgame::load(&key, &mut host_bytes()) {
            Ok(doc) => format!("200\n{doc}"),
            Err(e) => format!("{}\n{}", e.status, e.doc()),
        };
        keep(out.into_bytes())
    }

    /// Where the last answer's bytes are.
    #[no_mangle]
    pub extern "C" fn answer() -> *const u8 {
        ANSWER.with(|a| a.borrow().as_ptr())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: &str) -> (u16, Value, usize) {
        let events = std::sync::atomic::AtomicUsize::new(0);
        let text = answer_text(request.as_bytes(), &|_| {
            events.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        let (status, doc) = text.split_once('\n').unwrap();
        (
            status.parse().unwrap(),
            serde_json::from_str(doc).unwrap(),
            events.into_inner(),
        )
    }

    #[test]
    fn the_engine_answers_as_the_api_does() {
        let (s, doc, _) =
            ask("POST /api/solve\n{\"rules\":\"avalanche\",\"pits\":6,\"stones\":4,\"limit\":1}");
        assert_eq!((s, doc["best_store"].as_u64()), (200, Some(43)));
        let (s, doc, events) = ask("POST /api/analyze/stream\n{\"rules\":\"avalanche\",\"board\":\"2 0 5 1 3 4 / 8 10 / 1 4 0 2 6 2\",\"nodes\":3000000}");
        assert_eq!(
            (s, doc["value"].as_i64(), doc["exact"].as_bool()),
            (200, Some(12), Some(true))
        );
        assert!(events > 0);
        let (s, doc, _) = ask("POST /api/analyze\n{\"seconds\":0}");
        assert_eq!((s, doc["field"].as_str()), (400, Some("seconds")));
        let (s, doc, _) = ask("GET /api/puzzles\n");
        assert_eq!(s, 200);
        assert!(!doc["collections"].as_array().unwrap().is_empty());
        let (s, game, _) = ask("POST /api/game/new\n{\"pits\":3,\"stones\":1,\"level\":\"easy\"}");
        assert_eq!(
            (s, game["to_move"].as_str()),
            (200, Some("person")),
            "{game}"
        );
        let id = game["id"].as_str().unwrap();
        let pit = game["legal"][0].as_u64().unwrap();
        let (s, after, _) = ask(&format!("POST /api/game/{id}/pick\n{{\"pit\":{pit}}}"));
        assert_eq!(s, 200, "{after}");
        assert!(!after["played"].as_array().unwrap().is_empty());
        assert_eq!(ask(&format!("POST /api/game/{id}/undo\n")).0, 200);
        // The person's pick alone, then the computer's reply on its own.
        let (s, game, _) = ask("POST /api/game/new\n{\"level\":\"easy\",\"seed\":1}");
        assert_eq!(s, 200);
        let id2 = game["id"].as_str().unwrap();
        let (s, mine, _) = ask(&format!(
            "POST /api/game/{id2}/pick\n{{\"pit\":1,\"reply\":false}}"
        ));
        assert_eq!(s, 200, "{mine}");
        assert_eq!(mine["played"].as_array().unwrap().len(), 1);
        assert_eq!(mine["to_move"].as_str(), Some("computer"));
        let (s, reply, _) = ask(&format!("POST /api/game/{id2}/reply\n"));
        assert_eq!(s, 200, "{reply}");
        let played = reply["played"].as_array().unwrap();
        assert!(!played.is_empty() && played.iter().all(|p| p["by"] == "computer"));
        assert_eq!(reply["to_move"].as_str(), Some("person"));
        let (s, again, _) = ask(&format!("POST /api/game/{id2}/reply\n"));
        assert_eq!((s, again["played"].as_array().unwrap().len()), (200, 0));
        assert_eq!(ask(&format!("DELETE /api/game/{id}\n")).0, 204);
        assert_eq!(ask(&format!("GET /api/game/{id}\n")).0, 404);
        // The board text read by the engine, and its limits.
        let (s, board, _) =
            ask("POST /api/board\n{\"rules\":\"kalah\",\"board\":\"1,2 / 0 3 / 4 5\"}");
        assert_eq!(s, 200, "{board}");
        assert_eq!(board["pits"], json!([4, 5, 2, 1]));
        assert_eq!(
            (board["pits_per_side"].as_u64(), board["store"].as_u64()),
            (Some(2), Some(3))
        );
        let (s, e, _) = ask("POST /api/board\n{\"board\":\"1 1 / 0 0 / x 1\"}");
        assert_eq!((s, e["field"].as_str()), (400, Some("board")), "{e}");
        let (s, limits, _) = ask("GET /api/limits\n");
        assert_eq!((s, limits["max_pits_per_side"].as_u64()), (200, Some(16)));
        // The site's memory cap, and the same vocabulary as `serve`'s.
        assert_eq!(limits["max_memory"].as_u64(), Some(MAX_MEMORY));
        assert_eq!(limits, api::limits(MAX_MEMORY));
        assert_eq!(ask("GET /api/nothing\n").0, 404);
        assert_eq!(ask("GET /api/solve\n").0, 405);
        assert_eq!(ask("\n").0, 404);
    }
}
