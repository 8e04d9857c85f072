//! Endgame databases kept on disk between runs, one file a rule set,
//! board size and stone count, in a folder the front end names (the
//! command line: the user's cache folder).
//!
//! Why: a one-second analysis of a mid-game position spends most of its
//! proof on positions a database answers at once. The 16-stone database
//! of 6 pits a side is 30 MB and takes seconds to build, so an analysis
//! builds it on its own the first time; larger ones (`game cache build
//! --stones`) take minutes and hundreds of megabytes, so they are built
//! only when asked for, and then read by every analysis that has the
//! memory for them (the figures: docs/games.md#the-endgame-cache). Files
//! are built resumably (a stopped build keeps its finished layers and the
//! next one goes on from them), by [`EndgameDb::build_file`], so a reader
//! only ever sees a whole file, and read as much as the memory allows
//! ([`EndgameDb::load_within`]): mapped for an answer within seconds, so
//! that even gigabytes are there at once, or whole for a long solve.

use super::{EndgameDb, Reading};
use crate::error::GameError;
use rules::{Rules, Scope};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The most stones a database an analysis builds on its own holds: 16 on
/// 6 pits a side builds in seconds (30 MB).
pub const CACHE_STONES: u32 = 16;

/// The most bytes a database an analysis builds on its own takes (on
/// disk and in memory): room for [`CACHE_STONES`] on 6 pits a side;
/// larger boards get fewer stones.
pub const CACHE_BYTES: u64 = 32 << 20;

/// The most bytes, a byte a position, of the database a long-lived use
/// (`game analyze --follow`) builds in the background while a game is
/// played: on 6 pits a side that is 22 stones, which builds within a
/// minute or two and a one-second analysis of the middle game proves far
/// more with than with 16 (the curve: docs/games.md#the-endgame-cache).
pub const BUILD_BYTES: u64 = 768 << 20;

/// The most bytes on disk and in memory, packed, of the database `game
/// cache build` makes without `--up-to`, once, the set-up a player runs:
/// on 6 pits a side that is 26 stones (about 1.3 GiB), with which a
/// one-second analysis proves nearly every early-game answer.
pub const SETUP_BYTES: u64 = 3 << 29;

/// A folder of endgame databases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameCache {
    dir: PathBuf,
}

/// One database file of a cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedDb {
    /// The file.
    pub path: PathBuf,
    /// The rules it holds values for.
    pub rules: Rules,
    /// Pits a side.
    pub pits_per_side: usize,
    /// Stones of the layers written (a stopped build has fewer than
    /// `target`).
    pub stones: u32,
    /// Stones it is being built to (from its name).
    pub target: u32,
    /// Bytes on disk.
    pub bytes: u64,
}

impl CachedDb {
    /// Every layer it is built to is in it.
    pub fn complete(&self) -> bool {
        self.stones >= self.target
    }
}

impl EndgameCache {
    /// The cache in `dir` (made when the first file is written).
    pub fn new(dir: impl Into<PathBuf>) -> EndgameCache {
        EndgameCache { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stones of the database an analysis builds on its own for
    /// `rules` on `n` pits a side: the most, up to [`CACHE_STONES`],
    /// within [`CACHE_BYTES`]; none for scope any, which has no endgame
    /// database.
    pub fn stones(rules: Rules, n: usize) -> Option<u32> {
        EndgameCache::stones_within(rules, n, CACHE_BYTES).map(|s| s.min(CACHE_STONES))
    }

    /// The stones of the database `game cache build` makes without
    /// `--up-to` for `rules` on `n` pits a side: the most whose packed file
    /// fits [`SETUP_BYTES`] (at most 127); none for scope any.
    pub fn setup_stones(rules: Rules, n: usize) -> Option<u32> {
        if rules.scope != Scope::Own {
            return None;
        }
        (1..=127)
            .take_while(|&s| EndgameDb::packed_bytes_for(n, s) <= SETUP_BYTES)
            .last()
    }

    /// The most stones a database of `rules` on `n` pits a side holds
    /// within `bytes` (at most 127); none for scope any or when not even
    /// one stone fits.
    pub fn stones_within(rules: Rules, n: usize, bytes: u64) -> Option<u32> {
        if rules.scope != Scope::Own {
            return None;
        }
        (1..=127)
            .take_while(|&s| EndgameDb::bytes_for(n, s) <= bytes)
            .last()
    }

    /// The file of the database an analysis builds on its own
    /// ([`EndgameCache::stones`]).
    pub fn path(&self, rules: Rules, n: usize) -> Option<PathBuf> {
        self.path_for(rules, n, EndgameCache::stones(rules, n)?)
    }

    /// The file of the `stones`-stone database of `rules` on `n` pits a
    /// side: the rules, the board and the stones in its name, so that each
    /// has its own.
    pub fn path_for(&self, rules: Rules, n: usize, stones: u32) -> Option<PathBuf> {
        (rules.scope == Scope::Own).then(|| {
            self.dir.join(format!(
                "{}{stones}-stones.bin",
                EndgameCache::prefix(rules, n)
            ))
        })
    }

    /// What the names of the files of `rules` on `n` pits a side begin
    /// with.
    fn prefix(rules: Rules, n: usize) -> String {
        // Named as the first format named them, whatever the format
        // inside (its header says): a cache keeps its files across
        // formats, and a build on one rewrites it packed.
        format!(
            "mancala-sweep-endgame-1-relay-{}-capture-{}-{n}-pits-",
            if rules.relay { "on" } else { "off" },
            rules.capture
        )
    }

    /// Every database file in the folder, by rules, board and stones;
    /// files that are not databases of this format are left out, and so
    /// is the work of a build under way (`.part`).
    pub fn list(&self) -> Vec<CachedDb> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found: Vec<CachedDb> = entries
            .flatten()
            .filter_map(|e| {
                let path = e.path();
                let name = path.file_name()?.to_str()?;
                let target = name
                    .strip_suffix("-stones.bin")?
                    .rsplit('-')
                    .next()?
                    .parse()
                    .ok()?;
                let h = EndgameDb::read_header(&path).ok()?;
                let expected = self.path_for(h.rules, h.pits_per_side, target)?;
                (expected == path).then(|| CachedDb {
                    bytes: e.metadata().map(|m| m.len()).unwrap_or(0),
                    path,
                    rules: h.rules,
                    pits_per_side: h.pits_per_side,
                    stones: h.stones,
                    target,
                })
            })
            .collect();
        found.sort_by_key(|f| (f.rules.to_string(), f.pits_per_side, f.stones));
        found
    }

    /// The file of `rules` on `n` pits a side with the most stones
    /// written, when there is one.
    pub fn best(&self, rules: Rules, n: usize) -> Option<CachedDb> {
        self.list()
            .into_iter()
            .filter(|f| f.rules == rules && f.pits_per_side == n)
            .max_by_key(|f| (f.stones, f.complete()))
    }

    /// The cached database of `rules` on `n` pits a side with the most
    /// stones, as much of it as fits in `memory_cap` bytes; `None` when
    /// there is none of at least the stones an analysis builds on its own
    /// ([`EndgameCache::stones`]; then [`EndgameCache::build`] makes or
    /// finishes that one).
    pub fn load(
        &self,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        reading: Reading,
    ) -> Result<Option<EndgameDb>, GameError> {
        let Some(least) = EndgameCache::stones(rules, n) else {
            return Ok(None);
        };
        let Some(best) = self.best(rules, n).filter(|f| f.stones >= least) else {
            return Ok(None);
        };
        EndgameDb::load_within(&best.path, rules, n, memory_cap, reading).map(Some)
    }

    /// Builds the `stones`-stone database of `rules` on `n` pits a side
    /// into the cache on `threads` threads, `progress` following it, and
    /// reads it back. It goes on from a file a stopped
    /// build left, or else from the cached file of these rules with the
    /// most stones (its layers are the first of the new one's). `None`
    /// when `cancel` stopped the build (its finished layers are kept) or
    /// the rules have no database. It is read back mapped.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        &self,
        rules: Rules,
        n: usize,
        stones: u32,
        threads: usize,
        memory_cap: u64,
        cancel: &AtomicBool,
        progress: &super::BuildProgress,
    ) -> Result<Option<EndgameDb>, GameError> {
        let Some(path) = self.path_for(rules, n, stones) else {
            return Ok(None);
        };
        let file_error = |at: &Path, verb: &'static str, e: std::io::Error| {
            GameError::from(super::EndgameError::from(crate::error::GameFileError::new(
                at, verb, e,
            )))
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| file_error(&self.dir, "create", e))?;
        // Built under a name of this process's own, then renamed: two runs
        // building the same file at once (two terminals, parallel tests)
        // each write whole files of their own, and the last rename wins.
        // The layers a stopped build left under the final name are taken
        // over first (a rename, so only one run gets them); else the
        // layers of a smaller database are copied to start from.
        let mut work = path.clone().into_os_string();
        work.push(format!(".{}.part", std::process::id()));
        let work = PathBuf::from(work);
        if !take_over(&path, &work, rules, n) {
            if let Some(seed) = self.best(rules, n).filter(|f| f.stones < stones) {
                std::fs::copy(&seed.path, &work).map_err(|e| file_error(&work, "write", e))?;
            }
        }
        let built = EndgameDb::build_file(
            &work, rules, n, stones, threads, memory_cap, cancel, progress,
        );
        if work.exists() {
            std::fs::rename(&work, &path).map_err(|e| file_error(&path, "write", e))?;
        }
        if !built?.complete {
            return Ok(None);
        }
        EndgameDb::load_within(&path, rules, n, memory_cap, Reading::Mapped).map(Some)
    }

    /// Removes the files of `rules` on `n` pits a side that the complete
    /// one of `stones` stones holds whole (every file of fewer stones:
    /// its layers are the first of the larger one's); the files removed.
    pub fn prune(&self, rules: Rules, n: usize, stones: u32) -> Result<Vec<CachedDb>, GameError> {
        let mut gone = Vec::new();
        for f in self.list() {
            if f.rules == rules && f.pits_per_side == n && f.target < stones {
                std::fs::remove_file(&f.path).map_err(|e| {
                    GameError::from(super::EndgameError::from(crate::error::GameFileError::new(
                        &f.path, "remove", e,
                    )))
                })?;
                gone.push(f);
            }
        }
        Ok(gone)
    }
}

/// Moves to `work` the layers a stopped build left: under the final name
/// `path` (a build stopped as it should be) or under the work name of a
/// build whose process ended first (killed, or the machine went down),
/// whichever whole file holds more stones; the other files of dead builds
/// are removed, so that no stop leaves work behind that no run takes up.
/// False when there was none to take.
fn take_over(path: &Path, work: &Path, rules: Rules, n: usize) -> bool {
    let dead = dead_work(path);
    let stones = |p: &Path| {
        EndgameDb::open(p, rules, n, u64::MAX, false)
            .ok()
            .map(|o| o.header.stones)
    };
    let best = std::iter::once(path.to_path_buf())
        .chain(
            dead.iter()
                .filter(|p| p.extension().is_some_and(|e| e == "part"))
                .cloned(),
        )
        .filter_map(|p| Some((stones(&p)?, p)))
        .max_by_key(|(s, _)| *s);
    let taken = best.is_some_and(|(_, p)| std::fs::rename(&p, work).is_ok());
    for p in dead {
        // The one taken is already gone.
        let _ = std::fs::remove_file(p);
    }
    taken
}

/// The work files of builds of `path` whose process is gone: its name,
/// then `.PID.part` (and `.PID.part.tmp`, a write under way when it
/// ended). Only where the system says which processes run (Linux's
/// /proc): elsewhere none, rather than take a running build's file.
fn dead_work(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Vec::new();
    };
    let told = cfg!(target_os = "linux") && Path::new("/proc/self").exists();
    let Some(entries) = told.then(|| std::fs::read_dir(dir).ok()).flatten() else {
        return Vec::new();
    };
    let gone =
        |pid: u32| pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists();
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let Some(rest) = p
                .file_name()
                .and_then(|f| f.to_str())
                .and_then(|f| f.strip_prefix(name))
            else {
                return false;
            };
            let pid = rest.strip_prefix('.').and_then(|r| {
                r.strip_suffix(".part")
                    .or_else(|| r.strip_suffix(".part.tmp"))
            });
            pid.and_then(|p| p.parse().ok()).is_some_and(gone)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::BuildProgress;
    use crate::GameState;

    #[test]
    fn each_rule_set_and_board_has_its_own_file_within_the_size() {
        let cache = EndgameCache::new("/c");
        assert_eq!(EndgameCache::stones(Rules::KALAH, 6), Some(16));
        assert_eq!(
            EndgameCache::stones_within(Rules::KALAH, 6, BUILD_BYTES),
            Some(22)
        );
        assert!(EndgameDb::bytes_for(6, 22) + (256 << 20) <= 1 << 30);
        assert_eq!(EndgameCache::setup_stones(Rules::KALAH, 6), Some(26));
        assert!(EndgameDb::packed_bytes_for(6, 26) <= SETUP_BYTES);
        assert_eq!(EndgameCache::setup_stones(Rules::ANY_HOLE, 6), None);
        assert!(EndgameDb::bytes_for(6, 16) <= CACHE_BYTES);
        assert!(EndgameDb::bytes_for(6, 17) > CACHE_BYTES);
        // Larger boards get fewer stones, within the same bytes.
        let s10 = EndgameCache::stones(Rules::KALAH, 10).unwrap();
        assert!(s10 < 16 && EndgameDb::bytes_for(10, s10) <= CACHE_BYTES);
        assert_eq!(EndgameCache::stones(Rules::ANY_HOLE, 6), None);
        assert_eq!(cache.path(Rules::ANY_HOLE, 6), None);
        let mut names = std::collections::HashSet::new();
        for rules in [Rules::KALAH, Rules::AVALANCHE] {
            for n in [4, 6] {
                assert!(names.insert(cache.path(rules, n).unwrap()));
            }
        }
        let empty = Rules {
            capture: rules::Capture::Empty,
            ..Rules::KALAH
        };
        assert!(names.insert(cache.path(empty, 6).unwrap()));
        for path in names {
            assert_eq!(path.parent(), Some(Path::new("/c")), "{path:?}");
        }
    }

    /// Built once, read back whole, and the same values as a database
    /// filled on demand: a solve with each gives the same value.
    #[test]
    fn a_built_cache_is_read_back_and_solves_alike() {
        let never = AtomicBool::new(false);
        let dir = std::env::temp_dir().join(format!("ms-cache-test-{}", std::process::id()));
        let cache = EndgameCache::new(&dir);
        let (rules, n) = (Rules::KALAH, 3);
        assert!(cache
            .load(rules, n, 1 << 30, Reading::Mapped)
            .unwrap()
            .is_none());
        let progress = BuildProgress::default();
        let db = cache
            .build(rules, n, CACHE_STONES, 2, 1 << 30, &never, &progress)
            .unwrap()
            .expect("built");
        let positions = EndgameDb::bytes_for(n, CACHE_STONES);
        assert_eq!((progress.done(), progress.total()), (positions, positions));
        assert_eq!(progress.layer(), CACHE_STONES);
        assert_eq!(db.stones(), CACHE_STONES);
        let again = cache
            .load(rules, n, 1 << 30, Reading::Mapped)
            .unwrap()
            .expect("read back");
        assert_eq!(again.stones(), CACHE_STONES);
        super::super::db::tests::solves_alike(&again, &GameState::start(n, 3, rules).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn bytes_of(db: &EndgameDb) -> Vec<Option<i8>> {
        db.db.every_value(db.pits_per_side())
    }

    /// A build whose process was killed leaves its layers under its work
    /// name: the next build takes them up (the layers held count them),
    /// and no file of a dead build is left; a live build's file is not
    /// touched (process 1 runs).
    #[test]
    #[cfg(target_os = "linux")]
    fn the_layers_of_a_killed_build_are_taken_up_and_nothing_is_left() {
        let never = AtomicBool::new(false);
        let dir = std::env::temp_dir().join(format!("ms-cache-dead-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = EndgameCache::new(&dir);
        let (rules, n) = (Rules::AVALANCHE, 3);
        cache
            .build(rules, n, 12, 2, 1 << 30, &never, &BuildProgress::default())
            .unwrap()
            .expect("built");
        let path = cache.path_for(rules, n, 16).unwrap();
        let built = cache.path_for(rules, n, 12).unwrap();
        // No process has a number this large (Linux's most is 2^22).
        let name = |pid: &str| {
            let mut w = path.clone().into_os_string();
            w.push(pid);
            PathBuf::from(w)
        };
        std::fs::rename(&built, name(".999999999.part")).unwrap();
        std::fs::write(name(".999999998.part.tmp"), b"half a file").unwrap();
        std::fs::write(name(".1.part"), b"a live build's").unwrap();
        let progress = BuildProgress::default();
        cache
            .build(rules, n, 16, 2, 1 << 30, &never, &progress)
            .unwrap()
            .expect("built");
        assert_eq!(
            progress.held(),
            EndgameDb::bytes_for(n, 12),
            "went on from 12"
        );
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let final_name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(left, [final_name.clone(), format!("{final_name}.1.part")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A larger database is built on from the cached one with the most
    /// stones and replaces it; it is read mapped, and as much of it as a
    /// memory cap allows is the smaller database byte for byte (a second
    /// path: that one built on its own from nothing).
    #[test]
    fn a_larger_database_builds_on_the_smaller_and_holds_it() {
        let never = AtomicBool::new(false);
        let dir = std::env::temp_dir().join(format!("ms-cache-grow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = EndgameCache::new(&dir);
        let (rules, n) = (Rules::AVALANCHE, 3);
        let small = cache
            .build(rules, n, 16, 2, 1 << 30, &never, &BuildProgress::default())
            .unwrap()
            .expect("built");
        let progress = BuildProgress::default();
        let large = cache
            .build(rules, n, 20, 2, 1 << 30, &never, &progress)
            .unwrap()
            .expect("built");
        assert_eq!(
            progress.held(),
            EndgameDb::bytes_for(n, 16),
            "went on from 16"
        );
        assert_eq!(progress.done(), EndgameDb::bytes_for(n, 20));
        assert!(large.is_mapped());
        let listed = cache.list();
        assert_eq!(listed.len(), 2);
        assert_eq!(cache.best(rules, n).unwrap().stones, 20);
        let gone = cache.prune(rules, n, 20).unwrap();
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0].stones, 16);
        assert_eq!(cache.list().len(), 1);
        // What fits in the bytes of 16 stones is the 16-stone database.
        let within = cache
            .load(rules, n, large.bytes_within(16), Reading::Whole)
            .unwrap()
            .expect("read");
        assert_eq!(within.stones(), 16);
        assert_eq!(bytes_of(&within), bytes_of(&small));
        // Mapped and read whole, the same values.
        let path = cache.path_for(rules, n, 20).unwrap();
        let read = EndgameDb::load(&path, rules, n, 1 << 30).unwrap();
        assert!(!read.is_mapped());
        assert_eq!(bytes_of(&read), bytes_of(&large));
        // Built alone from nothing, 18 stones are the first 18 of the 20.
        let alone = dir.join("alone.bin");
        EndgameDb::build_file(
            &alone,
            rules,
            n,
            18,
            2,
            1 << 30,
            &never,
            &BuildProgress::default(),
        )
        .unwrap();
        let alone = EndgameDb::load(&alone, rules, n, 1 << 30).unwrap();
        let prefix =
            EndgameDb::load_within(&path, rules, n, large.bytes_within(18), Reading::Mapped)
                .unwrap();
        assert_eq!(prefix.stones(), 18);
        assert_eq!(bytes_of(&prefix), bytes_of(&alone));
        assert!(bytes_of(&alone)
            .iter()
            .all(|&v| v != Some(crate::endgame::UNKNOWN)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
