//! Ctrl-C: the first one asks the running command to stop cleanly and
//! report what it has; a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first Ctrl-C; the library's searches poll it and stop
/// cleanly. A global because a signal handler can reach nothing else.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit status after Ctrl-C, as shells report SIGINT (128 + 2).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Install the handler.
pub fn catch_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
