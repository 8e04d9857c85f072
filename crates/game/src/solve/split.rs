//! Threads that share one search (Young Brothers Wait): a node's eldest
//! child is searched first, alone; when it does not settle the node (no
//! cutoff: every child will be searched), its younger brothers are offered
//! to the threads waiting for work, and the node's owner and its helpers
//! take them one by one. Every search of MTD(f) is a null window, so a
//! child's search does not depend on its siblings' values: searched side
//! by side, the brothers cost what they cost one after the other, and the
//! value and its bounds are those of one thread. A child that reaches beta
//! settles the node, and the threads still under it stop.
//!
//! An owner whose brothers are all taken does not wait idle for its
//! helpers: it helps them at the nodes they offer in turn below its own
//! (the "helpful master"), so that a long last brother is searched by both.

use super::search::{Child, Frame};
use super::{Solver, CYCLE_CAP};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Nodes with at least this many stones in their pits, and
/// [`SPLIT_ABOVE_DB`] more than the endgame database holds, may offer their
/// younger brothers: their subtrees are large enough to pay for the offer
/// (a lock and a wake-up) and for the picks a cut wastes. Measured on
/// Kalah(6,4) with the 16-stone database (docs/notebook/game-solver.md,
/// thirteenth round): 18, 22, 26 and 30 stones within 10%, 26 the best.
pub(super) const SPLIT_STONES: i32 = 26;

/// See [`SPLIT_STONES`]: a node a few stones above the database has its
/// children in it, and a small subtree.
pub(super) const SPLIT_ABOVE_DB: i32 = 10;

/// The nodes offered to the threads of one search, and the threads
/// waiting for one.
#[derive(Default)]
pub(super) struct Splits {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    wake: Condvar,
    /// Threads waiting for a node to help at: an owner offers its
    /// brothers only when one is.
    idle: AtomicUsize,
    /// The search is over: helpers leave.
    done: AtomicBool,
    /// The picks and expanded positions of the helpers, counted as each
    /// leaves a node it helped at.
    helped: (AtomicU64, AtomicU64),
}

/// A node whose younger brothers are offered: its children not yet
/// searched, taken in order, and what they found.
pub(super) struct SplitPoint {
    kids: [(u8, Child); CYCLE_CAP],
    count: usize,
    frame: Frame,
    /// The next brother to take.
    next: AtomicUsize,
    /// Helpers searching one of its brothers now (the owner not counted);
    /// changed under the lock of [`Splits::open`].
    working: AtomicUsize,
    /// The best value found among the brothers, and its pick.
    found: Mutex<(i32, u8)>,
    /// A brother reached beta, or a thread was stopped under it: the
    /// threads under it stop.
    cut: AtomicBool,
    /// A thread was stopped under it by its cancel flag or its limits: the
    /// node has no value.
    failed: AtomicBool,
    /// The node offered by the owner above it, if any.
    parent: Option<Arc<SplitPoint>>,
}

impl SplitPoint {
    /// Whether this node or one above it is cut.
    fn cut_here_or_above(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
            || self.parent.as_ref().is_some_and(|p| p.cut_here_or_above())
    }

    /// Whether `other` is this node or above it.
    fn under(&self, other: &Arc<SplitPoint>) -> bool {
        std::ptr::eq(self, &**other) || self.parent.as_ref().is_some_and(|p| p.under(other))
    }

    /// Brothers left to take, and nothing cut it.
    fn has_work(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.count && !self.cut_here_or_above()
    }

    /// A brother's value: kept if the best, and a cut at beta.
    fn offer(&self, v: i32, from: u8) {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if v > found.0 {
            *found = (v, from);
        }
        if v >= self.frame.beta {
            self.cut.store(true, Ordering::Relaxed);
        }
    }
}

/// Tells the helpers the search is over when dropped (see
/// [`Splits::finish_on_drop`]).
pub(super) struct Finish<'a>(&'a Splits);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        let _open = self.0.lock();
        self.0.done.store(true, Ordering::Relaxed);
        self.0.wake.notify_all();
    }
}

/// A thread's hold on a node it searches at, as a helper (left when
/// dropped) or as its owner: marked failed if the thread panicked there,
/// so that no thread waits for it or searches on under it and the panic
/// reaches the scope that joins the threads.
struct Joined<'a> {
    splits: &'a Splits,
    sp: Arc<SplitPoint>,
    owner: bool,
}

impl Drop for Joined<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.sp.failed.store(true, Ordering::Relaxed);
            self.sp.cut.store(true, Ordering::Relaxed);
        }
        if !self.owner {
            self.splits.leave(&self.sp);
        }
    }
}

impl Splits {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the helpers the search is over when the guard is dropped.
    pub(super) fn finish_on_drop(&self) -> Finish<'_> {
        Finish(self)
    }

    /// Waits for a node with brothers left under `below` (any node when
    /// `None`), joined (counted as working at it); `None` once the search
    /// is over or, for an owner, once `below` has no helper left. With
    /// `wait_only`, joins none: a stopped owner waits for its helpers.
    fn join(&self, below: Option<&Arc<SplitPoint>>, wait_only: bool) -> Option<Arc<SplitPoint>> {
        let mut open = self.lock();
        loop {
            if self.done.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(own) = below {
                if own.working.load(Ordering::Relaxed) == 0 {
                    return None;
                }
            }
            let found = open.iter().find(|sp| {
                !wait_only
                    && sp.has_work()
                    && below.is_none_or(|own| !Arc::ptr_eq(sp, own) && sp.under(own))
            });
            if let Some(sp) = found {
                sp.working.fetch_add(1, Ordering::Relaxed);
                return Some(Arc::clone(sp));
            }
            self.idle.fetch_add(1, Ordering::Relaxed);
            open = self.wake.wait(open).unwrap_or_else(|e| e.into_inner());
            self.idle.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// A helper leaves `sp`: its owner may be waiting for it.
    fn leave(&self, sp: &SplitPoint) {
        let _open = self.lock();
        sp.working.fetch_sub(1, Ordering::Relaxed);
        self.wake.notify_all();
    }
}

impl Solver {
    /// A helper's life: joins the nodes offered, searches their brothers,
    /// until the search is over.
    pub(super) fn help_splits(&mut self, splits: &Splits) {
        let never = AtomicBool::new(false);
        while let Some(sp) = splits.join(None, false) {
            let joined = Joined {
                splits,
                sp,
                owner: false,
            };
            match self.n {
                6 => self.work_at::<6>(&joined.sp, &never),
                _ => self.work_at::<0>(&joined.sp, &never),
            }
            drop(joined);
            splits
                .helped
                .0
                .fetch_add(std::mem::take(&mut self.nodes), Ordering::Relaxed);
            splits
                .helped
                .1
                .fetch_add(std::mem::take(&mut self.expanded), Ordering::Relaxed);
            // A stop under a node it helped at ends there.
            self.stopped = false;
            self.split_stop = false;
        }
    }

    /// The younger brothers of a node whose eldest gave `best` without a
    /// cut, while a thread waits for work, with `frame` the node's window:
    /// offered to the waiting threads and searched with them (one after
    /// the other when only one is left). The node's best value and pick,
    /// or `Err(0)` when stopped.
    pub(super) fn split<const N: usize>(
        &mut self,
        rest: impl Iterator<Item = (u8, Child)>,
        frame: Frame,
        best: (i32, u8),
        cancel: &AtomicBool,
    ) -> Result<(i32, u8), i32> {
        let mut kids = [(0u8, Child::Over(0)); CYCLE_CAP];
        let mut count = 0;
        for kid in rest {
            kids[count] = kid;
            count += 1;
        }
        if count < 2 {
            let serial = Frame {
                split: false,
                ..frame
            };
            let (b, m) = self.children::<N>(kids[..count].iter().copied(), serial, cancel)?;
            return Ok(if b > best.0 { (b, m) } else { best });
        }
        let splits = Arc::clone(self.splits.as_ref().expect("a search on threads"));
        let sp = Arc::new(SplitPoint {
            kids,
            count,
            frame,
            next: AtomicUsize::new(0),
            working: AtomicUsize::new(0),
            found: Mutex::new(best),
            cut: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            parent: self.under.clone(),
        });
        {
            let mut open = splits.lock();
            open.push(Arc::clone(&sp));
            splits.wake.notify_all();
        }
        // A panic here stops the helpers under the node, which would
        // otherwise search on unheard.
        let owned = Joined {
            splits: &splits,
            sp: Arc::clone(&sp),
            owner: true,
        };
        self.work_at::<N>(&sp, cancel);
        // Brothers all taken: help below until the helpers are done (a
        // stopped owner only waits for them).
        while let Some(below) = splits.join(Some(&sp), self.stopped) {
            let joined = Joined {
                splits: &splits,
                sp: below,
                owner: false,
            };
            self.work_at::<N>(&joined.sp, cancel);
            drop(joined);
            self.settle_stop(&sp);
        }
        drop(owned);
        splits.lock().retain(|p| !Arc::ptr_eq(p, &sp));
        if self.stopped || sp.failed.load(Ordering::Relaxed) {
            if !self.split_stop {
                self.stopped = true;
            }
            return Err(0);
        }
        let found = *sp.found.lock().unwrap_or_else(|e| e.into_inner());
        Ok(found)
    }

    /// Takes the brothers of `sp` one by one and searches them, until
    /// none is left or it is cut.
    fn work_at<const N: usize>(&mut self, sp: &Arc<SplitPoint>, cancel: &AtomicBool) {
        let outer = self.under.replace(Arc::clone(sp));
        while !sp.cut.load(Ordering::Relaxed) {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            if i >= sp.count {
                break;
            }
            let (from, child) = sp.kids[i];
            let v = self.child_value::<N>(child, sp.frame, cancel);
            if self.stopped {
                if !self.split_stop {
                    // Its own cancel or limits: the node has no value.
                    sp.failed.store(true, Ordering::Relaxed);
                    sp.cut.store(true, Ordering::Relaxed);
                }
                break;
            }
            sp.offer(v, from);
        }
        self.under = outer;
        self.settle_stop(sp);
    }

    /// After a stop heard under `sp` because a node was cut: it stays
    /// stopped only if a node above `sp` is cut; a cut at `sp` or below it
    /// ends there.
    fn settle_stop(&mut self, sp: &SplitPoint) {
        if self.stopped && self.split_stop {
            let above = sp.parent.as_ref().is_some_and(|p| p.cut_here_or_above());
            self.stopped = above;
            self.split_stop = above;
        }
    }

    /// The picks searched and positions expanded so far, the helpers'
    /// counted as they leave the nodes they helped at.
    pub(super) fn counted(&self) -> (u64, u64) {
        let (nodes, expanded) = self.splits.as_ref().map_or((0, 0), |s| {
            (
                s.helped.0.load(Ordering::Relaxed),
                s.helped.1.load(Ordering::Relaxed),
            )
        });
        (self.nodes + nodes, self.expanded + expanded)
    }

    /// Whether another thread of this search waits for work: a node offers
    /// its brothers only then.
    #[inline(always)]
    pub(super) fn a_thread_waits(&self) -> bool {
        self.splits
            .as_ref()
            .is_some_and(|s| s.idle.load(Ordering::Relaxed) > 0)
    }

    /// Whether a node above this thread's search is cut (checked with the
    /// cancel flag).
    #[inline(always)]
    pub(super) fn cut_above(&self) -> bool {
        self.under.as_ref().is_some_and(|sp| sp.cut_here_or_above())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{GameSolveResult, SolveOptions, Solver};
    use crate::state::GameState;
    use rules::{Capture, Rules};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A solver of `rules` on 6 pits with `threads`, a 6-stone database
    /// (so that the search runs deep) and every node of `split` stones or
    /// more free to split.
    fn solver(rules: Rules, threads: u32, split: i32) -> Solver {
        let opts = SolveOptions {
            table_bytes: 8 << 20,
            endgame_stones: 6,
            threads,
            ..SolveOptions::default()
        }
        .fit_to(rules, 6, 36);
        let mut solver = Solver::new(rules, 6, opts).unwrap();
        solver.split_stones = split;
        solver
    }

    /// A game of 3 stones a pit played at random until at most `stones`
    /// are left in the pits.
    fn position(rules: Rules, stones: u32, seed: &mut u64) -> GameState {
        let mut state = GameState::start(6, 3, rules).unwrap();
        while state.stones_in_pits() > stones && !state.is_over() {
            let picks = state.legal_picks();
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let p = picks[(*seed >> 33) as usize % picks.len()];
            state.play_pick(p.number() as u32).unwrap();
        }
        state
    }

    /// Every node free to split (its brothers searched side by side, cut
    /// and helped at below), on 2 and 3 threads: the value and the line of
    /// one thread, on positions of every capture rule and of avalanche.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "slow: run in release")]
    fn every_node_split_gives_the_value_and_line_of_one_thread() {
        let never = AtomicBool::new(false);
        let mut seed = 5;
        let mut split = 0;
        let kalahs = Capture::ALL.map(|capture| Rules {
            capture,
            ..Rules::KALAH
        });
        for rules in kalahs.into_iter().chain([Rules::AVALANCHE]) {
            for _ in 0..4 {
                let state = position(rules, 20, &mut seed);
                if state.is_over() {
                    continue;
                }
                let one = solver(rules, 1, 0).solve(&state, &never);
                assert!(one.exact);
                for threads in [2, 3] {
                    let mut many = solver(rules, threads, 0);
                    let more = many.solve(&state, &never);
                    assert!(more.exact, "{state:?}");
                    assert_eq!((more.value, &more.pv), (one.value, &one.pv), "{state:?}");
                    split += usize::from(more.nodes != one.nodes);
                }
            }
        }
        // The threads searched trees of their own shape: they did split.
        assert!(split > 0, "no search on threads differed from one thread's");
    }

    /// A search on threads stopped by its cancel flag, or by a budget of
    /// picks that counts the helpers', stops (no thread left waiting) with
    /// bounds that hold the value.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "slow: run in release")]
    fn a_stop_on_threads_leaves_true_bounds() {
        let never = AtomicBool::new(false);
        let start = GameState::start(6, 3, Rules::KALAH).unwrap();
        let value = solver(Rules::KALAH, 1, 0).solve(&start, &never).value;
        let holds = |r: &GameSolveResult| {
            assert!(r.lower <= value && value <= r.upper, "{r:?}");
        };
        for picks in [20_000, 200_000] {
            let mut s = solver(Rules::KALAH, 2, 0);
            s.set_limits(Some(picks), None);
            let r = s.solve(&start, &never);
            assert!(!r.exact && r.nodes >= picks, "{picks}: {r:?}");
            holds(&r);
        }
        let cancel = AtomicBool::new(false);
        let mut s = solver(Rules::KALAH, 2, 0);
        let r = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(30));
                cancel.store(true, Ordering::Relaxed);
            });
            s.solve(&start, &cancel)
        });
        holds(&r);
    }
}
