//! Ctrl-C (SIGINT) during a long run: the workers stop, the run says what it
//! knows so far, marked incomplete, and exits with status 130.

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

/// Start the binary, send SIGINT after `after`, and return (code, stdout, stderr).
fn interrupt(args: &[&str], after: Duration) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    sleep(after);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn solve_stops_on_sigint_with_a_partial_report() {
    // Any-hole 2x6x4 takes many seconds; stop it after one.
    let (code, out, err) = interrupt(
        &["solve", "--rules", "any-hole", "--quiet"],
        Duration::from_millis(1500),
    );
    assert_eq!(code, 130, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("interrupted: the search is incomplete"),
        "{err}"
    );
    assert!(err.contains("store bucket"), "{err}");
    assert!(err.contains("positions"), "{err}");
    assert!(err.contains("best final store so far"), "{err}");
}

#[test]
fn find_stops_on_sigint_with_its_best_line_so_far() {
    let (code, out, err) = interrupt(
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
            "--quiet",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(code, 130, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["exact"], false);
    assert!(v["line"].as_array().is_some());
}
