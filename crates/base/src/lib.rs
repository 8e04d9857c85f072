//! What every layer of mancala-sweep stands on and none of them owns:
//! files written whole ([`atomic_file`]), the clock of deadlines
//! ([`clock`]) and the two keys that open every JSON document
//! ([`header`]), so that the sweep's checkpoints, the game's endgame files
//! and the command line's documents are written, timed and headed alike.

pub mod atomic_file;
pub mod clock;
pub mod header;
