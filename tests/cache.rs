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
        "(built up to 10 of 20 stones: `game cache build --rules avalanche --pits 3 --up-to 20` goes on)";
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

/// `game analyze --follow` started with its input piped: what it printed
/// so far is read as it comes, lines are typed when asked.
struct Followed {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Followed {
    fn start(dir: &std::path::Path, args: &[&str]) -> Followed {
        use std::io::Read;
        use std::process::Stdio;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mancala-sweep"))
            .args(["game", "analyze", "--follow", "-q"])
            .args(args)
            .env("MANCALA_SWEEP_CACHE", dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let shared = std::sync::Arc::clone(&out);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(k) = stdout.read(&mut buf) {
                if k == 0 {
                    break;
                }
                shared
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..k]));
            }
        });
        Followed { child, stdin, out }
    }

    fn text(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    /// Waits (at most six minutes) until the output holds `what`, typing
    /// `line` every half second meanwhile if given. The background build
    /// runs at the lowest priority: alone it takes seconds, but beside the
    /// suite's other tests on two busy cores it gets a sliver of one.
    fn wait_for(&mut self, what: &str, line: Option<&str>) -> String {
        use std::io::Write;
        let t0 = std::time::Instant::now();
        while !self.text().contains(what) {
            assert!(
                t0.elapsed().as_secs() < 360,
                "no {what:?} in:\n{}",
                self.text()
            );
            if let Some(line) = line {
                let _ = writeln!(self.stdin, "{line}");
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        self.text()
    }
}

/// The files of `dir` whose names end in `.part`: a build's leftovers.
fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".part"))
        .collect()
}

/// `--follow` builds the larger database in the background while the
/// player types, says when it is there and answers from it: the same
/// proved turn as the first answer, made with the 16-stone database (the
/// second path). The smaller file it holds whole is removed; no work
/// file is left.
#[test]
#[cfg(target_os = "linux")] // the build runs in the background only where a thread can be niced alone
fn follow_builds_the_larger_database_in_the_background() {
    let dir = folder("background");
    // A board small enough that its build, at the lowest priority, finishes
    // in seconds even beside the suite's other tests on every core.
    let mut f = Followed::start(
        &dir,
        &[
            "--pits",
            "3",
            "--stones",
            "3",
            "--background-build",
            "always",
        ],
    );
    let first = f.wait_for("Your picks", None);
    assert!(
        first.contains("18-stone endgame database in the background"),
        "{first}"
    );
    let first_answer = first
        .lines()
        .find(|l| l.starts_with("Tap "))
        .unwrap()
        .to_string();
    // `longer` asks again in the same position: each answer hears of the
    // build.
    let out = f.wait_for("The 18-stone endgame database is built", Some("longer"));
    let after = &out[out.find("database is built").unwrap()..];
    let (tx, rx) = std::sync::mpsc::channel();
    {
        use std::io::Write;
        writeln!(f.stdin, "longer").unwrap();
        writeln!(f.stdin, "quit").unwrap();
        let mut child = f.child;
        std::thread::spawn(move || tx.send(child.wait().unwrap()).unwrap());
    }
    let status = rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
    assert!(status.success());
    let out = f.out.lock().unwrap().clone();
    let later = out[out.find("database is built").unwrap()..]
        .lines()
        .find(|l| l.starts_with("Tap "))
        .unwrap_or_else(|| panic!("an answer after the build:\n{after}"))
        .to_string();
    assert_eq!(later, first_answer);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.ends_with("-3-pits-18-stones.bin")),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.contains("-16-stones")), "{names:?}");
    assert!(leftovers(&dir).is_empty(), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C while the background build runs exits at once with 130, after
/// the build kept its finished layers: no work file is left, and the
/// cache lists the database (stopped, with the command that goes on, or
/// finished).
#[test]
#[cfg(target_os = "linux")] // the build runs in the background only where a thread can be niced alone
fn ctrl_c_during_a_background_build_keeps_its_layers() {
    let dir = folder("background-stop");
    let mut f = Followed::start(
        &dir,
        &[
            "--pits",
            "4",
            "--stones",
            "4",
            "--background-build",
            "always",
        ],
    );
    f.wait_for("32-stone endgame database in the background", None);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = f.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = f.child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(leftovers(&dir).is_empty());
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    let (code, out, err) = run_bin_env(&["game", "cache", "list"], "", &env);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stopped at") || out.lines().any(|l| l.contains(" 32 ")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--background-build never`, or input that is not a terminal under the
/// default `auto`, builds nothing in the background.
#[test]
fn follow_builds_nothing_in_the_background_unless_asked() {
    let dir = folder("background-never");
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    for extra in [&["--background-build", "never"][..], &[][..]] {
        let mut args = vec![
            "game", "analyze", "--follow", "--pits", "4", "--stones", "3", "-q",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = run_bin_env(&args, "quit\n", &env);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("in the background"), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-shot analysis whose answer it could not prove says once, in a
/// player's words, what the one-time set-up gives (the command to run,
/// with GamePigeon's name for the rules); with the set-up's database
/// there, or a proved answer, or `--quiet`, it says nothing of it.
#[test]
fn an_unproved_answer_says_what_the_set_up_gives() {
    let dir = folder("setup");
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    let run = |args: &[&str]| run_bin_env(args, "", &env);
    let short = [
        "game",
        "analyze",
        "--rules",
        "capture",
        "--pits",
        "4",
        "--stones",
        "4",
        "--no-book",
        "--nodes",
        "300",
        "--threads",
        "1",
    ];
    let (code, _, err) = run(&short);
    assert_eq!(code, 0, "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("game cache build --rules capture --pits 4"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].starts_with("Not proved yet. Run `mancala-sweep"),
        "{err}"
    );
    let (code, _, err) = run(&[&short[..], &["--quiet"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("game cache build"), "{err}");
    // Proved: nothing to say.
    let (code, _, err) = run(&[
        "game",
        "analyze",
        "--rules",
        "capture",
        "--pits",
        "3",
        "--stones",
        "3",
        "--seconds",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("game cache build"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `serve` builds the larger database of GamePigeon's capture board in
/// the background and says so; stopped (SIGINT), it leaves no work file
/// and loses none of the layers it started from: a cache holding 16
/// stones is read at start, and after the stop lists a file of at least
/// those stones.
#[test]
#[cfg(target_os = "linux")] // the build runs in the background only where a thread can be niced alone
fn serve_builds_the_larger_database_in_the_background_and_keeps_it_when_stopped() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = folder("serve");
    let env = [("MANCALA_SWEEP_CACHE", dir.to_str().unwrap())];
    let (code, _, err) = run_bin_env(
        &[
            "game", "cache", "build", "--rules", "capture", "--up-to", "16", "-q",
        ],
        "",
        &env,
    );
    assert_eq!(code, 0, "{err}");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mancala-sweep"))
        .args(["serve", "--port", "0"])
        .env("MANCALA_SWEEP_CACHE", &dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = BufReader::new(child.stderr.take().unwrap());
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let next = || {
        lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap()
    };
    let first = next();
    assert!(
        first.starts_with("endgame database for kalah")
            && first.contains("every position with at most 16 stones"),
        "{first}"
    );
    let second = next();
    assert!(
        second.starts_with("building the 22-stone endgame database for kalah in the background"),
        "{second}"
    );
    std::thread::sleep(std::time::Duration::from_secs(2));
    let pid = child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status();
    assert!(killed.unwrap().success());
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(t0.elapsed().as_secs() < 60, "serve did not stop");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(leftovers(&dir).is_empty());
    let (code, out, err) = run_bin_env(&["game", "cache", "list"], "", &env);
    assert_eq!(code, 0, "{err}");
    let stones: Vec<u32> = out
        .lines()
        .filter(|l| l.starts_with("kalah"))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(stones.iter().any(|&s| s >= 16), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
