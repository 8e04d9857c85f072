//! The atlas command: a small atlas checked cell by cell against `solve`,
//! resuming, and Ctrl-C leaving only complete files.

use mancala_sweep::rules::turn;
use mancala_sweep::sweep::exact::{solve, Listing, SweepOptions};
use mancala_sweep::Board;
// assert_cmd's `assert()` on a std `Command`: a failure shows the command,
// its status and its output.
use assert_cmd::assert::OutputAssertExt;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ms-atlas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn no_temp_files(dir: &PathBuf) -> bool {
    std::fs::read_dir(dir)
        .unwrap()
        .all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
}

#[test]
fn a_small_atlas_agrees_with_solve_cell_by_cell() {
    let dir = temp_dir("small");
    bin()
        .args([
            "atlas",
            "--all-rules",
            "--pits",
            "1-4",
            "--stones",
            "1..=3",
            "--quiet",
            "--out",
        ])
        .arg(&dir)
        .assert()
        .success();
    let atlas: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("atlas.json")).unwrap()).unwrap();
    assert_eq!(atlas["format"], "mancala-sweep-atlas/1");
    // The run that made the cells: its command, budget and machine.
    let runs = atlas["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    assert!(runs[0]["command"]
        .as_str()
        .unwrap()
        .starts_with("mancala-sweep atlas --all-rules --pits 1-4"));
    assert!(runs[0]["machine"]
        .as_str()
        .unwrap()
        .contains("threads, kernels"));
    assert!(runs[0]["seconds"].as_f64().unwrap() > 0.0);
    let cells = atlas["cells"].as_array().unwrap();
    assert!(cells.iter().all(|c| c["run"] == 0));
    let md = std::fs::read_to_string(dir.join("atlas.md")).unwrap();
    assert!(
        md.contains("**How it was made.** `mancala-sweep atlas --all-rules"),
        "{md}"
    );
    assert_eq!(cells.len(), 12 * 4 * 3);
    for c in cells {
        let rules = serde_json::from_value(c["rules"].clone()).unwrap();
        let board = Board::uniform(
            c["pits"].as_u64().unwrap() as usize,
            c["stones"].as_u64().unwrap() as u32,
        )
        .unwrap();
        let s = solve(
            &board,
            rules,
            &SweepOptions {
                listing: Listing::Limit(1),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(c["exact"], true, "{c}");
        assert_eq!(c["best_store"], s.best_store, "{c}");
        assert_eq!(c["total_stones"], s.total_stones, "{c}");
        assert_eq!(c["sweep"], s.sweep(), "{c}");
        assert_eq!(c["positions"], s.positions, "{c}");
        assert_eq!(c["optimal_count"], s.optimal_count.to_string(), "{c}");
        assert_eq!(c["turns_total"], s.turns_total.to_string(), "{c}");
        let line: Vec<u32> = c["line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap() as u32)
            .collect();
        let end = turn::replay(board, rules, &line).unwrap().pop().unwrap();
        assert_eq!(end.board().store() as u32, s.best_store, "{c}");
        assert!(!end.to_move());
    }
    let md = std::fs::read_to_string(dir.join("atlas.md")).unwrap();
    assert_eq!(md.matches("\n## ").count(), 12);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if name.ends_with(".svg") {
            let svg = std::fs::read_to_string(dir.join(&name)).unwrap();
            assert!(
                svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                "{name}"
            );
        }
    }
    assert!(no_temp_files(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_run_resumes() {
    let dir = temp_dir("resume");
    let run = |stones: &str| {
        let out = bin()
            .args([
                "atlas",
                "--rules",
                "avalanche,kalah",
                "--pits",
                "1-2",
                "--stones",
                stones,
                "--quiet",
                "--out",
            ])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(run("1-2").starts_with("8 of 8 cells done (0 from an earlier run)"));
    assert!(run("1-3").starts_with("12 of 12 cells done (8 from an earlier run)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_atlas_directories_are_refused() {
    let dir = temp_dir("foreign");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("atlas.json"), "{\"format\": \"something-else/2\"}").unwrap();
    let out = bin()
        .args(["atlas", "--pits", "1", "--stones", "1", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not \"mancala-sweep-atlas/1\""), "{err}");
    std::fs::write(
        dir.join("atlas.json"),
        "{\"format\": \"mancala-sweep-atlas/1\", \"cel",
    )
    .unwrap();
    let out = bin()
        .args(["atlas", "--pits", "1", "--stones", "1", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not valid JSON"));
    let _ = std::fs::remove_dir_all(&dir);
}
