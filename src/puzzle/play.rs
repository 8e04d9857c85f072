//! `puzzles play`: a puzzle in the terminal. It reads picks (pit numbers,
//! several to a line if you like), shows the board after each, and says
//! "solved" or where it went wrong; `s` shows the solution, `r` restarts and
//! `q` quits. It reads and writes through the given streams, so tests can
//! drive it.

use super::text::puzzle_text;
use super::{Collection, Puzzle};
use crate::rules::{Board, Turn};
use std::io::{BufRead, Write};

/// Play `p` (whose position is `board`) until it is solved, failed and
/// declined, or the input ends.
pub fn play(
    c: &Collection,
    p: &Puzzle,
    board: Board,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "{}", puzzle_text(c, p, &board))?;
    // The pits these rules let you pick: 1..n for own scope, 1..2n for any.
    let last = c.rules.scope.pits(board.pits_per_side()).count();
    writeln!(
        out,
        "Type pit numbers (1 to {last}), `s` for the solution, `r` to restart, `q` to quit."
    )?;
    let mut turn = Turn::new(board, c.rules);
    let mut line = String::new();
    loop {
        write!(out, "pick> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        for word in line.split_whitespace() {
            match word {
                "q" | "quit" => return Ok(()),
                "s" | "solution" => {
                    writeln!(out, "Solution: {}", p.solution)?;
                    continue;
                }
                "r" | "restart" => {
                    turn = Turn::new(board, c.rules);
                    writeln!(out, "Back to the start.\n{board}")?;
                    continue;
                }
                _ => {}
            }
            let Ok(pick) = word.parse::<u32>() else {
                writeln!(
                    out,
                    "{word:?} is not a pit number: type 1 to {last}, or s, r, q"
                )?;
                break;
            };
            if let Err(e) = turn.pick(pick) {
                writeln!(out, "pick {pick}: {e}")?;
                break;
            }
            writeln!(out, "{}\nstore {}", turn.board(), turn.board().store())?;
            if !turn.to_move() {
                let store = turn.board().store() as u32;
                if store >= p.goal_store {
                    writeln!(out, "Solved! {store} stones in your store.")?;
                    return Ok(());
                }
                writeln!(
                    out,
                    "Not solved: the turn ended with {store} in your store; the goal is {}. Type `r` to try again or `s` for the solution.",
                    p.goal_store
                )?;
                break;
            }
        }
    }
}
