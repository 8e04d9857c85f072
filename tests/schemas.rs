//! Every JSON the tool writes is valid against its schema in `schemas/`:
//! real output of the binary (finished and stopped solves, find, replay),
//! the committed puzzle collections and atlas. A key added to a document
//! without its schema, or a schema that drifts from the output, fails here.

use crate::common::schema::{compile, folder, read, schema, valid};
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// stdout of the binary as JSON, whatever its exit status.
fn output(args: &[&str]) -> Value {
    let out = Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(args)
        .env(
            "MANCALA_SWEEP_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/endgame-cache"),
        )
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

#[test]
fn solve_find_and_replay_output_match_their_schemas() {
    for args in [
        &["solve", "--rules", "kalah", "--json"][..],
        &[
            "solve", "--rules", "any-hole", "--stones", "2", "--json", "--all",
        ],
        &[
            "solve",
            "--board",
            "3 2 1 / 0 0 / 4 1 100",
            "--capture",
            "empty",
            "--json",
        ],
    ] {
        valid("solve", &output(args), &format!("{args:?}"));
    }
    // A solve that stopped: the memory guard, with --json.
    let stopped = output(&[
        "solve",
        "--rules",
        "any-hole",
        "--pits",
        "5",
        "--max-memory",
        "1M",
        "--json",
    ]);
    assert_eq!(stopped["complete"], false);
    assert_eq!(stopped["stopped"], "memory-limit");
    valid("solve", &stopped, "stopped solve");
    for args in [
        &["find", "--rules", "any-hole", "--stones", "3", "--json"][..],
        &[
            "find", "--rules", "kalah", "--pits", "7", "--json", "--beam", "4",
        ],
    ] {
        valid("find", &output(args), &format!("{args:?}"));
    }
    for args in [
        &["replay", "--rules", "any-hole", "--json", "11", "2", "3"][..],
        &["replay", "--rules", "kalah", "--json", "3", "1"],
    ] {
        valid("replay", &output(args), &format!("{args:?}"));
    }
}

#[test]
fn collections_and_atlas_match_their_schemas() {
    for file in [
        "puzzles/avalanche.json",
        "puzzles/any-hole.json",
        "puzzles/capture.json",
    ] {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
        valid("puzzles", &doc, file);
    }
    // The committed opening books, each file of books/.
    for entry in std::fs::read_dir(root().join("books")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            valid("book", &doc, &path.display().to_string());
        }
    }
    // The source none of them holds: its ids start `game-hard-`.
    let hard = std::env::temp_dir().join(format!("ms-schema-hard-{}.json", std::process::id()));
    let f = hard.to_str().unwrap();
    Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args([
            "puzzles",
            "generate",
            "--rules",
            "kalah",
            "--source",
            "game-hard",
        ])
        .args(["--count", "2", "--seed", "2", "--out", f, "-q"])
        .assert()
        .success();
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&hard).unwrap()).unwrap();
    valid("puzzles", &doc, "a game-hard collection");
    let id = doc["puzzles"][0]["id"].as_str().unwrap();
    valid(
        "puzzle-list",
        &output(&["puzzles", "list", f, "--json"]),
        "its list",
    );
    valid(
        "puzzle-show",
        &output(&["puzzles", "show", f, id, "--json"]),
        "a puzzle of it",
    );
    let _ = std::fs::remove_file(&hard);
    let atlas: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/atlas/atlas.json")).unwrap(),
    )
    .unwrap();
    valid("atlas", &atlas, "docs/atlas/atlas.json");
}

#[test]
fn puzzle_list_check_and_show_match_their_schemas() {
    let file = root().join("puzzles/avalanche.json");
    let file = file.to_str().unwrap();
    valid(
        "puzzle-list",
        &output(&["puzzles", "list", file, "--json"]),
        "list",
    );
    let id = output(&["puzzles", "list", file, "--json"])["puzzles"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for args in [
        &["puzzles", "show", file, &id, "--json"][..],
        &["puzzles", "show", file, &id, "--json", "--solution"],
    ] {
        valid("puzzle-show", &output(args), &format!("{args:?}"));
    }
    // A check of a small collection: its first three puzzles, one tampered.
    let mut c: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    c["puzzles"].as_array_mut().unwrap().truncate(3);
    let goal = c["puzzles"][0]["goal_store"].as_u64().unwrap();
    c["puzzles"][0]["goal_store"] = Value::from(goal + 1);
    let small = std::env::temp_dir().join(format!("ms-schema-check-{}.json", std::process::id()));
    std::fs::write(&small, c.to_string()).unwrap();
    let report = output(&["puzzles", "check", small.to_str().unwrap(), "--json"]);
    let _ = std::fs::remove_file(&small);
    assert_eq!(report["ok"], false);
    assert_eq!(report["puzzles"], 3);
    valid("puzzle-check", &report, "check");
}

#[test]
fn the_schemas_reject_what_they_should() {
    let mut doc = output(&["solve", "--rules", "kalah", "--json"]);
    doc["surprise"] = Value::from(1);
    assert!(!schema("solve").is_valid(&doc), "an unknown key passes");
    let mut doc = output(&["replay", "--json", "3"]);
    doc["steps"][0]["end"] = Value::from("maybe");
    assert!(!schema("replay").is_valid(&doc), "a bad end passes");
    // The shared rules, through the reference to common.schema.json.
    let good = output(&["replay", "--rules", "kalah", "--json", "3", "1"]);
    assert!(schema("replay").is_valid(&good));
    for (key, value) in [
        ("surprise", Value::from(1)),
        ("capture", Value::from("all")),
    ] {
        let mut doc = good.clone();
        doc["rules"][key] = value;
        assert!(!schema("replay").is_valid(&doc), "rules with {key} pass");
    }
    let mut doc = good.clone();
    doc["start"]["pits"][0] = Value::from(256);
    assert!(
        !schema("replay").is_valid(&doc),
        "a pit of 256 stones passes"
    );
}

/// Every schema compiles with its references resolved, every reference
/// points into the same file or into `common.schema.json`, and the rules'
/// keys are defined there alone: a new rule variant touches one schema.
#[test]
fn the_shared_definitions_live_in_common_schema_json() {
    let mut files: Vec<String> = std::fs::read_dir(folder())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".schema.json"))
        .collect();
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    for file in &files {
        compile(file).unwrap_or_else(|e| panic!("{e}"));
        let doc = read(file).unwrap();
        let mut refs = Vec::new();
        let mut rules = Vec::new();
        walk(&doc, "", &mut refs, &mut rules);
        for r in refs {
            assert!(
                r.starts_with("#/") || r.starts_with("common.schema.json#/"),
                "{file}: $ref {r} leaves the folder's shared file"
            );
        }
        if file != "common.schema.json" {
            assert!(rules.is_empty(), "{file} defines the rules at {rules:?}");
        }
    }
}

/// Collect the `$ref`s under `v` and the places that define a `capture` key.
fn walk(v: &Value, at: &str, refs: &mut Vec<String>, rules: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                refs.push(r.clone());
            }
            if map
                .get("properties")
                .is_some_and(|p| p.get("capture").is_some())
            {
                rules.push(at.to_string());
            }
            for (k, x) in map {
                walk(x, &format!("{at}/{k}"), refs, rules);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                walk(x, &format!("{at}/{i}"), refs, rules);
            }
        }
        _ => {}
    }
}

#[test]
fn game_solve_analyze_and_match_output_match_their_schemas() {
    for args in [
        &[
            "game", "solve", "--pits", "4", "--stones", "3", "--json", "-q",
        ][..],
        &[
            "game",
            "solve",
            "--board",
            "0 1 2 / 3 4 / 1 0 2",
            "--capture",
            "empty",
            "--json",
            "-q",
        ],
    ] {
        valid("game-solve", &output(args), &format!("{args:?}"));
    }
    // An analysis proved whole, one with bounds only, and one from the
    // opening book (Kalah 6x4's start).
    for args in [
        &[
            "game", "analyze", "--pits", "4", "--stones", "2", "--json", "-q",
        ][..],
        &[
            "game",
            "analyze",
            "--nodes",
            "10000",
            "--threads",
            "1",
            "--no-book",
            "--json",
            "-q",
        ],
        &["game", "analyze", "--json", "-q"],
    ] {
        valid("game-analysis", &output(args), &format!("{args:?}"));
    }
    let mut doc = output(&[
        "game",
        "analyze",
        "--nodes",
        "10000",
        "--no-book",
        "--json",
        "-q",
    ]);
    doc["turns"][0]["exact"] = Value::from(true);
    assert!(
        !schema("game-analysis").is_valid(&doc),
        "an exact turn with bounds passes"
    );
    let m = output(&[
        "game", "match", "random", "greedy", "--games", "4", "--json", "-q",
    ]);
    valid("game-match", &m, "game match");
    // A one-sided match has no Elo: null, which the schema allows.
    assert!(m["summary"]["elo"].is_null() || m["summary"]["elo"].is_number());
}

#[test]
fn a_kept_game_and_its_review_match_their_schemas() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schemas-kept-games");
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args([
            "game", "analyze", "--follow", "--pits", "4", "--stones", "3",
        ])
        .env(
            "MANCALA_SWEEP_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/endgame-cache"),
        )
        .env("MANCALA_SWEEP_GAMES", &dir)
        .write_stdin("best\n5\n6\n7\n8\n".repeat(30))
        .output()
        .unwrap();
    assert!(out.status.success());
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    valid("game-record", &kept, "a followed game");
    let review = output(&["game", "review", file.to_str().unwrap(), "--json", "-q"]);
    valid("game-review", &review, "its review");
    // A review with bounds only: a node budget too small for 6 pits.
    let review = output(&[
        "game",
        "review",
        "--turns",
        "3 1, 1",
        "--nodes",
        "1000",
        "--threads",
        "1",
        "--no-book",
        "--json",
        "-q",
    ]);
    assert_eq!(review["complete"], false);
    valid("game-review", &review, "a review with bounds");
}
