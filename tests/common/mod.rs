//! What the test modules share: the rule-set strategy of the property
//! tests, the solve JSON that the counting-only searches are compared by,
//! and an analysis's values in an order that does not depend on its ranking.

pub mod schema;
pub mod solve_json;

use mancala_sweep::{Capture, Rules, Scope};
use proptest::prelude::*;

/// Any of the twelve rule sets.
pub fn rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Scope::Own), Just(Scope::Any)],
        any::<bool>(),
        prop_oneof![
            Just(Capture::None),
            Just(Capture::Kalah),
            Just(Capture::Empty)
        ],
    )
        .prop_map(|(scope, relay, capture)| Rules {
            scope,
            relay,
            capture,
        })
}

/// The value of a `mancala-sweep-game-analysis/1` document and each turn's
/// (its picks as JSON text, its value), sorted by picks: two analyses that
/// proved the same values compare equal whatever order ties were ranked in.
pub fn analysis_values(doc: &serde_json::Value) -> (serde_json::Value, Vec<(String, i64)>) {
    let mut turns: Vec<(String, i64)> = doc["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| {
            (
                t["picks"].to_string(),
                t["value"].as_i64().expect("a value"),
            )
        })
        .collect();
    turns.sort();
    (doc["value"].clone(), turns)
}

/// The cache folder of endgame databases for the tests that run the
/// binary: Cargo's scratch folder, never the user's cache.
pub const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/endgame-cache");

/// Run `mancala-sweep ARGS` with `stdin` and the cache folder [`CACHE`];
/// (exit code, stdout, stderr).
pub fn run_bin(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_bin_env(args, stdin, &[])
}

/// [`run_bin`] with the environment variables `env` set (after the cache
/// folder [`CACHE`], which `env` may override).
pub fn run_bin_env(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("mancala-sweep")
        .unwrap()
        .args(args)
        .env("MANCALA_SWEEP_CACHE", CACHE)
        .envs(env.iter().copied())
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
