//! Progress on stderr: a bar on a terminal, hidden for quiet runs and when
//! stderr is not a terminal, so that `--json` on stdout is never mixed with
//! it. With `MANCALA_SWEEP_PROGRESS=lines` it is one plain line a step
//! instead, from the start, for logs and for scripts (and the tests) that
//! wait until a run is under way.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_sweep::sweep::memory::format_bytes;
use mancala_sweep::sweep::{FindProgress, Phase, Progress};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A time for people: `40 s`, `12 min`, `3.5 h`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

/// The environment variable that asks for progress as plain lines.
pub const PROGRESS_VAR: &str = "MANCALA_SWEEP_PROGRESS";

/// True when [`PROGRESS_VAR`] is `lines`.
fn lines() -> bool {
    std::env::var(PROGRESS_VAR).is_ok_and(|v| v == "lines")
}

/// The progress bar of a long search: hidden for the first second, and
/// never drawn when stderr is not a terminal or with `--quiet`.
pub struct Bar {
    bar: ProgressBar,
    started: Instant,
    /// Positions at the first report: a resumed search starts with those
    /// of earlier runs, which the rate leaves out.
    base: std::sync::OnceLock<u64>,
    shown: AtomicBool,
    enabled: bool,
    lines: bool,
}

impl Bar {
    /// A bar, drawn when `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] store {pos}/{len} {msg} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar {
            bar,
            started: Instant::now(),
            base: std::sync::OnceLock::new(),
            shown: false.into(),
            enabled: enabled && std::io::stderr().is_terminal(),
            lines: enabled && lines(),
        }
    }

    /// Show `store` of `max_store` with a prefix and a message, once the
    /// run has lasted a second. `message` gets the seconds so far.
    fn show(&self, prefix: &str, store: usize, max_store: usize, message: impl Fn(f64) -> String) {
        let elapsed = self.started.elapsed();
        if self.lines {
            let text = message(elapsed.as_secs_f64().max(1e-9));
            eprintln!("{} store {store}/{max_store} {text}", prefix.trim_end());
            return;
        }
        if !self.enabled {
            return;
        }
        if !self.shown.load(Ordering::Relaxed) {
            if elapsed < Duration::from_secs(1) {
                return;
            }
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.store(true, Ordering::Relaxed);
        }
        self.bar.set_prefix(prefix.to_string());
        self.bar.set_length(max_store as u64);
        self.bar.set_position(store as u64);
        self.bar
            .set_message(message(elapsed.as_secs_f64().max(1e-9)));
    }

    /// A step of `solve`.
    pub fn solve(&self, p: &Progress) {
        let prefix = match p.phase {
            Phase::Forward => "counting",
            Phase::Backward => "listing ",
        };
        let base = *self.base.get_or_init(|| p.positions);
        self.show(prefix, p.store, p.max_store, |secs| {
            let rate = p.positions.saturating_sub(base) as f64 / secs;
            let mut text = format!(
                "| {} positions | {:.1}M/s | {}",
                p.positions,
                rate / 1e6,
                format_bytes(p.memory)
            );
            if let Some(d) = p.disk {
                text.push_str(&format!(" | disk {}", format_bytes(d.used)));
                if let Some(free) = d.free {
                    text.push_str(&format!(" ({} free)", format_bytes(free)));
                }
            }
            // Inside a large bucket: how far, and how long it has left at
            // its pace so far.
            if let Some(w) = p.within {
                let left = w.seconds * (w.of - w.done) as f64 / w.done.max(1) as f64;
                text.push_str(&format!(
                    " | this bucket {}/{} ({:.0}%, about {left:.0} s left)",
                    w.done,
                    w.of,
                    100.0 * w.done as f64 / w.of.max(1) as f64
                ));
            }
            // The whole search: the forecast of positions left at this
            // run's pace so far.
            if let Some(left) = p.left.filter(|_| rate > 0.0) {
                text.push_str(&format!(
                    " | about {} left in all (forecast)",
                    duration(left as f64 / rate)
                ));
            }
            text
        });
    }

    /// A step of `find`.
    pub fn find(&self, p: &FindProgress) {
        let prefix = format!("round {} (beam {})", p.round + 1, p.beam);
        self.show(&prefix, p.store, p.max_store, |secs| {
            format!(
                "| best {} | {} positions | {:.2}M/s",
                p.best,
                p.positions,
                p.positions as f64 / secs / 1e6
            )
        });
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Print `line` on stderr above the bar, which stays and goes on.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

/// A progress bar that counts items (cells, puzzles) on stderr, drawn only
/// when stderr is a terminal and not `--quiet`; plain lines with
/// [`PROGRESS_VAR`].
pub struct Counter {
    bar: ProgressBar,
    name: &'static str,
    lines: bool,
}

impl Counter {
    /// A counter of `len` items named `name` (`cells`, `puzzles`), drawn
    /// with `template`.
    pub fn new(len: u64, name: &'static str, template: &str, quiet: bool) -> Counter {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        if !quiet && std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        Counter {
            bar,
            name,
            lines: !quiet && lines(),
        }
    }

    /// `done` items so far, and what the last one was.
    pub fn set(&self, done: u64, message: String) {
        if self.lines {
            let len = self.bar.length().unwrap_or(0);
            eprintln!("{} {done}/{len} {message}", self.name);
        }
        self.bar.set_position(done);
        self.bar.set_message(message);
    }

    /// Print `line` on stderr above the bar (nothing when quiet).
    pub fn println(&self, line: &str) {
        if self.lines || !self.bar.is_hidden() {
            self.bar.suspend(|| eprintln!("{line}"));
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A line of progress for a search that has no stores to count (an
/// analysis): a spinner with a message on a terminal, plain lines (at most
/// four a second) with [`PROGRESS_VAR`], nothing when quiet or when stderr
/// is not a terminal; hidden for its first half second.
pub struct Spinner {
    bar: ProgressBar,
    started: Instant,
    last_line: std::sync::Mutex<Option<Instant>>,
    enabled: bool,
    lines: bool,
    quiet: bool,
}

impl Spinner {
    /// A spinner, drawn unless `quiet`.
    pub fn new(quiet: bool) -> Spinner {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        Spinner {
            bar,
            started: Instant::now(),
            last_line: std::sync::Mutex::new(None),
            enabled: !quiet && std::io::stderr().is_terminal(),
            lines: !quiet && lines(),
            quiet,
        }
    }

    /// Print `line` on stderr above the spinner, which goes on (nothing
    /// when quiet).
    pub fn println(&self, line: &str) {
        if !self.quiet {
            self.bar.suspend(|| eprintln!("{line}"));
        }
    }

    /// Show `message`.
    pub fn set(&self, message: String) {
        if self.lines {
            let mut last = self.last_line.lock().expect("not poisoned");
            if last.is_none_or(|t| t.elapsed() >= Duration::from_millis(250)) {
                *last = Some(Instant::now());
                eprintln!("{message}");
            }
            return;
        }
        if !self.enabled || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
        }
        self.bar.set_message(message);
    }

    /// Clear it.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Runs `work` on this thread while a [`Spinner`] on stderr shows what
/// `status` says, asked four times a second with the seconds so far (unless
/// `quiet`): every wait that can pass a second (the computer's turn, a
/// hint, a whole-game solve) shows that the program works, how far it got
/// and for how long, instead of a silent terminal. `work` may print lines
/// above the spinner through the one it is given.
pub fn thinking<T>(
    quiet: bool,
    status: &(dyn Fn(f64) -> String + Sync),
    work: impl FnOnce(&Spinner) -> T,
) -> T {
    let spinner = Spinner::new(quiet);
    let started = Instant::now();
    let done = AtomicBool::new(false);
    let out = std::thread::scope(|scope| {
        let shower = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                spinner.set(status(started.elapsed().as_secs_f64()));
                std::thread::park_timeout(Duration::from_millis(250));
            }
        });
        let out = work(&spinner);
        done.store(true, Ordering::Relaxed);
        shower.thread().unpark();
        out
    });
    spinner.finish();
    out
}
