//! The house keeper: the sources stay small enough to read and free of
//! import circles. It fails when a file of any crate's sources (`src/`,
//! `crates/*/src/`, `wasm/src/`) is over
//! [`MAX_FILE_LINES`] lines, a function over [`MAX_FN_LINES`], or the paths
//! between modules (`crate::…`, `super::…`, `self::…` and a module's own
//! children; not `pub use` re-exports) form a circle (a module and its own
//! children, which may use what it defines, are not one), so that a hub file or a type in the wrong
//! module fails the tests the day it appears, not a year later.
//!
//! `cargo test --test house -- --nocapture` prints the largest files, the
//! longest functions and any circles (docs/code-layout.md).
//!
//! It reads the sources as text and uses nothing of the library, so it is
//! a small test binary of its own: once the library is built it compiles
//! and runs in seconds, without waiting for the suite.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Past this a file holds more than one job: split it by job.
const MAX_FILE_LINES: usize = 900;
/// Past this a function is read by scrolling: give its steps names.
const MAX_FN_LINES: usize = 100;

/// One source file as the keeper sees it.
struct Source {
    /// The path from the repository's root, with `/`.
    path: String,
    /// The sources folder of its crate (`src`, `crates/sweep/src`, `wasm/src`).
    krate: String,
    /// Its module path in its crate (`search/exact/store` for
    /// `crates/sweep/src/exact/store/mod.rs`; empty for the crate root).
    module: Vec<String>,
    lines: usize,
    /// The text with comments and the insides of literals blanked, so that
    /// braces and paths are code.
    code: String,
}

/// A function's length, from its `fn` line to its closing brace.
struct Function {
    path: String,
    line: usize,
    name: String,
    lines: usize,
}

struct Survey {
    files: Vec<(String, usize)>,
    functions: Vec<Function>,
    /// Each circle: the files whose imports reach one another.
    circles: Vec<Vec<String>>,
}

fn survey() -> &'static Survey {
    static SURVEY: OnceLock<Survey> = OnceLock::new();
    SURVEY.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut sources = Vec::new();
        for krate in crates(root) {
            let krate = krate.as_str();
            let mut files = Vec::new();
            rust_files(&root.join(krate), &mut files);
            for file in files {
                let rel = file.strip_prefix(root.join(krate)).unwrap();
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(&file).unwrap();
                sources.push(Source {
                    path: format!("{krate}/{rel}"),
                    krate: krate.to_string(),
                    module: module_of(&rel),
                    lines: text.lines().count(),
                    code: blank_comments_and_literals(&text),
                });
            }
        }
        sources.sort_by(|a, b| a.path.cmp(&b.path));
        let mut files: Vec<_> = sources.iter().map(|s| (s.path.clone(), s.lines)).collect();
        files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut functions: Vec<_> = sources.iter().flat_map(functions_of).collect();
        functions.sort_by(|a, b| b.lines.cmp(&a.lines).then(a.path.cmp(&b.path)));
        let circles = circles(&sources);
        Survey {
            files,
            functions,
            circles,
        }
    })
}

/// The sources folder of every crate of the workspace: the binary's
/// `src`, each layer's `crates/*/src` and the site's engine `wasm/src`.
fn crates(root: &Path) -> Vec<String> {
    let mut dirs = vec!["src".to_string(), "wasm/src".to_string()];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        dirs.push(format!("crates/{name}/src"));
    }
    dirs.sort();
    dirs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `a/b/mod.rs` and `a/b.rs` are module `a::b`; `lib.rs` and `main.rs`
/// are the root.
fn module_of(rel: &str) -> Vec<String> {
    let stem = rel.trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" || stem == "main" {
        return Vec::new();
    }
    stem.split('/').map(str::to_string).collect()
}

/// The text with comments, string and char literals turned to spaces
/// (their quotes and the line breaks kept), so that what is left is code.
fn blank_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && !(i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            out.extend(&c[i..=j]);
            i = j + 1;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    break;
                }
                out.push(blank(c[i]));
                i += 1;
            }
            if i < c.len() {
                out.extend(&c[i..=i + hashes]);
                i += hashes + 1;
            }
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..c.len().min(i + 12)).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.push('\'');
                    out.extend(std::iter::repeat_n(' ', end - i - 1));
                    out.push('\'');
                    i = end + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Every `fn` with a body, measured from its `fn` line to its closing
/// brace.
fn functions_of(source: &Source) -> Vec<Function> {
    let c: Vec<char> = source.code.chars().collect();
    let line_at = {
        let mut starts = vec![0usize; c.len() + 1];
        let mut line = 1;
        for (i, &ch) in c.iter().enumerate() {
            starts[i] = line;
            if ch == '\n' {
                line += 1;
            }
        }
        starts[c.len()] = line;
        starts
    };
    let mut found = Vec::new();
    for i in 0..c.len().saturating_sub(3) {
        let word_start = i == 0 || !is_ident(c[i - 1]);
        if !(word_start && c[i] == 'f' && c[i + 1] == 'n' && c[i + 2].is_whitespace()) {
            continue;
        }
        let mut j = i + 2;
        while j < c.len() && c[j].is_whitespace() {
            j += 1;
        }
        let name: String = c[j..].iter().take_while(|&&ch| is_ident(ch)).collect();
        if name.is_empty() {
            continue; // a `fn (…)` pointer type
        }
        // The body opens at the first `{` outside parentheses and brackets;
        // a `;` there first is a declaration without one.
        let mut depth = 0i32;
        let mut open = None;
        while j < c.len() {
            match c[j] {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 => break,
                '{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let Some(open) = open else { continue };
        let mut braces = 0;
        let mut close = open;
        for (k, &ch) in c.iter().enumerate().skip(open) {
            match ch {
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    if braces == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let line = line_at[i];
        found.push(Function {
            path: source.path.clone(),
            line,
            name,
            lines: line_at[close] - line + 1,
        });
    }
    found
}

/// The modules one file names: each path that opens with `crate::`,
/// `super::`, `self::` or one of the module's own children, `use` groups
/// (`a::{b, c::d}`) unfolded, resolved to the deepest module that is a
/// file. Paths inside an inline module (`mod tests { use super::*; }`)
/// resolve from it.
fn imports_of(source: &Source, modules: &BTreeSet<Vec<String>>) -> BTreeMap<Vec<String>, usize> {
    let c: Vec<char> = source.code.chars().collect();
    let mut named = BTreeMap::new();
    let mut line = 1;
    // Inline modules open: (name, brace depth inside them).
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0;
    let mut pending_mod: Option<String> = None;
    // Inside a `pub use` re-export, which lets the module's users name an
    // item where it is, not a use of it.
    let mut re_export = false;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
        }
        if ch == '{' {
            depth += 1;
            if let Some(name) = pending_mod.take() {
                inline.push((name, depth));
            }
            i += 1;
            continue;
        }
        if ch == '}' {
            if inline.last().is_some_and(|&(_, d)| d == depth) {
                inline.pop();
            }
            depth -= 1;
            i += 1;
            continue;
        }
        if ch == ';' {
            pending_mod = None;
            re_export = false;
        }
        let starts_word = i == 0 || !(is_ident(c[i - 1]) || c[i - 1] == ':');
        if !starts_word || !is_ident(ch) {
            i += 1;
            continue;
        }
        let word: String = c[i..].iter().take_while(|&&ch| is_ident(ch)).collect();
        let after = i + word.chars().count();
        if word == "pub" {
            let mut j = after;
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if c.get(j) == Some(&'(') {
                while j < c.len() && c[j] != ')' {
                    j += 1;
                }
                j += 1;
                while j < c.len() && c[j].is_whitespace() {
                    j += 1;
                }
            }
            if c[j..].starts_with(&['u', 's', 'e'])
                && c.get(j + 3).is_some_and(|ch| ch.is_whitespace())
            {
                re_export = true;
            }
            i = after;
            continue;
        }
        if re_export {
            i = after;
            continue;
        }
        if word == "mod" {
            let mut j = after;
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            let name: String = c[j..].iter().take_while(|&&ch| is_ident(ch)).collect();
            pending_mod = Some(name);
            i = after;
            continue;
        }
        if !(c.get(after) == Some(&':') && c.get(after + 1) == Some(&':')) {
            i = after;
            continue;
        }
        let mut here = source.module.clone();
        here.extend(inline.iter().map(|(name, _)| name.clone()));
        let mut child = here.clone();
        child.push(word.clone());
        let base = match word.as_str() {
            "crate" | "super" | "self" => None,
            _ if modules.contains(&child) => Some(here.clone()),
            _ => {
                i = after;
                continue;
            }
        };
        let mut paths = Vec::new();
        let end = unfold(&c, i, Vec::new(), &mut paths);
        for path in paths {
            let mut at = base.clone().unwrap_or_default();
            for (n, segment) in path.iter().enumerate() {
                match segment.as_str() {
                    "crate" if n == 0 => at.clear(),
                    "self" if n == 0 => at = here.clone(),
                    "self" => {}
                    "super" => {
                        if n == 0 {
                            at = here.clone();
                        }
                        at.pop();
                    }
                    "*" => {}
                    name => at.push(name.to_string()),
                }
            }
            // The deepest module on the path that is a file.
            while !at.is_empty() && !modules.contains(&at) {
                at.pop();
            }
            named.entry(at).or_insert(line);
        }
        line += c[i..end.max(after)]
            .iter()
            .filter(|&&ch| ch == '\n')
            .count();
        i = end.max(after);
    }
    named.remove(&source.module);
    named
}

/// Reads a path from `c[i..]` (`a::b::{c, d::e}`), pushing each full path
/// after `prefix` to `out`; returns where it ends.
fn unfold(c: &[char], mut i: usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let skip_space = |i: &mut usize| {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if c.get(i) == Some(&'{') {
            i += 1;
            loop {
                skip_space(&mut i);
                match c.get(i) {
                    Some('}') => return i + 1,
                    Some(',') => i += 1,
                    None => return i,
                    _ => {
                        let before = i;
                        i = unfold(c, i, prefix.clone(), out);
                        if i == before {
                            i += 1;
                        }
                    }
                }
            }
        }
        let segment: String = if c.get(i) == Some(&'*') {
            "*".to_string()
        } else {
            c[i..].iter().take_while(|&&ch| is_ident(ch)).collect()
        };
        if segment.is_empty() {
            out.push(prefix);
            return i;
        }
        i += segment.chars().count();
        prefix.push(segment);
        skip_space(&mut i);
        if c.get(i) == Some(&':') && c.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            out.push(prefix);
            return i;
        }
    }
}

/// The strongly connected groups of more than one file in the graph of
/// imports (Tarjan's algorithm), each as its imports within the group
/// (`from:line -> to`), sorted.
fn circles(sources: &[Source]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let krates: BTreeSet<&str> = sources.iter().map(|s| s.krate.as_str()).collect();
    for krate in krates {
        let ours: Vec<&Source> = sources.iter().filter(|s| s.krate == krate).collect();
        let modules: BTreeSet<Vec<String>> = ours.iter().map(|s| s.module.clone()).collect();
        let index: BTreeMap<&Vec<String>, usize> = ours
            .iter()
            .enumerate()
            .map(|(n, s)| (&s.module, n))
            .collect();
        let edges: Vec<Vec<(usize, usize)>> = ours
            .iter()
            .map(|s| {
                imports_of(s, &modules)
                    .iter()
                    // A module using its own parts is how a module is
                    // built (`mod.rs` picks a backend, a child uses the
                    // types its parent defines): the parts may name it back.
                    .filter(|(m, _)| !m.starts_with(&s.module))
                    .filter_map(|(m, &line)| Some((*index.get(m)?, line)))
                    .collect()
            })
            .collect();
        let targets: Vec<Vec<usize>> = edges
            .iter()
            .map(|e| e.iter().map(|&(to, _)| to).collect())
            .collect();
        for group in strongly_connected(&targets) {
            if group.len() > 1 {
                let mut imports = Vec::new();
                for &from in &group {
                    for &(to, line) in &edges[from] {
                        if group.contains(&to) {
                            imports
                                .push(format!("{}:{line} -> {}", ours[from].path, ours[to].path));
                        }
                    }
                }
                imports.sort();
                found.push(imports);
            }
        }
    }
    found.sort();
    found
}

fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        groups: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.edges[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                self.groups.push(group);
            }
        }
    }
    let n = edges.len();
    let mut t = Tarjan {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        groups: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.groups
}

#[test]
fn sizes_and_circles() {
    let survey = survey();
    println!("\nlargest files (limit {MAX_FILE_LINES} lines):");
    for (path, lines) in survey.files.iter().take(15) {
        println!("  {lines:>5}  {path}");
    }
    println!("\nlongest functions (limit {MAX_FN_LINES} lines):");
    for f in survey.functions.iter().take(15) {
        println!("  {:>5}  {}:{} {}", f.lines, f.path, f.line, f.name);
    }
    println!("\nimport circles: {}", survey.circles.len());
    for circle in &survey.circles {
        println!("  a circle:");
        for import in circle {
            println!("    {import}");
        }
    }
    assert!(survey.files.len() > 100, "too few sources found");
    assert!(survey.functions.len() > 1000, "too few functions found");
}

#[test]
fn no_file_is_over_the_limit() {
    let over: Vec<String> = survey()
        .files
        .iter()
        .filter(|(_, lines)| *lines > MAX_FILE_LINES)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect();
    assert!(
        over.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by job):\n{}",
        over.join("\n")
    );
}

#[test]
fn no_function_is_over_the_limit() {
    let over: Vec<String> = survey()
        .functions
        .iter()
        .filter(|f| f.lines > MAX_FN_LINES)
        .map(|f| format!("{}:{} {}: {} lines", f.path, f.line, f.name, f.lines))
        .collect();
    assert!(
        over.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        over.join("\n")
    );
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let circles = &survey().circles;
    assert!(
        circles.is_empty(),
        "modules that import one another (move the shared item below them):\n{}",
        circles
            .iter()
            .map(|c| c.join("\n"))
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[test]
fn the_reader_sees_code_only() {
    let code =
        blank_comments_and_literals("let a = \"{ fn x() {\"; // fn y() {\nlet b = '{'; r#\"}\"#;");
    assert!(!code.contains("fn"));
    assert!(!code.contains('{') && !code.contains('}'));
    let source = Source {
        path: "x.rs".into(),
        krate: "src".into(),
        module: vec!["a".into(), "b".into()],
        lines: 0,
        code: blank_comments_and_literals(
            "use super::{c::D, e};\nuse crate::f::{g::{self, H}};\nfn k() { let x = 'a'; }\nmod tests { use super::*; }",
        ),
    };
    let modules: BTreeSet<Vec<String>> = [
        vec![],
        vec!["a"],
        vec!["a", "b"],
        vec!["a", "c"],
        vec!["f", "g"],
        vec!["f"],
    ]
    .into_iter()
    .map(|m| m.into_iter().map(String::from).collect())
    .collect();
    let named: Vec<String> = imports_of(&source, &modules)
        .keys()
        .map(|m| m.join("/"))
        .collect();
    assert_eq!(named, ["a", "a/c", "f/g"]);
    assert_eq!(functions_of(&source)[0].name, "k");
}
