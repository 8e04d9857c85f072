//! Ctrl-C: the first one asks the running command to stop cleanly and
//! report what it has; a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first Ctrl-C; the library's searches poll it and stop
/// cleanly. A global because a signal handler can reach nothing else.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit status after Ctrl-C, as shells report SIGINT (128 + 2).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Set by commands that have nothing to save (an interactive game): the
/// first Ctrl-C ends the line on the terminal and exits.
static EXIT_ON_FIRST: AtomicBool = AtomicBool::new(false);

/// Install the handler.
pub fn catch_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if EXIT_ON_FIRST.load(Ordering::SeqCst) || INTERRUPTED.swap(true, Ordering::SeqCst) {
            // Leave the terminal on a fresh line, not after a prompt.
            println!();
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
}

/// Make the first Ctrl-C exit at once (status 130).
pub fn exit_on_first_ctrl_c() {
    EXIT_ON_FIRST.store(true, Ordering::SeqCst);
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
