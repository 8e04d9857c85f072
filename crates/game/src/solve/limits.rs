//! The limits of a solver's calls beside the cancel flag: a node count,
//! a deadline, a pause, a stop flag, and the reading of how far it got.

use super::{Limits, LineLimits, SolveWatch, Solver};
use base::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
impl Solver {
    /// Make the next calls stop by themselves, as a cancel would, after
    /// `nodes` more nodes each (counted from each call's start) or at
    /// `deadline`, whichever comes first (`None`: no such limit).
    /// A value proved within the limits comes with its best turn; the rest
    /// of its principal variation only as far as the limits allow.
    pub fn set_limits(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.limits = Limits {
            nodes: nodes.unwrap_or(u64::MAX),
            deadline,
            line: LineLimits::TurnPast,
        };
    }

    /// [`Solver::set_limits`], but the best turn of a value proved within
    /// them is found within them too: a value proved as they run out then
    /// comes without its turn ([`GameSolveResult::best_turn`] empty). For
    /// a caller that can find the turn another way: an analysis knows its
    /// turns' end positions and reads their proven bounds, where the
    /// search for the turn, pick by pick, could take as long again as the
    /// proof.
    pub fn set_limits_within(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.set_limits(nodes, deadline);
        self.limits.line = LineLimits::Within;
    }

    /// Make the next calls stop at `deadline` to be taken up again (a
    /// checkpoint's interval): as [`Solver::set_limits`], but a value
    /// proved before it gets its whole principal variation.
    pub(crate) fn set_pause(&mut self, deadline: Instant) {
        self.limits = Limits {
            nodes: u64::MAX,
            deadline: Some(deadline),
            line: LineLimits::Whole,
        };
    }

    /// Make the next calls stop, as a limit does, once `flag` is set (by
    /// another thread: an analysis's estimates end when its helper has
    /// proved the position); `None` forgets the flag. The caller's cancel
    /// flag still stops them too.
    pub fn stop_when(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_when = flag;
    }

    /// True once a limit of [`Solver::set_limits`] is reached (the picks
    /// of every thread counted), or the flag of [`Solver::stop_when`] set.
    pub(super) fn past_limits(&self) -> bool {
        self.counted().0 >= self.limits.nodes
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop_when
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// What the search of the current call has done so far, readable from
    /// another thread while it runs.
    pub fn watch(&self) -> Arc<SolveWatch> {
        self.watch.clone().unwrap_or_default()
    }

    /// Nodes (picks) searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
