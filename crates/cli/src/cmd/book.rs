//! `game book build` and `game book show`: opening books
//! ([`mancala_sweep::game::book`]).

use super::Outcome;
use crate::args::{BookBuildArgs, BookShowArgs};
use crate::errors::CliError;
use crate::progress::Spinner;
use crate::signal::{interrupted, INTERRUPTED};
use mancala_sweep::format::file::write_atomic;
use mancala_sweep::format::game::picks_text;
use mancala_sweep::format::words;
use mancala_sweep::game::book::{self, Book, BookFile};
use mancala_sweep::game::{GameState, SolveOptions, Solver};
use mancala_sweep::rules::{Preset, Rules};
use mancala_sweep::sweep::{default_max_memory, format_bytes};
use std::path::Path;
use std::time::{Duration, Instant};

/// The book build's table unless `--table` says otherwise: one table for
/// every position, large enough to keep what neighbouring positions share.
const BOOK_TABLE: u64 = 1 << 30;

/// How often a build writes what it has solved (and so the most a kill
/// loses).
const SAVE_EVERY: Duration = Duration::from_secs(10);

/// Run `game book build`.
pub fn build(args: &BookBuildArgs) -> Outcome {
    let (rules, n, mut file) = book_file(args)?;
    file.built.command = std::iter::once("mancala-sweep".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    file.built.machine = mancala_sweep::sweep::kernel::machine();
    let quiet = args.quiet.quiet;
    let start = file.start();
    let total = file.values.len();
    if file.complete() {
        return Ok(summary(&file, &args.out));
    }
    let opts = SolveOptions {
        table_bytes: args.table.unwrap_or(BOOK_TABLE),
        memory_cap: args.solver.max_memory.unwrap_or_else(default_max_memory),
        threads: args.solver.threads.count() as u32,
        ..SolveOptions::default()
    }
    .fit_to(rules, n, start.stones_in_pits());
    let db = match &args.solver.endgame {
        Some(path) => Some(
            mancala_sweep::game::EndgameDb::load(path, rules, n, opts.memory_cap)
                .map_err(|e| CliError::Input(format!("--endgame {e}")))?,
        ),
        None if !args.no_cache => {
            let room = opts.memory_cap.saturating_sub(opts.table_bytes);
            super::cache::cached_endgame(
                &start,
                room,
                opts.threads as usize,
                true,
                super::cache::Reading::Whole,
                quiet,
            )?
            .map(|(db, _)| db)
        }
        None => None,
    };
    let solver = Solver::builder()
        .options(opts.clone())
        .endgame(db.as_ref())
        .cancel(&INTERRUPTED)
        .build(rules, n)?;
    let Some(mut solver) = solver else {
        return Err(stopped(&file, &args.out));
    };
    if !quiet {
        eprintln!(
            "book of {}: {} of {total} positions solved so far; solving the rest (table {}, {} threads), saved to {} every {} s; Ctrl-C stops, the same command goes on",
            whole_turns(file.turns),
            file.solved(),
            format_bytes(opts.table_bytes),
            opts.threads,
            args.out.display(),
            SAVE_EVERY.as_secs()
        );
    }
    let spinner = Spinner::new(quiet);
    let (t0, done_before) = (Instant::now(), file.solved());
    let mut saved = Instant::now();
    let out = args.out.clone();
    let result = file.build(&mut solver, &INTERRUPTED, |f, i, took, picks| {
        let done = f.solved();
        let now = done - done_before;
        let per = t0.elapsed().as_secs_f64() / now as f64;
        spinner.set(format!(
            "book: {done} of {total} positions solved | position {} in {:.1} s, {} picks | {:.0} s so far, about {} left",
            i + 1,
            took.as_secs_f64(),
            mancala_sweep::format::game::picks_count(picks),
            t0.elapsed().as_secs_f64(),
            duration_text(per * (total - done) as f64)
        ));
        if saved.elapsed() >= SAVE_EVERY || done == total {
            save(f, &out)?;
            saved = Instant::now();
        }
        Ok::<(), CliError>(())
    });
    spinner.finish();
    result?;
    save(&file, &args.out)?;
    if !file.complete() {
        return Err(stopped(&file, &args.out));
    }
    Ok(summary(&file, &args.out))
}

/// The book the flags ask for, with its rules and pits a side: the one
/// `--out` holds when it is this very book (the build goes on from it),
/// else an empty one; an error for a `--board`, or for another book in
/// `--out`. A step of its own: every check of the flags comes before any
/// solving.
fn book_file(args: &BookBuildArgs) -> Result<(Rules, usize, BookFile), CliError> {
    if let Some(b) = &args.rules.board {
        return Err(CliError::Input(format!(
            "--board {b:?}: a book opens a game from its start; give --pits and --stones"
        )));
    }
    let mut o = args.rules.options();
    if o.preset.is_none() {
        o.preset = Some(Preset::from(crate::args::GAME_RULES));
    }
    let (rules, board) = o.resolve()?;
    let (n, stones) = (
        board.pits_per_side(),
        board.stones_in_play() / (2 * board.pits_per_side() as u32),
    );
    let mut file =
        BookFile::new(rules, n, stones, args.turns).map_err(|e| CliError::Input(e.to_string()))?;
    if args.out.exists() {
        let kept = read_file(&args.out)?;
        if (kept.rules, kept.pits, kept.stones, kept.turns)
            != (file.rules, file.pits, file.stones, file.turns)
        {
            return Err(CliError::Input(format!(
                "--out {}: that book is for rules {}, {} pits of {} stones, {} turns; remove it or name another file",
                args.out.display(),
                kept.rules,
                kept.pits,
                kept.stones,
                kept.turns
            )));
        }
        file = kept;
    }
    Ok((rules, n, file))
}

/// The error of a build stopped by a signal, with what it kept.
fn stopped(file: &BookFile, out: &Path) -> CliError {
    debug_assert!(interrupted() || !file.complete());
    CliError::Stopped(format!(
        "{} of {} positions are solved and kept in {}; the same command goes on from them",
        file.solved(),
        file.values.len(),
        out.display()
    ))
}

/// Write `file` whole to `out`.
fn save(file: &BookFile, out: &Path) -> Result<(), CliError> {
    let text = serde_json::to_string(file).expect("a book serializes") + "\n";
    write_atomic(out, text.as_bytes()).map_err(|e| CliError::Lib(e.into()))
}

/// A book file read from `path`.
fn read_file(path: &Path) -> Result<BookFile, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("{}: cannot read it ({e})", path.display())))?;
    BookFile::from_json(&text).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

/// Seconds in a player's words: `40 s`, `12 min`, `3.5 h`.
fn duration_text(s: f64) -> String {
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// "1 whole turn", "3 whole turns".
fn whole_turns(k: impl Into<u64>) -> String {
    let k = k.into();
    format!("{k} whole turn{}", if k == 1 { "" } else { "s" })
}

/// The last line of a finished build.
fn summary(file: &BookFile, out: &Path) -> String {
    format!(
        "{}: every position {} from the start solved ({} positions, {:.1} s of solving, {} picks)\n",
        out.display(),
        whole_turns(file.turns),
        file.values.len(),
        file.built.seconds,
        mancala_sweep::format::game::picks_count(file.built.picks)
    )
}

/// Run `game book show`.
pub fn show(args: &BookShowArgs) -> Outcome {
    let top = args.top as usize;
    match &args.file {
        Some(path) => {
            let file = read_file(path)?;
            let mut out = describe_file(&file);
            if file.complete() {
                out += &describe(&file.book()?, top);
            }
            Ok(out)
        }
        None => Ok(book::builtin()
            .iter()
            .map(|b| describe(b, top))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// A book file's game and how far it is built.
fn describe_file(file: &BookFile) -> String {
    format!(
        "Book file: rules {}, {} pits of {} stones, {}: {} of {} positions solved{}\nBuilt by: {}\nOn: {} ({:.1} s of solving, {} picks)\n",
        file.rules,
        file.pits,
        file.stones,
        whole_turns(file.turns),
        file.solved(),
        file.values.len(),
        if file.complete() { "" } else { " (not complete: the same build command goes on)" },
        file.built.command,
        file.built.machine,
        file.built.seconds,
        mancala_sweep::format::game::picks_count(file.built.picks)
    )
}

/// A book's start and its turns, best first.
fn describe(book: &Book, top: usize) -> String {
    let (rules, n, stones, turns) = book.describe();
    let start = GameState::start(n, stones, rules).expect("a book's start");
    let a = book.analysis(&start).expect("a book holds its start");
    let mut out = format!(
        "Book: rules {rules}, {n} pits of {stones} stones, {turns} whole turn{} deep; the first player to move: {} with best play\n",
        if turns == 1 { "" } else { "s" },
        words::you_value(a.value())
    );
    out += &format!(
        "Turns of the start, best first ({} of {}, every one proved):\n",
        top.min(a.turns.len()),
        a.turns.len()
    );
    // The column as wide as the longest turn shown: an avalanche turn
    // runs to twenty picks and more.
    let shown = &a.turns[..top.min(a.turns.len())];
    let width = shown
        .iter()
        .map(|t| picks_text(&t.picks).len())
        .max()
        .unwrap_or(0);
    for (i, t) in shown.iter().enumerate() {
        out += &format!(
            "  {:>3}. {:<width$}  {}\n",
            i + 1,
            picks_text(&t.picks),
            words::turn_words(t)
        );
    }
    out
}
