//! Errors as the command line says them: one line, with the flag to change
//! where there is one, and the exit status.
//!
//! The library's messages speak of boards, buckets and files; only here are
//! they joined to what the user typed (`--max-memory`, `--out`, `--limit`).

use super::args::{PresetArg, RuleSetArgs};
use super::signal;
use mancala_sweep::atlas::AtlasError;
use mancala_sweep::game::{EndgameError, GameError};
use mancala_sweep::puzzle::PuzzleError;
use mancala_sweep::sweep::SearchError;
use mancala_sweep::{Error, Rules};
use std::process::ExitCode;

/// What a command can fail with, beyond the library's errors.
#[derive(Debug)]
pub enum CliError {
    /// The library refused or failed.
    Lib(Error),
    /// A value from the environment that is not allowed (exit status 2).
    Input(String),
    /// `puzzles check` found puzzles that do not match (exit status 1).
    Mismatch(Vec<String>),
    /// Ctrl-C stopped a run that kept what it had (exit status 130).
    Stopped(String),
    /// A run that cannot be done here, said before the work: an output
    /// place on a full disk (exit status 1).
    Failed(String),
    /// The terminal could not be read or written.
    Terminal(std::io::Error),
    /// An error that still has something for stdout (a JSON document of an
    /// incomplete run), printed before the error line.
    Partial {
        /// What goes to stdout.
        stdout: String,
        /// The error.
        error: Box<CliError>,
    },
}

impl<E: Into<Error>> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError::Lib(e.into())
    }
}

/// A cluster error with the flags that set each value.
pub fn cluster(e: &mancala_sweep::sweep::exact::cluster::ClusterError) -> String {
    use mancala_sweep::sweep::exact::cluster::ClusterError as C;
    match e {
        C::NoProcess => format!("--processes 0: {e}"),
        C::Process { process, processes } => {
            format!("--process {process}: with --processes {processes} it must be 0 to {}", processes - 1)
        }
        C::NoWorker => format!("--workers 0: {e}"),
        C::NotHostPort { .. } => format!("--hostfile {e}"),
        C::TooFewHosts { file, hosts, processes } => format!(
            "--hostfile {file}: it names {hosts} processes, and --processes {processes} needs that many"
        ),
    }
}

/// The hint a flag gives for a library error, appended to its message.
fn hint(e: &Error) -> &'static str {
    let search = |e: &SearchError| {
        match e {
        SearchError::MemoryLimit { .. } => " (--max-memory); try `find` for a heuristic line, a smaller board, --limit 0 to skip the listing, a higher --max-memory, or --spill DIR to keep the frontier on disk",
        SearchError::DiskLimit { .. } if e.resumable() => " (--max-disk): run the same command with a higher --max-disk to resume",
        SearchError::DiskLimit { .. } => " (--max-disk): give a higher --max-disk",
        SearchError::Spill { .. } if e.resumable() => ": run the same command to resume",
        SearchError::SpillDir { .. } => " (--spill)",
        _ => "",
    }
    };
    match e {
        Error::Search(e) => search(e),
        Error::Puzzle(PuzzleError::Search(e)) | Error::Atlas(AtlasError::Search(e)) => search(e),
        Error::Puzzle(PuzzleError::Occupied(_)) => "; give another --out or remove the file",
        Error::Puzzle(PuzzleError::OtherRules { .. }) => ": give another --out",
        Error::Puzzle(PuzzleError::Finished { .. }) => {
            ": give another --out, the same command to keep it, or --force to replace it"
        }
        Error::Atlas(AtlasError::Occupied(_)) => ": give another --out directory",
        Error::Game(e) => game_hint(e),
        _ => "",
    }
}

/// The hint a flag gives for a game error, appended to its message (also
/// where `--endgame`'s errors are said, which are not [`CliError::Lib`]).
pub fn game_hint(e: &GameError) -> &'static str {
    match e {
        GameError::Endgame(EndgameError::OverCap { .. }) => {
            ": raise --max-memory or ask for fewer stones"
        }
        _ => "",
    }
}

impl CliError {
    /// What goes to stdout despite the error.
    pub fn stdout(&self) -> Option<&str> {
        match self {
            CliError::Partial { stdout, .. } => Some(stdout),
            _ => None,
        }
    }

    /// The line to print on stderr, in a player's words: the system's
    /// error numbers (" (os error 30)") left out, its words kept.
    pub fn line(&self) -> String {
        without_os_numbers(&self.raw_line())
    }

    fn raw_line(&self) -> String {
        match self {
            CliError::Partial { error, .. } => error.raw_line(),
            CliError::Lib(e) if e.is_cancelled() => e.to_string(),
            CliError::Lib(Error::Puzzle(PuzzleError::NoSuchPuzzle { path, example, .. })) => {
                format!(
                    "error: {}; `puzzles list {}` lists its ids, which look like {:?}",
                    self.lib_text(),
                    shell_quote(&path.to_string_lossy()),
                    example.as_deref().unwrap_or("start-0123456789ab")
                )
            }
            CliError::Lib(e) => format!("error: {e}{}", hint(e)),
            CliError::Input(text) => format!("error: {text}"),
            CliError::Mismatch(problems) => format!(
                "error: {} mismatch{} (a puzzle that does not match a fresh solve):\n  {}",
                problems.len(),
                if problems.len() == 1 { "" } else { "es" },
                problems.join("\n  ")
            ),
            CliError::Stopped(text) => format!("interrupted: {text}"),
            CliError::Failed(text) => format!("error: {text}"),
            CliError::Terminal(e) => format!("error: terminal: {e}"),
        }
    }

    fn lib_text(&self) -> String {
        match self {
            CliError::Lib(e) => e.to_string(),
            _ => String::new(),
        }
    }

    /// The exit status: 2 for bad input, 130 after Ctrl-C, 1 for a run
    /// that failed.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Partial { error, .. } => error.exit_code(),
            CliError::Lib(e) if e.is_cancelled() => ExitCode::from(signal::exit_status()),
            CliError::Lib(e) if e.is_input() => ExitCode::from(2),
            CliError::Input(_) => ExitCode::from(2),
            CliError::Stopped(_) => ExitCode::from(signal::exit_status()),
            CliError::Lib(_)
            | CliError::Mismatch(_)
            | CliError::Terminal(_)
            | CliError::Failed(_) => ExitCode::from(1),
        }
    }
}

/// `text` without the " (os error N)" that Rust adds to a system error.
fn without_os_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" (os error ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + " (os error ".len()..];
        match after.find(')') {
            Some(end) if after[..end].bytes().all(|b| b.is_ascii_digit()) => {
                rest = &after[end + 1..]
            }
            _ => {
                out.push_str(" (os error ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A clap error on one line: the message and the allowed values, without the
/// usage block. A tip ("a similar argument exists") is a sentence of its
/// own, not run into the error it follows.
pub fn clap_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let mut line = String::new();
    for part in text.lines().map(str::trim).filter(|l| {
        !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
    }) {
        if let Some(tip) = part.strip_prefix("tip:") {
            if !line.ends_with(['.', '!', '?']) {
                line.push('.');
            }
            line.push_str(" Tip:");
            line.push_str(tip);
            if !tip.ends_with(['.', '!', '?']) {
                line.push('.');
            }
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(part);
        }
    }
    plain_range(&line)
}

/// Clap's "20 is not in 1..=16" in a player's words: "20 is not allowed:
/// give a whole number from 1 to 16" (or "0 or more" where the top is
/// only the type's largest).
fn plain_range(line: &str) -> String {
    const NOT_IN: &str = " is not in ";
    let Some(at) = line.find(NOT_IN) else {
        return line.to_string();
    };
    let rest = &line[at + NOT_IN.len()..];
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (range, after) = rest[..end]
        .strip_suffix(['.', ','])
        .map_or((&rest[..end], &rest[end..]), |r| (r, &rest[r.len()..]));
    let bounds = match range.split_once("..=").or_else(|| range.split_once("..")) {
        Some((low, high)) if low.parse::<u64>().is_ok() => (low, high),
        _ => return line.to_string(),
    };
    let largest = ["65535", "4294967295", "18446744073709551615", ""];
    let value = line[..at]
        .rsplit(' ')
        .next()
        .and_then(|v| v.parse::<i128>().ok());
    let top = bounds.1.parse::<i128>().ok();
    let allowed = match bounds {
        _ if value.zip(top).is_some_and(|(v, t)| v > t) => {
            format!("is too large: give a whole number up to {}", bounds.1)
        }
        (low, high) if largest.contains(&high) => {
            format!("is not allowed: give a whole number, {low} or more")
        }
        (low, high) => format!("is not allowed: give a whole number from {low} to {high}"),
    };
    format!("{} {allowed}{after}", &line[..at])
}

/// The command line this process was started with, quoted for a POSIX
/// shell, so that a message can say exactly what to run again.
pub fn this_command() -> String {
    std::env::args()
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as a POSIX shell reads it back: unchanged when it holds only
/// safe characters, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The rules as the user named them. `--rules capture` is GamePigeon's name
/// for the kalah rules; the library knows rules only by what they do and
/// would echo `kalah`, which reads as if the flag was not taken.
pub fn rules_label(set: &RuleSetArgs, rules: Rules) -> String {
    if set.rules == Some(PresetArg::Capture) && rules == Rules::KALAH {
        format!("capture (GamePigeon) = {rules}")
    } else {
        rules.to_string()
    }
}

/// A report's `Rules:` line in the user's words (see [`rules_label`]):
/// every report starts with the library's header, so this one change
/// covers `solve`, `replay`, `find` and the `game` commands.
pub fn name_capture(text: String, set: Option<&RuleSetArgs>) -> String {
    let kalah = format!("Rules: {}\n", Rules::KALAH);
    match set {
        Some(set) if set.rules == Some(PresetArg::Capture) && text.contains(&kalah) => text
            .replacen(
                &kalah,
                &format!("Rules: {}\n", rules_label(set, Rules::KALAH)),
                1,
            ),
        _ => text,
    }
}

/// The `Rules:` line of a report a player reads (`game play`, `game
/// analyze` without `--verbose`, `game review`) in a player's words: a
/// preset by its name alone (`Rules: kalah`), without the fields in
/// brackets that `--verbose`, `--help` and the docs spell out. Rules that
/// are no preset keep their fields: they are the words the flags use.
pub fn plain_rules(text: String) -> String {
    let Some(start) = text.find("Rules: ") else {
        return text;
    };
    let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
    let line = &text[start..end];
    match line.find(" (scope=") {
        Some(at) if line.ends_with(')') => {
            let short = &line[..at];
            format!("{}{short}{}", &text[..start], &text[end..])
        }
        _ => text,
    }
}
