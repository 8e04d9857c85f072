//! Integration tests of the binary, all through one helper.

use assert_cmd::Command;
use serde_json::Value;

/// Run `mancala-sweep ARGS` (in the test's own cache folder); returns
/// (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    crate::common::run_bin(args, "")
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn solve_json_avalanche_lines_replay_through_the_binary() {
    let v = json(&["solve", "--rules", "avalanche", "--json", "--all"]);
    assert_eq!(v["format"], "mancala-sweep-solve/1");
    assert_eq!(v["best_store"], 43);
    assert_eq!(v["total_stones"], 48);
    assert_eq!(v["sweep"], false);
    assert_eq!(v["positions"], 9591);
    assert_eq!(v["rules"]["scope"], "own");
    assert_eq!(v["rules"]["relay"], true);
    assert_eq!(v["rules"]["capture"], "none");
    assert_eq!(v["start"]["pits"].as_array().unwrap().len(), 12);
    let lines = v["optimal"].as_array().unwrap();
    assert_eq!(
        lines.len().to_string(),
        v["optimal_count"].as_str().unwrap()
    );
    let total: u128 = v["turns_by_store"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse::<u128>().unwrap())
        .sum();
    assert_eq!(total.to_string(), v["turns_total"].as_str().unwrap());
    for line in lines {
        let picks: Vec<String> = line
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect();
        let mut args = vec!["replay", "--rules", "avalanche", "--json"];
        args.extend(picks.iter().map(String::as_str));
        let r = json(&args);
        assert_eq!(r["format"], "mancala-sweep-replay/1");
        assert_eq!(r["store"], 43);
        assert_eq!(r["to_move"], false);
        assert_eq!(r["pits"].as_array().unwrap().len(), 12);
    }
}

#[test]
fn solve_text_report() {
    let (code, out, _) = run(&[
        "solve", "--rules", "any-hole", "--stones", "3", "--limit", "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Best store:        36 of 36 stones: a sweep"),
        "{out}"
    );
    assert!(out.contains("Optimal sequences (1 of 2, in lexicographic order of pit numbers):"));
    assert!(out.contains("The first optimal sequence, pick by pick:"));
}

#[test]
fn kalah_lists_every_first_turn_reaching_two() {
    let v = json(&["solve", "--rules", "kalah", "--json"]);
    assert_eq!(v["best_store"], 2);
    assert_eq!(v["turns_total"], "10");
    assert_eq!(v["optimal"], serde_json::json!([[3, 4], [3, 5], [3, 6]]));
}

#[test]
fn overrides_change_the_rules() {
    let v = json(&[
        "solve",
        "--rules",
        "kalah",
        "--relay",
        "on",
        "--scope",
        "any",
        "--capture",
        "empty",
        "--pits",
        "3",
        "--stones",
        "2",
        "--json",
        "--limit",
        "0",
    ]);
    assert_eq!(
        v["rules"],
        serde_json::json!({"scope": "any", "relay": true, "capture": "empty"})
    );
    assert_eq!(v["total_stones"], 12);
    assert_eq!(v["listed"], 0);
}

#[test]
fn a_printed_board_reads_back_in() {
    let (_, out, _) = run(&["replay", "--rules", "avalanche", "5"]);
    // The diagram after pick 1: five lines after the "pick 1:" line.
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("pick 1:")).unwrap();
    let diagram = lines[at + 1..at + 6].join("\n");
    let v = json(&["replay", "--board", &diagram, "--json", "1"]);
    let expected = json(&["replay", "--rules", "avalanche", "--json", "5", "1"]);
    assert_eq!(v["pits"], expected["pits"]);
    assert_eq!(v["store"], expected["store"]);
}

#[test]
fn replay_reports_the_end_of_the_turn() {
    let (code, out, _) = run(&[
        "replay", "6", "3", "2", "5", "1", "1", "5", "5", "6", "1", "3", "4", "6", "2", "6", "6",
        "5", "2", "6", "2", "6", "4", "6", "5", "6", "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with("Final store: 43 of 48 stones; the turn is over\n"),
        "{out}"
    );
    let (_, out, _) = run(&["replay", "3"]);
    assert!(out.contains("still to move"));
}

/// Every bad input: one line on stderr naming the value, exit status 2.
#[test]
fn bad_input_is_one_line_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "--rules", "oware"], "'oware'"),
        (&["solve", "--rules", "oware"], "avalanche, any-hole, kalah"),
        (&["solve", "--scope", "mine"], "'mine'"),
        (&["solve", "--relay", "yes"], "'yes'"),
        (&["solve", "--pits", "0"], "0 is not allowed: give a whole number from 1 to 16"),
        (&["solve", "--pits", "17"], "17 is too large: give a whole number up to 16"),
        (&["solve", "--stones", "-2"], "-2 is not allowed: give a whole number from 0 to 255"),
        (&["solve", "--stones", "40"], "480 stones"),
        (
            &["solve", "--pits", "16", "--stones", "4"],
            "the exhaustive search takes at most 97 stones on 32 pits",
        ),
        (
            &[
                "atlas",
                "--pits",
                "1",
                "--stones",
                "1",
                "--out",
                "/proc/no-such-dir/atlas",
            ],
            "cannot create the directory",
        ),
        (
            &["puzzles", "check", "/no/such/file.json"],
            "\"/no/such/file.json\" is neither a file nor a collection name: give a puzzle collection file or one of avalanche, any-hole, capture",
        ),
        (&["solve", "--threads", "0"], "0 is not allowed: give a whole number from 1 to 256"),
        (
            &["game", "match", "random", "greedy", "--games", "5000000000"],
            "5000000000 is too large: give a whole number up to 4294967295",
        ),
        (&["solve", "--limit", "-1"], "'-1'"),
        (
            &["solve", "--board", "4 4 4 / 0 0 / 4 4"],
            "top row has 3 pits and the bottom row 2",
        ),
        (
            &["solve", "--board", "4 -4 4 / 0 0 / 4 4 4"],
            "count -4 is negative",
        ),
        (
            &["solve", "--board", "4 4 4 / 0 0 / 4 4 four"],
            "\"four\" is not a count",
        ),
        (&["solve", "--board", "4 4 4"], "1 row found"),
        (&["solve", "--board", "0 0 / 0 0 / 0 0"], "no legal pick"),
        (
            &["solve", "--board", "9 / 0 0 / 0"],
            "no legal pick under scope own",
        ),
        (
            &["replay", "13"],
            "pick 1 of 1 (13): no such pit: your pits are 1 to 6",
        ),
        (
            &["replay", "--rules", "any-hole", "13"],
            "pick 1 of 1 (13): no such pit: pits are numbered 1 to 12",
        ),
        (&["replay", "0"], "pick 1 of 1 (0): no such pit"),
        (
            &["replay", "--rules", "avalanche", "8"],
            "pick 1 of 1 (8): an opponent pit",
        ),
        (&["replay", "3", "3"], "pick 2 of 2 (3): the pit is empty"),
        (
            &["replay", "--rules", "kalah", "1", "2"],
            "pick 2 of 2 (2): the turn has already ended",
        ),
        (&["replay", "--", "-5"], "\"-5\" is not a pit number"),
        (&["replay"], "<PICK>"),
        (
            &["solve", "--board", "4 4 / 0 0 / 4 4", "--pits", "2"],
            "cannot be used with",
        ),
        (&["solve", "--frobnicate"], "--frobnicate"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn help_and_version_exit_zero() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("solve"));
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("mancala-sweep "));
}

#[test]
fn the_memory_guard_stops_cleanly_and_says_how_far_it_got() {
    let (code, out, err) = run(&[
        "solve",
        "--rules",
        "any-hole",
        "--pits",
        "5",
        "--max-memory",
        "1M",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the search stopped at step "), "{err}");
    assert!(err.contains("positions"), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
    assert!(err.contains("`find`"), "{err}");
    let (code, _, err) = run(&["solve", "--max-memory", "lots"]);
    assert_eq!(code, 2);
    assert!(err.contains("\"lots\" is not a size"), "{err}");
}

#[test]
fn find_json_reports_a_replayed_sweep() {
    let v = json(&[
        "find", "--rules", "any-hole", "--stones", "3", "--json", "--seed", "3",
    ]);
    assert_eq!(v["format"], "mancala-sweep-find/1");
    assert_eq!(v["best_store"], 36);
    assert_eq!(v["total_stones"], 36);
    assert_eq!(v["sweep"], true);
    assert_eq!(v["exact"], true);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let picks: Vec<String> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    let mut args = vec!["replay", "--rules", "any-hole", "--stones", "3", "--json"];
    args.extend(picks.iter().map(String::as_str));
    let r = json(&args);
    assert_eq!(r["store"], 36);
    assert_eq!(r["to_move"], false);
}

#[test]
fn find_text_says_whether_the_answer_is_a_lower_bound() {
    // A fixed beam is one round, the same whatever the machine's speed:
    // with 2 positions a bucket it falls short of the 72/72 sweep, and its
    // line replays to what it claims.
    let args = [
        "find",
        "--rules",
        "any-hole",
        "--stones",
        "6",
        "--beam",
        "2",
        "--seconds",
        "600",
    ];
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    assert!(
        out.contains(" of 72 stones, a lower bound: the search dropped positions"),
        "{out}"
    );
    assert!(out.contains("Search:     1 round, last beam 2, "), "{out}");
    let v = json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["exact"], false);
    assert_eq!(v["rounds"], 1);
    let best = v["best_store"].as_u64().unwrap();
    assert!(best < 72 && out.contains(&format!("Best found: {best} of 72")));
    let picks: Vec<String> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    let mut replay = vec!["replay", "--rules", "any-hole", "--stones", "6", "--json"];
    replay.extend(picks.iter().map(String::as_str));
    let r = json(&replay);
    assert_eq!(r["store"].as_u64(), Some(best));
    assert_eq!(r["to_move"], false);
    let (_, out, _) = run(&["find", "--rules", "avalanche"]);
    assert!(
        out.contains("Best found: 43 of 48 stones, proved best"),
        "{out}"
    );
}

#[test]
fn find_bad_flags() {
    for (args, needle) in [
        (&["find", "--seconds", "0"][..], "is not a time budget"),
        (&["find", "--seconds", "soon"][..], "is not a time budget"),
        (
            &["find", "--beam", "0"][..],
            "0 is not allowed: give a whole number from 1 to 100000000",
        ),
        (&["find", "--seed", "-1"][..], "'-1'"),
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `MANCALA_SWEEP_KERNEL` caps the kernel: every value gives the same JSON
/// (but the time), and a value that is not a kernel is bad input.
#[test]
fn the_kernel_variable_changes_the_speed_not_the_answer() {
    let args = ["solve", "--rules", "any-hole", "--stones", "2", "--json"];
    let answer = |kernel: &str| {
        let out = Command::cargo_bin("mancala-sweep")
            .unwrap()
            .args(args)
            .env("MANCALA_SWEEP_KERNEL", kernel)
            .output()
            .unwrap();
        assert!(out.status.success(), "{kernel}");
        let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["seconds"] = Value::Null;
        v
    };
    let auto = answer("auto");
    // The old names of the AVX-512 VBMI kernels still read.
    for kernel in [
        "scalar",
        "avx2",
        "avx512vbmi",
        "avx512bw",
        "avx512vbmi2",
        "lockstep",
        "stream",
    ] {
        assert_eq!(answer(kernel), auto, "{kernel}");
    }
    let out = Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(args)
        .env("MANCALA_SWEEP_KERNEL", "avx9")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "error: MANCALA_SWEEP_KERNEL: \"avx9\" is not a kernel: use scalar, avx2, avx512vbmi, avx512bw, avx512vbmi2 or auto\n"
    );
}

/// Regression (issue 15): with no command, the help came out squashed on
/// one line without `Usage:`.
#[test]
fn no_arguments_print_the_whole_help_with_usage() {
    for (args, usage) in [
        (&[][..], "Usage: mancala-sweep <COMMAND>"),
        (&["puzzles"][..], "Usage: mancala-sweep puzzles <COMMAND>"),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.lines().any(|l| l == usage), "{args:?}: {err}");
        assert!(err.lines().count() > 5, "{args:?}: {err}");
    }
}

/// Regression (issue 15): `replay x` always said "1 to 12 on a 2x6 board".
#[test]
fn a_bad_pick_names_the_pits_of_this_board() {
    let (code, out, err) = run(&["replay", "--pits", "3", "x"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err,
        "error: \"x\" is not a pit number: pits are numbered 1 to 6 on this 2x3 board\n"
    );
}

/// Regression (issue 15): a tampered collection printed every mismatch on
/// one line, each with its id twice.
#[test]
fn check_lists_each_mismatch_on_its_own_line_with_its_id_once() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/avalanche.json"
    ))
    .unwrap();
    let mut c: Value = serde_json::from_str(&text).unwrap();
    let puzzles = c["puzzles"].as_array_mut().unwrap();
    puzzles.truncate(3);
    let goal = puzzles[0]["goal_store"].as_u64().unwrap();
    puzzles[0]["goal_store"] = (goal + 1).into();
    puzzles[1]["board"] = "9 9 9 / 0 0 / 9 9 9".into();
    let ids: Vec<String> = puzzles
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    let path = std::env::temp_dir().join(format!("ms-tampered-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&c).unwrap()).unwrap();
    let (code, out, err) = run(&["puzzles", "check", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("error: "), "{err}");
    assert!(lines[0].contains("mismatches"), "{err}");
    for line in &lines[1..] {
        let id = ids
            .iter()
            .find(|id| line.starts_with(&format!("  {id}: ")))
            .expect(line);
        assert_eq!(line.matches(id.as_str()).count(), 1, "{line}");
    }
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with(&format!("  {}: goal_store", ids[0]))),
        "{err}"
    );
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with(&format!("  {}: its board", ids[1]))),
        "{err}"
    );
}

/// `solve` says what to tap before its counts, and `--brief` only that;
/// the picks it names are the first listed line, which replays to the best.
#[test]
fn solve_starts_with_what_to_tap_and_brief_prints_only_that() {
    let (code, full, _) = run(&["solve", "--rules", "avalanche"]);
    assert_eq!(code, 0);
    let (code, brief, _) = run(&["solve", "--rules", "avalanche", "--brief"]);
    assert_eq!(code, 0);
    assert_eq!(brief.lines().count(), 3, "{brief}");
    assert!(full.contains(&brief), "{full}");
    assert!(full.find(&brief).unwrap() < full.find("Best store:").unwrap());
    let first = brief.lines().next().unwrap();
    assert!(
        first.starts_with("Best turn: tap pit 6 (your rightmost), then 3, 2, "),
        "{first}"
    );
    assert!(
        first.ends_with(" picks, ending with 43 of 48 stones in your store."),
        "{first}"
    );
    let picks: Vec<String> = first["Best turn: tap pit ".len()..first.rfind(": ").unwrap()]
        .replace(" (your rightmost), then", ",")
        .split(", ")
        .map(str::to_string)
        .collect();
    let v = json(&["solve", "--rules", "avalanche", "--json"]);
    let listed: Vec<String> = v["optimal"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(picks, listed);
    assert_eq!(
        brief.lines().nth(1),
        Some("2 pick sequences reach 43; this is the first of them in pit order.")
    );
    // It says what it does not answer, and the command that does (issue 32).
    assert_eq!(
        brief.lines().nth(2),
        Some("This is the most stones this turn, not always the best turn for the game; for that: mancala-sweep game analyze --rules avalanche --board \"4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4\"")
    );
    let (code, _, err) = run(&["solve", "--brief", "--json"]);
    assert_eq!(code, 2, "{err}");
}

/// Each pick says what it did: where the last stone of each sowing fell,
/// each relay, a capture, and whether the turn goes on.
#[test]
fn each_pick_says_what_happened() {
    let pick_lines = |args: &[&str]| -> Vec<String> {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .filter(|l| l.starts_with("pick "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        pick_lines(&["replay", "--rules", "kalah", "--board", "0 0 0 4 0 0 / 0 0 / 0 0 1 0 0 0", "3"]),
        ["pick 1: pit 3 (1 stone) → pit 4 (empty), captured it and 4 from pit 9 opposite: the turn is over; store 5"]
    );
    assert_eq!(
        pick_lines(&["replay", "--rules", "kalah", "3", "1"]),
        [
            "pick 1: pit 3 (4 stones) → your store: free turn; store 1",
            "pick 2: pit 1 (4 stones) → pit 5: the turn is over; store 1",
        ]
    );
    // Relay: pit 2's 9 stones end in pit 10, whose 9 then reach the store.
    let lines = pick_lines(&["replay", "--rules", "any-hole", "11", "2"]);
    assert_eq!(
        lines[1],
        "pick 2: pit 2 (9 stones) → pit 10, took up 9 → your store: free turn; store 7"
    );
}

/// Completions and the manual page come from the clap definitions.
#[test]
fn completions_and_the_manual_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains("solve") && out.contains("max-memory"),
            "{shell}"
        );
    }
    let (code, out, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH mancala-sweep 1"), "{out}");
    let (code, _, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// GamePigeon's capture mode by the name a player types: Kalah's rules.
#[test]
fn the_capture_preset_is_kalah() {
    let mut capture = json(&["solve", "--rules", "capture", "--json"]);
    let mut kalah = json(&["solve", "--rules", "kalah", "--json"]);
    capture["seconds"] = Value::Null;
    kalah["seconds"] = Value::Null;
    assert_eq!(capture, kalah);
    assert_eq!(capture["preset"], "kalah");
    let (_, out, _) = run(&["solve", "--help"]);
    assert!(
        out.contains("capture:   GamePigeon's capture mode"),
        "{out}"
    );
}

/// `--color always` marks the pit just picked and where its last stone fell;
/// piped output (auto) and `never` have no colour codes.
#[test]
fn colour_marks_the_picked_pit_and_the_landing() {
    let (_, plain, _) = run(&["replay", "--rules", "kalah", "3", "1"]);
    assert!(!plain.contains('\x1b'), "auto is off when piped");
    let (_, never, _) = run(&["replay", "--rules", "kalah", "--color", "never", "3", "1"]);
    assert_eq!(never, plain);
    let (_, colour, _) = run(&["replay", "--rules", "kalah", "--color", "always", "3", "1"]);
    // Pick 1 (pit 3) lands in the store; pick 2 (pit 1) in pit 5.
    assert!(colour.contains("\x1b[1;32m1\x1b[0m"), "{colour}");
    assert!(
        colour.contains("\x1b[1;33m 0\x1b[0m  5  1  6 \x1b[1;32m 6\x1b[0m"),
        "{colour}"
    );
    // Without the codes it is the plain text.
    let stripped = colour
        .replace("\x1b[1;32m", "")
        .replace("\x1b[1;33m", "")
        .replace("\x1b[0m", "");
    assert_eq!(stripped, plain);
}

#[test]
fn solve_spill_counts_like_memory_resumes_and_refuses_clearly() {
    let dir = std::env::temp_dir().join(format!("mancala-sweep-cli-spill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let solve = |extra: &[&'static str]| -> Vec<&str> {
        let mut args = vec![
            "solve", "--rules", "any-hole", "--pits", "5", "--stones", "3",
        ];
        args.extend(extra);
        args
    };
    let mut memory = json(&solve(&["--limit", "0", "--json"]));
    let (code, out, err) = run(&[solve(&["--json", "--spill"]), vec![d]].concat());
    assert_eq!(code, 0, "{err}");
    let mut spilled: Value = serde_json::from_str(&out).unwrap();
    memory["seconds"] = Value::Null;
    spilled["seconds"] = Value::Null;
    assert_eq!(spilled, memory);
    // Finished: the same command answers from the checkpoint and says so.
    let (code, out, err) = run(&[solve(&["--spill"]), vec![d]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with(&format!("the search in {d} is finished")),
        "{err}"
    );
    assert!(out.contains("(--spill counts only)"), "{out}");
    // Another search in the same directory: bad input.
    let (code, _, err) = run(&["solve", "--rules", "kalah", "-q", "--spill", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds another search"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // The disk guard stops the run cleanly, names the flag and keeps what
    // was finished.
    let (code, _, err) = run(&[solve(&["-q", "--max-disk", "100K", "--spill"]), vec![d]].concat());
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("more than 100.00 KiB") && err.contains("(--max-disk)"),
        "{err}"
    );
    assert!(dir.join("checkpoint.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // --max-disk needs --spill; --spill lists no lines.
    for bad in [
        &["solve", "--max-disk", "1G"][..],
        &["solve", "--all", "--spill", d],
    ] {
        let (code, _, err) = run(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// `game endgame` builds a file that `game solve --endgame` reads: the same
/// value as without it. Bad requests and files get one line and exit 2.
#[test]
fn game_endgame_files_and_their_bad_input() {
    let dir = std::env::temp_dir().join(format!("ms-cli-endgame-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("k4.db");
    let db = db.to_str().unwrap();
    let (code, out, err) = run(&[
        "game", "endgame", "--pits", "4", "--up-to", "10", "--out", db,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "every position with at most 10 stones in the pits of 4 pits a side (43758 positions)"
        ),
        "{out}"
    );
    let plain = json(&["game", "solve", "--pits", "4", "--stones", "3", "--json"]);
    let with = json(&[
        "game",
        "solve",
        "--pits",
        "4",
        "--stones",
        "3",
        "--json",
        "--endgame",
        db,
    ]);
    assert_eq!(
        plain["value"], 6,
        "Kalah(4,3): +6 (tests/data/game_values.txt)"
    );
    assert_eq!(with["value"], plain["value"]);
    assert_eq!(with["pv"], plain["pv"]);
    // A match of perfect agents reading the file plays the same games.
    let perfect = |extra: &[&str]| {
        let mut args = vec![
            "game", "match", "perfect", "perfect", "--pits", "4", "--stones", "3", "--games", "4",
            "--json", "--quiet",
        ];
        args.extend_from_slice(extra);
        let doc = json(&args);
        let games = doc["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 4);
        games
            .iter()
            .map(|g| (g["value"].clone(), g["turns"].clone(), g["picks"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(perfect(&["--endgame", db]), perfect(&[]));

    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, "not a database\n").unwrap();
    let garbage = garbage.to_str().unwrap();
    for (args, says) in [
        (
            vec!["game", "solve", "--pits", "5", "--endgame", db],
            "an endgame database for 4 pits a side under kalah (scope=own relay=off capture=kalah), not for 5 pits a side",
        ),
        (
            vec!["game", "solve", "--pits", "4", "--capture", "empty", "--endgame", db],
            "not for 4 pits a side under scope=own relay=off capture=empty",
        ),
        (
            vec!["game", "solve", "--pits", "4", "--endgame", garbage],
            "not an endgame database",
        ),
        (
            vec!["game", "match", "perfect", "greedy", "--pits", "5", "--endgame", db],
            "not for 5 pits a side",
        ),
        (
            vec!["game", "play", "--pits", "5", "--level", "perfect", "--endgame", db],
            "not for 5 pits a side",
        ),
        (
            vec!["game", "endgame", "--pits", "4", "--up-to", "12", "--quiet", "--out", garbage],
            "not an endgame database",
        ),
        (
            vec!["game", "endgame", "--scope", "any", "--up-to", "5", "--out", db],
            "a database needs scope own",
        ),
        (
            vec!["game", "endgame", "--up-to", "0", "--out", db],
            "up to 0 stones: 1 to 127 are allowed",
        ),
        (
            vec!["game", "endgame", "--up-to", "30", "--max-memory", "1G", "--out", db],
            "more than the memory cap of 1073741824 bytes",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32: the `game` commands play kalah unless told otherwise, and
/// their help said `[default: avalanche]` (the flag is shared with `solve`).
#[test]
fn game_help_gives_the_kalah_default_it_uses() {
    for command in ["solve", "analyze", "play", "match", "endgame"] {
        let (code, out, _) = run(&["game", command, "--help"]);
        assert_eq!(code, 0);
        assert!(
            out.contains("The rules, by name [default: kalah]"),
            "game {command}: {out}"
        );
        assert!(!out.contains("[default: avalanche]"), "game {command}");
    }
    let (_, out, _) = run(&["solve", "--help"]);
    assert!(out.contains("The rules, by name [default: avalanche]"));
    // What the help says is what the command does.
    let v = json(&[
        "game", "solve", "--pits", "3", "--stones", "2", "--json", "-q",
    ]);
    assert_eq!(v["preset"], "kalah");
}

/// Issue 32: `--rules capture` was echoed as `Rules: kalah`, as if the
/// flag had not been taken.
#[test]
fn capture_is_named_where_the_rules_are_echoed() {
    let named = "Rules: capture (GamePigeon) = kalah (scope=own relay=off capture=kalah)\n";
    for args in [
        &["replay", "--rules", "capture", "3"][..],
        &["solve", "--rules", "capture", "-q"],
        &["find", "--rules", "capture", "--seconds", "1", "-q"],
        &[
            "game", "solve", "--rules", "capture", "--pits", "3", "--stones", "2", "-q",
        ],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.starts_with(named), "{args:?}: {out}");
    }
    let (_, out, _) = run(&["replay", "--rules", "kalah", "3"]);
    assert!(out.starts_with("Rules: kalah (scope=own"), "{out}");
}

/// Issue 32: `replay --rules any-hole 11 2 3 --color never` took `--color`
/// for a pick; a negative pick is still refused with one line.
#[test]
fn flags_after_the_picks_of_replay_are_flags() {
    let (code, after, err) = run(&[
        "replay", "--rules", "any-hole", "11", "2", "3", "--color", "never",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, before, _) = run(&[
        "replay", "--rules", "any-hole", "--color", "never", "11", "2", "3",
    ]);
    assert_eq!(after, before);
    assert!(!after.contains('\u{1b}'));
    let (code, out, err) = run(&["replay", "3", "-3"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err,
        "error: \"-3\" is not a pit number: pits are numbered 1 to 12 on this 2x6 board\n"
    );
}

/// The subcommands the help of `mancala-sweep ARGS` lists, recursively, as
/// the names of their manual pages (`mancala-sweep-game-solve`).
fn commands_in_help(args: &mut Vec<String>, pages: &mut Vec<String>) {
    let argv: Vec<&str> = args.iter().map(String::as_str).chain(["--help"]).collect();
    let (code, out, _) = run(&argv);
    assert_eq!(code, 0, "{argv:?}");
    pages.push(
        std::iter::once("mancala-sweep")
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("-"),
    );
    let Some(list) = out.split("Commands:\n").nth(1) else {
        return;
    };
    let names: Vec<String> = list
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(String::from)
        .collect();
    for name in names {
        args.push(name);
        commands_in_help(args, pages);
        args.pop();
    }
}

/// Issue 32: `man` wrote only the top-level page, which refers to
/// `mancala-sweep-solve(1)` and others; `man --out DIR` writes them all.
#[test]
fn man_out_writes_a_page_for_every_command() {
    let mut pages = Vec::new();
    commands_in_help(&mut Vec::new(), &mut pages);
    assert!(
        pages.contains(&"mancala-sweep-game-solve".to_string()),
        "{pages:?}"
    );
    assert!(
        pages.contains(&"mancala-sweep-puzzles-list".to_string()),
        "{pages:?}"
    );
    let dir = std::env::temp_dir().join(format!("ms-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = run(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!("{} manual pages written to ", pages.len())),
        "{out}"
    );
    for page in &pages {
        let text = std::fs::read_to_string(dir.join(format!("{page}.1")))
            .unwrap_or_else(|e| panic!("{page}.1: {e}"));
        assert!(text.starts_with(".ie"), "{page}: {text}");
        assert!(text.contains(&format!(".TH {page} 1")), "{page}: {text}");
    }
    // Every page the top-level one refers to is there.
    let top = std::fs::read_to_string(dir.join("mancala-sweep.1")).unwrap();
    assert!(top.contains("mancala\\-sweep\\-solve(1)"), "{top}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), pages.len());
    std::fs::remove_dir_all(&dir).unwrap();
    // Without --out, the top-level page on stdout, as before.
    let (code, out, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH mancala-sweep 1"));
}

/// Issue 32: clap's "did you mean" tip ran into the error line
/// (`found tip: a similar argument exists`).
#[test]
fn a_clap_tip_is_a_sentence_of_its_own() {
    let (code, _, err) = run(&["solve", "--pit", "4"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: unexpected argument '--pit' found. Tip: a similar argument exists: '--pits'.\n"
    );
}

/// Issue 32: `find` said `Line (1 picks)`.
#[test]
fn a_line_of_one_pick_is_one_pick() {
    let (code, out, err) = run(&[
        "find", "--rules", "kalah", "--pits", "1", "--stones", "1", "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Line (1 pick): 1\n"), "{out}");
    let (_, out, _) = run(&["find", "--rules", "kalah", "--seconds", "1", "-q"]);
    assert!(out.contains("Line (2 picks): "), "{out}");
}

/// Issue 32: `game endgame` ignored `--stones` and `--board` in silence.
#[test]
fn game_endgame_refuses_a_start_position() {
    let dir = std::env::temp_dir().join(format!("ms-endgame-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("e.db");
    let db = db.to_str().unwrap();
    for (args, says) in [
        (
            vec![
                "game", "endgame", "--stones", "3", "--up-to", "4", "--out", db,
            ],
            "error: --stones 3: `game endgame` takes no start position",
        ),
        (
            vec![
                "game",
                "endgame",
                "--board",
                "1 / 0 0 / 1",
                "--up-to",
                "4",
                "--out",
                db,
            ],
            "error: --board \"1 / 0 0 / 1\": `game endgame` takes no start position",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(says), "{err}");
    }
    assert!(!std::path::Path::new(db).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32: a finished position printed an empty `Best first turn: `, and
/// a value was a bare `+6`.
#[test]
fn game_solve_says_who_wins_and_by_how_much() {
    let (code, out, err) = run(&["game", "solve", "--board", "1 2 3 / 5 6 / 0 0 0", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Start: 1 2 3 / 5 6 / 0 0 0\n"), "{out}");
    assert!(
        out.contains("The game is over: no pick is left, and the stones left in each row went to its owner's store. It ends 6 to 11: the player to move loses by 5 stones (-5).\n"),
        "{out}"
    );
    assert!(!out.contains("Best first turn"), "{out}");
    let (code, out, _) = run(&["game", "solve", "--pits", "4", "--stones", "3", "-q"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "Value with perfect play: +6 for the player to move (the player to move wins by 6 stones).\n"
        ),
        "{out}"
    );
}

/// Issue 32: `game match` did not say what "score" and "Elo" are, nor that
/// the first player won every game (avalanche, random against greedy).
#[test]
fn game_match_explains_its_numbers_and_a_clean_sweep() {
    let (code, out, err) = run(&[
        "game",
        "match",
        "random",
        "greedy",
        "--rules",
        "avalanche",
        "--games",
        "6",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("first player's score: 1.000"), "{out}");
    assert!(
        out.contains("Score: random's points a game (1 a win, ½ a draw; 0.500 is even). Elo difference: the rating gap that score means"),
        "{out}"
    );
    assert!(
        out.ends_with("The player who moved first won every game, whichever agent it was.\n"),
        "{out}"
    );
    let (_, out, _) = run(&[
        "game", "match", "random", "greedy", "--games", "8", "--seed", "5", "-q",
    ]);
    assert!(!out.contains("won every game"), "{out}");
}

#[cfg(feature = "cluster")]
#[test]
fn cluster_refusals_name_the_flags() {
    let base = ["solve", "--pits", "2", "--stones", "1", "--cluster"];
    let (code, _, err) = run(&[&base[..], &["--processes", "2", "--process", "2"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--process 2: with --processes 2 it must be 0 to 1"),
        "{err}"
    );
    let hosts = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-hosts.txt");
    std::fs::write(&hosts, "# one line\nnot-a-host\n").unwrap();
    let h = hosts.to_str().unwrap();
    let (code, _, err) = run(&[&base[..], &["--hostfile", h]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("--hostfile {h}: \"not-a-host\" is not host:port")),
        "{err}"
    );
    std::fs::write(&hosts, "a:1\n").unwrap();
    let (code, _, err) = run(&[&base[..], &["--hostfile", h, "--processes", "2"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("it names 1 processes, and --processes 2 needs that many"),
        "{err}"
    );
}
