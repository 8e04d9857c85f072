//! `find` against `solve`: it never claims more than `solve` proves, every
//! line it returns replays to its claimed score, it finds sweeps where they
//! exist on small boards, and it is deterministic for a seed.

use mancala_sweep::rules::turn;
use mancala_sweep::sweep::beam::{find, FindOptions};
use mancala_sweep::sweep::exact::{solve, Listing, SweepOptions};
use mancala_sweep::{Board, Preset, Rules};
use proptest::prelude::*;

use crate::common::rules;

fn replayed_store(board: Board, rules: Rules, line: &mancala_sweep::Line) -> u32 {
    let end = turn::replay(board, rules, &line.numbers())
        .unwrap()
        .pop()
        .unwrap();
    assert!(!end.to_move(), "the line must be a complete turn");
    end.board().store() as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// With a fixed beam of 1 to 4 positions, find usually drops positions;
    /// it must still never beat the proved best, its line must replay to its
    /// claim, and a claim of exactness must be right.
    #[test]
    fn find_never_claims_more_than_solve(
        n in 1usize..=4,
        pits in prop::collection::vec(0u32..=3, 8),
        rules in rules(),
        beam in 1usize..=4,
        seed in any::<u64>(),
    ) {
        let board = Board::from_pits(&pits[..2 * n], 0, 0).unwrap();
        prop_assume!(board.can_move(rules));
        let proved = solve(&board, rules, &SweepOptions { listing: Listing::Limit(0), ..Default::default() }).unwrap();
        let found = find(&board, rules, &FindOptions { beam, widen: false, seed, seconds: 60.0, ..Default::default() }).unwrap();
        prop_assert!(found.best_store <= proved.best_store);
        prop_assert_eq!(replayed_store(board, rules, &found.line), found.best_store);
        if found.exact {
            prop_assert_eq!(found.best_store, proved.best_store);
        }
    }
}

#[test]
fn find_sweeps_small_boards_where_a_sweep_exists() {
    for (n, stones) in [(6, 3), (5, 4), (4, 2), (3, 3)] {
        let board = Board::uniform(n, stones).unwrap();
        let rules = Preset::AnyHole.rules();
        let proved = solve(
            &board,
            rules,
            &SweepOptions {
                listing: Listing::Limit(0),
                ..Default::default()
            },
        )
        .unwrap();
        let found = find(
            &board,
            rules,
            &FindOptions {
                seconds: 120.0,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(found.best_store, proved.best_store, "2x{n}x{stones}");
        if proved.sweep() {
            assert!(found.sweep() && found.exact, "2x{n}x{stones}");
        }
        assert_eq!(replayed_store(board, rules, &found.line), found.best_store);
    }
}

#[test]
fn find_reaches_the_proved_avalanche_best() {
    let board = Board::uniform(6, 4).unwrap();
    let found = find(
        &board,
        Rules::AVALANCHE,
        &FindOptions {
            seconds: 120.0,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(found.best_store, 43);
    assert!(found.exact);
}

#[test]
fn find_is_deterministic_for_a_seed_and_the_same_for_any_thread_count() {
    let board = Board::uniform(6, 4).unwrap();
    let run = |threads, seed| {
        let opts = FindOptions {
            threads,
            seed,
            seconds: 120.0,
            ..Default::default()
        };
        find(&board, Rules::ANY_HOLE, &opts).unwrap()
    };
    let a = run(1, 7);
    let b = run(2, 7);
    assert!(a.sweep());
    assert_eq!(a.line, b.line);
    assert_eq!(a.positions, b.positions);
    assert_eq!(run(2, 7).line, b.line);
}

#[test]
fn a_fixed_beam_runs_one_round() {
    let board = Board::uniform(6, 4).unwrap();
    let opts = FindOptions {
        beam: 3,
        widen: false,
        ..Default::default()
    };
    let found = find(&board, Rules::ANY_HOLE, &opts).unwrap();
    assert_eq!(found.rounds, 1);
    assert_eq!(found.beam, 3);
    assert!(found.positions <= 3 * 49);
    assert_eq!(
        replayed_store(board, Rules::ANY_HOLE, &found.line),
        found.best_store
    );
}
