//! The layers of the crate depend downward only: a module may name
//! (`crate::...`) modules of lower layers and its own, never a higher one
//! or a sibling of its layer. This reads the sources, so an import circle
//! between layers fails here before it can settle in.

use std::path::Path;

/// Layers, lowest first: (module path under `src/`, rank). A module may use
/// those of a lower rank, and itself.
const LAYERS: &[(&str, u32)] = &[
    ("atomic_file", 0),
    ("clock", 0),
    ("header", 0),
    ("rules", 0),
    ("search/error", 10),
    ("search/memory", 10),
    ("search/allocator", 11),
    ("search/control", 11),
    ("search/kernel", 12),
    ("search/exact", 13),
    ("search/beam", 13),
    ("search", 14),
    ("game", 20),
    ("format", 30),
    ("puzzle", 40),
    ("atlas", 40),
    ("api", 45),
    ("web", 50),
    ("error", 60),
    ("lib", 70),
];

/// The layer of a module path such as `search/exact/forward` or of a
/// `crate::` path turned into one.
fn layer(path: &str) -> Option<(&'static str, u32)> {
    LAYERS
        .iter()
        .filter(|(prefix, _)| path == *prefix || path.starts_with(&format!("{prefix}/")))
        .max_by_key(|(prefix, _)| prefix.len())
        .copied()
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

#[test]
fn layers_depend_downward_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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
        if rel == "main.rs" || rel.starts_with("cli/") {
            continue; // the binary sits on top of everything
        }
        let module = rel.trim_end_matches(".rs").trim_end_matches("/mod");
        let (own, rank) = layer(module).unwrap_or_else(|| panic!("{rel} is in no layer"));
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("crate::") {
                let path: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let target = path.trim_end_matches(':').replace("::", "/");
                // A path naming an item of the crate root (`crate::Error`)
                // is the root's layer.
                let (theirs, their_rank) = layer(&target).unwrap_or(("lib", 70));
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
fn the_layer_table_covers_every_module() {
    assert_eq!(layer("search/exact/forward"), Some(("search/exact", 13)));
    assert_eq!(layer("rules/board"), Some(("rules", 0)));
    assert_eq!(layer("searchlight"), None);
}
