//! mancala-sweep: how many stones can the player to move put into their own
//! store in a single turn, when every pick whose last stone lands in the
//! store earns another pick?
//!
//! ```
//! use mancala_sweep::{solve, Board, Rules, SweepOptions};
//!
//! // GamePigeon's avalanche mode, from the start of the game.
//! let board = Board::uniform(6, 4)?;
//! let best = solve(&board, Rules::AVALANCHE, &SweepOptions::default())?;
//! assert_eq!(best.best_store, 43);
//! assert_eq!(best.optimal_count, 2);
//! assert_eq!(best.optimal[0].to_string(), "6 3 2 5 1 1 5 5 6 1 3 4 6 2 6 6 5 2 6 1 6 3 6 5 6 4");
//! # Ok::<(), mancala_sweep::Error>(())
//! ```
//!
//! # Layers
//!
//! The library is a workspace of crates, one a layer, each using only the
//! ones above it in this list (Cargo holds them to it); this crate
//! re-exports them under one name:
//!
//! - `base` (`crates/base`), under them all: files written whole, the
//!   clock of deadlines ([`clock`]: `std`'s except in the browser, where
//!   the host gives it) and the `format` and `version` keys that open every
//!   JSON document (re-exported as [`format::Header`]).
//! - [`rules`] (`crates/rules`): what the game is: pits, rule sets, the
//!   board and its text format, the reference pick, turns and lines. No
//!   threads, no command line.
//! - [`sweep`] (`crates/sweep`): the best single turn: exhaustive
//!   ([`sweep::exact`]) and by beam ([`sweep::beam`]), with the kernels
//!   chosen once per sweep ([`sweep::kernel`]).
//! - [`game`] (`crates/game`): whole games between two players: the game
//!   state, the exact game value ([`game::solve`]) with its endgame
//!   database, the agents, matches and the play session.
//! - [`format`](mod@format) (`crates/format`): the JSON documents
//!   (versioned), the text reports, files written whole.
//! - [`puzzle`] and [`atlas`] (`crates/puzzle`, `crates/atlas`): the
//!   product features, with their files.
//! - [`api`] (`crates/api`): the web API's requests and answers apart from
//!   any server, shared by `serve` and the static site's WebAssembly
//!   engine.
//! - `server` (`crates/server`, feature `server`): the local web app of
//!   `mancala-sweep serve`, answering with the same JSON documents as the
//!   command line and driving the same puzzle and game sessions
//!   ([`game::GameSession`]), so that it keeps no rule of its own.
//! - The command line (`crates/cli`, and the binary's `src/main.rs`):
//!   flags, progress bars, Ctrl-C, exit codes, and the only words that
//!   name a flag.
//!
//! Each layer has its own error type; [`Error`] wraps them all.

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub use api;
pub use atlas;
pub use base::clock;
pub mod error;
pub use format;
pub use game;
pub use puzzle;
pub use rules;
#[cfg(feature = "server")]
pub use server;
pub use sweep;

pub use error::{Error, Result};
pub use rules::{Board, Capture, Line, Pit, Preset, Rules, Scope};
pub use sweep::{find, solve, FindOptions, Found, Listing, Solution, SweepOptions};

/// The sweep's internals, for the benchmarks and the kernels' property
/// tests: not part of the documented API, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use sweep::exact::bench::{Bucket, WideBucket};
    pub use sweep::exact::key::{bits_needed, Key};
    pub use sweep::exact::store::memory::{merge_sorted, Frontier, Run};
    pub use sweep::kernel::packed::{self, pack, unpack, Engine, Packed};
    pub use sweep::kernel::relay::{Landings, Lanes};
}
