//! A worker's share of the frontier as the step driver's [`Store`]:
//! the cluster's search runs through the same driver as one in a single
//! process ([`Search::count`](crate::exact::Search)), and this is
//! where its store differs, keeping a failure for the step's end instead
//! of returning it at once.

use crate::control::Pool;
use crate::exact::counts::ForwardCounts;
use crate::exact::key::Key;
use crate::exact::store::memory::{Count, Run};
use crate::exact::store::SpillFail;
use crate::exact::store::{Store, Wave};
use std::cell::RefCell;
use std::rc::Rc;

/// What went wrong in a worker's step: kept until the step's end,
/// where every worker learns of it from the summaries and all stop
/// together.
#[derive(Default)]
pub(super) struct Trouble {
    /// This worker's store failed.
    pub(super) failure: Option<SpillFail>,
    /// A path count overflowed the count type, here or in a batch that
    /// arrived (one that did not decode counts too): every worker starts
    /// again with `u128` counts.
    pub(super) overflow: bool,
}

/// A worker's share as the step driver's store: the share that the
/// timely operator receiving batches fills too, borrowed for each call
/// (never across a step of the worker, when batches arrive). A failure
/// of the share is kept in [`Trouble`] and the bucket ends there, so
/// that the worker still meets the others at the step's end.
pub(super) struct ShareStore<'a, S> {
    pub(super) share: Rc<RefCell<S>>,
    pub(super) trouble: Rc<RefCell<Trouble>>,
    pub(super) pool: &'a Pool,
}

impl<S: Send> ShareStore<'_, S> {
    /// `f` on the share, on the search's threads (taking a bucket sorts
    /// and merges in parallel); its error kept for the step's end.
    fn on_pool<R: Send>(&self, f: impl FnOnce(&mut S) -> Result<R, SpillFail> + Send) -> Option<R> {
        let done = {
            let mut share = self.share.borrow_mut();
            let share = &mut *share;
            self.pool.install(|| f(share))
        };
        done.map_err(|e| self.keep(e)).ok()
    }

    /// Keep `e` for the step's end.
    fn keep(&self, e: SpillFail) {
        let mut trouble = self.trouble.borrow_mut();
        match e {
            SpillFail::Overflow => trouble.overflow = true,
            e => trouble.failure = Some(e),
        }
    }
}

impl<K: Key, C: Count, S> Store<K, C> for ShareStore<'_, S>
where
    S: Store<K, C> + Send,
    S::Taking: Send,
{
    /// `None` when the bucket could not be taken (the trouble is kept).
    type Taking = Option<S::Taking>;
    const ON_DISK: bool = S::ON_DISK;
    fn push(&mut self, store: usize, run: Run<K, C>) {
        self.share.borrow_mut().push(store, run);
    }
    fn take(&mut self, store: usize) -> Result<Self::Taking, SpillFail> {
        if self.trouble.borrow().overflow {
            return Ok(None);
        }
        Ok(self.on_pool(|share| share.take(store)))
    }
    fn entries(taking: &Self::Taking) -> u64 {
        taking.as_ref().map_or(0, S::entries)
    }
    fn next_wave(&mut self, taking: &mut Self::Taking) -> Result<Option<Wave<K, C>>, SpillFail> {
        let Some(taking) = taking else {
            return Ok(None);
        };
        if self.trouble.borrow().failure.is_some() {
            return Ok(None);
        }
        let wave = self.on_pool(|share| share.next_wave(taking)).flatten();
        Ok(wave.filter(|wave| !wave.0.is_empty()))
    }
    fn memory(&self) -> u64 {
        self.share.borrow().memory()
    }
    fn relieve(&mut self) -> Result<(), SpillFail> {
        let relieved = self.share.borrow_mut().relieve();
        if let Err(e) = relieved {
            self.keep(e);
        }
        Ok(())
    }
    fn make_room(&mut self) -> Result<(), SpillFail> {
        let made = self.share.borrow_mut().make_room();
        if let Err(e) = made {
            self.keep(e);
        }
        Ok(())
    }
    /// After the step, when every worker finished it: a failure here is
    /// this worker's alone (the others learn of it in the next step, or
    /// not at all after the last).
    fn checkpoint(
        &mut self,
        taken: Self::Taking,
        tally: &ForwardCounts,
        done: bool,
    ) -> Result<(), SpillFail> {
        match taken {
            Some(taken) => self.share.borrow_mut().checkpoint(taken, tally, done),
            None => Ok(()),
        }
    }
    // `disk` is left `None`: one worker's run files are not the cluster's.
}
