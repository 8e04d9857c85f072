//! The command line: flags, progress bars, Ctrl-C, exit codes, and the
//! words that name a flag.
//!
//! Everything here is about the terminal; the library below it answers the
//! same questions for any front end. The flow of a command is:
//! [`args`] (clap structs, as close to the flags as possible) → one
//! resolver per command in [`cmd`] that builds the library's validated
//! options → a library call → the library's text or JSON → [`errors`] for
//! errors (one line, with the flag to change) and the exit code.

pub mod args;
pub mod cmd;
pub mod errors;
pub mod place;
pub mod progress;
pub mod signal;
