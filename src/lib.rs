//! mancala-sweep: how many stones can the player to move put into their own
//! store in a single turn, when every pick whose last stone lands in the
//! store earns another pick?
//!
//! ```
//! use mancala_sweep::{solve, Board, Rules, SolveOptions};
//!
//! // GamePigeon's avalanche mode, from the start of the game.
//! let board = Board::uniform(6, 4)?;
//! let best = solve(&board, Rules::AVALANCHE, &SolveOptions::default())?;
//! assert_eq!(best.best_store, 43);
//! assert_eq!(best.optimal_count, 2);
//! assert_eq!(best.optimal[0].to_string(), "6 3 2 5 1 1 5 5 6 1 3 4 6 2 6 6 5 2 6 1 6 3 6 5 6 4");
//! # Ok::<(), mancala_sweep::Error>(())
//! ```
//!
//! # Layers
//!
//! The crate is one package in layers, each using only the ones above it
//! in this list:
//!
//! - `atomic_file` (private), under them all: files written whole (a
//!   temporary name, synced, renamed), for the search's checkpoints, the
//!   endgame files and the JSON documents alike.
//! - [`clock`], beside it: the clock of deadlines, `std`'s except in the
//!   browser, where the host gives it.
//! - `header` (private, re-exported as [`format::Header`]), beside them:
//!   the `format` and `version` keys that open every JSON document, the
//!   endgame file's of the game layer too.
//! - [`rules`]: what the game is: pits, rule sets, the board and its text
//!   format, the reference pick, turns and lines. No threads, no command
//!   line.
//! - [`search`]: the best single turn: exhaustive ([`search::exact`]) and
//!   by beam ([`search::beam`]), with the kernels chosen once per search
//!   ([`search::kernel`]).
//! - [`game`]: whole games between two players: the game state, the exact
//!   game value ([`game::solve`]) with its endgame database, the agents,
//!   matches and the play session.
//! - [`format`](mod@format): the JSON documents (versioned), the text reports, files
//!   written whole.
//! - [`puzzle`] and [`atlas`]: the product features, with their files.
//! - [`api`]: the web API's requests and answers apart from any server,
//!   shared by `serve` and the static site's WebAssembly engine.
//! - [`web`] (feature `server`): the local web app of `mancala-sweep serve`, answering with
//!   the same JSON documents as the command line and driving the same
//!   puzzle and game sessions ([`game::GameSession`]), so that it keeps no
//!   rule of its own.
//! - The command line lives in the binary (`src/main.rs` and `src/cli/`):
//!   flags, progress bars, Ctrl-C, exit codes, and the only words that
//!   name a flag.
//!
//! Each layer has its own error type; [`Error`] wraps them all.

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod atlas;
mod atomic_file;
pub mod clock;
pub mod error;
pub mod format;
pub mod game;
mod header;
pub mod puzzle;
pub mod rules;
pub mod search;
#[cfg(feature = "server")]
pub mod web;

pub use error::{Error, Result};
pub use rules::{Board, Capture, Line, Pit, Preset, Rules, Scope};
pub use search::{find, solve, FindOptions, Found, Listing, Solution, SolveOptions};

/// The search's internals, for the benchmarks and the kernels' property
/// tests: not part of the documented API, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::search::exact::bench::{Bucket, WideBucket};
    pub use crate::search::exact::key::{bits_needed, Key};
    pub use crate::search::exact::store::memory::{merge_sorted, Frontier, Run};
    pub use crate::search::kernel::packed::{self, pack, unpack, Engine, Packed};
    pub use crate::search::kernel::relay::{Landings, Lanes};
}
