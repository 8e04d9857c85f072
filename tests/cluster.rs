//! The search on timely-dataflow (`solve --cluster`, issue 19) against the
//! one in memory: the same JSON, with the wall-clock time left out, for one
//! process of 1 and 3 workers (through the library), and for 2 and 3
//! processes on localhost (through the binary, on free ports, each run
//! bounded in time and killed on failure); under every capture rule.
//! A process killed mid-run gives a clear error on the others, not a hang,
//! and a Ctrl-C on one stops them all.

use mancala_sweep::sweep::exact::cluster::{Cluster, ClusterError};
use mancala_sweep::sweep::exact::{solve_cluster, Listing, SweepOptions};
use mancala_sweep::{Board, Capture, Preset, Rules, Scope};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::solve_json::{in_memory, json};

/// The boards the tests compare on: the known-answer boards small enough
/// (every preset), and own-scope boards under each capture rule.
fn boards() -> Vec<(Board, Rules)> {
    let mut out = Vec::new();
    for line in include_str!("data/known_answers.txt").lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with('#') || words.len() < 3 {
            continue;
        }
        let preset: Preset = words[0].parse().unwrap();
        let (n, s): (usize, u32) = (words[1].parse().unwrap(), words[2].parse().unwrap());
        if preset == Preset::AnyHole && n * s as usize > 18 {
            continue;
        }
        out.push((Board::uniform(n, s).unwrap(), preset.rules()));
    }
    for capture in Capture::ALL {
        let rules = Rules {
            scope: Scope::Own,
            relay: true,
            capture,
        };
        out.push((Board::uniform(5, 5).unwrap(), rules));
    }
    out
}

#[test]
fn one_process_gives_the_same_json_with_one_and_three_workers() {
    let boards = boards();
    assert!(boards.len() >= 12, "{} boards", boards.len());
    for (board, rules) in boards {
        let want = in_memory(&board, rules);
        for workers in [1, 3] {
            let cluster = Cluster::new(1, 0, workers, None).unwrap();
            let opts = SweepOptions {
                threads: 2,
                listing: Listing::Limit(0),
                ..Default::default()
            };
            let (got, traffic) = solve_cluster(&board, rules, &opts, &cluster).unwrap();
            // One process expands every position itself.
            assert_eq!(traffic.positions_here, got.positions);
            assert_eq!(
                json(got),
                want,
                "{rules} {} with {workers} workers",
                board.one_line()
            );
            assert_eq!(
                traffic.between_processes, 0,
                "one process sends nothing out"
            );
        }
    }
}

#[test]
fn bad_cluster_flags_are_refused_with_what_is_allowed() {
    let e = Cluster::new(2, 2, 1, None).unwrap_err();
    assert_eq!(
        e,
        ClusterError::Process {
            process: 2,
            processes: 2
        }
    );
    assert!(e.to_string().contains("0 to 1"), "{e}");
    let e = Cluster::new(3, 0, 1, Some(("hosts", "a:1\nb:2\n"))).unwrap_err();
    assert!(e.to_string().contains("names 2 processes"), "{e}");
    let e = Cluster::new(1, 0, 1, Some(("hosts", "# first\nnot-a-host\n"))).unwrap_err();
    assert!(
        e.to_string().contains("\"not-a-host\" is not host:port"),
        "{e}"
    );
    assert_eq!(
        Cluster::new(0, 0, 1, None).unwrap_err(),
        ClusterError::NoProcess
    );
    assert_eq!(
        Cluster::new(1, 0, 0, None).unwrap_err(),
        ClusterError::NoWorker
    );
    let c = Cluster::new(
        2,
        1,
        2,
        Some(("hosts", "\n# two\nh0:7000\nh1:7001\nh2:7002\n")),
    )
    .unwrap();
    assert_eq!(c.addresses, ["h0:7000", "h1:7001"]);
    assert_eq!(
        Cluster::new(2, 0, 1, None).unwrap().addresses[1],
        "localhost:2102"
    );
}

/// A host file of `n` free ports on localhost, in a fresh directory.
fn hostfile(name: &str, n: usize) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mancala-sweep-cluster-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // Bound, read and released: the ports are free for the processes.
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    drop(listeners);
    let path = dir.join("hosts");
    std::fs::write(&path, text).unwrap();
    path
}

/// The processes of one cluster run; killed when dropped, so that a
/// failed test leaves none behind.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Start `n` processes of `solve ARGS --cluster` on the ports of `hosts`.
fn start(args: &[&str], n: usize, hosts: &std::path::Path) -> Processes {
    let children = (0..n)
        .map(|p| {
            Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
                .arg("solve")
                .args(args)
                .args(["--cluster", "--threads", "1", "--processes"])
                .arg(n.to_string())
                .args(["--process", &p.to_string(), "--hostfile"])
                .arg(hosts)
                .env("MANCALA_SWEEP_PROGRESS", "lines")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    Processes(children)
}

/// Wait for `child` at most `limit`; its exit code, stdout and stderr.
fn finish(child: &mut Child, limit: Duration) -> (i32, String, String) {
    let began = Instant::now();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (
                status.code().unwrap_or(-1),
                reader.join().unwrap(),
                err_reader.join().unwrap(),
            );
        }
        if began.elapsed() > limit {
            let _ = child.kill();
            panic!("a process ran past {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The solve JSON on stdout, without its wall-clock time.
fn strip_seconds(out: &str) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    doc.as_object_mut().unwrap().remove("seconds");
    doc.to_string()
}

#[test]
fn two_and_three_processes_give_the_same_json_as_memory() {
    let cases = [
        (
            &["--rules", "any-hole", "--pits", "5", "--stones", "3"][..],
            Rules::ANY_HOLE,
            5,
            3,
        ),
        (
            &["--rules", "avalanche", "--pits", "6", "--stones", "4"][..],
            Preset::Avalanche.rules(),
            6,
            4,
        ),
        (
            &[
                "--rules", "kalah", "--scope", "any", "--pits", "4", "--stones", "3",
            ][..],
            Rules {
                scope: Scope::Any,
                ..Preset::Kalah.rules()
            },
            4,
            3,
        ),
        (
            &[
                "--rules",
                "avalanche",
                "--capture",
                "empty",
                "--pits",
                "5",
                "--stones",
                "4",
            ][..],
            Rules {
                capture: Capture::Empty,
                ..Preset::Avalanche.rules()
            },
            5,
            4,
        ),
    ];
    for n in [2, 3] {
        for (i, (args, rules, pits, stones)) in cases.iter().enumerate() {
            let board = Board::uniform(*pits, *stones).unwrap();
            let want: serde_json::Value = serde_json::from_str(&in_memory(&board, *rules)).unwrap();
            let mut want = want;
            want.as_object_mut().unwrap().remove("seconds");
            let hosts = hostfile(&format!("same-{n}-{i}"), n);
            let mut args = args.to_vec();
            args.extend(["--json", "-q"]);
            let mut procs = start(&args, n, &hosts);
            let mut outs = Vec::new();
            for child in &mut procs.0 {
                outs.push(finish(child, Duration::from_secs(120)));
            }
            for (p, (code, out, err)) in outs.iter().enumerate() {
                assert_eq!(*code, 0, "process {p} of {n}, {args:?}: {err}");
                if p == 0 {
                    // Thread count aside (it is this process's), the same document.
                    let mut got: serde_json::Value =
                        serde_json::from_str(&strip_seconds(out)).unwrap();
                    got["threads"] = want["threads"].clone();
                    assert_eq!(got, want, "{n} processes, {args:?}");
                } else {
                    assert_eq!(out, "", "only process 0 prints the answer");
                }
            }
            let _ = std::fs::remove_dir_all(hosts.parent().unwrap());
        }
    }
}

/// Start a 2-process count of any-hole 2x6x4 (long enough), wait for
/// process 0's first progress line, then do `what` to process 1; both
/// must end within a minute.
fn disturb(name: &str, what: &str, extra: &[&str]) -> Vec<(i32, String, String)> {
    let hosts = hostfile(name, 2);
    let mut args = vec!["--rules", "any-hole", "--pits", "6", "--stones", "4"];
    args.extend(extra);
    let mut procs = start(&args, 2, &hosts);
    let err = procs.0[0].stderr.take().unwrap();
    let mut lines = BufReader::new(err).lines();
    let mut seen = Vec::new();
    loop {
        let line = lines
            .next()
            .expect("process 0 ended before its first progress line")
            .unwrap();
        let go = line.starts_with("counting store ");
        seen.push(line);
        if go {
            break;
        }
    }
    let status = Command::new("kill")
        .args([what, &procs.0[1].id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The rest of process 0's stderr, read on.
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let mut zero = procs.0.remove(0);
    zero.stderr = None;
    let (code, out, _) = {
        let began = Instant::now();
        loop {
            if let Some(status) = zero.try_wait().unwrap() {
                let mut out = String::new();
                zero.stdout
                    .take()
                    .unwrap()
                    .read_to_string(&mut out)
                    .unwrap();
                break (status.code().unwrap_or(-1), out, String::new());
            }
            if began.elapsed() > Duration::from_secs(60) {
                let _ = zero.kill();
                panic!("process 0 hung after process 1 got {what}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    seen.extend(rest.join().unwrap());
    let one = finish(&mut procs.0[0], Duration::from_secs(60));
    let _ = std::fs::remove_dir_all(hosts.parent().unwrap());
    vec![(code, out, seen.join("\n")), one]
}

#[test]
fn a_killed_process_gives_a_clear_error_on_the_other_not_a_hang() {
    let runs = disturb("kill", "-KILL", &[]);
    let (code, out, err) = &runs[0];
    assert_eq!(*code, 1, "{err}");
    assert_eq!(out, "");
    let last = err.lines().last().unwrap();
    assert!(
        last.starts_with("error: process 0 of 2: the cluster stopped after")
            && last.contains("another process has probably stopped"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "no backtrace: {err}");
}

#[test]
fn ctrl_c_on_one_process_stops_them_all_and_the_same_commands_resume() {
    let dir = std::env::temp_dir().join(format!(
        "mancala-sweep-cluster-spill-sigint-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let spill = dir.to_str().unwrap();
    let runs = disturb("sigint", "-INT", &["--spill", spill]);
    for (p, (code, _, err)) in runs.iter().enumerate() {
        assert_eq!(*code, 130, "process {p}: {err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with("interrupted: the search is incomplete")
                    && l.ends_with("run the same commands on every process to resume")),
            "process {p}: {err}"
        );
    }
    // Each worker checkpointed the same finished buckets, from which the
    // same commands finish the count, with the answer of memory.
    let next: Vec<u64> = (0..2)
        .map(|w| {
            let text =
                std::fs::read_to_string(dir.join(format!("worker-{w}-of-2/checkpoint.json")))
                    .unwrap();
            serde_json::from_str::<serde_json::Value>(&text).unwrap()["next_store"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert!(next[0] > 0 && next[0] == next[1], "{next:?}");
    let board = Board::uniform(6, 4).unwrap();
    let want = std::thread::spawn(move || in_memory(&board, Rules::ANY_HOLE));
    let hosts = hostfile("resume", 2);
    let args = [
        "--rules", "any-hole", "--pits", "6", "--stones", "4", "--spill", spill, "--json", "-q",
    ];
    let mut procs = start(&args, 2, &hosts);
    let outs: Vec<_> = procs
        .0
        .iter_mut()
        .map(|c| finish(c, Duration::from_secs(300)))
        .collect();
    for (p, (code, _, err)) in outs.iter().enumerate() {
        assert_eq!(*code, 0, "process {p}: {err}");
    }
    let mut want: serde_json::Value = serde_json::from_str(&want.join().unwrap()).unwrap();
    want.as_object_mut().unwrap().remove("seconds");
    let mut got: serde_json::Value = serde_json::from_str(&strip_seconds(&outs[0].1)).unwrap();
    got["threads"] = want["threads"].clone();
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(hosts.parent().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Cluster options with each worker's share on disk in `dir`, a buffer of
/// 16 KiB (many run files a bucket) and a time budget.
fn spilled(dir: &std::path::Path, seconds: Option<f64>) -> SweepOptions<'_> {
    SweepOptions {
        threads: 2,
        listing: Listing::Limit(0),
        spill: Some(dir),
        spill_buffer: Some(16 << 10),
        seconds,
        ..Default::default()
    }
}

#[test]
fn workers_with_their_share_on_disk_give_the_same_json_and_resume_after_every_stop() {
    let board = Board::uniform(6, 3).unwrap();
    let want = in_memory(&board, Rules::ANY_HOLE);
    let cluster = Cluster::new(1, 0, 3, None).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "mancala-sweep-cluster-spill-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    // Stopped by a short time budget again and again, resumed each time
    // by the same call, until it finishes.
    let mut stops = 0;
    let got = loop {
        match solve_cluster(
            &board,
            Rules::ANY_HOLE,
            &spilled(&dir, Some(0.05)),
            &cluster,
        ) {
            Ok((s, _)) => break s,
            Err(e) => {
                assert!(e.is_deadline(), "{e}");
                stops += 1;
                assert!(stops < 500, "no progress");
            }
        }
    };
    assert!(stops >= 2, "only {stops} stops: the test did not resume");
    assert_eq!(json(got), want, "after {stops} stops");
    // Every worker has its own directory; a finished run answers again.
    assert!(dir.join("worker-2-of-3").join("checkpoint.json").exists());
    let (again, _) =
        solve_cluster(&board, Rules::ANY_HOLE, &spilled(&dir, None), &cluster).unwrap();
    assert_eq!(json(again), want);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn workers_whose_checkpoints_disagree_are_refused() {
    let board = Board::uniform(6, 3).unwrap();
    let cluster = Cluster::new(1, 0, 2, None).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "mancala-sweep-cluster-disagree-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    // Stop once some buckets are checkpointed, then lose one worker's
    // directory: the other's checkpoint alone must not be resumed.
    let stopped = loop {
        let e = solve_cluster(
            &board,
            Rules::ANY_HOLE,
            &spilled(&dir, Some(0.05)),
            &cluster,
        )
        .expect_err("stopped by the budget");
        assert!(e.is_deadline(), "{e}");
        if dir.join("worker-0-of-2").join("checkpoint.json").exists() {
            break e;
        }
    };
    std::fs::remove_dir_all(dir.join("worker-1-of-2")).unwrap();
    let e = solve_cluster(&board, Rules::ANY_HOLE, &spilled(&dir, None), &cluster).unwrap_err();
    let text = e.to_string();
    assert!(e.is_input(), "{text} (after {stopped})");
    assert!(
        text.contains("the workers' checkpoints are of different buckets")
            && text.contains("remove the directory to start over"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The binary's `args` on a process of its own: (exit code, stdout,
/// stderr, its peak resident bytes: the kernel's high-water mark of the
/// process, `VmHWM`, read every 5 ms until it ends; the last small
/// buckets come long after the peak). Not `wait4`'s `ru_maxrss`, which
/// also counts the test process the child was forked from before it ran
/// the binary.
#[cfg(target_os = "linux")]
fn run_measured(args: &[&str]) -> (i32, String, String, u64) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("mancala-sweep"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let (mut out_pipe, mut err_pipe) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let (mut out, mut err) = (String::new(), String::new());
        out_pipe.read_to_string(&mut out).unwrap();
        err_pipe.read_to_string(&mut err).unwrap();
        (out, err)
    });
    let mut peak = 0u64;
    let code = loop {
        let hwm = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        peak = peak.max(hwm.unwrap_or(0) * 1024);
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (out, err) = reader.join().unwrap();
    (code, out, err, peak)
}

/// The memory guard holds on a cluster whose workers keep their shares
/// on disk: one process of two workers under `--max-memory 100M` counts
/// any-hole 2×5×5 (144 MB in memory) to the answer in memory, never
/// holding more than the guard (the kernel's high-water mark of the process; before
/// the workers shared one buffer budget it stopped at 119 MB).
#[cfg(target_os = "linux")]
#[test]
fn workers_with_their_share_on_disk_hold_the_memory_guard() {
    let dir = std::env::temp_dir().join(format!(
        "mancala-sweep-cluster-guard-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let spill = dir.join("spill");
    let board = [
        "solve", "--rules", "any-hole", "--pits", "5", "--stones", "5",
    ];
    let flags = ["--limit", "0", "--json", "--quiet", "--threads", "2"];
    let plain: Vec<&str> = board.iter().chain(&flags).copied().collect();
    let (code, want, err, in_memory) = run_measured(&plain);
    assert_eq!(code, 0, "{err}");
    let guard = 100u64 << 20;
    assert!(
        in_memory > guard,
        "{in_memory} bytes: the guard would not bind"
    );
    let cluster = [
        "--cluster",
        "--workers",
        "2",
        "--spill",
        spill.to_str().unwrap(),
        "--max-memory",
        "100M",
    ];
    let args: Vec<&str> = plain.iter().chain(&cluster).copied().collect();
    let (code, got, err, peak) = run_measured(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(strip_seconds(&got), strip_seconds(&want));
    assert!(peak <= guard, "{peak} bytes at the peak, over {guard}");
    std::fs::remove_dir_all(&dir).unwrap();
}
