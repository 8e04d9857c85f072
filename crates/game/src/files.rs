//! The format names of the game layer's two files, the endgame database
//! and a solve's checkpoint: named by the code that writes and reads each
//! file and by the errors that refuse one, so they sit below both.

/// The format name of an endgame database file ([`crate::EndgameDb::save`]):
/// a first line of JSON ([`crate::endgame::EndgameHeader`]) padded
/// with spaces to a multiple of 64 bytes, then the values packed, about
/// 3.5 bits a position (the arrays: docs/games.md, "The endgame database
/// file").
pub const ENDGAME_FORMAT: &str = "mancala-sweep-endgame/2";

/// The format name of the endgame database files written before the
/// packed ones: a first line of JSON, then one byte a position, the value
/// as a signed byte, in the order of its ranks. Still read as they are
/// (a build on one writes it packed).
pub const ENDGAME_FORMAT_BYTES: &str = "mancala-sweep-endgame/1";

/// The format name of a checkpoint file: a first line of JSON (the
/// checkpoint's header), then the table's entries, then the values of the
/// endgame database filled on demand, a signed byte each in the order of
/// its ranks.
pub const CHECKPOINT_FORMAT: &str = "mancala-sweep-game-checkpoint/1";
