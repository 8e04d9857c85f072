//! Criterion benchmarks of the whole-game solver: the exact value of Kalah
//! from the start, with the solver's techniques switched on and off one at a
//! time, so that docs/notebook/game-solver.md's "What paid" is one command.
//!
//! Every configuration must find the same value, and Kalah(6,3) must be the
//! published +2 (the CMancala README, see `tests/data/game_values.txt`); a
//! configuration that disagrees stops the benchmark.
//!
//! Run with `cargo bench --bench game`.

use criterion::{criterion_group, criterion_main, Criterion};
use mancala_sweep::game::{solve, GameState, SolveOptions, Solver};
use mancala_sweep::Rules;
use std::sync::atomic::AtomicBool;

/// The configurations compared for Kalah(`pits`, `stones`): the default
/// as `game solve` sets it (its table's size for these stones, fitted to
/// the board, so the table has compact entries; without the cached
/// database, which is the command's, not the solver's), then one
/// technique off or changed.
fn configurations(pits: usize, stones: u32) -> Vec<(&'static str, SolveOptions)> {
    let total = 2 * pits as u32 * stones;
    let default = SolveOptions {
        table_bytes: solve::table_for(total),
        ..SolveOptions::default()
    }
    .fit_to(Rules::KALAH, pits, total);
    vec![
        ("default", default.clone()),
        (
            "wide_table",
            SolveOptions {
                max_stones: 0,
                ..default.clone()
            },
        ),
        (
            "no_etc",
            SolveOptions {
                etc: false,
                ..default.clone()
            },
        ),
        (
            "no_endgame_db",
            SolveOptions {
                endgame_stones: 0,
                ..default.clone()
            },
        ),
        (
            "endgame_db_16",
            SolveOptions {
                endgame_stones: 16,
                ..default.clone()
            },
        ),
        (
            "endgame_db_16_built",
            SolveOptions {
                endgame_stones: 16,
                endgame_build: true,
                ..default.clone()
            },
        ),
        (
            "deepening_4",
            SolveOptions {
                deepening: 4,
                ..default
            },
        ),
    ]
}

fn kalah(c: &mut Criterion) {
    let cancel = AtomicBool::new(false);
    for (pits, stones, known) in [(4usize, 4u32, None), (6, 3, Some(2))] {
        let start = GameState::start(pits, stones, Rules::KALAH).expect("a legal board");
        let mut value = known;
        let mut group = c.benchmark_group(format!("kalah_{pits}x{stones}"));
        group.sample_size(10);
        for (name, opts) in configurations(pits, stones) {
            group.bench_function(name, |b| {
                b.iter(|| {
                    // A fresh solver each time: the table starts empty.
                    let mut solver = Solver::new(Rules::KALAH, pits, opts.clone()).expect("fits");
                    let r = solver.solve(&start, &cancel);
                    assert!(r.exact);
                    assert_eq!(*value.get_or_insert(r.value), r.value, "{name} disagrees");
                    r.nodes
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, kalah);
criterion_main!(benches);
