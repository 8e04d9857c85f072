//! Ctrl-C, SIGTERM and SIGHUP: the first one asks the running command to
//! stop cleanly (checkpoint, report what it has, remove what it made for
//! itself); a second one exits at once. The exit status is the shell's for
//! the first signal: 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP).

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

/// Raised by the first signal; the library's searches poll it and stop
/// cleanly. A global because a signal handler can reach nothing else.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit status after Ctrl-C, as shells report SIGINT (128 + 2).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit status of the first signal (128 + its number), once one came.
static STATUS: AtomicU8 = AtomicU8::new(EXIT_INTERRUPTED);

/// Set by commands that have nothing to save (an interactive game): the
/// first signal ends the line on the terminal and exits.
static EXIT_ON_FIRST: AtomicBool = AtomicBool::new(false);

/// What must finish before a signal's exit at once (a build in the
/// background keeping the layers it finished): each stops its work and
/// waits for it.
type BeforeExit = Box<dyn Fn() + Send>;
static BEFORE_EXIT: Mutex<Vec<BeforeExit>> = Mutex::new(Vec::new());

/// Run `f` before the process exits on a signal, on the handler's thread.
pub fn before_exit(f: impl Fn() + Send + 'static) {
    if let Ok(mut all) = BEFORE_EXIT.lock() {
        all.push(Box::new(f));
    }
}

/// What every signal does, on the handler's own thread (not in signal
/// context, so printing and exiting are safe).
fn on_signal(status: u8) {
    if EXIT_ON_FIRST.load(Ordering::SeqCst) || INTERRUPTED.load(Ordering::SeqCst) {
        // Leave the terminal on a fresh line, not after a prompt.
        println!();
        if let Ok(all) = BEFORE_EXIT.lock() {
            all.iter().for_each(|f| f());
        }
        std::process::exit(i32::from(status));
    }
    STATUS.store(status, Ordering::SeqCst);
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Install the handler for SIGINT, SIGTERM and SIGHUP.
#[cfg(unix)]
pub fn catch_ctrl_c() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                on_signal(128 + sig as u8);
            }
        });
}

/// Install the handler for Ctrl-C (and Ctrl-Break).
#[cfg(not(unix))]
pub fn catch_ctrl_c() {
    let _ = ctrlc::set_handler(|| on_signal(EXIT_INTERRUPTED));
}

/// Make the first signal exit at once (status 128 + its number).
pub fn exit_on_first_ctrl_c() {
    EXIT_ON_FIRST.store(true, Ordering::SeqCst);
}

/// True once a signal came.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The exit status for a run that a signal stopped: 130 after Ctrl-C, 143
/// after SIGTERM, 129 after SIGHUP.
pub fn exit_status() -> u8 {
    STATUS.load(Ordering::SeqCst)
}
