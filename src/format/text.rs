//! The text reports of `solve`, `find` and `replay`: the board diagrams of
//! [`crate::rules::board`] with the answer around them, in plain words.

use crate::rules::{Board, PickEnd, Rules, Turn};
use crate::search::{Found, Solution};
use std::fmt::Write;

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
    let _ = writeln!(out, "Line ({} picks): {}", f.line.len(), f.line);
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
pub(crate) fn header(rules: Rules, start: &Board) -> String {
    format!("Rules: {rules}\nStart: {}\n{start}\n", start.one_line())
}

/// The text report of `solve`. `first` is the replay of the first optimal
/// sequence, shown pick by pick. With no sequence listed it ends with
/// "No sequences listed" and no newline, for the caller to say why.
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
