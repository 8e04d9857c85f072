//! The contract of every reader of outside input, written once and checked
//! in two places: by the fuzz targets (`fuzz/fuzz_targets/`, one a reader,
//! each a call of the function of its name here) and by the ordinary test
//! suite (`tests/fuzz_corpus.rs` includes this file), which feeds it every
//! committed seed and every input a fuzzer once crashed on, so that a fixed
//! crash stays fixed on stable Rust without a fuzzer.
//!
//! Each function takes the raw bytes a reader may be given and panics when
//! the contract is broken: the reader must give a value that reads back the
//! same after it is written out (where the library writes that format), or
//! an error with a message; it must never panic, hang, or allocate beyond
//! what the input asks for within the library's limits. The readers are the
//! library's own public functions: nothing here parses anything itself.
//!
//! Readers of files are given a file: the bytes are written to a fresh
//! directory (in `/dev/shm` when there is one, as a fuzzer writes it many
//! thousand times a second), which is removed afterwards.

use mancala_sweep::api::{self, games::NewGame, games::PickRequest};
use mancala_sweep::atlas::{self, Atlas, Grid};
use mancala_sweep::format::game::match_text;
use mancala_sweep::format::{parse_versioned, GameMatchJson, GAME_MATCH_FORMAT};
use mancala_sweep::game::{matches, EndgameDb, GameState, Side};
use mancala_sweep::puzzle;
use mancala_sweep::rules::turn;
use mancala_sweep::sweep::{Progress, SearchError, SweepOptions};
use mancala_sweep::{solve, Board, Line, Listing, Rules};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

/// The body limit of `serve` (`web::Config::body_limit`'s default).
const BODY_LIMIT: usize = 64 * 1024;

/// The memory cap given to readers that take one: enough for every seed,
/// far below the fuzzer's `-rss_limit_mb=2048`, so that a header asking for
/// more must be refused, not allocated.
const MEMORY_CAP: u64 = 256 << 20;

/// The twelve rule sets, for targets whose first byte chooses one.
fn rule_set(byte: u8) -> Rules {
    let all = atlas::all_rule_sets();
    all[usize::from(byte) % all.len()]
}

/// A fresh, empty directory for one input, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new directory under `/dev/shm` (or the system's temporary one).
    pub fn new() -> Scratch {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!(
            "mancala-sweep-fuzz-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An error must say something.
fn said(message: &str) {
    assert!(!message.trim().is_empty(), "an error with no message");
}

/// `--board` and every `board` field: the board text format. A board read
/// reads back the same from both of the forms the tool prints.
pub fn board_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Board>() {
        Ok(b) => {
            assert_eq!(b.one_line().parse::<Board>().expect("one_line reads"), b);
            assert_eq!(b.to_string().parse::<Board>().expect("diagram reads"), b);
        }
        Err(e) => said(&e.to_string()),
    }
}

/// `replay`'s pick list: the first byte chooses the rule set; the rest is
/// board text, `|`, and pit numbers. A line read reads back the same from
/// its printed form, and its replay conserves stones, one turn a pick, or
/// names the pick it refused.
pub fn replay_picks(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = rule_set(first);
    let (board_text, picks_text) = text.split_once('|').unwrap_or((text, ""));
    let Ok(board) = board_text.parse::<Board>() else {
        return;
    };
    let n = board.pits_per_side();
    let line = match Line::parse(picks_text, n) {
        Ok(line) => line,
        Err(e) => return said(&e),
    };
    assert_eq!(Line::parse(&line.to_string(), n).expect("reads back"), line);
    let picks = line.numbers();
    let total = board.stones_in_play() + u32::from(board.opponent_store());
    match turn::replay(board, rules, &picks) {
        Ok(states) => {
            assert_eq!(states.len(), picks.len() + 1);
            for s in &states {
                let b = s.board();
                assert_eq!(b.stones_in_play() + u32::from(b.opponent_store()), total);
            }
        }
        Err(e) => {
            assert!((1..=picks.len()).contains(&e.place), "{e}");
            assert_eq!(picks[e.place - 1], e.pick);
            said(&e.to_string());
        }
    }
}

/// Puzzle collection files (`puzzles show|list|play|check COLLECTION`): a
/// collection read writes out and reads back the same, and every puzzle's
/// position is read (or refused) and shown as `puzzles show` shows it.
pub fn puzzles(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let c = match puzzle::parse(text) {
        Ok(c) => c,
        Err(e) => return said(&e),
    };
    let json = serde_json::to_string(&c).expect("a collection writes");
    assert_eq!(puzzle::parse(&json).expect("reads back"), c);
    let _ = c.grade_counts();
    let _ = api::puzzles(std::slice::from_ref(&c));
    for p in &c.puzzles {
        match puzzle::position(p) {
            Ok(board) => {
                let _ = puzzle::text::puzzle_text(&c, p, &board);
            }
            Err(e) => said(&e.to_string()),
        }
    }
}

/// `atlas.json` in an `atlas --out` directory, read to resume: an atlas
/// read writes out and reads back the same, and its cells are drawn as a
/// resumed run draws them (the table and the heat maps).
pub fn atlas(data: &[u8]) {
    let dir = Scratch::new();
    std::fs::write(dir.path().join("atlas.json"), data).expect("written");
    let a: Atlas = match atlas::load(dir.path()) {
        Ok(Some(a)) => a,
        Ok(None) => panic!("atlas.json is there"),
        Err(e) => return said(&e.to_string()),
    };
    std::fs::write(
        dir.path().join("atlas.json"),
        serde_json::to_string(&a).expect("an atlas writes"),
    )
    .expect("written");
    assert_eq!(
        atlas::load(dir.path()).expect("reads back"),
        Some(a.clone())
    );
    // A grid of the cells' own sizes and rule sets (a few of each: a grid
    // is what the command line asked for, and it is small).
    let mut grid = Grid {
        pits: Vec::new(),
        stones: Vec::new(),
        rule_sets: Vec::new(),
    };
    for c in &a.cells {
        if !grid.pits.contains(&c.pits) && grid.pits.len() < 4 {
            grid.pits.push(c.pits);
        }
        if !grid.stones.contains(&c.stones) && grid.stones.len() < 4 {
            grid.stones.push(c.stones);
        }
        if !grid.rule_sets.contains(&c.rules) && grid.rule_sets.len() < 2 {
            grid.rule_sets.push(c.rules);
        }
    }
    let cells = atlas::merge(&grid, &a.cells);
    let _ = atlas::markdown(&grid, &a.runs, &cells);
    // The heat maps (the library's feature `svg`, which the fuzz crate and
    // the test suite both turn on).
    for &rules in &grid.rule_sets {
        let _ = atlas::heat_map(&grid, &cells, rules);
    }
}

/// Endgame database files (`game endgame --out`, `--endgame FILE`): the
/// first byte chooses the rules and pits a side asked for (pits `1 +
/// byte % 16`, rule set `byte / 16`); the rest is the file. A database read
/// within the memory cap is written out packed, reads back, and written
/// again gives the same bytes.
pub fn endgame_db(data: &[u8]) {
    let Some((&first, file)) = data.split_first() else {
        return;
    };
    let n = 1 + usize::from(first % 16);
    let rules = rule_set(first / 16);
    let dir = Scratch::new();
    let path = dir.path().join("endgame.db");
    std::fs::write(&path, file).expect("written");
    let db = match EndgameDb::load(&path, rules, n, MEMORY_CAP) {
        Ok(db) => db,
        Err(e) => return said(&e.to_string()),
    };
    let again = dir.path().join("again.db");
    db.save(&again, db.stones()).expect("saved");
    let saved = std::fs::read(&again).expect("read");
    let values = |bytes: &[u8]| {
        let at = bytes
            .iter()
            .position(|&b| b == b'\n')
            .expect("a header line");
        bytes[at + 1..].to_vec()
    };
    let back = EndgameDb::load(&again, rules, n, MEMORY_CAP).expect("reads back");
    assert_eq!(back.stones(), db.stones());
    // Written packed whatever the file read was; written again, the same.
    let twice = dir.path().join("twice.db");
    back.save(&twice, back.stones()).expect("saved");
    let twice = std::fs::read(&twice).expect("read");
    assert_eq!(
        values(&twice),
        values(&saved),
        "the values are written back"
    );
}

/// The small search whose spill directory the spill targets damage:
/// any-hole on 3 pits a side with 2 stones each, one thread.
fn spill_search() -> (Board, Rules) {
    (Board::uniform(3, 2).expect("a board"), Rules::ANY_HOLE)
}

/// Options of a spilled solve of [`spill_search`] in `dir`.
fn spill_options<'a>(
    dir: &'a Path,
    progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    cancel: Option<&'a AtomicBool>,
) -> SweepOptions<'a> {
    SweepOptions {
        threads: 1,
        listing: Listing::Limit(0),
        spill: Some(dir),
        // Every bucket in run files of its own, a few hundred bytes each.
        spill_buffer: Some(0),
        max_disk: 64 << 20,
        max_memory: 1 << 30,
        progress,
        cancel,
        ..SweepOptions::default()
    }
}

/// The files of a spill directory, by name.
pub type Files = Vec<(String, Vec<u8>)>;

/// What a solve answers that a resume must give again: the best store,
/// the optimal and complete turns, the positions.
pub type Answer = (u32, u128, u128, u64);

/// A spill directory stopped after its second bucket: its files by name
/// (the checkpoint among them) and the answer of the whole search, made
/// once a process.
pub fn spill_stopped() -> &'static (Files, Answer) {
    static MADE: OnceLock<(Files, Answer)> = OnceLock::new();
    MADE.get_or_init(|| {
        let (board, rules) = spill_search();
        let whole = Scratch::new();
        let s = solve(&board, rules, &spill_options(whole.path(), None, None)).expect("solved");
        let answer = (s.best_store, s.optimal_count, s.turns_total, s.positions);
        let stopped = Scratch::new();
        let cancel = AtomicBool::new(false);
        let buckets = AtomicU64::new(0);
        let progress = |_: &Progress| {
            if buckets.fetch_add(1, Ordering::Relaxed) == 1 {
                cancel.store(true, Ordering::Relaxed);
            }
        };
        let opts = spill_options(stopped.path(), Some(&progress), Some(&cancel));
        assert!(
            solve(&board, rules, &opts).is_err(),
            "the search was stopped"
        );
        let mut files: Files = std::fs::read_dir(stopped.path())
            .expect("listed")
            .map(|e| {
                let e = e.expect("an entry");
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).expect("read"))
            })
            .collect();
        files.sort();
        assert!(files
            .iter()
            .any(|(n, _)| n == mancala_sweep::sweep::exact::CHECKPOINT_FILE));
        assert!(
            files.iter().any(|(n, _)| n.ends_with(".run")),
            "runs to resume from"
        );
        (files, answer)
    })
}

/// Resume the spilled search from `files`: the answer of the whole search
/// when the files are those of [`spill_stopped`], and any answer or an
/// error (never a panic or hang) for damaged ones.
fn resume(files: &[(String, Vec<u8>)]) -> Option<Answer> {
    let dir = Scratch::new();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("written");
    }
    let (board, rules) = spill_search();
    match solve(&board, rules, &spill_options(dir.path(), None, None)) {
        Ok(s) => Some((s.best_store, s.optimal_count, s.turns_total, s.positions)),
        // A panic in a worker is caught and reported as this error (under
        // a fuzzer the panic itself aborts first): a bug, not a refusal.
        Err(e @ SearchError::Internal(_)) => panic!("{e}"),
        Err(e) => {
            said(&e.to_string());
            None
        }
    }
}

/// The spill's `checkpoint.json`, read when `solve --spill DIR` resumes:
/// the data replaces the checkpoint of a stopped directory whose run files
/// are kept. The untouched checkpoint resumes to the whole answer.
pub fn spill_checkpoint(data: &[u8]) {
    let (files, answer) = spill_stopped();
    let mut files = files.clone();
    let checkpoint = files
        .iter_mut()
        .find(|(n, _)| n == mancala_sweep::sweep::exact::CHECKPOINT_FILE)
        .expect("a checkpoint");
    let same = checkpoint.1 == data;
    checkpoint.1 = data.to_vec();
    let got = resume(&files);
    if same {
        assert_eq!(got.as_ref(), Some(answer), "the stopped search resumes");
    }
}

/// The stopped directory of [`spill_stopped`] made ready for
/// [`spill_run`]: the files, the index of the first run file among them,
/// and the checkpoint's text cut where that run's size in bytes goes.
struct RunTarget {
    files: Files,
    run: usize,
    checkpoint: usize,
    before: String,
    after: String,
}

/// [`RunTarget`], made once a process: parsing and writing the checkpoint
/// as a JSON value for every input took about 4% of `spill_run`'s time
/// (in a `perf` profile of the fuzzer), for an edit that only puts a
/// number in.
fn run_target() -> &'static RunTarget {
    static MADE: OnceLock<RunTarget> = OnceLock::new();
    MADE.get_or_init(|| {
        let (files, _) = spill_stopped();
        let files = files.clone();
        let run = files
            .iter()
            .position(|(n, _)| n.ends_with(".run"))
            .expect("a run file");
        let checkpoint = files
            .iter()
            .position(|(n, _)| n == mancala_sweep::sweep::exact::CHECKPOINT_FILE)
            .expect("a checkpoint");
        // The checkpoint names each run with its size in bytes: the record
        // of this one gets a number no other field holds, and the text is
        // cut around it (a JSON edit; the checkpoint's reader is the
        // library's).
        const MARK: u64 = 987_654_321_987_654_321;
        let mut doc: Value = serde_json::from_slice(&files[checkpoint].1).expect("a checkpoint");
        for record in doc["runs"].as_array_mut().expect("runs") {
            if record["file"] == files[run].0.as_str() {
                record["bytes"] = MARK.into();
            }
        }
        let text = serde_json::to_string(&doc).expect("json");
        let (before, after) = text.split_once(&MARK.to_string()).expect("the mark");
        assert!(!after.contains(&MARK.to_string()), "one mark");
        RunTarget {
            before: before.to_string(),
            after: after.to_string(),
            files,
            run,
            checkpoint,
        }
    })
}

/// A spill run file, read when `solve --spill DIR` resumes: the data
/// replaces the first run file of a stopped directory, and its checkpoint
/// is told the new size (so that damage inside the file, not only a size
/// that does not match, is read). The untouched file resumes to the whole
/// answer.
pub fn spill_run(data: &[u8]) {
    let (_, answer) = spill_stopped();
    let target = run_target();
    let mut files = target.files.clone();
    let same = files[target.run].1 == data;
    files[target.run].1 = data.to_vec();
    files[target.checkpoint].1 =
        format!("{}{}{}", target.before, data.len(), target.after).into_bytes();
    let got = resume(&files);
    if same {
        assert_eq!(got.as_ref(), Some(answer), "the stopped search resumes");
    }
}

/// `game match --out FILE`, read to resume a match: a document read writes
/// out and reads back the same, and its games are summed up and reported
/// as the resumed match reports them.
pub fn match_out(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let doc: GameMatchJson = match parse_versioned(text, GAME_MATCH_FORMAT, "a match") {
        Ok(doc) => doc,
        Err(e) => return said(&e.to_string()),
    };
    let json = serde_json::to_string(&doc).expect("a match writes");
    let back: GameMatchJson =
        parse_versioned(&json, GAME_MATCH_FORMAT, "a match").expect("reads back");
    assert_eq!(back, doc);
    let record = doc.record();
    let summary = matches::summarize(&record.games);
    let _ = match_text(&record, &summary);
    if let Ok(board) = doc.start.board.parse::<Board>() {
        if let Ok(state) = GameState::new(board, Side::First, doc.rules) {
            let _ = GameMatchJson::new(&state, &record, summary);
        }
    }
}

/// Every JSON body of the web API: the first byte chooses the endpoint,
/// the rest is the body, parsed and checked as the server does. An error
/// is one of the documented statuses with a message.
pub fn api_bodies(data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let result: Result<(), api::Error> = match first % 7 {
        0 => api::parse::<api::SolveRequest>(body, BODY_LIMIT).and_then(|r| r.check().map(drop)),
        1 => api::parse::<api::ReplayRequest>(body, BODY_LIMIT)
            .and_then(|r| api::replay(&r).map(drop)),
        2 => api::parse::<api::FindRequest>(body, BODY_LIMIT).and_then(|r| r.check(5.0).map(drop)),
        3 => {
            api::parse::<api::AnalyzeRequest>(body, BODY_LIMIT).and_then(|r| r.check(5.0).map(drop))
        }
        4 => api::parse::<api::CheckRequest>(body, BODY_LIMIT).and_then(|r| {
            let c = &committed()[0];
            let cancel = AtomicBool::new(false);
            api::check(c, &c.puzzles[0], &r, 1.0, &cancel).map(drop)
        }),
        5 => api::parse::<NewGame>(body, BODY_LIMIT)
            .and_then(|r| r.check(MEMORY_CAP, "the fuzz cap").map(drop)),
        _ => api::parse::<PickRequest>(body, BODY_LIMIT).map(drop),
    };
    if let Err(e) = result {
        assert!(
            [400, 404, 409, 413, 503].contains(&e.status),
            "status {}",
            e.status
        );
        said(&e.message);
        assert!(!e.message.contains('\n'), "one line: {:?}", e.message);
    }
}

/// The committed puzzle collections, read once.
fn committed() -> &'static [puzzle::Collection] {
    static READ: OnceLock<Vec<puzzle::Collection>> = OnceLock::new();
    READ.get_or_init(|| puzzle::committed().expect("committed collections read"))
}
