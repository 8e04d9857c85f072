//! The solver's unit tests: the table's layouts and keys, the move
//! ordering, a cancelled zeroing.

use super::search::*;
use super::table::*;
use super::*;
use crate::state::flip_cells;
use rules::pick::{self, PickEnd};
use rules::Capture;

#[test]
fn a_table_fits_the_board() {
    let opts = SolveOptions::default();
    // 3 pits a side, 12 stones: C(18, 6) = 18,564 positions, a table of
    // twice as many entries, not 256 MiB.
    let small = opts.clone().fit_to(Rules::KALAH, 3, 12);
    assert_eq!(small.table_bytes, 2 * 18_564 * ENTRY_BYTES);
    // Scope any keys the turn count too.
    let any = opts.clone().fit_to(Rules::ANY_HOLE, 3, 12);
    assert_eq!(any.table_bytes, 2 * 18_564 * 201 * ENTRY_BYTES);
    // Kalah(6,4) can fill more than the default: left alone.
    let big = opts.clone().fit_to(Rules::KALAH, 6, 48);
    assert_eq!((big.table_bytes, big.max_stones), (opts.table_bytes, 48));
    // Deepening for a first guess where nothing is captured, not otherwise,
    // and never over one that is set.
    assert_eq!(opts.clone().fit_to(Rules::AVALANCHE, 6, 48).deepening, 2);
    assert_eq!(opts.clone().fit_to(Rules::KALAH, 6, 48).deepening, 0);
    let set = SolveOptions {
        deepening: 4,
        ..opts.clone()
    };
    assert_eq!(set.fit_to(Rules::AVALANCHE, 6, 48).deepening, 4);
    // The same value with the fitted table as with the default one.
    let start = GameState::start(3, 4, Rules::KALAH).unwrap();
    let cancel = AtomicBool::new(false);
    let solve = |opts: SolveOptions| {
        Solver::builder()
            .options(opts)
            .cancel(&cancel)
            .solve(&start)
    };
    let fitted = solve(opts.clone().fit_to(Rules::KALAH, 3, 24)).unwrap();
    let full = solve(opts.clone()).unwrap();
    assert!(fitted.exact && full.exact);
    assert_eq!(fitted.value, full.value);
    assert_eq!(fitted.pv, full.pv);
}

/// Without relay, [`order_score`] counts a pick's gain without playing
/// it: it must be what playing the pick puts in the store, for every
/// capture rule and both scopes, laps around the board included.
#[test]
fn order_score_counts_the_gain_of_a_pick() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(14);
    for capture in Capture::ALL {
        for scope in [Scope::Own, Scope::Any] {
            let rules = Rules {
                scope,
                relay: false,
                capture,
            };
            for _ in 0..20_000 {
                let n = rng.random_range(1..=6);
                let len = 2 * n + 1;
                let mut pos: PitCounts = [0; CYCLE_CAP];
                for (i, c) in pos[..len].iter_mut().enumerate() {
                    if i != n {
                        *c = rng.random_range(0..=3 * len as u8);
                    }
                }
                let top = if scope == Scope::Any { len } else { n };
                for from in (0..top).filter(|&f| f != n && pos[f] > 0) {
                    let mut c = pos;
                    let end = pick::play(&mut c[..len], from, rules);
                    let want = if end == PickEnd::FreeTurn {
                        (1 << 16) + from as i32
                    } else {
                        c[n] as i32 * 64 + from as i32
                    };
                    assert_eq!(order_score(&pos, from, n, rules), want, "{pos:?} {from}");
                }
            }
        }
    }
}

/// A cancel flag set before the table is zeroed stops the solve before
/// it zeroes 1 GiB: no picks, the bounds of the stones in the pits.
#[test]
fn cancel_stops_the_zeroing() {
    let start = GameState::start(6, 4, Rules::KALAH).unwrap();
    let opts = SolveOptions {
        table_bytes: 1 << 30,
        ..SolveOptions::default()
    }
    .fit_to(Rules::KALAH, 6, 48);
    let cancel = AtomicBool::new(true);
    let r = Solver::builder()
        .options(opts.clone())
        .cancel(&cancel)
        .solve(&start)
        .unwrap();
    assert!(r.cancelled && !r.exact);
    assert_eq!((r.nodes, r.lower, r.upper), (0, -48, 48));
}

#[test]
fn mix_bits_is_a_bijection() {
    for bits in 1..=14 {
        let mut seen = vec![false; 1 << bits];
        for x in 0..1u64 << bits {
            let y = mix_bits(x, bits) as usize;
            assert!(!seen[y], "{bits} bits: {x} collides");
            seen[y] = true;
        }
    }
}

/// In the compact table no two positions share a bucket and a tag: the
/// key of every position of 2 pits a side with up to 9 stones, for
/// tables from one bucket up, is distinct, and positions with more
/// stones than the ranks cover are not kept.
#[test]
fn compact_keys_never_collide() {
    let n = 2;
    for table_bytes in [64, 1 << 10, 1 << 16] {
        let opts = SolveOptions {
            table_bytes,
            endgame_stones: 0,
            max_stones: 9,
            ..SolveOptions::default()
        };
        let solver = Solver::new(Rules::KALAH, n, opts).unwrap();
        let Table::Compact(t) = &solver.table else {
            panic!("not compact")
        };
        let mut seen = std::collections::HashSet::new();
        let mut pos: PitCounts = [0; CYCLE_CAP];
        for code in 0..10u32.pow(4) {
            let pits = [code % 10, code / 10 % 10, code / 100 % 10, code / 1000];
            (pos[0], pos[1], pos[3], pos[4]) =
                (pits[0] as u8, pits[1] as u8, pits[2] as u8, pits[3] as u8);
            let k = solver.key(&pos, 0);
            if pits.iter().sum::<u32>() > 9 {
                assert_eq!(k, UNKEPT);
                continue;
            }
            let (slot, tag) = (solver.slot(k), k.0 >> t.index_bits);
            assert!(tag < 1 << TAG_BITS);
            assert!(seen.insert((slot, tag)), "{pits:?}");
        }
        assert_eq!(seen.len(), 715); // C(9 + 4, 4)
    }
}

/// A packed entry unpacks to what was packed, bounds at both ends.
#[test]
fn compact_entries_round_trip() {
    for (lo, hi, best, work, depth) in [
        (-127, 127, NO_MOVE, 63, TO_THE_END),
        (0, 0, 15, 0, 1),
        (-3, 5, 0, 17, 12),
    ] {
        let e = Entry {
            k0: 0,
            k1: 0,
            lo,
            hi,
            best,
            work,
            depth,
        };
        let tag = (1 << TAG_BITS) - 1;
        let u = CompactTable::unpack(CompactTable::pack(tag, &e));
        assert_eq!(
            (u.k0, u.lo, u.hi, u.best, u.work, u.depth),
            (tag, lo, hi, best, work, depth)
        );
    }
}

/// A budget of picks bounds the deepening (the `hard` level's turn from
/// avalanche's start took minutes at a fixed depth of 12), the turn found
/// is legal and the same from a fresh solver (no clock decides), and a
/// budget that is never reached goes the whole depth.
#[test]
fn a_budget_of_picks_bounds_the_deepening() {
    let never = AtomicBool::new(false);
    let start = GameState::start(6, 4, Rules::AVALANCHE).unwrap();
    let opts = SolveOptions {
        table_bytes: 32 << 20,
        endgame_stones: 0,
        ..SolveOptions::default()
    }
    .fit_to(Rules::AVALANCHE, 6, 48);
    let budget = 100_000;
    let mut turns = Vec::new();
    for _ in 0..2 {
        let mut solver = Solver::new(Rules::AVALANCHE, 6, opts.clone()).unwrap();
        let (_, turn, depth) = solver.best_turn_within(&start, 12, budget, &never);
        assert!((1..12).contains(&depth), "depth {depth}");
        // The budget is checked every 4,096 picks.
        assert!(solver.nodes() <= budget + 4096, "{} picks", solver.nodes());
        let mut s = start;
        s.play_turn(&turn).unwrap();
        assert_ne!(s.mover(), start.mover(), "a whole turn: {turn:?}");
        turns.push(turn);
    }
    assert_eq!(turns[0], turns[1]);
    // Kalah(3,2): twelve turns deep within far less than the budget.
    let small = GameState::start(3, 2, Rules::KALAH).unwrap();
    let mut solver = Solver::new(Rules::KALAH, 3, SolveOptions::default()).unwrap();
    let (_, turn, depth) = solver.best_turn_within(&small, 12, 10_000_000, &never);
    assert_eq!(depth, 12);
    assert!(!turn.is_empty());
}

/// Kalah(4,4)'s start, the options of the two budget tests below (one
/// thread, 32 MiB) and its solve without a budget.
fn kalah_4_4_unbudgeted() -> (GameState, SolveOptions, GameSolveResult) {
    let start = GameState::start(4, 4, Rules::KALAH).unwrap();
    let opts = SolveOptions {
        table_bytes: 32 << 20,
        threads: 1,
        ..SolveOptions::default()
    };
    let whole = Solver::new(Rules::KALAH, 4, opts.clone())
        .unwrap()
        .solve(&start, &AtomicBool::new(false));
    (start, opts, whole)
}

/// A budgeted solve that proves its value gives the first turn of the
/// line whatever the budget, and the rest of the line only within it: with
/// a budget of picks that the proof just fits in, the value is exact and
/// the line a shorter prefix of the unbudgeted one (Kalah(4,4), whose line
/// after the proof takes more picks than two of the budget's checks apart,
/// as asserted).
#[test]
fn a_budget_cuts_the_line_short_not_the_value() {
    let never = AtomicBool::new(false);
    let (start, opts, whole) = kalah_4_4_unbudgeted();
    assert!(whole.exact && whole.pv.len() > 2, "{whole:?}");
    // The budget is checked every 4,096 picks: the line needs more.
    assert!(whole.nodes > whole.value_nodes + 2 * 4096, "{whole:?}");
    let mut solver = Solver::new(Rules::KALAH, 4, opts).unwrap();
    solver.set_limits(Some(whole.value_nodes + 1), None);
    let cut = solver.solve(&start, &never);
    assert!(cut.exact);
    assert_eq!(cut.value, whole.value);
    assert_eq!(cut.best_turn, whole.best_turn);
    assert!(
        !cut.pv.is_empty() && cut.pv.len() < whole.pv.len(),
        "{:?}",
        cut.pv
    );
    assert_eq!(cut.pv[..], whole.pv[..cut.pv.len()]);
}

/// Under [`Solver::set_limits_within`] the best turn of a value proved at
/// the budget's end is looked for within the budget too: the value is the
/// same as under [`Solver::set_limits`], and the turn and line are the
/// unbudgeted ones cut short, down to none. With the budget the proof just
/// fits in (Kalah(4,4), as the test above) `set_limits` still gives the
/// turn, `set_limits_within` does not (its search takes more picks than
/// the budget's checks leave, as asserted there).
#[test]
fn limits_within_cut_the_turn_too() {
    let never = AtomicBool::new(false);
    let (start, opts, whole) = kalah_4_4_unbudgeted();
    let mut solver = Solver::new(Rules::KALAH, 4, opts.clone()).unwrap();
    solver.set_limits_within(Some(whole.value_nodes + 1), None);
    let cut = solver.solve(&start, &never);
    assert!(cut.exact);
    assert_eq!(cut.value, whole.value);
    assert!(cut.best_turn.is_empty() && cut.pv.is_empty(), "{cut:?}");
    // With more budget the turn and line come back, a prefix of the whole.
    let mut solver = Solver::new(Rules::KALAH, 4, opts).unwrap();
    solver.set_limits_within(Some(whole.nodes), None);
    let more = solver.solve(&start, &never);
    assert_eq!(more.best_turn, whole.best_turn);
    assert_eq!(more.pv[..], whole.pv[..more.pv.len()]);
}

/// MTD(f)'s first guess changes how many passes a proof takes, never what
/// it proves: from any guess, in range or not, [`Solver::solve_near`] gives
/// [`Solver::solve`]'s value, best turn and line (on a fresh table each, so
/// that neither reuses the other's bounds), for both capture rules and
/// avalanche.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 8 s on 2 cores; cargo test --release runs it"
)]
fn a_first_guess_changes_the_passes_not_the_answer() {
    let never = AtomicBool::new(false);
    let kalah_empty = Rules {
        capture: Capture::Empty,
        ..Rules::KALAH
    };
    for (rules, n, stones) in [
        (Rules::KALAH, 4, 3),
        (kalah_empty, 4, 3),
        (Rules::AVALANCHE, 4, 3),
    ] {
        let start = GameState::start(n, stones, rules).unwrap();
        let mut positions = vec![start];
        positions.extend(start.turns().into_iter().map(|t| t.after).take(3));
        for state in positions.iter().filter(|s| !s.is_over()) {
            let opts = SolveOptions {
                threads: 1,
                ..SolveOptions::default()
            }
            .fit_to(rules, n, state.stones_in_pits());
            let plain = Solver::new(rules, n, opts.clone())
                .unwrap()
                .solve(state, &never);
            assert!(plain.exact);
            let s = state.stones_in_pits() as i32 + state.mover_minus_opponent().abs();
            for guess in [
                -1000,
                -s,
                plain.value - 3,
                plain.value,
                plain.value + 5,
                s,
                1000,
            ] {
                let near = Solver::new(rules, n, opts.clone())
                    .unwrap()
                    .solve_near(state, guess, &never);
                assert!(near.exact, "{rules} {state:?} guess {guess}");
                assert_eq!(near.value, plain.value, "{rules} {state:?} guess {guess}");
                assert_eq!(
                    near.best_turn, plain.best_turn,
                    "{rules} {state:?} guess {guess}"
                );
                assert_eq!(near.pv, plain.pv, "{rules} {state:?} guess {guess}");
            }
        }
    }
}

/// A solve stopped before its root is proved leaves proven bounds in the
/// table on positions it went through ([`Solver::proven_bounds`]): after
/// a stopped solve of Kalah(4,4)'s start and of avalanche 5×3's, every
/// turn's bounds that the table holds contain the exact value of the
/// position after it (by a fresh solver), and some of them say more than
/// the stones left do.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow: about 3 s on 2 cores; cargo test --release runs it"
)]
fn a_stopped_solve_leaves_proven_bounds_in_the_table() {
    let never = AtomicBool::new(false);
    for (rules, n, stones) in [(Rules::KALAH, 4, 4), (Rules::AVALANCHE, 5, 3)] {
        let start = GameState::start(n, stones, rules).unwrap();
        let opts = SolveOptions {
            table_bytes: 32 << 20,
            threads: 1,
            ..SolveOptions::default()
        };
        let whole = Solver::new(rules, n, opts.clone())
            .unwrap()
            .solve(&start, &never);
        assert!(whole.exact);
        let mut solver = Solver::new(rules, n, opts.clone()).unwrap();
        solver.set_limits(Some(whole.value_nodes / 2), None);
        let stopped = solver.solve(&start, &never);
        assert!(
            !stopped.exact,
            "{rules}: half of {} picks proved it",
            whole.value_nodes
        );
        let mut informative = 0;
        for t in start.turns() {
            let Some((lo, hi)) = solver.proven_bounds(&t.after) else {
                continue;
            };
            let exact = if t.after.is_over() {
                t.after.mover_minus_opponent()
            } else {
                let r = Solver::new(rules, n, opts.clone())
                    .unwrap()
                    .solve(&t.after, &never);
                assert!(r.exact);
                r.value
            };
            assert!(
                lo <= exact && exact <= hi,
                "{rules} {:?}: {lo}..{hi} against {exact}",
                t.picks
            );
            let left = t.after.stones_in_pits() as i32;
            let now = t.after.mover_minus_opponent();
            if lo > now - left || hi < now + left {
                informative += 1;
            }
        }
        assert!(informative > 0, "{rules}: no turn's bounds in the table");
    }
}

/// A position within the endgame database has its proven value there, not
/// in the table: after a solve of a 12-stone start (the whole game inside
/// the default 12-stone database), the turns of the start have their
/// values as bounds that meet, equal to what a solver without a database
/// finds.
#[test]
fn proven_bounds_read_the_endgame_database() {
    let never = AtomicBool::new(false);
    for rules in [Rules::KALAH, Rules::AVALANCHE] {
        let start = GameState::start(3, 2, rules).unwrap();
        let opts = SolveOptions {
            table_bytes: 8 << 20,
            threads: 1,
            ..SolveOptions::default()
        };
        assert!(opts.endgame_stones >= 12);
        let mut solver = Solver::new(rules, 3, opts.clone()).unwrap();
        assert!(solver.solve(&start, &never).exact);
        let plain = SolveOptions {
            endgame_stones: 0,
            ..opts
        };
        let mut known = 0;
        for t in start.turns().iter().filter(|t| !t.after.is_over()) {
            let Some((lo, hi)) = solver.proven_bounds(&t.after) else {
                continue;
            };
            let r = Solver::new(rules, 3, plain.clone())
                .unwrap()
                .solve(&t.after, &never);
            assert!(r.exact);
            assert_eq!((lo, hi), (r.value, r.value), "{rules} {:?}", t.picks);
            known += 1;
        }
        assert!(known > 0, "{rules}: no turn's value read back");
    }
}

/// A helper's proof, run alone, leaves the position's value in the table
/// it shares: the solver it came from reads it back as proven bounds that
/// meet at the value a fresh solver finds. No helper on one thread.
#[test]
fn a_helpers_proof_is_in_the_shared_table() {
    let never = AtomicBool::new(false);
    for (rules, n, stones) in [(Rules::KALAH, 4, 4), (Rules::AVALANCHE, 5, 3)] {
        let start = GameState::start(n, stones, rules).unwrap();
        // Fitted, as `game analyze` builds its solver: the compact table,
        // and two turns of deepening first under avalanche.
        let opts = |threads| {
            SolveOptions {
                table_bytes: 32 << 20,
                threads,
                ..SolveOptions::default()
            }
            .fit_to(rules, n, start.stones_in_pits())
        };
        let one = Solver::new(rules, n, opts(1)).unwrap();
        assert!(one.helper().is_none(), "{rules}: a helper on one thread");
        let whole = Solver::new(rules, n, opts(1))
            .unwrap()
            .solve(&start, &never);
        assert!(whole.exact);
        let solver = Solver::new(rules, n, opts(2)).unwrap();
        assert_eq!(solver.proven_bounds(&start), None);
        let mut helper = solver.helper().expect("a table to share");
        assert!(helper.help_prove(&start, &never) > 0);
        assert_eq!(
            solver.proven_bounds(&start),
            Some((whole.value, whole.value)),
            "{rules}"
        );
    }
}

/// A small generator of test positions: the same every run.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

/// [`crate::state::flip_word`] compiled for 6 pits a side (one 16-byte word) swaps the
/// halves of the cycle as [`flip_cells`] does, the cells past it left
/// alone or zero as they come.
#[test]
fn the_word_flip_is_the_cell_flip() {
    let mut seed = 7;
    for _ in 0..2000 {
        let mut c: PitCounts = [0; CYCLE_CAP];
        for cell in c[..14].iter_mut() {
            *cell = (lcg(&mut seed) % 128) as u8;
        }
        let mut want = c;
        flip_cells(&mut want, 6);
        let mut got = c;
        crate::state::flip_word::<6>(&mut got, 6);
        assert_eq!(got, want, "{c:?}");
    }
}

/// MTD(f) from 0 with [`Solver::search_of`] compiled for `N` pits a side:
/// the value and the picks searched.
fn mtdf_of<const N: usize>(solver: &mut Solver, state: &GameState) -> (i32, u64) {
    let (pos, turns_left) = ready(solver.n, state);
    let s = state.stones_in_pits() as i32;
    let never = AtomicBool::new(false);
    solver.nodes = 0;
    let (mut lo, mut hi, mut g) = (solver.floor(s, TO_THE_END), s, 0);
    while lo < hi {
        let beta = if g == lo { g + 1 } else { g };
        g = solver.search_of::<N>(&pos, beta - 1, beta, TO_THE_END, turns_left, &never);
        if g < beta {
            hi = g;
        } else {
            lo = g;
        }
    }
    (g, solver.nodes)
}

/// The search compiled for Kalah's 6 pits a side is the search for any
/// board: on positions of games of 3 stones a pit played at random down
/// to at most 14 stones in the pits, under every capture rule, both find
/// the same value with the same picks (the same tree), each on a fresh
/// table, and `solve` the same value.
#[test]
fn the_search_for_six_pits_is_the_search_for_any_board() {
    let cancel = AtomicBool::new(false);
    let mut seed = 11;
    for capture in [Capture::Kalah, Capture::Empty, Capture::None] {
        let rules = Rules {
            capture,
            ..Rules::KALAH
        };
        let stones = 3;
        for _ in 0..6 {
            let mut state = GameState::start(6, stones, rules).unwrap();
            while state.stones_in_pits() > 14 {
                let picks = state.legal_picks();
                if state.is_over() || picks.is_empty() {
                    break;
                }
                let p = picks[lcg(&mut seed) as usize % picks.len()];
                state.play_pick(p.number() as u32).unwrap();
            }
            if state.is_over() {
                continue;
            }
            // A database of 6 stones only, so that the search runs down
            // to there rather than probing at once.
            let opts = SolveOptions {
                table_bytes: 4 << 20,
                endgame_stones: 6,
                ..SolveOptions::default()
            }
            .fit_to(rules, 6, 6 * 2 * stones);
            let mut six = Solver::new(rules, 6, opts.clone()).unwrap();
            let mut any = Solver::new(rules, 6, opts.clone()).unwrap();
            let got = mtdf_of::<6>(&mut six, &state);
            let want = mtdf_of::<0>(&mut any, &state);
            assert_eq!(got, want, "{state:?}");
            let solved = Solver::builder()
                .options(opts.clone())
                .cancel(&cancel)
                .solve(&state)
                .unwrap();
            assert_eq!(got.0 + state.mover_minus_opponent(), solved.value);
        }
    }
}
