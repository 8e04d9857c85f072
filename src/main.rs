//! The `mancala-sweep` binary: parse the flags, call the library, print, and
//! map errors to exit codes (2 for bad input, 1 for a failed run).

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_sweep::atlas;
use mancala_sweep::config::{self, RuleOptions};
use mancala_sweep::find::{FindOptions, FindProgress};
use mancala_sweep::puzzle;
use mancala_sweep::report::{self, FindJson, ReplayJson, SolveJson};
use mancala_sweep::rules::{Capture, Preset, Scope, Switch};
use mancala_sweep::sweep::{self, Listing, Phase, Progress, SolveOptions};
use mancala_sweep::{turn, Error};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How many stones can you put into your store in one turn? Exact answers
/// for Mancala free-turn chains.
#[derive(Parser, Debug)]
#[command(name = "mancala-sweep", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prove the best score this turn, count the optimal pick sequences and list them.
    Solve(SolveArgs),
    /// Play a list of picks and show the board after each one.
    Replay(ReplayArgs),
    /// Search for a sweep heuristically, on boards too big for `solve`.
    Find(FindArgs),
    /// The best first turn for every board size and rule set of a grid, with tables and heat maps.
    Atlas(AtlasArgs),
    /// Make, check, show and play "reach the most this turn" puzzles.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
}

/// The rule flags.
#[derive(Args, Debug)]
struct RuleSetArgs {
    /// Rule preset [default: avalanche].
    #[arg(long, value_enum)]
    rules: Option<Preset>,
    /// Which pits may be picked (overrides the preset).
    #[arg(long, value_enum)]
    scope: Option<Scope>,
    /// Relay sowing from a non-empty pit (overrides the preset).
    #[arg(long, value_enum)]
    relay: Option<Switch>,
    /// Capture rule (overrides the preset).
    #[arg(long, value_enum)]
    capture: Option<Capture>,
}

/// Rule and board flags shared by every command that takes a position.
#[derive(Args, Debug)]
struct RuleArgs {
    #[command(flatten)]
    set: RuleSetArgs,
    /// Pits a side, 1 to 16 [default: 6].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=16), conflicts_with = "board", allow_negative_numbers = true)]
    pits: Option<u8>,
    /// Stones a pit at the start [default: 4].
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(0..=255), conflicts_with = "board", allow_negative_numbers = true)]
    stones: Option<u32>,
    /// A position: "TOP / OPP_STORE STORE / BOTTOM", rows as you see them (see the README).
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    board: Option<String>,
}

impl RuleArgs {
    fn options(&self) -> RuleOptions {
        RuleOptions {
            preset: self.set.rules,
            scope: self.set.scope,
            relay: self.set.relay.map(bool::from),
            capture: self.set.capture,
            pits: self.pits.map(usize::from),
            stones: self.stones,
            board: self.board.clone(),
        }
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// List at most N optimal sequences (0 skips the listing).
    #[arg(long, value_name = "N", default_value_t = 10, conflicts_with = "all", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..))]
    limit: u32,
    /// List every optimal sequence.
    #[arg(long)]
    all: bool,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), allow_negative_numbers = true)]
    threads: Option<u16>,
    /// Stop cleanly before the search holds more than this, e.g. 800M or 4G [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = config::parse_bytes)]
    max_memory: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The progress bar of a long search: hidden for the first second, and
/// never drawn when stderr is not a terminal or with `--quiet`.
struct Bar {
    bar: ProgressBar,
    started: Instant,
    shown: std::sync::atomic::AtomicBool,
    enabled: bool,
}

impl Bar {
    fn new(enabled: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] store {pos}/{len} {msg} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar {
            bar,
            started: Instant::now(),
            shown: false.into(),
            enabled: enabled && std::io::stderr().is_terminal(),
        }
    }

    /// Show `store` of `max_store` with a prefix and a message, once the
    /// run has lasted a second. `message` gets the positions per second.
    fn show(&self, prefix: &str, store: usize, max_store: usize, message: impl Fn(f64) -> String) {
        use std::sync::atomic::Ordering;
        if !self.enabled {
            return;
        }
        let elapsed = self.started.elapsed();
        if !self.shown.load(Ordering::Relaxed) {
            if elapsed < Duration::from_secs(1) {
                return;
            }
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.store(true, Ordering::Relaxed);
        }
        self.bar.set_prefix(prefix.to_string());
        self.bar.set_length(max_store as u64);
        self.bar.set_position(store as u64);
        self.bar
            .set_message(message(elapsed.as_secs_f64().max(1e-9)));
    }

    fn solve(&self, p: &Progress) {
        let prefix = match p.phase {
            Phase::Forward => "counting",
            Phase::Backward => "listing ",
        };
        self.show(prefix, p.store, p.max_store, |secs| {
            format!(
                "| {} positions | {:.1}M/s | {}",
                p.positions,
                p.positions as f64 / secs / 1e6,
                config::format_bytes(p.memory)
            )
        });
    }

    fn find(&self, p: &FindProgress) {
        let prefix = format!("round {} (beam {})", p.round + 1, p.beam);
        self.show(&prefix, p.store, p.max_store, |secs| {
            format!(
                "| best {} | {} positions | {:.2}M/s",
                p.best,
                p.positions,
                p.positions as f64 / secs / 1e6
            )
        });
    }
}

#[derive(Args, Debug)]
struct FindArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Keep at most W positions per store bucket, in one round [default: start at 1024 and double the beam each round while time is left].
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u32).range(1..=100_000_000), allow_negative_numbers = true)]
    beam: Option<u32>,
    /// Wall-clock budget in seconds; the best line so far is printed when it runs out.
    #[arg(long, value_name = "T", default_value_t = 10.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Seed for breaking ties between equal scores.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), allow_negative_numbers = true)]
    threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct AtlasArgs {
    /// Pits a side: N, A-B or A..=B, within 1 to 16.
    #[arg(long, value_name = "RANGE", default_value = "1..=8", value_parser = |t: &str| atlas::parse_range(t, 1..=16).map(Span))]
    pits: Span,
    /// Stones a pit: N, A-B or A..=B, within 1 to 40.
    #[arg(long, value_name = "RANGE", default_value = "1..=6", value_parser = |t: &str| atlas::parse_range(t, 1..=40).map(Span))]
    stones: Span,
    /// Rule presets to include, comma-separated [default: avalanche,any-hole,kalah].
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "all_rules")]
    rules: Vec<Preset>,
    /// All twelve rule sets: scope own and any, relay on and off, capture none, kalah and empty.
    #[arg(long)]
    all_rules: bool,
    /// Seconds a cell may take to solve exhaustively before `find` takes over (and again for `find`).
    #[arg(long, value_name = "T", default_value_t = 10.0, value_parser = parse_seconds)]
    budget_seconds: f64,
    /// Memory guard of each exhaustive try, e.g. 800M or 4G [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = config::parse_bytes)]
    max_memory: Option<u64>,
    /// Output directory; a run with the same directory resumes.
    #[arg(long, value_name = "DIR", default_value = "atlas")]
    out: std::path::PathBuf,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), allow_negative_numbers = true)]
    threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Make a collection and write it to a JSON file.
    Generate(GenerateArgs),
    /// Re-solve every puzzle of a file and report any mismatch.
    Check(CheckArgs),
    /// Show one puzzle: board, goal, grade (and the solution).
    Show(ShowArgs),
    /// Play a puzzle in the terminal.
    Play(PlayArgs),
}

#[derive(Args, Debug)]
struct GenerateArgs {
    #[command(flatten)]
    rules: RuleSetArgs,
    /// Sources, comma-separated; the count is shared between them.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "start,line,game"
    )]
    source: Vec<puzzle::Source>,
    /// Puzzles wanted, 1 to 10000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000), allow_negative_numbers = true)]
    count: u32,
    /// Seed of the games and choices.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Output file (written whole, through a temporary file).
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// Collection name [default: the rule set's name].
    #[arg(long)]
    name: Option<String>,
    /// Seconds one exhaustive solve may take before the position is passed over.
    #[arg(long, value_name = "T", default_value_t = 2.0, value_parser = parse_seconds)]
    seconds: f64,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// A puzzle collection (JSON).
    file: std::path::PathBuf,
    /// Seconds one solve may take.
    #[arg(long, value_name = "T", default_value_t = 120.0, value_parser = parse_seconds)]
    seconds: f64,
}

#[derive(Args, Debug)]
struct ShowArgs {
    /// A puzzle collection (JSON).
    file: std::path::PathBuf,
    /// The puzzle's id.
    id: String,
    /// Also show the solution, pick by pick.
    #[arg(long)]
    solution: bool,
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// A puzzle collection (JSON).
    file: std::path::PathBuf,
    /// The puzzle's id [default: the first].
    id: Option<String>,
}

fn rule_set(a: &RuleSetArgs) -> mancala_sweep::Rules {
    let base = a.rules.unwrap_or(config::DEFAULT_PRESET).rules();
    mancala_sweep::Rules {
        scope: a.scope.unwrap_or(base.scope),
        relay: a.relay.map_or(base.relay, bool::from),
        capture: a.capture.unwrap_or(base.capture),
    }
}

fn puzzles_generate(args: &GenerateArgs) -> Result<String, Error> {
    let rules = rule_set(&args.rules);
    let bar = counter_bar(
        args.count as u64,
        "puzzles [{bar:30}] {pos}/{len} {msg} {elapsed}",
        args.quiet,
    );
    let progress = |found: usize, _: usize, source: puzzle::Source| {
        bar.set_position(found as u64);
        bar.set_message(format!("| source {}", source.name()));
    };
    let cache = puzzle::cache_from(&args.out, rules)?;
    let opts = puzzle::GenerateOptions {
        rules,
        sources: args.source.clone(),
        count: args.count as usize,
        seed: args.seed,
        seconds: args.seconds,
        stop: &INTERRUPTED,
        progress: Some(&progress),
        cache: &cache,
    };
    let made = puzzle::generate(&opts);
    bar.finish_and_clear();
    let made = made?;
    let name = args.name.clone().unwrap_or_else(|| atlas::slug(rules));
    let command: Vec<String> = std::env::args().skip(1).collect();
    let c = puzzle::collection(
        &name,
        rules,
        &format!("mancala-sweep {}", command.join(" ")),
        made,
    );
    let json = serde_json::to_string_pretty(&c).expect("serializable") + "\n";
    atlas::write_atomic(&args.out, json.as_bytes())?;
    if !c.complete {
        return Err(Error::Stopped(format!(
            "the {} puzzles found so far are saved in {} (marked \"complete\": false); run the same command again to resume",
            c.puzzles.len(),
            args.out.display()
        )));
    }
    let mut grades = [0usize; 5];
    for p in &c.puzzles {
        grades[p.difficulty as usize - 1] += 1;
    }
    Ok(format!(
        "{} puzzles ({} unique) written to {}; grades 1-5: {:?}\n",
        c.puzzles.len(),
        c.puzzles
            .iter()
            .filter(|p| p.solutions_count == "1")
            .count(),
        args.out.display(),
        grades
    ))
}

fn puzzles_check(args: &CheckArgs) -> Result<String, Error> {
    let c = puzzle::load(&args.file)?;
    let problems = puzzle::check(&c, args.seconds, &INTERRUPTED)?;
    if problems.is_empty() {
        Ok(format!(
            "{}: all {} puzzles check out (goal, solution, count, uniqueness, grade, id)\n",
            args.file.display(),
            c.puzzles.len()
        ))
    } else {
        Err(Error::Mismatch(problems.join("; ")))
    }
}

fn find_puzzle<'a>(
    c: &'a puzzle::Collection,
    id: &str,
    file: &std::path::Path,
) -> Result<&'a puzzle::Puzzle, Error> {
    c.puzzles.iter().find(|p| p.id == id).ok_or_else(|| Error::File {
        path: file.display().to_string(),
        reason: format!("no puzzle {id:?} in it; `puzzles check` lists the file's size, and ids look like {:?}", c.puzzles.first().map_or("start-0123456789ab", |p| p.id.as_str())),
    })
}

fn puzzles_show(args: &ShowArgs) -> Result<String, Error> {
    let c = puzzle::load(&args.file)?;
    let p = find_puzzle(&c, &args.id, &args.file)?;
    let board = puzzle::position(p)?;
    let mut out = report::puzzle_text(&c, p, &board);
    if args.solution {
        let picks: Vec<u32> = p.solution.iter().map(|&x| x as u32).collect();
        let states = turn::replay(board, c.rules, &picks)?;
        out.push_str(&format!(
            "\nSolution: {}\n\n",
            report::line_text(&p.solution)
        ));
        out.push_str(&report::steps_text(&states));
    }
    Ok(out)
}

fn puzzles_play(args: &PlayArgs) -> Result<String, Error> {
    let c = puzzle::load(&args.file)?;
    let p = match &args.id {
        Some(id) => find_puzzle(&c, id, &args.file)?,
        None => c.puzzles.first().ok_or_else(|| Error::File {
            path: args.file.display().to_string(),
            reason: "it holds no puzzles".into(),
        })?,
    };
    let board = puzzle::position(p)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    mancala_sweep::play::play(&c, p, board, &mut input, &mut output).map_err(|e| Error::File {
        path: "terminal".into(),
        reason: e.to_string(),
    })?;
    Ok(String::new())
}

/// A progress bar that counts items (cells, puzzles) on stderr, drawn only
/// when stderr is a terminal and not `--quiet`.
fn counter_bar(len: u64, template: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    if !quiet && std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// `--threads`, or one per core.
fn worker_threads(flag: Option<u16>) -> usize {
    flag.map_or_else(rayon::current_num_threads, usize::from)
}

/// The numbers of a `--pits` or `--stones` range.
#[derive(Clone, Debug)]
struct Span(Vec<u32>);

fn atlas(args: &AtlasArgs) -> Result<String, Error> {
    let grid = atlas::Grid {
        pits: args.pits.0.iter().map(|&p| p as usize).collect(),
        stones: args.stones.0.clone(),
        rule_sets: if args.all_rules {
            atlas::all_rule_sets()
        } else if args.rules.is_empty() {
            Preset::ALL.iter().map(|p| p.rules()).collect()
        } else {
            args.rules.iter().map(|p| p.rules()).collect()
        },
    };
    let budget = atlas::CellBudget {
        seconds: args.budget_seconds,
        max_memory: args.max_memory.unwrap_or_else(config::default_max_memory),
        threads: args.threads.map_or(0, usize::from),
    };
    let total = grid.cells().len() as u64;
    let bar = counter_bar(
        total,
        "atlas [{bar:30}] {pos}/{len} cells {msg} {elapsed}",
        args.quiet,
    );
    let on_cell = |done: usize, _: usize, c: &atlas::Cell| {
        bar.set_position(done as u64);
        bar.set_message(format!(
            "| last: {} 2x{}x{} {}",
            atlas::slug(c.rules),
            c.pits,
            c.stones,
            atlas::cell_text(Some(c))
        ));
    };
    let result = atlas::run(&grid, &args.out, budget, &INTERRUPTED, &on_cell);
    bar.finish_and_clear();
    let (cells, skipped) = result?;
    Ok(format!(
        "{}; written to {}\n",
        atlas::summary(&cells, grid.cells().len(), skipped),
        args.out.display()
    ))
}

/// `--seconds`: a positive number of seconds, at most a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "{text:?} is not a time budget: give seconds, more than 0 and at most 86400"
        )),
    }
}

fn find(args: &FindArgs) -> Result<String, Error> {
    let (rules, board) = args.rules.options().resolve()?;
    let threads = worker_threads(args.threads);
    let bar = Bar::new(!args.quiet);
    let report = |p: &FindProgress| bar.find(p);
    let opts = FindOptions {
        beam: args
            .beam
            .map_or(FindOptions::default().beam, |w| w as usize),
        widen: args.beam.is_none(),
        seconds: args.seconds,
        seed: args.seed,
        threads,
        progress: Some(&report),
        cancel: Some(&INTERRUPTED),
        ..Default::default()
    };
    let found = mancala_sweep::find::find(&board, rules, &opts);
    bar.bar.finish_and_clear();
    let found = found?;
    let text = if args.json {
        let doc = FindJson::new(&found, args.seed, threads);
        serde_json::to_string(&doc).expect("serializable") + "\n"
    } else {
        report::find_text(&found, threads)
    };
    Ok(text)
}

/// Raised by the first Ctrl-C; the searches poll it and stop cleanly.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit status after Ctrl-C, as shells report SIGINT (128 + 2).
const EXIT_INTERRUPTED: u8 = 130;

/// The first Ctrl-C asks the search to stop and report what it has; a
/// second one exits at once.
fn catch_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
}

#[derive(Args, Debug)]
struct ReplayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    /// Pit numbers to pick, in order (1..2n; see the README for the numbering).
    #[arg(value_name = "PICK", required = true, value_parser = parse_pick, allow_negative_numbers = true)]
    picks: Vec<u32>,
}

/// A pick as typed: a pit number. Whether the pit exists is checked later,
/// against the board, so that the error can name the pick's place.
fn parse_pick(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|_| {
        format!("{text:?} is not a pit number: pits are numbered 1 to 2n (1 to 12 on a 2x6 board)")
    })
}

fn solve(args: &SolveArgs) -> Result<String, Error> {
    let (rules, board) = args.rules.options().resolve()?;
    let threads = worker_threads(args.threads);
    let bar = Bar::new(!args.quiet);
    let report = |p: &Progress| bar.solve(p);
    let opts = SolveOptions {
        threads,
        listing: if args.all {
            Listing::All
        } else {
            Listing::Limit(args.limit as usize)
        },
        max_memory: args.max_memory.unwrap_or_else(config::default_max_memory),
        progress: Some(&report),
        cancel: Some(&INTERRUPTED),
    };
    let solution = sweep::solve(&board, rules, &opts);
    bar.bar.finish_and_clear();
    let solution = solution?;
    if args.json {
        let doc = SolveJson::new(&solution, threads);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    let first = match solution.optimal.first() {
        Some(line) => {
            let picks: Vec<u32> = line.iter().map(|p| p.number() as u32).collect();
            Some(turn::replay(board, rules, &picks)?)
        }
        None => None,
    };
    Ok(report::solve_text(&solution, threads, first.as_deref()))
}

fn replay(args: &ReplayArgs) -> Result<String, Error> {
    let (rules, board) = args.rules.options().resolve()?;
    let states = turn::replay(board, rules, &args.picks)?;
    if args.json {
        let doc = ReplayJson::new(rules, &states);
        return Ok(serde_json::to_string(&doc).expect("serializable") + "\n");
    }
    Ok(report::replay_text(rules, &states))
}

/// A clap error on one line: the message and the allowed values, without the
/// usage block.
fn one_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    parts.join(" ")
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{}", one_line(&e));
            return ExitCode::from(2);
        }
    };
    catch_ctrl_c();
    let result = match &cli.command {
        Command::Solve(a) => solve(a),
        Command::Replay(a) => replay(a),
        Command::Find(a) => find(a),
        Command::Atlas(a) => atlas(a),
        Command::Puzzles(PuzzlesCommand::Generate(a)) => puzzles_generate(a),
        Command::Puzzles(PuzzlesCommand::Check(a)) => puzzles_check(a),
        Command::Puzzles(PuzzlesCommand::Show(a)) => puzzles_show(a),
        Command::Puzzles(PuzzlesCommand::Play(a)) => puzzles_play(a),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            if INTERRUPTED.load(Ordering::SeqCst) {
                ExitCode::from(EXIT_INTERRUPTED)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e @ (Error::Interrupted { .. } | Error::Stopped(_))) => {
            eprintln!("{e}");
            ExitCode::from(EXIT_INTERRUPTED)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_input() { 2 } else { 1 })
        }
    }
}
