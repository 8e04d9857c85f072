//! `game cache`: the endgame databases of the cache folder listed, built
//! larger, read by the analysis, and removed.

use crate::common::run_bin_env;
use serde_json::Value;

/// The folder of a test of its own, empty.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ms-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A larger database built on the one the analysis made replaces it, is
/// read by the next analysis without a build, and gives the values of an
/// analysis without any database (the second path); `list` says what is
/// there, `remove` empties it.
#[test]
fn game_cache_builds_lists_and_removes() {
    let dir = folder("cli");
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    let run = |args: &[&str]| run_bin_env(args, "", &env);
    let (code, out, err) = run(&["game", "cache", "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no endgame databases yet"), "{out}");
    let analyze = [
        "game",
        "analyze",
        "--pits",
        "3",
        "--stones",
        "4",
        "--no-book",
        "--seconds",
        "20",
        "--json",
    ];
    let (code, first, err) = run(&analyze);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("building the endgame database"), "{err}");
    let (code, out, err) = run(&["game", "cache", "build", "--pits", "3", "--up-to", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("every position with at most 20 stones in the pits of 3 pits a side"),
        "{out}"
    );
    assert!(
        out.contains("removed ") && out.contains("its 16 stones"),
        "{out}"
    );
    let (code, out, err) = run(&["game", "cache", "list"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("kalah")).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert!(
        rows[0].split_whitespace().take(3).eq(["kalah", "3", "20"]),
        "{out}"
    );
    let (code, second, err) = run(&analyze);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("building"), "{err}");
    let (code, plain, err) = run(&[&analyze[..], &["--no-cache"]].concat());
    assert_eq!(code, 0, "{err}");
    let values = |out: &str| {
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["exact"], true, "{v}");
        crate::common::analysis_values(&v)
    };
    assert_eq!(values(&second), values(&plain));
    assert_eq!(values(&first), values(&plain));
    let (code, out, err) = run(&["game", "cache", "remove", "--rules", "avalanche"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no endgame database to remove"), "{out}");
    let (code, out, err) = run(&["game", "cache", "remove", "--all"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad requests: one line naming the value, exit 2, nothing written.
#[test]
fn game_cache_refuses_bad_requests() {
    let dir = folder("bad");
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    for (args, said) in [
        (
            &["game", "cache", "build", "--rules", "any-hole"][..],
            "--rules",
        ),
        (&["game", "cache", "build", "--up-to", "0"], "--up-to"),
        (
            &[
                "game",
                "cache",
                "build",
                "--up-to",
                "24",
                "--max-memory",
                "1M",
            ],
            "--max-memory",
        ),
        (
            &["game", "cache", "build", "--board", "1 1 / 0 0 / 1 1"],
            "--board",
        ),
        (
            &["game", "cache", "remove", "--all", "--pits", "3"],
            "--pits",
        ),
    ] {
        let (code, _, err) = run_bin_env(args, "", &env);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!dir.exists());
}

/// A build stopped part-way is listed with where it stopped and the
/// command that goes on; that command, run as printed, finishes it.
#[test]
fn a_stopped_build_is_listed_with_the_command_that_goes_on() {
    let dir = folder("stopped");
    std::fs::create_dir_all(&dir).unwrap();
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    // The layers a stopped build keeps: a 10-stone file under the name of
    // the 20-stone database of avalanche on 3 pits a side.
    let name = "mancala-sweep-endgame-1-relay-on-capture-none-3-pits-20-stones.bin";
    let out = dir.join(name);
    let (code, _, err) = run_bin_env(
        &[
            "game",
            "endgame",
            "--rules",
            "avalanche",
            "--pits",
            "3",
            "--up-to",
            "10",
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
        "",
        &env,
    );
    assert_eq!(code, 0, "{err}");
    let (code, list, err) = run_bin_env(&["game", "cache", "list"], "", &env);
    assert_eq!(code, 0, "{err}");
    let said =
        "(stopped at 10 of 20: `game cache build --rules avalanche --pits 3 --up-to 20` goes on)";
    assert!(list.contains(said), "{list}");
    let command = said.split('`').nth(1).unwrap();
    let args: Vec<&str> = command.split_whitespace().collect();
    let (code, _, err) = run_bin_env(&args, "", &env);
    assert_eq!(code, 0, "{err}");
    let (_, list, _) = run_bin_env(&["game", "cache", "list"], "", &env);
    assert!(!list.contains("(stopped at"), "{list}");
    assert!(
        list.lines()
            .any(|l| l.split_whitespace().take(3).eq(["avalanche", "3", "20"])),
        "{list}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
