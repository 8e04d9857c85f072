//! `solve`: the exact best turn, its counts and its optimal lines.

use super::{kernel_choice, Outcome};
use crate::cli::args::SolveArgs;
use crate::cli::progress::Bar;
use crate::cli::signal::INTERRUPTED;
use crate::cli::words::CliError;
use mancala_sweep::format::{text, SolveJson, SolveStoppedJson};
use mancala_sweep::rules::turn;
use mancala_sweep::search::{self, default_max_memory, Listing, Progress, SolveOptions};

/// Run `solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    let (rules, board) = args.rules.options().resolve()?;
    let threads = args.threads.count();
    let bar = Bar::new(!args.quiet.quiet);
    let report = |p: &Progress| bar.solve(p);
    let opts = SolveOptions {
        threads,
        listing: if args.all {
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
    };
    let solution = search::solve(&board, rules, &opts);
    bar.finish();
    let solution = match solution {
        Ok(s) => s,
        Err(e) => {
            // With --json a run that stopped still answers in JSON, marked
            // incomplete, as well as on stderr.
            if let Some(doc) = SolveStoppedJson::new(rules, &board, &e).filter(|_| args.json.json) {
                return Err(CliError::Partial {
                    stdout: serde_json::to_string(&doc).expect("serializable") + "\n",
                    error: Box::new(e.into()),
                });
            }
            return Err(e.into());
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
    if solution.optimal.is_empty() {
        out.push_str(" (--limit 0).\n");
    }
    Ok(out)
}
