//! Progress bars on stderr: hidden for quiet runs and when stderr is not a
//! terminal, so that `--json` on stdout is never mixed with them.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_sweep::format::bytes::format_bytes;
use mancala_sweep::search::{FindProgress, Phase, Progress};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The progress bar of a long search: hidden for the first second, and
/// never drawn when stderr is not a terminal or with `--quiet`.
pub struct Bar {
    bar: ProgressBar,
    started: Instant,
    shown: AtomicBool,
    enabled: bool,
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
            shown: false.into(),
            enabled: enabled && std::io::stderr().is_terminal(),
        }
    }

    /// Show `store` of `max_store` with a prefix and a message, once the
    /// run has lasted a second. `message` gets the seconds so far.
    fn show(&self, prefix: &str, store: usize, max_store: usize, message: impl Fn(f64) -> String) {
        if !self.enabled {
            return;
        }
        let elapsed = self.started.elapsed();
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
        self.show(prefix, p.store, p.max_store, |secs| {
            format!(
                "| {} positions | {:.1}M/s | {}",
                p.positions,
                p.positions as f64 / secs / 1e6,
                format_bytes(p.memory)
            )
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
}

/// A progress bar that counts items (cells, puzzles) on stderr, drawn only
/// when stderr is a terminal and not `--quiet`.
pub fn counter_bar(len: u64, template: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    if !quiet && std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}
