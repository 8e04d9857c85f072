//! `game solve`, `game analyze`, `game endgame` and `game match`: whole
//! games (`game play` is in `play.rs`, `game book` in `book.rs`).

use super::cache::{cached_endgame, read_endgame, Reading};
use super::Outcome;
use crate::args::{
    BackgroundBuild, FirstArg, GameAnalyzeArgs, GameEndgameArgs, GameMatchArgs, GameSolveArgs,
    RuleArgs, SolverArgs, GAME_RULES,
};
use crate::errors::CliError;
use crate::progress::{thinking, Counter, Spinner};
use crate::signal::{exit_on_first_ctrl_c, INTERRUPTED};
use mancala_sweep::format::game::{
    game_analysis_text, game_solve_text, match_text, picks_count, picks_text,
};
use mancala_sweep::format::text::{self};
use mancala_sweep::format::words as plain;
use mancala_sweep::format::{
    parse_versioned, write_atomic, GameAnalysisJson, GameMatchJson, GameSolveJson,
    GAME_MATCH_FORMAT,
};
use mancala_sweep::game::endgame::BuildProgress;
use mancala_sweep::game::matches::{self, MatchOptions, MatchRecord};
use mancala_sweep::game::{
    solve, AgentSpec, Analysis, Budget, EndgameDb, GameSolveResult, GameState, Keep, KeepEvent,
    Side, SolveOptions, SolveWatch, Solver, WatchReading,
};
use mancala_sweep::rules::{Board, Preset};
use mancala_sweep::sweep::default_max_memory;
use std::sync::{Arc, Mutex};

/// The start of a game from the rule and board flags; [`GAME_RULES`]
/// (kalah) unless the flags say otherwise.
pub(super) fn start(args: &RuleArgs) -> Result<GameState, CliError> {
    Ok(start_read(args)?.0)
}

/// [`start`] and the board as read: a finished position's game state has
/// its rows already swept into the stores, and the answer draws the board
/// the user gave.
fn start_read(args: &RuleArgs) -> Result<(GameState, Board), CliError> {
    let mut o = args.options();
    if o.preset.is_none() {
        o.preset = Some(Preset::from(GAME_RULES));
    }
    let (rules, board) = o.resolve()?;
    Ok((GameState::new(board, Side::First, rules)?, board))
}

/// The solver's options and database for `state` from the shared flags:
/// the table `table` (fitted to the board), the memory cap, the threads,
/// and the `--endgame` file read as `reading` says (said on stderr unless
/// `quiet`).
pub(super) fn solver_setup(
    table: u64,
    args: &SolverArgs,
    state: &GameState,
    reading: Reading,
    quiet: bool,
) -> Result<(SolveOptions, Option<EndgameDb>), CliError> {
    let opts = SolveOptions {
        table_bytes: table,
        memory_cap: args.max_memory.unwrap_or_else(default_max_memory),
        threads: args.threads.count() as u32,
        ..SolveOptions::default()
    }
    .fit_to(state.rules(), state.pits_per_side(), state.stones_in_pits());
    let db = read_endgame(
        args.endgame.as_deref(),
        state,
        opts.memory_cap,
        reading,
        quiet,
    )?;
    Ok((opts, db))
}

/// Run `game solve`.
pub fn solve(args: &GameSolveArgs) -> Outcome {
    let (state, read) = start_read(&args.rules)?;
    let table = args
        .table
        .unwrap_or_else(|| solve::table_for(state.stones_in_pits()));
    let (opts, db) = solver_setup(
        table,
        &args.solver,
        &state,
        Reading::Whole,
        args.quiet.quiet,
    )?;
    if let Some(path) = &args.checkpoint {
        // Tried now, not at the first write ten minutes in.
        crate::place::file("--checkpoint", path, opts.table_bytes)?;
    }
    // The cached database, as `game analyze` reads it; not with
    // `--checkpoint`, whose work names the database it was done with (a
    // cache built between two runs would refuse the resume).
    let db = match db {
        None if !args.no_cache && args.checkpoint.is_none() => {
            let room = opts.memory_cap.saturating_sub(opts.table_bytes);
            // Built only for a long solve: a game of at most 36 stones is
            // solved in less time than the build takes.
            let build = state.stones_in_pits() > solve::SMALL_TABLE_STONES;
            cached_endgame(
                &state,
                room,
                opts.threads as usize,
                build,
                Reading::Whole,
                args.quiet.quiet,
            )?
            .map(|(db, _)| db)
        }
        db => db,
    };
    if !args.quiet.quiet && !state.is_over() {
        eprintln!(
            "solving {} stones to the end of the game; Ctrl-C stops with the bounds known",
            state.stones_in_pits()
        );
    }
    let watch = Arc::new(SolveWatch::default());
    let (base, stones) = (state.mover_minus_opponent(), state.stones_in_pits() as i32);
    let status = |t: f64| solving_status(&watch.read(), base, stones, t);
    let quiet = args.quiet.quiet;
    let solver = || {
        Solver::builder()
            .options(opts.clone())
            .endgame(db.as_ref())
            .cancel(&INTERRUPTED)
            .watch(Arc::clone(&watch))
    };
    let r = thinking(quiet, &status, |spinner| match &args.checkpoint {
        None => solver().solve(&state),
        Some(path) => {
            let every = args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
            let keep = Keep {
                path,
                every: std::time::Duration::from_secs_f64(every),
            };
            let mut heard = |e: KeepEvent| spinner.println(&kept(&e, path));
            solver().solve_kept(&state, keep, &mut heard)
        }
    })?;
    let out = if args.json.json {
        serde_json::to_string(&GameSolveJson::new(&state, &r, opts.table_bytes)).expect("json")
            + "\n"
    } else {
        text::header(state.rules(), &read)
            + &game_solve_text(&state, &r, opts.table_bytes, opts.threads)
    };
    if !r.exact {
        return Err(solve_stopped(args.checkpoint.as_deref(), &r, out));
    }
    Ok(out)
}

/// The error of a `game solve` stopped before the value was proved: the
/// answer so far (`out`) with the bounds, and where the work is kept
/// (`checkpoint`) or how the next run keeps it. A step of its own, as what
/// it says depends on the file.
fn solve_stopped(
    checkpoint: Option<&std::path::Path>,
    r: &GameSolveResult,
    out: String,
) -> CliError {
    let kept = match checkpoint {
        // Stopped while the table was zeroed, before any work: there is
        // a file only if an earlier run left one.
        Some(path) if path.exists() => format!(
            "; the work is kept in {}: the same command goes on from it",
            path.display()
        ),
        Some(_) => String::new(),
        // Said where a long solve is stopped: how the next one keeps.
        None => "; nothing is kept: with --checkpoint FILE the work is kept, and the same command goes on from it after a stop".into(),
    };
    CliError::Partial {
        stdout: out,
        error: Box::new(CliError::Stopped(format!(
            "the value is between {} and {}{kept}",
            r.lower, r.upper
        ))),
    }
}

/// `--checkpoint-every`'s default: ten minutes of search between writes.
const CHECKPOINT_EVERY: f64 = 600.0;

/// What `game solve --checkpoint` says of its file on stderr: read back,
/// being written, written.
fn kept(e: &KeepEvent, path: &std::path::Path) -> String {
    match e {
        KeepEvent::Resumed {
            lower,
            upper,
            nodes,
            seconds,
        } => format!(
            "resuming from {}: the value is between {lower:+} and {upper:+} ({} picks and {seconds:.0} s so far)",
            path.display(),
            picks_count(*nodes)
        ),
        KeepEvent::Saving { bytes } => format!(
            "writing the checkpoint {} ({})",
            path.display(),
            mancala_sweep::sweep::format_bytes(*bytes)
        ),
        KeepEvent::Saved { lower, upper } => format!(
            "checkpoint written: the value is between {lower:+} and {upper:+}"
        ),
    }
}

/// The progress line of a whole-game solve: the bounds of the value so far
/// (from the position's stores, as the answer gives it), the passes of
/// MTD(f) that narrowed them, the picks searched and the seconds.
fn solving_status(w: &WatchReading, base: i32, stones: i32, seconds: f64) -> String {
    // Bounds relative to the stores, from the start (a resumed solve's
    // from its checkpoint) or the last pass.
    let (lo, hi) = (w.lower.max(-stones), w.upper.min(stones));
    format!(
        "solving to the end of the game: the value is between {:+} and {:+} after {} pass{} | {} picks | {seconds:.1} s",
        base + lo,
        base + hi,
        w.passes,
        if w.passes == 1 { "" } else { "es" },
        picks_count(w.picks)
    )
}

/// How far an analysis got, for a progress line (`game analyze`'s and a
/// hint's): its depth, the turns proved and the best so far, then ` | `.
pub(super) fn analysis_status(a: &Analysis) -> String {
    format!(
        "best so far {}: {} | {} of {} turns proved | ",
        picks_text(&a.turns[0].picks),
        plain::turn_words(&a.turns[0]),
        a.proved(),
        a.turns.len(),
    )
}

/// `game analyze`'s table unless `--table` says otherwise: the web's.
use mancala_sweep::api::ANALYZE_TABLE;

/// The build `--follow` starts in the background, as `--background-build`
/// says: never with `--no-cache` or `--endgame`, and under `auto` only
/// for a person at a terminal (a script's piped game ends before it would
/// pay); within `--max-memory` beside the table and the database `db`.
fn background_builder(
    args: &GameAnalyzeArgs,
    opts: &SolveOptions,
    db: Option<&EndgameDb>,
    state: &GameState,
) -> Option<super::background::Builder> {
    let wanted = match args.background_build {
        _ if args.no_cache || args.solver.endgame.is_some() => false,
        BackgroundBuild::Auto => std::io::IsTerminal::is_terminal(&std::io::stdin()),
        BackgroundBuild::Always => true,
        BackgroundBuild::Never => false,
    };
    // The database built replaces `db`; while it builds, both are held.
    let room = opts.memory_cap.saturating_sub(opts.table_bytes);
    let building = room.saturating_sub(db.map_or(0, EndgameDb::bytes));
    wanted
        .then(|| {
            super::background::Builder::start(
                state.rules(),
                state.pits_per_side(),
                state.stones_in_pits(),
                opts.threads as usize,
                room,
                building,
            )
        })
        .flatten()
}

/// `game analyze`: every turn of a position ranked for the game, or with
/// `--follow` a whole game answered as it is played.
pub fn analyze(args: &GameAnalyzeArgs) -> Outcome {
    let resumed = if args.resume {
        Some(super::kept::last_unfinished(&args.rules)?)
    } else {
        None
    };
    let state = match &resumed {
        Some((_, state)) => *state,
        None => start(&args.rules)?,
    };
    let table = args.table.unwrap_or(ANALYZE_TABLE);
    let (mut opts, db) = solver_setup(
        table,
        &args.solver,
        &state,
        Reading::Mapped,
        args.quiet.quiet,
    )?;
    opts.book = !args.no_book;
    let threads = opts.threads;
    let reading = std::time::Instant::now();
    // A position the opening book answers needs no database (nor its
    // build); a game followed from it does, later.
    let booked = opts.book && !args.follow && mancala_sweep::game::book::answers(&state);
    let (db, read) = match db {
        None if !args.no_cache && !booked => analysis_cache(args, &state, &opts, reading)?,
        db => (db, None),
    };
    let budget = match args.nodes {
        Some(n) => Budget::Nodes(n),
        None => Budget::Seconds(args.seconds),
    };
    // One answer's seconds count the reading of the cached database, not
    // a build's (said apart); `--follow` reads it once for the whole game.
    let budget = match read {
        Some(read) if !args.follow => budget.less(read),
        _ => budget,
    };
    if args.follow {
        exit_on_first_ctrl_c();
    }
    let spinner = Spinner::new(args.quiet.quiet);
    let report = |a: &Analysis| {
        spinner.set(format!(
            "analyzing: {}{:.1} s",
            analysis_status(a),
            a.elapsed.as_secs_f64()
        ))
    };
    if args.follow {
        let done = || spinner.finish();
        let f = super::follow::Follow {
            opts: &opts,
            db: db.as_ref(),
            budget,
            top: args.top.map_or(10, |k| k as usize),
            report: &report,
            done: &done,
            verbose: args.verbose,
            first: match args.first {
                FirstArg::You => Side::First,
                FirstArg::Them => Side::Second,
            },
        };
        let stdin = std::io::stdin();
        let builder = background_builder(args, &opts, db.as_ref(), &state);
        super::follow::follow_loop(
            &f,
            state,
            resumed.map(|(rec, _)| rec),
            builder,
            &mut stdin.lock(),
            &mut std::io::stdout(),
        )?;
        return Ok(String::new());
    }
    let a = mancala_sweep::game::analyze(
        &state,
        &opts,
        db.as_ref(),
        budget,
        &INTERRUPTED,
        Some(&report),
    )?;
    spinner.finish();
    say_setup(args, &a, &state, db.as_ref());
    analysis_answer(args, &state, &a, threads)
}

/// The cached database for `game analyze` at `state` when no `--endgame`
/// was given, built if it is missing, within what `--max-memory` leaves
/// beside the table; with the time its reading took since `reading` (not
/// a build's), which one answer's budget counts. A step of its own, as
/// the cache decides by itself whether to build.
fn analysis_cache(
    args: &GameAnalyzeArgs,
    state: &GameState,
    opts: &SolveOptions,
    reading: std::time::Instant,
) -> Result<(Option<EndgameDb>, Option<std::time::Duration>), CliError> {
    let room = opts.memory_cap.saturating_sub(opts.table_bytes);
    Ok(
        match cached_endgame(
            state,
            room,
            opts.threads as usize,
            true,
            Reading::Mapped,
            args.quiet.quiet,
        )? {
            Some((db, built)) => (Some(db), (!built).then(|| reading.elapsed())),
            None => (None, None),
        },
    )
}

/// `game analyze`'s answer `a` at `state` on stdout, as JSON or text, and
/// the error of an analysis stopped before its budget ran out, with the
/// answer so far. A step of its own: the analysis before it is the same
/// for both.
fn analysis_answer(
    args: &GameAnalyzeArgs,
    state: &GameState,
    a: &Analysis,
    threads: u32,
) -> Outcome {
    let out = if args.json.json {
        let top = args.top.map_or(usize::MAX, |k| k as usize);
        serde_json::to_string(&GameAnalysisJson::new(state, a, threads, top)).expect("json") + "\n"
    } else {
        let top = args.top.map_or(10, |k| k as usize);
        text::header(state.rules(), &state.board())
            + "\n"
            + &game_analysis_text(state, a, threads, top, args.verbose)
    };
    if a.cancelled {
        return Err(CliError::Partial {
            stdout: out,
            error: Box::new(CliError::Stopped(format!(
                "the analysis was stopped after {:.1} s; it shows what was known then",
                a.elapsed.as_secs_f64()
            ))),
        });
    }
    Ok(out)
}

/// Says on stderr what the one-time set-up would give ([`setup_advice`])
/// after an answer `a` not proved, unless the run is quiet or keeps to a
/// database of its own (`--no-cache`, `--endgame`).
fn say_setup(args: &GameAnalyzeArgs, a: &Analysis, state: &GameState, db: Option<&EndgameDb>) {
    if !a.exact() && !args.quiet.quiet && !args.no_cache && args.solver.endgame.is_none() {
        if let Some(line) = setup_advice(state, db) {
            eprintln!("{line}");
        }
    }
}

/// What the one-time set-up would give, said once after an answer it did
/// not prove, in a player's words: `None` when the cache already holds
/// the database `game cache build` makes (or one as large), or the
/// position has no more stones than the one read.
fn setup_advice(state: &GameState, db: Option<&EndgameDb>) -> Option<String> {
    let (rules, n) = (state.rules(), state.pits_per_side());
    let setup = mancala_sweep::game::EndgameCache::setup_stones(rules, n)?;
    let have = db.map_or(0, EndgameDb::stones);
    if have >= setup || state.stones_in_pits() <= have {
        return None;
    }
    // GamePigeon's name for Kalah's rules, which its players know.
    let preset = match Preset::ALL.into_iter().find(|p| p.rules() == rules)? {
        Preset::Kalah => "capture".to_string(),
        p => p.to_string(),
    };
    let pits = if n == 6 {
        String::new()
    } else {
        format!(" --pits {n}")
    };
    Some(format!(
        "Not proved yet. Run `mancala-sweep game cache build --rules {preset}{pits}` once (minutes; at most {} on disk): from then on most answers of the whole game are proved best within a second.",
        mancala_sweep::sweep::format_bytes(EndgameDb::packed_bytes_for(n, setup))
    ))
}

/// Run `game endgame`.
/// Refuses a start position given to `command`, which builds an endgame
/// database: it holds every position of --pits pits a side up to --up-to
/// stones, whatever the start, so a start position would change nothing,
/// and taking it in silence would let it seem to.
pub(super) fn no_start_position(args: &RuleArgs, command: &str) -> Result<(), CliError> {
    let given = [
        ("--stones", args.stones.map(|s| s.to_string())),
        ("--board", args.board.as_ref().map(|b| format!("{b:?}"))),
    ];
    match given.into_iter().find(|(_, v)| v.is_some()) {
        Some((flag, Some(value))) => Err(CliError::Input(format!(
            "{flag} {value}: `{command}` takes no start position: the database holds every position of --pits pits a side with at most --up-to stones"
        ))),
        _ => Ok(()),
    }
}

/// `game endgame`: an endgame database built into a file.
pub fn endgame(args: &GameEndgameArgs) -> Outcome {
    no_start_position(&args.db.rules, "game endgame")?;
    let state = start(&args.db.rules)?;
    let (rules, n) = (state.rules(), state.pits_per_side());
    let threads = args.db.threads.count();
    let quiet = args.db.quiet.quiet;
    let max_memory = args.db.max_memory.unwrap_or_else(default_max_memory);
    EndgameDb::check_build(rules, n, args.up_to, max_memory)?;
    // Tried now, not after the build: the file is written whole.
    let needs = EndgameDb::packed_bytes_for(n, args.up_to);
    crate::place::file("--out", &args.out, needs)?;
    let t0 = std::time::Instant::now();
    if !quiet {
        eprintln!(
            "building the endgame database of {} pits a side up to {} stones in {} on {threads} threads; Ctrl-C keeps what is finished",
            n,
            args.up_to,
            args.out.display()
        );
    }
    let progress = BuildProgress::default();
    let built = super::cache::showing_build(&progress, n, quiet, true, || {
        EndgameDb::build_file(
            &args.out,
            rules,
            n,
            args.up_to,
            threads,
            max_memory,
            &INTERRUPTED,
            &progress,
        )
    })
    .map_err(|e| lost_write(e, &args.out))?;
    let resumed = match built.resumed_from {
        Some(k) => format!(", resumed from the {k} stones in the file"),
        None => String::new(),
    };
    let out = match built.stones {
        Some(stones) => format!(
            "{}: every position with at most {stones} stones in the pits of {n} pits a side ({} positions){resumed}, {:.1} s\n",
            args.out.display(),
            built.positions,
            t0.elapsed().as_secs_f64()
        ),
        None => format!(
            "{}: not written, stopped before the first layer was finished, {:.1} s\n",
            args.out.display(),
            t0.elapsed().as_secs_f64()
        ),
    };
    if !built.complete {
        return Err(CliError::Partial {
            stdout: out,
            error: Box::new(CliError::Stopped(
                "run the same command to go on from what the file keeps".into(),
            )),
        });
    }
    Ok(out)
}

/// A build that could not write its file (the disk filled up after the
/// check): what the file keeps, from its last write, so that the line
/// never claims a resume that cannot happen.
fn lost_write(e: mancala_sweep::game::GameError, out: &std::path::Path) -> CliError {
    use mancala_sweep::game::{EndgameError as E, GameError, GameFileError};
    let GameError::Endgame(E::Io(GameFileError {
        action: "write", ..
    })) = &e
    else {
        return e.into();
    };
    let kept = match EndgameDb::read_header(out) {
        Ok(h) => format!(
            "{} keeps every position with at most {} stones: once there is room, the same command goes on from it",
            out.display(),
            h.stones
        ),
        Err(_) => "nothing was kept".into(),
    };
    CliError::Failed(format!("{e}; {kept}"))
}

pub(super) fn agent_of(text: &str) -> Result<AgentSpec, CliError> {
    Ok(text.parse::<AgentSpec>()?)
}

/// Take the games of `record`'s match from its results file `path` (the
/// `--out` of an earlier run) so that `game match` goes on where it
/// stopped; the file must hold this very match (agents, seed, games,
/// openings, rules and start), or it is another one's and is refused
/// rather than overwritten.
fn resume(
    path: &std::path::Path,
    state: &GameState,
    record: &mut MatchRecord,
) -> Result<(), CliError> {
    if !path.exists() {
        return Ok(());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("--out {}: {e}", path.display())))?;
    let doc: GameMatchJson = parse_versioned(&text, GAME_MATCH_FORMAT, "a match")
        .map_err(|e| CliError::Input(format!("--out {}: {e}", path.display())))?;
    let old = doc.record();
    if (
        old.a.as_str(),
        old.b.as_str(),
        old.seed,
        old.games_planned,
        old.opening_turns,
    ) != (
        record.a.as_str(),
        record.b.as_str(),
        record.seed,
        record.games_planned,
        record.opening_turns,
    ) || doc.rules != state.rules()
        || doc.start.board != state.board().one_line()
    {
        return Err(CliError::Input(format!(
            "--out {} holds another match ({} against {}, seed {}, {} games): give another --out",
            path.display(),
            old.a,
            old.b,
            old.seed,
            old.games_planned
        )));
    }
    record.games = old.games;
    Ok(())
}

/// Writes the match `r` so far to `--out` (`out`), if given, whole or
/// not at all: a step of its own because the match saves every few games
/// as well as at its end.
fn save_match(
    out: Option<&std::path::Path>,
    state: &GameState,
    r: &MatchRecord,
) -> Result<(), CliError> {
    if let Some(path) = out {
        let s = matches::summarize(&r.games);
        let doc = GameMatchJson::new(state, r, s);
        write_atomic(
            path,
            (serde_json::to_string(&doc).expect("json") + "\n").as_bytes(),
        )?;
    }
    Ok(())
}

/// Run `game match`.
pub fn play_match(args: &GameMatchArgs) -> Outcome {
    let state = start(&args.rules)?;
    let (a, b) = (agent_of(&args.a)?, agent_of(&args.b)?);
    let opts = MatchOptions {
        games: args.games,
        seed: args.seed,
        opening_turns: args.opening_turns,
        endgame: read_endgame(
            args.endgame.as_deref(),
            &state,
            default_max_memory(),
            Reading::Whole,
            args.quiet.quiet,
        )?,
    };
    let mut record = MatchRecord {
        a: a.to_string(),
        b: b.to_string(),
        seed: args.seed,
        games_planned: args.games,
        opening_turns: args.opening_turns,
        games: Vec::new(),
    };
    // Resume from the results file when it holds this very match.
    if let Some(path) = &args.out {
        resume(path, &state, &mut record)?;
    }
    let threads = args.threads.count();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Input(format!("--threads: {e}")))?;
    let progress = Mutex::new(record.clone());
    let quiet = args.quiet.quiet;
    let bar = Counter::new(
        record.games_planned as u64,
        "games",
        "games [{bar:30}] {pos}/{len} {msg} {elapsed}",
        quiet,
    );
    let save = |r: &MatchRecord| save_match(args.out.as_deref(), &state, r);
    let on_game = |g: &mancala_sweep::game::matches::GameRecord| {
        let mut p = progress.lock().expect("not poisoned");
        p.games.push(g.clone());
        p.games.sort_by_key(|g| g.game);
        let s = matches::summarize(&p.games);
        bar.set(
            p.games.len() as u64,
            format!("{} scores {:.3} against {}", p.a, s.score, p.b),
        );
        // Every few games, so that a long match loses little on a crash.
        if p.games.len().is_multiple_of(10) {
            let _ = save(&p);
        }
    };
    let games = pool.install(|| {
        matches::run(
            &state,
            a,
            b,
            &opts,
            record.games.clone(),
            &INTERRUPTED,
            &on_game,
        )
    })?;
    bar.finish();
    record.games = games;
    save(&record)?;
    let summary = matches::summarize(&record.games);
    let out = if args.json.json {
        serde_json::to_string(&GameMatchJson::new(&state, &record, summary)).expect("json") + "\n"
    } else {
        text::header(state.rules(), &state.board()) + &match_text(&record, &summary)
    };
    if (record.games.len() as u32) < record.games_planned {
        return Err(CliError::Partial {
            stdout: out,
            error: Box::new(CliError::Stopped(format!(
                "{} of {} games played{}",
                record.games.len(),
                record.games_planned,
                if args.out.is_some() {
                    "; the same command resumes"
                } else {
                    ""
                }
            ))),
        });
    }
    Ok(out)
}
