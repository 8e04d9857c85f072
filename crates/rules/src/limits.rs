//! The limits of a board, which the board and the errors that refuse it
//! both name (apart, so that neither imports the other).

/// Most pits a side.
pub const MAX_PITS_PER_SIDE: usize = 16;
/// Capacity of the ring: 2n pits plus the own store.
pub const RING_CAP: usize = 2 * MAX_PITS_PER_SIDE + 1;
/// Most stones in the pits and the own store together (and in the opponent's
/// store): every counter is a `u8`, and no sowing can overflow one when the
/// stones in play fit.
pub const MAX_STONES_IN_PLAY: u32 = 255;
