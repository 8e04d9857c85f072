//! `game cache list|build|remove`: the endgame databases of the cache
//! folder ([`mancala_sweep::game::EndgameCache`]) listed, built larger and
//! removed.

use super::cache::{build_showing, endgame_cache, CACHE_VAR};
use super::Outcome;
use crate::args::{CacheBuildArgs, CacheRemoveArgs};
use crate::errors::CliError;
use crate::signal::interrupted;
use mancala_sweep::game::endgame::CachedDb;
use mancala_sweep::game::{EndgameCache, EndgameDb};
use mancala_sweep::sweep::{default_max_memory, format_bytes};

/// The cache folder, or the one line saying none can be named.
fn the_cache() -> Result<EndgameCache, CliError> {
    endgame_cache().ok_or_else(|| {
        CliError::Input(format!(
            "no cache folder: set {CACHE_VAR} (or HOME) to the folder to keep endgame databases in"
        ))
    })
}

/// One line of a listing: what a cached file holds.
fn row(f: &CachedDb) -> String {
    let preset = mancala_sweep::rules::Preset::ALL
        .into_iter()
        .find(|p| p.rules() == f.rules);
    let state = if f.complete() {
        String::new()
    } else {
        // The command that goes on, with the rules as flags that name
        // them (a preset's name, else the three rule flags).
        let rules = match preset {
            Some(p) => format!("--rules {p}"),
            None => format!(
                "--scope own --relay {} --capture {}",
                if f.rules.relay { "on" } else { "off" },
                f.rules.capture
            ),
        };
        format!(
            " (built up to {} of {} stones: `game cache build {rules} --pits {} --up-to {}` goes on)",
            f.stones, f.target, f.pits_per_side, f.target
        )
    };
    format!(
        "{:<10} {:>4} {:>6} {:>10}  {}{state}",
        preset.map_or("custom".to_string(), |p| p.to_string()),
        f.pits_per_side,
        f.stones,
        format_bytes(f.bytes),
        f.rules
    )
}

/// Run `game cache list`.
pub fn list() -> Outcome {
    let cache = the_cache()?;
    let files = cache.list();
    let mut out = format!("{}\n", cache.dir().display());
    if files.is_empty() {
        out.push_str("no endgame databases yet (`game analyze` builds a small one the first time; `game cache build` a larger one)\n");
        return Ok(out);
    }
    out.push_str("rules      pits stones       size  rule flags\n");
    for f in &files {
        out.push_str(&row(f));
        out.push('\n');
    }
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    out.push_str(&format!("{} in all\n", format_bytes(total)));
    Ok(out)
}

/// Run `game cache build`.
pub fn build(args: &CacheBuildArgs) -> Outcome {
    super::game::no_start_position(&args.db.rules, "game cache build")?;
    let cache = the_cache()?;
    let state = super::game::start(&args.db.rules)?;
    let (rules, n) = (state.rules(), state.pits_per_side());
    let max_memory = args.db.max_memory.unwrap_or_else(default_max_memory);
    let Some(stones) = args.up_to.or_else(|| EndgameCache::setup_stones(rules, n)) else {
        return Err(CliError::Input(format!(
            "--rules: {rules} has no endgame database (scope any has cycles); give scope own rules"
        )));
    };
    EndgameDb::check_build(rules, n, stones, max_memory)?;
    let quiet = args.db.quiet.quiet;
    let threads = args.db.threads.count();
    let path = cache.path_for(rules, n, stones).expect("scope own");
    if !quiet {
        eprintln!(
            "building the endgame database of {rules} on {n} pits a side up to {stones} stones (at most {} on disk, {} of memory while it builds) in {} on {threads} threads; Ctrl-C keeps the layers finished",
            format_bytes(EndgameDb::packed_bytes_for(n, stones)),
            format_bytes(EndgameDb::build_bytes_for(n, stones)),
            path.display()
        );
    }
    let t0 = std::time::Instant::now();
    let built = build_showing(&cache, &state, stones, threads, max_memory, quiet);
    let seconds = t0.elapsed().as_secs_f64();
    match built? {
        Some(db) => {
            let mut out = format!(
                "{}: every position with at most {} stones in the pits of {n} pits a side, {} ({seconds:.1} s)\n",
                path.display(),
                db.stones(),
                format_bytes(db.bytes())
            );
            for gone in cache.prune(rules, n, stones)? {
                out.push_str(&format!(
                    "removed {} (this one holds its {} stones)\n",
                    gone.path.display(),
                    gone.stones
                ));
            }
            Ok(out)
        }
        None if interrupted() => Err(CliError::Stopped(format!(
            "stopped after {seconds:.1} s; the layers finished are kept in {} and the same command goes on from them",
            path.display()
        ))),
        None => Err(CliError::Input(format!(
            "--rules: {rules} has no endgame database; give scope own rules"
        ))),
    }
}

/// Run `game cache remove`.
pub fn remove(args: &CacheRemoveArgs) -> Outcome {
    let cache = the_cache()?;
    let of = if args.all {
        None
    } else {
        super::game::no_start_position(&args.rules, "game cache remove")?;
        let state = super::game::start(&args.rules)?;
        Some((state.rules(), state.pits_per_side()))
    };
    let mut out = String::new();
    for f in cache.list() {
        if of.is_some_and(|o| o != (f.rules, f.pits_per_side)) {
            continue;
        }
        std::fs::remove_file(&f.path).map_err(|e| {
            CliError::Input(format!("{}: could not be removed ({e})", f.path.display()))
        })?;
        out.push_str(&format!(
            "removed {} ({})\n",
            f.path.display(),
            format_bytes(f.bytes)
        ));
    }
    if out.is_empty() {
        out = format!(
            "no endgame database to remove in {}\n",
            cache.dir().display()
        );
    }
    Ok(out)
}
