//! A kept game (`mancala-sweep-game-record/1`): the rules, the start,
//! every turn and who played it, written whole after every turn by `game
//! play` and `game analyze --follow`, and read by `game review`.
//!
//! The document: `format`, `version`, `rules`, `preset`, `start` (the
//! position from the side to move at the start, as `game solve` gives
//! it), `mover` (`first` or `second`: who moves at the start), `players`
//! (`first` and `second`: who played each side, such as `you`, `hard`,
//! `opponent`), `source` (`play`, `follow`, `match` or `typed`), `turns`
//! (each with `by`, the side, and `picks`, the pit numbers from the
//! mover's view; a turn the companion analyzed also has `said`: the
//! values `game analyze` proved then), `finished`, and `result` (the
//! first player's store minus the second's once finished). The schema is
//! `schemas/game-record.schema.json`.

use super::json::{preset_name, PositionJson};
use super::{Header, GAME_RECORD_FORMAT};
use game::error::GameError;
use game::state::{GameState, Side};
use rules::{Board, Pit, Rules};
use serde::{Deserialize, Serialize};

/// Who played each side.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Players {
    /// The first player (the bottom row of the start when it moves first).
    pub first: String,
    /// The second player.
    pub second: String,
}

impl Players {
    /// The name of `side`'s player.
    pub fn of(&self, side: Side) -> &str {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }
}

/// What `game analyze` proved at a turn it analyzed (`--follow`), so that
/// a review can be checked against it: each value for the turn's mover,
/// present only when proved.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Said {
    /// The value of the position (its best turn), when proved.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub best: Option<i32>,
    /// The value of the turn played, when proved.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub played: Option<i32>,
}

/// One turn of a kept game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct TurnRecord {
    /// The side that played it.
    pub by: Side,
    /// Its picks, pit numbers from the mover's view.
    pub picks: Vec<u8>,
    /// What the companion's analysis proved before it, when it ran.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub said: Option<Said>,
}

/// A kept game, as written and read back.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameRecordJson {
    /// `format` ([`GAME_RECORD_FORMAT`]) and `version`.
    #[serde(flatten)]
    pub header: Header,
    /// The rules.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// The start, from the side to move.
    pub start: PositionJson,
    /// Who moves at the start.
    pub mover: Side,
    /// Who played each side.
    pub players: Players,
    /// What kept it: `play`, `follow`, `match` or `typed`.
    pub source: String,
    /// Every turn so far.
    pub turns: Vec<TurnRecord>,
    /// True once the game is over.
    pub finished: bool,
    /// The first player's store minus the second's, once finished.
    pub result: Option<i32>,
}

impl GameRecordJson {
    /// A game about to start from `start`, kept by `source`.
    pub fn new(start: &GameState, players: Players, source: &str) -> GameRecordJson {
        GameRecordJson {
            header: Header::new(GAME_RECORD_FORMAT),
            rules: start.rules(),
            preset: preset_name(start.rules()),
            start: (&start.board()).into(),
            mover: start.mover(),
            players,
            source: source.into(),
            turns: vec![],
            finished: start.is_over(),
            result: start.is_over().then(|| start.first_minus_second()),
        }
    }

    /// The start position.
    pub fn start_state(&self) -> Result<GameState, GameError> {
        let board: Board = self.start.board.parse()?;
        GameState::new(board, self.mover, self.rules)
    }

    /// The turns as picks.
    pub fn picks(&self) -> Result<Vec<Vec<Pit>>, GameError> {
        let n = self.start.pits.len() / 2;
        self.turns
            .iter()
            .enumerate()
            .map(|(k, t)| {
                t.picks
                    .iter()
                    .map(|&p| {
                        Pit::new(u32::from(p), n).ok_or_else(|| {
                            GameError::IllegalTurn(format!(
                                "turn {}: pit {p} is not a pit of {n} a side",
                                k + 1
                            ))
                        })
                    })
                    .collect()
            })
            .collect()
    }

    /// Add a turn that led from `before` to `after` (the game is over
    /// when `after` is).
    pub fn push(
        &mut self,
        before: &GameState,
        picks: &[Pit],
        after: &GameState,
        said: Option<Said>,
    ) {
        self.turns.push(TurnRecord {
            by: before.mover(),
            picks: picks.iter().map(|p| p.number()).collect(),
            said,
        });
        self.finished = after.is_over();
        self.result = after.is_over().then(|| after.first_minus_second());
    }

    /// Take back the last `k` turns.
    pub fn take_back(&mut self, k: usize) {
        let keep = self.turns.len().saturating_sub(k);
        self.turns.truncate(keep);
        self.finished = false;
        self.result = None;
    }

    /// The document as written: one line of JSON.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("json") + "\n"
    }
}
