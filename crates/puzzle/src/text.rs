//! A puzzle in words: its board, goal, grade and source, as `puzzles show`
//! and `puzzles play` print it.

use super::{Collection, Puzzle};
use format::text::header;
use rules::Board;
use std::fmt::Write;

/// A puzzle: its board, goal, grade and source.
pub fn puzzle_text(c: &Collection, p: &Puzzle, board: &Board) -> String {
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
        "Difficulty: {} of 5; {} solution{}, {} pick{}",
        p.difficulty,
        p.solutions_count,
        if p.solutions_count == "1" { "" } else { "s" },
        p.length,
        if p.length == 1 { "" } else { "s" }
    );
    out
}
