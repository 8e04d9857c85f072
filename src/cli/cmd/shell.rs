//! `completions` and `man`: made from the clap definitions, so they never
//! fall behind the flags.

use super::Outcome;
use crate::cli::args::{Cli, CompletionsArgs};
use crate::cli::words::CliError;
use clap::CommandFactory;

/// Run `completions SHELL`.
pub fn completions(args: &CompletionsArgs) -> Outcome {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mancala-sweep", &mut out);
    String::from_utf8(out).map_err(|e| CliError::Input(format!("completion script: {e}")))
}

/// Run `man`.
pub fn man() -> Outcome {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(CliError::Terminal)?;
    String::from_utf8(out).map_err(|e| CliError::Input(format!("manual page: {e}")))
}
