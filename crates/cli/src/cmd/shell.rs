//! `completions` and `man`: made from the clap definitions, so they never
//! fall behind the flags.

use super::Outcome;
use crate::args::{Cli, CompletionsArgs, ManArgs};
use crate::errors::CliError;
use clap::CommandFactory;
use mancala_sweep::format::write_atomic;
use std::path::Path;

/// The program's name, as completions and manual pages spell it.
const BIN: &str = "mancala-sweep";

/// Run `completions SHELL`.
pub fn completions(args: &CompletionsArgs) -> Outcome {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), BIN, &mut out);
    let script =
        String::from_utf8(out).map_err(|e| CliError::Input(format!("completion script: {e}")))?;
    Ok(match args.shell {
        clap_complete::Shell::Bash => bash_states(&script),
        _ => script,
    })
}

/// clap_complete's bash script for a name with a hyphen (clap-rs/clap#6421)
/// names the state of a subcommand two ways: its loop over the words sets
/// `mancala__sweep__subcmd__game`, while the arms that offer the words
/// test `mancala__subcmd__sweep__subcmd__game`, so that nothing after the
/// first word completes. The arms are spelled here as the loop spells them;
/// a script without the mismatch is left as it is.
fn bash_states(script: &str) -> String {
    let wrong = BIN.replace('-', "__subcmd__");
    let right = BIN.replace('-', "__");
    script.replace(&format!("{wrong}__subcmd__"), &format!("{right}__subcmd__"))
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
        "{} manual pages written to {}: {}\n{}\n",
        names.len(),
        dir.display(),
        names.join(", "),
        how_to_read(dir)
    ))
}

/// How to read the pages just written. `man -M` reads a folder of `man1`
/// on any system; plain `man NAME` looks only where its search path says,
/// which man-db makes from `PATH` (`~/.local/bin` gives `~/.local/share/man`)
/// and `MANPATH`.
fn how_to_read(dir: &Path) -> String {
    let example = format!("{BIN}-game-play");
    match dir.parent().filter(|_| dir.file_name().is_some_and(|n| n == "man1")) {
        Some(root) => {
            let root = crate::errors::shell_quote(&root.display().to_string());
            format!(
                "Read one with `man -M {root} {example}`; `man {example}` alone finds them once {root} is on man's search path (`manpath` prints it)."
            )
        }
        None => format!(
            "Read one with `man {}`; to have `man {example}` find them, write them into a folder named man1 on man's search path (`manpath` prints it).",
            crate::errors::shell_quote(&dir.join(format!("{example}.1")).display().to_string())
        ),
    }
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
