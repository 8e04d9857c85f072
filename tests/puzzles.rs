//! Puzzle collections: the committed files check out and meet the issue's
//! bar, generation is deterministic, the loader never panics, play works.

use mancala_sweep::puzzle::{self, parse};
use proptest::prelude::*;
use std::collections::HashSet;
// assert_cmd's `assert()` on a std `Command`: a failure shows the command,
// its status and its output.
use assert_cmd::assert::OutputAssertExt;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
}

/// `puzzles play` on a collection of `p` alone (as `c` holds it), with
/// `script` on stdin: what it printed. One puzzle, so that the prompts
/// offer no next one.
fn play_alone(c: &puzzle::Collection, p: &puzzle::Puzzle, script: &str) -> String {
    static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file =
        std::env::temp_dir().join(format!("ms-puzzles-play-{}-{n}.json", std::process::id()));
    let mut alone = c.clone();
    alone.puzzles = vec![p.clone()];
    std::fs::write(&file, serde_json::to_string(&alone).unwrap()).unwrap();
    let out = assert_cmd::Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(["puzzles", "play"])
        .arg(&file)
        .write_stdin(script)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    text
}

fn committed() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("schema.json"))
        .collect();
    files.sort();
    files
}

/// `puzzles check` re-solves every committed puzzle.
#[test]
fn every_committed_collection_checks_out() {
    let files = committed();
    assert!(files.len() >= 2);
    for f in files {
        bin().args(["puzzles", "check"]).arg(&f).assert().success();
    }
}

#[test]
fn committed_collections_have_200_unique_puzzles_of_every_grade_and_source() {
    for name in ["avalanche.json", "any-hole.json"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let c = puzzle::load(&path).unwrap();
        let unique = c
            .puzzles
            .iter()
            .filter(|p| p.solutions_count == "1")
            .count();
        assert!(unique >= 200, "{name}: {unique} unique");
        let grades: HashSet<u8> = c.puzzles.iter().map(|p| p.difficulty).collect();
        assert_eq!(grades.len(), 5, "{name}: grades {grades:?}");
        let sources: HashSet<_> = c.puzzles.iter().map(|p| p.source).collect();
        assert_eq!(sources.len(), 3, "{name}");
        let ids: HashSet<_> = c.puzzles.iter().map(|p| &p.id).collect();
        assert_eq!(ids.len(), c.puzzles.len(), "{name}: ids repeat");
    }
}

#[test]
fn generation_is_deterministic_and_checks_out() {
    let dir = std::env::temp_dir().join(format!("ms-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let make = |file: &str| {
        bin()
            .args([
                "puzzles", "generate", "--rules", "kalah", "--relay", "on", "--count", "12",
                "--seed", "5", "--quiet", "--out",
            ])
            .arg(dir.join(file))
            .assert()
            .success();
        puzzle::load(&dir.join(file)).unwrap()
    };
    let a = make("a.json");
    let b = make("b.json");
    assert_eq!(a.puzzles, b.puzzles);
    assert!(!a.puzzles.is_empty());
    let out = bin()
        .args(["puzzles", "check"])
        .arg(dir.join("a.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    // Tamper with one puzzle: check names it and fails.
    let mut bad = a.clone();
    bad.puzzles[0].goal_store += 1;
    let id = bad.puzzles[0].id.clone();
    std::fs::write(dir.join("bad.json"), serde_json::to_string(&bad).unwrap()).unwrap();
    let out = bin()
        .args(["puzzles", "check"])
        .arg(dir.join("bad.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    // One line a mismatch, each naming the puzzle once.
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("error: 2 mismatches"), "{err}");
    assert_eq!(lines.len(), 3, "{err}");
    for line in &lines[1..] {
        assert!(line.starts_with(&format!("  {id}: ")), "{err}");
        assert_eq!(line.matches(id.as_str()).count(), 1, "{err}");
    }
    // show, and bad ids and files.
    let out = bin()
        .args(["puzzles", "show"])
        .arg(dir.join("a.json"))
        .arg(&a.puzzles[0].id)
        .arg("--solution")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Goal: have") && text.contains("Difficulty:") && text.contains("Solution:"),
        "{text}"
    );
    let out = bin()
        .args(["puzzles", "show"])
        .arg(dir.join("a.json"))
        .arg("nope")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(
        dir.join("trunc.json"),
        "{\"format\": \"mancala-sweep-puzzles/1\", \"puz",
    )
    .unwrap();
    let out = bin()
        .args(["puzzles", "check"])
        .arg(dir.join("trunc.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not valid JSON"));
    let out = bin()
        .args([
            "puzzles",
            "generate",
            "--count",
            "1",
            "--source",
            "start",
            "--out",
            "/proc/no/such.json",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn playing_the_solution_solves_the_puzzle() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/avalanche.json");
    let c = puzzle::load(&path).unwrap();
    let p = c.puzzles.iter().find(|p| p.length >= 2).unwrap();
    let board = puzzle::position(p).unwrap();
    let moves = format!("{}\n", p.solution);
    let text = play_alone(&c, p, &moves);
    assert!(text.contains("Solved!"), "{text}");
    // A wrong first pick (any legal pick but the solution's) fails, and `s` shows the solution.
    let wrong = board
        .legal_picks(c.rules)
        .map(|p| p.number())
        .find(|&x| x != p.solution.picks()[0].number());
    if let Some(w) = wrong {
        let text = play_alone(&c, p, &format!("x\n99\n{w}\ns\nq\n"));
        assert!(text.contains("is not a pit number"), "{text}");
        assert!(text.contains("no such pit"), "{text}");
        assert!(text.contains("Solution:"), "{text}");
        assert!(!text.contains("Solved!"), "{text}");
    }
}

proptest! {
    #[test]
    fn the_loader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn the_loader_never_panics_on_near_valid_files(cut in 0usize..400, flip in 0usize..400) {
        let text = r#"{"format":"mancala-sweep-puzzles/1","name":"x","rules":{"scope":"own","relay":true,"capture":"none"},"generator":{"tool":"mancala-sweep","version":"0","command":"c"},"puzzles":[{"id":"start-000000000000","board":"1 / 0 0 / 1","pits":[1,1],"store":0,"opponent_store":0,"goal_store":1,"solution":[1],"solutions_count":"1","length":1,"difficulty":1,"source":"start"}]}"#;
        let mut bytes = text.as_bytes()[..cut.min(text.len())].to_vec();
        if let Some(b) = bytes.get_mut(flip) {
            *b = b'9';
        }
        if let Ok(c) = parse(&String::from_utf8_lossy(&bytes)) {
            for p in &c.puzzles {
                let _ = puzzle::position(p);
            }
        }
    }
}

/// Ctrl-C keeps what the generator found, in a complete file marked
/// incomplete, and the same command then resumes to the same collection.
#[test]
fn an_interrupted_generator_keeps_its_puzzles_and_resumes() {
    let dir = std::env::temp_dir().join(format!("ms-puzzles-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = |file: &str| {
        vec![
            "puzzles".to_string(),
            "generate".into(),
            "--rules".into(),
            "avalanche".into(),
            "--count".into(),
            "60".into(),
            "--seed".into(),
            "9".into(),
            "--quiet".into(),
            "--out".into(),
            dir.join(file).display().to_string(),
        ]
    };
    let whole = bin().args(args("whole.json")).output().unwrap();
    assert!(whole.status.success());
    let child = bin()
        .args(args("part.json"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1200));
    assert!(Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    if out.status.code() == Some(130) {
        assert!(
            err.contains("run the same command again to resume"),
            "{err}"
        );
        let part = puzzle::load(&dir.join("part.json")).unwrap();
        assert!(!part.complete);
    } else {
        // The machine was fast enough to finish first; the rest still holds.
        assert_eq!(out.status.code(), Some(0), "{err}");
    }
    let again = bin().args(args("part.json")).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let a = puzzle::load(&dir.join("whole.json")).unwrap();
    let b = puzzle::load(&dir.join("part.json")).unwrap();
    assert!(b.complete);
    assert_eq!(a.puzzles, b.puzzles);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regression (issue 15): the prompt offered "pit numbers (1 to 6)" on a
/// 2x3 board whose rules allow only pits 1 to 3.
#[test]
fn the_play_prompt_offers_only_the_pits_the_rules_allow() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/avalanche.json");
    let c = puzzle::load(&path).unwrap();
    let p = c.puzzles.iter().find(|p| p.pits.len() == 6).unwrap();
    let text = play_alone(&c, p, "x\nq\n");
    assert!(text.contains("Type pit numbers (1 to 3),"), "{text}");
    assert!(
        text.contains("\"x\" is not a pit number: type 1 to 3, or h, u, s, r, q"),
        "{text}"
    );
}

/// `puzzles play` teaches: a hint, a wrong pick named at once, undo, and
/// the tally at the end, through the binary with a script on stdin.
#[test]
fn play_gives_hints_names_a_wrong_pick_and_tallies() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/avalanche.json");
    let c = puzzle::load(&path).unwrap();
    // A unique puzzle with a legal first pick that is not the solution's.
    let (p, wrong) = c
        .puzzles
        .iter()
        .filter(|p| p.solutions_count == "1" && p.length >= 2)
        .find_map(|p| {
            let board = puzzle::position(p).unwrap();
            let first = p.solution.picks()[0];
            let other = board.legal_picks(c.rules).find(|&q| q != first);
            other.map(|q| (p, q))
        })
        .unwrap();
    let first = p.solution.picks()[0];
    let script = format!("h\n{wrong}\nu\n{}\n", p.solution);
    let out = assert_cmd::Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(["puzzles", "play"])
        .arg(&path)
        .arg(&p.id)
        .write_stdin(script)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("Hint: pick pit {first}.")), "{text}");
    assert!(
        text.contains(&format!(
            "That pick (pick 1, pit {wrong}) leaves every solution"
        )),
        "{text}"
    );
    assert!(text.contains("Took back a pick."), "{text}");
    assert!(text.contains("Solved, with help: "), "{text}");
    assert!(
        text.contains("This session: 0 solved, 1 solved with help, 0 failed tries, "),
        "{text}"
    );
    // --grade with no such puzzle is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(["puzzles", "play", "--grade", "9"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Generating over a finished collection made by another command is
/// refused, unless --force.
#[test]
fn generate_refuses_to_replace_another_finished_collection() {
    let dir = std::env::temp_dir().join(format!("ms-puzzles-force-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("c.json");
    let gen = |seed: &str, force: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"));
        cmd.args([
            "puzzles",
            "generate",
            "--source",
            "start",
            "--count",
            "2",
            "--seed",
            seed,
            "--seconds",
            "0.5",
            "--quiet",
            "--out",
        ]);
        cmd.arg(&out);
        if force {
            cmd.arg("--force");
        }
        cmd.output().unwrap()
    };
    assert!(gen("1", false).status.success());
    // The same command again keeps it.
    assert!(gen("1", false).status.success());
    let refused = gen("2", false);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(
        err.contains("it holds a finished collection made by `mancala-sweep puzzles generate"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert!(gen("2", true).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `random` moves to another puzzle of the list; `--grade` keeps to one grade.
#[test]
fn random_moves_to_another_puzzle_of_the_grade() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/avalanche.json");
    let out = assert_cmd::Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(["puzzles", "play", "--grade", "5"])
        .arg(&path)
        .write_stdin("random\nq\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Puzzle "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{text}");
    assert_ne!(ids[0], ids[1]);
    assert_eq!(text.matches("Difficulty: 5 of 5").count(), 2, "{text}");
    assert!(text.contains("2 left unsolved"), "{text}");
}

/// Issue 32: under a `(1 to 3)` prompt, a 3-pit puzzle said `pits are
/// numbered 1 to 6`; the message gives the pits the rules let you pick.
#[test]
fn a_pit_off_a_small_board_names_the_prompts_range() {
    let c = puzzle::committed_named("avalanche").unwrap().unwrap();
    let p = c.puzzles.iter().find(|p| p.pits.len() == 6).unwrap();
    let text = play_alone(&c, p, "7\nq\n");
    assert!(text.contains("Type pit numbers (1 to 3),"), "{text}");
    assert!(
        text.contains("pick 7: no such pit: your pits are 1 to 3\n"),
        "{text}"
    );
}

/// Issue 32: the committed collections are in the binary, so `puzzles
/// list|show|play|check avalanche` work outside a clone; a file by that
/// name is read first; any other value is one line naming what is allowed.
#[test]
fn committed_collections_by_name_outside_a_clone() {
    let dir = std::env::temp_dir().join(format!("ms-puzzles-by-name-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str], stdin: &str| {
        let out = assert_cmd::Command::cargo_bin("mancala-sweep")
            .unwrap()
            .current_dir(&dir)
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let avalanche = puzzle::committed_named("avalanche").unwrap().unwrap();
    let first = avalanche.puzzles[0].id.clone();
    let (code, out, err) = run(&["puzzles", "list", "avalanche"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&avalanche.name), "{out}");
    assert!(out.contains("): 240 puzzles\n"), "{out}");
    assert!(out.contains(&first), "{out}");
    let (code, out, err) = run(&["puzzles", "list", "any-hole", "--json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"scope\":\"any\""), "{out}");
    let (code, out, err) = run(&["puzzles", "show", "avalanche", &first], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("Puzzle {first}")), "{out}");
    let (code, out, err) = run(&["puzzles", "play", "avalanche", &first], "q\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("This session: 0 solved"), "{out}");
    // A file of that name in the working directory wins over the built-in
    // collection.
    let mut small = avalanche.clone();
    small.puzzles.truncate(2);
    std::fs::write(
        dir.join("avalanche"),
        serde_json::to_string(&small).unwrap(),
    )
    .unwrap();
    let (code, out, err) = run(&["puzzles", "list", "avalanche"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 2 puzzles"), "{out}");
    let (code, out, err) = run(&["puzzles", "list", "avalanche.json"], "");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err,
        "error: \"avalanche.json\" is neither a file nor a collection name: give a puzzle collection file or one of avalanche, any-hole, capture\n"
    );
    let (code, _, err) = run(&["puzzles", "check", "kalah"], "");
    assert_eq!(code, 2);
    assert!(err.contains("one of avalanche, any-hole, capture"), "{err}");
    // A bad id names the command that lists the ids.
    let (code, _, err) = run(&["puzzles", "show", "any-hole", "nope"], "");
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("any-hole: no puzzle \"nope\" in it; `puzzles list any-hole` lists its ids"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
