//! What a running search has done so far, for another thread to show.

use super::TO_THE_END;
use std::sync::atomic::{AtomicU64, Ordering};
/// How far a running search has got, read by another thread for a progress
/// line: a whole-game solve or a deep agent's turn can take minutes, and a
/// line that only counts seconds does not say whether it is near its end.
/// Written where the search checks its cancel flag (every 4,096 picks) and
/// after each pass of MTD(f), so it costs the search nothing it would
/// notice.
#[derive(Debug)]
pub struct SolveWatch {
    pub(super) picks: AtomicU64,
    depth: std::sync::atomic::AtomicU32,
    lower: std::sync::atomic::AtomicI32,
    upper: std::sync::atomic::AtomicI32,
    passes: AtomicU64,
    /// Picks and passes of the earlier calls of a solve kept in a
    /// checkpoint
    /// ([`SolverBuilder::solve_kept`](super::SolverBuilder::solve_kept)),
    /// which each reading adds.
    picks_before: AtomicU64,
    passes_before: AtomicU64,
}

/// A reading of a [`SolveWatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchReading {
    /// Picks searched by the current call (by the whole solve, earlier
    /// runs included, when it is kept in a checkpoint).
    pub picks: u64,
    /// Turns ahead of the last finished pass ([`None`]: to the end of the
    /// game), or `None` with no pass finished yet (then see `passes`).
    pub depth: Option<u32>,
    /// Bounds of the last finished pass, relative to the stores of the
    /// position that pass searched (the root's, in [`Solver::solve`]); at
    /// the start of a solve, what is known before its first pass (wider
    /// than any value before a search begins).
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
    /// Passes of MTD(f) finished so far in the current call (see `picks`).
    pub passes: u64,
}

impl Default for SolveWatch {
    /// Nothing known yet: bounds as wide as they go, until a call begins.
    fn default() -> Self {
        SolveWatch {
            picks: AtomicU64::new(0),
            depth: Default::default(),
            lower: std::sync::atomic::AtomicI32::new(i32::MIN),
            upper: std::sync::atomic::AtomicI32::new(i32::MAX),
            passes: AtomicU64::new(0),
            picks_before: AtomicU64::new(0),
            passes_before: AtomicU64::new(0),
        }
    }
}

impl SolveWatch {
    /// What the search has done so far.
    pub fn read(&self) -> WatchReading {
        let depth = self.depth.load(Ordering::Relaxed);
        WatchReading {
            picks: self.picks_before.load(Ordering::Relaxed) + self.picks.load(Ordering::Relaxed),
            depth: (depth != TO_THE_END as u32).then_some(depth),
            lower: self.lower.load(Ordering::Relaxed),
            upper: self.upper.load(Ordering::Relaxed),
            passes: self.passes_before.load(Ordering::Relaxed)
                + self.passes.load(Ordering::Relaxed),
        }
    }

    /// A call begins, its value known to lie in `lo..=hi` (relative to the
    /// stores, as the passes' bounds are).
    pub(super) fn begin(&self, lo: i32, hi: i32) {
        self.picks.store(0, Ordering::Relaxed);
        self.passes.store(0, Ordering::Relaxed);
        self.depth.store(TO_THE_END as u32, Ordering::Relaxed);
        self.lower.store(lo, Ordering::Relaxed);
        self.upper.store(hi, Ordering::Relaxed);
    }

    /// The picks and passes of the calls before this one, in a solve kept
    /// in a checkpoint: the readings count the whole solve's.
    pub(super) fn carry(&self, picks: u64, passes: u64) {
        self.picks_before.store(picks, Ordering::Relaxed);
        self.passes_before.store(passes, Ordering::Relaxed);
    }

    pub(super) fn pass(&self, depth: u8, lo: i32, hi: i32, picks: u64) {
        self.depth.store(depth as u32, Ordering::Relaxed);
        self.lower.store(lo, Ordering::Relaxed);
        self.upper.store(hi, Ordering::Relaxed);
        self.picks.store(picks, Ordering::Relaxed);
        self.passes.fetch_add(1, Ordering::Relaxed);
    }
}
