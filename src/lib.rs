//! mancala-sweep: how many stones can the player to move put into their own
//! store in a single turn, when every pick whose last stone lands in the
//! store earns another pick?
//!
//! The crate is organised by the domain:
//! - [`pit`]: pit numbers and the sowing ring;
//! - [`rules`]: rule sets and presets;
//! - [`board`]: positions and the board text format;
//! - [`sow`] and [`pick`]: the rules engine (one sowing; one pick with relay
//!   and capture);
//! - [`turn`]: checked play of a pick sequence (`replay`);
//! - [`engine`], [`relay`] (all picks of a position in lockstep), [`key`],
//!   [`frontier`], [`level`] and [`sweep`]: the exact search;
//! - [`unsow`]: picks played backwards, for the listing pass;
//! - [`find`]: the heuristic beam search for boards too big to exhaust;
//! - [`atlas`]: the grid of variants, with its JSON, Markdown and SVG output;
//! - [`report`]: the text and JSON output of the commands.

pub mod atlas;
pub mod board;
pub mod config;
pub mod engine;
pub mod error;
pub mod find;
pub mod frontier;
pub mod key;
pub mod level;
pub mod pick;
pub mod pit;
pub mod play;
pub mod puzzle;
pub mod relay;
pub mod report;
pub mod rules;
pub mod sow;
pub mod sweep;
pub mod turn;
pub mod unsow;

pub use board::Board;
pub use error::{Error, Result};
pub use pit::Pit;
pub use rules::{Capture, Preset, Rules, Scope};
pub use sweep::{solve, Listing, Solution, SolveOptions};
