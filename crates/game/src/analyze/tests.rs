//! The analysis against the exact solver on small boards, with budgets
//! from one pick to unlimited.

use super::*;

use rand::{Rng, SeedableRng};
use rules::{Capture, Rules};

/// Every rule set the game layer plays, scope own and any.
fn rule_sets() -> Vec<Rules> {
    vec![
        Rules::KALAH,
        Rules {
            capture: Capture::Empty,
            ..Rules::KALAH
        },
        Rules::AVALANCHE,
        Rules::ANY_HOLE,
    ]
}

/// Positions reached by random whole turns from small starts.
fn positions(rules: Rules, seed: u64) -> Vec<GameState> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut out = Vec::new();
    for (n, stones) in [(3, 2), (3, 3), (4, 2)] {
        for _ in 0..4 {
            let mut g = GameState::start(n, stones, rules).unwrap();
            let turns = rng.random_range(0..4);
            for _ in 0..turns {
                let t = g.turns();
                if t.is_empty() {
                    break;
                }
                g = t[rng.random_range(0..t.len())].after;
            }
            if !g.is_over() {
                out.push(g);
            }
        }
    }
    out
}

fn exact_value(state: &GameState) -> i32 {
    let opts = SolveOptions::default().fit_to(
        state.rules(),
        state.pits_per_side(),
        state.stones_in_pits(),
    );
    let r = Solver::builder().options(opts).solve(state).unwrap();
    assert!(r.exact);
    r.value
}

/// The value of a turn for its mover, by the exact solver on the
/// position after it (a second path: no analysis involved).
fn turn_value(me: Side, after: &GameState) -> i32 {
    if after.is_over() {
        return after.store(me) as i32 - after.store(me.other()) as i32;
    }
    let v = exact_value(after);
    if after.mover() == me {
        v
    } else {
        -v
    }
}

fn analysis_of(state: &GameState, budget: Budget) -> Analysis {
    let opts = SolveOptions::default().fit_to(
        state.rules(),
        state.pits_per_side(),
        state.stones_in_pits(),
    );
    analyze(state, &opts, None, budget, &AtomicBool::new(false), None).unwrap()
}

/// With budget enough, every turn is proved and equals the exact
/// solver's value of the position after it; the best one equals
/// `game solve`'s value of the position; the line replays.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 30 s on 2 cores; cargo test --release runs it"
)]
fn a_full_analysis_proves_every_turn_as_the_solver_does() {
    for rules in rule_sets() {
        for state in positions(rules, 11) {
            let a = analysis_of(&state, Budget::Nodes(u64::MAX / 2));
            assert!(a.exact(), "{rules} {state:?}");
            assert_eq!(a.value(), exact_value(&state), "{rules} {state:?}");
            assert_eq!(a.turns.len(), state.turns().len());
            for t in &a.turns {
                assert!(t.exact);
                assert_eq!(
                    t.value,
                    turn_value(state.mover(), &t.after),
                    "{rules} {t:?}"
                );
            }
            assert!(a.turns.windows(2).all(|w| w[0].value >= w[1].value));
            // The principal variation replays to the end with the value.
            let mut g = state;
            for turn in &a.pv() {
                g.play_turn(turn).unwrap();
            }
            assert!(g.is_over(), "{rules} {:?}", a.pv());
            assert_eq!(
                g.store(state.mover()) as i32 - g.store(state.mover().other()) as i32,
                a.value()
            );
        }
    }
}

/// With small budgets, whatever is called exact is, and every bound
/// holds the exact value.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 3 s on 2 cores; cargo test --release runs it"
)]
fn a_short_analysis_never_claims_more_than_it_proved() {
    let budgets = [1, 5_000, 20_000, 60_000].map(Budget::Nodes);
    short_analyses_hold(1, 12, &budgets);
}

/// The same on two threads, where a helper proves the position beside
/// the estimates and ends them when it has the value: budgets of time,
/// which end anywhere in the three phases.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 4 s on 2 cores; cargo test --release runs it"
)]
fn a_short_analysis_on_two_threads_never_claims_more_than_it_proved() {
    let budgets = [0.002, 0.01, 0.05].map(Budget::Seconds);
    short_analyses_hold(2, 12, &budgets);
}

fn short_analyses_hold(threads: u32, seed: u64, budgets: &[Budget]) {
    for rules in rule_sets() {
        for state in positions(rules, seed) {
            // Each turn's exact value, by the solver on the position
            // after it, once for every budget.
            let exact: Vec<(GameState, i32)> = state
                .turns()
                .into_iter()
                .map(|t| (t.after, turn_value(state.mover(), &t.after)))
                .collect();
            let value = exact.iter().map(|e| e.1).max().unwrap();
            assert_eq!(value, exact_value(&state));
            for &budget in budgets {
                let opts = SolveOptions {
                    threads,
                    ..SolveOptions::default()
                }
                .fit_to(rules, state.pits_per_side(), state.stones_in_pits());
                let never = AtomicBool::new(false);
                let a = analyze(&state, &opts, None, budget, &never, None).unwrap();
                for t in &a.turns {
                    let v = exact.iter().find(|e| e.0 == t.after).unwrap().1;
                    assert!(
                        t.low <= v && v <= t.high,
                        "{rules} {budget:?} {t:?} exact {v}"
                    );
                    assert!(t.low <= t.value && t.value <= t.high);
                    if t.exact {
                        assert_eq!(t.value, v, "{rules} {budget:?} {t:?}");
                    }
                }
                if a.exact() {
                    assert_eq!(a.value(), value, "{rules} {budget:?}");
                }
            }
        }
    }
}

#[test]
fn a_budget_less_its_set_up_keeps_at_least_half() {
    let ms = Duration::from_millis;
    assert_eq!(Budget::Seconds(1.0).less(ms(250)), Budget::Seconds(0.75));
    assert_eq!(Budget::Seconds(1.0).less(ms(900)), Budget::Seconds(0.5));
    assert_eq!(Budget::Nodes(7).less(ms(900)), Budget::Nodes(7));
}

/// The same node budget on one thread gives the same answer twice.
#[test]
fn a_node_budget_repeats_exactly() {
    let state = GameState::start(6, 3, Rules::KALAH).unwrap();
    let a = analysis_of(&state, Budget::Nodes(200_000));
    let b = analysis_of(&state, Budget::Nodes(200_000));
    assert_eq!(a.turns, b.turns);
    assert_eq!(a.nodes, b.nodes);
}

#[test]
fn a_finished_game_is_refused() {
    // Pits 1..3 then 4..6 (the opponent's): the mover's row is empty.
    let board = rules::Board::from_pits(&[0, 0, 0, 1, 0, 0], 5, 2).unwrap();
    let state = GameState::new(board, Side::First, Rules::KALAH).unwrap();
    assert!(state.is_over());
    let e = analyze(
        &state,
        &SolveOptions::default(),
        None,
        Budget::Seconds(1.0),
        &AtomicBool::new(false),
        None,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("the game is over"), "{e}");
}

/// A solver kept through a game (as the static site's engine keeps
/// one) gives every turn the value a fresh one gives, and refuses a
/// position it was not made for.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 7 s on 2 cores; cargo test --release runs it"
)]
fn a_kept_solver_gives_the_values_of_a_fresh_one() {
    for rules in rule_sets() {
        let mut g = GameState::start(3, 3, rules).unwrap();
        let opts = SolveOptions {
            table_bytes: 1 << 20,
            ..SolveOptions::default()
        }
        .fit_to(rules, 3, g.stones_in_pits());
        let mut kept = Solver::new(rules, 3, opts).unwrap();
        let never = AtomicBool::new(false);
        while !g.is_over() {
            let a = analyze_on(&mut kept, &g, Budget::Nodes(u64::MAX), &never, None).unwrap();
            assert!(a.exact(), "{rules:?} {g:?}");
            for t in &a.turns {
                assert!(t.exact);
                assert_eq!(
                    t.value,
                    turn_value(g.mover(), &t.after),
                    "{rules:?} {g:?} {:?}",
                    t.picks
                );
            }
            // The best turn, then on with the same solver.
            g = a.turns[0].after;
        }
        let bigger = GameState::start(3, 4, rules).unwrap();
        assert!(!kept.takes(&bigger));
        assert!(analyze_on(&mut kept, &bigger, Budget::Nodes(1000), &never, None).is_err());
        let other = GameState::start(4, 1, rules).unwrap();
        assert!(!kept.takes(&other));
    }
}
