//! The solve JSON that the counting-only searches (`--spill`, `--cluster`)
//! are compared by, shared by their tests.

use mancala_sweep::format::SolveJson;
use mancala_sweep::sweep::exact::{solve, Listing, Solution, SweepOptions};
use mancala_sweep::{Board, Rules};

/// The JSON of a solution, without its wall-clock time.
pub fn json(mut s: Solution) -> String {
    s.seconds = 0.0;
    serde_json::to_string(&SolveJson::new(&s, 2)).unwrap()
}

/// The JSON of the search in memory, counts only.
pub fn in_memory(board: &Board, rules: Rules) -> String {
    let opts = SweepOptions {
        listing: Listing::Limit(0),
        ..Default::default()
    };
    json(solve(board, rules, &opts).unwrap())
}
