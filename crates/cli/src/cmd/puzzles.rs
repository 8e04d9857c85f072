//! `puzzles generate | check | show | play`.

use super::Outcome;
use crate::args::{CheckArgs, GenerateArgs, ListArgs, PlayArgs, ShowArgs};
use crate::errors::CliError;
use crate::progress::Counter;
use crate::signal::INTERRUPTED;
use mancala_sweep::format::text;
use mancala_sweep::puzzle::report::{CheckJson, ListJson, ShowJson};
use mancala_sweep::puzzle::{self, Collection, Source};
use mancala_sweep::rules::turn;
use std::path::Path;

mod play;

/// Run `puzzles generate`.
pub fn generate(args: &GenerateArgs) -> Outcome {
    let rules = args.rules.options().rules();
    let bar = Counter::new(
        args.count as u64,
        "puzzles",
        "puzzles [{bar:30}] {pos}/{len} {msg} {elapsed}",
        args.quiet.quiet,
    );
    let progress = |found: usize, _: usize, source: Source| {
        bar.set(found as u64, format!("| source {}", source.name()));
    };
    let command: Vec<String> = std::env::args().skip(1).collect();
    let command = format!("mancala-sweep {}", command.join(" "));
    let cache = puzzle::cache_from(&args.out, rules, &command, args.force)?;
    let opts = puzzle::GenerateOptions {
        rules,
        sources: args.source.iter().map(|&s| s.into()).collect(),
        count: args.count as usize,
        seed: args.seed,
        seconds: args.seconds,
        stop: &INTERRUPTED,
        progress: Some(&progress),
        cache: &cache,
    };
    let made = puzzle::generate(&opts);
    bar.finish();
    let made = made?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| mancala_sweep::atlas::slug(rules));
    let c = puzzle::collection(&name, rules, &command, made);
    c.save(&args.out)?;
    if !c.complete {
        return Err(CliError::Stopped(format!(
            "the {} puzzles found so far are saved in {} (marked \"complete\": false); run the same command again to resume",
            c.puzzles.len(),
            args.out.display()
        )));
    }
    Ok(format!(
        "{} puzzles ({} unique) written to {}; grades 1-5: {:?}\n",
        c.puzzles.len(),
        c.unique(),
        args.out.display(),
        c.grade_counts()
    ))
}

/// The collection `arg` names: the file at that path when there is one,
/// else the committed collection of that name (embedded in the binary, so
/// that `puzzles list avalanche` works without a clone).
fn open(arg: &Path) -> Result<Collection, CliError> {
    if arg.exists() {
        return Ok(puzzle::load(arg)?);
    }
    let name = arg.to_string_lossy();
    match puzzle::committed_named(&name) {
        Some(c) => c.map_err(|e| CliError::Input(format!("{name}: {e}"))),
        None => Err(CliError::Input(format!(
            "{name:?} is neither a file nor a collection name: give a puzzle collection file or one of {}",
            puzzle::committed_names().join(", ")
        ))),
    }
}

/// Run `puzzles check`.
pub fn check(args: &CheckArgs) -> Outcome {
    let c = open(&args.file)?;
    let slow: Vec<&str> = c
        .puzzles
        .iter()
        .filter(|p| puzzle::slow(p, c.rules))
        .map(|p| p.id.as_str())
        .collect();
    if !slow.is_empty() && !args.json.json {
        eprintln!(
            "note: {} of these puzzles take seconds to a minute each to check ({}); Ctrl-C stops the check and names the puzzle it was on",
            slow.len(),
            slow.join(", ")
        );
    }
    let bar = Counter::new(
        c.puzzles.len() as u64,
        "puzzles",
        "check [{bar:30}] {pos}/{len} {msg} {elapsed}",
        false,
    );
    let progress = |i: usize, _: usize, id: &str| bar.set(i as u64 + 1, format!("| checking {id}"));
    let problems = puzzle::check(&c, args.seconds, &INTERRUPTED, &progress);
    bar.finish();
    let problems = problems?;
    if args.json.json {
        let doc = CheckJson::new(&c, problems);
        let text = serde_json::to_string(&doc).expect("serializable") + "\n";
        return if doc.ok {
            Ok(text)
        } else {
            Err(CliError::Partial {
                stdout: text,
                error: Box::new(CliError::Mismatch(doc.mismatches)),
            })
        };
    }
    if problems.is_empty() {
        Ok(format!(
            "{}: all {} puzzles check out (goal, solution, count, uniqueness, grade, id)\n",
            args.file.display(),
            c.puzzles.len()
        ))
    } else {
        Err(CliError::Mismatch(problems))
    }
}

/// Run `puzzles show`.
pub fn show(args: &ShowArgs) -> Outcome {
    let c = open(&args.file)?;
    let p = puzzle::find(&c, Some(&args.id), &args.file)?;
    let board = puzzle::position(p)?;
    if args.json.json {
        let doc = ShowJson::new(&c, p, args.solution);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    let mut out = puzzle::text::puzzle_text(&c, p, &board);
    if args.solution {
        let states = turn::replay(board, c.rules, &p.solution.numbers())?;
        out.push_str(&format!("\nSolution: {}\n\n", p.solution));
        out.push_str(&text::steps_text(&states));
    }
    Ok(out)
}

/// Run `puzzles play`.
pub fn play(args: &PlayArgs) -> Outcome {
    let c = open(&args.file)?;
    let first = puzzle::find(&c, args.id.as_deref(), &args.file)?;
    let at = c.puzzles.iter().position(|p| p.id == first.id).unwrap_or(0);
    // The chosen puzzle first, then the rest of the file in order.
    let list: Vec<&puzzle::Puzzle> = std::iter::once(first)
        .chain(c.puzzles[at + 1..].iter())
        .chain(c.puzzles[..at].iter())
        .filter(|p| args.grade.is_none_or(|g| p.difficulty == g))
        .collect();
    if let (true, Some(grade)) = (list.is_empty(), args.grade) {
        return Err(puzzle::PuzzleError::NoGrade {
            path: args.file.clone(),
            grade,
        }
        .into());
    }
    // Nothing to save in a game of the terminal: Ctrl-C ends it at once.
    crate::signal::exit_on_first_ctrl_c();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    play::play(&c, &list, &mut input, &mut output)?;
    Ok(String::new())
}

/// Run `puzzles list`.
pub fn list(args: &ListArgs) -> Outcome {
    let c = open(&args.file)?;
    let doc = ListJson::new(&c);
    Ok(if args.json.json {
        serde_json::to_string(&doc).expect("serializable") + "\n"
    } else {
        doc.text()
    })
}
