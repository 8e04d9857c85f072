//! `/api/analyze`: a game position's turns ranked by the whole-game
//! solver, its options and endgame database, and the gate of its progress.

use super::{seconds_within, Error, Position};
use format::GameAnalysisJson;
use game::{self, Budget, GameState, Side};
use rules::Preset;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// `/api/analyze`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    #[serde(flatten)]
    position: Position,
    /// Seconds (default 1, at most the back-end's budget).
    seconds: Option<f64>,
    /// Picks to search instead of seconds, for answers that repeat.
    nodes: Option<u64>,
}

/// The most picks a request may ask `/api/analyze` for: about a minute of
/// one core.
pub const MAX_ANALYZE_NODES: u64 = 200_000_000;

/// The table of an analysis, in the terminal and on the web: on a 1-second
/// budget a 256 MiB table costs more to zero and fault in than it saves
/// (docs/games.md, "game analyze").
pub const ANALYZE_TABLE: u64 = 64 << 20;

impl AnalyzeRequest {
    /// The game state and budget asked for, checked, with at most
    /// `budget` seconds.
    pub fn check(&self, budget: f64) -> Result<(GameState, Budget), Error> {
        let (rules, board) = self.position.resolve_or(Some(Preset::Kalah))?;
        let state = GameState::new(board, Side::First, rules)
            .map_err(|e| Error::bad(e.to_string()).field("board"))?;
        if state.is_over() {
            return Err(Error::bad(format!(
                "board: the game is over ({} to {}); there is no move to analyze",
                state.store(Side::First),
                state.store(Side::Second)
            ))
            .field("board"));
        }
        let seconds = seconds_within(self.seconds, 1.0, budget)?;
        match self.nodes {
            Some(n) if n == 0 || n > MAX_ANALYZE_NODES => Err(Error::bad(format!(
                "nodes: {n} is not allowed; give 1 to {MAX_ANALYZE_NODES}"
            ))
            .field("nodes")),
            Some(n) => Ok((state, Budget::Nodes(n))),
            None => Ok((state, Budget::Seconds(seconds))),
        }
    }
}

/// The solver options of a web analysis of `game`: one thread, the web's
/// table (at most half of `max_memory`), sized for the stones of `game`.
pub fn analysis_options(game: &GameState, max_memory: u64) -> game::SolveOptions {
    game::SolveOptions {
        table_bytes: ANALYZE_TABLE.min(max_memory / 2),
        memory_cap: max_memory,
        threads: 1,
        ..Default::default()
    }
    .fit_to(game.rules(), game.pits_per_side(), game.stones_in_pits())
}

/// The database of `dbs` for `game`'s rules and board size, when the game
/// has more stones than it holds (otherwise the database filled on
/// demand holds the whole game) and it fits beside the analysis's table
/// within `max_memory`: a server reads the cached ones at start and
/// hands each analysis the one of its rules.
pub fn endgame_for<'a>(
    dbs: &'a [game::EndgameDb],
    game: &GameState,
    max_memory: u64,
) -> Option<&'a game::EndgameDb> {
    let table = analysis_options(game, max_memory).table_bytes;
    dbs.iter().find(|db| {
        db.rules() == game.rules()
            && db.pits_per_side() == game.pits_per_side()
            && game.stones_in_pits() > db.stones()
            && table.saturating_add(db.bytes()) <= max_memory
    })
}

/// An analysis of `game` on a fresh solver with [`analysis_options`] and
/// the endgame database `db` (else the one filled on demand), as the
/// document `game analyze --json` prints; the search stops at `cancel`,
/// and `report` hears of each step.
pub fn analysis(
    game: &GameState,
    budget: Budget,
    max_memory: u64,
    db: Option<&game::EndgameDb>,
    cancel: &AtomicBool,
    report: Option<game::analyze::Report<'_>>,
) -> Result<Value, Error> {
    let opts = analysis_options(game, max_memory);
    let a = game::analyze(game, &opts, db, budget, cancel, report)
        .map_err(|e| Error::bad(e.to_string()))?;
    Ok(analysis_doc(game, &a))
}

/// The document of an analysis of `game` on one thread.
pub fn analysis_doc(game: &GameState, a: &game::Analysis) -> Value {
    json!(GameAnalysisJson::new(game, a, 1, usize::MAX))
}

/// The least time between two progress documents of an analysis. Each one
/// holds every turn (24,324 at the avalanche start, megabytes of JSON), and
/// the search reports after every turn it narrows: sent each time, they
/// would take the search's time to write and the page's to read.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Lets an analysis's progress through at most once per [`PROGRESS_EVERY`]
/// (the first report at once); the result always follows the last.
#[derive(Default)]
pub struct ProgressGate {
    last: std::sync::Mutex<Option<base::clock::Instant>>,
}

impl ProgressGate {
    /// True when a report now is due, which then counts as sent.
    pub fn due(&self) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let now = base::clock::Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < PROGRESS_EVERY) {
            return false;
        }
        *last = Some(now);
        true
    }
}
