//! The `mancala-sweep` binary: parse the flags, dispatch to a command, and
//! map the outcome to an exit code (2 for bad input, 1 for a failed run,
//! 130 after Ctrl-C, 143 after SIGTERM, 129 after SIGHUP). Everything else is in [`cli`] and the library.

mod pages;

use clap::Parser;
use cli::args::{BookCommand, CacheCommand, Cli, Command, GameCommand, PuzzlesCommand};
use cli::cmd;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `mancala-sweep` or `mancala-sweep puzzles` alone: the whole
            // help, as a person would read it, and the status of bad input.
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}", cli::errors::clap_line(&e));
            return ExitCode::from(2);
        }
    };
    cli::signal::catch_ctrl_c();
    let outcome = match &cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Find(a) => cmd::find::run(a),
        Command::Atlas(a) => cmd::atlas::run(a),
        Command::Puzzles(PuzzlesCommand::Generate(a)) => cmd::puzzles::generate(a),
        Command::Puzzles(PuzzlesCommand::Check(a)) => cmd::puzzles::check(a),
        Command::Puzzles(PuzzlesCommand::Show(a)) => cmd::puzzles::show(a),
        Command::Puzzles(PuzzlesCommand::Play(a)) => cmd::puzzles::play(a),
        Command::Puzzles(PuzzlesCommand::List(a)) => cmd::puzzles::list(a),
        Command::Game(GameCommand::Solve(a)) => cmd::game::solve(a),
        Command::Game(GameCommand::Analyze(a)) => cmd::game::analyze(a),
        Command::Game(GameCommand::Play(a)) => cmd::play::play(a),
        Command::Game(GameCommand::Review(a)) => cmd::review::review(a),
        Command::Game(GameCommand::Match(a)) => cmd::game::play_match(a),
        Command::Game(GameCommand::Endgame(a)) => cmd::game::endgame(a),
        Command::Game(GameCommand::Book(BookCommand::Build(a))) => cmd::book::build(a),
        Command::Game(GameCommand::Book(BookCommand::Show(a))) => cmd::book::show(a),
        Command::Game(GameCommand::Cache(CacheCommand::List)) => cmd::game_cache::list(),
        Command::Game(GameCommand::Cache(CacheCommand::Build(a))) => cmd::game_cache::build(a),
        Command::Game(GameCommand::Cache(CacheCommand::Remove(a))) => cmd::game_cache::remove(a),
        Command::Completions(a) => cmd::shell::completions(a),
        Command::Serve(a) => cmd::serve::run(a, pages::page),
        Command::Man(a) => cmd::shell::man(a),
    };
    // A report a player reads names the rules plainly.
    let plain = match &cli.command {
        Command::Game(GameCommand::Analyze(a)) => !a.verbose,
        Command::Game(GameCommand::Review(_)) => true,
        _ => false,
    };
    let named = |text: &str| {
        let text = cli::errors::name_capture(text.to_string(), cli.command.rule_set());
        match plain {
            true => cli::errors::plain_rules(text),
            false => text,
        }
    };
    match outcome {
        Ok(text) => {
            print!("{}", named(&text));
            if cli::signal::interrupted() {
                ExitCode::from(cli::signal::exit_status())
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            if let Some(text) = e.stdout() {
                print!("{}", named(text));
            }
            eprintln!("{}", e.line());
            e.exit_code()
        }
    }
}
