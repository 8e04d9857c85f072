//! The endgame database built in the background while a game is followed
//! (`game analyze --follow`): the companion answers from the small
//! database it has at once, and from the larger one `game cache build`
//! makes (22 stones on 6 pits a side) once it is there, which proves most
//! middle-game answers within the second. The build runs at the lowest
//! priority, so that it takes the time the player spends tapping and
//! thinking, not the analyses'; it is kept in the cache like any build,
//! and a stopped one goes on in the next game.

use super::cache::endgame_cache;
use crate::cli::signal;
use mancala_sweep::game::endgame::BUILD_BYTES;
use mancala_sweep::game::{EndgameCache, EndgameDb, GameError, GameState};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A build running in the background, stopped (its finished layers kept
/// in the cache) when dropped.
pub struct Builder {
    /// Stones of the database being built.
    pub stones: u32,
    cancel: Arc<AtomicBool>,
    /// Positions finished so far, of `total`.
    done: Arc<AtomicU64>,
    total: u64,
    handle: Option<JoinHandle<Result<Option<EndgameDb>, GameError>>>,
}

/// What the follower learns of the build between two analyses.
pub enum Progress {
    /// Still building: the share of positions done, in percent.
    Building(u64),
    /// Built: the database, read back from the cache.
    Ready(EndgameDb),
    /// The build failed (a full disk, say); the game goes on without it.
    Failed(GameError),
    /// Nothing more to hear.
    Over,
}

impl Builder {
    /// Starts building the larger database of a long-lived use
    /// ([`BUILD_BYTES`]: 22 stones on 6 pits a side) for `state`'s rules
    /// and board, on `threads` threads within
    /// `memory_cap`, when the cache holds a smaller one and a game still
    /// has more stones than it; `None` when there is nothing to build or
    /// the system cannot lower a thread's priority (elsewhere than Linux a
    /// build would slow the analyses down).
    pub fn start(state: &GameState, threads: usize, memory_cap: u64) -> Option<Builder> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let (rules, n) = (state.rules(), state.pits_per_side());
        let cache = endgame_cache()?;
        // No more stones than the game has: its positions are all there.
        let stones = EndgameCache::stones_within(rules, n, BUILD_BYTES.min(memory_cap))?
            .min(state.stones_in_pits());
        Builder::start_in(cache, state, stones, threads, memory_cap)
    }

    /// [`Builder::start`] of a database of `stones` stones in `cache`.
    fn start_in(
        cache: EndgameCache,
        state: &GameState,
        stones: u32,
        threads: usize,
        memory_cap: u64,
    ) -> Option<Builder> {
        let (rules, n) = (state.rules(), state.pits_per_side());
        let have = cache
            .best(rules, n)
            .filter(|f| f.complete())
            .map_or(0, |f| f.stones);
        if have >= stones || state.stones_in_pits() <= have {
            return None;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        // The build goes on from the file it finds: its layers are done.
        let done = Arc::new(AtomicU64::new(EndgameDb::bytes_for(n, have)));
        let finished = Arc::new(AtomicBool::new(false));
        let (c, d, f) = (
            Arc::clone(&cancel),
            Arc::clone(&done),
            Arc::clone(&finished),
        );
        let handle = std::thread::Builder::new()
            .name("endgame build".into())
            .spawn(move || {
                lowest_priority();
                let built = cache.build(rules, n, stones, threads, memory_cap, &c, |_, k| {
                    d.fetch_add(k, Ordering::Relaxed);
                });
                if built.as_ref().is_ok_and(Option::is_some) {
                    // The smaller files it holds whole are of no more use.
                    let _ = cache.prune(rules, n, stones);
                }
                f.store(true, Ordering::SeqCst);
                built
            })
            .ok()?;
        // A signal ends a followed game at once: first the build stops and
        // keeps its layers, so that no half-written file is left.
        let stop = Arc::clone(&cancel);
        signal::before_exit(move || {
            stop.store(true, Ordering::SeqCst);
            while !finished.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
        Some(Builder {
            stones,
            cancel,
            done,
            total: EndgameDb::bytes_for(n, stones),
            handle: Some(handle),
        })
    }

    /// How far the build is, or what it gave once finished.
    pub fn progress(&mut self) -> Progress {
        match &self.handle {
            None => Progress::Over,
            Some(h) if !h.is_finished() => {
                let done = self.done.load(Ordering::Relaxed);
                Progress::Building((100 * done / self.total.max(1)).min(99))
            }
            Some(_) => match self.handle.take().map(JoinHandle::join) {
                Some(Ok(Ok(Some(db)))) => Progress::Ready(db),
                Some(Ok(Err(e))) => Progress::Failed(e),
                _ => Progress::Over,
            },
        }
    }
}

impl Drop for Builder {
    /// Stops the build and waits while it writes the layers it finished.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            if !h.is_finished() {
                eprintln!(
                    "stopping the background build of the {}-stone endgame database: its finished layers stay in the cache for the next game",
                    self.stones
                );
            }
            let _ = h.join();
        }
    }
}

/// Lowers the calling thread (and the threads it starts) to the lowest
/// priority: on Linux a thread's nice value is its own and is inherited
/// by the threads it starts, so the analyses keep theirs.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes the scheduling of the calling
    // thread (who 0 under PRIO_PROCESS is the caller's thread id on Linux).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS as _, 0, 19);
    }
}
