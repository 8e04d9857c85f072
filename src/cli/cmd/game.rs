//! `game solve`, `game play` and `game match`: whole games.

use super::Outcome;
use crate::cli::args::{
    FirstArg, FollowFirst, GameAnalyzeArgs, GameEndgameArgs, GameMatchArgs, GamePlayArgs,
    GameSolveArgs, RuleArgs, SolverArgs, GAME_RULES,
};
use crate::cli::progress::{thinking, Counter, Spinner};
use crate::cli::signal::{exit_on_first_ctrl_c, interrupted, INTERRUPTED};
use crate::cli::words::{self, rules_label, CliError};
use mancala_sweep::format::game::{
    game_analysis_text, game_solve_text, match_text, picks_count, picks_text,
};
use mancala_sweep::format::text::{self, trace_text, trace_text_seen};
use mancala_sweep::format::words as plain;
use mancala_sweep::format::{
    parse_versioned, write_atomic, GameAnalysisJson, GameMatchJson, GameSolveJson,
    GAME_MATCH_FORMAT,
};
use mancala_sweep::game::agent::BUDGET_DEPTH;
use mancala_sweep::game::matches::{self, MatchOptions, MatchRecord};
use mancala_sweep::game::{
    solve, AgentSpec, Analysis, Budget, EndgameCache, EndgameDb, GameError, GameSession,
    GameSolveOptions, GameState, Keep, KeepEvent, Level, PickOutcome, Played, Side, SolveWatch,
    WatchReading,
};
use mancala_sweep::rules::{Board, Pit, Preset};
use mancala_sweep::search::{default_max_memory, format_bytes};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The start of a game from the rule and board flags; [`GAME_RULES`]
/// (kalah) unless the flags say otherwise.
fn start(args: &RuleArgs) -> Result<GameState, CliError> {
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

/// The endgame database of `--endgame`, read whole for `state`'s rules and
/// board size under the memory cap `cap`; what it holds is said on stderr
/// unless `quiet`.
fn read_endgame(
    path: Option<&std::path::Path>,
    state: &GameState,
    cap: u64,
    quiet: bool,
) -> Result<Option<EndgameDb>, CliError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let t0 = std::time::Instant::now();
    let db = EndgameDb::load(path, state.rules(), state.pits_per_side(), cap)
        .map_err(|e| CliError::Input(format!("--endgame {e}{}", words::game_hint(&e))))?;
    if !quiet {
        eprintln!(
            "endgame database {}: every position with at most {} stones in its pits ({} bytes, read in {:.1} s)",
            path.display(),
            db.stones(),
            db.bytes(),
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(Some(db))
}

/// The environment variable that names the folder of cached endgame
/// databases (`game analyze`).
const CACHE_VAR: &str = "MANCALA_SWEEP_CACHE";

/// The folder of cached endgame databases: `$MANCALA_SWEEP_CACHE`, else
/// `$XDG_CACHE_HOME/mancala-sweep`, else `~/.cache/mancala-sweep`; none
/// when none of these is set.
pub(super) fn endgame_cache() -> Option<EndgameCache> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let dir = match var(CACHE_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))?
            .join("mancala-sweep"),
    };
    Some(EndgameCache::new(dir))
}

/// The cached endgame database of `state`'s rules and board size, when it
/// fits in `memory_cap` bytes (what the table leaves), read from the
/// cache folder, or built there first when `build` says so (once, on
/// `threads` threads, with a progress line; Ctrl-C keeps the layers
/// finished for the next run). A cache that cannot be read or written is said in a
/// line on stderr and the work goes on without it; none for rules
/// without a database (any-hole), without a cache folder, or for a
/// position the database holds whole (its own stones filled on demand
/// are the whole game). With the database, true when it was built now
/// (not read).
pub(super) fn cached_endgame(
    state: &GameState,
    memory_cap: u64,
    threads: usize,
    build: bool,
    quiet: bool,
) -> Result<Option<(EndgameDb, bool)>, CliError> {
    let (rules, n) = (state.rules(), state.pits_per_side());
    let Some(cache) = endgame_cache() else {
        return Ok(None);
    };
    let (Some(path), Some(stones)) = (cache.path(rules, n), EndgameCache::stones(rules, n)) else {
        return Ok(None);
    };
    if state.stones_in_pits() <= stones {
        return Ok(None);
    }
    let say = |line: String| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    let bytes = EndgameDb::bytes_for(n, stones);
    if bytes > memory_cap {
        say(format!(
            "the cached endgame database ({}) does not fit beside the table within --max-memory; going on without it",
            format_bytes(bytes)
        ));
        return Ok(None);
    }
    match cache.load(rules, n, memory_cap) {
        Ok(Some(db)) => return Ok(Some((db, false))),
        Ok(None) => {}
        Err(e) => {
            say(format!(
                "the cached endgame database {} could not be read ({e}); {}",
                path.display(),
                if build {
                    "building it again"
                } else {
                    "going on without it (the next `game analyze` builds it again)"
                }
            ));
            let _ = std::fs::remove_file(&path);
        }
    }
    if !build {
        return Ok(None);
    }
    say(format!(
        "{} the endgame database of these rules on {n} pits a side, once (every position with at most {stones} stones, {} in {}; --no-cache skips it)",
        if path.exists() {
            "going on with the layers a stopped build kept: building"
        } else {
            "building"
        },
        format_bytes(bytes),
        path.display()
    ));
    let spinner = Spinner::new(quiet);
    let t0 = std::time::Instant::now();
    let built = cache.build(rules, n, threads, memory_cap, &INTERRUPTED, |t, _| {
        spinner.set(format!(
            "building the endgame database: {t} of {stones} stones, {:.1} s",
            t0.elapsed().as_secs_f64()
        ))
    });
    spinner.finish();
    match built {
        Ok(Some(db)) => {
            say(format!(
                "endgame database built in {:.1} s",
                t0.elapsed().as_secs_f64()
            ));
            Ok(Some((db, true)))
        }
        Ok(None) if interrupted() => Err(CliError::Stopped(format!(
            "stopped while building the endgame database; the layers finished are kept in {} and the next run goes on from them",
            path.display()
        ))),
        Ok(None) => Ok(None),
        Err(e) => {
            say(format!(
                "the endgame database could not be kept in {} ({e}); going on without it",
                cache.dir().display()
            ));
            Ok(None)
        }
    }
}

/// The solver's options and database for `state` from the shared flags:
/// the table `table` (fitted to the board), the memory cap, the threads,
/// and the `--endgame` file read whole (said on stderr unless `quiet`).
fn solver_setup(
    table: u64,
    args: &SolverArgs,
    state: &GameState,
    quiet: bool,
) -> Result<(GameSolveOptions, Option<EndgameDb>), CliError> {
    let opts = GameSolveOptions {
        table_bytes: table,
        memory_cap: args.max_memory.unwrap_or_else(default_max_memory),
        threads: args.threads.count() as u32,
        ..GameSolveOptions::default()
    }
    .fit_to(state.rules(), state.pits_per_side(), state.stones_in_pits());
    let db = read_endgame(args.endgame.as_deref(), state, opts.memory_cap, quiet)?;
    Ok((opts, db))
}

/// Run `game solve`.
pub fn solve(args: &GameSolveArgs) -> Outcome {
    let (state, read) = start_read(&args.rules)?;
    let table = args
        .table
        .unwrap_or_else(|| solve::table_for(state.stones_in_pits()));
    let (opts, db) = solver_setup(table, &args.solver, &state, args.quiet.quiet)?;
    // The cached database, as `game analyze` reads it; not with
    // `--checkpoint`, whose work names the database it was done with (a
    // cache built between two runs would refuse the resume).
    let db = match db {
        None if !args.no_cache && args.checkpoint.is_none() => {
            let room = opts.memory_cap.saturating_sub(opts.table_bytes);
            // Built only for a long solve: a game of at most 36 stones is
            // solved in less time than the build takes (docs/games.md,
            // tenth round).
            let build = state.stones_in_pits() > solve::SMALL_TABLE_STONES;
            cached_endgame(&state, room, opts.threads as usize, build, args.quiet.quiet)?
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
    let r = thinking(quiet, &status, |spinner| match &args.checkpoint {
        None => solve::solve_watched(
            &state,
            &opts,
            db.as_ref(),
            &INTERRUPTED,
            Some(Arc::clone(&watch)),
        ),
        Some(path) => {
            let every = args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
            let keep = Keep {
                path,
                every: std::time::Duration::from_secs_f64(every),
            };
            let mut heard = |e: KeepEvent| spinner.println(&kept(&e, path));
            solve::solve_kept(
                &state,
                &opts,
                db.as_ref(),
                &INTERRUPTED,
                Some(Arc::clone(&watch)),
                keep,
                &mut heard,
            )
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
        let kept = match &args.checkpoint {
            // Stopped while the table was zeroed, before any work: there is
            // a file only if an earlier run left one.
            Some(path) if path.exists() => format!(
                "; the work is kept in {}: the same command goes on from it",
                path.display()
            ),
            _ => String::new(),
        };
        return Err(CliError::Partial {
            stdout: out,
            error: Box::new(CliError::Stopped(format!(
                "the value is between {} and {}{kept}",
                r.lower, r.upper
            ))),
        });
    }
    Ok(out)
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
            mancala_sweep::search::format_bytes(*bytes)
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
fn analysis_status(a: &Analysis) -> String {
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

/// Run `game analyze`.
pub fn analyze(args: &GameAnalyzeArgs) -> Outcome {
    let state = start(&args.rules)?;
    let table = args.table.unwrap_or(ANALYZE_TABLE);
    let (mut opts, db) = solver_setup(table, &args.solver, &state, args.quiet.quiet)?;
    opts.book = !args.no_book;
    let threads = opts.threads;
    let reading = std::time::Instant::now();
    let (db, read) = match db {
        None if !args.no_cache => {
            let room = opts.memory_cap.saturating_sub(opts.table_bytes);
            match cached_endgame(&state, room, threads as usize, true, args.quiet.quiet)? {
                Some((db, built)) => (Some(db), (!built).then(|| reading.elapsed())),
                None => (None, None),
            }
        }
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
            "analysing: {}{:.1} s",
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
                FollowFirst::You => Side::First,
                FollowFirst::Them => Side::Second,
            },
        };
        let stdin = std::io::stdin();
        super::follow::follow_loop(&f, state, &mut stdin.lock(), &mut std::io::stdout())?;
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
    let out = if args.json.json {
        let top = args.top.map_or(usize::MAX, |k| k as usize);
        serde_json::to_string(&GameAnalysisJson::new(&state, &a, threads, top)).expect("json")
            + "\n"
    } else {
        let top = args.top.map_or(10, |k| k as usize);
        text::header(state.rules(), &state.board())
            + "\n"
            + &game_analysis_text(&state, &a, threads, top, args.verbose)
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

/// Run `game endgame`.
pub fn endgame(args: &GameEndgameArgs) -> Outcome {
    // The database holds every position of --pits pits a side up to
    // --up-to stones, whatever the start: a start position would change
    // nothing, and taking it in silence would let it seem to.
    let given = [
        ("--stones", args.rules.stones.map(|s| s.to_string())),
        (
            "--board",
            args.rules.board.as_ref().map(|b| format!("{b:?}")),
        ),
    ];
    if let Some((flag, Some(value))) = given.into_iter().find(|(_, v)| v.is_some()) {
        return Err(CliError::Input(format!(
            "{flag} {value}: `game endgame` takes no start position: the database holds every position of --pits pits a side with at most --up-to stones"
        )));
    }
    let state = start(&args.rules)?;
    let (rules, n) = (state.rules(), state.pits_per_side());
    let threads = args.threads.count();
    let quiet = args.quiet.quiet;
    let max_memory = args.max_memory.unwrap_or_else(default_max_memory);
    EndgameDb::check(rules, n, args.up_to, max_memory)?;
    let t0 = std::time::Instant::now();
    if !quiet {
        eprintln!(
            "building the endgame database of {} pits a side up to {} stones in {} on {threads} threads; Ctrl-C keeps the layers finished",
            n,
            args.up_to,
            args.out.display()
        );
    }
    let built = EndgameDb::build_file(
        &args.out,
        rules,
        n,
        args.up_to,
        threads,
        max_memory,
        &INTERRUPTED,
        |t, positions| {
            if !quiet {
                eprintln!(
                    "  {t:>3} stones: {positions} positions, {:.1} s",
                    t0.elapsed().as_secs_f64()
                );
            }
        },
    )?;
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
                "run the same command to go on from the layers kept".into(),
            )),
        });
    }
    Ok(out)
}

fn agent_of(text: &str) -> Result<AgentSpec, CliError> {
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
    let out_path = args.out.clone();
    let save = |r: &MatchRecord| -> Result<(), CliError> {
        if let Some(path) = &out_path {
            let s = matches::summarize(&r.games);
            let doc = GameMatchJson::new(&state, r, s);
            write_atomic(
                path,
                (serde_json::to_string(&doc).expect("json") + "\n").as_bytes(),
            )?;
        }
        Ok(())
    };
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

/// Run `game play` on the terminal.
pub fn play(args: &GamePlayArgs) -> Outcome {
    exit_on_first_ctrl_c();
    let state = start(&args.rules)?;
    let spec = match &args.agent {
        Some(a) => agent_of(a)?,
        None => args.level.parse::<Level>().map_err(CliError::from)?.agent(),
    };
    let person = match args.first {
        FirstArg::You => Side::First,
        FirstArg::Computer => Side::Second,
    };
    let db = match read_endgame(args.endgame.as_deref(), &state, default_max_memory(), false)? {
        // The database `game analyze` keeps, for the `perfect` computer
        // and the hints, when it is there: a game does not start with a
        // build of seconds.
        None if !args.no_cache => {
            cached_endgame(&state, default_max_memory(), 1, false, false)?.map(|(db, _)| {
                eprintln!(
                    "the cached endgame database: every position with at most {} stones in its pits, for the computer and the hints (--no-cache leaves it)",
                    db.stones()
                );
                db
            })
        }
        db => db,
    };
    let label = rules_label(&args.rules.set, state.rules());
    let mut session = GameSession::with_endgame(state, person, spec, args.seed, db)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    play_loop(&mut session, &label, &mut input, &mut out).map_err(CliError::Terminal)?;
    Ok(String::new())
}

fn say_pick(out: &mut dyn Write, p: &Played, person: Side, n: usize) -> std::io::Result<()> {
    let free = p.outcome == PickOutcome::FreeTurn;
    if p.by == person {
        return writeln!(out, "You: {}", trace_text(&p.trace, free));
    }
    // The computer's pit k is the person's pit n + k, and the other way.
    let seen = |pit: Pit| {
        let k = pit.number() as usize;
        let yours = if k <= n { k + n } else { k - n };
        Pit::new(yours as u32, n).expect("a pit of the board")
    };
    writeln!(
        out,
        "Computer: {}",
        trace_text_seen(&p.trace, free, &seen, "its store")
    )
}

fn show(out: &mut dyn Write, s: &GameSession) -> std::io::Result<()> {
    let st = s.state();
    writeln!(out, "{}", st.board_from(s.person()))?;
    writeln!(
        out,
        "Stores: you {}, computer {}.",
        st.store(s.person()),
        st.store(s.person().other())
    )
}

/// Act on one word of the person's line (any case: `H`, `Hint`, `QUIT`);
/// `rest` words follow it on the line.
fn one_word(
    s: &mut GameSession,
    word: &str,
    rest: usize,
    own: &str,
    n: usize,
    out: &mut dyn Write,
) -> std::io::Result<Said> {
    match word.to_lowercase().as_str() {
        "q" | "quit" | "exit" => {
            writeln!(out, "Game left at turn {}.", s.state().turn())?;
            return Ok(Said::Quit);
        }
        "h" | "hint" => match hint_waiting(s) {
            Ok(Some(a)) => writeln!(
                out,
                "Hint: play {}: {}, {}; from {:.1} s of analysis, not the computer's level.",
                picks_text(&a.turns[0].picks),
                plain::turn_words(&a.turns[0]),
                match plain::Answer::of(&a) {
                    plain::Answer::ProvedBest => "proved best",
                    plain::Answer::BestSoFar => "the best found so far",
                },
                a.elapsed.as_secs_f64()
            )?,
            Ok(None) => writeln!(out, "No hint: it is not your turn.")?,
            Err(e) => writeln!(out, "No hint: {e}")?,
        },
        "u" | "undo" => {
            if s.undo() {
                writeln!(out, "Taken back.")?;
                show(out, s)?;
            } else {
                writeln!(out, "Nothing to take back.")?;
            }
        }
        _ => {
            let Ok(k) = word.parse::<u32>() else {
                writeln!(
                    out,
                    "{word:?} is not a pit number ({own}) or a word (hint, undo, quit).{}",
                    dropped(rest)
                )?;
                return Ok(Said::Drop);
            };
            match s.pick(k) {
                Ok(p) => {
                    say_pick(out, &p, s.person(), n)?;
                    show(out, s)?;
                    if rest > 0 && !s.persons_turn() {
                        writeln!(
                            out,
                            "{} is over: the {} after pit {k} {} not played.",
                            if s.state().is_over() {
                                "The game"
                            } else {
                                "Your turn"
                            },
                            if rest == 1 { "word" } else { "words" },
                            if rest == 1 { "is" } else { "are" }
                        )?;
                        return Ok(Said::Drop);
                    }
                }
                Err(GameError::IllegalPick { reason, .. }) => {
                    writeln!(out, "Pit {k}: {reason}.{}", dropped(rest))?;
                    return Ok(Said::Drop);
                }
                Err(e) => {
                    writeln!(out, "{e}")?;
                    return Ok(Said::Drop);
                }
            }
        }
    }
    Ok(Said::Next)
}

/// The time a hint may take in `game play`, in seconds: the budget of the
/// analysis behind it (`game analyze`'s, with its table), whatever the
/// computer's level. Within it the analysis proves every turn of small
/// positions and ranks the rest by a deep estimate.
pub const HINT_SECONDS: f64 = 2.0;

/// A hint from [`GameSession::hint_analysis`] within [`HINT_SECONDS`], with
/// a progress line while it is looked for.
fn hint_waiting(s: &mut GameSession) -> Result<Option<Analysis>, GameError> {
    let st = s.state();
    let opts = GameSolveOptions {
        table_bytes: ANALYZE_TABLE,
        memory_cap: default_max_memory(),
        threads: rayon::current_num_threads() as u32,
        ..GameSolveOptions::default()
    }
    .fit_to(st.rules(), st.pits_per_side(), st.stones_in_pits());
    let latest = Mutex::new(String::new());
    let report = |a: &Analysis| *latest.lock().expect("not poisoned") = analysis_status(a);
    let status = |t: f64| {
        format!(
            "looking for a hint: {}{t:.1} s of {HINT_SECONDS:.0} s",
            latest.lock().expect("not poisoned")
        )
    };
    let never = AtomicBool::new(false);
    thinking(false, &status, |_| {
        s.hint_analysis(&opts, Budget::Seconds(HINT_SECONDS), &never, Some(&report))
    })
}

/// The progress line of the computer's turn: its agent, the depth of its
/// deepest pass so far and the picks searched, when its agent searches.
fn computer_status(
    spec: AgentSpec,
    watch: Option<&(Arc<SolveWatch>, WatchReading)>,
    seconds: f64,
) -> String {
    let Some((w, start)) = watch else {
        return format!("the computer ({spec}) is thinking: {seconds:.1} s");
    };
    let r = w.read();
    let depth = match (r.passes > start.passes, r.depth, spec) {
        (false, _, _) => String::new(),
        (true, None, _) => "searching to the end of the game | ".into(),
        (true, Some(d), AgentSpec::Mtdf(of)) => format!("depth {d} of {of} | "),
        (true, Some(d), AgentSpec::Budget(_)) => {
            format!("depth {d} of {BUDGET_DEPTH} | ")
        }
        (true, Some(d), _) => format!("depth {d} | "),
    };
    format!(
        "the computer ({spec}) is thinking: {depth}{} picks | {seconds:.1} s",
        picks_count(r.picks.saturating_sub(start.picks))
    )
}

/// The note that the words after a refused one are not played.
pub(super) fn dropped(rest: usize) -> String {
    match rest {
        0 => String::new(),
        1 => " The word after it is not played.".into(),
        k => format!(" The {k} words after it are not played."),
    }
}

/// What one word of the person's line asked for.
enum Said {
    /// The game goes on with the next word.
    Next,
    /// The rest of the line is dropped (an illegal pick, a word not known,
    /// or the turn passed to the computer).
    Drop,
    /// The person left the game.
    Quit,
}

/// The game loop, on any streams (tests drive it through the binary).
/// `rules` is the rules line as the person named them.
fn play_loop(
    s: &mut GameSession,
    rules: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let n = s.state().pits_per_side();
    let own = if s.state().rules().scope == mancala_sweep::Scope::Any {
        format!("1 to {}", 2 * n)
    } else {
        format!("1 to {n}")
    };
    writeln!(out, "Rules: {rules}")?;
    writeln!(
        out,
        "You play the bottom row against {} (pits {own}; your store is on the right).\n\
         Type a pit number (or a whole turn: several on a line), `hint`, `undo` or `quit`.",
        s.agent()
    )?;
    show(out, s)?;
    loop {
        if s.state().is_over() {
            break;
        }
        if !s.persons_turn() {
            let watch = s.computer_watch().map(|w| {
                let start = w.read();
                (w, start)
            });
            let spec = s.agent();
            let status = |t: f64| computer_status(spec, watch.as_ref(), t);
            let turn =
                thinking(false, &status, |_| s.computer_turn()).map_err(std::io::Error::other)?;
            for p in &turn {
                say_pick(out, p, s.person(), n)?;
            }
            show(out, s)?;
            continue;
        }
        write!(out, "Your pick ({own}): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        // A line is read word by word, as `puzzles play` reads it: picks
        // are played one at a time, so a whole turn (as a hint prints it)
        // can be typed at once, and the first pick that is not allowed
        // stops the line with its reason.
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let rest = words.len() - i - 1;
            match one_word(s, word, rest, &own, n, out)? {
                Said::Next => {}
                Said::Drop => break,
                Said::Quit => return Ok(()),
            }
        }
    }
    let st = s.state();
    let (you, them) = (st.store(s.person()), st.store(s.person().other()));
    let verdict = match you.cmp(&them) {
        std::cmp::Ordering::Greater => "You win",
        std::cmp::Ordering::Less => "The computer wins",
        std::cmp::Ordering::Equal => "A draw",
    };
    writeln!(
        out,
        "Game over: {verdict}, {you} to {them}{}.",
        if s.helped() { " (with hints)" } else { "" }
    )
}
