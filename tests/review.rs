//! `game review`: every grade checked against `game solve` of the
//! positions before and after the turn (a second path, run as a user
//! would), kept games of `game play` and `--follow` read back and reviewed
//! (and agreeing with what `game analyze` proved during the game), match
//! files, and bad input.

use crate::common::{run_bin, run_bin_env};
use mancala_sweep::game::{GameState, Side};
use mancala_sweep::rules::Pit;
use mancala_sweep::{Preset, Rules};
use serde_json::Value;
use std::path::PathBuf;

/// A fresh folder under Cargo's scratch folder.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("review-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The grades as the documentation gives them (README, docs/games.md).
fn grade(lost: i64) -> &'static str {
    match lost {
        0 => "best",
        1 => "good",
        2..=3 => "inaccuracy",
        4..=7 => "mistake",
        _ => "blunder",
    }
}

/// A game of random whole turns from `start`, from a small generator
/// seeded by `seed`, to the end.
fn random_game(start: GameState, seed: u64) -> Vec<Vec<Pit>> {
    let (mut s, mut x, mut turns) = (start, seed, Vec::new());
    while !s.is_over() {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let t = s.turns();
        let chosen = &t[(x >> 33) as usize % t.len()];
        turns.push(chosen.picks.clone());
        s = chosen.after;
    }
    turns
}

fn turns_text(turns: &[Vec<Pit>]) -> String {
    turns
        .iter()
        .map(|t| {
            t.iter()
                .map(|p| p.number().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The value of `s` for its mover from `game solve --board`.
fn solved(s: &GameState, rules: &str) -> i64 {
    let board = s.board().one_line();
    let (code, out, err) = run_bin(
        &[
            "game", "solve", "--rules", rules, "--board", &board, "--json", "-q",
        ],
        "",
    );
    assert_eq!(code, 0, "game solve --board {board:?}: {err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["complete"], true);
    doc["value"].as_i64().unwrap()
}

/// The value of `after` for `before`'s mover: its stores when the game is
/// over there, else `game solve`'s, from the right side.
fn played_value(before: &GameState, after: &GameState, rules: &str) -> i64 {
    let me = before.mover();
    if after.is_over() {
        return i64::from(after.store(me)) - i64::from(after.store(me.other()));
    }
    let v = solved(after, rules);
    if after.mover() == me {
        v
    } else {
        -v
    }
}

#[test]
fn every_grade_is_the_one_game_solve_proves() {
    let cases = [
        ("kalah", Preset::Kalah.rules(), 3, 3, 1),
        ("kalah", Preset::Kalah.rules(), 4, 3, 2),
        ("kalah", Preset::Kalah.rules(), 4, 3, 3),
        ("avalanche", Preset::Avalanche.rules(), 3, 3, 4),
    ];
    for (name, rules, pits, stones, seed) in cases {
        check_game(name, rules, pits, stones, seed);
    }
}

fn check_game(name: &str, rules: Rules, pits: usize, stones: u32, seed: u64) {
    let start = GameState::start(pits, stones, rules).unwrap();
    let turns = random_game(start, seed);
    let typed = turns_text(&turns);
    let (p, s) = (pits.to_string(), stones.to_string());
    let args = [
        "game", "review", "--rules", name, "--pits", &p, "--stones", &s, "--turns", &typed,
        "--json", "-q",
    ];
    let (code, out, err) = run_bin(&args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["complete"], true, "{args:?}");
    let reviewed = doc["turns"].as_array().unwrap();
    assert_eq!(reviewed.len(), turns.len());
    let mut before = start;
    let mut best_count = [0, 0];
    for (k, t) in turns.iter().enumerate() {
        let mut after = before;
        after.play_turn(t).unwrap();
        let best = solved(&before, name);
        let played = played_value(&before, &after, name);
        let lost = best - played;
        let r = &reviewed[k];
        let what = format!("{args:?} turn {}", k + 1);
        assert_eq!(r["best"]["low"], best, "{what}");
        assert_eq!(r["best"]["high"], best, "{what}");
        assert_eq!(r["played"]["low"], played, "{what}");
        assert_eq!(r["played"]["high"], played, "{what}");
        assert_eq!(r["lost"]["low"], lost, "{what}");
        assert_eq!(r["grade"], grade(lost), "{what}");
        assert_eq!(
            r["by"],
            if before.mover() == Side::First {
                "first"
            } else {
                "second"
            }
        );
        // A best turn shown is one that reaches the best value.
        let shown: Vec<Pit> = r["best_turn"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Pit::new(p.as_u64().unwrap() as u32, pits).unwrap())
            .collect();
        // A turn that gave stones away shows what was better.
        assert!(lost == 0 || !shown.is_empty(), "{what}: no best turn");
        if !shown.is_empty() {
            let mut s = before;
            s.play_turn(&shown).unwrap();
            assert_eq!(played_value(&before, &s, name), best, "{what}: best turn");
        }
        if lost == 0 {
            best_count[(before.mover() == Side::Second) as usize] += 1;
        }
        before = after;
    }
    assert_eq!(doc["accuracy"]["first"]["best"], best_count[0]);
    assert_eq!(doc["accuracy"]["second"]["best"], best_count[1]);
}

/// Turn 5 of a GamePigeon capture game starts at the opening book's last
/// level (4 whole turns in), whose positions the book values but ranks no
/// turns of: a turn there that gave stones away still shows a best turn,
/// and that turn, played instead, is graded best by a review of its own
/// (the position after it, past the book, searched).
#[test]
fn a_mistake_at_the_books_frontier_shows_its_best_turn() {
    let review = |turns: &str| {
        let args = [
            "game", "review", "--rules", "capture", "--turns", turns, "--json", "-q",
        ];
        let (code, out, err) = run_bin(&args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        doc["turns"][4].clone()
    };
    let fifth = review("3 6, 5, 1, 2 4, 5");
    assert!(fifth["lost"]["low"].as_i64().unwrap() > 0, "{fifth}");
    let best: Vec<String> = fifth["best_turn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert!(!best.is_empty(), "{fifth}");
    let instead = review(&format!("3 6, 5, 1, 2 4, {}", best.join(" ")));
    assert_eq!(instead["grade"], "best", "{instead}");
    assert_eq!(instead["played"], fifth["best"], "{instead}");
}

/// Every line of `stdin` ten times over: enough input for a small game.
fn lines(stdin: &str) -> String {
    stdin.repeat(10)
}

/// The one kept game in `dir`.
fn kept_in(dir: &PathBuf) -> (PathBuf, Value) {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let doc = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    (files[0].clone(), doc)
}

#[test]
fn a_game_played_is_kept_and_reviews() {
    let dir = scratch("play");
    let env = [("MANCALA_SWEEP_GAMES", dir.to_str().unwrap())];
    let args = [
        "game", "play", "--pits", "4", "--stones", "3", "--level", "easy",
    ];
    let (code, out, err) = run_bin_env(&args, &lines("1\n2\n3\n4\n"), &env);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Game over"), "{out}");
    assert!(out.contains("game review last"), "{out}");
    let (path, doc) = kept_in(&dir);
    assert_eq!(doc["format"], "mancala-sweep-game-record/1");
    assert_eq!(doc["finished"], true);
    assert_eq!(doc["players"]["first"], "you");
    assert_eq!(doc["players"]["second"], "easy");
    let turns = doc["turns"].as_array().unwrap().len();
    // By its path and as the last game kept: the same review.
    let by_path = ["game", "review", path.to_str().unwrap(), "--json", "-q"];
    let (code, out, err) = run_bin_env(&by_path, "", &env);
    assert_eq!(code, 0, "{err}");
    let review: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(review["turns"].as_array().unwrap().len(), turns);
    assert_eq!(review["complete"], true);
    let (code, last, err) = run_bin_env(&["game", "review", "last", "--json", "-q"], "", &env);
    assert_eq!(code, 0, "{err}");
    let last: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(last["turns"], review["turns"]);
    // The result the record keeps is the graph's end.
    let end = review["graph"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(end["low"], doc["result"]);
}

#[test]
fn a_followed_game_is_kept_resumed_and_agrees_with_what_analyze_proved() {
    let dir = scratch("follow");
    let env = [("MANCALA_SWEEP_GAMES", dir.to_str().unwrap())];
    let follow = [
        "game",
        "analyze",
        "--follow",
        "--pits",
        "4",
        "--stones",
        "3",
        "--seconds",
        "2",
    ];
    // Two lines: a turn of each side, then the input ends (a closed
    // terminal): the game is kept unfinished.
    let (code, _, err) = run_bin_env(&follow, "best\n5\n", &env);
    assert_eq!(code, 0, "{err}");
    let (_, doc) = kept_in(&dir);
    assert_eq!(doc["finished"], false);
    let kept = doc["turns"].as_array().unwrap().len();
    assert!(kept >= 1, "{doc}");
    // Taken up where it was left, and played to the end: the best turn for
    // the player, the first pit of the opponent's that is allowed.
    let resume = ["game", "analyze", "--follow", "--resume", "--seconds", "2"];
    let (code, out, err) = run_bin_env(&resume, &lines(&"best\n5\n6\n7\n8\n".repeat(3)), &env);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Going on with the game kept in"), "{out}");
    assert!(out.contains("Game over"), "{out}");
    let (path, doc) = kept_in(&dir);
    assert_eq!(doc["finished"], true);
    let turns = doc["turns"].as_array().unwrap();
    assert!(turns.len() > kept);
    assert!(turns.iter().any(|t| t["said"]["best"].is_i64()), "{doc}");
    // The review agrees with every value the companion proved.
    let (code, out, err) = run_bin_env(&["game", "review", path.to_str().unwrap()], "", &env);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("DISAGREEMENT"), "{out}");
    assert!(
        out.contains("proved during the game agree with the review"),
        "{out}"
    );
    // Nothing is left to resume.
    let (code, _, err) = run_bin_env(&resume, "", &env);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--resume: no unfinished followed game"),
        "{err}"
    );
}

#[test]
fn a_match_game_reviews_by_its_number() {
    let dir = scratch("match");
    let out_file = dir.join("match.json");
    let m = [
        "game",
        "match",
        "greedy",
        "random",
        "--pits",
        "4",
        "--stones",
        "3",
        "--games",
        "2",
        "--opening-turns",
        "1",
        "--out",
        out_file.to_str().unwrap(),
        "-q",
    ];
    let (code, _, err) = run_bin(&m, "");
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    for g in doc["games"].as_array().unwrap() {
        let n = g["game"].to_string();
        let args = [
            "game",
            "review",
            out_file.to_str().unwrap(),
            "--number",
            &n,
            "--json",
            "-q",
        ];
        let (code, out, err) = run_bin(&args, "");
        assert_eq!(code, 0, "{err}");
        let r: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            r["turns"].as_array().unwrap().len() as u64,
            g["turns"].as_u64().unwrap()
        );
        assert_eq!(r["complete"], true);
        let a_first = g["a_first"].as_bool().unwrap();
        assert_eq!(
            r["players"]["first"],
            if a_first { "greedy" } else { "random" }
        );
        // The graph ends at the match's result.
        let end = r["graph"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(end["low"], g["value"]);
    }
    // Without a number, or with one the match does not hold: one line, 2.
    let file = out_file.to_str().unwrap();
    for (args, says) in [
        (vec!["game", "review", file], "give --number N"),
        (vec!["game", "review", file, "--number", "7"], "--number 7"),
    ] {
        let (code, _, err) = run_bin(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn bad_games_are_refused_in_one_line_with_exit_2() {
    let dir = scratch("bad");
    let env = [("MANCALA_SWEEP_GAMES", dir.to_str().unwrap())];
    let cargo = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let schema = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/game-record.schema.json"
    );
    let cases: [(&[&str], &str); 6] = [
        (&["game", "review", cargo], "Cargo.toml: not valid JSON"),
        (
            &["game", "review", schema],
            "is not \"mancala-sweep-game-record/1\"",
        ),
        (&["game", "review", "last"], "no game is kept in"),
        (
            &[
                "game", "review", "--pits", "4", "--stones", "3", "--turns", "3, 9",
            ],
            "a pick is a pit number, 1 to 8",
        ),
        (
            &[
                "game", "review", "--pits", "4", "--stones", "3", "--turns", "2, 1",
            ],
            "turn 1 (2)",
        ),
        (
            &[
                "game", "review", "--pits", "4", "--stones", "3", "--turns", "3,,1",
            ],
            "turn 2 is empty",
        ),
    ];
    for (args, says) in cases {
        let (code, out, err) = run_bin_env(args, "", &env);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// A review on a budget too small to prove everything: every bound holds
/// the exact value (from a review with no limit), and every grade it gives
/// is the exact one; a turn it cannot grade has no grade.
#[test]
fn a_short_budget_gives_bounds_that_hold_and_only_grades_it_proved() {
    use mancala_sweep::game::review::{review, Bounds, ReviewOptions};
    use mancala_sweep::game::{Budget, SolveOptions};
    use std::sync::atomic::AtomicBool;
    let never = AtomicBool::new(false);
    let (mut graded, mut open) = (0, 0);
    for (rules, pits, stones, seed) in [
        (Preset::Kalah.rules(), 4, 4, 11),
        (Preset::Kalah.rules(), 4, 4, 12),
        (Preset::Avalanche.rules(), 4, 3, 13),
    ] {
        let start = GameState::start(pits, stones, rules).unwrap();
        let turns = random_game(start, seed);
        let solve = SolveOptions {
            table_bytes: 16 << 20,
            ..SolveOptions::default()
        }
        .fit_to(rules, pits, start.stones_in_pits());
        let run = |budget| {
            let opts = ReviewOptions {
                solve: solve.clone(),
                budget,
            };
            review(&start, &turns, &opts, None, &never, None).unwrap()
        };
        let exact = run(Budget::Nodes(u64::MAX / 1024));
        assert!(exact.complete());
        let short = run(Budget::Nodes(300));
        let within = |b: Bounds, v: Bounds| b.low <= v.low && v.high <= b.high;
        for (e, s) in exact.turns().iter().zip(short.turns()) {
            assert!(within(s.played, e.played), "turn {}: {s:?} {e:?}", e.number);
            assert!(within(s.best, e.best), "turn {}: {s:?} {e:?}", e.number);
            assert!(within(s.lost, e.lost), "turn {}: {s:?} {e:?}", e.number);
            match s.grade() {
                Some(g) => {
                    assert_eq!(Some(g), e.grade(), "turn {}", e.number);
                    graded += 1;
                }
                None => open += 1,
            }
        }
    }
    // The budget is short enough to leave turns open, long enough to grade some.
    assert!(open > 0 && graded > 0, "{open} open, {graded} graded");
}
