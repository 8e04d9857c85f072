//! `puzzles play`: puzzles in the terminal, one after another, through the
//! same [`Session`] a web page would use.
//!
//! It reads picks (pit numbers, several to a line if you like) and words:
//! `h` a hint, `u` undo, `s` the solution, `r` restart, `n` the next puzzle,
//! `random` another puzzle of the list, `q` quit. After each pick it says what the pick did and shows the board;
//! a pick that leaves every solution is named at once. At the end it tells
//! how the session went. It reads and writes through the given streams, so
//! tests can drive it.

use super::session::{Outcome, Session, Tally};
use super::text::puzzle_text;
use super::{Collection, Puzzle, PuzzleError};
use crate::format::text::trace_text;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

/// Seconds a session may take to list a puzzle's solutions (for hints and
/// for naming a wrong pick at once); past it the puzzle still plays.
pub const LIST_SECONDS: f64 = 5.0;

/// What the player asked for after a puzzle.
enum Next {
    Puzzle,
    Random,
    Quit,
}

/// Play `puzzles` of `c` in order until they run out or the player quits
/// (or the input ends); returns how it went, which is also printed.
pub fn play(
    c: &Collection,
    puzzles: &[&Puzzle],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Tally, PuzzleError> {
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    // `random` need not repeat: seed from the clock.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = <super::Rng64 as rand::SeedableRng>::seed_from_u64(seed);
    let mut i = 0;
    while let Some(p) = puzzles.get(i) {
        let mut session = Session::new(c, p, LIST_SECONDS, &stop)?;
        let more = i + 1 < puzzles.len();
        let any = puzzles.len() > 1;
        match one(c, &mut session, more, any, input, out, &mut tally).map_err(term)? {
            Next::Puzzle => i += 1,
            Next::Random => {
                // Another puzzle than this one, any of the list.
                let j = rand::Rng::random_range(&mut rng, 0..puzzles.len() - 1);
                i = if j >= i { j + 1 } else { j };
            }
            Next::Quit => break,
        }
    }
    writeln!(
        out,
        "This session: {} solved, {} solved with help, {} failed {}, {} left unsolved.",
        tally.solved,
        tally.helped,
        tally.failed,
        if tally.failed == 1 { "try" } else { "tries" },
        tally.skipped
    )
    .map_err(term)?;
    Ok(tally)
}

/// A terminal error as the puzzle layer's.
fn term(e: std::io::Error) -> PuzzleError {
    PuzzleError::Terminal(e)
}

/// One puzzle until it is solved and left, skipped, or the player quits.
fn one(
    c: &Collection,
    s: &mut Session,
    more: bool,
    any: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> std::io::Result<Next> {
    let p = s.puzzle().clone();
    let start = *s.board();
    writeln!(out, "{}", puzzle_text(c, &p, &start))?;
    // The pits these rules let you pick: 1..n for own scope, 1..2n for any.
    let last = c.rules.scope.pits(start.pits_per_side()).count();
    writeln!(
        out,
        "Type pit numbers (1 to {last}), `h` for a hint, `u` to undo, `s` for the solution, `r` to restart, {}{}`q` to quit.",
        if more { "`n` for the next puzzle, " } else { "" },
        if any { "`random` for another one, " } else { "" }
    )?;
    let mut line = String::new();
    let mut done = false;
    loop {
        write!(out, "pick> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            if !done {
                tally.skipped += 1;
            }
            return Ok(Next::Quit);
        }
        for word in line.split_whitespace() {
            match word {
                "q" | "quit" => {
                    if !done {
                        tally.skipped += 1;
                    }
                    return Ok(Next::Quit);
                }
                "n" | "next" if more => {
                    if !done {
                        tally.skipped += 1;
                    }
                    return Ok(Next::Puzzle);
                }
                "random" if any => {
                    if !done {
                        tally.skipped += 1;
                    }
                    return Ok(Next::Random);
                }
                "s" | "solution" => {
                    writeln!(out, "Solution: {}", s.solution())?;
                    continue;
                }
                "h" | "hint" => {
                    match s.hint() {
                        Some(pit) => writeln!(out, "Hint: pick pit {pit}.")?,
                        None if s.knows_solutions() => writeln!(
                            out,
                            "No solution goes on from here: type `u` to undo or `r` to restart."
                        )?,
                        None => writeln!(
                            out,
                            "No hint: this puzzle's solutions take too long to list; `s` shows one."
                        )?,
                    }
                    continue;
                }
                "u" | "undo" => {
                    if s.undo() {
                        done = false;
                        writeln!(out, "Took back a pick.\n{}", s.board())?;
                    } else {
                        writeln!(out, "Nothing to undo.")?;
                    }
                    continue;
                }
                "r" | "restart" => {
                    s.restart();
                    done = false;
                    writeln!(out, "Back to the start.\n{start}")?;
                    continue;
                }
                _ => {}
            }
            let Ok(pick) = word.parse::<u32>() else {
                writeln!(
                    out,
                    "{word:?} is not a pit number: type 1 to {last}, or h, u, s, r, {}q",
                    if more { "n, " } else { "" }
                )?;
                break;
            };
            if done {
                writeln!(
                    out,
                    "The turn is over: type `r` to try again{}.",
                    if more {
                        ", `n` for the next puzzle"
                    } else {
                        ""
                    }
                )?;
                break;
            }
            let picked = match s.pick(pick) {
                Ok(picked) => picked,
                Err(e) => {
                    writeln!(out, "pick {pick}: {e}")?;
                    break;
                }
            };
            writeln!(
                out,
                "{}; store {}\n{}",
                trace_text(&picked.trace, picked.to_move),
                s.board().store(),
                s.board()
            )?;
            if picked.left_solutions {
                writeln!(
                    out,
                    "That pick (pick {}, pit {}) leaves every solution: the goal cannot be reached from here. Type `u` to take it back.",
                    picked.place, picked.pit
                )?;
            }
            if let Some(outcome) = picked.outcome {
                done = true;
                tally.add(outcome);
                let store = s.board().store();
                match outcome {
                    Outcome::Solved => writeln!(out, "Solved! {store} stones in your store.")?,
                    Outcome::Helped => {
                        writeln!(out, "Solved, with help: {store} stones in your store.")?
                    }
                    Outcome::Failed => {
                        write!(
                            out,
                            "Not solved: the turn ended with {store} in your store; the goal is {}.",
                            p.goal_store
                        )?;
                        if let Some((place, pit)) = s.left_at() {
                            write!(out, " It went wrong at pick {place} (pit {pit}).")?;
                        }
                        writeln!(
                            out,
                            " Type `r` to try again, `h` for a hint or `s` for the solution."
                        )?;
                    }
                }
                if outcome != Outcome::Failed {
                    if more {
                        writeln!(out, "Type `n` for the next puzzle or `q` to quit.")?;
                    } else {
                        writeln!(out, "That was the last puzzle.")?;
                        return Ok(Next::Quit);
                    }
                }
                break;
            }
        }
    }
}
