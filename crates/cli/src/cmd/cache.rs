//! The endgame databases the game commands read: `--endgame FILE`, and
//! the cache folder `game analyze` keeps (`$MANCALA_SWEEP_CACHE`; `game
//! cache` in game_cache.rs lists it, builds larger ones and empties it).

use crate::errors::{self, CliError};
use crate::progress::{thinking, Spinner};
use crate::signal::{interrupted, INTERRUPTED};
use mancala_sweep::game::endgame::BuildProgress;
pub(super) use mancala_sweep::game::endgame::Reading;
use mancala_sweep::game::{EndgameCache, EndgameDb, GameState};
use mancala_sweep::sweep::format_bytes;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The endgame database of `--endgame` for `state`'s rules and board size
/// under the memory cap `cap`, read as `reading` says; what it holds is
/// said on stderr unless `quiet`.
pub(super) fn read_endgame(
    path: Option<&std::path::Path>,
    state: &GameState,
    cap: u64,
    reading: Reading,
    quiet: bool,
) -> Result<Option<EndgameDb>, CliError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let t0 = std::time::Instant::now();
    let (rules, n) = (state.rules(), state.pits_per_side());
    let db = EndgameDb::load_as(path, rules, n, cap, reading)
        .map_err(|e| CliError::Input(format!("--endgame {e}{}", errors::game_hint(&e))))?;
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
pub(super) const CACHE_VAR: &str = "MANCALA_SWEEP_CACHE";

/// The folder of cached endgame databases: `$MANCALA_SWEEP_CACHE`, else
/// `$XDG_CACHE_HOME/mancala-sweep`, else `~/.cache/mancala-sweep`; none
/// when none of these is set.
pub(super) fn endgame_cache() -> Option<EndgameCache> {
    Some(EndgameCache::new(cache_dir()?))
}

/// The cache folder named as [`endgame_cache`] says (the kept games'
/// folder is in it too).
pub(super) fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    Some(match var(CACHE_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))?
            .join("mancala-sweep"),
    })
}

/// The cached endgame database of `state`'s rules and board size, when it
/// fits in `memory_cap` bytes (what the table leaves), read from the
/// cache folder, or built there first when `build` says so (once, on
/// `threads` threads, with a progress line; Ctrl-C keeps the layers
/// finished for the next run). A cache that cannot be read or written is said in a
/// line on stderr and the work goes on without it; none for rules
/// without a database (any-hole), without a cache folder, or for a
/// position the database holds whole (its own stones filled on demand
/// are the whole game). Read as `reading` says (a database built now is
/// mapped). With the database, true when it was built now (not read).
pub(super) fn cached_endgame(
    state: &GameState,
    memory_cap: u64,
    threads: usize,
    build: bool,
    reading: Reading,
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
    let bytes = EndgameDb::build_bytes_for(n, stones);
    if bytes > memory_cap {
        say(format!(
            "the cached endgame database ({}) does not fit beside the table within --max-memory; going on without it",
            format_bytes(bytes)
        ));
        return Ok(None);
    }
    match cache.load(rules, n, memory_cap, reading) {
        Ok(Some(db)) => {
            if let Some(best) = cache.best(rules, n).filter(|b| b.stones > db.stones()) {
                say(format!(
                    "reading {} of the {} stones of the cached endgame database {}: the rest does not fit beside the table within --max-memory",
                    db.stones(),
                    best.stones,
                    best.path.display()
                ));
            }
            return Ok(Some((db, false)));
        }
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
    // A cache folder that cannot take the file (a full disk, a folder
    // that cannot be written): the database is built for this run only.
    let packed = EndgameDb::packed_bytes_for(n, stones);
    if let Err(p) = crate::place::folder_room(cache.dir(), packed) {
        say(format!(
            "the endgame database cannot be kept in {} ({}): building it for this run only ({} of memory; --no-cache skips it)",
            cache.dir().display(),
            p.text(),
            format_bytes(EndgameDb::bytes_for(n, stones))
        ));
        return in_memory(state, stones, threads, memory_cap, quiet);
    }
    say(format!(
        "{} the endgame database of these rules on {n} pits a side, once (every position with at most {stones} stones, {} in {}; --no-cache skips it)",
        if path.exists() {
            "going on with what a stopped build kept: building"
        } else {
            "building"
        },
        format_bytes(bytes),
        path.display()
    ));
    build_cached(&cache, &path, state, stones, threads, memory_cap, quiet)
}

/// The cached database built into the cache folder at `path`, said as it
/// goes; built in memory for this run when the file cannot be kept, and
/// an error when Ctrl-C stopped it (what it finished is kept). A step of
/// its own: the checks before it decide whether to build at all.
fn build_cached(
    cache: &EndgameCache,
    path: &Path,
    state: &GameState,
    stones: u32,
    threads: usize,
    memory_cap: u64,
    quiet: bool,
) -> Result<Option<(EndgameDb, bool)>, CliError> {
    let say = |line: String| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    let t0 = std::time::Instant::now();
    let built = build_showing(cache, state, stones, threads, memory_cap, quiet);
    match built {
        Ok(Some(db)) => {
            say(format!(
                "endgame database built in {:.1} s",
                t0.elapsed().as_secs_f64()
            ));
            Ok(Some((db, true)))
        }
        Ok(None) if interrupted() => Err(CliError::Stopped(format!(
            "stopped while building the endgame database; what it finished is kept in {} and the next run goes on from it",
            path.display()
        ))),
        Ok(None) => Ok(None),
        Err(e) => {
            say(format!(
                "the endgame database could not be kept in {} ({e}): building it for this run only",
                cache.dir().display()
            ));
            in_memory(state, stones, threads, memory_cap, quiet)
        }
    }
}

/// The `stones`-stone database of `state`'s rules and board built in
/// memory for this run, when the cache cannot keep it: used, not thrown
/// away (a run without it proves far fewer turns). Ctrl-C stops the run.
fn in_memory(
    state: &GameState,
    stones: u32,
    threads: usize,
    memory_cap: u64,
    quiet: bool,
) -> Result<Option<(EndgameDb, bool)>, CliError> {
    let spinner = Spinner::new(quiet);
    let t0 = std::time::Instant::now();
    let (rules, n) = (state.rules(), state.pits_per_side());
    let built = EndgameDb::build(
        rules,
        n,
        stones,
        threads,
        memory_cap,
        &INTERRUPTED,
        |t, _| {
            spinner.set(format!(
                "building the endgame database: {t} of {stones} stones, {:.1} s",
                t0.elapsed().as_secs_f64()
            ))
        },
    );
    spinner.finish();
    match built {
        Ok(Some(db)) => Ok(Some((db, true))),
        Ok(None) if interrupted() => Err(CliError::Stopped(
            "stopped while building the endgame database".into(),
        )),
        Ok(None) | Err(_) => Ok(None),
    }
}

/// Builds the `stones`-stone database of `state`'s rules and board into
/// `cache` ([`EndgameCache::build`]) on `threads` threads within
/// `memory_cap`, a progress line saying how far it is unless `quiet`;
/// Ctrl-C stops it with the layers finished kept.
pub(super) fn build_showing(
    cache: &EndgameCache,
    state: &GameState,
    stones: u32,
    threads: usize,
    memory_cap: u64,
    quiet: bool,
) -> Result<Option<EndgameDb>, mancala_sweep::game::GameError> {
    let progress = BuildProgress::default();
    let (rules, n) = (state.rules(), state.pits_per_side());
    showing_build(&progress, n, quiet, false, || {
        cache.build(
            rules,
            n,
            stones,
            threads,
            memory_cap,
            &INTERRUPTED,
            &progress,
        )
    })
}

/// Runs `build`, which fills `progress`, while a line on stderr (unless
/// `quiet`) says four times a second how far it is: the share of the
/// positions done (the layers a file held count), the layer being built,
/// the time so far and a forecast, so that the last layers, a minute or
/// more each, never look like a hang. With `layers`, a line for each
/// layer finished too, as `game endgame` prints them.
pub(super) fn showing_build<T>(
    progress: &BuildProgress,
    n: usize,
    quiet: bool,
    layers: bool,
    build: impl FnOnce() -> T,
) -> T {
    let started = std::time::Instant::now();
    // The layers said so far; none before the first this run builds.
    let said = std::sync::Mutex::new(None::<u32>);
    let layer_lines = |spinner: &Spinner, upto: u32| {
        let mut said = said.lock().expect("not poisoned");
        let from = said.unwrap_or_else(|| {
            (0..upto)
                .find(|&t| EndgameDb::bytes_for(n, t) > progress.held())
                .unwrap_or(upto)
        });
        // The empty board counts with the first layer (its line said "0
        // stones: 0 positions" when the first look came before any layer).
        for t in from.max(1)..upto {
            let positions = EndgameDb::bytes_for(n, t)
                - t.checked_sub(1).map_or(0, |s| EndgameDb::bytes_for(n, s));
            spinner.println(&format!(
                "  {t:>3} stones: {positions} positions, {:.1} s",
                started.elapsed().as_secs_f64()
            ));
        }
        *said = Some(from.max(upto));
    };
    let status = |secs: f64| build_status(progress, secs);
    thinking(quiet, &status, |spinner| {
        let done = AtomicBool::new(false);
        let out = std::thread::scope(|scope| {
            if layers {
                scope.spawn(|| {
                    while !done.load(Ordering::Relaxed) {
                        if progress.total() > 0 {
                            layer_lines(spinner, progress.layer());
                        }
                        std::thread::park_timeout(std::time::Duration::from_millis(250));
                    }
                });
            }
            let out = build();
            done.store(true, Ordering::Relaxed);
            out
        });
        if layers && progress.total() > 0 && progress.done() >= progress.total() {
            layer_lines(spinner, progress.layer() + 1);
        }
        out
    })
}

/// The progress line of a build.
fn build_status(progress: &BuildProgress, secs: f64) -> String {
    if progress.total() == 0 {
        return format!(
            "building the endgame database: reading what is there, {}",
            duration(secs)
        );
    }
    if progress.done() >= progress.total() {
        return format!(
            "building the endgame database: every position done, writing the file, {} so far",
            duration(secs)
        );
    }
    let left = progress
        .seconds_left(secs)
        .map_or(String::new(), |s| format!(", about {} left", duration(s)));
    format!(
        "building the endgame database: {:.0}% done (now the positions of {} stones), {} so far{left}",
        (100.0 * progress.share()).floor(),
        progress.layer(),
        duration(secs)
    )
}

/// Seconds as a person reads them: "42 s", "3 min 5 s", "1 h 20 min".
pub(super) fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=89 => format!("{s} s"),
        90..=5399 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s / 60 % 60),
    }
}
