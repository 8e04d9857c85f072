//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during a long run: the workers stop,
//! the run says what it knows so far, marked incomplete, keeps or removes
//! what it wrote, and exits with the shell's status for the signal (130,
//! 143, 129).
//!
//! Each test waits until the run is under way (its first progress line,
//! with `MANCALA_SWEEP_PROGRESS=lines`) instead of sleeping a guessed time,
//! so a slow or busy machine cannot make the signal arrive before the work.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// What an interrupted run left: exit status, stdout, and stderr lines.
struct Stopped {
    code: i32,
    out: String,
    err: Vec<String>,
    /// From the signal to the exit.
    took: Duration,
}

impl Stopped {
    /// True when a line of stderr starts with `start`.
    fn said(&self, start: &str) -> bool {
        self.err.iter().any(|l| l.starts_with(start))
    }
}

/// Start the binary with progress as lines, wait for a stderr line that
/// starts with `ready`, send SIGINT, and collect what it printed.
fn interrupt(args: &[&str], ready: &str) -> Stopped {
    // A temporary directory of its own: a search that goes to disk by
    // itself names its folder after the search alone, and another test
    // running the same search at the same time must not find it.
    let name: String = args
        .join("-")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(80)
        .collect();
    let tmp = temp_dir(&format!("sigint-{name}"));
    std::fs::create_dir_all(&tmp).unwrap();
    let s = stop_with("INT", args, ready, Some(&tmp));
    let _ = std::fs::remove_dir_all(&tmp);
    s
}

/// As [`interrupt`], with the signal `signal` (`INT`, `TERM`, `HUP`) and,
/// when given, `TMPDIR` for the child.
fn stop_with(signal: &str, args: &[&str], ready: &str, tmpdir: Option<&Path>) -> Stopped {
    stop_when(signal, args, tmpdir, |line| line.starts_with(ready))
}

/// As [`stop_with`], once `ready` says yes to a stderr line (it sees them
/// all, in order).
fn stop_when(
    signal: &str,
    args: &[&str],
    tmpdir: Option<&Path>,
    mut ready: impl FnMut(&str) -> bool,
) -> Stopped {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"));
    // The test's own cache folder, never the user's.
    command.env("MANCALA_SWEEP_CACHE", crate::common::CACHE);
    if let Some(dir) = tmpdir {
        command.env("TMPDIR", dir);
    }
    let mut child = command
        .args(args)
        .env("MANCALA_SWEEP_PROGRESS", "lines")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let line = line.unwrap();
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut err = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => {
                let go = ready(&line);
                err.push(line);
                if go {
                    break;
                }
            }
            Err(e) => {
                let _ = child.kill();
                panic!("no line it waited for ({e}); stderr so far: {err:?}");
            }
        }
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let signalled = std::time::Instant::now();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    let took = signalled.elapsed();
    reader.join().unwrap();
    err.extend(rx.try_iter());
    Stopped {
        code,
        out,
        err,
        took,
    }
}

#[test]
fn solve_stops_on_sigint_with_a_partial_report() {
    // Any-hole 2x6x4 takes seconds; stop it once it counts.
    let s = interrupt(&["solve", "--rules", "any-hole"], "counting store ");
    assert_eq!(s.code, 130, "{:?}", s.err);
    assert!(s.out.is_empty(), "{}", s.out);
    let last = s.err.last().unwrap();
    assert!(
        s.err[..s.err.len() - 1]
            .iter()
            .all(|l| l.starts_with("counting store ")),
        "{:?}",
        s.err
    );
    assert!(
        last.starts_with("interrupted: the search is incomplete; it reached step "),
        "{last}"
    );
    assert!(
        last.contains(" positions; the best final store so far is "),
        "{last}"
    );
    // Issue 72: without --spill nothing is kept, and the line says how the
    // next run would keep its work.
    assert!(
        last.ends_with("nothing is kept: with --spill DIR the search keeps its work on disk (counts only), and the same command resumes it after a stop"),
        "{last}"
    );
}

#[test]
fn find_stops_on_sigterm_with_its_best_line_so_far() {
    let s = stop_with(
        "TERM",
        &[
            "find",
            "--rules",
            "any-hole",
            "--stones",
            "6",
            "--beam",
            "1000000",
            "--seconds",
            "600",
            "--json",
        ],
        "round 1 ",
        None,
    );
    assert_eq!(s.code, 143, "{:?}", s.err);
    let v: serde_json::Value = serde_json::from_str(&s.out).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["exact"], false);
    assert!(!v["line"].as_array().unwrap().is_empty());
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ms-interrupt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn no_temp_files(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .unwrap()
        .all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
}

#[test]
fn atlas_stopped_by_sighup_keeps_the_finished_cells_and_complete_files() {
    let dir = temp_dir("atlas");
    let out = dir.to_string_lossy().to_string();
    let s = stop_with(
        "HUP",
        &[
            "atlas",
            "--rules",
            "any-hole",
            "--pits",
            "1-6",
            "--stones",
            "3-6",
            "--budget-seconds",
            "60",
            "--out",
            &out,
        ],
        "cells 1/24 ",
        None,
    );
    assert_eq!(s.code, 129, "{:?}", s.err);
    assert!(
        s.err
            .last()
            .unwrap()
            .starts_with("interrupted: the atlas is incomplete"),
        "{:?}",
        s.err
    );
    let atlas: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("atlas.json")).unwrap()).unwrap();
    let done = atlas["cells"].as_array().unwrap().len();
    assert!((1..24).contains(&done), "{done}");
    assert!(no_temp_files(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regression (issue 15): in `puzzles play` the first Ctrl-C did nothing and
/// the second exited without a newline. Now the first one ends the game at
/// once, on a fresh line.
#[test]
fn ctrl_c_in_puzzles_play_exits_at_once_on_a_new_line() {
    let collection = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/avalanche.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(["puzzles", "play", collection])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep stdin open: the game waits at its prompt.
    let _stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"pick> ") {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "no prompt: {seen:?}");
        seen.push(byte[0]);
    }
    assert!(Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(rest, b"\n");
}

/// Regression (issue 15): Ctrl-C during `puzzles check` said how far the
/// search of some puzzle had got, not which puzzle.
#[test]
fn ctrl_c_in_puzzles_check_names_the_puzzle() {
    let collection = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/any-hole.json");
    // The second puzzle is any-hole 2x6x4, which takes seconds to check.
    let s = interrupt(
        &["puzzles", "check", collection],
        "puzzles 2/240 | checking start-65b876ac7338",
    );
    assert_eq!(s.code, 130, "{:?}", s.err);
    assert_eq!(
        s.err.last().unwrap(),
        "interrupted: the check stopped at puzzle start-65b876ac7338 (2 of 240); 0 mismatches in the puzzles before it"
    );
    // It said beforehand that this puzzle takes long.
    assert!(
        s.err[0].starts_with(
            "note: 1 of these puzzles take seconds to a minute each to check (start-65b876ac7338)"
        ),
        "{:?}",
        s.err
    );
}

#[test]
fn game_solve_stopped_by_sigterm_says_the_bounds_it_knows() {
    let s = stop_with(
        "TERM",
        &[
            "game", "solve", "--pits", "6", "--stones", "6", "--json", "--table", "64M",
        ],
        "solving",
        None,
    );
    assert_eq!(s.code, 143, "{:?}", s.err);
    let v: serde_json::Value = serde_json::from_str(&s.out).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["lower"].as_i64().unwrap() < v["upper"].as_i64().unwrap());
    assert!(s.said("interrupted: the value is between"), "{:?}", s.err);
    // Issue 72: how the next run keeps its work.
    assert!(
        s.err
            .iter()
            .any(|l| l.contains("; nothing is kept: with --checkpoint FILE")),
        "{:?}",
        s.err
    );
}

/// `game solve --checkpoint`: it writes its work as it goes, once more on
/// SIGTERM (exit 143, the bounds and the file named), leaves no temporary
/// file; the same command reads it back, says so, proves Kalah(6,3)'s
/// published +2 and removes the file.
#[test]
fn game_solve_stopped_by_sigterm_keeps_its_work_and_the_same_command_goes_on() {
    let dir = temp_dir("game-checkpoint");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k63.checkpoint");
    let file = file.to_str().unwrap();
    let args = [
        "game",
        "solve",
        "--pits",
        "6",
        "--stones",
        "3",
        "--threads",
        "1",
        "--table",
        "8M",
        "--checkpoint",
        file,
        "--checkpoint-every",
        "0.05",
        "--json",
    ];
    let s = stop_with("TERM", &args, "checkpoint written", None);
    assert_eq!(s.code, 143, "{:?}", s.err);
    assert!(s.said("writing the checkpoint "), "{:?}", s.err);
    let v: serde_json::Value = serde_json::from_str(&s.out).unwrap();
    assert_eq!(v["complete"], false);
    let last = s.err.last().unwrap();
    assert!(
        last.starts_with("interrupted: the value is between")
            && last.ends_with(&format!(
                "; the work is kept in {file}: the same command goes on from it"
            )),
        "{last}"
    );
    assert!(std::path::Path::new(file).exists());
    assert!(no_temp_files(&dir));
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!("resuming from {file}: the value is between ")),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["complete"].as_bool(), v["value"].as_i64()),
        (Some(true), Some(2))
    );
    assert!(
        !std::path::Path::new(file).exists(),
        "removed once the value is proved"
    );
    assert!(no_temp_files(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32, item 7: 16 pits a side were refused for "a transposition
/// table of 21091731189 bytes" that was really the endgame database filled
/// on demand (`--table` changed nothing); now the database is sized to fit
/// the cap, the solve runs, and Ctrl-C stops it within a second.
#[test]
fn game_solve_on_a_wide_board_fits_its_database_to_the_cap_and_stops_at_once() {
    let s = stop_when(
        "INT",
        &[
            "game",
            "solve",
            "--pits",
            "16",
            "--stones",
            "4",
            "--table",
            "1M",
            "--max-memory",
            "1G",
        ],
        None,
        // Under way: the search has counted picks.
        |l| l.contains(" picks | ") && !l.contains("| 0 picks"),
    );
    assert_eq!(s.code, 130, "{:?}", s.err);
    assert!(
        s.took < Duration::from_secs(2),
        "{:?} from Ctrl-C to the exit",
        s.took
    );
    assert!(s.said("interrupted: the value is between"), "{:?}", s.err);
}

#[test]
fn game_match_stopped_by_sighup_keeps_the_games_played_in_its_results_file() {
    let dir = temp_dir("match");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("match.json");
    let s = stop_with(
        "HUP",
        &[
            "game",
            "match",
            "mtdf:10",
            "mcts:3000",
            "--games",
            "400",
            "--json",
            "--out",
            file.to_str().unwrap(),
        ],
        "games",
        None,
    );
    assert_eq!(s.code, 129, "{:?}", s.err);
    let v: serde_json::Value = serde_json::from_str(&s.out).unwrap();
    assert_eq!(v["complete"], false);
    let played = v["games"].as_array().unwrap().len();
    assert!((1..400).contains(&played), "{played}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["games"], v["games"]);
    assert!(no_temp_files(&dir));
    assert!(
        s.err.iter().any(|l| l.contains("the same command resumes")),
        "{:?}",
        s.err
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_spilled_solve_stopped_by_sigint_resumes_and_a_search_past_the_memory_guard_spills() {
    let dir =
        std::env::temp_dir().join(format!("mancala-sweep-sigint-spill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = ["solve", "--rules", "any-hole", "--json", "--spill", d];
    let s = interrupt(&args, "counting store ");
    assert_eq!(s.code, 130, "{:?}", s.err);
    let last = s.err.last().unwrap();
    assert!(last.starts_with("interrupted: "), "{last}");
    assert!(last.contains(&format!("kept in {d} (")), "{last}");
    assert!(
        last.contains(&format!("to resume, or `rm -r {d}` to delete it")),
        "{last}"
    );
    // The same command finishes the count from the checkpoint.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("resuming the search in {d} at step ")),
        "{err}"
    );
    let mut spilled: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same counts as the search in memory.
    // Its own TMPDIR for each search that may go to disk by itself (see
    // `interrupt`).
    let tmp = temp_dir("sigint-spill-tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let memory = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .env("TMPDIR", &tmp)
        .args(["solve", "--rules", "any-hole", "--json", "--limit", "0"])
        .output()
        .unwrap();
    let mut memory: serde_json::Value = serde_json::from_slice(&memory.stdout).unwrap();
    spilled["seconds"] = serde_json::Value::Null;
    memory["seconds"] = serde_json::Value::Null;
    assert_eq!(spilled, memory);
    // Without --spill, a count that the memory guard would stop goes on
    // disk by itself, says so, and answers the same.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .env("TMPDIR", &tmp)
        .args([
            "solve",
            "--rules",
            "any-hole",
            "--json",
            "-q",
            "--max-memory",
            "300M",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("would hold more than 300.00 MiB: going on with the frontier on disk in "),
        "{err}"
    );
    let mut switched: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    switched["seconds"] = serde_json::Value::Null;
    assert_eq!(switched, memory);
    std::fs::remove_dir_all(&dir).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn game_endgame_stopped_by_sigterm_keeps_the_layers_finished_and_resumes() {
    let dir = temp_dir("endgame");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k6.db");
    let file = file.to_str().unwrap();
    let s = stop_with(
        "TERM",
        &[
            "game",
            "endgame",
            "--pits",
            "6",
            "--up-to",
            "22",
            "--out",
            file,
            "--threads",
            "1",
        ],
        "   13 stones",
        None,
    );
    assert_eq!(s.code, 143, "{:?}", s.err);
    assert!(
        s.err
            .iter()
            .any(|l| l.starts_with("interrupted: run the same command")),
        "{:?}",
        s.err
    );
    // It kept at least the 13 stones it had reported, and no temporary file.
    let kept: u32 = s
        .out
        .split("at most ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("{}", s.out));
    assert!((13..22).contains(&kept), "{}", s.out);
    assert!(no_temp_files(&dir));
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args([
            "game",
            "endgame",
            "--pits",
            "6",
            "--up-to",
            &(kept + 1).to_string(),
        ])
        .args(["--out", file, "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("at most {} stones", kept + 1))
            && text.contains(&format!("resumed from the {kept} stones")),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The search that went on disk by itself (the memory guard's switch) and
/// then got SIGTERM, as `timeout` sends it: exit 143, and a line that names
/// the folder, its size, the exact command that resumes and how to delete
/// it. That command resumes, answers, and removes the folder.
#[test]
fn a_search_that_spilled_by_itself_and_got_sigterm_names_its_folder_and_resumes() {
    let tmp = temp_dir("auto-spill");
    std::fs::create_dir_all(&tmp).unwrap();
    let args = [
        "solve",
        "--rules",
        "any-hole",
        "--max-memory",
        "300M",
        "--limit",
        "0",
    ];
    // Stop it once it counts on disk (buckets of the search in memory come
    // first, then the switch's line, then the spilled search's).
    let mut switched = false;
    let s = stop_when("TERM", &args, Some(&tmp), |line| {
        switched |= line.contains("going on with the frontier on disk in");
        switched && line.starts_with("counting store 2")
    });
    assert_eq!(s.code, 143, "{:?}", s.err);
    let last = s.err.last().unwrap();
    let folder: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert_eq!(folder.len(), 1, "{last}");
    let folder = folder[0].as_ref().unwrap().path();
    let shown = folder.display().to_string();
    assert!(last.contains(&format!("kept in {shown} (")), "{last}");
    assert!(
        last.contains(" --max-memory 300M --limit 0` to resume"),
        "{last}"
    );
    assert!(
        last.contains(&format!("`rm -r {shown}` to delete it")),
        "{last}"
    );
    // The same command resumes there and, once it has answered, removes it.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(args)
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(
        err.starts_with(&format!("resuming the search in {shown}")),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Best store:        48 of 48"), "{text}");
    assert!(!folder.exists(), "{shown} is left behind");
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// `serve` stops on SIGTERM with status 143, and on SIGHUP with 129.
#[test]
fn serve_stops_on_sigterm_and_sighup() {
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.starts_with("mancala-sweep web app: http://"), "{line}");
        assert!(Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap()
            .success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}");
    }
}

/// `game review` stopped by Ctrl-C: exit 130, the report of what was done
/// on stdout (here nothing proved: every turn says so), and the line that
/// says it stopped.
#[test]
fn game_review_stopped_by_sigint_prints_the_turns_done() {
    let s = interrupt(
        &[
            "game",
            "review",
            "--pits",
            "6",
            "--stones",
            "6",
            "--turns",
            "2, 2",
            "--seconds",
            "600",
            "--no-cache",
            "--no-book",
            "--table",
            "64M",
        ],
        "turns 0/2",
    );
    assert_eq!(s.code, 130, "{:?}", s.err);
    assert!(s.out.contains("turn  player"), "{}", s.out);
    assert!(s.out.contains("not reviewed (stopped)"), "{}", s.out);
    assert!(s.said("interrupted: the review was stopped"), "{:?}", s.err);
    assert!(s.took < Duration::from_secs(10), "{:?}", s.took);
}
