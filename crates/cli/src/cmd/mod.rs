//! One file a command: build the library's options from the flags, call the
//! library, and return the text to print.

pub mod atlas;
pub mod background;
pub mod book;
pub mod cache;
pub mod find;
pub mod follow;
pub mod game;
pub mod game_cache;
pub mod kept;
pub mod play;
pub mod puzzles;
pub mod replay;
pub mod review;
pub mod serve;
pub mod shell;
pub mod solve;

use super::errors::CliError;
use mancala_sweep::sweep::KernelChoice;

/// What a command returns: the text for stdout, or an error.
pub type Outcome = Result<String, CliError>;

/// The environment variable that caps the kernels a search may use (for
/// comparing them; see `mancala_sweep::sweep::kernel`).
pub const KERNEL_VAR: &str = "MANCALA_SWEEP_KERNEL";

/// The kernel choice from [`KERNEL_VAR`], `auto` when it is not set.
pub fn kernel_choice() -> Result<KernelChoice, CliError> {
    match std::env::var(KERNEL_VAR) {
        Err(_) => Ok(KernelChoice::Auto),
        Ok(v) => v
            .parse()
            .map_err(|e: String| CliError::Input(format!("{KERNEL_VAR}: {e}"))),
    }
}
