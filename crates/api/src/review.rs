//! `/api/review`: a game's turns graded by the library's review
//! ([`game::review`], the one `game review` runs), as the document
//! `game review --json` prints (`mancala-sweep-game-review/1`).
//!
//! The pages send the game (its start, from the side that moves first,
//! and its turns, pit numbers from each mover's view) and draw what comes
//! back: the grades, the values and the words are all the engine's.

use super::{seconds_within, Error, Position, MAX_ANALYZE_NODES};
use format::record::Players;
use format::review::GameReviewJson;
use game::review::{review, Review, ReviewOptions};
use game::{Budget, EndgameDb, GameState, Side, SolveOptions};
use rules::{Pit, Preset};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// `/api/review`'s body.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    #[serde(flatten)]
    position: Position,
    /// Every turn: its picks, pit numbers from the mover's view.
    #[serde(default)]
    turns: Vec<Vec<u32>>,
    /// Who played each side (default `first` and `second`).
    players: Option<Players>,
    /// Seconds a position on average (default 4, as `game review`).
    seconds: Option<f64>,
    /// Picks a position on average instead of seconds.
    nodes: Option<u64>,
}

/// The most turns a review takes: longer than any game of the largest
/// board the pages offer.
pub const MAX_REVIEW_TURNS: usize = 1000;

/// The longest player name a review takes.
const MAX_NAME: usize = 40;

/// A game to review, checked.
#[derive(Clone, Debug)]
pub struct ReviewGame {
    /// The start, its mover the first player.
    pub start: GameState,
    /// Every turn's picks.
    pub turns: Vec<Vec<Pit>>,
    /// Who played.
    pub players: Players,
    /// The budget a position, on average.
    pub budget: Budget,
}

impl ReviewRequest {
    /// The game asked for, checked, with at most `budget` seconds a
    /// position: an illegal turn is refused with its number and why.
    pub fn check(&self, budget: f64) -> Result<ReviewGame, Error> {
        let (rules, board) = self.position.resolve_or(Some(Preset::Kalah))?;
        let start = GameState::new(board, Side::First, rules)
            .map_err(|e| Error::bad(e.to_string()).field("board"))?;
        let bad = |why: String| Error::bad(format!("turns: {why}")).field("turns");
        if self.turns.is_empty() || self.turns.len() > MAX_REVIEW_TURNS {
            return Err(bad(format!(
                "{} turns given; give 1 to {MAX_REVIEW_TURNS}",
                self.turns.len()
            )));
        }
        let n = start.pits_per_side();
        let mut turns = Vec::with_capacity(self.turns.len());
        for (k, t) in self.turns.iter().enumerate() {
            if t.is_empty() {
                return Err(bad(format!("turn {} has no pick", k + 1)));
            }
            let picks = t
                .iter()
                .map(|&x| Pit::new(x, n))
                .collect::<Option<Vec<Pit>>>()
                .ok_or_else(|| {
                    bad(format!(
                        "turn {} has {t:?}: a pick is a pit number, 1 to {}",
                        k + 1,
                        2 * n
                    ))
                })?;
            turns.push(picks);
        }
        Review::new(&start, &turns, false).map_err(|e| bad(e.to_string()))?;
        let players = self.players.clone().unwrap_or_else(|| Players {
            first: "first".into(),
            second: "second".into(),
        });
        for name in [&players.first, &players.second] {
            let len = name.chars().count();
            if len == 0 || len > MAX_NAME {
                return Err(Error::bad(format!(
                    "players: {name:?} is {len} characters long; give 1 to {MAX_NAME}"
                ))
                .field("players"));
            }
        }
        let seconds = seconds_within(self.seconds, 4.0, budget)?;
        let budget = match self.nodes {
            Some(n) if n == 0 || n > MAX_ANALYZE_NODES => {
                return Err(Error::bad(format!(
                    "nodes: {n} is not allowed; give 1 to {MAX_ANALYZE_NODES}"
                ))
                .field("nodes"))
            }
            Some(n) => Budget::Nodes(n),
            None => Budget::Seconds(seconds),
        };
        Ok(ReviewGame {
            start,
            turns,
            players,
            budget,
        })
    }
}

/// The table of a review: one table serves every position of the game,
/// and the positions just past the books (44 stones on 6×4) are the ones
/// a review spends its time on; twice an analysis's table proves them
/// sooner (docs/notebook/game-review.md), and fits beside the endgame
/// database within the static site's 256 MiB.
pub const REVIEW_TABLE: u64 = 128 << 20;

/// The solver options of a web review of a game from `start`: one
/// thread, [`REVIEW_TABLE`] (at most half of `max_memory`), sized for the
/// start's stones.
pub fn review_options(start: &GameState, max_memory: u64) -> SolveOptions {
    SolveOptions {
        table_bytes: REVIEW_TABLE.min(max_memory / 2),
        memory_cap: max_memory,
        threads: 1,
        ..Default::default()
    }
    .fit_to(start.rules(), start.pits_per_side(), start.stones_in_pits())
}

/// The review of `game` on one thread within `max_memory` (the options
/// of [`review_options`], the books, the endgame database `db` when
/// given), as
/// `game review --json` prints it; `report` hears the document after
/// every position settled (the finished and booked ones first), and
/// `cancel` stops it with what is done (`"stopped": true`).
pub fn run_review(
    game: &ReviewGame,
    max_memory: u64,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
    report: Option<&(dyn Fn(Value) + Sync)>,
) -> Result<Value, Error> {
    let opts = ReviewOptions {
        solve: review_options(&game.start, max_memory),
        budget: game.budget,
    };
    let each = |r: &Review| {
        if let Some(report) = report {
            report(review_doc(r, &game.players));
        }
    };
    let r = review(&game.start, &game.turns, &opts, db, cancel, Some(&each))
        .map_err(|e| Error::bad(e.to_string()))?;
    Ok(review_doc(&r, &game.players))
}

/// The document of review `r`.
pub fn review_doc(r: &Review, players: &Players) -> Value {
    json!(GameReviewJson::new(r, players))
}
