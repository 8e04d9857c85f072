//! Endgame databases kept on disk between runs, one file a rule set and
//! board size, in a folder the front end names (the command line: the
//! user's cache folder).
//!
//! Why: a one-second analysis of a mid-game position spends most of its
//! proof filling the 12-stone database on demand, position by position.
//! The 16-stone database of 6 pits a side, built whole, is 30 MB and takes
//! about 5 s on two cores once; read from disk it takes hundredths of a
//! second, and with it the analysis proves about half again as many
//! positions of 31 to 44 stones in its second, and every turn of every
//! position of at most 30 (docs/games.md#targets, the tenth look). The
//! file is built once, resumably (a stopped build keeps its finished
//! layers and the next one goes on from them), by
//! [`EndgameDb::build_file`], so a reader only ever sees a whole file.

use super::{EndgameDb, ENDGAME_FORMAT};
use crate::game::error::GameError;
use crate::rules::{Rules, Scope};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The most stones a cached database holds: 16 on 6 pits a side is the
/// size measured to pay (30 MB, about 5 s to build on two cores).
pub const CACHE_STONES: u32 = 16;

/// The most bytes a cached database takes (on disk and in memory): room
/// for [`CACHE_STONES`] on 6 pits a side; larger boards get fewer stones.
pub const CACHE_BYTES: u64 = 32 << 20;

/// A folder of endgame databases, one a rule set and board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameCache {
    dir: PathBuf,
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

    /// The stones a cached database of `rules` on `n` pits a side holds:
    /// the most, up to [`CACHE_STONES`], within [`CACHE_BYTES`]; none for
    /// scope any, which has no endgame database.
    pub fn stones(rules: Rules, n: usize) -> Option<u32> {
        if rules.scope != Scope::Own {
            return None;
        }
        (1..=CACHE_STONES)
            .rev()
            .find(|&s| EndgameDb::bytes_for(n, s) <= CACHE_BYTES)
    }

    /// The file of `rules` on `n` pits a side: the rules and the size in
    /// its name, so that each rule set and board has its own.
    pub fn path(&self, rules: Rules, n: usize) -> Option<PathBuf> {
        let stones = EndgameCache::stones(rules, n)?;
        Some(self.dir.join(format!(
            "{}-relay-{}-capture-{}-{n}-pits-{stones}-stones.bin",
            ENDGAME_FORMAT.replace('/', "-"),
            if rules.relay { "on" } else { "off" },
            rules.capture
        )))
    }

    /// The cached database of `rules` on `n` pits a side when its file
    /// holds every layer; `None` when there is no such file, or it was
    /// stopped part-way (then [`EndgameCache::build`] goes on with it).
    pub fn load(
        &self,
        rules: Rules,
        n: usize,
        memory_cap: u64,
    ) -> Result<Option<EndgameDb>, GameError> {
        let (Some(path), Some(stones)) = (self.path(rules, n), EndgameCache::stones(rules, n))
        else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let db = EndgameDb::load(&path, rules, n, memory_cap)?;
        Ok((db.stones() >= stones).then_some(db))
    }

    /// Builds the database of `rules` on `n` pits a side into the cache
    /// (going on from a file a stopped build left) on `threads` threads,
    /// `layer` hearing of each layer finished, and reads it back. `None`
    /// when `cancel` stopped the build (its finished layers are kept) or
    /// the rules have no database.
    pub fn build(
        &self,
        rules: Rules,
        n: usize,
        threads: usize,
        memory_cap: u64,
        cancel: &AtomicBool,
        layer: impl FnMut(u32, u64),
    ) -> Result<Option<EndgameDb>, GameError> {
        let (Some(path), Some(stones)) = (self.path(rules, n), EndgameCache::stones(rules, n))
        else {
            return Ok(None);
        };
        let file_error = |at: &Path, verb: &'static str, e: std::io::Error| {
            GameError::from(super::EndgameError::from(
                crate::game::error::GameFileError::new(at, verb, e),
            ))
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| file_error(&self.dir, "create", e))?;
        // Built under a name of this process's own, then renamed: two runs
        // building the same file at once (two terminals, parallel tests)
        // each write whole files of their own, and the last rename wins.
        // The layers a stopped build left under the final name are taken
        // over first (a rename, so only one run gets them).
        let mut work = path.clone().into_os_string();
        work.push(format!(".{}.part", std::process::id()));
        let work = PathBuf::from(work);
        let _ = std::fs::rename(&path, &work);
        let built =
            EndgameDb::build_file(&work, rules, n, stones, threads, memory_cap, cancel, layer);
        if work.exists() {
            std::fs::rename(&work, &path).map_err(|e| file_error(&path, "write", e))?;
        }
        if !built?.complete {
            return Ok(None);
        }
        self.load(rules, n, memory_cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;

    #[test]
    fn each_rule_set_and_board_has_its_own_file_within_the_size() {
        let cache = EndgameCache::new("/c");
        assert_eq!(EndgameCache::stones(Rules::KALAH, 6), Some(16));
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
            capture: crate::rules::Capture::Empty,
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
        assert!(cache.load(rules, n, 1 << 30).unwrap().is_none());
        let mut layers = 0;
        let db = cache
            .build(rules, n, 2, 1 << 30, &never, |_, _| layers += 1)
            .unwrap()
            .expect("built");
        assert_eq!(layers, CACHE_STONES + 1);
        assert_eq!(db.stones(), CACHE_STONES);
        let again = cache.load(rules, n, 1 << 30).unwrap().expect("read back");
        assert_eq!(again.stones(), CACHE_STONES);
        super::super::db::tests::solves_alike(&again, &GameState::start(n, 3, rules).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
