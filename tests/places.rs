//! Output places checked before the work, and nothing lost or promised
//! that is not there (issue 72): `game endgame --out`, `game solve
//! --checkpoint` and `solve --spill` refuse a place they cannot write in
//! the first second; a run that could not write says what its file keeps;
//! a cache folder that cannot keep the database still lends it to the run.
//!
//! "Unwritable" is a path through a regular file or a missing folder (the
//! tests may run as root, for whom a read-only folder is writable); a
//! write that fails part-way is a file-size limit (`ulimit -f`, with
//! SIGXFSZ ignored so that the write fails instead of killing the run).

use crate::common::run_bin_env;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The folder of a test of its own, empty, with a regular file `afile`
/// in it (a path through it cannot be written).
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ms-places-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("afile"), "a file").unwrap();
    dir
}

/// Runs the binary in `dir` with `args`, stopped after `secs` seconds
/// (a check that went missing must not start hours of work):
/// (exit code, stdout, stderr, seconds taken).
fn run_in(dir: &std::path::Path, args: &[&str], secs: u64) -> (i32, String, String, f64) {
    let t0 = Instant::now();
    let out = assert_cmd::Command::cargo_bin("mancala-sweep")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .env("MANCALA_SWEEP_CACHE", dir.join("cache"))
        .timeout(Duration::from_secs(secs))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        t0.elapsed().as_secs_f64(),
    )
}

/// Runs `bin ARGS` in `dir` under a file-size limit of `blocks` blocks of
/// 512 bytes: (exit code, stdout, stderr).
fn run_limited(
    dir: &std::path::Path,
    blocks: u32,
    args: &str,
    cache: &str,
) -> (i32, String, String) {
    let bin = assert_cmd::cargo::cargo_bin("mancala-sweep");
    let out = std::process::Command::new("sh")
        .current_dir(dir)
        .env("MANCALA_SWEEP_CACHE", cache)
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec '{}' {args}",
            bin.display()
        ))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every output place that cannot be written is bad input, said in one
/// line that names the flag and the place, before any work (a build of
/// 20 stones, a solve of 72 stones, a spilled search).
#[test]
fn unwritable_output_places_are_refused_before_any_work() {
    let dir = folder("unwritable");
    let cases: [(&[&str], &str); 6] = [
        (
            &["game", "endgame", "--up-to", "20", "--out", "afile/db.bin"],
            "--out afile/db.bin: afile is a file, not a folder",
        ),
        (
            &["game", "endgame", "--up-to", "20", "--out", "gone/db.bin"],
            "--out gone/db.bin: gone does not exist",
        ),
        (
            &["game", "endgame", "--up-to", "20", "--out", "."],
            "--out .: a folder, not a file",
        ),
        (
            &["game", "solve", "--stones", "6", "--checkpoint", "afile/cp"],
            "--checkpoint afile/cp: afile is a file, not a folder",
        ),
        (
            &["game", "solve", "--stones", "6", "--checkpoint", "gone/cp"],
            "--checkpoint gone/cp: gone does not exist",
        ),
        (
            &["solve", "--spill", "afile/spill"],
            "--spill afile/spill: cannot make this folder",
        ),
    ];
    for (args, said) in cases {
        let (code, out, err, secs) = run_in(&dir, args, 60);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {said}")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("os error"), "{args:?}: {err}");
        assert!(secs < 10.0, "{args:?}: {secs} s: the work started");
    }
    assert!(!dir.join("gone").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A database larger than the disk's free room is refused before the
/// build (6 pits a side up to 60 stones: terabytes packed), as a failed
/// run (status 1), naming the room and the size.
#[test]
fn a_disk_without_room_for_the_database_is_said_before_the_build() {
    let dir = folder("room");
    let args = [
        "game",
        "endgame",
        "--up-to",
        "60",
        "--max-memory",
        "100T",
        "--out",
        "db.bin",
    ];
    let (code, _, err, secs) = run_in(&dir, &args, 30);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: --out db.bin: the disk has "),
        "{err}"
    );
    assert!(err.contains("TiB"), "{err}");
    assert!(secs < 10.0, "{secs} s");
    assert!(!dir.join("db.bin").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A spilled search stopped by its disk guard claims a resume only when
/// its folder holds a checkpoint: stopped before the first one it says
/// nothing was kept; stopped later, the same command resumes from it.
#[test]
fn a_spill_claims_a_resume_only_where_a_checkpoint_is_kept() {
    let dir = folder("spill");
    for (max_disk, kept) in [("1K", false), ("300K", true)] {
        let _ = std::fs::remove_dir_all(dir.join("sp"));
        let args = ["solve", "--spill", "sp", "--max-disk", max_disk, "--quiet"];
        let (code, _, err, _) = run_in(&dir, &args, 120);
        assert_eq!(code, 1, "{err}");
        let checkpoint = mancala_sweep::sweep::exact::spill_checkpoint(&dir.join("sp"));
        assert_eq!(checkpoint.is_some(), kept, "{max_disk}: {err}");
        assert_eq!(
            err.contains("the same search resumes"),
            kept,
            "{max_disk}: {err}"
        );
        assert_eq!(err.contains("nothing was kept"), !kept, "{max_disk}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A build whose file cannot be written at the end (the disk filled up
/// after the check) says what the file still keeps from its last write,
/// and the file is that one, read back.
#[test]
fn an_endgame_build_that_cannot_write_says_what_the_file_keeps() {
    let dir = folder("keeps");
    let (code, _, err, _) = run_in(
        &dir,
        &["game", "endgame", "--up-to", "8", "--out", "db.bin", "-q"],
        60,
    );
    assert_eq!(code, 0, "{err}");
    // 1 MB: the probe and the 8-stone file fit, the 14-stone one does not.
    let (code, _, err) = run_limited(
        &dir,
        2000,
        "game endgame --up-to 14 --out db.bin -q",
        "unused",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("db.bin keeps every position with at most 8 stones"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    let kept = mancala_sweep::game::EndgameDb::read_header(&dir.join("db.bin")).unwrap();
    assert_eq!(kept.stones, 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A cache folder that cannot keep the database (a path through a file;
/// a write that fails part-way) still lends the database built to the
/// run: the same analysis, turn for turn, as with a cache that keeps it,
/// said once; without a database the same budget proves less.
#[test]
fn a_cache_that_cannot_keep_the_database_still_lends_it_to_the_run() {
    let dir = folder("cache");
    let board = "3 1 4 2 5 3 / 9 9 / 2 4 1 5 3 2";
    let args = [
        "game",
        "analyze",
        "--rules",
        "kalah",
        "--board",
        board,
        "--nodes",
        "2000000",
        "--threads",
        "1",
        "--json",
    ];
    let analysis = |cache: &std::path::Path, extra: &[&str]| {
        let env = [("MANCALA_SWEEP_CACHE", cache.to_str().unwrap())];
        let all: Vec<&str> = args.iter().chain(extra).copied().collect();
        let (code, out, err) = run_bin_env(&all, "", &env);
        assert_eq!(code, 0, "{err}");
        let mut doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        doc.as_object_mut().unwrap().remove("seconds");
        (doc, err)
    };
    let (kept, _) = analysis(&dir.join("cache"), &[]);
    assert!(dir.join("cache").read_dir().unwrap().next().is_some());
    let (lent, err) = analysis(&dir.join("afile/cache"), &[]);
    assert_eq!(lent, kept);
    assert_eq!(err.matches("cannot be kept").count(), 1, "{err}");
    let (none, _) = analysis(&dir.join("afile/cache"), &["--no-cache"]);
    let proved = |d: &serde_json::Value| {
        let turns = d["turns"].as_array().unwrap();
        turns.iter().filter(|t| t["exact"] == true).count()
    };
    assert!(proved(&none) < proved(&kept), "{none}\n{kept}");
    // A write that fails part-way: the build is used all the same.
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let (code, out, err) = run_limited(
        &dir,
        100,
        &quoted.join(" "),
        dir.join("small").to_str().unwrap(),
    );
    assert_eq!(code, 0, "{err}");
    let mut doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc.as_object_mut().unwrap().remove("seconds");
    assert_eq!(doc, kept);
    assert_eq!(err.matches("could not be kept").count(), 1, "{err}");
    assert!(!err.contains("going on without it"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `bin ARGS` in `dir` with `dir/full` a real full disk: a tmpfs of
/// 64 KiB, filled, mounted in a mount namespace of the run's own
/// (`unshare -rm`, which needs no root where user namespaces are
/// allowed): (exit code, stdout, stderr, what `full` holds afterwards).
/// `None` where this system has no such namespaces.
fn run_on_full_disk(dir: &std::path::Path, args: &str) -> Option<(i32, String, String, String)> {
    let full = dir.join("full");
    std::fs::create_dir_all(&full).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mancala-sweep");
    let script = format!(
        "mount -t tmpfs -o size=64k none full || exit 99; \
         head -c 1048576 /dev/zero > full/filler 2>/dev/null; \
         '{}' {args}; rc=$?; echo \"LEFT: $(ls -A full | tr '\\n' ' ')\" >&2; exit $rc",
        bin.display()
    );
    let out = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .current_dir(dir)
        .env("MANCALA_SWEEP_CACHE", "full/cache")
        .output()
        .ok()?;
    let code = out.status.code().unwrap_or(-1);
    if code == 99 || String::from_utf8_lossy(&out.stderr).contains("unshare: ") {
        return None;
    }
    let err = String::from_utf8(out.stderr).unwrap();
    let (err, left) = err.rsplit_once("LEFT: ").unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    Some((code, stdout, err.to_string(), left.trim().to_string()))
}

/// A real full disk: every output place on it is refused before the
/// work, in one line with what to do, leaving nothing behind; an analysis
/// whose cache folder is on it still uses the database it builds, the
/// same answer as with a cache that keeps it.
#[test]
fn a_full_disk_is_said_before_the_work_and_nothing_is_left_on_it() {
    let dir = folder("full");
    let refused = [
        (
            "game endgame --up-to 14 --out full/db.bin",
            "--out full/db.bin",
        ),
        (
            "game solve --stones 3 --checkpoint full/cp -q",
            "--checkpoint full/cp",
        ),
        ("solve --spill full/sp --quiet", "--spill full/sp"),
    ];
    for (args, flag) in refused {
        let Some((code, out, err, left)) = run_on_full_disk(&dir, args) else {
            eprintln!("NOT TESTED here: a real full disk needs a mount namespace (unshare -rm)");
            return;
        };
        assert_eq!(code, 1, "{args}: {err}");
        assert!(out.is_empty(), "{args}: {out}");
        assert_eq!(
            err,
            format!(
                "error: {flag}: the disk is full: free some room or give a place on another disk\n"
            ),
            "{args}"
        );
        assert_eq!(left, "filler", "{args}: left behind");
    }
    let analysis = "game analyze --rules kalah --board '3 1 4 2 5 3 / 9 9 / 2 4 1 5 3 2' \
                    --nodes 2000000 --threads 1 --json";
    let (code, out, err, left) = run_on_full_disk(&dir, analysis).unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("cannot be kept").count(), 1, "{err}");
    assert!(err.contains("the disk is full"), "{err}");
    assert_eq!(left, "cache filler");
    let kept = dir.join("kept");
    let env = [("MANCALA_SWEEP_CACHE", kept.to_str().unwrap())];
    let words = [
        "game",
        "analyze",
        "--rules",
        "kalah",
        "--board",
        "3 1 4 2 5 3 / 9 9 / 2 4 1 5 3 2",
        "--nodes",
        "2000000",
        "--threads",
        "1",
        "--json",
    ];
    let (code, roomy, err) = run_bin_env(&words, "", &env);
    assert_eq!(code, 0, "{err}");
    let answer = |text: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
        doc.as_object_mut().unwrap().remove("seconds");
        doc
    };
    assert_eq!(answer(&out), answer(&roomy));
    std::fs::remove_dir_all(&dir).unwrap();
}
