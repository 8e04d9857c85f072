//! How a search is run and stopped: its worker pool, a panic in a worker
//! turned into an error, the cancel flag and the time budget, and the
//! default memory guard.
//!
//! The exact search, the beam search and the puzzle generator all run this
//! way, so it is one module instead of helpers that each reaches into the
//! other.

use super::error::{SearchError, StopCause};
use super::memory::HeldFn;
use base::clock::Instant;
use rules::{Board, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// True when the cancel flag is raised.
#[inline]
pub(crate) fn cancelled(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|c| c.load(Ordering::Relaxed))
}

/// When a search must stop early: a cancel flag that someone else raises
/// (Ctrl-C, a closed page) and a wall-clock deadline. Polled between chunks
/// of work, so that the answer says which of the two stopped it. It may
/// also carry the memory guard, for the checks made while a bucket is
/// expanded (see [`Stop::over_memory`]).
#[derive(Copy, Clone, Default)]
pub(crate) struct Stop<'a> {
    cancel: Option<&'a AtomicBool>,
    deadline: Option<(Instant, Duration)>,
    /// The memory limit in bytes, the bytes held before the search that
    /// do not count, and the flag raised once the process was found above
    /// the limit.
    memory: Option<(u64, Option<HeldFn<'a>>, &'a AtomicBool)>,
}

impl std::fmt::Debug for Stop<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop")
            .field("cancel", &self.cancel)
            .field("deadline", &self.deadline)
            .field(
                "memory",
                &self.memory.map(|(limit, _, tripped)| (limit, tripped)),
            )
            .finish()
    }
}

impl<'a> Stop<'a> {
    /// A stop for `cancel` and a budget of `seconds` from now.
    pub(crate) fn new(cancel: Option<&'a AtomicBool>, seconds: Option<f64>) -> Stop<'a> {
        Stop {
            cancel,
            deadline: seconds.map(|s| (Instant::now(), Duration::from_secs_f64(s.max(0.0)))),
            memory: None,
        }
    }

    /// The same stop, which also watches the process's resident memory
    /// above what `held` says is not the search's (all of it when `None`)
    /// against `limit` bytes, raising `tripped` when it passes it.
    pub(crate) fn with_memory_limit(
        self,
        limit: u64,
        held: Option<HeldFn<'a>>,
        tripped: &'a AtomicBool,
    ) -> Stop<'a> {
        Stop {
            memory: Some((limit, held, tripped)),
            ..self
        }
    }

    /// True when the process holds more than the memory limit now (it is
    /// read from the system, so call this between chunks of work, not in
    /// an inner loop), or did at an earlier check. The guard before a
    /// bucket works from an estimate of what its successors will take;
    /// this one, between the chunks of its expansion, holds when the
    /// estimate is short (it is 12% short on any-hole 2x7x3).
    pub(crate) fn over_memory(&self) -> bool {
        let Some((limit, held, tripped)) = self.memory else {
            return false;
        };
        if tripped.load(Ordering::Relaxed) {
            return true;
        }
        let over = super::memory::resident_above(held.map_or(0, |held| held())) > limit;
        if over {
            tripped.store(true, Ordering::Relaxed);
        }
        over
    }

    /// True when [`Stop::over_memory`] has found the process above the
    /// limit: the work since was skipped, and the search must stop.
    pub(crate) fn memory_tripped(&self) -> bool {
        self.memory
            .is_some_and(|(_, _, tripped)| tripped.load(Ordering::Relaxed))
    }

    /// Why the search must stop now, if it must.
    #[inline]
    pub(crate) fn cause(&self) -> Option<StopCause> {
        if cancelled(self.cancel) {
            return Some(StopCause::Cancelled);
        }
        match self.deadline {
            Some((started, budget)) if started.elapsed() >= budget => Some(StopCause::Deadline {
                seconds: budget.as_secs_f64(),
            }),
            _ => None,
        }
    }
}

/// The threads of one search: a rayon pool of its own, or in the browser
/// (WebAssembly without threads, where building a pool fails) the one
/// thread there is, on which rayon's global pool runs everything.
pub(crate) struct Pool(pub(crate) Option<rayon::ThreadPool>);

impl Pool {
    /// Run `f` on these threads.
    pub(crate) fn install<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.0 {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }
}

/// Check that the player can move at the start, and build the pool of
/// `threads` workers (0: one per core) that a search runs on.
pub(crate) fn worker_pool(
    board: &Board,
    rules: Rules,
    threads: usize,
) -> Result<Pool, SearchError> {
    if !board.can_move(rules) {
        return Err(SearchError::NoMove {
            board: board.one_line(),
            scope: rules.scope,
        });
    }
    if cfg!(all(target_arch = "wasm32", not(target_feature = "atomics"))) {
        return Ok(Pool(None));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(|pool| Pool(Some(pool)))
        .map_err(|e| SearchError::Threads {
            threads,
            reason: e.to_string(),
        })
}

/// Run `f` on `pool`; a panic in it or in any worker it spawns becomes
/// [`SearchError::Internal`] instead of unwinding through the caller.
pub(crate) fn guarded<T: Send>(
    pool: &Pool,
    f: impl FnOnce() -> T + Send,
) -> Result<T, SearchError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(f)))
        .map_err(|p| SearchError::Internal(panic_text(&p)))
}

/// The message of a caught panic.
fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a worker panicked".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_panic_in_a_worker_is_an_error_not_a_hang() {
        let pool = Pool(Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap(),
        ));
        let r = guarded(&pool, || {
            (0..1000).into_par_iter().for_each(|i| {
                if i == 777 {
                    panic!("worker {i} failed");
                }
            })
        });
        assert_eq!(r, Err(SearchError::Internal("worker 777 failed".into())));
        assert_eq!(guarded(&pool, || 5), Ok(5));
    }
}
