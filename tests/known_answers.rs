//! Known answers: one driver reads `tests/data/known_answers.txt`, solves
//! every case with the library and compares. Every optimal line the solver
//! lists is replayed through the checked [`turn::replay`] path as well.

use mancala_sweep::rules::turn;
use mancala_sweep::sweep::exact::{solve, Listing, SweepOptions};
use mancala_sweep::{Board, Preset};

#[test]
fn known_answers_file() {
    let text = include_str!("data/known_answers.txt");
    let mut cases = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let preset: Preset = words[0].parse().unwrap();
        let board = Board::uniform(words[1].parse().unwrap(), words[2].parse().unwrap()).unwrap();
        let rules = preset.rules();
        let opts = SweepOptions {
            threads: 2,
            listing: Listing::Limit(20),
            ..Default::default()
        };
        let s = solve(&board, rules, &opts).unwrap();
        for kv in &words[3..] {
            let (k, v) = kv.split_once('=').unwrap();
            let got = match k {
                "best" => s.best_store.to_string(),
                "positions" => s.positions.to_string(),
                "turns" => s.turns_total.to_string(),
                "optimal" => s.optimal_count.to_string(),
                _ => panic!("line {}: unknown key {k}", i + 1),
            };
            assert_eq!(got, v, "line {}: {line}: {k}", i + 1);
        }
        assert_eq!(s.optimal.len() as u128, s.optimal_count.min(20));
        // The buckets' sizes add up to the positions, and none is above
        // the stones in play.
        assert_eq!(s.positions_by_store.iter().sum::<u64>(), s.positions);
        assert_eq!(s.positions_by_store.len(), s.total_stones as usize + 1);
        for l in &s.optimal {
            let picks: Vec<u32> = l.numbers();
            let end = turn::replay(board, rules, &picks).unwrap().pop().unwrap();
            assert!(
                !end.to_move(),
                "line {}: {picks:?} does not end the turn",
                i + 1
            );
            assert_eq!(
                end.board().store() as u32,
                s.best_store,
                "line {}: {picks:?}",
                i + 1
            );
        }
        cases += 1;
    }
    assert!(cases >= 9);
}

/// Seed 000's expected avalanche line replays to 43 and ends the turn, and it
/// is one of the optimal lines `solve` lists.
#[test]
fn seed_000_avalanche_line() {
    let line = [
        6, 3, 2, 5, 1, 1, 5, 5, 6, 1, 3, 4, 6, 2, 6, 6, 5, 2, 6, 2, 6, 4, 6, 5, 6, 1,
    ];
    let board = Board::uniform(6, 4).unwrap();
    let rules = Preset::Avalanche.rules();
    let end = turn::replay(board, rules, &line).unwrap().pop().unwrap();
    assert_eq!(end.board().store(), 43);
    assert!(!end.to_move());
    let s = solve(&board, rules, &SweepOptions::default()).unwrap();
    let listed: Vec<Vec<u32>> = s.optimal.iter().map(|l| l.numbers()).collect();
    assert!(listed.contains(&line.to_vec()));
}

/// The MATLAB blog's 30-pick line (seed 002), converted to this numbering,
/// sweeps all 48 under any-hole rules.
#[test]
fn seed_002_matlab_line_sweeps() {
    let line = [
        11, 2, 3, 5, 10, 2, 12, 8, 10, 2, 4, 10, 2, 6, 5, 6, 7, 6, 9, 6, 4, 6, 11, 6, 1, 6, 3, 6,
        5, 6,
    ];
    let board = Board::uniform(6, 4).unwrap();
    let states = turn::replay(board, Preset::AnyHole.rules(), &line).unwrap();
    let end = states.last().unwrap();
    assert_eq!(end.board().store(), 48);
    assert!(!end.to_move());
    assert!(end.board().pits().iter().all(|&c| c == 0));
}
