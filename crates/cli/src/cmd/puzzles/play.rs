//! `puzzles play`: puzzles in the terminal, one after another, through the
//! same [`Session`] a web page would use. The session (what a pick did,
//! hints, undo, the tally) is the library's; this is only the terminal's
//! side of it, as `game play`'s loop is, so the library reads no terminal.
//!
//! It reads picks (pit numbers, several to a line if you like) and words:
//! `h` a hint, `u` undo, `s` the solution, `r` restart, `n` the next puzzle,
//! `random` another puzzle of the list, `q` quit. After each pick it says what the pick did and shows the board;
//! a pick that leaves every solution is named at once. At the end it tells
//! how the session went. It reads and writes through the given streams, so
//! tests can drive it.

use crate::errors::CliError;
use mancala_sweep::format::text::trace_text;
use mancala_sweep::puzzle::session::{Outcome, Session, Tally};
use mancala_sweep::puzzle::text::puzzle_text;
use mancala_sweep::puzzle::{Collection, Puzzle, Rng64};
use mancala_sweep::rules::Board;
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
) -> Result<Tally, CliError> {
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    // `random` need not repeat: seed from the clock.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = <Rng64 as rand::SeedableRng>::seed_from_u64(seed);
    let mut i = 0;
    while let Some(p) = puzzles.get(i) {
        let mut session = Session::new(c, p, LIST_SECONDS, &stop)?;
        let more = i + 1 < puzzles.len();
        let any = puzzles.len() > 1;
        match one(c, &mut session, more, any, input, out, &mut tally).map_err(CliError::Terminal)? {
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
    .map_err(CliError::Terminal)?;
    Ok(tally)
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
    let start = *s.board();
    writeln!(out, "{}", puzzle_text(c, s.puzzle(), &start))?;
    // The pits these rules let you pick: 1..n for own scope, 1..2n for any.
    let last = c.rules.scope.pits(start.pits_per_side()).count();
    writeln!(
        out,
        "Type pit numbers (1 to {last}), `h` for a hint, `u` to undo, `s` for the solution, `r` to restart, {}{}`q` to quit.",
        if more { "`n` for the next puzzle, " } else { "" },
        if any { "`random` for another one, " } else { "" }
    )?;
    let mut desk = Desk {
        s,
        more,
        any,
        last,
        start,
        done: false,
    };
    let mut line = String::new();
    loop {
        write!(out, "pick> ")?;
        out.flush()?;
        line.clear();
        let next = if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            Next::Quit
        } else {
            match desk.line(&line, out, tally)? {
                Some(next) => next,
                None => continue,
            }
        };
        // A puzzle left before its turn is over counts as unsolved.
        if !desk.done {
            tally.skipped += 1;
        }
        return Ok(next);
    }
}

/// A puzzle at the terminal: its session and what the prompts and the
/// answers to each word need.
struct Desk<'s> {
    s: &'s mut Session,
    /// Another puzzle follows this one (`n` is offered).
    more: bool,
    /// The list holds other puzzles (`random` is offered).
    any: bool,
    /// The highest pit number the rules let the player pick.
    last: usize,
    /// The puzzle's position, shown again on `r`.
    start: Board,
    /// The turn is over (solved or failed): picks wait for `u` or `r`.
    done: bool,
}

/// What a word the player typed leads to.
enum Then {
    /// The next word of the line.
    Read,
    /// Not the rest of the line: a mistake, or the turn is over, so that
    /// picks typed ahead are not played on a position the player did not
    /// expect.
    Drop,
    /// Leave the puzzle.
    Leave(Next),
}

impl Desk<'_> {
    /// The words of one line, in order; `Some` when one of them leaves the
    /// puzzle.
    fn line(
        &mut self,
        line: &str,
        out: &mut dyn Write,
        tally: &mut Tally,
    ) -> std::io::Result<Option<Next>> {
        for word in line.split_whitespace() {
            match self.word(word, out, tally)? {
                Then::Read => {}
                Then::Drop => break,
                Then::Leave(next) => return Ok(Some(next)),
            }
        }
        Ok(None)
    }

    /// One word: a command or a pit number.
    fn word(
        &mut self,
        word: &str,
        out: &mut dyn Write,
        tally: &mut Tally,
    ) -> std::io::Result<Then> {
        match word {
            "q" | "quit" => return Ok(Then::Leave(Next::Quit)),
            "n" | "next" if self.more => return Ok(Then::Leave(Next::Puzzle)),
            "random" if self.any => return Ok(Then::Leave(Next::Random)),
            "s" | "solution" => writeln!(out, "Solution: {}", self.s.solution())?,
            "h" | "hint" => match self.s.hint() {
                Some(pit) => writeln!(out, "Hint: pick pit {pit}.")?,
                None if self.s.knows_solutions() => writeln!(
                    out,
                    "No solution goes on from here: type `u` to undo or `r` to restart."
                )?,
                None => writeln!(
                    out,
                    "No hint: this puzzle's solutions take too long to list; `s` shows one."
                )?,
            },
            "u" | "undo" => {
                if self.s.undo() {
                    self.done = false;
                    writeln!(out, "Took back a pick.\n{}", self.s.board())?;
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            "r" | "restart" => {
                self.s.restart();
                self.done = false;
                writeln!(out, "Back to the start.\n{}", self.start)?;
            }
            _ => return self.pick(word, out, tally),
        }
        Ok(Then::Read)
    }

    /// A word that is no command: a pick if it is a pit number and the
    /// turn goes on.
    fn pick(
        &mut self,
        word: &str,
        out: &mut dyn Write,
        tally: &mut Tally,
    ) -> std::io::Result<Then> {
        let more = self.more;
        let Ok(pick) = word.parse::<u32>() else {
            writeln!(
                out,
                "{word:?} is not a pit number: type 1 to {}, or h, u, s, r, {}q",
                self.last,
                if more { "n, " } else { "" }
            )?;
            return Ok(Then::Drop);
        };
        if self.done {
            writeln!(
                out,
                "The turn is over: type `r` to try again{}.",
                if more {
                    ", `n` for the next puzzle"
                } else {
                    ""
                }
            )?;
            return Ok(Then::Drop);
        }
        let picked = match self.s.pick(pick) {
            Ok(picked) => picked,
            Err(e) => {
                writeln!(out, "pick {pick}: {e}")?;
                return Ok(Then::Drop);
            }
        };
        writeln!(
            out,
            "{}; store {}\n{}",
            trace_text(&picked.trace, picked.to_move),
            self.s.board().store(),
            self.s.board()
        )?;
        if picked.left_solutions {
            writeln!(
                out,
                "That pick (pick {}, pit {}) leaves every solution: the goal cannot be reached from here. Type `u` to take it back.",
                picked.place, picked.pit
            )?;
        }
        let Some(outcome) = picked.outcome else {
            return Ok(Then::Read);
        };
        self.done = true;
        tally.add(outcome);
        self.ended(outcome, out)
    }

    /// The turn is over: say how it went and what the player may type.
    fn ended(&mut self, outcome: Outcome, out: &mut dyn Write) -> std::io::Result<Then> {
        let store = self.s.board().store();
        match outcome {
            Outcome::Solved => writeln!(out, "Solved! {store} stones in your store.")?,
            Outcome::Helped => writeln!(out, "Solved, with help: {store} stones in your store.")?,
            Outcome::Failed => {
                write!(
                    out,
                    "Not solved: the turn ended with {store} in your store; the goal is {}.",
                    self.s.puzzle().goal_store
                )?;
                if let Some((place, pit)) = self.s.left_at() {
                    write!(out, " It went wrong at pick {place} (pit {pit}).")?;
                }
                writeln!(
                    out,
                    " Type `r` to try again, `h` for a hint or `s` for the solution."
                )?;
            }
        }
        if outcome != Outcome::Failed {
            if self.more {
                writeln!(out, "Type `n` for the next puzzle or `q` to quit.")?;
            } else {
                writeln!(out, "That was the last puzzle.")?;
                return Ok(Then::Leave(Next::Quit));
            }
        }
        Ok(Then::Drop)
    }
}
