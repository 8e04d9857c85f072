//! What a new user meets first: the helps, completions, manual pages and
//! the refusals of bad input (issue 62).

use assert_cmd::Command;

/// Run `mancala-sweep ARGS` with a scratch cache folder; returns (exit
/// code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(args)
        .env(
            "MANCALA_SWEEP_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/endgame-cache"),
        )
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A scratch folder of this test process, made empty.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("new-user-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The top-level help says what the README's first lines say: `game
/// analyze` is named, and not only the one-turn solver; `serve` names the
/// web app's pages in the README's order.
#[test]
fn the_helps_say_what_the_readme_says() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    let about = out.lines().next().unwrap();
    assert!(about.contains("`game analyze`"), "{about}");
    assert!(!out.contains("first-turn sweep solver"), "{out}");
    // The README's list of pages: "- **Analyze** (the first page): ...".
    let readme = include_str!("../README.md");
    let pages: Vec<&str> = readme
        .split("Its pages:")
        .nth(1)
        .unwrap()
        .lines()
        .skip_while(|l| l.is_empty())
        .take_while(|l| l.starts_with("- **"))
        .map(|l| l[4..].split("**").next().unwrap())
        .collect();
    assert_eq!(pages.len(), 5, "{pages:?}");
    let serve = out
        .lines()
        .find(|l| l.trim_start().starts_with("serve "))
        .unwrap();
    assert!(
        serve.contains(&format!("({})", pages.join(", "))),
        "{serve} does not list {pages:?}"
    );
    // --no-cache's help names the size of the database an analysis
    // builds in the cache on its own.
    let stones = mancala_sweep::game::endgame::CACHE_STONES;
    for cmd in ["analyze", "solve"] {
        let (_, help, _) = run(&["game", cmd, "--help"]);
        assert!(
            help.contains(&format!("the {stones}-stone one is built once")),
            "{help}"
        );
        assert!(!help.contains("12-stone"), "{help}");
        assert!(!help.contains("about 5 s"), "{help}");
    }
}

/// clap_complete's bash script completed only the first word of a
/// hyphenated program (clap-rs/clap#6421). Bash itself runs the script
/// here, the way it completes a line: COMP_WORDS, COMP_CWORD, and the
/// function called with the command, the word and the word before.
#[test]
fn bash_completes_past_the_first_word() {
    let (code, script, err) = run(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    let dir = scratch("bash");
    let file = dir.join("mancala-sweep.bash");
    std::fs::write(&file, script).unwrap();
    let complete = |words: &[&str]| -> String {
        let cword = words.len() - 1;
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let shell = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _mancala__sweep mancala-sweep {} {}; echo \"${{COMPREPLY[*]}}\"",
            file.display(),
            quoted.join(" "),
            quoted[cword],
            quoted[cword - 1],
        );
        let out = std::process::Command::new("bash")
            .args(["--norc", "-c", &shell])
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    assert_eq!(complete(&["mancala-sweep", "so"]), "solve");
    assert_eq!(complete(&["mancala-sweep", "game", "an"]), "analyze");
    assert_eq!(
        complete(&["mancala-sweep", "game", "analyze", "--to"]),
        "--top"
    );
    assert_eq!(
        complete(&["mancala-sweep", "solve", "--rules", ""]),
        "avalanche any-hole kalah capture"
    );
    assert_eq!(complete(&["mancala-sweep", "game", "book", "sh"]), "show");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `man --out DIR/man1` says how to read a page; what it says works with
/// the system's `man` (when there is one), whatever `PATH` holds.
#[test]
fn man_out_says_how_to_read_the_pages() {
    let dir = scratch("man");
    let man1 = dir.join("man").join("man1");
    let (code, out, err) = run(&["man", "--out", man1.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let root = dir.join("man");
    let said = format!(
        "Read one with `man -M {} mancala-sweep-game-play`",
        root.display()
    );
    assert!(out.contains(&said), "{out}");
    let has_man = std::process::Command::new("man")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_man {
        let page = std::process::Command::new("man")
            .args(["-M", root.to_str().unwrap(), "mancala-sweep-game-play"])
            .env("MANPAGER", "cat")
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &dir)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&page.stdout);
        assert!(
            page.status.success(),
            "{}",
            String::from_utf8_lossy(&page.stderr)
        );
        assert!(text.contains("Play a game against the computer"), "{text}");
    } else {
        eprintln!("no `man` on this machine: the page itself is not read");
    }
    let (code, out, _) = run(&["man", "--out", dir.join("pages").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("into a folder named man1"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input of the edges of issue 62: one line that names the value and
/// what is allowed, exit status 2.
#[test]
fn edge_values_are_bad_input_said_in_one_line() {
    let dir = scratch("spill");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let f = file.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["solve", "--pits", "3", "--stones", "2", "--spill", f],
            format!("error: --spill {f}: a file, not a directory: give a directory (made if missing) for the search's files"),
        ),
        (
            vec!["game", "analyze", "--seconds", "-5"],
            "\"-5\" is not a time budget: give seconds, more than 0 and at most 86400".into(),
        ),
        (
            vec!["game", "analyze", "--top", "0"],
            "\"0\" is not a number of turns: give a whole number, 1 or more".into(),
        ),
        (
            vec!["game", "analyze", "--nodes", "-1"],
            "\"-1\" is not a number of picks: give a whole number, 1 or more".into(),
        ),
        (
            vec!["game", "book", "show", "--top", "0"],
            "\"0\" is not a number of turns".into(),
        ),
        (
            vec!["puzzles", "check", "avalanche", "--seconds", "-1"],
            "\"-1\" is not a time budget".into(),
        ),
        (
            vec!["solve", "--board", "0 0 0 0 0 0 / 0 0 / 244 0 0 0 0 0"],
            "244 stones in 12 pits: the exhaustive search takes at most 117 stones on 12 pits".into(),
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(&want), "{args:?}: {err} lacks {want}");
    }
    // The file is left as it was.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "");
    let _ = std::fs::remove_dir_all(&dir);
}
