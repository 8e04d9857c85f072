//! The examples of the README, docs/commands.md and docs/games.md, run,
//! the README's budget of lines, and the docs' relative links.
//!
//! Every line of a fenced block that starts with `$ ` is a command; the
//! lines under it, up to the next command or the end of the block, are
//! what it prints (stdout and stderr together, as a terminal shows them).
//! Each command runs in `sh`, in a fresh folder that is also its `HOME`,
//! with the built binary first on `PATH` (so `mancala-sweep` is this
//! build), an empty cache folder of its own (`MANCALA_SWEEP_CACHE`) and
//! `NO_COLOR`; `cargo run --release -q --` in a command stands for the
//! binary too. Run-dependent figures are marked in the Markdown itself:
//! `[..]` in a line stands for any text within that line (a time, a
//! thread count, a path), and a line that is only `...` for any number of
//! lines.
//!
//! A block that is not run is a deliberate exception, listed in
//! [`NOT_RUN`] with the reason; an exception that no longer names a block
//! fails, so the list stays true. To check another Markdown file, add a
//! test that calls [`check_file`].

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The blocks not run: the file, the start of the block's first command
/// (after `$ `), and why.
const NOT_RUN: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "mancala-sweep game analyze --rules avalanche --board",
        "it builds a 29 MiB endgame database first (4 to 20 s on two cores), and its first two lines are there only when the cache folder has none",
    ),
    (
        "README.md",
        "mancala-sweep serve",
        "a server, which runs until stopped (tests/web_api.rs runs it)",
    ),
    (
        "README.md",
        "rustup target add wasm32-unknown-unknown",
        "it installs a toolchain target and builds the static site (tests/web_browser.rs builds it)",
    ),
];

/// The longest an example may run before it counts as failed. The
/// examples run take a few seconds at most (the slowest, `find`'s, 1 to 4 s
/// on two cores); the margin is for a machine busy with other tests.
const TIMEOUT: Duration = Duration::from_secs(120);

/// One `$ command` and the lines it is to print.
struct Example {
    /// The line of the command in its file (from 1).
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// A fenced block's examples.
struct Block {
    examples: Vec<Example>,
}

/// The fenced blocks of `text` that hold at least one `$ ` line.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(examples) if !examples.is_empty() => out.push(Block { examples }),
                Some(_) => {}
                None => current = Some(Vec::new()),
            }
            continue;
        }
        let Some(examples) = current.as_mut() else {
            continue;
        };
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                line: i + 1,
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(last) = examples.last_mut() {
            last.expected.push(line.trim_end().to_string());
        }
    }
    out
}

/// True when `line` matches `pattern`, in which `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// True when `lines` match `patterns`, in which a line `...` stands for any
/// number of lines.
fn lines_match(patterns: &[String], lines: &[&str]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((p, rest)) => {
            !lines.is_empty() && line_matches(p, lines[0]) && lines_match(rest, &lines[1..])
        }
    }
}

/// The folder of the built binary, for `PATH`.
fn bin_dir() -> PathBuf {
    let bin = assert_cmd::cargo::cargo_bin("mancala-sweep");
    bin.parent()
        .expect("the binary is in a folder")
        .to_path_buf()
}

/// Run `command` in `sh` in `dir`; returns what it printed, stdout and
/// stderr together, or why it did not finish.
fn run(command: &str, dir: &Path) -> Result<String, String> {
    let command = command.replace("cargo run --release -q -- ", "mancala-sweep ");
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out_file = dir.join(".example-output");
    let out = std::fs::File::create(&out_file).map_err(|e| e.to_string())?;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("MANCALA_SWEEP_CACHE", dir.join(".cache-of-the-example"))
        .env("NO_COLOR", "1")
        .env_remove("MANCALA_SWEEP_PROGRESS")
        .env_remove("MANCALA_SWEEP_KERNEL")
        .stdin(Stdio::null())
        .stdout(out)
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::read_to_string(&out_file).map_err(|e| e.to_string())
}

/// Run every example of `file` (a path from the repository's root) that
/// [`NOT_RUN`] does not list, and fail with every mismatch.
fn check_file(file: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(file)).expect("the file is there");
    let exceptions: Vec<_> = NOT_RUN.iter().filter(|(f, _, _)| *f == file).collect();
    let mut used = vec![false; exceptions.len()];
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in blocks(&text) {
        let first = &block.examples[0].command;
        if let Some(i) = exceptions.iter().position(|(_, s, _)| first.starts_with(s)) {
            used[i] = true;
            continue;
        }
        // One folder a block: a block's commands may read what the ones
        // before wrote.
        let dir = std::env::temp_dir().join(format!(
            "ms-example-{}-{}",
            std::process::id(),
            block.examples[0].line
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // An example with run-dependent figures, alone in its block, is
        // run once more when it does not match: on a loaded machine a time
        // budget (`find`'s 10 s) can run out before its usual answer.
        let tries = if block.examples.len() == 1 { 2 } else { 1 };
        for ex in &block.examples {
            ran += 1;
            let retry = tries > 1 && ex.expected.iter().any(|l| l.contains("[..]"));
            let mut outcome = check(file, ex, &dir);
            if outcome.is_err() && retry {
                outcome = check(file, ex, &dir);
            }
            if let Err(failure) = outcome {
                failures.push(failure);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    for (i, (_, start, _)) in exceptions.iter().enumerate() {
        assert!(
            used[i],
            "{file}: NOT_RUN names `{start}`, which starts no example block"
        );
    }
    assert!(ran > 0, "{file}: no example ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} examples of {file} print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Run one example in `dir` and compare what it printed with the file.
fn check(file: &str, ex: &Example, dir: &Path) -> Result<(), String> {
    let start = Instant::now();
    let printed = run(&ex.command, dir);
    eprintln!(
        "{file}:{}: {:.1} s: $ {}",
        ex.line,
        start.elapsed().as_secs_f64(),
        ex.command
    );
    let printed = printed.map_err(|why| format!("{file}:{}: $ {}: {why}", ex.line, ex.command))?;
    let mut lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
    let mut expected = ex.expected.clone();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    while expected.last().is_some_and(String::is_empty) {
        expected.pop();
    }
    if lines_match(&expected, &lines) {
        return Ok(());
    }
    Err(format!(
        "{file}:{}: $ {}\n--- the file shows:\n{}\n--- it printed:\n{}",
        ex.line,
        ex.command,
        expected.join("\n"),
        lines.join("\n")
    ))
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    check_file("README.md");
}

#[test]
fn the_command_reference_examples_print_what_it_shows() {
    check_file("docs/commands.md");
}

#[test]
fn the_games_guide_examples_print_what_it_shows() {
    check_file("docs/games.md");
}

/// The README is the front door: its reference material lives in docs/,
/// and a budget keeps it there.
const README_MAX_LINES: usize = 400;

#[test]
fn the_readme_stays_within_its_budget() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("README.md")).expect("the README is there");
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, over its budget of {README_MAX_LINES}: move reference material to docs/ and link to it"
    );
}

/// The harness's own matching, on made-up text.
#[test]
fn example_wildcards_match_what_they_stand_for() {
    assert!(line_matches(
        "Time: [..] s on [..] threads",
        "Time: 0.2 s on 2 threads"
    ));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("Time: [..] s", "Time: 0.2 ms"));
    assert!(!line_matches("a[..]a", "a"));
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&p(&["a", "...", "d"]), &["a", "d"]));
    assert!(!lines_match(&p(&["a", "d"]), &["a", "b", "d"]));
    let b = blocks("x\n```text\n$ one\n1\n$ two\n```\n```sh\nplain\n```\n");
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].examples.len(), 2);
    assert_eq!(b[0].examples[0].expected, vec!["1".to_string()]);
    assert_eq!(b[0].examples[1].line, 5);
}

/// The Markdown files of the repository a reader follows links through:
/// the README, the CHANGELOG, books/README.md and every page under docs/.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("docs/ is there") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out: Vec<PathBuf> = ["README.md", "CHANGELOG.md", "books/README.md"]
        .iter()
        .map(|f| root.join(f))
        .collect();
    walk(&root.join("docs"), &mut out);
    out
}

/// The text of `text` outside its fenced blocks, where links are links.
fn outside_fences(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The anchors GitHub makes of a page's headings: lower case, punctuation
/// but `-` and `_` dropped, spaces as `-`, a repeated one numbered.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in outside_fences(text).lines() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        // A link in a heading counts by its text.
        let mut plain = String::new();
        let mut rest = heading;
        while let Some(at) = rest.find("](") {
            plain.push_str(&rest[..at]);
            rest = rest[at..].split_once(')').map_or("", |(_, r)| r);
        }
        plain.push_str(rest);
        let slug: String = plain
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// Every relative link of the README, the CHANGELOG and docs/ names a
/// file that is there, and an anchor in a Markdown file names a heading.
#[test]
fn every_relative_link_of_the_docs_points_to_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).expect("a Markdown file");
        let body = outside_fences(&text);
        for (at, _) in body.match_indices("](") {
            let link = &body[at + 2..];
            let Some(end) = link.find([')', ' ']) else {
                continue;
            };
            let link = &link[..end];
            if link.contains(':') {
                continue; // https:, mailto: and the like
            }
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("in a folder").join(path)
            };
            let name = file.strip_prefix(root).unwrap_or(&file).display();
            if !target.exists() {
                broken.push(format!("{name}: {link}: no such file"));
            } else if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let page = std::fs::read_to_string(&target).expect("a Markdown file");
                if !anchors(&page).iter().any(|a| a == anchor) {
                    broken.push(format!("{name}: {link}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
