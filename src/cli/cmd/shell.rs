//! `completions` and `man`: made from the clap definitions, so they never
//! fall behind the flags.

use super::Outcome;
use crate::cli::args::{Cli, CompletionsArgs, ManArgs};
use crate::cli::words::CliError;
use clap::CommandFactory;
use mancala_sweep::format::write_atomic;
use std::path::Path;

/// Run `completions SHELL`.
pub fn completions(args: &CompletionsArgs) -> Outcome {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mancala-sweep", &mut out);
    String::from_utf8(out).map_err(|e| CliError::Input(format!("completion script: {e}")))
}

/// Run `man`: the top-level page on stdout, or with `--out DIR` every
/// command's page in DIR. The top-level page names `mancala-sweep-solve(1)`
/// and the others in its SUBCOMMANDS section; only `--out` writes them.
pub fn man(args: &ManArgs) -> Outcome {
    let Some(dir) = &args.out else {
        let mut out = Vec::new();
        clap_mangen::Man::new(Cli::command())
            .render(&mut out)
            .map_err(CliError::Terminal)?;
        return String::from_utf8(out).map_err(|e| CliError::Input(format!("manual page: {e}")));
    };
    let failed = |e: std::io::Error| CliError::Input(format!("--out {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(failed)?;
    // Built as clap_mangen::generate_to builds it, so that each page's
    // name ("mancala-sweep-game-solve") is the one its parent's page
    // refers to; written here so that each file is whole (written through
    // a temporary file) and the answer can name them.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut names = Vec::new();
    write_pages(&cmd, dir, &mut names)?;
    Ok(format!(
        "{} manual pages written to {}: {}\n",
        names.len(),
        dir.display(),
        names.join(", ")
    ))
}

/// Write the page of `cmd` and of each of its subcommands into `dir`;
/// the file names go to `names`, parents first.
fn write_pages(cmd: &clap::Command, dir: &Path, names: &mut Vec<String>) -> Result<(), CliError> {
    let man = clap_mangen::Man::new(cmd.clone());
    let name = man.get_filename();
    let mut page = Vec::new();
    man.render(&mut page).map_err(CliError::Terminal)?;
    write_atomic(&dir.join(&name), &page).map_err(|e| CliError::Input(format!("--out {e}")))?;
    names.push(name);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, names)?;
    }
    Ok(())
}
