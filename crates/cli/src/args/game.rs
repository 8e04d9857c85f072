//! The flags of `game` and its subcommands.

use super::{game_rules_help, parse_seconds, ColorArg, JsonArg, QuietArg, RuleArgs, ThreadsArg};
use clap::{Args, Subcommand, ValueEnum};
use mancala_sweep::sweep::memory::parse_bytes;
/// `game`.
#[derive(Subcommand, Debug)]
pub enum GameCommand {
    /// The exact value of a position with perfect play by both sides, the best turn and the principal variation.
    Solve(GameSolveArgs),
    /// Which pits to tap for the game: every whole turn of a position ranked by its value, exact where proved, within a time budget.
    Analyze(GameAnalyzeArgs),
    /// Play a game against the computer in the terminal.
    Play(GamePlayArgs),
    /// Review a game: every turn graded by the stones it gave away (best, good, inaccuracy, mistake, blunder), proved exactly, each player's accuracy and the turn that settled the result.
    Review(GameReviewArgs),
    /// Two agents play pairs of games from the same openings, each starting once; results with 95% intervals and Elo.
    Match(GameMatchArgs),
    /// Build an endgame database file for `game solve --endgame`: the exact value of every position with at most --up-to stones in its pits (resumes a file it finds).
    Endgame(GameEndgameArgs),
    /// Opening books: the exact value of every position a few whole turns from the start, read first by every analysis.
    #[command(subcommand)]
    Book(BookCommand),
    /// The endgame databases kept in the cache folder ($MANCALA_SWEEP_CACHE, else ~/.cache/mancala-sweep), which every analysis and solve reads: list them, build a larger one, remove them.
    #[command(subcommand)]
    Cache(CacheCommand),
}

/// `game cache`.
#[derive(Subcommand, Debug)]
pub enum CacheCommand {
    /// Every endgame database in the cache folder: its rules, pits a side, stones and size.
    List,
    /// Build a larger endgame database into the cache folder, read from then on by every `game analyze`, `game solve` and `serve` with the memory for it (a long run: Ctrl-C keeps the layers finished, and the same command goes on).
    Build(CacheBuildArgs),
    /// Remove the endgame databases of --rules and --pits from the cache folder, or every one with --all.
    Remove(CacheRemoveArgs),
}

/// What a build of an endgame database takes besides its size and place
/// (`game endgame`, `game cache build`).
#[derive(Args, Debug)]
#[command(
    mut_arg("rules", game_rules_help),
    mut_arg("stones", |a| a.hide(true)),
    mut_arg("board", |a| a.hide(true))
)]
pub struct EndgameFor {
    /// Rules and pits a side (--pits) the database is for [default rules: kalah]; scope own only.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Refuse before starting when the database would take more than this [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `game cache build`.
#[derive(Args, Debug)]
pub struct CacheBuildArgs {
    /// The rules, pits, memory cap and threads.
    #[command(flatten)]
    pub db: EndgameFor,
    /// Every position with at most this many stones in its pits (1 to 127) [default: the most whose packed file fits 1.5 GiB: 26 stones on 6 pits a side, 1.25 GiB on disk, at most 1.42 GiB of memory while it builds, about 9 minutes on 2 cores; a line says how far it is and forecasts the rest].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=127))]
    pub up_to: Option<u32>,
}

/// `game cache remove`.
#[derive(Args, Debug)]
#[command(
    mut_arg("rules", game_rules_help),
    mut_arg("stones", |a| a.hide(true)),
    mut_arg("board", |a| a.hide(true))
)]
pub struct CacheRemoveArgs {
    /// Rules and pits a side (--pits) of the databases to remove [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Every database in the cache folder, whatever its rules.
    #[arg(long, conflicts_with_all = ["rules", "pits", "scope", "relay", "capture"])]
    pub all: bool,
}

/// `game book`.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Prove the value of every position --turns whole turns from the start into FILE (a long run: Ctrl-C or a kill keeps what is solved, and the same command goes on).
    Build(BookBuildArgs),
    /// What a book holds: its rules, how far it is built, and every turn of its start ranked (the committed books when no FILE is given).
    Show(BookShowArgs),
}

/// `game book build`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help), mut_arg("board", |a| a.hide(true)))]
pub struct BookBuildArgs {
    /// Rules, pits a side and stones a pit of the game the book opens [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Whole turns from the start (either player's), 0 to 5: every position that far in is solved, and every position before it gets every turn ranked.
    #[arg(long, value_name = "K")]
    pub turns: u32,
    /// The book file; one there for the same game and turns is gone on with.
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    /// Transposition table size, shared by every position's solve [default: 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub table: Option<u64>,
    /// `--max-memory`, `--endgame` and `--threads`.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Neither read nor build the endgame database kept in the cache folder.
    #[arg(long, conflicts_with = "endgame")]
    pub no_cache: bool,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `game book show`.
#[derive(Args, Debug)]
pub struct BookShowArgs {
    /// A book file [default: the committed books].
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Turns of the start listed, best first.
    #[arg(long, value_name = "K", default_value_t = 10, value_parser = |t: &str| parse_positive(t, "turns"), allow_negative_numbers = true)]
    pub top: u64,
}

/// `game endgame`.
#[derive(Args, Debug)]
pub struct GameEndgameArgs {
    /// The rules, pits, memory cap and threads.
    #[command(flatten)]
    pub db: EndgameFor,
    /// Every position with at most this many stones in its pits (1 to 127); 24 stones on 6 pits a side take 1.25 GB.
    #[arg(long, value_name = "K")]
    pub up_to: u32,
    /// The database file. One already there for the same rules and pits is kept and built on: the same command resumes a stopped build.
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
}

/// `game solve`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help))]
pub struct GameSolveArgs {
    /// Rules and board (the board from the side to move) [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Transposition table size, e.g. 256M or 2G [default: 256M; 32M for positions of at most 36 stones, which it holds as well and makes without the wait for huge pages].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub table: Option<u64>,
    /// `--max-memory`, `--endgame` and `--threads` (the value and the principal variation are the same for any number of threads).
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Neither read nor build the endgame database kept in the cache folder ($MANCALA_SWEEP_CACHE, else ~/.cache/mancala-sweep), which `game analyze` shares: the 16-stone one is built once for each rule set and board size (14 MiB for 6 pits a side, in seconds to half a minute with the time said), and cuts a long solve's picks by a third to a half; a larger one from `game cache build` cuts more. Built by a solve of more than 36 stones, read by any. Not used with --checkpoint, whose work keeps to the database it started with.
    #[arg(long, conflicts_with = "endgame")]
    pub no_cache: bool,
    /// Keep the search's work in FILE (its table, about --table bytes): written every --checkpoint-every seconds and when stopped (Ctrl-C, SIGTERM), read back by the same command, which goes on from it; removed once the value is proved.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds of search between writes of --checkpoint [default: 600].
    #[arg(long, value_name = "T", value_parser = parse_seconds, allow_negative_numbers = true, requires = "checkpoint")]
    pub checkpoint_every: Option<f64>,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// The exact solver's flags beside `--table`, shared by `game solve` and
/// `game analyze`, which run the same solver.
#[derive(Args, Debug)]
pub struct SolverArgs {
    /// Refuse before starting when the table and endgame database would take more than this [default: half the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// An endgame database file from `game endgame`, for these rules and pits, read instead of the ones kept in the cache folder (`game cache list`): whole by `game solve` and `game match`, mapped (at once) by `game analyze`.
    #[arg(long, value_name = "FILE")]
    pub endgame: Option<std::path::PathBuf>,
    /// `--threads`: threads searching the same table.
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `--top` and `--nodes`: a whole number, 1 or more; `what` is what it counts.
fn parse_positive(text: &str, what: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{text:?} is not a number of {what}: give a whole number, 1 or more"
        )),
    }
}

/// `game analyze`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help))]
pub struct GameAnalyzeArgs {
    /// Rules and board (the board from the side to move: your row at the bottom) [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Time budget in seconds (the reading of the cached endgame database included); the analysis stops earlier once every turn is proved, and Ctrl-C stops it with the answer so far.
    #[arg(long, value_name = "T", default_value_t = 1.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// A budget of picks searched instead of seconds: the same answer on every run with --threads 1.
    #[arg(long, value_name = "N", conflicts_with = "seconds", value_parser = |t: &str| parse_positive(t, "picks"), allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// Follow a game played elsewhere (a phone, a real board): after the analysis of each of your turns, type the pits you tapped, then the pits the opponent tapped (or `board` to type the board you see); `undo` and `quit` too.
    #[arg(long, conflicts_with = "json")]
    pub follow: bool,
    /// List the best K turns (the text report lists 10 unless told; --json lists every turn unless told).
    #[arg(long, value_name = "K", value_parser = |t: &str| parse_positive(t, "turns"), allow_negative_numbers = true)]
    pub top: Option<u64>,
    /// Transposition table size, e.g. 64M or 2G [default: 64M, which a one-second answer fills faster than it zeroes a larger one; give more for long runs].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub table: Option<u64>,
    /// Neither read nor build the endgame database kept in the cache folder ($MANCALA_SWEEP_CACHE, else ~/.cache/mancala-sweep): the 16-stone one is built once for each rule set and board size (14 MiB for 6 pits a side, in seconds to half a minute with the time said) and lets a one-second analysis prove far more; a larger one from `game cache build` (the largest there is read) proves more again.
    #[arg(long, conflicts_with = "endgame")]
    pub no_cache: bool,
    /// Show the numbers behind the words: each open turn's proven bounds and how far its estimate looked, and the picks searched.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// With --follow: take up the last unfinished game `--follow` kept (every followed game is kept in the games folder: $MANCALA_SWEEP_GAMES, else games/ in the cache folder), where it was left.
    #[arg(long, requires = "follow", conflicts_with_all = ["board", "stones", "pits", "first"])]
    pub resume: bool,
    /// With --follow: who moves first from the board given (as you see it: your row at the bottom either way); with `them`, type their turn first.
    #[arg(long, value_enum, default_value = "you", requires = "follow")]
    pub first: FirstArg,
    /// With --follow: build larger endgame databases (22 stones on 6 pits a side, 253 MiB, one to two minutes on 2 cores; then the set-up's 26, 1.25 GiB, about 20 minutes) in the background at the lowest priority, while you tap and think; the answers use it once it is there, and a game left early leaves its finished layers for the next. `auto`: when the input is a terminal and the cache is used.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value = "auto",
        requires = "follow"
    )]
    pub background_build: BackgroundBuild,
    /// Do not answer from the committed opening books (GamePigeon's capture and avalanche openings on 6 pits of 4 stones, where every turn is known exactly at once): search as on any other position, to compare.
    #[arg(long)]
    pub no_book: bool,
    /// `--max-memory`, `--endgame` and `--threads`.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `game analyze --follow --background-build`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackgroundBuild {
    /// When the input is a terminal (a person following a game) and the cache is read.
    Auto,
    /// Whenever the cache is read.
    Always,
    /// Never.
    Never,
}

/// `--first` of `game play` and of `game analyze --follow`: one
/// vocabulary for the two windows a companion user opens, each taking the
/// other's word too.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FirstArg {
    /// You move first.
    You,
    /// They move first: the computer in `game play`, the opponent you follow with `--follow` (`computer` and `opponent` are taken too).
    #[value(alias = "computer", alias = "opponent")]
    Them,
}

/// `game play`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help))]
pub struct GamePlayArgs {
    /// Rules and board [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// How strong the computer is: easy (greedy), medium (alphabeta:4), hard (budget:2000: up to twelve turns ahead within two million picks a turn), perfect (the exact solver; slow on big boards).
    #[arg(
        long,
        value_name = "L",
        default_value = "medium",
        conflicts_with = "agent",
        // The levels as possible values: the shell completes them, not
        // file names.
        value_parser = clap::builder::PossibleValuesParser::new(["easy", "medium", "hard", "perfect"])
    )]
    pub level: String,
    /// The computer's agent instead of a level: random, greedy, greedy-pick, minimax:D, alphabeta:D, mtdf:D, budget:K, perfect, analyze:S, mcts:N, montecarlo:N.
    #[arg(long, value_name = "A", value_hint = clap::ValueHint::Other)]
    pub agent: Option<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "you")]
    pub first: FirstArg,
    /// Seed of the computer's random choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// An endgame database file from `game endgame`, for these rules and pits: the `perfect` computer and its hints read it (seconds a move on 6 pits instead of minutes). Without it, the one `game analyze` keeps in the cache folder is read when it is there (never built here).
    #[arg(long, value_name = "FILE")]
    pub endgame: Option<std::path::PathBuf>,
    /// Do not read the endgame database kept in the cache folder ($MANCALA_SWEEP_CACHE, else ~/.cache/mancala-sweep).
    #[arg(long, conflicts_with = "endgame")]
    pub no_cache: bool,
    /// `--color`.
    #[command(flatten)]
    pub color: ColorArg,
}

/// `game match`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help))]
pub struct GameMatchArgs {
    /// Agent A: random, greedy, greedy-pick, minimax:D, alphabeta:D, mtdf:D, budget:K, perfect, analyze:S, mcts:N, montecarlo:N, or a level (easy, medium, hard).
    #[arg(value_name = "A")]
    pub a: String,
    /// Agent B, as A.
    #[arg(value_name = "B")]
    pub b: String,
    /// Games in all, an even number (each opening is played twice, each agent starting once).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u32,
    /// Seed of the openings and of the agents' random choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Random turns played from the start before the agents take over.
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub opening_turns: u32,
    /// Write the results (JSON) to FILE as games finish, atomically; rerunning with the same FILE resumes.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// An endgame database file from `game endgame`, for these rules and pits, which the `perfect` agents read (shared by every game).
    #[arg(long, value_name = "FILE")]
    pub endgame: Option<std::path::PathBuf>,
    /// Rules and board [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// `--threads`.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}

/// `game review`.
#[derive(Args, Debug)]
#[command(mut_arg("rules", game_rules_help))]
pub struct GameReviewArgs {
    /// The game: a kept game's file (`game play` and `game analyze --follow` keep every game in the games folder: $MANCALA_SWEEP_GAMES, else games/ in the cache folder), `last` for the last game kept there, or a `game match --out` file with --number. Without it, the turns of --turns.
    #[arg(value_name = "GAME", required_unless_present = "turns")]
    pub game: Option<String>,
    /// With a `game match --out` file: the game's number, as the file numbers them (from 0).
    #[arg(long, value_name = "N", requires = "game")]
    pub number: Option<u32>,
    /// The turns typed instead of a file, from the start of --rules/--pits/--stones or a --board: turns split by commas, the picks of a turn by spaces (pit numbers from the mover's view, as `game analyze` takes them), e.g. "3, 1 4, 6".
    #[arg(
        long,
        value_name = "TURNS",
        conflicts_with = "game",
        allow_hyphen_values = true
    )]
    pub turns: Option<String>,
    /// Rules and board of --turns (the board from the side to move) [default rules: kalah].
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Time budget in seconds a turn, on average: every position is solved once within it (the last first), then the ones not proved share what the others left, up to T times the turns in all; a position not proved by then has bounds, and its turns a grade only where the bounds prove one.
    #[arg(long, value_name = "T", default_value_t = 4.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// A budget of picks searched a turn (on average, as --seconds) instead of seconds: the same review on every run with --threads 1.
    #[arg(long, value_name = "N", conflicts_with = "seconds", value_parser = |t: &str| parse_positive(t, "picks"), allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// Transposition table size, shared by every position's solve [default: as `game solve` for the game's start].
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub table: Option<u64>,
    /// Neither read nor build the endgame database kept in the cache folder (the one `game analyze` and `game solve` read).
    #[arg(long, conflicts_with = "endgame")]
    pub no_cache: bool,
    /// Do not take values from the committed opening books: solve every position.
    #[arg(long)]
    pub no_book: bool,
    /// `--max-memory`, `--endgame` and `--threads`.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArg,
    /// `--quiet`.
    #[command(flatten)]
    pub quiet: QuietArg,
}
