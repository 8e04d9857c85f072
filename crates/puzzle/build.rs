//! Embeds every committed puzzle collection, `puzzles/*.json`, in the
//! library: an installed binary (and the static site's engine) has them
//! without a clone, and a collection added to the folder is built in with
//! no list to keep up to date. Writes `$OUT_DIR/committed_puzzles.rs`, a
//! table of (name, text) by file stem, which `crates/puzzle/src/lib.rs` includes:
//! `avalanche` first (GamePigeon's mode, the one most players come for,
//! and so the web page's first collection), then the others by name.

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = root.join("../../puzzles");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|(name, _)| (name != "avalanche", name.clone()));
    let mut out = format!("const COMMITTED: [(&str, &str); {}] = [\n", files.len());
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("a string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(dest.join("committed_puzzles.rs"), out).expect("OUT_DIR is writable");
}
