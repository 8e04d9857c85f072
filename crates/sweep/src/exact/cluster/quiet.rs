//! What keeps timely's own output and panics out of the terminal: it
//! prints "awaiting connections" on stdout, which would spoil a JSON
//! answer there, and its threads panic when a peer goes away, which the
//! search reports as one error instead.

use std::sync::Mutex;

/// Standard output sent to standard error while it lives (Linux).
pub(super) struct StdoutToStderr(
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))] Option<i32>,
);

impl StdoutToStderr {
    pub(super) fn new() -> Self {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(target_os = "linux")]
        {
            // SAFETY: plain descriptor calls on the process's own
            // standard descriptors; a failed dup leaves stdout alone.
            unsafe {
                let saved = libc::dup(1);
                if saved >= 0 && libc::dup2(2, 1) >= 0 {
                    return StdoutToStderr(Some(saved));
                }
                if saved >= 0 {
                    libc::close(saved);
                }
            }
        }
        StdoutToStderr(None)
    }
}

impl Drop for StdoutToStderr {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(target_os = "linux")]
        if let Some(saved) = self.0.take() {
            // SAFETY: `saved` is the descriptor `new` duplicated from
            // stdout; it is put back and closed once.
            unsafe {
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}

/// Panic messages of timely's threads, kept out of the terminal: when
/// a peer goes away, timely's network threads panic, and so do the
/// workers and the guards that join them. The search turns them into
/// one [`SearchError::Cluster`].
pub(super) fn lost_messages() -> std::sync::MutexGuard<'static, Vec<String>> {
    static LOST: Mutex<Vec<String>> = Mutex::new(Vec::new());
    LOST.lock().unwrap_or_else(|e| e.into_inner())
}

/// Install, once a process, a panic hook that keeps timely's panics in
/// [`lost_messages`] and hands every other panic to the hook before it.
/// It stays: threads that timely leaves behind after a failure may
/// panic later still.
pub(super) fn quiet_timely_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Timely's threads, and its guards dropped on this one.
            let timely = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("timely"))
                || info.location().is_some_and(|l| l.file().contains("timely"));
            if !timely {
                return before(info);
            }
            let text = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            lost_messages().push(text);
        }));
    });
}
