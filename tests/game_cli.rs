//! `game solve`, `game analyze`, `game play` and `game match` through the binary.

use serde_json::Value;

/// Run `mancala-sweep ARGS` with `stdin`; returns (exit code, stdout, stderr).
fn run_with(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_env(args, stdin, &[])
}

use crate::common::run_bin_env as run_env;

fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, "")
}

/// True when `out` holds a hint of `game play`: a whole turn from the
/// analysis, with its value, not the computer's own choice.
fn hinted(out: &str) -> bool {
    out.lines().any(|l| {
        l.contains("Hint: ")
            && l.ends_with(" s of analysis, not the computer's level.")
            && !l.contains("would play")
    })
}

/// [`run_with`] with progress as plain lines on stderr
/// (`MANCALA_SWEEP_PROGRESS=lines`), as a terminal would show it.
fn run_showing_progress(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_env(args, stdin, &[("MANCALA_SWEEP_PROGRESS", "lines")])
}

#[test]
fn game_solve_gives_the_value_the_best_turn_and_a_pv_that_replays() {
    let (code, out, err) = run(&[
        "game", "solve", "--pits", "4", "--stones", "3", "--json", "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "mancala-sweep-game-solve/1");
    assert_eq!(v["preset"], "kalah");
    assert_eq!(v["complete"], true);
    let value = v["value"].as_i64().unwrap();
    assert_eq!(v["lower"], v["upper"]);
    // The principal variation, replayed turn by turn through `replay`'s
    // rules engine via the library, ends with that value.
    let mut g = mancala_sweep::game::GameState::start(4, 3, mancala_sweep::Rules::KALAH).unwrap();
    for t in v["principal_variation"].as_array().unwrap() {
        let picks: Vec<mancala_sweep::Pit> = t
            .as_array()
            .unwrap()
            .iter()
            .map(|p| mancala_sweep::Pit::new(p.as_u64().unwrap() as u32, 4).unwrap())
            .collect();
        g.play_turn(&picks).unwrap();
    }
    assert!(g.is_over());
    assert_eq!(g.first_minus_second() as i64, value);
    assert_eq!(v["best_turn"], v["principal_variation"][0]);

    let (code, text, _) = run(&["game", "solve", "--pits", "4", "--stones", "3", "-q"]);
    assert_eq!(code, 0);
    assert!(
        text.contains(&format!(
            "Value with perfect play: +{value} for the player to move"
        )),
        "{text}"
    );
}

#[test]
fn game_solve_refuses_a_table_over_the_memory_cap_before_it_starts() {
    let (code, out, err) = run(&[
        "game",
        "solve",
        "--table",
        "1G",
        "--max-memory",
        "100M",
        "-q",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("exceed the memory cap"), "{err}");
}

/// `--checkpoint`'s bad input: a time that is no time, the interval
/// without the file, and a file that is not a checkpoint, each one line
/// with status 2, and the file left as it was.
#[test]
fn game_solve_refuses_a_bad_checkpoint_in_one_line() {
    for every in ["0", "-1", "abc"] {
        let (code, _, err) = run(&[
            "game",
            "solve",
            "--pits",
            "3",
            "--stones",
            "2",
            "--checkpoint",
            "x",
            "--checkpoint-every",
            every,
        ]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        // clap takes "-1" for a flag: named, if not as a time.
        assert!(
            err.contains(every) && (every == "-1" || err.contains("seconds")),
            "{err}"
        );
    }
    let (code, _, err) = run(&["game", "solve", "--pits", "3", "--checkpoint-every", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--checkpoint"), "{err}");
    let dir = std::env::temp_dir().join(format!("ms-game-cli-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("not-a-checkpoint.json");
    std::fs::write(&file, "{\"format\":\"mancala-sweep-game-solve/1\"}\n").unwrap();
    let path = file.to_str().unwrap();
    let (code, _, err) = run(&[
        "game",
        "solve",
        "--pits",
        "3",
        "--stones",
        "2",
        "--checkpoint",
        path,
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim().lines().last().unwrap(),
        format!("error: checkpoint {path}: not a checkpoint (its first line is not a mancala-sweep-game-checkpoint/1 header)")
    );
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("game-solve/1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_agents_levels_and_game_counts_get_one_line_and_status_2() {
    for (args, needle) in [
        (vec!["game", "match", "deep", "random"], "not an agent"),
        (vec!["game", "match", "mcts:0", "random"], "from 1 to"),
        (
            vec!["game", "match", "random", "greedy", "--games", "3"],
            "even number",
        ),
        (
            vec!["game", "play", "--level", "expert"],
            "[possible values: easy, medium, hard, perfect]",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn game_play_takes_picks_hints_undo_and_explains_bad_entries() {
    let input = "9\n0\nx\n3\nhint\nundo\nundo\nquit\n";
    let (code, out, err) = run_with(&["game", "play", "--level", "easy"], input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("You play the bottom row (pits 1 to 6; your store is on the right) against the computer (easy level)."),
        "{out}"
    );
    assert!(
        out.contains("Pit 9: an opponent pit: you may pick only your own pits, 1 to 6."),
        "{out}"
    );
    assert!(out.contains("Pit 0: no such pit"), "{out}");
    assert!(out.contains("\"x\" is not a pit number (1 to 6)"), "{out}");
    // Pit 3 of 6x4 ends in the store: a free turn, still the person's pick.
    assert!(
        out.contains("You: pit 3 (4 stones) → your store: free turn"),
        "{out}"
    );
    assert!(hinted(&out), "{out}");
    assert!(out.contains("Taken back."), "{out}");
    assert!(out.contains("Nothing to take back."), "{out}");
    assert!(out.contains("Game left at turn 1."), "{out}");
}

#[test]
fn game_play_to_the_end_against_the_computer() {
    // Pit 1 again and again: legal until the row runs dry, then the
    // prompt explains; the input ends before the game, or the game ends.
    let input = "1\n2\n3\n4\n5\n6\n".repeat(30);
    let (code, out, err) = run_with(
        &[
            "game", "play", "--pits", "3", "--stones", "2", "--first", "computer",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Computer: pit "), "{out}");
    assert!(
        !out.contains("→ your store") || out.contains("You: "),
        "{out}"
    );
    assert!(out.contains("Game over: "), "{out}");
}

#[test]
fn game_match_prints_statistics_and_resumes_from_its_results_file() {
    let dir = std::env::temp_dir().join(format!("ms-game-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("m.json");
    let f = file.to_str().unwrap();
    let args = [
        "game", "match", "random", "greedy", "--games", "8", "--seed", "5", "--out", f, "--json",
        "-q",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "mancala-sweep-game-match/1");
    assert_eq!(v["complete"], true);
    assert_eq!(v["summary"]["games"], 8);
    let s = &v["summary"];
    assert_eq!(
        s["a_wins"].as_u64().unwrap()
            + s["draws"].as_u64().unwrap()
            + s["b_wins"].as_u64().unwrap(),
        8
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["games"], v["games"]);
    // The same command again: nothing left to play, the same games.
    let (code, again, _) = run(&args);
    assert_eq!(code, 0);
    let w: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(w["games"], v["games"]);
    // Another match into the same file is refused.
    let (code, _, err) = run(&[
        "game", "match", "random", "random", "--games", "8", "--out", f, "-q",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("holds another match"), "{err}");
    let (code, text, _) = run(&[
        "game", "match", "random", "greedy", "--games", "8", "--seed", "5", "-q",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("score of random:"), "{text}");
    assert!(text.contains("Elo difference:"), "{text}");
    assert!(text.contains("first player's score:"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_from_strong_play_check_out() {
    let dir = std::env::temp_dir().join(format!("ms-game-hard-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hard.json");
    let f = file.to_str().unwrap();
    let (code, _, err) = run(&[
        "puzzles",
        "generate",
        "--rules",
        "kalah",
        "--source",
        "game-hard",
        "--count",
        "3",
        "--seed",
        "2",
        "--out",
        f,
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let puzzles = v["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 3);
    assert!(puzzles.iter().all(|p| p["source"] == "game-hard"));
    let (code, _, err) = run(&["puzzles", "check", f]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The mid-game avalanche board of issue 32, where `solve`'s best turn (the
/// most stones now, 19 of 40) loses the game by 2 and `game solve` wins by
/// 12 with 5 2 3 6 2.
const AVALANCHE_MID: &str = "2 0 5 1 3 4 / 8 10 / 1 4 0 2 6 2";

/// `game analyze` ranks every turn; where it says exact, the value is
/// `game solve`'s (a second path: the solver on the position itself, and
/// on the position after each turn); `solve`'s one-turn best is named and
/// ranked lower.
#[test]
fn game_analyze_ranks_every_turn_and_agrees_with_game_solve() {
    let args = [
        "game",
        "analyze",
        "--rules",
        "avalanche",
        "--board",
        AVALANCHE_MID,
        "--nodes",
        "50000000",
        "--threads",
        "1",
        "--json",
        "-q",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "mancala-sweep-game-analysis/1");
    assert_eq!(v["exact"], true, "{out}");
    let (code, solved, _) = run(&[
        "game",
        "solve",
        "--rules",
        "avalanche",
        "--board",
        AVALANCHE_MID,
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0);
    let solved: Value = serde_json::from_str(&solved).unwrap();
    assert_eq!(v["value"], solved["value"]);
    assert_eq!(v["value"], 12);
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 49);
    assert_eq!(v["principal_variation"][0], turns[0]["picks"]);
    // Each turn's value from the solver on the position after it: replay
    // the picks, flip the board to the opponent's view, solve, negate.
    for t in turns.iter().take(4) {
        assert_eq!(t["exact"], true);
        let picks: Vec<String> = t["picks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect();
        let mut args = vec![
            "replay",
            "--rules",
            "avalanche",
            "--board",
            AVALANCHE_MID,
            "--json",
        ];
        args.extend(picks.iter().map(String::as_str));
        let (code, replayed, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let r: Value = serde_json::from_str(&replayed).unwrap();
        let end = r["board"].as_str().unwrap().to_string();
        // The position from the opponent's side: rows and stores swapped.
        let parts: Vec<&str> = end.split(" / ").collect();
        let stores: Vec<&str> = parts[1].split(' ').collect();
        let flipped = format!(
            "{} / {} {} / {}",
            parts[2].split(' ').rev().collect::<Vec<_>>().join(" "),
            stores[1],
            stores[0],
            parts[0].split(' ').rev().collect::<Vec<_>>().join(" ")
        );
        let (code, after, err) = run(&[
            "game",
            "solve",
            "--rules",
            "avalanche",
            "--board",
            &flipped,
            "--json",
            "-q",
        ]);
        assert_eq!(code, 0, "{flipped}: {err}");
        let after: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(
            t["value"].as_i64().unwrap(),
            -after["value"].as_i64().unwrap(),
            "{t} after {flipped}"
        );
    }
    // The text: the best turn as taps, in words; solve's turn named.
    let (code, text, err) = run(&[
        "game",
        "analyze",
        "--rules",
        "avalanche",
        "--board",
        AVALANCHE_MID,
        "--nodes",
        "50000000",
        "--threads",
        "1",
        "--top",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("Tap 5, then 2, 3, 6, 2: best, you win by 12 with best play.\n"),
        "{text}"
    );
    assert!(
        text.contains("Turns, best first (3 of 49, 49 proved):"),
        "{text}"
    );
    assert!(
        text.contains(
            "The most stones this turn (19 in your store) comes from 5 2 5 1 6 5 6 1, turn "
        ),
        "{text}"
    );
    assert!(text.contains(": you lose by 2."), "{text}");
    let (_, brief, _) = run(&[
        "solve",
        "--rules",
        "avalanche",
        "--board",
        AVALANCHE_MID,
        "--brief",
    ]);
    assert!(brief.contains("ending with 19 of 40 stones"), "{brief}");
}

/// The endgame database kept in the cache folder: built on the first
/// analysis of a rule set and board size (said on stderr, the file named
/// for them), read back by the next without building, left alone with
/// `--no-cache`; the values are the same in all three runs (the database
/// holds exact values, so only how much is proved in the budget changes).
#[test]
fn game_analyze_builds_the_endgame_cache_once() {
    let dir = std::env::temp_dir().join(format!("ms-analyze-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "game",
        "analyze",
        "--pits",
        "3",
        "--stones",
        "3",
        "--seconds",
        "5",
        "--json",
    ];
    let (code, first, err) = run_env(&args, "", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("building the endgame database"), "{err}");
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files,
        ["mancala-sweep-endgame-1-relay-off-capture-kalah-3-pits-16-stones.bin"]
    );
    let (code, second, err) = run_env(&args, "", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("building"), "{err}");
    let other = dir.join("none");
    let (code, plain, err) = run_env(
        &[&args[..], &["--no-cache"]].concat(),
        "",
        &[("MANCALA_SWEEP_CACHE", other.to_str().unwrap())],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!other.exists());
    let values = |out: &str| {
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["exact"], true, "{v}");
        crate::common::analysis_values(&v)
    };
    assert_eq!(values(&first), values(&second));
    assert_eq!(values(&first), values(&plain));
    // A database that does not fit beside the table within --max-memory
    // is left out, said in a line, and nothing is built.
    let (code, _, err) = run_env(
        &[
            "game",
            "analyze",
            "--max-memory",
            "80M",
            "--no-book",
            "--nodes",
            "1000",
            "--threads",
            "1",
        ],
        "",
        &[("MANCALA_SWEEP_CACHE", other.to_str().unwrap())],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("does not fit beside the table"), "{err}");
    assert!(!other.exists());
    // --no-cache with --endgame is refused: the file is the database.
    let (code, _, err) = run(&["game", "analyze", "--no-cache", "--endgame", "x.bin"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `game solve` shares `game analyze`'s cached endgame database: built on
/// the first solve of more than 36 stones of a rule set and board size,
/// read by the next (and by a smaller game, which never builds it), left
/// alone with `--no-cache`, with `--checkpoint` (whose work keeps to the
/// database it started with) and for a game the database of its own
/// stones holds whole; the value and the line are the same in every run
/// (the one without the database is the second path to them). `game
/// play` reads it when it is there.
#[test]
fn game_solve_reads_the_endgame_cache() {
    let dir = std::env::temp_dir().join(format!("ms-solve-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let other = dir.join("none");
    let o = other.to_str().unwrap();
    let small = ["game", "solve", "--pits", "3", "--stones", "4", "--json"];
    let (code, small_first, err) = run_env(&small, "", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(!dir.exists(), "24 stones built the cache: {err}");
    let large = ["game", "solve", "--pits", "3", "--stones", "7", "--json"];
    let (code, large_first, err) = run_env(&large, "", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("building the endgame database"), "{err}");
    assert!(dir
        .join("mancala-sweep-endgame-1-relay-off-capture-kalah-3-pits-16-stones.bin")
        .exists());
    let (code, large_plain, err) = run_env(
        &[&large[..], &["--no-cache"]].concat(),
        "",
        &[("MANCALA_SWEEP_CACHE", o)],
    );
    assert_eq!(code, 0, "{err}");
    let args = small;
    let first = small_first;
    let (code, second, err) = run_env(&args, "", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("building"), "{err}");
    let v: Value = serde_json::from_str(&second).unwrap();
    assert!(
        v["nodes"].as_u64() < serde_json::from_str::<Value>(&first).unwrap()["nodes"].as_u64(),
        "the cached database was not read: {second}"
    );
    let (code, plain, err) = run_env(
        &[&args[..], &["--no-cache"]].concat(),
        "",
        &[("MANCALA_SWEEP_CACHE", o)],
    );
    assert_eq!(code, 0, "{err}");
    let kept = dir.join("kept.json");
    let (code, checkpointed, err) = run_env(
        &[&args[..], &["--checkpoint", kept.to_str().unwrap()]].concat(),
        "",
        &[("MANCALA_SWEEP_CACHE", o)],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_env(
        &["game", "solve", "--pits", "3", "--stones", "2", "--json"],
        "",
        &[("MANCALA_SWEEP_CACHE", o)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!other.exists(), "a cache was made in {o}");
    let answer = |out: &str| {
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["complete"], true, "{v}");
        (v["value"].clone(), v["principal_variation"].clone())
    };
    // A game of at most 36 stones gets the small table.
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["table_bytes"], 32 << 20, "{v}");
    assert_eq!(answer(&first), answer(&plain));
    assert_eq!(answer(&second), answer(&plain));
    assert_eq!(answer(&checkpointed), answer(&plain));
    assert_eq!(answer(&large_first), answer(&large_plain));
    let (code, _, err) = run(&["game", "solve", "--no-cache", "--endgame", "x.bin"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // `game play` reads the file for its computer and hints when it is
    // there, and never builds it.
    let play = ["game", "play", "--pits", "3", "--stones", "4"];
    let said = "the cached endgame database";
    let (code, _, err) = run_env(&play, "quit\n", &[("MANCALA_SWEEP_CACHE", d)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(said), "{err}");
    let (code, _, err) = run_env(
        &[&play[..], &["--no-cache"]].concat(),
        "quit\n",
        &[("MANCALA_SWEEP_CACHE", d)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains(said), "{err}");
    let (code, _, err) = run_env(&play, "quit\n", &[("MANCALA_SWEEP_CACHE", o)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains(said) && !other.exists(), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A short budget still answers, and says what it has not proved.
#[test]
fn game_analyze_with_a_small_budget_gives_bounds_not_claims() {
    let (code, out, err) = run(&[
        "game",
        "analyze",
        "--pits",
        "6",
        "--stones",
        "4",
        "--nodes",
        "20000",
        "--no-book",
        "--threads",
        "1",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["exact"], false);
    for t in v["turns"].as_array().unwrap() {
        assert_eq!(t["exact"], false);
        let (lo, hi, val) = (
            t["low"].as_i64().unwrap(),
            t["high"].as_i64().unwrap(),
            t["value"].as_i64().unwrap(),
        );
        assert!(lo <= val && val <= hi, "{t}");
    }
}

#[test]
fn game_analyze_refuses_bad_input_in_one_line() {
    for (args, needle) in [
        (&["game", "analyze", "--seconds", "0"][..], "--seconds"),
        (&["game", "analyze", "--top", "0"][..], "--top"),
        (&["game", "analyze", "--nodes", "many"][..], "--nodes"),
        (
            &["game", "analyze", "--board", "0 0 0 / 5 2 / 0 0 0"][..],
            "the game is over on this board",
        ),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Issue 32: `game play` never showed the rules in force, and echoed
/// `--rules capture` as kalah.
#[test]
fn game_play_shows_the_rules_in_force() {
    let (code, out, err) = run_with(&["game", "play", "--rules", "capture"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Rules: capture (GamePigeon) = kalah\n"),
        "{out}"
    );
    let (_, out, _) = run_with(&["game", "play"], "quit\n");
    assert!(out.starts_with("Rules: kalah\n"), "{out}");
    let (_, out, _) = run_with(&["game", "play", "--rules", "avalanche"], "quit\n");
    assert!(out.starts_with("Rules: avalanche\n"), "{out}");
}

/// Issue 32: a whole turn on one line (as a hint prints it), played pick
/// by pick up to the first one not allowed; commands in any case.
#[test]
fn game_play_takes_a_whole_turn_on_a_line_and_words_in_any_case() {
    // 6x4 kalah: pit 3 ends in the store (a free turn), pit 9 is the
    // computer's, so pit 1 after it is not played.
    let (code, out, err) = run_with(&["game", "play", "--level", "easy"], "3 9 1\nQUIT\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("You: pit 3 (4 stones) → your store: free turn"),
        "{out}"
    );
    assert!(
        out.contains(
            "Pit 9: an opponent pit: you may pick only your own pits, 1 to 6. The word after it is not played.\n"
        ),
        "{out}"
    );
    assert!(!out.contains("You: pit 1"), "{out}");
    assert!(out.contains("Game left at turn 1."), "{out}");
    // Pit 3 then pit 1 is a whole turn; the 2 after it is not played, and
    // the computer answers.
    let (code, out, _) = run_with(&["game", "play", "--level", "easy"], "3 1 2\nHint\nq\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("You: pit 1 (4 stones) → pit 5: the turn is over"),
        "{out}"
    );
    assert!(
        out.contains("Your turn is over: the word after pit 1 is not played.\nComputer: "),
        "{out}"
    );
    assert!(!out.contains("You: pit 2"), "{out}");
    assert!(hinted(&out), "{out}");
    assert!(out.contains("Game left at turn 3."), "{out}");
    // H, Undo and Quit in capitals, on one line with a pick.
    let (code, out, _) = run_with(&["game", "play", "--level", "easy"], "3 UNDO H\nQuit\n");
    assert_eq!(code, 0);
    assert!(out.contains("You: pit 3"), "{out}");
    assert!(out.contains("Taken back."), "{out}");
    assert!(hinted(&out), "{out}");
    assert!(out.contains("Game left at turn 1."), "{out}");
    assert!(!out.contains("is not a pit number"), "{out}");
}

/// Issue 32: `Pit 0: no such pit: pits are numbered 1 to 12.` under a
/// `(1 to 6)` prompt; the message gives the prompt's range.
#[test]
fn game_play_names_the_pits_the_prompt_offers() {
    let (_, out, _) = run_with(&["game", "play", "--level", "easy"], "0\n13\nq\n");
    assert!(
        out.contains("Your pick (1 to 6): Pit 0: no such pit: your pits are 1 to 6.\n"),
        "{out}"
    );
    assert!(
        out.contains("Pit 13: no such pit: your pits are 1 to 6.\n"),
        "{out}"
    );
    let (_, out, _) = run_with(
        &["game", "play", "--level", "easy", "--rules", "any-hole"],
        "0\nq\n",
    );
    assert!(
        out.contains("Your pick (1 to 12): Pit 0: no such pit: pits are numbered 1 to 12.\n"),
        "{out}"
    );
}

/// `game analyze --follow`: the companion of a game played elsewhere. It
/// analyses before each of the player's picks, takes the picks typed (the
/// opponent's as the player sees them), explains a bad entry, undoes, takes
/// a typed board, and says who won.
#[test]
fn game_analyze_follow_keeps_the_game_typed_in() {
    let input = "3\nx 1\nbest\n2\nundo\nboard\n0 0 1 / 2 3 / 0 0 1\n3\n";
    let (code, out, err) = run_with(
        &[
            "game",
            "analyze",
            "--follow",
            "--pits",
            "3",
            "--stones",
            "1",
            "--nodes",
            "100000",
            "--threads",
            "1",
            "-q",
        ],
        input,
    );
    assert_eq!(code, 0, "{err}");
    for part in [
        "You play the bottom row (pits 1 to 3); the opponent the top row (4 to 6), as you see them.",
        "Tap ",
        "Your picks (1 to 3, or best): You played 3: a free turn, the same player picks again.",
        "\"x\" is not a pit number or a word (best, longer, board, undo, quit). The rest of the line is not played: 1.",
        "Their picks (4 to 6, as you see them), or `board` and the board they left: Pit 2: not one of the opponent's pits: they are 4 to 6 as you see them.",
        "Taken back: your pick of pit ",
        "The board as you see it, you to move (TOP / THEIR_STORE YOUR_STORE / BOTTOM): ",
        "You played 3.",
        "Game over: you win, 4 to 3.",
    ] {
        assert!(out.contains(part), "{part:?} not in:\n{out}");
    }
    // `best` played the analysis's best turn (the text says which).
    let best_line = out.lines().find(|l| l.starts_with("Tap ")).unwrap();
    assert!(best_line.contains(": best, "), "{best_line}");
}

/// `--follow`: a line that plays some pits and then stops at a bad word
/// tells what it played first, then why it stopped (the reason had come
/// before the pits it followed).
#[test]
fn game_analyze_follow_tells_what_a_line_played_before_why_it_stopped() {
    let (code, out, err) = run_with(
        &[
            "game",
            "analyze",
            "--follow",
            "--pits",
            "3",
            "--stones",
            "1",
            "--nodes",
            "1000",
            "--threads",
            "1",
            "-q",
        ],
        "3 x\n1 2\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    for want in [
        "You played 3: a free turn, the same player picks again.\n\"x\" is not a pit number or a word (best, longer, board, undo, quit).\n",
        "You played 1.\nThe turn is over after pit 1. The rest of the line is not played: 2.\n",
    ] {
        assert!(out.contains(want), "{want:?} not in:\n{out}");
    }
}

/// `--follow` after a `board` entry: the board may follow the word on its
/// line, `undo` says it takes back the board (not a pick), and a word of
/// its own typed after pits is named as such.
#[test]
fn game_analyze_follow_says_what_a_board_entry_and_undo_did() {
    let (code, out, err) = run_with(
        &[
            "game",
            "analyze",
            "--follow",
            "--pits",
            "3",
            "--stones",
            "1",
            "--nodes",
            "1000",
            "--threads",
            "1",
            "-q",
        ],
        "board 0 0 1 / 2 3 / 0 0 1\nundo\n3 board 1\nundo\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    for want in [
        "The game goes on from the board you typed, you to move.\n",
        "Taken back: the board you typed; the game is as it was before it.\n",
        "You played 3: a free turn, the same player picks again.\n\"board\" goes at the start of a line of its own, not after pits. The rest of the line is not played: 1.\n",
        "Taken back: your pick of pit 3.\n",
    ] {
        assert!(out.contains(want), "{want:?} not in:\n{out}");
    }
    assert!(!out.contains("The board as you see it"), "{out}");
}

/// Issue 32, item 3: `game solve` said nothing while it worked, although
/// `-q` promises to silence its progress; now a line tells the bounds of the
/// value so far, the picks searched and the seconds.
#[test]
fn game_solve_shows_the_bounds_while_it_works() {
    let (code, _, err) =
        run_showing_progress(&["game", "solve", "--pits", "4", "--stones", "3"], "");
    assert_eq!(code, 0, "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("solving to the end of the game: the value is between"))
        .unwrap_or_else(|| panic!("no progress line: {err}"));
    assert!(line.contains(" picks | ") && line.ends_with(" s"), "{line}");
    let (_, _, quiet) =
        run_showing_progress(&["game", "solve", "--pits", "4", "--stones", "3", "-q"], "");
    assert!(!quiet.contains("solving"), "{quiet}");
}

/// Issue 32, item 3: the computer's turn and a hint were silent waits (80 s
/// on avalanche 6x4 at `hard`); both show a line of progress now, the
/// computer's with the depth its search reached.
#[test]
fn game_play_shows_the_computer_thinking_and_the_hint_being_looked_for() {
    let (code, out, err) = run_showing_progress(
        &[
            "game", "play", "--level", "hard", "--first", "computer", "--pits", "4", "--stones",
            "3",
        ],
        "hint\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("the computer (hard level) is thinking: ")),
        "{err}"
    );
    assert!(
        err.lines().any(|l| l.starts_with("looking for a hint: ")),
        "{err}"
    );
    assert!(hinted(&out), "{out}");
}

/// Issue 32, item 4: `easy`'s hint came from the greedy player it plays
/// with. Hints come from the analysis, whatever the level: on 4 pits of 2
/// stones every turn is proved within the hint's time, so the hint is a
/// best turn of `game solve`'s value.
#[test]
fn a_hint_is_the_best_turn_for_the_game_at_any_level() {
    let (_, solved, _) = run(&[
        "game", "solve", "--pits", "4", "--stones", "2", "--json", "-q",
    ]);
    let v: Value = serde_json::from_str(&solved).unwrap();
    let value = v["value"].as_i64().unwrap();
    let words = if value > 0 {
        format!("you win by {value}, proved best")
    } else if value < 0 {
        format!("you lose by {}, proved best", -value)
    } else {
        "a draw, proved best".to_string()
    };
    for level in ["easy", "medium", "hard"] {
        let (code, out, err) = run_with(
            &[
                "game", "play", "--level", level, "--pits", "4", "--stones", "2",
            ],
            "h\nq\n",
        );
        assert_eq!(code, 0, "{err}");
        let hint = out
            .lines()
            .find(|l| l.contains("Hint: "))
            .unwrap_or_else(|| panic!("no hint: {out}"));
        assert!(
            hint.contains(&words),
            "{level}: {hint} (game solve: {value})"
        );
    }
}

/// Found by `benches/faults.py` (issue 36): `game endgame` and `game match
/// --out` on a disk that filled up exited with status 2, the status of bad
/// input, where a spilled `solve` on a full disk exits with 1 (a run that
/// failed; the same command finishes once space is freed). The exit status
/// is `Error::is_input`'s (`cli/words.rs` maps it), so the errors those
/// runs give are checked here: a full disk or quota is not input, a path
/// that cannot be written is.
#[test]
fn a_full_disk_is_a_failed_run_not_bad_input() {
    use mancala_sweep::format::{file::is_disk_full, FileError};
    use mancala_sweep::game::{EndgameError, GameError, GameFileError};
    use std::io::{Error as IoError, ErrorKind};
    let write = |source| {
        mancala_sweep::Error::File(FileError::Write {
            path: "match.json".into(),
            source,
        })
    };
    // ENOSPC and EDQUOT as the system gives them (Linux's numbers).
    for errno in [28, 122] {
        assert!(is_disk_full(&IoError::from_raw_os_error(errno)), "{errno}");
        assert!(!write(IoError::from_raw_os_error(errno)).is_input());
    }
    assert!(write(IoError::from(ErrorKind::PermissionDenied)).is_input());
    let endgame = |disk_full| {
        mancala_sweep::Error::Game(GameError::Endgame(EndgameError::Io(GameFileError {
            path: "kalah6.db".into(),
            action: "write",
            message: "No space left on device (os error 28)".into(),
            disk_full,
        })))
    };
    assert!(!endgame(true).is_input());
    assert!(endgame(false).is_input());
}

/// The values for the game of the turns that take the most stones (what
/// `solve` finds) from the start of GamePigeon's avalanche game, 1 to 6
/// stones a pit, in `solve`'s order (docs/data/avalanche-games.md says what
/// they mean beside the games' values, which tests/data/game_values.txt
/// holds): each turn replayed, and the position it leaves solved exactly
/// from the opponent's side.
#[test]
fn avalanche_starts_the_most_stones_turns_valued_for_the_game() {
    let values = |k: u32| -> (i64, Vec<i64>) {
        let stones = k.to_string();
        let base = ["--rules", "avalanche", "--stones", &stones];
        let (code, out, err) = run(&[&["solve", "--json", "--all", "-q"][..], &base].concat());
        assert_eq!(code, 0, "{err}");
        let solved: Value = serde_json::from_str(&out).unwrap();
        let mut values = Vec::new();
        for line in solved["optimal"].as_array().unwrap() {
            let picks: Vec<String> = line
                .as_array()
                .unwrap()
                .iter()
                .map(Value::to_string)
                .collect();
            let picks: Vec<&str> = picks.iter().map(String::as_str).collect();
            let (code, out, err) = run(&[&["replay", "--json"][..], &base, &picks].concat());
            assert_eq!(code, 0, "{err}");
            let r: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(r["to_move"], false, "{out}");
            let pits: Vec<String> = r["pits"]
                .as_array()
                .unwrap()
                .iter()
                .map(Value::to_string)
                .collect();
            // The opponent's view: their pits 7..12 at the bottom, ours
            // (6 down to 1) on top, their store on the right.
            let top: Vec<&str> = pits[..6].iter().rev().map(String::as_str).collect();
            let board = format!(
                "{} / {} {} / {}",
                top.join(" "),
                r["store"],
                r["opponent_store"],
                pits[6..].join(" ")
            );
            let (code, out, err) = run(&[
                "game",
                "solve",
                "--rules",
                "avalanche",
                "--board",
                &board,
                "--json",
                "-q",
                "--no-cache",
            ]);
            assert_eq!(code, 0, "{board}: {err}");
            let g: Value = serde_json::from_str(&out).unwrap();
            values.push(-g["value"].as_i64().unwrap());
        }
        (solved["best_store"].as_i64().unwrap(), values)
    };
    // (stones a pit, the most one turn takes, the values of those turns)
    let want: [(u32, i64, &[i64]); 5] = [
        (1, 3, &[2, 0, 0, 0, 0, 0]),
        (2, 9, &[6, 6, 6, 6]),
        (3, 10, &[14]),
        (4, 43, &[40, 42]),
        (5, 54, &[50]),
    ];
    for (k, most, turns) in want {
        assert_eq!(values(k), (most, turns.to_vec()), "{k} stones a pit");
    }
    // 6 stones: all 50 turns that take 69 win by 66.
    assert_eq!(values(6), (69, vec![66; 50]));
}

/// Issue 72: `game play --level <TAB>` completed file names; the levels
/// are its possible values now, and `--agent` completes no files.
#[test]
fn the_shell_completes_the_levels_not_file_names() {
    let (code, script, err) = run(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    let level = &script[script.find("--level)").expect("--level completed")..];
    let case = &level[..level.find(";;").unwrap()];
    assert!(
        case.contains("compgen -W \"easy medium hard perfect\""),
        "{case}"
    );
    let agent = &script[script.find("--agent)").expect("--agent completed")..];
    let case = &agent[..agent.find(";;").unwrap()];
    assert!(!case.contains("compgen -f"), "{case}");
}

/// Issue 72: `book show`'s avalanche turns (twenty picks and more)
/// overflowed their column; every verdict starts in one column, and a
/// book of one turn says "1 whole turn".
#[test]
fn book_show_keeps_its_column_for_long_turns() {
    let (code, out, err) = run(&["game", "book", "show", "--top", "10"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(", 1 whole turn deep;"), "{out}");
    assert!(!out.contains(" 1 whole turns"), "{out}");
    for book in out.split("\nBook: ") {
        let starts: Vec<usize> = book
            .lines()
            .filter(|l| l.starts_with("  ") && l.contains(". "))
            .map(|l| l.find(" you ").or_else(|| l.find(" a draw")).unwrap())
            .collect();
        assert!(starts.len() >= 2, "{book}");
        assert!(starts.iter().all(|&s| s == starts[0]), "{book}");
    }
}
