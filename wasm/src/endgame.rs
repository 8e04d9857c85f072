//! The engine's endgame databases: the one the command line keeps in its
//! cache folder ([`EndgameCache`]), built in the browser instead, since a
//! page has no files.
//!
//! An analysis of a position with more stones than the database of its
//! rules holds asks for it ([`want`]) and goes on without it. The page
//! then builds it in a worker of its own with this same module
//! ([`build`]: one thread, layer by layer, progress events), keeps its
//! bytes in the browser's storage (IndexedDB) for later visits, and hands
//! them to the engine ([`load`]) between two requests; the analyses after
//! that use it ([`for_game`]). docs/site.md says why it is built rather
//! than fetched.

use mancala_sweep::api;
use mancala_sweep::game::{EndgameCache, EndgameDb, GameState};
use mancala_sweep::rules::Rules;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::MAX_MEMORY;

thread_local! {
    /// The databases handed to this engine, one a rule set and board size.
    static DBS: RefCell<Vec<EndgameDb>> = const { RefCell::new(Vec::new()) };
    /// The database an analysis asked for and did not have, until the
    /// host reads it ([`take_wanted`]).
    static WANTED: RefCell<Option<(Rules, usize)>> = const { RefCell::new(None) };
}

/// The database of `game`'s rules and board this engine holds, when the
/// game has more stones than it and it fits beside the analysis's table
/// ([`api::endgame_for`], as `serve` chooses).
pub fn for_game(game: &GameState) -> Option<EndgameDb> {
    DBS.with(|dbs| api::endgame_for(&dbs.borrow(), game, MAX_MEMORY).cloned())
}

/// Notes that an analysis of `game` went without a database: asked for
/// when its rules have one ([`EndgameCache::stones`]), the game has more
/// stones than it would hold, and it would fit beside the table.
pub fn want(game: &GameState) {
    let (rules, n) = (game.rules(), game.pits_per_side());
    let Some(stones) = EndgameCache::stones(rules, n) else {
        return;
    };
    let table = api::analysis_options(game, MAX_MEMORY).table_bytes;
    if game.stones_in_pits() > stones
        && table + EndgameDb::bytes_for(n, stones) <= MAX_MEMORY
        && for_game(game).is_none()
    {
        WANTED.with(|w| *w.borrow_mut() = Some((rules, n)));
    }
}

/// The database asked for since the last call, as the key the host
/// builds, keeps and hands back: `{"name", "rules", "pits", "stones",
/// "bytes"}`, where `name` is the file name the command line's cache
/// gives it (unique to the format, the rules, the board and the stones).
pub fn take_wanted() -> Option<Value> {
    let (rules, n) = WANTED.with(|w| w.borrow_mut().take())?;
    let stones = EndgameCache::stones(rules, n)?;
    let name = EndgameCache::new("").path(rules, n)?;
    Some(json!({
        "name": name.to_string_lossy(),
        "rules": rules,
        "pits": n,
        "stones": stones,
        "bytes": EndgameDb::bytes_for(n, stones),
    }))
}

/// A key's rules and board, checked.
fn parse_key(key: &[u8]) -> Result<(Rules, usize), api::Error> {
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
        })?;
    Ok((rules, n as usize))
}

/// Builds the database of the key `key` (as [`take_wanted`] gives it) on
/// one thread; `progress` hears of each layer as `{"stones", "of",
/// "share"}` (the share of positions done). The answer is `"200\n"` and
/// the database's bytes ([`EndgameDb::write_to`]), or the status and an
/// error document.
pub fn build(key: &[u8], progress: &dyn Fn(&Value)) -> Vec<u8> {
    let built = parse_key(key).and_then(|(rules, n)| {
        let stones = EndgameCache::stones(rules, n).expect("checked by parse_key");
        let total = EndgameDb::bytes_for(n, stones) as f64;
        let mut done = 0u64;
        EndgameDb::build(
            rules,
            n,
            stones,
            1,
            MAX_MEMORY,
            &AtomicBool::new(false),
            |t, len| {
                done += len;
                progress(&json!({"stones": t, "of": stones, "share": done as f64 / total}));
            },
        )
        .map_err(|e| api::Error::bad(e.to_string()))
        .map(|db| db.expect("never cancelled"))
    });
    match built {
        Ok(db) => {
            let mut out = b"200\n".to_vec();
            db.write_to(&mut out).expect("a vector takes every write");
            out
        }
        Err(e) => format!("{}\n{}", e.status, e.doc()).into_bytes(),
    }
}

/// Takes a database: `request` is the key's JSON line, then the bytes
/// [`build`] gave. It replaces any of the same rules and board; the
/// document says what it holds.
pub fn load(request: &[u8]) -> Result<Value, api::Error> {
    let cut = request
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| api::Error::bad("the endgame request has no key line"))?;
    let (rules, n) = parse_key(&request[..cut])?;
    let db = EndgameDb::from_bytes(
        Path::new("the stored endgame database"),
        &request[cut + 1..],
        rules,
        n,
        MAX_MEMORY,
    )
    .map_err(|e| api::Error::bad(e.to_string()))?;
    let doc = json!({"stones": db.stones(), "bytes": db.bytes()});
    DBS.with(|dbs| {
        let mut dbs = dbs.borrow_mut();
        dbs.retain(|d| (d.rules(), d.pits_per_side()) != (rules, n));
        dbs.push(db);
    });
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asked for by the capture start, built, loaded, and then given to
    /// an analysis of its board; a key of rules without a
    /// database, or bytes cut short, are refused.
    #[test]
    fn a_wanted_database_is_built_loaded_and_used() {
        let game = GameState::start(6, 4, Rules::KALAH).unwrap();
        assert!(for_game(&game).is_none());
        want(&game);
        let key = take_wanted().expect("asked for");
        assert!(take_wanted().is_none(), "asked for once");
        assert_eq!(key["pits"], 6);
        // A smaller board keeps the test quick: the same key, 3 pits.
        let mut small = key.clone();
        small["pits"] = json!(3);
        let key_text = small.to_string();
        let events = std::cell::Cell::new(0);
        let answer = build(key_text.as_bytes(), &|e| {
            assert!(e["share"].as_f64().unwrap() <= 1.0);
            events.set(events.get() + 1);
        });
        assert!(answer.starts_with(b"200\n"));
        assert!(events.get() > 0);
        let mut request = key_text.clone().into_bytes();
        request.push(b'\n');
        request.extend_from_slice(&answer[4..]);
        let doc = load(&request).expect("loaded");
        assert_eq!(
            doc["stones"],
            EndgameCache::stones(Rules::KALAH, 3).unwrap()
        );
        let small_game = GameState::start(3, 9, Rules::KALAH).unwrap();
        assert!(for_game(&small_game).is_some());
        assert!(load(&request[..request.len() - 1]).is_err());
        let any = json!({"rules": {"scope": "any", "relay": false, "capture": "kalah"}, "pits": 6});
        assert!(
            String::from_utf8(build(any.to_string().as_bytes(), &|_| {}))
                .unwrap()
                .starts_with("400\n")
        );
    }
}
