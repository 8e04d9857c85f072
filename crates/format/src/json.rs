//! The JSON documents of `solve`, `find` and `replay`: serde structs with a
//! format version, so that the command line and a web server give the
//! same bytes for the same answer.

use super::{Header, FIND_FORMAT, REPLAY_FORMAT, SOLVE_FORMAT};
use rules::{Board, Line, PickEnd, Pit, Preset, Rules, Turn};
use serde::{Deserialize, Serialize};
use sweep::{Found, Reached, SearchError, Solution, StopCause};

/// A position in JSON.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct PositionJson {
    /// The board text format, on one line.
    pub board: String,
    /// The 2n pit counts in pit-number order.
    pub pits: Vec<u8>,
    /// Stones in the own store.
    pub store: u8,
    /// Stones in the opponent's store.
    pub opponent_store: u8,
}

/// The name of the preset whose rules these are, if any: every document
/// says it, so that a reader need not match the three switches.
pub fn preset_name(rules: Rules) -> Option<String> {
    Preset::ALL
        .into_iter()
        .find(|p| p.rules() == rules)
        .map(|p| p.name().to_string())
}

impl From<&Board> for PositionJson {
    fn from(b: &Board) -> Self {
        PositionJson {
            board: b.one_line(),
            pits: b.pits(),
            store: b.store(),
            opponent_store: b.opponent_store(),
        }
    }
}

/// `solve --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SolveJson {
    /// `format` ([`SOLVE_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// Rules searched under.
    pub rules: Rules,
    /// The preset these rules are (`avalanche`, `any-hole`, `kalah`), or null.
    pub preset: Option<String>,
    /// Start position.
    pub start: PositionJson,
    /// True: the search finished (see [`SolveStoppedJson`] for one that did not).
    pub complete: bool,
    /// Best final store.
    pub best_store: u32,
    /// Stones in the pits and the own store at the start.
    pub total_stones: u32,
    /// True when `best_store == total_stones`.
    pub sweep: bool,
    /// Pick sequences that reach `best_store` (decimal string).
    pub optimal_count: String,
    /// Complete turns (decimal string).
    pub turns_total: String,
    /// Complete turns by final store, index = store (decimal strings).
    pub turns_by_store: Vec<String>,
    /// Distinct positions at which a pick is made.
    pub positions: u64,
    /// Those positions by the stones in the store, index = store.
    pub positions_by_store: Vec<u64>,
    /// Listed optimal sequences, lexicographic by pit number.
    pub optimal: Vec<Line>,
    /// How many are listed (`optimal.len()`).
    pub listed: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
}

impl SolveJson {
    /// The JSON document for a solution.
    pub fn new(s: &Solution, threads: usize) -> Self {
        SolveJson {
            header: Header::new(SOLVE_FORMAT),
            rules: s.rules,
            preset: preset_name(s.rules),
            start: (&s.start).into(),
            complete: true,
            best_store: s.best_store,
            total_stones: s.total_stones,
            sweep: s.sweep(),
            optimal_count: s.optimal_count.to_string(),
            turns_total: s.turns_total.to_string(),
            turns_by_store: s.turns_by_store.iter().map(|c| c.to_string()).collect(),
            positions: s.positions,
            positions_by_store: s.positions_by_store.clone(),
            optimal: s.optimal.clone(),
            listed: s.optimal.len(),
            seconds: s.seconds,
            threads,
        }
    }
}

/// `find --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FindJson {
    /// `format` ([`FIND_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// Rules searched under.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// Start position.
    pub start: PositionJson,
    /// Store at the end of `line`, replayed.
    pub best_store: u32,
    /// Stones in the pits and the own store at the start.
    pub total_stones: u32,
    /// True when `best_store == total_stones`.
    pub sweep: bool,
    /// The best line found (pit numbers), a complete turn.
    pub line: Line,
    /// True when `best_store` is proved best (exhaustive round, or a sweep).
    pub exact: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Rounds run.
    pub rounds: u32,
    /// Beam of the last round.
    pub beam: usize,
    /// Positions expanded over all rounds.
    pub positions: u64,
    /// Tie-break seed.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// True when Ctrl-C stopped the search: the line is the best so far.
    pub interrupted: bool,
}

impl FindJson {
    /// The JSON document for a `find` result.
    pub fn new(f: &Found, seed: u64, threads: usize) -> Self {
        FindJson {
            header: Header::new(FIND_FORMAT),
            rules: f.rules,
            preset: preset_name(f.rules),
            start: (&f.start).into(),
            best_store: f.best_store,
            total_stones: f.total_stones,
            sweep: f.sweep(),
            line: f.line.clone(),
            exact: f.exact,
            seconds: f.seconds,
            rounds: f.rounds,
            beam: f.beam,
            positions: f.positions,
            seed,
            threads,
            interrupted: f.interrupted,
        }
    }
}

/// One pick of `replay --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct StepJson {
    /// Pit picked.
    pub pick: Pit,
    /// `free-turn` or `turn-over`.
    pub end: String,
    /// Pits after the pick.
    pub pits: Vec<u8>,
    /// Own store after the pick.
    pub store: u8,
    /// The board after the pick, in the board text format on one line.
    pub board: String,
}

/// `replay --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ReplayJson {
    /// `format` ([`REPLAY_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// Rules played under.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// Start position.
    pub start: PositionJson,
    /// The picks, as given.
    pub picks: Line,
    /// The board after each pick.
    pub steps: Vec<StepJson>,
    /// Own store at the end.
    pub store: u8,
    /// True when the player may still pick.
    pub to_move: bool,
    /// Pits at the end.
    pub pits: Vec<u8>,
    /// Opponent's store (a turn never changes it).
    pub opponent_store: u8,
    /// The board at the end, in the board text format on one line.
    pub board: String,
}

fn end_name(e: PickEnd) -> &'static str {
    match e {
        PickEnd::FreeTurn => "free-turn",
        PickEnd::TurnOver => "turn-over",
    }
}

impl ReplayJson {
    /// The JSON document for a replay (`states[0]` is the start).
    pub fn new(rules: Rules, states: &[Turn]) -> Self {
        let last = states.last().expect("replay has a start state");
        ReplayJson {
            header: Header::new(REPLAY_FORMAT),
            rules,
            preset: preset_name(rules),
            start: states[0].board().into(),
            picks: Line(last.picks().to_vec()),
            steps: states[1..]
                .iter()
                .map(|t| StepJson {
                    pick: *t.picks().last().expect("a pick was played"),
                    end: end_name(t.last_end().expect("a pick was played")).into(),
                    pits: t.board().pits(),
                    store: t.board().store(),
                    board: t.board().one_line(),
                })
                .collect(),
            store: last.board().store(),
            to_move: last.to_move(),
            pits: last.board().pits(),
            opponent_store: last.board().opponent_store(),
            board: last.board().one_line(),
        }
    }
}

/// `solve --json` for a search that stopped before its end: how far it got,
/// marked `"complete": false`, with the same `format` as a finished one.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SolveStoppedJson {
    /// `format` ([`SOLVE_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// Rules searched under.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// Start position.
    pub start: PositionJson,
    /// False: the search did not finish.
    pub complete: bool,
    /// Why: `interrupted` (Ctrl-C), `out-of-time` or `memory-limit`.
    pub stopped: String,
    /// The pass it was in: `counting` or `listing`.
    pub pass: String,
    /// The store bucket it reached, of `max_store`.
    pub store_bucket: usize,
    /// The highest store bucket (stones in play).
    pub max_store: usize,
    /// Distinct positions expanded by then.
    pub positions: u64,
    /// The best final store of the turns counted so far: a lower bound
    /// while counting, the proved best while listing; null if none ended.
    pub best_store: Option<u32>,
    /// True when `best_store` is proved (the listing pass had started).
    pub best_proved: bool,
}

impl SolveStoppedJson {
    /// The document for a search on `start` under `rules` that stopped
    /// with `error`; `None` for an error that is not a stop (bad input, a
    /// bug), which has no partial answer to give.
    pub fn new(rules: Rules, start: &Board, error: &SearchError) -> Option<Self> {
        let (stopped, reached, best): (&str, &Reached, Option<u32>) = match error {
            SearchError::Stopped {
                cause,
                reached,
                best,
            } => (
                match cause {
                    StopCause::Cancelled => "interrupted",
                    StopCause::Deadline { .. } => "out-of-time",
                },
                reached,
                *best,
            ),
            SearchError::MemoryLimit { reached, .. } => ("memory-limit", reached, None),
            _ => return None,
        };
        Some(SolveStoppedJson {
            header: Header::new(SOLVE_FORMAT),
            rules,
            preset: preset_name(rules),
            start: start.into(),
            complete: false,
            stopped: stopped.into(),
            pass: if reached.backward {
                "listing"
            } else {
                "counting"
            }
            .into(),
            store_bucket: reached.store,
            max_store: reached.max_store,
            positions: reached.positions,
            best_store: best,
            best_proved: reached.backward && best.is_some(),
        })
    }
}
