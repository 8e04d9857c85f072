//! The fuzz targets' seeds and regressions on stable Rust: every committed
//! seed (`fuzz/corpus/<target>/`) and every input a fuzzer once crashed on
//! (`fuzz/regressions/<target>/`) goes through the same reader with the
//! same contract as in the fuzz target, from the one file that states the
//! contracts (`fuzz/src/contracts.rs`, included here), so that a fixed crash
//! stays fixed in `cargo test` without nightly or a fuzzer
//! (docs/fuzzing.md).

#[path = "../fuzz/src/contracts.rs"]
mod contracts;

use std::path::Path;

/// Feed every file of the target's seeds and regressions to `check`; the
/// file being read is printed first, so a failure names it.
fn each(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut seeds = 0;
    for folder in ["corpus", "regressions"] {
        let dir = root.join(folder).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.expect("an entry").path()).collect();
        files.sort();
        for file in files {
            eprintln!("{}", file.display());
            check(&std::fs::read(&file).expect("readable"));
            seeds += usize::from(folder == "corpus");
        }
    }
    assert!(seeds > 0, "fuzz/corpus/{target} has no seeds");
}

#[test]
fn board_text() {
    each("board_text", contracts::board_text);
}

#[test]
fn replay_picks() {
    each("replay_picks", contracts::replay_picks);
}

#[test]
fn puzzles() {
    each("puzzles", contracts::puzzles);
}

#[test]
fn atlas() {
    each("atlas", contracts::atlas);
}

#[test]
fn endgame_db() {
    each("endgame_db", contracts::endgame_db);
}

#[test]
fn spill_checkpoint() {
    each("spill_checkpoint", contracts::spill_checkpoint);
}

#[test]
fn spill_run() {
    each("spill_run", contracts::spill_run);
}

#[test]
fn match_out() {
    each("match_out", contracts::match_out);
}

#[test]
fn api_bodies() {
    each("api_bodies", contracts::api_bodies);
}

/// The spill targets damage a directory stopped part-way; untouched, it
/// resumes to the answer of the whole search (which the two targets
/// check when their input is the file as written).
#[test]
fn a_stopped_spill_resumes_to_the_whole_answer() {
    let (files, _) = contracts::spill_stopped();
    for (name, bytes) in files {
        if name == mancala_sweep::sweep::exact::CHECKPOINT_FILE {
            contracts::spill_checkpoint(bytes);
        } else if name.ends_with(".run") {
            contracts::spill_run(bytes);
            break;
        }
    }
}
