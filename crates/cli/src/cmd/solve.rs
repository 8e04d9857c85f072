//! `solve`: the exact best turn, its counts and its optimal lines.

use super::{kernel_choice, Outcome};
use crate::args::SolveArgs;
use crate::errors::CliError;
use crate::progress::Bar;
use crate::signal::INTERRUPTED;
use mancala_sweep::format::{text, SolveJson, SolveStoppedJson};
use mancala_sweep::rules::turn;
use mancala_sweep::sweep::exact::{self, Checkpoint};
use mancala_sweep::sweep::{self, default_max_memory, Listing, Progress, SweepOptions};
use std::path::PathBuf;

/// Where a search goes on disk when the memory guard would stop it and no
/// `--spill` was given: a directory in the system's temporary directory,
/// named after the rules and board, so that the same command finds it.
fn auto_spill_dir(rules: mancala_sweep::Rules, board: &mancala_sweep::Board) -> PathBuf {
    // FNV-1a: a stable name, not a secure one.
    let text = format!("{rules} {}", board.one_line());
    let hash = text.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    });
    std::env::temp_dir().join(format!("mancala-sweep-spill-{hash:016x}"))
}

/// What a stopped search without `--spill` says of the next run.
const RESUMABLE: &str = "nothing is kept: with --spill DIR the search keeps its work on disk (counts only), and the same command resumes it after a stop";

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
        "resuming the search in {} at step {} of its store ({} positions and {:.0} s so far)",
        dir.display(),
        cp.next_store,
        cp.positions,
        cp.seconds
    )
}

/// Where a stopped spilled search left its work, how much it holds, the
/// exact command that resumes it and how to delete it instead: nothing is
/// left on disk without a line that says so.
fn kept_in(dir: &std::path::Path) -> String {
    format!(
        "what was finished is kept in {} ({}): run `{}` to resume, or `rm -r {}` to delete it",
        dir.display(),
        sweep::memory::format_bytes(dir_bytes(dir)),
        crate::errors::this_command(),
        crate::errors::shell_quote(&dir.display().to_string())
    )
}

/// The bytes of the files in `dir` (one level: the spill store keeps no
/// subdirectories).
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The line that says what `solve` answers and what it does not: the most
/// stones this turn, which can be a turn that loses the game; and the
/// command that ranks turns for the game on the same position.
fn game_note(rules: mancala_sweep::Rules, board: &mancala_sweep::Board) -> String {
    use mancala_sweep::rules::Preset;
    let rule_flags = match Preset::ALL.into_iter().find(|p| p.rules() == rules) {
        Some(p) => format!("--rules {p}"),
        None => format!(
            "--scope {} --relay {} --capture {}",
            rules.scope,
            if rules.relay { "on" } else { "off" },
            rules.capture
        ),
    };
    format!(
        "This is the most stones this turn, not always the best turn for the game; for that: mancala-sweep game analyze {rule_flags} --board \"{}\"",
        board.one_line()
    )
}

/// The rules and board of `solve`, once its flags are checked: a `--spill`
/// that names a file, not a directory, is bad input, said before any search.
fn checked(args: &SolveArgs) -> Result<(mancala_sweep::Rules, mancala_sweep::Board), CliError> {
    if let Some(path) = args.spill.as_deref().filter(|p| p.exists() && !p.is_dir()) {
        return Err(CliError::Input(format!(
            "--spill {}: a file, not a directory: give a directory (made if missing) for the search's files",
            path.display()
        )));
    }
    let resolved = args.rules.options().resolve()?;
    if let Some(dir) = args.spill.as_deref() {
        // Tried now, not at the first run file.
        crate::place::folder("--spill", dir, 0)?;
    }
    Ok(resolved)
}

/// Run `solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    let (rules, board) = checked(args)?;
    let threads = args.threads.count();
    if args.cluster.cluster {
        return cluster(args, rules, &board, threads);
    }
    let bar = Bar::new(!args.quiet.quiet);
    let report = |p: &Progress| bar.solve(p);
    let max_memory = args.max_memory.unwrap_or_else(default_max_memory);
    // A search that went on disk by itself before resumes there at once.
    let auto = auto_spill_dir(rules, &board);
    let resumable = exact::spill_checkpoint(&auto).is_some();
    let mut spill = args.spill.clone().or(resumable.then(|| auto.clone()));
    let resident = sweep::memory::resident_bytes().unwrap_or(0);
    let solution = loop {
        let opts = SweepOptions {
            threads,
            listing: if spill.is_some() {
                Listing::Limit(0)
            } else if args.all {
                Listing::All
            } else if args.brief {
                // The summary needs one line, whatever --limit says.
                Listing::Limit(args.limit.max(1) as usize)
            } else {
                Listing::Limit(args.limit as usize)
            },
            max_memory,
            // The whole process counts: it is this command's own run.
            memory_held: None,
            progress: Some(&report),
            cancel: Some(&INTERRUPTED),
            seconds: None,
            kernel: kernel_choice()?,
            spill: spill.as_deref(),
            max_disk: args.max_disk.unwrap_or(u64::MAX),
            spill_buffer: None,
        };
        if let Some(cp) = spill.as_deref().and_then(exact::spill_checkpoint) {
            if !args.quiet.quiet {
                eprintln!("{}", resuming(spill.as_deref().expect("given"), &cp));
            }
        }
        let solution = sweep::solve(&board, rules, &opts);
        match &solution {
            // The automatic switch: a count that the memory guard stopped
            // goes on with its frontier on disk, when the process leaves
            // the spill buffer room (half the limit).
            Err(sweep::SearchError::MemoryLimit { reached, .. })
                if spill.is_none() && !reached.backward && resident < max_memory / 2 =>
            {
                bar.println(&format!(
                    "{e}: going on with the frontier on disk in {} (counts only; --spill DIR chooses the directory; the same command resumes)",
                    auto.display(),
                    e = solution.as_ref().expect_err("matched"),
                ));
                spill = Some(auto.clone());
            }
            _ => break solution,
        }
    };
    bar.finish();
    if solution.is_ok() && args.spill.is_none() && spill.is_some() {
        // The directory was ours, not the user's: the answer is printed now.
        let _ = std::fs::remove_dir_all(&auto);
    }
    let solution = match solution {
        Ok(s) => s,
        Err(e) => {
            // With --json a run that stopped still answers in JSON, marked
            // incomplete, as well as on stderr.
            let err = stopped_error(&e, spill.as_deref());
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
        return Ok(text::summary(&solution) + &game_note(rules, &board) + "\n");
    }
    answer_text(args, rules, &board, &solution, threads, spill.is_some())
}

/// `solve`'s answer as text for `solution` of `board` under `rules`:
/// the best turn played out with the note on the game right under it,
/// and why the list of turns is short when it is (`spilled`: the search
/// went on disk, which counts only). A step of its own: the search and
/// its stops before it are the same for every form of the answer.
fn answer_text(
    args: &SolveArgs,
    rules: mancala_sweep::Rules,
    board: &mancala_sweep::Board,
    solution: &sweep::Solution,
    threads: usize,
    spilled: bool,
) -> Outcome {
    let first = match solution.optimal.first() {
        Some(line) => Some(turn::replay(*board, rules, &line.numbers())?),
        None => None,
    };
    let mut out = text::solve_text_in(solution, threads, first.as_deref(), args.color.on());
    // Right under the best turn: what it is not.
    if let Some(at) = out
        .find("Best turn:")
        .and_then(|b| out[b..].find("\n\n").map(|e| b + e + 1))
    {
        out.insert_str(at, &(game_note(rules, board) + "\n"));
    }
    if spilled && args.spill.is_none() {
        out.push_str(
            ": the search went on disk, which counts only; a higher --max-memory lists them.\n",
        );
    } else if spilled {
        out.push_str(" (--spill counts only).\n");
    } else if solution.optimal.is_empty() {
        out.push_str(" (--limit 0).\n");
    }
    Ok(out)
}

/// The error of a search that did not finish: after Ctrl-C, where its
/// work is kept (only when `spill` holds a checkpoint) or how the next
/// run would keep it.
fn stopped_error(e: &sweep::SearchError, spill: Option<&std::path::Path>) -> CliError {
    match (e, spill) {
        (sweep::SearchError::Stopped { .. }, Some(dir))
            if e.is_cancelled() && exact::spill_checkpoint(dir).is_some() =>
        {
            CliError::Stopped(format!(
                "{}; {}",
                e.to_string().trim_start_matches("interrupted: "),
                kept_in(dir)
            ))
        }
        (sweep::SearchError::Stopped { .. }, None) if e.is_cancelled() => {
            CliError::Stopped(format!(
                "{}; {RESUMABLE}",
                e.to_string().trim_start_matches("interrupted: ")
            ))
        }
        (sweep::SearchError::MemoryLimit { .. }, Some(dir)) => memory_error(e, &[dir], ""),
        _ => e.clone().into(),
    }
}

/// The memory guard's error of a search on disk in `dirs` (a cluster
/// process's workers each have one): the same command with a higher
/// `--max-memory` resumes where every one holds a checkpoint; otherwise
/// nothing was kept.
fn memory_error(e: &sweep::SearchError, dirs: &[&std::path::Path], every: &str) -> CliError {
    let kept = !dirs.is_empty() && dirs.iter().all(|d| exact::spill_checkpoint(d).is_some());
    let place = dirs
        .first()
        .and_then(|d| d.parent().filter(|_| dirs.len() > 1));
    let shown = place.unwrap_or_else(|| dirs.first().map_or(std::path::Path::new("."), |d| d));
    CliError::Failed(if kept {
        format!(
            "{e} (--max-memory); what was finished is kept in {}: run the same command{every} with a higher --max-memory to resume",
            shown.display()
        )
    } else {
        format!(
            "{e} (--max-memory), before anything was kept in {}: give a higher --max-memory",
            shown.display()
        )
    })
}

/// `solve --cluster`: this process's part of a cluster count; process 0
/// prints the answer, every process its traffic on stderr. A build
/// without the backend says so before reading the cluster's flags.
fn cluster(
    args: &SolveArgs,
    rules: mancala_sweep::Rules,
    board: &mancala_sweep::Board,
    threads: usize,
) -> Outcome {
    if !exact::CLUSTER {
        let no = mancala_sweep::sweep::SearchError::NoCluster;
        return Err(CliError::Input(format!("--cluster: {no}")));
    }
    use mancala_sweep::sweep::exact::cluster::Cluster;
    let c = &args.cluster;
    let hostfile = match &c.hostfile {
        Some(path) => Some((
            path.display().to_string(),
            std::fs::read_to_string(path).map_err(|e| {
                CliError::Input(format!(
                    "--hostfile {}: cannot read it ({e})",
                    path.display()
                ))
            })?,
        )),
        None => None,
    };
    let cluster = Cluster::new(
        c.processes as usize,
        c.process as usize,
        c.workers as usize,
        hostfile.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
    )
    .map_err(|e| CliError::Input(crate::errors::cluster(&e)))?;
    let bar = Bar::new(!args.quiet.quiet);
    let report = |p: &Progress| bar.solve(p);
    let opts = SweepOptions {
        threads,
        listing: Listing::Limit(0),
        max_memory: args.max_memory.unwrap_or_else(default_max_memory),
        progress: Some(&report),
        cancel: Some(&INTERRUPTED),
        kernel: kernel_choice()?,
        spill: args.spill.as_deref(),
        max_disk: args.max_disk.unwrap_or(u64::MAX),
        ..SweepOptions::default()
    };
    let result = exact::solve_cluster(board, rules, &opts, &cluster);
    bar.finish();
    let (solution, traffic) = match (result, &args.spill) {
        (Err(e), Some(dir)) if e.is_cancelled() => {
            return Err(CliError::Stopped(format!(
            "{}; what was finished is kept in {}: run the same commands on every process to resume",
            e.to_string().trim_start_matches("interrupted: "),
            dir.display()
        )))
        }
        (Err(e @ sweep::SearchError::MemoryLimit { .. }), Some(dir)) => {
            let mine: Vec<std::path::PathBuf> = (0..cluster.workers)
                .map(|w| {
                    let index = cluster.process * cluster.workers + w;
                    let all = cluster.processes() * cluster.workers;
                    dir.join(format!("worker-{index}-of-{all}"))
                })
                .collect();
            let dirs: Vec<&std::path::Path> = mine.iter().map(|d| d.as_path()).collect();
            return Err(memory_error(&e, &dirs, "s on every process"));
        }
        (result, _) => result?,
    };
    if !args.quiet.quiet {
        eprintln!(
            "process {} of {}, {} worker{} each: {} of the {} positions expanded here; {} bytes of successors sent between processes ({:.2} a position), {} in all",
            cluster.process,
            cluster.processes(),
            cluster.workers,
            if cluster.workers == 1 { "" } else { "s" },
            traffic.positions_here,
            solution.positions,
            traffic.between_processes,
            traffic.between_processes as f64 / solution.positions.max(1) as f64,
            traffic.sent,
        );
    }
    if cluster.process != 0 {
        return Ok(String::new());
    }
    if args.json.json {
        let doc = SolveJson::new(&solution, threads);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    let mut out = text::solve_text_in(&solution, threads, None, args.color.on());
    out.push_str(" (--cluster counts only).\n");
    Ok(out)
}
