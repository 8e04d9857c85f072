//! `serve`: the local web app. The library has the app; this reads the
//! flags, the extra collections and the cached endgame databases, binds,
//! prints the URL and runs.

use super::Outcome;
use crate::args::ServeArgs;
use crate::errors::CliError;
use mancala_sweep::game::EndgameDb;
use mancala_sweep::server::{self, Config, Endgames};

/// Run `serve` until the process is stopped, answering with `pages` (the
/// binary embeds them).
pub fn run(args: &ServeArgs, pages: server::Pages) -> Outcome {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::Input(format!(
            "--seconds {} is not allowed: give a number of seconds above 0",
            args.seconds
        )));
    }
    let mut collections = server::committed_collections().map_err(CliError::Input)?;
    for path in &args.puzzles {
        collections.push(mancala_sweep::puzzle::load(path)?);
    }
    let max_memory = args.max_memory.unwrap_or(1 << 30);
    let config = Config {
        max_memory,
        seconds: args.seconds,
        max_solves: usize::from(args.max_solves),
        max_games: usize::from(args.max_games),
        game_idle_seconds: u64::from(args.game_idle) * 60,
        collections,
        pages,
        endgames: Endgames::new(if args.no_cache {
            Vec::new()
        } else {
            cached_endgames(max_memory)
        }),
        ..Config::default()
    };
    let builds = (!args.no_cache)
        .then(|| build_in_background(config.endgames.clone(), max_memory))
        .flatten();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Terminal)?;
    let answer = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .map_err(|e| {
                CliError::Input(format!("cannot listen on {}:{}: {e}", args.bind, args.port))
            })?;
        let addr = listener.local_addr().map_err(CliError::Terminal)?;
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: listening on {} lets other machines on the network use this server",
                args.bind
            );
        }
        let url = format!("http://{addr}/");
        println!("mancala-sweep web app: {url}");
        if args.open {
            open(&url);
        }
        // Ctrl-C, SIGTERM or SIGHUP stop the server: requests in flight are
        // dropped (their searches see the hang-up and stop), and the exit
        // status is the signal's.
        let stopped = async {
            while !crate::signal::interrupted() {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        };
        tokio::select! {
            served = server::serve(listener, config) => served.map_err(CliError::Terminal)?,
            () = stopped => eprintln!("mancala-sweep web app: stopped"),
        }
        Ok(String::new())
    });
    // A search still running on a blocking thread has been told to stop; do
    // not wait for it longer than a moment.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    // A build in the background stops and keeps what it finished.
    if let Some(b) = builds {
        let _ = b.join();
    }
    answer
}

/// The endgame databases in the cache folder, each that is there, read
/// at start (the first page's answer waits for no build: larger ones are
/// built in the background, [`build_in_background`]). Each is said in a line
/// on stderr; one that cannot be read is said and left out. At most
/// `max_memory` bytes each, the most one analysis may hold.
fn cached_endgames(max_memory: u64) -> Vec<EndgameDb> {
    use mancala_sweep::game::endgame::Reading;
    let Some(cache) = super::cache::endgame_cache() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    // Each rule set and board of the files there, the one with the most
    // stones (the others are its first layers).
    let mut of: Vec<_> = cache
        .list()
        .into_iter()
        .map(|f| (f.rules, f.pits_per_side))
        .collect();
    of.dedup();
    for (rules, n) in of {
        let Some(best) = cache.best(rules, n) else {
            continue;
        };
        let path = best.path.display();
        match cache.load(rules, n, max_memory, Reading::Mapped) {
            Ok(Some(db)) => {
                eprintln!(
                    "endgame database for {rules} on {n} pits a side: every position with at most {} stones (read from {path})",
                    db.stones(),
                );
                found.push(db);
            }
            Ok(None) => {}
            Err(e) => eprintln!("the cached endgame database {path} is left out: {e}"),
        }
    }
    found
}

/// Builds, at the lowest priority, the larger endgame databases of the
/// boards the pages open with (GamePigeon's capture and avalanche modes,
/// 6 pits a side), one after the other, as `game play` does for its
/// game, and hands each to the server as it is finished: a new user's
/// server proves more of every answer within minutes, without a set-up
/// step. Each fits `max_memory` beside an analysis's table, as the pages'
/// analyses hold it; progress and the end are said on stderr. It stops
/// at the signal that stops the server, keeping what it finished: join
/// the thread before exiting.
fn build_in_background(endgames: Endgames, max_memory: u64) -> Option<std::thread::JoinHandle<()>> {
    use super::background::{Builder, Progress};
    use mancala_sweep::rules::Preset;
    let room = max_memory.saturating_sub(mancala_sweep::api::ANALYZE_TABLE);
    let spawned = std::thread::Builder::new()
        .name("endgame builds".into())
        .spawn(move || {
            for preset in [Preset::Kalah, Preset::Avalanche] {
                if crate::signal::interrupted() {
                    break;
                }
                let rules = preset.rules();
                let Some(mut b) = Builder::start(
                    rules,
                    6,
                    48,
                    std::thread::available_parallelism().map_or(1, |t| t.get()),
                    room,
                    mancala_sweep::sweep::default_max_memory(),
                ) else {
                    continue;
                };
                // A line a minute while it builds, so the log shows it works.
                let mut next_line = std::time::Instant::now();
                while !crate::signal::interrupted() {
                    match b.progress() {
                        Progress::Building { stones, share, left } => {
                            if std::time::Instant::now() >= next_line {
                                next_line += std::time::Duration::from_secs(60);
                                let left = left.map_or(String::new(), |s| {
                                    format!(", about {} left", super::cache::duration(s))
                                });
                                eprintln!(
                                    "building the {stones}-stone endgame database for {preset} in the background: {share}% done{left}"
                                );
                            }
                            std::thread::sleep(std::time::Duration::from_secs(1));
                        }
                        Progress::Ready(db) => {
                            eprintln!(
                                "endgame database for {preset} on 6 pits a side: every position with at most {} stones (built in the background; analyses use it from now on)",
                                db.stones()
                            );
                            endgames.add(db);
                        }
                        Progress::Failed(e) => {
                            eprintln!("the endgame database for {preset} could not be built in the background: {e}");
                            break;
                        }
                        Progress::Over => break,
                    }
                }
            }
        });
    spawned
        .map_err(|e| eprintln!("no endgame database is built in the background: {e}"))
        .ok()
}

/// Open `url` in the default browser if an opener exists; say so if not.
fn open(url: &str) {
    // `open` is the macOS opener; on Debian the same name is openvt.
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("--open: could not run {opener}; open {url} by hand");
    }
}
