//! The rules: what the game is, with no search, threads, command line or
//! plotting in it.
//!
//! This layer is the one every other builds on (the search, the puzzles,
//! the whole-game engine, a web server, a future WASM player), so it depends
//! on nothing of theirs: only `serde` for the public formats and `thiserror`
//! for its errors.
//!
//! - [`pit`]: pit numbers (the public interface) and the sowing ring;
//! - [`variant`]: rule sets ([`Rules`]) and their presets;
//! - [`board`]: a position and the board text format; [`limits`]: its sizes;
//! - [`sow`] and [`pick`]: the reference rules engine (one sowing; one pick
//!   with relay and capture);
//! - [`turn`]: checked play of a pick sequence, as `replay` does;
//! - [`line`](mod@line): a pick sequence as one type;
//! - [`unsow`]: picks played backwards, which the listing pass uses;
//! - [`setup`]: a rule set and start board from optional choices (a preset
//!   with overrides, a size or a board text);
//! - [`error`]: what this layer refuses.

pub mod board;
pub mod error;
pub mod limits;
pub mod line;
pub mod pick;
pub mod pit;
pub mod setup;
pub mod sow;
pub mod turn;
pub mod unsow;
pub mod variant;

pub use board::{Board, MAX_PITS_PER_SIDE, MAX_STONES_IN_PLAY};
pub use error::{BoardError, PickError, ReplayError};
pub use line::Line;
pub use pick::{PickEnd, PickTrace};
pub use pit::Pit;
pub use setup::RuleOptions;
pub use turn::{replay, Turn};
pub use variant::{Capture, Preset, Rules, Scope};
