//! The endgame database built in the background while a game is played
//! or followed (`game analyze --follow`, `game play`, `serve`): the
//! answers come at once from the database there is, and from larger ones
//! as they are built: first the one [`BUILD_BYTES`] allows (22 stones on
//! 6 pits a side, within a minute or two, which proves most middle-game
//! answers within the second), then the set-up's ([`EndgameCache::
//! setup_stones`]: 26 stones, which proves most early-game ones). The
//! build runs at the lowest priority, so that it takes the time the
//! player spends tapping and thinking, not the analyses'; it is kept in
//! the cache like any build, and a stopped one goes on in the next game.

use super::cache::endgame_cache;
use crate::signal;
use mancala_sweep::game::endgame::{BuildProgress, BUILD_BYTES};
use mancala_sweep::game::{EndgameCache, EndgameDb, GameError};
use mancala_sweep::rules::Rules;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// A build running in the background, stopped (its finished layers kept
/// in the cache) when dropped.
pub struct Builder {
    /// Stones of the database being built now.
    stones: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    progress: Arc<BuildProgress>,
    started: Instant,
    /// The share of the first build the cache held, said until the build
    /// has read it.
    first_share: f64,
    /// Each database as it is finished, read back from the cache.
    ready: Receiver<EndgameDb>,
    handle: Option<JoinHandle<Result<(), GameError>>>,
}

/// What a game learns of the build between two answers.
pub enum Progress {
    /// Still building the database of `stones` stones: the share of its
    /// positions done in percent (what the cache held counts), and the
    /// seconds it reckons are left.
    Building {
        /// The stones of the database being built.
        stones: u32,
        /// Its positions done, in percent.
        share: u64,
        /// The seconds it reckons are left, once it can tell.
        left: Option<f64>,
    },
    /// A database built, read back from the cache (a larger one may
    /// follow).
    Ready(EndgameDb),
    /// The build failed (a full disk, say); the game goes on without it.
    Failed(GameError),
    /// Nothing more to hear.
    Over,
}

impl Builder {
    /// Starts building, for `rules` on `n` pits a side, the databases a
    /// long-lived use wants that the cache does not hold whole: the one
    /// [`BUILD_BYTES`] allows, then the set-up's (or the largest below it
    /// that fits), each within `room` bytes packed (beside what the analyses hold) and built within
    /// `memory_cap`, none of more stones than `stones_in_pits` (a game's
    /// positions are all below them), on `threads` threads. `None` when
    /// there is nothing to build or the system cannot lower a thread's
    /// priority (elsewhere than Linux a build would slow the analyses
    /// down).
    pub fn start(
        rules: Rules,
        n: usize,
        stones_in_pits: u32,
        threads: usize,
        room: u64,
        memory_cap: u64,
    ) -> Option<Builder> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let cache = endgame_cache()?;
        let have = cache
            .best(rules, n)
            .filter(|f| f.complete())
            .map_or(0, |f| f.stones);
        // The layers any file holds, whole or stopped: the first build's
        // share starts there, before it has read them.
        let held = cache
            .list()
            .into_iter()
            .filter(|f| (f.rules, f.pits_per_side) == (rules, n))
            .map(|f| f.stones)
            .max()
            .unwrap_or(0);
        let targets = targets(rules, n, stones_in_pits, have, room, memory_cap);
        if targets.is_empty() {
            return None;
        }
        Builder::start_in(cache, rules, n, targets, held, threads, memory_cap)
    }

    /// [`Builder::start`] of the databases of `targets` stones in `cache`,
    /// one after the other, from files holding `held` stones.
    fn start_in(
        cache: EndgameCache,
        rules: Rules,
        n: usize,
        targets: Vec<u32>,
        held: u32,
        threads: usize,
        memory_cap: u64,
    ) -> Option<Builder> {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(BuildProgress::default());
        let stones = Arc::new(AtomicU32::new(targets[0]));
        let first_share = EndgameDb::bytes_for(n, held.min(targets[0])) as f64
            / EndgameDb::bytes_for(n, targets[0]) as f64;
        let finished = Arc::new(AtomicBool::new(false));
        let (send, ready) = mpsc::channel();
        let (c, p, s, f) = (
            Arc::clone(&cancel),
            Arc::clone(&progress),
            Arc::clone(&stones),
            Arc::clone(&finished),
        );
        let handle = std::thread::Builder::new()
            .name("endgame build".into())
            .spawn(move || {
                lowest_priority();
                let mut result = Ok(());
                for target in targets {
                    s.store(target, Ordering::Relaxed);
                    match cache.build(rules, n, target, threads, memory_cap, &c, &p) {
                        Ok(Some(db)) => {
                            // The smaller files it holds whole are of no more use.
                            let _ = cache.prune(rules, n, target);
                            let _ = send.send(db);
                        }
                        Ok(None) => break,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                f.store(true, Ordering::SeqCst);
                result
            })
            .ok()?;
        // A signal ends a game at once: first the build stops and keeps
        // its layers, so that no half-written file is left.
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
            progress,
            started: Instant::now(),
            first_share,
            ready,
            handle: Some(handle),
        })
    }

    /// How far the build is, or what it gave: each database once, as it
    /// is finished.
    pub fn progress(&mut self) -> Progress {
        match self.ready.try_recv() {
            Ok(db) => return Progress::Ready(db),
            Err(TryRecvError::Empty) if self.handle.as_ref().is_some_and(|h| !h.is_finished()) => {
                return Progress::Building {
                    stones: self.stones.load(Ordering::Relaxed),
                    share: match self.progress.total() {
                        0 => (100.0 * self.first_share) as u64,
                        _ => (100.0 * self.progress.share()) as u64,
                    }
                    .min(99),
                    left: self
                        .progress
                        .seconds_left(self.started.elapsed().as_secs_f64()),
                }
            }
            Err(_) => {}
        }
        match self.handle.take().map(JoinHandle::join) {
            Some(Ok(Err(e))) => Progress::Failed(e),
            _ => Progress::Over,
        }
    }
}

/// The build held while a search runs ([`Builder::pause`]); it goes on
/// when this is dropped.
pub struct Paused<'a>(&'a BuildProgress);

impl Drop for Paused<'_> {
    fn drop(&mut self) {
        self.0.pause(false);
    }
}

impl Builder {
    /// Holds the build while the returned guard lives: for the computer's
    /// turn or an answer, whose searches wait on the memory the build
    /// shares even at the lowest priority.
    pub fn pause(&self) -> Paused<'_> {
        self.progress.pause(true);
        Paused(&self.progress)
    }
}

impl Drop for Builder {
    /// Stops the build and waits while it writes the layers it finished.
    fn drop(&mut self) {
        self.progress.pause(false);
        self.cancel.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            if !h.is_finished() {
                eprintln!(
                    "stopping the background build of the {}-stone endgame database: what it finished stays in the cache, and the next run goes on from it",
                    self.stones.load(Ordering::Relaxed)
                );
            }
            let _ = h.join();
        }
    }
}

/// The databases, by stones, a long-lived use builds for `rules` on `n`
/// pits a side when the cache holds `have` stones whole: the one
/// [`BUILD_BYTES`] allows, then the set-up's or the largest below it
/// whose packed file fits `room` bytes and whose build fits
/// `memory_cap`, none of more than `stones_in_pits`.
fn targets(
    rules: Rules,
    n: usize,
    stones_in_pits: u32,
    have: u32,
    room: u64,
    memory_cap: u64,
) -> Vec<u32> {
    let fits = |s: &u32| {
        EndgameDb::packed_bytes_for(n, *s) <= room
            && EndgameDb::check_build(rules, n, *s, memory_cap).is_ok()
    };
    let first = EndgameCache::stones_within(rules, n, BUILD_BYTES);
    let last = EndgameCache::setup_stones(rules, n)
        .and_then(|setup| (1..=setup.min(stones_in_pits)).rev().find(fits));
    let mut targets: Vec<u32> = [first, last]
        .into_iter()
        .flatten()
        .map(|s| s.min(stones_in_pits))
        .filter(|s| *s > have && fits(s))
        .collect();
    targets.dedup();
    targets
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A player's machine builds 22 stones first (there in a minute or
    /// two), then the set-up's 26; a cache that holds 22 builds only the
    /// 26; a server's 1 GiB builds the largest that fits it; a game of
    /// fewer stones builds no more than it has; a small memory cap, what
    /// it allows; scope any builds nothing.
    #[test]
    fn a_long_lived_use_builds_the_first_database_then_the_set_up() {
        let (k, gib) = (Rules::KALAH, 1u64 << 30);
        assert_eq!(targets(k, 6, 48, 16, 12 * gib, 12 * gib), [22, 26]);
        assert_eq!(targets(k, 6, 48, 22, 12 * gib, 12 * gib), [26]);
        assert_eq!(targets(k, 6, 48, 26, 12 * gib, 12 * gib), Vec::<u32>::new());
        let server = targets(k, 6, 48, 0, gib - (64 << 20), 12 * gib);
        assert_eq!(server[0], 22);
        let last = *server.last().unwrap();
        assert!((23..26).contains(&last), "{server:?}");
        assert!(EndgameDb::packed_bytes_for(6, last) <= gib);
        assert!(EndgameDb::packed_bytes_for(6, last + 1) > gib - (64 << 20));
        assert_eq!(targets(k, 6, 20, 16, 12 * gib, 12 * gib), [20]);
        // Under a small memory cap, the largest build it allows.
        let small = 256 << 20;
        let most = (17..=26)
            .rev()
            .find(|&s| EndgameDb::build_bytes_for(6, s) <= small)
            .unwrap();
        assert!(most < 22);
        assert_eq!(targets(k, 6, 48, 16, 12 * gib, small), [most]);
        assert!(targets(k, 6, 48, most, 12 * gib, small).is_empty());
        let any = Rules {
            scope: mancala_sweep::Scope::Any,
            ..Rules::AVALANCHE
        };
        assert!(targets(any, 6, 48, 0, 12 * gib, 12 * gib).is_empty());
    }
}
