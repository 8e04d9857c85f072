//! The engine's endgame databases: the one the command line keeps in its
//! cache folder ([`EndgameCache`]), built in the browser instead, since a
//! page has no files; then a larger one, as large as a phone's memory
//! allows ([`larger_stones`]), built on it.
//!
//! An analysis of a position with more stones than the database of its
//! rules holds asks for it ([`want`]) and goes on without it. The page
//! then builds it in a worker of its own with this same module
//! ([`build`]: one thread, layer by layer, progress events), keeps its
//! bytes in the browser's storage (IndexedDB) for later visits, and hands
//! them to the engine ([`load`]) between two requests; the analyses after
//! that use it ([`for_game`]). The larger one is built the same way on
//! the smaller, a layer a call, each layer kept as it is finished, so
//! that a page loaded again goes on from the last. The bytes stay in the
//! page: both calls read them from the host a megabyte at a time and
//! write them back the same way, so that a database is never held twice
//! in WebAssembly memory, which never shrinks. docs/site.md says why it
//! is built rather than fetched.

use mancala_sweep::api;
use mancala_sweep::game::endgame::{BuildProgress, FillFile};
use mancala_sweep::game::{EndgameCache, EndgameDb, GameState};
use mancala_sweep::rules::Rules;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::io::BufRead;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::{room, share, MAX_MEMORY, WORK_MEMORY};

thread_local! {
    /// The databases handed to this engine, one a rule set and board size.
    static DBS: RefCell<Vec<EndgameDb>> = const { RefCell::new(Vec::new()) };
    /// The database an analysis asked for and did not have, until the
    /// host reads it ([`take_wanted`]).
    static WANTED: RefCell<Option<(Rules, usize)>> = const { RefCell::new(None) };
}

/// The most positions of the larger database: those of 20 stones on 6
/// pits a side, which builds in about two minutes of one core here
/// (docs/notebook/phone-companion.md); smaller boards stop at as many
/// positions. 21 stones would fit the memory (the build's layer takes 5
/// bits a position, and the database 183 MB beside the table), but their
/// last layer alone is 1.5 times the positions of 20 and costs more
/// each, minutes more on a phone several times slower than this core,
/// for a gain not measured in a browser yet.
const LARGER_POSITIONS: u64 = 225_792_840;

/// The stones of the larger database the site builds for `rules` on `n`
/// pits a side, after the one an analysis asks for first
/// ([`EndgameCache::stones`]): the most whose build
/// ([`EndgameDb::build_bytes_for`]) and whose probing beside an
/// analysis's table both stay within [`WORK_MEMORY`], up to
/// [`LARGER_POSITIONS`]. None when that is no more than the first.
pub fn larger_stones(rules: Rules, n: usize) -> Option<u32> {
    let small = EndgameCache::stones(rules, n)?;
    let table = api::ANALYZE_TABLE.min(MAX_MEMORY / 2);
    (small + 1..=127)
        .take_while(|&s| {
            EndgameDb::bytes_for(n, s) <= LARGER_POSITIONS
                && EndgameDb::build_bytes_for(n, s) <= WORK_MEMORY
                && EndgameDb::packed_bytes_for(n, s) + table <= WORK_MEMORY
        })
        .last()
}

/// The database of `game`'s rules and board this engine holds, when the
/// game has more stones than it and the analysis's table fits in the
/// [`room`] left beside it ([`api::endgame_for`], as `serve` chooses).
pub fn for_game(game: &GameState) -> Option<EndgameDb> {
    DBS.with(|dbs| {
        let dbs = dbs.borrow();
        let db = dbs
            .iter()
            .find(|d| (d.rules(), d.pits_per_side()) == (game.rules(), game.pits_per_side()))?;
        api::endgame_for(std::slice::from_ref(db), game, share(Some(db))).cloned()
    })
}

/// Stones of the database of `rules` on `n` pits a side this engine
/// holds (0: none).
fn held(rules: Rules, n: usize) -> u32 {
    DBS.with(|dbs| {
        dbs.borrow()
            .iter()
            .filter(|d| (d.rules(), d.pits_per_side()) == (rules, n))
            .map(|d| d.stones())
            .max()
            .unwrap_or(0)
    })
}

/// Notes that an analysis of `game` could use a database this engine
/// does not hold yet: its rules have one ([`EndgameCache::stones`]), the
/// game has more stones than the database held, which is smaller than
/// the larger one ([`larger_stones`]), and the first would fit beside
/// the table.
pub fn want(game: &GameState) {
    let (rules, n) = (game.rules(), game.pits_per_side());
    let Some(stones) = EndgameCache::stones(rules, n) else {
        return;
    };
    let most = larger_stones(rules, n).unwrap_or(stones);
    let held = held(rules, n);
    let table = api::analysis_options(game, WORK_MEMORY).table_bytes;
    if game.stones_in_pits() > held
        && held < most
        && table + EndgameDb::bytes_for(n, stones) <= WORK_MEMORY
    {
        WANTED.with(|w| *w.borrow_mut() = Some((rules, n)));
    }
}

/// The key of the database of `stones` stones of `rules` on `n` pits a
/// side: `{"name", "rules", "pits", "stones", "bytes"}`, where `name` is
/// the file name the command line's cache gives it (unique to the
/// format, the rules, the board and the stones) and `bytes` its size at
/// a byte a position.
fn key(rules: Rules, n: usize, stones: u32) -> Option<Value> {
    let name = EndgameCache::new("").path_for(rules, n, stones)?;
    Some(json!({
        "name": name.to_string_lossy(),
        "rules": rules,
        "pits": n,
        "stones": stones,
        "bytes": EndgameDb::bytes_for(n, stones),
    }))
}

/// The database asked for since the last call, as the key the host
/// builds, keeps and hands back ([`key`]), with the key of the larger
/// one to build on it after, when there is one (`"larger"`).
pub fn take_wanted() -> Option<Value> {
    let (rules, n) = WANTED.with(|w| w.borrow_mut().take())?;
    let stones = EndgameCache::stones(rules, n)?;
    let mut doc = key(rules, n, stones)?;
    if let Some(larger) = larger_stones(rules, n).and_then(|s| key(rules, n, s)) {
        doc["larger"] = larger;
    }
    Some(doc)
}

/// A key's rules, board and stones, checked: a board these rules have a
/// database for, and no more stones than the larger one's (a smaller
/// database is a test's).
fn parse_key(key: &[u8]) -> Result<(Rules, usize, u32, Value), api::Error> {
    let doc: Value = serde_json::from_slice(key)
        .map_err(|e| api::Error::bad(format!("the endgame key is not JSON: {e}")))?;
    let rules: Rules = serde_json::from_value(doc["rules"].clone())
        .map_err(|e| api::Error::bad(format!("rules: {e}")).field("rules"))?;
    let n = doc["pits"]
        .as_u64()
        .filter(|&n| EndgameCache::stones(rules, n as usize).is_some())
        .ok_or_else(|| {
            api::Error::bad(format!(
                "pits: {} is not a board these rules have a database for",
                doc["pits"]
            ))
            .field("pits")
        })? as usize;
    let small = EndgameCache::stones(rules, n).expect("checked above");
    let most = larger_stones(rules, n).unwrap_or(small);
    let stones = match doc["stones"].as_u64() {
        None => small,
        Some(s) if (1..=u64::from(most)).contains(&s) => s as u32,
        Some(s) => {
            return Err(api::Error::bad(format!(
                "stones: {s} is more than this page builds for these rules and board (1 to {most})"
            ))
            .field("stones"))
        }
    };
    Ok((rules, n, stones, doc))
}

/// A database of `rules` on `n` pits a side read from `r` (`len` bytes),
/// with room for `stones` stones, within the module's [`room`].
fn read_db(
    r: &mut impl BufRead,
    len: u64,
    rules: Rules,
    n: usize,
    stones: u32,
) -> Result<EndgameDb, api::Error> {
    let name = Path::new("the stored endgame database");
    EndgameDb::from_reader(name, r, len, rules, n, room(), stones)
        .map_err(|e| api::Error::bad(e.to_string()))
}

/// Builds on the database in `base` (`"base"` bytes of the key `key`, 0
/// for none) up to the key's stones, on one thread: `progress` hears
/// `{"stones", "of", "share"}` now and then (the share of the key's
/// positions done); the database's file ([`EndgameDb::write_to`]) goes
/// to `out` a piece at a time and `saved` hears `{"stones"}` once it is
/// whole. The answer is `"200\n"` and `{"stones", "complete"}`, or the
/// status and an error document. The host calls it a layer at a time
/// (the key's stones one more than the base's), keeping each file
/// between two calls.
pub fn build(
    key: &[u8],
    base: &mut impl BufRead,
    progress: impl Fn(&Value) + Send + Sync + 'static,
    out: &mut dyn FnMut(&[u8]),
    saved: &dyn Fn(&Value),
) -> Vec<u8> {
    let built = parse_key(key).and_then(|(rules, n, stones, doc)| {
        let len = doc["base"].as_u64().unwrap_or(0);
        let base = match len {
            0 => None,
            len => Some(read_db(base, len, rules, n, stones)?),
        };
        let of = doc["of"].as_u64().map_or(stones, |s| s as u32);
        let last = std::sync::Mutex::new(mancala_sweep::clock::Instant::now());
        let ticks = BuildProgress::with_tick(move |p| {
            let mut last = last.lock().expect("one thread");
            if last.elapsed() >= Duration::from_millis(250) {
                *last = mancala_sweep::clock::Instant::now();
                let share = p.share_of(2 * n, of);
                progress(&json!({"stones": p.layer(), "of": of, "share": share}));
            }
        });
        let mut save = |t: u32, fill: &mut FillFile<'_>| {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, HostWriter(&mut *out));
            fill(&mut w)
                .and_then(|()| std::io::Write::flush(&mut w))
                .expect("the host takes every write");
            drop(w);
            saved(&json!({"stones": t}));
            Ok(())
        };
        let never = AtomicBool::new(false);
        EndgameDb::build_on(
            base,
            rules,
            n,
            stones,
            1,
            WORK_MEMORY,
            Duration::MAX,
            &never,
            &ticks,
            &mut save,
        )
        .map_err(|e| api::Error::bad(e.to_string()))
    });
    match built {
        Ok(b) => format!(
            "200\n{}",
            json!({"stones": b.stones, "complete": b.complete})
        )
        .into_bytes(),
        Err(e) => format!("{}\n{}", e.status, e.doc()).into_bytes(),
    }
}

/// The host's end of a file being written: each piece handed on.
struct HostWriter<'a>(&'a mut dyn FnMut(&[u8]));

impl std::io::Write for HostWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        (self.0)(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Takes a database: `key` is its key's JSON (with `"bytes"`, the length
/// of the bytes [`build`] wrote), and `r` gives those bytes. It replaces
/// a smaller one of the same rules and board; beside a larger one it is
/// not read, and the larger is kept. The document says what the engine
/// holds: `{"stones", "bytes"}`, and `"kept": true` when that is the
/// larger one it had. A database read drops the kept analysis's solver,
/// so that the next analysis starts with it.
pub fn load(key: &[u8], r: &mut impl BufRead) -> Result<Value, api::Error> {
    let (rules, n, stones, doc) = parse_key(key)?;
    let len = doc["bytes"]
        .as_u64()
        .ok_or_else(|| api::Error::bad("the endgame key has no length").field("bytes"))?;
    let held = DBS.with(|dbs| {
        dbs.borrow()
            .iter()
            .find(|d| (d.rules(), d.pits_per_side()) == (rules, n) && d.stones() > stones)
            .map(|d| json!({"stones": d.stones(), "bytes": d.bytes(), "kept": true}))
    });
    if let Some(kept) = held {
        return Ok(kept);
    }
    // What the new one replaces goes first (the kept solver holds it),
    // and the databases of other rules when it would not fit beside them
    // and an analysis's table: the page hands them back when asked.
    crate::forget_solver();
    DBS.with(|dbs| {
        let mut dbs = dbs.borrow_mut();
        dbs.retain(|d| (d.rules(), d.pits_per_side()) != (rules, n));
        if len + api::ANALYZE_TABLE > room() {
            dbs.clear();
        }
    });
    let db = read_db(r, len, rules, n, 0)?;
    let doc = json!({"stones": db.stones(), "bytes": db.bytes()});
    DBS.with(|dbs| dbs.borrow_mut().push(db));
    Ok(doc)
}

#[cfg(test)]
mod tests;
