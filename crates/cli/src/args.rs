//! The flags, as clap structs: as close to what is typed as possible. The
//! commands in [`super::cmd`] turn them into the library's validated
//! options; nothing below the command line sees a flag.
//!
//! The value enums mirror the library's ([`Preset`], [`Scope`],
//! [`Capture`], puzzle [`Source`]) so that the rules layer does not depend
//! on clap; their doc comments are the help text.

use clap::{Arg, Args, Parser, Subcommand, ValueEnum};
use mancala_sweep::puzzle::Source;
use mancala_sweep::rules::RuleOptions;
use mancala_sweep::sweep::memory::parse_bytes;
use mancala_sweep::{Capture, Preset, Scope};
use std::path::PathBuf;

mod game;
pub use game::{
    BackgroundBuild, BookBuildArgs, BookCommand, BookShowArgs, CacheBuildArgs, CacheCommand,
    CacheRemoveArgs, FirstArg, GameAnalyzeArgs, GameCommand, GameEndgameArgs, GameMatchArgs,
    GamePlayArgs, GameReviewArgs, GameSolveArgs, SolverArgs,
};

/// Mancala (Kalah, GamePigeon's avalanche and capture modes): which pits to
/// tap for the game (`game analyze`), the most stones one turn can take,
/// proved (`solve`), whole games against the computer, puzzles, an atlas of
/// board sizes, and a local web app (`serve`).
#[derive(Parser, Debug)]
#[command(name = "mancala-sweep", version)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
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
    /// Whole games: which pits to tap (`game analyze`), the exact value of a position, a game against the computer, matches between agents, endgame databases and opening books. Rules default to kalah here.
    #[command(subcommand)]
    Game(GameCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) to stdout, e.g. `mancala-sweep man > mancala-sweep.1`; `--out DIR` writes every command's page.
    Man(ManArgs),
    /// Start the local web app (Analyze, Solve, Puzzles, Play, Atlas) and its JSON API in a browser.
    Serve(ServeArgs),
}

impl Command {
    /// The rule flags of the command, when it takes them.
    pub fn rule_set(&self) -> Option<&RuleSetArgs> {
        match self {
            Command::Solve(a) => Some(&a.rules.set),
            Command::Replay(a) => Some(&a.rules.set),
            Command::Find(a) => Some(&a.rules.set),
            Command::Puzzles(PuzzlesCommand::Generate(a)) => Some(&a.rules),
            Command::Game(GameCommand::Solve(a)) => Some(&a.rules.set),
            Command::Game(GameCommand::Analyze(a)) => Some(&a.rules.set),
            Command::Game(GameCommand::Play(a)) => Some(&a.rules.set),
            Command::Game(GameCommand::Review(a)) => Some(&a.rules.set),
            Command::Game(GameCommand::Match(a)) => Some(&a.rules.set),
            Command::Game(GameCommand::Endgame(a)) => Some(&a.db.rules.set),
            Command::Game(GameCommand::Book(BookCommand::Build(a))) => Some(&a.rules.set),
            Command::Game(GameCommand::Cache(CacheCommand::Build(a))) => Some(&a.db.rules.set),
            Command::Game(GameCommand::Cache(CacheCommand::Remove(a))) => Some(&a.rules.set),
            _ => None,
        }
    }
}

/// `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one.
    #[arg(long, value_name = "P", default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; anything but a loopback address lets other machines in.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser (xdg-open or open).
    #[arg(long)]
    pub open: bool,
    /// More puzzle collections to offer, read once at start.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub puzzles: Vec<PathBuf>,
    /// Memory guard of each solve: what that solve adds to the server's memory, not the games and other requests it holds, e.g. 800M or 4G [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Time budget of each solve in seconds.
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub seconds: f64,
    /// Solves at once; more are refused with 429.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_solves: u16,
    /// Games held at once on the Play page; a new one drops the least recently used.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..))]
    pub max_games: u16,
    /// Minutes a game may stay unused before it is dropped.
    #[arg(long, value_name = "MIN", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=10080))]
    pub game_idle: u32,
    /// Do not read the endgame databases `game analyze` keeps in the cache folder ($MANCALA_SWEEP_CACHE, else ~/.cache/mancala-sweep); read at start when there (never built here), they let the Analyze page prove far more within its second.
    #[arg(long)]
    pub no_cache: bool,
}

/// `completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write a page for every command into DIR (made if missing): mancala-sweep.1, mancala-sweep-solve.1, mancala-sweep-game-solve.1 and so on, the pages the top-level one refers to.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `--rules`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    /// GamePigeon's avalanche mode: pick your own pits; a last stone in a pit that has stones picks them all up and sows on; no captures (scope own, relay on, capture none).
    Avalanche,
    /// Pick any pit on the board, yours or the opponent's, with avalanche sowing: the "win all 48 on the first move" puzzle (scope any, relay on, capture none).
    AnyHole,
    /// Standard Kalah: pick your own pits; a last stone in an empty pit of yours takes it and the stones opposite (scope own, relay off, capture kalah).
    Kalah,
    /// GamePigeon's capture mode: the same rules as kalah.
    Capture,
}

impl From<PresetArg> for Preset {
    fn from(p: PresetArg) -> Preset {
        match p {
            PresetArg::Avalanche => Preset::Avalanche,
            PresetArg::AnyHole => Preset::AnyHole,
            PresetArg::Kalah | PresetArg::Capture => Preset::Kalah,
        }
    }
}

/// `--scope`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// You may pick only your own pits, the bottom row (pits 1..n).
    Own,
    /// You may pick any pit that holds stones, on either row (pits 1..2n).
    Any,
}

impl From<ScopeArg> for Scope {
    fn from(s: ScopeArg) -> Scope {
        match s {
            ScopeArg::Own => Scope::Own,
            ScopeArg::Any => Scope::Any,
        }
    }
}

/// `--capture`: the rules' capture rules, each with its name and its
/// sentence as the rules write them (`Capture::ALL`), so that a rule added
/// there is a value here with no list to keep.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CaptureArg(pub Capture);

impl ValueEnum for CaptureArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<CaptureArg>> =
            std::sync::LazyLock::new(|| Capture::ALL.into_iter().map(CaptureArg).collect());
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.help()))
    }
}

impl From<CaptureArg> for Capture {
    fn from(c: CaptureArg) -> Capture {
        c.0
    }
}

/// `--relay`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// A last stone in a pit that already had stones picks them all up and sowing goes on, in the same pick.
    On,
    /// A last stone in a pit that had stones ends the turn.
    Off,
}

/// `puzzles generate --source`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SourceArg {
    /// The start of a game (uniform pits), pits 3 to 8, stones 1 to 6.
    Start,
    /// A position part-way along an optimal line from a start board.
    Line,
    /// A position met in a game between the random and greedy-pick agents.
    Game,
    /// A position met in a game between two mtdf:12 agents (the hard level when the committed collections were made): positions of strong play.
    GameHard,
}

impl From<SourceArg> for Source {
    fn from(s: SourceArg) -> Source {
        match s {
            SourceArg::Start => Source::Start,
            SourceArg::Line => Source::Line,
            SourceArg::Game => Source::Game,
            SourceArg::GameHard => Source::GameHard,
        }
    }
}

/// The rule flags.
#[derive(Args, Debug)]
pub struct RuleSetArgs {
    /// The rules, by name [default: avalanche]. Every turn: pick a pit, sow its stones one by one counter-clockwise (your pits left to right, your store, the opponent's pits); a last stone in your store gives you another pick.
    #[arg(long, value_enum)]
    pub rules: Option<PresetArg>,
    /// Which pits you may pick (changes the one field of --rules).
    #[arg(long, value_enum)]
    pub scope: Option<ScopeArg>,
    /// What a last stone in a pit that has stones does (changes the one field of --rules).
    #[arg(long, value_enum)]
    pub relay: Option<Switch>,
    /// What a last stone in an empty pit of yours does (changes the one field of --rules).
    #[arg(long, value_enum)]
    pub capture: Option<CaptureArg>,
}

/// The preset of the `game` commands when `--rules` is not given: whole
/// games are played by the kalah rules, while `solve` and the one-turn
/// commands default to avalanche.
pub const GAME_RULES: PresetArg = PresetArg::Kalah;

/// `--rules` as the `game` commands show it: the flag is shared with
/// `solve`, whose help says `[default: avalanche]`; here it says
/// [`GAME_RULES`], the preset these commands really use, so the help cannot
/// drift from the code.
pub fn game_rules_help(a: Arg) -> Arg {
    let name = GAME_RULES
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string());
    let help = a
        .get_help()
        .map(ToString::to_string)
        .unwrap_or_default()
        .replace("[default: avalanche]", &format!("[default: {name}]"));
    a.help(help)
}

/// Rule and board flags shared by every command that takes a position.
#[derive(Args, Debug)]
pub struct RuleArgs {
    /// The rule flags.
    #[command(flatten)]
    pub set: RuleSetArgs,
    /// Pits a side, 1 to 16 [default: 6].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=16), conflicts_with = "board", allow_negative_numbers = true)]
    pub pits: Option<u8>,
    /// Stones a pit at the start [default: 4].
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(0..=255), conflicts_with = "board", allow_negative_numbers = true)]
    pub stones: Option<u32>,
    /// A position, as you see the board: "TOP / OPP_STORE STORE / BOTTOM". TOP is the opponent's row left to right as you see it (pits 2n down to n+1), then the opponent's store (left) and yours (right), then your row left to right (pits 1 to n, pit n next to your store). Example: "4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4". The answer starts by drawing the board as it was read: check it (swapped rows are a common slip).
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub board: Option<String>,
}

impl RuleSetArgs {
    /// The library's rule choices, without a board.
    pub fn options(&self) -> RuleOptions {
        RuleOptions {
            preset: self.rules.map(Preset::from),
            scope: self.scope.map(Scope::from),
            relay: self.relay.map(|s| s == Switch::On),
            capture: self.capture.map(Capture::from),
            ..Default::default()
        }
    }
}

impl RuleArgs {
    /// The library's rule and board choices.
    pub fn options(&self) -> RuleOptions {
        RuleOptions {
            pits: self.pits.map(usize::from),
            stones: self.stones,
            board: self.board.clone(),
            ..self.set.options()
        }
    }
}

/// `--json`.
#[derive(Args, Debug)]
pub struct JsonArg {
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    pub json: bool,
}

/// `--threads`.
#[derive(Args, Debug)]
pub struct ThreadsArg {
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), allow_negative_numbers = true)]
    pub threads: Option<u16>,
}

impl ThreadsArg {
    /// The number of worker threads: as given, or one per core. Every
    /// command maps the flag this way, and reports the number it used.
    pub fn count(&self) -> usize {
        self.threads
            .map_or_else(rayon::current_num_threads, usize::from)
    }
}

/// `--color`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `--color`.
#[derive(Args, Debug)]
pub struct ColorArg {
    /// Colour the pit just picked (yellow) and where its last stone fell (green) in each board.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

impl ColorArg {
    /// True when the output is to be coloured.
    pub fn on(&self) -> bool {
        use std::io::IsTerminal;
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// `--quiet`.
#[derive(Args, Debug)]
pub struct QuietArg {
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Rules and board.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// List at most N optimal sequences (0 skips the listing).
    #[arg(long, value_name = "N", default_value_t = 10, conflicts_with = "all", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..))]
    pub limit: u32,
    /// List every optimal sequence.
    #[arg(long)]
    pub all: bool,
    /// Print only what to tap: the best turn's picks and the store it ends with.
    #[arg(long, conflicts_with = "json")]
    pub brief: bool,
    /// `--color`.
    #[command(flatten)]
    pub color: ColorArg,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Stop cleanly before the search holds more than this, e.g. 800M or 4G [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Keep the search's frontier in DIR (made if missing) instead of memory, with a checkpoint after every store bucket; the same command resumes a stopped search. Counts only: no lines are listed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["all", "brief"])]
    pub spill: Option<std::path::PathBuf>,
    /// With --spill: stop cleanly before the run files take more than this, e.g. 50G [default: no limit beyond a full disk].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes, requires = "spill")]
    pub max_disk: Option<u64>,
    /// `--cluster` and its flags.
    #[command(flatten)]
    pub cluster: ClusterArgs,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `solve --cluster`: timely-dataflow's `-n`, `-p`, `-h` and `-w`, spelled
/// out (`-h` is help here).
#[derive(Args, Debug)]
pub struct ClusterArgs {
    /// Count on a timely-dataflow cluster of processes, on this machine or many: start the same command once per process, changing only --process; process 0 prints the answer. Counts only: no lines are listed. With --spill DIR each worker keeps its share in DIR/worker-I-of-N, and the same commands resume a stopped run.
    #[arg(long, conflicts_with_all = ["all", "brief"])]
    pub cluster: bool,
    /// With --cluster: the number of processes (timely's -n).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "cluster", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub processes: u32,
    /// With --cluster: this process's index, 0 to N-1 (timely's -p).
    #[arg(long, value_name = "P", default_value_t = 0, requires = "cluster")]
    pub process: u32,
    /// With --cluster: a file of host:port lines, one per process, process 0 first (timely's -h) [default: localhost:2101, localhost:2102, ...].
    #[arg(long, value_name = "FILE", requires = "cluster")]
    pub hostfile: Option<std::path::PathBuf>,
    /// With --cluster: timely worker threads in this process (timely's -w); --threads sets the threads that expand each worker's share.
    #[arg(long, value_name = "W", default_value_t = 1, requires = "cluster", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub workers: u32,
}

/// `replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Rules and board.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--color`.
    #[command(flatten)]
    pub color: ColorArg,
    // Negative numbers are taken as picks, so that `replay` can say why
    // they are not pit numbers; any other word that starts with `-` is a
    // flag, before or after the picks (`11 2 3 --color never`).
    /// Pit numbers to pick, in order (1..2n; see the README for the numbering).
    #[arg(value_name = "PICK", required = true, allow_negative_numbers = true)]
    pub picks: Vec<String>,
}

/// `find`.
#[derive(Args, Debug)]
pub struct FindArgs {
    /// Rules and board.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Keep at most W positions per store bucket, in one round [default: start at 1024 and double the beam each round while time is left].
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u32).range(1..=100_000_000), allow_negative_numbers = true)]
    pub beam: Option<u32>,
    /// Wall-clock budget in seconds; the best line so far is printed when it runs out.
    #[arg(long, value_name = "T", default_value_t = 10.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Seed for breaking ties between equal scores.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// The numbers of a `--pits` or `--stones` range.
#[derive(Clone, Debug)]
pub struct Span(pub Vec<u32>);

/// `atlas`.
#[derive(Args, Debug)]
pub struct AtlasArgs {
    /// Pits a side: N, A-B or A..=B, within 1 to 16.
    #[arg(long, value_name = "RANGE", default_value = "1..=8", value_parser = |t: &str| mancala_sweep::atlas::parse_range(t, 1..=16).map(Span))]
    pub pits: Span,
    /// Stones a pit: N, A-B or A..=B, within 1 to 40.
    #[arg(long, value_name = "RANGE", default_value = "1..=6", value_parser = |t: &str| mancala_sweep::atlas::parse_range(t, 1..=40).map(Span))]
    pub stones: Span,
    /// Rule presets to include, comma-separated [default: avalanche,any-hole,kalah].
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "all_rules")]
    pub rules: Vec<PresetArg>,
    /// All twelve rule sets: scope own and any, relay on and off, capture none, kalah and empty.
    #[arg(long)]
    pub all_rules: bool,
    /// Seconds a cell may take to solve exhaustively before `find` takes over (and again for `find`).
    #[arg(long, value_name = "T", default_value_t = 10.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub budget_seconds: f64,
    /// Memory guard of each exhaustive try, e.g. 800M or 4G [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Output directory; a run with the same directory resumes.
    #[arg(long, value_name = "DIR", default_value = "atlas")]
    pub out: PathBuf,
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `puzzles ...`.
#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Make a collection and write it to a JSON file.
    Generate(GenerateArgs),
    /// Re-solve every puzzle of a collection and report any mismatch.
    Check(CheckArgs),
    /// Show one puzzle: board, goal, grade (and the solution).
    Show(ShowArgs),
    /// Play a puzzle in the terminal.
    Play(PlayArgs),
    /// List a collection's puzzles: ids, grades, lengths and goals.
    List(ListArgs),
}

/// `puzzles list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// A puzzle collection: a JSON file, or the name of one built in (every file of the repository's puzzles/ folder, by its name without .json: avalanche, any-hole, ...).
    #[arg(value_name = "COLLECTION")]
    pub file: PathBuf,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
}

/// `puzzles generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The rule flags.
    #[command(flatten)]
    pub rules: RuleSetArgs,
    /// Sources, comma-separated; the count is shared between them.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "start,line,game"
    )]
    pub source: Vec<SourceArg>,
    /// Puzzles wanted, 1 to 10000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000), allow_negative_numbers = true)]
    pub count: u32,
    /// Seed of the games and choices.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Output file (written whole, through a temporary file).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Collection name [default: the rule set's name].
    #[arg(long)]
    pub name: Option<String>,
    /// Seconds one exhaustive solve may take before the position is passed over.
    #[arg(long, value_name = "T", default_value_t = 2.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Replace a finished collection in --out that another command made.
    #[arg(long)]
    pub force: bool,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `puzzles check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// A puzzle collection: a JSON file, or the name of one built in (every file of the repository's puzzles/ folder, by its name without .json: avalanche, any-hole, ...).
    #[arg(value_name = "COLLECTION")]
    pub file: PathBuf,
    /// Seconds one solve may take.
    #[arg(long, value_name = "T", default_value_t = 120.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
}

/// `puzzles show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A puzzle collection: a JSON file, or the name of one built in (every file of the repository's puzzles/ folder, by its name without .json: avalanche, any-hole, ...).
    #[arg(value_name = "COLLECTION")]
    pub file: PathBuf,
    /// The puzzle's id.
    pub id: String,
    /// Also show the solution, pick by pick.
    #[arg(long)]
    pub solution: bool,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
}

/// `puzzles play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A puzzle collection: a JSON file, or the name of one built in (every file of the repository's puzzles/ folder, by its name without .json: avalanche, any-hole, ...).
    #[arg(value_name = "COLLECTION")]
    pub file: PathBuf,
    /// The puzzle to start with [default: the first]; the others follow in file order.
    pub id: Option<String>,
    /// Only puzzles of this difficulty grade, 1 (easiest) to 5.
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u8).range(1..=5))]
    pub grade: Option<u8>,
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
