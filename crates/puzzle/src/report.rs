//! What `puzzles list`, `check` and `show` answer, as JSON documents
//! (each with a format version and a schema in `schemas/`) and as text.

use super::{Collection, Puzzle, Source};
use format::Header;
use rules::{Line, Rules};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// `format` of `puzzles list --json`.
pub const LIST_FORMAT: &str = "mancala-sweep-puzzle-list/1";
/// `format` of `puzzles check --json`.
pub const CHECK_FORMAT: &str = "mancala-sweep-puzzle-check/1";
/// `format` of `puzzles show --json`.
pub const SHOW_FORMAT: &str = "mancala-sweep-puzzle-show/1";

/// One line of a listing.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle's id.
    pub id: String,
    /// Grade, 1 to 5.
    pub difficulty: u8,
    /// Picks in the solution.
    pub length: usize,
    /// Store to reach.
    pub goal_store: u32,
    /// Pick sequences that reach it (decimal string).
    pub solutions_count: String,
    /// Where the position comes from.
    pub source: Source,
    /// Pits a side.
    pub pits_per_side: usize,
}

/// `puzzles list --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ListJson {
    /// `format` ([`LIST_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The collection's name.
    pub name: String,
    /// Its rules.
    pub rules: Rules,
    /// Its puzzles, in file order.
    pub puzzles: Vec<Entry>,
}

impl ListJson {
    /// The listing of `c`.
    pub fn new(c: &Collection) -> Self {
        ListJson {
            header: Header::new(LIST_FORMAT),
            name: c.name.clone(),
            rules: c.rules,
            puzzles: c
                .puzzles
                .iter()
                .map(|p| Entry {
                    id: p.id.clone(),
                    difficulty: p.difficulty,
                    length: p.length,
                    goal_store: p.goal_store,
                    solutions_count: p.solutions_count.clone(),
                    source: p.source,
                    pits_per_side: p.pits.len() / 2,
                })
                .collect(),
        }
    }

    /// The listing as a table.
    pub fn text(&self) -> String {
        let width = self
            .puzzles
            .iter()
            .map(|e| e.id.len())
            .max()
            .unwrap_or(2)
            .max(2);
        let mut out = format!(
            "{} ({}): {} puzzles\n",
            self.name,
            self.rules,
            self.puzzles.len()
        );
        let _ = writeln!(
            out,
            "{:<width$}  grade  picks  goal  solutions  board   source",
            "id"
        );
        for e in &self.puzzles {
            let _ = writeln!(
                out,
                "{:<width$}  {:>5}  {:>5}  {:>4}  {:>9}  2x{:<4}  {}",
                e.id,
                e.difficulty,
                e.length,
                e.goal_store,
                e.solutions_count,
                e.pits_per_side,
                e.source.name()
            );
        }
        out
    }
}

/// `puzzles check --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct CheckJson {
    /// `format` ([`CHECK_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// Puzzles checked.
    pub puzzles: usize,
    /// True when every puzzle matches a fresh solve.
    pub ok: bool,
    /// One line a mismatch, each naming its puzzle.
    pub mismatches: Vec<String>,
}

impl CheckJson {
    /// The report of a check of `c` that found `mismatches`.
    pub fn new(c: &Collection, mismatches: Vec<String>) -> Self {
        CheckJson {
            header: Header::new(CHECK_FORMAT),
            puzzles: c.puzzles.len(),
            ok: mismatches.is_empty(),
            mismatches,
        }
    }
}

/// `puzzles show --json`: the puzzle as the collection holds it, with the
/// collection's rules.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ShowJson {
    /// `format` ([`SHOW_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The collection's name.
    pub collection: String,
    /// Its rules.
    pub rules: Rules,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The solution (also in `puzzle`), or null unless `--solution` asked.
    pub solution: Option<Line>,
}

impl ShowJson {
    /// The document for puzzle `p` of `c`, with its solution when asked.
    pub fn new(c: &Collection, p: &Puzzle, with_solution: bool) -> Self {
        ShowJson {
            header: Header::new(SHOW_FORMAT),
            collection: c.name.clone(),
            rules: c.rules,
            puzzle: p.clone(),
            solution: with_solution.then(|| p.solution.clone()),
        }
    }
}
