//! Whole games: published values, a second and a third path to every exact
//! value of tiny games, agents that keep the rules, and matches that give
//! the same games on any number of threads.

use mancala_sweep::game::agent::{alphabeta_value, minimax_value};
use mancala_sweep::game::endgame::BuildProgress;
use mancala_sweep::game::matches::{self, GameRecord, MatchOptions};
use mancala_sweep::game::solve::{SolveOptions, Solver};
use mancala_sweep::game::{AgentSpec, EndgameDb, GameState, Horizon, Side};
use mancala_sweep::rules::{Board, Capture, Rules, Scope};
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

fn kalah(capture: Capture) -> Rules {
    Rules {
        scope: Scope::Own,
        relay: false,
        capture,
    }
}

/// Every rule set whose games are finite without a turn limit.
fn own_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for relay in [false, true] {
        for capture in Capture::ALL {
            v.push(Rules {
                scope: Scope::Own,
                relay,
                capture,
            });
        }
    }
    v
}

fn known_values(which: &str) -> usize {
    let mut ran = 0;
    for line in include_str!("data/game_values.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        if w[4] != which {
            continue;
        }
        let rules = match w[0] {
            "kalah" => kalah(Capture::Kalah),
            "empty" => kalah(Capture::Empty),
            "avalanche" => Rules::AVALANCHE,
            other => panic!("unknown capture {other}"),
        };
        let (pits, stones, value): (usize, u32, i32) = (
            w[1].parse().unwrap(),
            w[2].parse().unwrap(),
            w[3].parse().unwrap(),
        );
        let s = GameState::start(pits, stones, rules).unwrap();
        // As `game solve` sets the options: fitted to the board (compact
        // entries), with a table of 4 GiB for the slow lines.
        let opts = SolveOptions {
            table_bytes: if which == "slow" { 4 << 30 } else { 256 << 20 },
            memory_cap: 8 << 30,
            threads: 2,
            ..SolveOptions::default()
        }
        .fit_to(s.rules(), pits, s.stones_in_pits());
        // An endgame database file for these rules and pits, when one is
        // named (the others are refused by `load` and passed over).
        let db = std::env::var("MANCALA_SWEEP_ENDGAMES")
            .unwrap_or_default()
            .split(':')
            .filter(|p| !p.is_empty())
            .find_map(|p| EndgameDb::load(p.as_ref(), s.rules(), pits, opts.memory_cap).ok());
        let r = Solver::builder()
            .options(opts.clone())
            .endgame(db.as_ref())
            .solve(&s)
            .unwrap();
        assert!(r.exact);
        assert_eq!(r.value, value, "{line}");
        // The principal variation replays to the end with that result.
        let mut g = s;
        for t in &r.pv {
            g.play_turn(t).unwrap();
        }
        assert!(g.is_over(), "{line}: the principal variation ends the game");
        assert_eq!(g.first_minus_second(), value, "{line}: the PV's result");
        ran += 1;
    }
    ran
}

#[test]
fn published_values_small_enough_for_ci() {
    assert!(known_values("ci") > 0);
}

/// Threads sharing the search change the nodes searched, never the value
/// or the principal variation.
#[test]
fn threads_give_the_same_value_and_principal_variation() {
    let never = AtomicBool::new(false);
    let mut states = vec![
        GameState::start(6, 3, Rules::KALAH).unwrap(),
        GameState::start(5, 4, kalah(Capture::Empty)).unwrap(),
    ];
    for (i, pits) in [
        [3u32, 0, 5, 1, 2, 4, 0, 6, 2, 1],
        [0, 0, 9, 1, 1, 4, 7, 0, 0, 3],
    ]
    .iter()
    .enumerate()
    {
        let b = Board::from_pits(pits, i as u32, 2).unwrap();
        states.push(GameState::new(b, Side::First, Rules::KALAH).unwrap());
    }
    for s in states {
        let solve_with = |threads| {
            let opts = SolveOptions {
                threads,
                ..SolveOptions::default()
            }
            .fit_to(s.rules(), s.pits_per_side(), s.stones_in_pits());
            let mut solver = Solver::new(s.rules(), s.pits_per_side(), opts).unwrap();
            assert_eq!(solver.table_entries().1, 8, "the compact table");
            solver.solve(&s, &never)
        };
        let one = solve_with(1);
        for threads in [2, 3] {
            let more = solve_with(threads);
            assert!(one.exact && more.exact);
            assert_eq!(
                (more.value, &more.pv),
                (one.value, &one.pv),
                "{threads} threads"
            );
        }
    }
}

#[test]
#[ignore = "minutes to hours: run with --ignored (see docs/known-answers.md)"]
fn published_values_slow() {
    assert!(known_values("slow") > 0);
}

/// The value of every position by exhaustive memoised analysis over picks
/// (no pruning, no table of bounds): a path that shares nothing with the
/// solver but the rules engine.
fn exhaustive(s: &GameState, memo: &mut HashMap<Board, i32>) -> i32 {
    if s.is_over() {
        return s.mover_minus_opponent();
    }
    let b = s.board();
    if let Some(&v) = memo.get(&b) {
        return v;
    }
    let me = s.mover();
    let mut best = i32::MIN;
    for p in s.legal_picks() {
        let mut c = *s;
        c.play_pick(p.number() as u32).unwrap();
        let sub = exhaustive(&c, memo);
        let v = if c.mover() == me { sub } else { -sub };
        best = best.max(v);
    }
    memo.insert(b, best);
    best
}

/// All distributions of `total` stones over `pits` pits.
fn distributions(pits: usize, total: u32, out: &mut Vec<Vec<u32>>, cur: &mut Vec<u32>) {
    if cur.len() == pits - 1 {
        cur.push(total);
        out.push(cur.clone());
        cur.pop();
        return;
    }
    for k in 0..=total {
        cur.push(k);
        distributions(pits, total - k, out, cur);
        cur.pop();
    }
}

#[test]
fn every_position_of_tiny_boards_agrees_with_the_exhaustive_analysis() {
    let never = AtomicBool::new(false);
    let mut checked = 0;
    for rules in own_rules() {
        for (n, max_stones) in [(1usize, 8u32), (2, 7), (3, 5)] {
            // The 32-byte table, then the compact one (keyed by rank), made
            // small enough that entries are replaced and tags tell apart
            // the positions of a bucket.
            for (eg, table_bytes, max) in [
                (0, 1 << 20, 0),
                (4, 1 << 20, 0),
                (0, 1 << 10, max_stones),
                (4, 1 << 10, max_stones),
            ] {
                let opts = SolveOptions {
                    table_bytes,
                    endgame_stones: eg,
                    max_stones: max,
                    ..SolveOptions::default()
                };
                let mut solver = Solver::new(rules, n, opts).unwrap();
                assert_eq!(solver.table_entries().1, if max > 0 { 8 } else { 32 });
                let mut memo = HashMap::new();
                for total in 1..=max_stones {
                    let mut all = Vec::new();
                    distributions(2 * n, total, &mut all, &mut Vec::new());
                    for pits in all {
                        let b = Board::from_pits(&pits, 1, 2).unwrap();
                        let s = GameState::new(b, Side::First, rules).unwrap();
                        let want = exhaustive(&s, &mut memo);
                        let got = solver.solve(&s, &never);
                        assert!(got.exact);
                        assert_eq!(got.value, want, "{rules:?} {b:?} endgame {eg}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked} positions");
}

/// Negamax over whole turns to `depth`, the horizon scored as `horizon`
/// says, from `s`'s mover's view: the reference for `Solver::estimate`.
fn negamax_at(s: &GameState, depth: u32, horizon: Horizon) -> i32 {
    let me = s.mover();
    if s.is_over() {
        return s.mover_minus_opponent();
    }
    if depth == 0 {
        // The board is from the mover's view: their pits first.
        let n = s.pits_per_side();
        let pits: Vec<i32> = s.board().pits().into_iter().map(i32::from).collect();
        let mine = pits[..n].iter().sum::<i32>() - pits[n..].iter().sum::<i32>();
        return s.mover_minus_opponent()
            + match horizon {
                Horizon::Stores => 0,
                Horizon::Material => mine / 2,
            };
    }
    s.turns()
        .iter()
        .map(|t| {
            let v = negamax_at(&t.after, depth - 1, horizon);
            if t.after.mover() == me {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a game that is not over has a turn")
}

fn small_position() -> impl Strategy<Value = (Rules, Board)> {
    (1usize..=3, 0usize..6)
        .prop_flat_map(|(n, r)| {
            (
                Just(n),
                Just(r),
                proptest::collection::vec(0u32..=3, 2 * n),
                0u32..5,
                0u32..5,
            )
        })
        .prop_filter_map("a stone in play", |(_, r, pits, a, b)| {
            let board = Board::from_pits(&pits, a, b).ok()?;
            (board.stones_in_pits() > 0).then(|| (own_rules()[r], board))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Minimax over turns, alpha-beta over turns and the solver (MTD(f)
    /// over picks, with and without its endgame database and enhanced
    /// cutoffs) give the same exact value.
    #[test]
    fn minimax_alphabeta_and_mtdf_agree((rules, board) in small_position()) {
        let s = GameState::new(board, Side::First, rules).unwrap();
        let deep = 1000;
        let m = minimax_value(&s, deep);
        prop_assert_eq!(alphabeta_value(&s, deep), m);
        // The solver's floor under empty capture (`Solver::floor`): the
        // mover takes at least one of the stones left, by minimax.
        if rules.capture == Capture::Empty && !s.is_over() {
            prop_assert!(m - s.mover_minus_opponent() >= 2 - s.stones_in_pits() as i32);
        }
        for (etc, eg, max) in [(false, 0, 0), (true, 0, 0), (true, 6, 0), (true, 6, 30), (false, 0, 30)] {
            let opts = SolveOptions { table_bytes: 1 << 16, etc, endgame_stones: eg, max_stones: max, ..SolveOptions::default() };
            let r = Solver::builder().options(opts.clone()).solve(&s).unwrap();
            prop_assert!(r.exact);
            prop_assert_eq!(r.value, m);
        }
    }

    /// The solver's depth-limited estimate (MTD(f) over picks, in its
    /// table) is plain negamax over whole turns to the same depth with the
    /// same score at the horizon, for both horizons: the stores, and the
    /// stores plus half the stones' difference between the sides (as the
    /// analysis estimates capture games). Depths 1 to 3 on one table, so
    /// that entries of one depth must not answer for another.
    #[test]
    fn estimates_are_negamax_at_the_horizon((rules, board) in small_position()) {
        let never = AtomicBool::new(false);
        let s = GameState::new(board, Side::First, rules).unwrap();
        prop_assume!(!s.is_over());
        for horizon in [Horizon::Stores, Horizon::Material] {
            // No endgame database: its exact values would stand in for the
            // horizon's.
            let opts = SolveOptions { table_bytes: 1 << 16, endgame_stones: 0, ..SolveOptions::default() };
            let mut solver = Solver::new(rules, s.pits_per_side(), opts).unwrap();
            solver.set_horizon(horizon);
            for depth in 1..=3 {
                let want = negamax_at(&s, depth, horizon);
                if horizon == Horizon::Stores {
                    prop_assert_eq!(want, minimax_value(&s, depth));
                }
                prop_assert_eq!(solver.estimate(&s, depth, 0, &never), Some(want), "{:?} depth {}", horizon, depth);
            }
        }
    }

    /// Every agent plays only legal turns, under every rule set, from
    /// random positions (a match fails on an illegal turn).
    #[test]
    fn agents_keep_the_rules(scope_any in any::<bool>(), relay in any::<bool>(), cap in 0..Capture::ALL.len(), n in 2usize..=4, stones in 1u32..=3, seed in any::<u64>()) {
        let capture = Capture::ALL[cap];
        let rules = Rules { scope: if scope_any { Scope::Any } else { Scope::Own }, relay, capture };
        let start = GameState::start(n, stones, rules).unwrap();
        let opts = MatchOptions { games: 2, seed, opening_turns: 1, endgame: None };
        let never = AtomicBool::new(false);
        for (a, b) in [
            (AgentSpec::Random, AgentSpec::Greedy),
            (AgentSpec::Minimax(2), AgentSpec::AlphaBeta(3)),
            (AgentSpec::Mtdf(3), AgentSpec::Mcts(30)),
            (AgentSpec::MonteCarlo(20), AgentSpec::Random),
            (AgentSpec::GreedyPick, AgentSpec::Budget(1)),
        ] {
            let games = matches::run(&start, a, b, &opts, Vec::new(), &never, &|_| {});
            prop_assert!(games.is_ok(), "{} vs {}: {:?}", a, b, games.err());
        }
    }
}

fn without_times(games: &[GameRecord]) -> Vec<GameRecord> {
    games
        .iter()
        .map(|g| GameRecord {
            a_seconds: 0.0,
            b_seconds: 0.0,
            ..g.clone()
        })
        .collect()
}

#[test]
fn a_match_gives_the_same_games_on_one_thread_and_on_many() {
    let start = GameState::start(6, 3, Rules::KALAH).unwrap();
    let opts = MatchOptions {
        games: 12,
        seed: 7,
        opening_turns: 2,
        endgame: None,
    };
    let never = AtomicBool::new(false);
    let play = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            matches::run(
                &start,
                AgentSpec::Mcts(200),
                AgentSpec::AlphaBeta(3),
                &opts,
                Vec::new(),
                &never,
                &|_| {},
            )
        })
        .unwrap()
    };
    let one = without_times(&play(1));
    assert_eq!(one.len(), 12);
    assert_eq!(one, without_times(&play(3)));
    // Resuming from the first half gives the same games too.
    let half: Vec<_> = one[..6].to_vec();
    let resumed = matches::run(
        &start,
        AgentSpec::Mcts(200),
        AgentSpec::AlphaBeta(3),
        &opts,
        half,
        &never,
        &|_| {},
    )
    .unwrap();
    assert_eq!(without_times(&resumed), one);
}

/// Every game of a match of `a` against `b`, played to the end.
fn whole_match(
    start: &GameState,
    a: AgentSpec,
    b: AgentSpec,
    opts: &MatchOptions,
) -> Vec<GameRecord> {
    matches::run(
        start,
        a,
        b,
        opts,
        Vec::new(),
        &AtomicBool::new(false),
        &|_| {},
    )
    .unwrap()
}

#[test]
fn the_perfect_agent_never_loses_a_won_start() {
    // Kalah(4,3) is a first-player win by 6: perfect, moving first, wins
    // every game against anyone.
    let start = GameState::start(4, 3, Rules::KALAH).unwrap();
    let opts = MatchOptions {
        games: 20,
        seed: 3,
        opening_turns: 0,
        endgame: None,
    };
    for b in [
        AgentSpec::Random,
        AgentSpec::Mcts(300),
        AgentSpec::AlphaBeta(6),
    ] {
        let games = whole_match(&start, AgentSpec::Perfect, b, &opts);
        for g in games.iter().filter(|g| g.a_first) {
            assert!(
                g.value >= 6,
                "perfect moved first against {b} and got {}",
                g.value
            );
        }
    }
}

/// Perfect against perfect ends every game with the exact value of its
/// opening (solved on its own), with an endgame file or without one: the
/// file changes how fast `perfect` plays, never what it gets.
#[test]
fn perfect_agents_with_an_endgame_file_get_the_exact_value() {
    let dir = std::env::temp_dir().join(format!("ms-endgame-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kalah4.db");
    let never = AtomicBool::new(false);
    EndgameDb::build_file(
        &path,
        Rules::KALAH,
        4,
        10,
        1,
        1 << 30,
        &never,
        &BuildProgress::default(),
    )
    .unwrap();
    let db = EndgameDb::load(&path, Rules::KALAH, 4, 1 << 30).unwrap();
    let start = GameState::start(4, 3, Rules::KALAH).unwrap();
    for endgame in [None, Some(db)] {
        let opts = MatchOptions {
            games: 8,
            seed: 5,
            opening_turns: 2,
            endgame,
        };
        let games = whole_match(&start, AgentSpec::Perfect, AgentSpec::Perfect, &opts);
        assert_eq!(games.len(), 8);
        for g in &games {
            let (opening, _) = matches::opening(&start, opts.seed, g.game / 2, opts.opening_turns);
            let solve_opts = SolveOptions::default().fit_to(Rules::KALAH, 4, 24);
            let exact = Solver::builder()
                .options(solve_opts.clone())
                .solve(&opening)
                .unwrap();
            let first = match opening.mover() {
                Side::First => exact.value,
                Side::Second => -exact.value,
            };
            assert_eq!(g.value, first, "game {} from {}", g.game, opening.board());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An endgame database file built in two runs (up to 5 stones, then on to
/// 9 from the file) holds the same bytes as one built in one run, and a
/// solve with it finds the same value and principal variation as a solve
/// with the database filled on demand, under four rule sets on 3 and 4
/// pits a side.
#[test]
fn endgame_files_resume_and_solve_as_the_search_does() {
    let dir = std::env::temp_dir().join(format!("ms-endgame-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cancel = AtomicBool::new(false);
    for rules in [
        Rules::KALAH,
        Rules {
            capture: Capture::Empty,
            ..Rules::KALAH
        },
        Rules {
            capture: Capture::None,
            ..Rules::KALAH
        },
        Rules::AVALANCHE,
    ] {
        for (n, per_pit) in [(3usize, 3u32), (4, 2)] {
            let whole = dir.join("whole.db");
            let twice = dir.join("twice.db");
            let _ = std::fs::remove_file(&whole);
            let _ = std::fs::remove_file(&twice);
            let progress = BuildProgress::default();
            let one =
                EndgameDb::build_file(&whole, rules, n, 9, 1, 1 << 30, &cancel, &progress).unwrap();
            let positions = EndgameDb::bytes_for(n, 9);
            assert_eq!((progress.held(), progress.done()), (0, positions));
            assert_eq!((progress.total(), progress.layer()), (positions, 9));
            assert!(one.complete && one.resumed_from.is_none() && one.stones == Some(9));
            let progress = BuildProgress::default();
            EndgameDb::build_file(&twice, rules, n, 5, 2, 1 << 30, &cancel, &progress).unwrap();
            let two =
                EndgameDb::build_file(&twice, rules, n, 9, 2, 1 << 30, &cancel, &progress).unwrap();
            // The layers the file held count as done from the start.
            assert_eq!(progress.held(), EndgameDb::bytes_for(n, 5));
            assert_eq!(progress.done(), positions);
            assert_eq!(two.resumed_from, Some(5));
            assert_eq!(
                std::fs::read(&whole).unwrap(),
                std::fs::read(&twice).unwrap()
            );

            let db = EndgameDb::load(&twice, rules, n, 1 << 30).unwrap();
            assert_eq!(db.stones(), 9);
            let start = GameState::start(n, per_pit, rules).unwrap();
            let opts = SolveOptions::default().fit_to(rules, n, 2 * n as u32 * per_pit);
            let solver = || Solver::builder().options(opts.clone()).cancel(&cancel);
            let plain = solver().solve(&start).unwrap();
            let with = solver().endgame(Some(&db)).solve(&start).unwrap();
            assert!(plain.exact && with.exact);
            assert_eq!(
                (plain.value, &plain.pv),
                (with.value, &with.pv),
                "{rules:?} {n}"
            );
            // Another board size or rule set is refused, not misread.
            assert!(EndgameDb::load(&twice, rules, n + 1, 1 << 30).is_err());
        }
    }
    // Asked for no more than the file holds, a build only reads it.
    let r = EndgameDb::build_file(
        &dir.join("twice.db"),
        Rules::AVALANCHE,
        4,
        7,
        1,
        1 << 30,
        &cancel,
        &BuildProgress::default(),
    )
    .unwrap();
    assert_eq!((r.resumed_from, r.stones), (Some(9), Some(9)));
    // Stopped before its first layer, a build with no file writes none and
    // says that it holds nothing.
    let stopped = AtomicBool::new(true);
    let none = dir.join("none.db");
    let progress = BuildProgress::default();
    let r =
        EndgameDb::build_file(&none, Rules::KALAH, 4, 7, 1, 1 << 30, &stopped, &progress).unwrap();
    assert_eq!((r.stones, r.positions, r.complete), (None, 0, false));
    assert_eq!(progress.done(), 0, "built nothing");
    assert!(!none.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
