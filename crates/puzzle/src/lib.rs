//! Puzzle collections: "reach the most stones this turn" puzzles with a
//! unique solution, proved by [`sweep::exact::solve`], graded, and exported
//! as versioned JSON.
//!
//! A puzzle is a position under a rule set and a goal: the store count to
//! reach this turn, which is always the proved best score of the position
//! (every stone on the board when it is a sweep). Its solution is the pick
//! sequence that reaches the goal; a good puzzle has exactly one. Puzzles
//! come from four sources ([`Source`]): start boards, positions part-way
//! along optimal lines, and positions of games played by simple agents
//! (`random` and `greedy-pick`) or by strong ones.
//!
//! # JSON format `mancala-sweep-puzzles/1`
//!
//! A collection has `format`, `name`, `rules` (`scope`, `relay`, `capture`),
//! `generator` (`tool`, `version`, `command`) and `puzzles`. Each puzzle has
//! `id` (stable for the same position and rules), `board` (the `--board` text
//! format), `pits` (2n counts in pit-number order), `store`,
//! `opponent_store`, `goal_store`, `solution` (pit numbers),
//! `solutions_count` (decimal string), `length` (picks), `difficulty` (1 to 5,
//! see [`grade`]) and `source` (`start`, `line` or `game`). The JSON Schema is
//! `schemas/puzzles.schema.json`.

pub mod error;
mod generate;
pub mod report;
pub mod session;
pub mod text;

pub use error::PuzzleError;
pub use generate::{collection, generate, slow, GenerateOptions, Generated};

use format::FileError;
use format::VersionError;
use rules::{turn, Board, Line, Rules};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use sweep::{solve, Listing, SweepOptions};

/// Results of this module.
pub type Result<T, E = PuzzleError> = std::result::Result<T, E>;

/// The generator behind every random choice, the game's agents' own:
/// seedable and the same on every platform, so that a collection is the
/// same for the same seed.
pub use game::agent::Rng64;

/// `format` of a collection.
pub const PUZZLES_FORMAT: &str = "mancala-sweep-puzzles/1";

/// Where a puzzle's position comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The start of a game (uniform pits), pits 3 to 8, stones 1 to 6.
    Start,
    /// A position part-way along an optimal line from a start board.
    Line,
    /// A position met in a game between the `random` and `greedy-pick`
    /// agents.
    Game,
    /// A position met in a game between two `mtdf:12` agents (what the
    /// `hard` level was when the collections were made): what people
    /// reach in strong play.
    GameHard,
}

impl Source {
    /// The name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Source::Start => "start",
            Source::Line => "line",
            Source::Game => "game",
            Source::GameHard => "game-hard",
        }
    }
}

/// What made a collection.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Generator {
    /// `mancala-sweep`.
    pub tool: String,
    /// The version of the tool that made it: the collection's only
    /// `version` (see [`Collection::format`]).
    pub version: String,
    /// The command line that made the collection.
    pub command: String,
}

/// One puzzle.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Stable id: the source and a hash of the rules and the position.
    pub id: String,
    /// The position, `--board` text format on one line.
    pub board: String,
    /// Pit counts in pit-number order.
    pub pits: Vec<u8>,
    /// Own store.
    pub store: u8,
    /// Opponent's store.
    pub opponent_store: u8,
    /// Store to reach this turn: the proved best.
    pub goal_store: u32,
    /// The (first, in lexicographic order) pick sequence reaching the goal.
    pub solution: Line,
    /// Pick sequences that reach the goal, decimal string.
    pub solutions_count: String,
    /// Picks in the solution.
    pub length: usize,
    /// 1 (easy) to 5 (hard), see [`grade`].
    pub difficulty: u8,
    /// `start`, `line` or `game`.
    pub source: Source,
}

/// A collection file.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Collection {
    /// [`PUZZLES_FORMAT`], alone: not the shared [`format::Header`],
    /// whose `version` a collection has no place for. The tool's version is
    /// [`Generator::version`], beside the command that made the collection,
    /// where one looks to make it again; a second `version` at the top would
    /// say the same thing twice, would have to be optional for the
    /// collections written without it, and would change every file the
    /// recorded commands make, so they would no longer remake the committed
    /// collections byte for byte.
    pub format: String,
    /// Name of the collection.
    pub name: String,
    /// Rules of every puzzle in it.
    pub rules: Rules,
    /// What made it.
    pub generator: Generator,
    /// False when Ctrl-C stopped the generator: the puzzles found so far,
    /// kept so that running the same command again resumes. Absent (true)
    /// in a finished collection.
    #[serde(default = "finished", skip_serializing_if = "Clone::clone")]
    pub complete: bool,
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
}

fn finished() -> bool {
    true
}

impl Collection {
    /// How many puzzles of each grade, 1 to 5.
    pub fn grade_counts(&self) -> [usize; 5] {
        let mut grades = [0usize; 5];
        for p in &self.puzzles {
            grades[usize::from(p.difficulty.clamp(1, 5)) - 1] += 1;
        }
        grades
    }

    /// How many puzzles have exactly one solution.
    pub fn unique(&self) -> usize {
        self.puzzles
            .iter()
            .filter(|p| p.solutions_count == "1")
            .count()
    }

    /// Write the collection to `path` whole (pretty JSON).
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let json = serde_json::to_string_pretty(self).expect("a collection serializes") + "\n";
        format::write_atomic(path, json.as_bytes())
    }
}

/// The difficulty grade, 1 to 5, of a puzzle whose solution has `length`
/// picks, whose position has `first_picks` legal first picks and
/// `turns_total` complete turns.
///
/// The score is `length + 3 * log10(turns_total) + 4 * failing`, where
/// `failing` is the share of first picks that cannot reach the goal: long
/// solutions, big trees and few good first moves all make a puzzle harder.
/// The cut-points between grades were set from the score's quintiles over
/// the committed collections (see docs/commands.md).
pub fn grade(length: usize, first_picks: usize, turns_total: u128, solutions: u128) -> u8 {
    let good_first = solutions.min(first_picks as u128) as f64;
    let failing = if first_picks == 0 {
        0.0
    } else {
        1.0 - good_first / first_picks as f64
    };
    let score = length as f64 + 3.0 * (turns_total.max(1) as f64).log10() + 4.0 * failing;
    match score {
        s if s < GRADE_CUTS[0] => 1,
        s if s < GRADE_CUTS[1] => 2,
        s if s < GRADE_CUTS[2] => 3,
        s if s < GRADE_CUTS[3] => 4,
        _ => 5,
    }
}

/// Score thresholds between grades 1|2, 2|3, 3|4 and 4|5.
pub const GRADE_CUTS: [f64; 4] = [9.0, 14.0, 20.0, 28.0];

/// A stable id: the source, then 12 hex digits of an FNV-1a hash of the
/// rules and the position.
pub fn puzzle_id(source: Source, rules: Rules, board: &Board) -> String {
    let text = format!("{rules}|{}", board.one_line());
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}-{:012x}", source.name(), h & 0xffff_ffff_ffff)
}

/// Solve `board` and make a puzzle of it when the best score adds to the
/// store and is reached by exactly one pick sequence (or by any number when
/// `allow_many`). `None` when it is no puzzle or does not solve within
/// `seconds`.
pub fn make(
    board: &Board,
    rules: Rules,
    source: Source,
    allow_many: bool,
    seconds: f64,
    stop: &AtomicBool,
) -> Result<Option<Puzzle>> {
    if !board.can_move(rules) {
        return Ok(None);
    }
    let opts = SweepOptions {
        listing: Listing::Limit(1),
        seconds: Some(seconds),
        cancel: Some(stop),
        ..Default::default()
    };
    let s = match solve(board, rules, &opts) {
        Ok(s) => s,
        Err(e) if e.is_deadline() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if s.best_store <= board.store() as u32 || (s.optimal_count != 1 && !allow_many) {
        return Ok(None);
    }
    let solution = s.optimal[0].clone();
    let first_picks = board.legal_picks(rules).count();
    Ok(Some(Puzzle {
        id: puzzle_id(source, rules, board),
        board: board.one_line(),
        pits: board.pits(),
        store: board.store(),
        opponent_store: board.opponent_store(),
        goal_store: s.best_store,
        length: solution.len(),
        solution,
        solutions_count: s.optimal_count.to_string(),
        difficulty: grade(
            s.optimal[0].len(),
            first_picks,
            s.turns_total,
            s.optimal_count,
        ),
        source,
    }))
}

/// The position of a puzzle, read from its `pits` and stores (and checked
/// against its `board` text).
pub fn position(p: &Puzzle) -> Result<Board> {
    let bad = |source| PuzzleError::BadPosition {
        id: p.id.clone(),
        source,
    };
    let pits: Vec<u32> = p.pits.iter().map(|&c| c as u32).collect();
    let board = Board::from_pits(&pits, p.store as u32, p.opponent_store as u32).map_err(bad)?;
    let text: Board = p.board.parse().map_err(bad)?;
    if text != board {
        return Err(PuzzleError::BoardMismatch {
            id: p.id.clone(),
            board: p.board.clone(),
        });
    }
    Ok(board)
}

/// Re-solve every puzzle and compare: the goal, the solution (replayed, and
/// the first optimal sequence), the count, uniqueness when claimed, the
/// grade, the id. Returns one line per mismatch, naming the puzzle.
///
/// `progress(i, total, id)` is called before puzzle `i` (0-based) is
/// checked. When `stop` is raised the check ends with
/// [`PuzzleError::CheckInterrupted`], naming the puzzle it was on.
pub fn check(
    c: &Collection,
    seconds: f64,
    stop: &AtomicBool,
    progress: &dyn Fn(usize, usize, &str),
) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let total = c.puzzles.len();
    for (i, p) in c.puzzles.iter().enumerate() {
        progress(i, total, &p.id);
        let board = match position(p) {
            Ok(b) => b,
            Err(e) => {
                // Every error of `position` names the puzzle already.
                problems.push(e.to_string());
                continue;
            }
        };
        match turn::replay(board, c.rules, &p.solution.numbers()) {
            Ok(states) => {
                let end = states.last().expect("replay has a start state");
                if end.to_move() || end.board().store() as u32 != p.goal_store {
                    problems.push(format!(
                        "{}: the solution ends with {} in the store{}, not the goal {}",
                        p.id,
                        end.board().store(),
                        if end.to_move() {
                            " and the turn not over"
                        } else {
                            ""
                        },
                        p.goal_store
                    ));
                }
            }
            Err(e) => problems.push(format!("{}: the solution does not replay: {e}", p.id)),
        }
        let fresh = make(&board, c.rules, p.source, true, seconds, stop).map_err(|e| match e {
            PuzzleError::Search(e) if e.is_cancelled() => PuzzleError::CheckInterrupted {
                id: p.id.clone(),
                place: i + 1,
                total,
                problems: problems.len(),
            },
            e => e,
        })?;
        match fresh {
            None => problems.push(format!(
                "{}: the position is no puzzle (or did not solve in {seconds} s)",
                p.id
            )),
            Some(fresh) => {
                let fields = [
                    (
                        "goal_store",
                        fresh.goal_store.to_string(),
                        p.goal_store.to_string(),
                    ),
                    (
                        "solution",
                        format!("{:?}", fresh.solution.numbers()),
                        format!("{:?}", p.solution.numbers()),
                    ),
                    (
                        "solutions_count",
                        fresh.solutions_count.clone(),
                        p.solutions_count.clone(),
                    ),
                    ("length", fresh.length.to_string(), p.length.to_string()),
                    (
                        "difficulty",
                        fresh.difficulty.to_string(),
                        p.difficulty.to_string(),
                    ),
                    ("id", fresh.id.clone(), p.id.clone()),
                ];
                for (name, want, have) in fields {
                    if want != have {
                        problems.push(format!(
                            "{}: {name} is {have}, but solving gives {want}",
                            p.id
                        ));
                    }
                }
            }
        }
    }
    Ok(problems)
}

/// Read a collection file, checking its format.
pub fn load(path: &Path) -> Result<Collection, FileError> {
    let text = format::file::read(path)?;
    parse(&text).map_err(|reason| FileError::Foreign {
        path: path.to_path_buf(),
        reason,
    })
}

// The collections committed with the crate (`puzzles/*.json`), by the
// name the command line knows them by (the file's stem), avalanche first:
// `const COMMITTED: [(&str, &str); N]`, written by `build.rs` from the
// folder, embedded so that an installed binary has them without a clone
// (`puzzles list avalanche` and `serve` read no file for them), and every
// collection added to the folder is built in with no list to edit.
include!(concat!(env!("OUT_DIR"), "/committed_puzzles.rs"));

/// The names of the committed collections, in the order [`committed`]
/// gives them.
pub fn committed_names() -> Vec<&'static str> {
    COMMITTED.iter().map(|(name, _)| *name).collect()
}

/// Every committed collection, parsed (see [`COMMITTED`]).
pub fn committed() -> std::result::Result<Vec<Collection>, String> {
    COMMITTED.iter().map(|(_, text)| parse(text)).collect()
}

/// The committed collection called `name` (`avalanche`, `any-hole`, ...), or
/// `None` when no collection has that name.
pub fn committed_named(name: &str) -> Option<std::result::Result<Collection, String>> {
    COMMITTED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| parse(text))
}

/// Parse a collection from JSON text; the error says what is wrong.
pub fn parse(text: &str) -> std::result::Result<Collection, String> {
    format::parse_versioned(text, PUZZLES_FORMAT, "a puzzle collection").map_err(|e| match e {
        VersionError::Format { .. } => {
            format!("{e}: this is not a mancala-sweep puzzle collection of this version")
        }
        _ => e.to_string(),
    })
}

/// The puzzles of the collection at `path`, by id, to reuse when
/// generating into it again (an interrupted run resumes this way). Empty when
/// there is no file; an error when the file is not a collection or is one
/// for other rules, so that it is not overwritten by mistake.
///
/// A finished collection made by another command (another seed or count)
/// is refused too, unless `replace`: generating over it would silently
/// throw it away.
pub fn cache_from(
    path: &Path,
    rules: Rules,
    command: &str,
    replace: bool,
) -> Result<std::collections::HashMap<String, Puzzle>> {
    if !path.exists() {
        return Ok(Default::default());
    }
    let c = load(path).map_err(PuzzleError::Occupied)?;
    if c.rules != rules {
        return Err(PuzzleError::OtherRules {
            path: path.to_path_buf(),
            found: c.rules,
            wanted: rules,
        });
    }
    if c.complete && c.generator.command != command && !replace {
        return Err(PuzzleError::Finished {
            path: path.to_path_buf(),
            command: c.generator.command,
        });
    }
    Ok(c.puzzles.into_iter().map(|p| (p.id.clone(), p)).collect())
}

/// The puzzle `id` of a collection read from `path` (the first one when
/// `id` is `None`).
pub fn find<'a>(c: &'a Collection, id: Option<&str>, path: &Path) -> Result<&'a Puzzle> {
    match id {
        Some(id) => {
            c.puzzles
                .iter()
                .find(|p| p.id == id)
                .ok_or_else(|| PuzzleError::NoSuchPuzzle {
                    path: path.to_path_buf(),
                    id: id.to_string(),
                    example: c.puzzles.first().map(|p| p.id.clone()),
                })
        }
        None => c.puzzles.first().ok_or_else(|| PuzzleError::Empty {
            path: path.to_path_buf(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::generate::{flip, forced};
    use super::*;

    #[test]
    fn grades_grow_with_length_tree_and_failing_first_picks() {
        assert_eq!(grade(1, 1, 1, 1), 1);
        assert!(grade(30, 12, 1_000_000, 1) > grade(5, 12, 1_000_000, 1));
        assert!(grade(10, 12, 10u128.pow(9), 1) > grade(10, 12, 10, 1));
        assert_eq!(grade(60, 12, 10u128.pow(12), 1), 5);
    }

    #[test]
    fn flipping_twice_is_the_same_board() {
        let b: Board = "1 2 3 / 4 5 / 6 7 8".parse().unwrap();
        let f = flip(&b);
        assert_eq!(f.pits(), vec![3, 2, 1, 6, 7, 8]);
        assert_eq!(f.store(), 4);
        assert_eq!(flip(&f), b);
    }

    #[test]
    fn ids_are_stable_and_differ_by_position() {
        // Ids of puzzles in the committed collections (made by earlier
        // versions): a change of the hash would orphan every id in them.
        let any_hole =
            |text: &str| puzzle_id(Source::Start, Rules::ANY_HOLE, &text.parse().unwrap());
        assert_eq!(
            any_hole("3 3 3 3 3 / 0 0 / 3 3 3 3 3"),
            "start-dbaabce9d640"
        );
        assert_eq!(
            any_hole("4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4"),
            "start-65b876ac7338"
        );
        let line = "3 3 3 / 0 1 / 0 4 4".parse().unwrap();
        assert_eq!(
            puzzle_id(Source::Line, Rules::AVALANCHE, &line),
            "line-cb8f6f472328"
        );
    }

    #[test]
    fn puzzles_without_a_choice_are_forced() {
        let stop = AtomicBool::new(false);
        let made = |text: &str| {
            let board: Board = text.parse().unwrap();
            make(&board, Rules::AVALANCHE, Source::Line, true, 10.0, &stop)
                .unwrap()
                .unwrap()
        };
        // One stone next to the store: one legal pick, then none.
        assert!(forced(&made("0 0 0 / 0 0 / 0 0 1"), Rules::AVALANCHE));
        // Two pits to choose from at the first pick.
        assert!(!forced(&made("0 0 0 / 0 0 / 0 1 1"), Rules::AVALANCHE));
    }

    #[test]
    fn bad_collections_are_named() {
        assert!(parse("{").unwrap_err().contains("not valid JSON"));
        assert!(parse("{\"format\":\"mancala-sweep-puzzles/2\"}")
            .unwrap_err()
            .contains("is not"));
        assert!(parse("{\"format\":\"mancala-sweep-puzzles/1\"}")
            .unwrap_err()
            .contains("not a puzzle collection"));
    }
}
