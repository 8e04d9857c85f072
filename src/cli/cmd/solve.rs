//! `solve`: the exact best turn, its counts and its optimal lines.

use super::{kernel_choice, Outcome};
use crate::cli::args::SolveArgs;
use crate::cli::progress::Bar;
use crate::cli::signal::INTERRUPTED;
use crate::cli::words::CliError;
use mancala_sweep::format::{text, SolveJson, SolveStoppedJson};
use mancala_sweep::rules::turn;
use mancala_sweep::search::exact::{self, Checkpoint};
use mancala_sweep::search::{self, default_max_memory, Listing, Progress, SolveOptions};

/// The line that says a spilled search resumes (or is already finished).
fn resuming(dir: &std::path::Path, cp: &Checkpoint) -> String {
    if cp.done {
        return format!(
            "the search in {} is finished ({} positions, {:.0} s); its counts follow",
            dir.display(),
            cp.positions,
            cp.seconds
        );
    }
    format!(
        "resuming the search in {} at store bucket {} ({} positions and {:.0} s so far)",
        dir.display(),
        cp.next_store,
        cp.positions,
        cp.seconds
    )
}

/// Run `solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    let (rules, board) = args.rules.options().resolve()?;
    let threads = args.threads.count();
    let bar = Bar::new(!args.quiet.quiet);
    let report = |p: &Progress| bar.solve(p);
    let opts = SolveOptions {
        threads,
        listing: if args.spill.is_some() {
            Listing::Limit(0)
        } else if args.all {
            Listing::All
        } else if args.brief {
            // The summary needs one line, whatever --limit says.
            Listing::Limit(args.limit.max(1) as usize)
        } else {
            Listing::Limit(args.limit as usize)
        },
        max_memory: args.max_memory.unwrap_or_else(default_max_memory),
        progress: Some(&report),
        cancel: Some(&INTERRUPTED),
        seconds: None,
        kernel: kernel_choice()?,
        spill: args.spill.as_deref(),
        max_disk: args.max_disk.unwrap_or(u64::MAX),
        spill_buffer: None,
    };
    if let Some(cp) = args.spill.as_deref().and_then(exact::spill_checkpoint) {
        if !args.quiet.quiet {
            eprintln!("{}", resuming(args.spill.as_deref().expect("given"), &cp));
        }
    }
    let solution = search::solve(&board, rules, &opts);
    bar.finish();
    let solution = match solution {
        Ok(s) => s,
        Err(e) => {
            // With --json a run that stopped still answers in JSON, marked
            // incomplete, as well as on stderr.
            let err: CliError = match (&e, &args.spill) {
                (search::SearchError::Stopped { .. }, Some(dir)) if e.is_cancelled() => {
                    CliError::Stopped(format!(
                        "{}; what was finished is kept in {}: run the same command to resume",
                        e.to_string().trim_start_matches("interrupted: "),
                        dir.display()
                    ))
                }
                _ => e.clone().into(),
            };
            if let Some(doc) = SolveStoppedJson::new(rules, &board, &e).filter(|_| args.json.json) {
                return Err(CliError::Partial {
                    stdout: serde_json::to_string(&doc).expect("serializable") + "\n",
                    error: Box::new(err),
                });
            }
            return Err(err);
        }
    };
    if args.json.json {
        let doc = SolveJson::new(&solution, threads);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    if args.brief {
        return Ok(text::summary(&solution));
    }
    let first = match solution.optimal.first() {
        Some(line) => Some(turn::replay(board, rules, &line.numbers())?),
        None => None,
    };
    let mut out = text::solve_text_in(&solution, threads, first.as_deref(), args.color.on());
    if args.spill.is_some() {
        out.push_str(" (--spill counts only).\n");
    } else if solution.optimal.is_empty() {
        out.push_str(" (--limit 0).\n");
    }
    Ok(out)
}
