//! The layers depend downward only. Between crates Cargo keeps them from
//! forming a circle, but not from using a sibling or skipping up: the
//! crates' own `Cargo.toml` files are read here and each may depend only on
//! crates of a lower layer. Inside the sweep, whose parts are layers too
//! (the kernels know nothing of the exhaustive sweep that drives them), a
//! module may name (`crate::...`) modules of lower layers and its own,
//! never a higher one or a sibling.

use std::path::Path;

/// The workspace's crates, lowest first: (folder under `crates/`, rank). A
/// crate may depend on those of a lower rank.
const CRATES: &[(&str, u32)] = &[
    ("base", 0),
    ("rules", 1),
    ("sweep", 2),
    ("game", 3),
    ("format", 4),
    ("puzzle", 5),
    ("atlas", 5),
    ("api", 6),
    ("server", 7),
    ("lib", 8),
    ("cli", 9),
];

/// The sweep's parts, lowest first: (module path under `crates/sweep/src/`,
/// rank). A module may use those of a lower rank, and itself.
const SWEEP: &[(&str, u32)] = &[
    ("error", 0),
    ("memory", 0),
    ("allocator", 1),
    ("control", 1),
    ("kernel", 2),
    ("exact", 3),
    ("beam", 3),
    ("lib", 4),
];

/// The part of the sweep of a module path such as `exact/forward` or of a
/// `crate::` path turned into one; the crate root's own items are `lib`.
fn layer(path: &str) -> (&'static str, u32) {
    SWEEP
        .iter()
        .filter(|(prefix, _)| path == *prefix || path.starts_with(&format!("{prefix}/")))
        .max_by_key(|(prefix, _)| prefix.len())
        .copied()
        .unwrap_or(("lib", 4))
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The workspace crates a manifest depends on: the folders of its
/// `path = "../x"` dependencies.
fn path_dependencies(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .filter_map(|line| line.split("path = \"../").nth(1))
        .map(|rest| rest.split('"').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn crates_depend_downward_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let rank = |name: &str| CRATES.iter().find(|(n, _)| *n == name).map(|c| c.1);
    let mut wrong = Vec::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let own = rank(&name).unwrap_or_else(|| panic!("crates/{name} is in no layer"));
        let manifest = std::fs::read_to_string(root.join(&name).join("Cargo.toml")).unwrap();
        for dep in path_dependencies(&manifest) {
            seen += 1;
            match rank(&dep) {
                Some(theirs) if theirs < own => {}
                _ => wrong.push(format!("crates/{name} depends on crates/{dep}")),
            }
        }
    }
    assert!(
        seen > 20,
        "only {seen} dependencies found: is the reader broken?"
    );
    assert!(
        wrong.is_empty(),
        "upward or sideways dependencies:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_sweeps_parts_depend_downward_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/sweep/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let module = rel.trim_end_matches(".rs").trim_end_matches("/mod");
        let (own, rank) = layer(module);
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("crate::") {
                let path: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let target = path.trim_end_matches(':').replace("::", "/");
                let (theirs, their_rank) = layer(&target);
                checked += 1;
                if theirs != own && their_rank >= rank {
                    wrong.push(format!(
                        "{rel}:{}: {own} uses {theirs} (crate::{path})",
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} paths found: is the parser broken?"
    );
    assert!(
        wrong.is_empty(),
        "upward or sideways uses:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layer_tables_cover_what_they_name() {
    assert_eq!(layer("exact/forward"), ("exact", 3));
    assert_eq!(layer("kernel"), ("kernel", 2));
    assert_eq!(layer("exactly"), ("lib", 4));
    assert_eq!(
        path_dependencies("rules = { package = \"x\", path = \"../rules\" }\nserde = \"1\""),
        ["rules"]
    );
}
