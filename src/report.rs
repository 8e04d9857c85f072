//! What the commands print: the JSON documents (serde structs with a format
//! version) and the text reports.
//!
//! # JSON formats
//!
//! Every document has a `format` key naming its kind and version. Counts that
//! can exceed 2^53 (`optimal_count`, `turns_total`, `turns_by_store`) are
//! decimal strings so that every JSON reader keeps them exact. Pit numbers
//! follow [`crate::pit`]; `pits` arrays hold the 2n counts in pit-number order.
//!
//! `solve --json` (`mancala-sweep-solve/1`):
//!
//! ```json
//! {"format":"mancala-sweep-solve/1","version":"0.1.0",
//!  "rules":{"scope":"own","relay":true,"capture":"none"},
//!  "start":{"board":"3 3 3 3 3 3 / 0 0 / 3 3 3 3 3 3","pits":[3,3,3,3,3,3,3,3,3,3,3,3],"store":0,"opponent_store":0},
//!  "best_store":10,"total_stones":36,"sweep":false,
//!  "optimal_count":"1","turns_total":"36","positions":11,
//!  "turns_by_store":["0","1","0","0","0","0","0","0","0","0","1",...],
//!  "optimal":[[5,1,2,6,6,2,6,4]],"listed":1,"seconds":0.0001,"threads":2}
//! ```
//!
//! `find --json` (`mancala-sweep-find/1`): `rules`, `start`, `best_store`,
//! `total_stones`, `sweep`, `line` (pit numbers), `exact`, `seconds`,
//! `rounds`, `beam`, `positions`, `seed`, `threads`, `interrupted`.
//!
//! `replay --json` (`mancala-sweep-replay/1`): `rules`, `start`, `picks`,
//! `steps` (one per pick: `pick`, `end` = `"free-turn"` or `"turn-over"`,
//! `pits`, `store`), and the final `store`, `to_move` and `pits`.

use crate::board::Board;
use crate::find::Found;
use crate::pick::PickEnd;
use crate::rules::Rules;
use crate::sweep::Solution;
use crate::turn::Turn;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Version of this crate, written into every JSON document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// `format` of `solve --json`.
pub const SOLVE_FORMAT: &str = "mancala-sweep-solve/1";
/// `format` of `replay --json`.
pub const REPLAY_FORMAT: &str = "mancala-sweep-replay/1";
/// `format` of `find --json`.
pub const FIND_FORMAT: &str = "mancala-sweep-find/1";

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
    /// [`SOLVE_FORMAT`].
    pub format: String,
    /// Tool version.
    pub version: String,
    /// Rules searched under.
    pub rules: Rules,
    /// Start position.
    pub start: PositionJson,
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
    /// Listed optimal sequences, lexicographic by pit number.
    pub optimal: Vec<Vec<u8>>,
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
            format: SOLVE_FORMAT.into(),
            version: VERSION.into(),
            rules: s.rules,
            start: (&s.start).into(),
            best_store: s.best_store,
            total_stones: s.total_stones,
            sweep: s.sweep(),
            optimal_count: s.optimal_count.to_string(),
            turns_total: s.turns_total.to_string(),
            turns_by_store: s.turns_by_store.iter().map(|c| c.to_string()).collect(),
            positions: s.positions,
            optimal: s
                .optimal
                .iter()
                .map(|l| l.iter().map(|p| p.number()).collect())
                .collect(),
            listed: s.optimal.len(),
            seconds: s.seconds,
            threads,
        }
    }
}

/// `find --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FindJson {
    /// [`FIND_FORMAT`].
    pub format: String,
    /// Tool version.
    pub version: String,
    /// Rules searched under.
    pub rules: Rules,
    /// Start position.
    pub start: PositionJson,
    /// Store at the end of `line`, replayed.
    pub best_store: u32,
    /// Stones in the pits and the own store at the start.
    pub total_stones: u32,
    /// True when `best_store == total_stones`.
    pub sweep: bool,
    /// The best line found (pit numbers), a complete turn.
    pub line: Vec<u8>,
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
            format: FIND_FORMAT.into(),
            version: VERSION.into(),
            rules: f.rules,
            start: (&f.start).into(),
            best_store: f.best_store,
            total_stones: f.total_stones,
            sweep: f.sweep(),
            line: f.line.iter().map(|p| p.number()).collect(),
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

/// The text report of `find`.
pub fn find_text(f: &Found, threads: usize) -> String {
    let mut out = String::new();
    if f.interrupted {
        out.push_str("INCOMPLETE: interrupted; this is the best line found so far\n");
    }
    out.push_str(&header(f.rules, &f.start));
    let verdict = if f.sweep() {
        ": a sweep, so nothing beats it"
    } else if f.exact {
        ", proved best: the last round kept every position"
    } else {
        ", a lower bound: the search dropped positions"
    };
    let picks: Vec<u8> = f.line.iter().map(|p| p.number()).collect();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Best found: {} of {} stones{verdict}",
        f.best_store, f.total_stones
    );
    let _ = writeln!(
        out,
        "Search:     {} round{}, last beam {}, {} positions, {:.3} s on {threads} thread{}",
        f.rounds,
        if f.rounds == 1 { "" } else { "s" },
        f.beam,
        f.positions,
        f.seconds,
        if threads == 1 { "" } else { "s" }
    );
    let _ = writeln!(out, "Line ({} picks): {}", picks.len(), line_text(&picks));
    let _ = writeln!(
        out,
        "Replayed:   the line ends the turn with {} in the store",
        f.best_store
    );
    out
}

/// One pick of `replay --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct StepJson {
    /// Pit picked.
    pub pick: u8,
    /// `free-turn` or `turn-over`.
    pub end: String,
    /// Pits after the pick.
    pub pits: Vec<u8>,
    /// Own store after the pick.
    pub store: u8,
}

/// `replay --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ReplayJson {
    /// [`REPLAY_FORMAT`].
    pub format: String,
    /// Tool version.
    pub version: String,
    /// Rules played under.
    pub rules: Rules,
    /// Start position.
    pub start: PositionJson,
    /// The picks, as given.
    pub picks: Vec<u8>,
    /// The board after each pick.
    pub steps: Vec<StepJson>,
    /// Own store at the end.
    pub store: u8,
    /// True when the player may still pick.
    pub to_move: bool,
    /// Pits at the end.
    pub pits: Vec<u8>,
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
            format: REPLAY_FORMAT.into(),
            version: VERSION.into(),
            rules,
            start: states[0].board().into(),
            picks: last.picks().iter().map(|p| p.number()).collect(),
            steps: states[1..]
                .iter()
                .map(|t| StepJson {
                    pick: t.picks().last().expect("a pick was played").number(),
                    end: end_name(t.last_end().expect("a pick was played")).into(),
                    pits: t.board().pits(),
                    store: t.board().store(),
                })
                .collect(),
            store: last.board().store(),
            to_move: last.to_move(),
            pits: last.board().pits(),
        }
    }
}

/// Numbers joined by spaces.
pub fn line_text(picks: &[u8]) -> String {
    picks
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board after each pick of a replayed turn (`states[0]` is the start).
pub fn steps_text(states: &[Turn]) -> String {
    let mut out = String::new();
    for (i, t) in states.iter().enumerate().skip(1) {
        let pit = t.picks().last().expect("a pick was played");
        let how = match t.last_end() {
            Some(PickEnd::FreeTurn) if t.to_move() => "free turn",
            Some(PickEnd::FreeTurn) => "free turn, but no pick is left",
            _ => "the turn is over",
        };
        let _ = writeln!(
            out,
            "pick {i}: pit {pit}, {how}; store {}\n{}\n",
            t.board().store(),
            t.board()
        );
    }
    out
}

/// The header shared by the text reports: rules and start board.
fn header(rules: Rules, start: &Board) -> String {
    format!("Rules: {rules}\nStart: {}\n{start}\n", start.one_line())
}

/// The text report of `solve`. `first` is the replay of the first optimal
/// sequence, shown pick by pick.
pub fn solve_text(s: &Solution, threads: usize, first: Option<&[Turn]>) -> String {
    let mut out = header(s.rules, &s.start);
    let verdict = if s.sweep() { ": a sweep" } else { "" };
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Best store:        {} of {} stones{verdict}",
        s.best_store, s.total_stones
    );
    let _ = writeln!(out, "Optimal sequences: {}", s.optimal_count);
    let _ = writeln!(out, "Complete turns:    {}", s.turns_total);
    let _ = writeln!(out, "Positions:         {}", s.positions);
    let _ = writeln!(
        out,
        "Time:              {:.3} s on {threads} thread{}",
        s.seconds,
        if threads == 1 { "" } else { "s" }
    );
    if s.optimal.is_empty() {
        let _ = writeln!(out, "\nNo sequences listed (--limit 0).");
        return out;
    }
    let _ = writeln!(
        out,
        "\nOptimal sequences ({} of {}, in lexicographic order of pit numbers):",
        s.optimal.len(),
        s.optimal_count
    );
    let width = s.optimal.len().to_string().len();
    for (i, line) in s.optimal.iter().enumerate() {
        let picks: Vec<u8> = line.iter().map(|p| p.number()).collect();
        let _ = writeln!(out, "  {:>width$}. {}", i + 1, line_text(&picks));
    }
    if let Some(states) = first {
        let _ = writeln!(out, "\nThe first optimal sequence, pick by pick:\n");
        out.push_str(&steps_text(states));
    }
    out
}

/// The text report of `replay`.
pub fn replay_text(rules: Rules, states: &[Turn]) -> String {
    let mut out = header(rules, states[0].board());
    out.push('\n');
    out.push_str(&steps_text(states));
    let last = states.last().expect("replay has a start state");
    let _ = writeln!(
        out,
        "Final store: {} of {} stones; {}",
        last.board().store(),
        last.board().stones_in_play(),
        if last.to_move() {
            "the player is still to move (the last pick ended in the store)"
        } else {
            "the turn is over"
        }
    );
    out
}

/// A puzzle: its board, goal, grade and source.
pub fn puzzle_text(
    c: &crate::puzzle::Collection,
    p: &crate::puzzle::Puzzle,
    board: &Board,
) -> String {
    let mut out = header(c.rules, board);
    let total = board.stones_in_play();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Puzzle {} ({}, from {})",
        p.id,
        c.name,
        p.source.name()
    );
    let _ = writeln!(
        out,
        "Goal: have {} stones in your store when this turn ends ({}; you have {} now)",
        p.goal_store,
        if p.goal_store == total {
            "every stone: a sweep".to_string()
        } else {
            format!("of {total} in play")
        },
        board.store()
    );
    let _ = writeln!(
        out,
        "Difficulty: {} of 5; {} solution{}, {} picks",
        p.difficulty,
        p.solutions_count,
        if p.solutions_count == "1" { "" } else { "s" },
        p.length
    );
    out
}
