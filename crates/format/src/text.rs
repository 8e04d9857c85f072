//! The text reports of `solve`, `find` and `replay`: the board diagrams of
//! [`rules::board`] with the answer around them, in plain words.

use rules::board::Cell;
use rules::pick::{Landing, PickTrace};
use rules::{Board, PickEnd, Pit, Rules, Turn};
use std::fmt::Write;
use sweep::{Found, Solution};

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
    let _ = writeln!(
        out,
        "Line ({} pick{}): {}",
        f.line.len(),
        if f.line.len() == 1 { "" } else { "s" },
        f.line
    );
    let _ = writeln!(
        out,
        "Replayed:   the line ends the turn with {} in the store",
        f.best_store
    );
    out
}

/// Numbers joined by spaces.
pub fn line_text(picks: &[u8]) -> String {
    picks
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a pick did, on one line: the pit and its stones, where each
/// sowing's last stone fell, each relay and capture, and how the turn goes
/// on: `pit 3 (5 stones) → pit 8, took up 6 → your store: free turn`.
pub fn trace_text(trace: &PickTrace, to_move: bool) -> String {
    trace_text_seen(trace, to_move, &|p| p, "your store")
}

/// [`trace_text`] told to someone across the board: `seen` renumbers the
/// picker's pits as the reader numbers them, and `store` names the
/// picker's store (`its store` for the computer in `game play`).
pub fn trace_text_seen(
    trace: &PickTrace,
    to_move: bool,
    seen: &dyn Fn(Pit) -> Pit,
    store: &str,
) -> String {
    let mut out = String::new();
    let first = &trace.sowings[0];
    let _ = write!(
        out,
        "pit {} ({} stone{})",
        seen(first.from),
        first.stones,
        if first.stones == 1 { "" } else { "s" }
    );
    for (i, sowing) in trace.sowings.iter().enumerate() {
        match sowing.last {
            Landing::Store => {
                let _ = write!(out, " → {store}");
            }
            Landing::Pit(pit, held) => {
                let _ = write!(out, " → pit {}", seen(pit));
                if let Some(next) = trace.sowings.get(i + 1) {
                    let _ = write!(out, ", took up {}", next.stones);
                } else if held == 0 {
                    out.push_str(" (empty)");
                }
            }
        }
    }
    match trace.capture {
        Some(c) if c.stones == 0 => {
            let _ = write!(
                out,
                ", captured it (pit {} opposite is empty)",
                seen(c.opposite)
            );
        }
        Some(c) => {
            let _ = write!(
                out,
                ", captured it and {} from pit {} opposite",
                c.stones,
                seen(c.opposite)
            );
        }
        None => {}
    }
    let how = match trace.end {
        PickEnd::FreeTurn if to_move => "free turn",
        PickEnd::FreeTurn => "free turn, but no pick is left",
        PickEnd::TurnOver => "the turn is over",
    };
    let _ = write!(out, ": {how}");
    out
}

/// The board after each pick of a replayed turn (`states[0]` is the
/// start), each pick told by [`trace_text`].
pub fn steps_text(states: &[Turn]) -> String {
    steps_text_in(states, false)
}

/// ANSI codes: bold yellow for the pit just picked, bold green for where
/// its last stone fell, and the reset.
const PICKED: &str = "\x1b[1;33m";
const LANDED: &str = "\x1b[1;32m";
const RESET: &str = "\x1b[0m";

/// [`steps_text`], in colour when `colour`: each diagram shows the pit
/// just picked and where the last stone of its last sowing fell.
pub fn steps_text_in(states: &[Turn], colour: bool) -> String {
    let mut out = String::new();
    for (i, t) in states.iter().enumerate().skip(1) {
        let trace = t.last_trace().expect("a pick was played");
        let picked = trace.sowings[0].from;
        let landed = match trace.sowings.last().expect("a pick sows").last {
            Landing::Store => Cell::Store,
            Landing::Pit(pit, _) => Cell::Pit(pit),
        };
        let board = if colour {
            t.board().diagram(&|cell, text| {
                if cell == landed {
                    format!("{LANDED}{text}{RESET}")
                } else if cell == Cell::Pit(picked) {
                    format!("{PICKED}{text}{RESET}")
                } else {
                    text
                }
            })
        } else {
            t.board().to_string()
        };
        let _ = writeln!(
            out,
            "pick {i}: {}; store {}\n{board}\n",
            trace_text(trace, t.to_move()),
            t.board().store(),
        );
    }
    out
}

/// The header shared by the text reports: rules and start board.
pub fn header(rules: Rules, start: &Board) -> String {
    format!("Rules: {rules}\nStart: {}\n{start}\n", start.one_line())
}

/// The text report of `solve`. `first` is the replay of the first optimal
/// sequence, shown pick by pick. With no sequence listed it ends with
/// "No sequences listed" and no newline, for the caller to say why.
pub fn solve_text(s: &Solution, threads: usize, first: Option<&[Turn]>) -> String {
    solve_text_in(s, threads, first, false)
}

/// [`solve_text`], its walk in colour when `colour` (see [`steps_text_in`]).
pub fn solve_text_in(s: &Solution, threads: usize, first: Option<&[Turn]>, colour: bool) -> String {
    let mut out = header(s.rules, &s.start);
    let _ = writeln!(out);
    out.push_str(&summary(s));
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
        let _ = write!(out, "\nNo sequences listed");
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
        let _ = writeln!(out, "  {:>width$}. {line}", i + 1);
    }
    if let Some(states) = first {
        let _ = writeln!(out, "\nThe first optimal sequence, pick by pick:\n");
        out.push_str(&steps_text_in(states, colour));
    }
    out
}

/// Where pit `pit` is, in words a player looking at the diagram uses: the
/// bottom row is yours, left to right; the top row is the opponent's, and
/// its pit numbers run right to left.
pub fn pit_words(pit: Pit, n: usize) -> String {
    let i = pit.number() as usize;
    let place = |k: usize| match k {
        1 => "leftmost".to_string(),
        k if k == n => "rightmost".to_string(),
        k => format!("{} from the left", ordinal(k)),
    };
    if n == 1 {
        return if i == 1 {
            "your only pit"
        } else {
            "their only pit"
        }
        .to_string();
    }
    if i <= n {
        format!("your {}", place(i))
    } else {
        format!("their {}, top row", place(2 * n + 1 - i))
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// The best turn in a few plain lines, for a player who wants to know what
/// to tap: the picks of the first optimal line (the first pit in words),
/// the store it ends with, and how many other lines do as well. `solve`
/// starts with it, and `solve --brief` prints only this.
pub fn summary(s: &Solution) -> String {
    let n = s.start.pits_per_side();
    let mut out = String::new();
    let ending = if s.sweep() {
        format!("all {} stones in your store: a sweep", s.total_stones)
    } else {
        format!(
            "{} of {} stones in your store",
            s.best_store, s.total_stones
        )
    };
    let Some(line) = s.optimal.first() else {
        let _ = writeln!(out, "Best turn: ends with {ending} (no sequence listed).");
        return out;
    };
    let picks = line.picks();
    if picks.is_empty() {
        let _ = writeln!(out, "Best turn: no pick, {ending}.");
        return out;
    }
    let rest: Vec<String> = picks[1..].iter().map(|p| p.to_string()).collect();
    let _ = write!(
        out,
        "Best turn: tap pit {} ({})",
        picks[0],
        pit_words(picks[0], n)
    );
    if !rest.is_empty() {
        let _ = write!(out, ", then {}", rest.join(", "));
    }
    let _ = writeln!(
        out,
        ": {} pick{}, ending with {ending}.",
        picks.len(),
        if picks.len() == 1 { "" } else { "s" }
    );
    if s.optimal_count > 1 {
        let _ = writeln!(
            out,
            "{} pick sequences reach {}; this is the first of them in pit order.",
            s.optimal_count, s.best_store
        );
    }
    out
}

/// The text report of `replay`.
pub fn replay_text(rules: Rules, states: &[Turn]) -> String {
    replay_text_in(rules, states, false)
}

/// [`replay_text`], in colour when `colour` (see [`steps_text_in`]).
pub fn replay_text_in(rules: Rules, states: &[Turn], colour: bool) -> String {
    let mut out = header(rules, states[0].board());
    out.push('\n');
    out.push_str(&steps_text_in(states, colour));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pits_are_named_as_the_diagram_shows_them() {
        let p = |i| Pit::new(i, 6).unwrap();
        assert_eq!(pit_words(p(6), 6), "your rightmost");
        assert_eq!(pit_words(p(1), 6), "your leftmost");
        assert_eq!(pit_words(p(3), 6), "your 3rd from the left");
        // Pit 12 is drawn top left, pit 7 top right.
        assert_eq!(pit_words(p(12), 6), "their leftmost, top row");
        assert_eq!(pit_words(p(7), 6), "their rightmost, top row");
        assert_eq!(pit_words(p(11), 6), "their 2nd from the left, top row");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
