//! `serve`: the local web app. The library has the app; this reads the
//! flags, the extra collections and the cached endgame databases, binds,
//! prints the URL and runs.

use super::Outcome;
use crate::cli::args::ServeArgs;
use crate::cli::words::CliError;
use mancala_sweep::game::EndgameDb;
use mancala_sweep::web::{self, Config};

/// Run `serve` until the process is stopped.
pub fn run(args: &ServeArgs) -> Outcome {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::Input(format!(
            "--seconds {} is not allowed: give a number of seconds above 0",
            args.seconds
        )));
    }
    let mut collections = web::committed_collections().map_err(CliError::Input)?;
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
        endgames: if args.no_cache {
            Vec::new()
        } else {
            cached_endgames(max_memory)
        },
        ..Config::default()
    };
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
            while !crate::cli::signal::interrupted() {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        };
        tokio::select! {
            served = web::serve(listener, config) => served.map_err(CliError::Terminal)?,
            () = stopped => eprintln!("mancala-sweep web app: stopped"),
        }
        Ok(String::new())
    });
    // A search still running on a blocking thread has been told to stop; do
    // not wait for it longer than a moment.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    answer
}

/// The endgame databases `game analyze` keeps in the cache folder, each
/// that is there and whole (the server builds none: a build takes seconds
/// of both cores, and the first page's answer would wait for it), read
/// at start since the server reads no file after. Each is said in a line
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
