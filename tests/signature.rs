//! The quick tier's bench signature: a few searches small enough for
//! seconds, each checked against its known answer, and the nodes the game
//! solver searched for them on one thread, summed into one number, the
//! signature, as Stockfish's `bench` does. The answers are the check; the
//! signature tells, in seconds, that an edit changed how the solver
//! searches (its ordering, its pruning, its table) when it was meant to
//! change nothing. A change that is meant writes the new number in
//! `tests/data/signature.txt` and says why in its commit.
//!
//! `cargo test --release --test signature -- --nocapture` prints the table.

use mancala_sweep::game::solve::{self, SolveOptions};
use mancala_sweep::game::GameState;
use mancala_sweep::rules::{Board, Rules};
use mancala_sweep::sweep::{self, SweepOptions};
use std::time::Instant;

/// Whole games from the start, (rules, pits, stones, value), with the
/// value's source: tests/data/game_values.txt (CMancala's README for
/// Kalah(6,3); this tool and CMancala agreeing for avalanche).
const GAMES: &[(&str, usize, u32, i32)] = &[("kalah", 6, 3, 2), ("avalanche", 6, 2, 8)];

/// One-turn sweeps from the start, (rules, pits, stones, best store,
/// positions), from tests/data/known_answers.txt (seed 000 and issue 2:
/// avalanche 2×6×4 takes 43 with 9,591 pick positions).
const SWEEPS: &[(&str, usize, u32, u32, u64)] = &[("avalanche", 6, 4, 43, 9_591)];

fn rules(name: &str) -> Rules {
    name.parse::<mancala_sweep::Preset>()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .rules()
}

/// The recorded signature: the first number of `tests/data/signature.txt`.
fn recorded() -> u64 {
    include_str!("data/signature.txt")
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.parse().ok())
        .expect("tests/data/signature.txt holds a number")
}

#[test]
fn the_bench_signature_is_unchanged() {
    let mut signature = 0u64;
    println!(
        "{:<24} {:>8} {:>12} {:>9}",
        "case", "answer", "nodes", "seconds"
    );
    for &(name, pits, stones, value) in GAMES {
        let state = GameState::start(pits, stones, rules(name)).unwrap();
        // One thread: the nodes of a search on threads depend on timing.
        let opts = SolveOptions {
            threads: 1,
            table_bytes: 64 << 20,
            ..SolveOptions::default()
        }
        .fit_to(state.rules(), pits, state.stones_in_pits());
        let start = Instant::now();
        let r = solve::Solver::builder()
            .options(opts)
            .solve(&state)
            .unwrap();
        let case = format!("game {name} {pits}x{stones}");
        assert!(r.exact, "{case}: not proved");
        assert_eq!(r.value, value, "{case}: the published value");
        println!(
            "{case:<24} {:>8} {:>12} {:>9.2}",
            r.value,
            r.nodes,
            start.elapsed().as_secs_f64()
        );
        signature += r.nodes;
    }
    for &(name, pits, stones, best, positions) in SWEEPS {
        let board = Board::uniform(pits, stones).unwrap();
        let start = Instant::now();
        let s = sweep::solve(&board, rules(name), &SweepOptions::default()).unwrap();
        let case = format!("sweep {name} {pits}x{stones}");
        assert_eq!((s.best_store, s.positions), (best, positions), "{case}");
        println!(
            "{case:<24} {:>8} {:>12} {:>9.2}",
            s.best_store,
            s.positions,
            start.elapsed().as_secs_f64()
        );
        signature += s.positions;
    }
    println!("signature {signature}");
    assert_eq!(
        signature,
        recorded(),
        "the searches visit another number of nodes ({signature}, recorded {}): if the change \
         is meant, write {signature} in tests/data/signature.txt and say why in the commit",
        recorded()
    );
}
