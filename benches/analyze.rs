//! The targets of `game analyze` (docs/games.md#targets), measured on the
//! positions the issue names and printed as a table.
//!
//! On 6 pits a side with 4 stones a pit at the start, for GamePigeon's two
//! modes (avalanche, and capture, which is Kalah's rules):
//!
//! 1. positions with at most 30 stones in the pits: the share whose whole
//!    ranking `game analyze` proves within one second, the share whose best
//!    turn is a best turn (and how often one was called proved best and was
//!    not: never, or the analysis is wrong), and the worst time;
//! 2. positions with 31 to 44 stones: the share whose one-second best turn
//!    is an exact best turn (checked with the exact solver, as `game solve`
//!    runs it), and how far the estimate was from the exact value; and
//!    apart the same for positions of 37 to 44 stones, the hardest, and
//!    for positions of 45 to 48 stones (the early game: the books' and
//!    those just past them);
//! 3. avalanche's start: the time to the exact value, against `game solve`
//!    in the same run;
//! 4. the opening: every position a committed opening book answers (at
//!    most its turns less one from the start), the share proved best and
//!    the worst time, and without the book the share proved best, the
//!    share whose best turn is a best turn by the book's ranking, and how
//!    often one was called proved best wrongly.
//!
//! The positions come from games between two `medium` agents (alpha-beta
//! four turns deep) after two to four random turns (without them every
//! game of the agents would be the same): from game `g`, one position of
//! each class, chosen at random with seed `g`, each position once a class. The
//! same on every run.
//!
//! Every analysis runs as `game analyze` runs it: a fresh solver (its 64 MiB
//! table zeroed), the endgame database read from the cache folder
//! (`$MANCALA_SWEEP_CACHE`, else Cargo's scratch folder for benches; built
//! there once before the measures, its time printed apart), every thread
//! of the machine, a one-second budget; the time measured is the wall time
//! of the whole call, the database's reading included. With `--no-cache`
//! the database is the 12-stone one filled on demand, as before the cache
//! (and as `game analyze --no-cache`). The checks of part 2 take minutes, so every result is
//! appended to a state file as it is found, and running the same command
//! again goes on from there (`--fresh` starts over):
//!
//! ```text
//! cargo bench --bench analyze                       # 100 positions a class and mode
//! cargo bench --bench analyze -- --positions 10     # a quick look
//! cargo bench --bench analyze -- --nodes 2000000    # a budget of picks, one thread
//! cargo bench --bench analyze -- --no-cache         # no cached endgame database
//! cargo bench --bench analyze -- --opening          # the opening stage alone
//! cargo bench --bench analyze -- --mode capture     # one mode
//! cargo bench --bench analyze -- --endgame-stones 20  # the cached database up to 20 stones
//! cargo bench --bench analyze -- --list --positions 20  # part 2's positions, as JSON lines
//! cargo bench --bench analyze -- --list --class hard   # the 37-44 class's instead
//! ```
//!
//! With `--nodes N` every analysis has a budget of `N` picks on one thread
//! instead of a second on every thread: the answers are then the same on
//! every run and machine and under any load, which is how two builds are
//! compared (a quiet second on two threads searches fewer useful picks
//! than two million on one, so the shares come out higher than timed).
//!
//! The state file is `$MANCALA_SWEEP_BENCH_STATE`, by default
//! `analyze-bench-cached.jsonl` (`-nodes-N` with `--nodes N`, `-no-cache`
//! in place of `-cached` with `--no-cache`)
//! in Cargo's scratch folder for benches (`target/tmp`): outside the
//! sources.

use mancala_sweep::game::endgame::Reading;
use mancala_sweep::game::{
    analyze, AgentSpec, Analysis, Budget, EndgameCache, EndgameDb, GameState, Level, SolveOptions,
    Solver,
};
use mancala_sweep::Preset;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The table of a `game analyze` run (as the command's default).
const ANALYZE_TABLE: u64 = mancala_sweep::api::ANALYZE_TABLE;

/// The two modes measured.
const MODES: [(&str, Preset); 2] = [("avalanche", Preset::Avalanche), ("capture", Preset::Kalah)];

/// `--endgame-stones S`: the analyses read the cached database only up to
/// `S` stones (its first layers), to measure what each size of database
/// gives.
static DB_STONES: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();

/// One measured position, as a line of the state file.
#[derive(Serialize, Deserialize, Clone)]
struct Row {
    mode: String,
    class: String,
    index: usize,
    /// The position (board text, the mover's row at the bottom), to check
    /// that a resumed run measures the same positions.
    board: String,
    stones: u32,
    /// Wall seconds of the one-second analysis.
    seconds: f64,
    /// Every turn proved.
    all_proved: bool,
    /// The best turn's value proved and no other turn better.
    exact: bool,
    /// The analysis's value of the position.
    value: i32,
    /// The exact value of the position (`game solve`).
    exact_value: Option<i32>,
    /// The exact value of the analysis's best turn.
    chosen_value: Option<i32>,
    /// Wall seconds of the exact check.
    check_seconds: Option<f64>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let positions = match args.iter().position(|a| a == "--positions") {
        Some(i) => match args.get(i + 1).and_then(|v| v.parse::<usize>().ok()) {
            Some(n) if n > 0 => n,
            _ => {
                eprintln!("--positions: give a whole number above 0");
                std::process::exit(2);
            }
        },
        None => 100,
    };
    let nodes = match args.iter().position(|a| a == "--nodes") {
        Some(i) => match args.get(i + 1).and_then(|v| v.parse::<u64>().ok()) {
            Some(n) if n > 0 => Some(n),
            _ => {
                eprintln!("--nodes: give a whole number of picks above 0");
                std::process::exit(2);
            }
        },
        None => None,
    };
    if args.iter().any(|a| a == "--list") {
        let class = match args.iter().position(|a| a == "--class") {
            Some(i) => match args
                .get(i + 1)
                .and_then(|c| CLASSES.iter().position(|(name, _)| name == c))
            {
                Some(class) => class,
                None => {
                    eprintln!("--class: give small, mid, hard or early");
                    std::process::exit(2);
                }
            },
            None => 1,
        };
        list_positions(positions, class);
        return;
    }
    let cached = !args.iter().any(|a| a == "--no-cache");
    let db_stones = match args.iter().position(|a| a == "--endgame-stones") {
        Some(i) => match args.get(i + 1).and_then(|v| v.parse::<u32>().ok()) {
            Some(s) if s > 0 => Some(s),
            _ => {
                eprintln!("--endgame-stones: give a number of stones, 1 or more");
                std::process::exit(2);
            }
        },
        None => None,
    };
    DB_STONES.set(db_stones).expect("set once");
    let modes: Vec<(&str, Preset)> = match args.iter().position(|a| a == "--mode") {
        Some(i) => match MODES
            .into_iter()
            .find(|(m, _)| Some(*m) == args.get(i + 1).map(String::as_str))
        {
            Some(m) => vec![m],
            None => {
                eprintln!("--mode: give avalanche or capture");
                std::process::exit(2);
            }
        },
        None => MODES.to_vec(),
    };
    let default_state = format!(
        "analyze-bench-{}{}{}.jsonl",
        if cached { "cached" } else { "no-cache" },
        nodes.map(|n| format!("-nodes-{n}")).unwrap_or_default(),
        db_stones.map(|s| format!("-db-{s}")).unwrap_or_default()
    );
    let state_file = std::env::var_os("MANCALA_SWEEP_BENCH_STATE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(default_state));
    if args.iter().any(|a| a == "--fresh") {
        let _ = std::fs::remove_file(&state_file);
    }
    let mut done = read_state(&state_file);
    eprintln!(
        "state: {} ({} results kept; the same command goes on from there, --fresh starts over)",
        state_file.display(),
        done.len()
    );
    let (threads, budget) = match nodes {
        Some(n) => (1, Budget::Nodes(n)),
        None => (
            std::thread::available_parallelism().map_or(1, |n| n.get()) as u32,
            Budget::Seconds(1.0),
        ),
    };
    println!("machine: {}", mancala_sweep::sweep::kernel::machine());
    println!(
        "threads: {threads}, budget: {}, positions a class and mode: {positions}\n",
        match budget {
            Budget::Nodes(n) => format!("{n} picks"),
            Budget::Seconds(s) => format!("{s} s"),
        }
    );

    if cached {
        let cache = bench_cache();
        for &(mode, preset) in &modes {
            let t0 = Instant::now();
            let (rules, n) = (preset.rules(), 6);
            let start = GameState::start(n, 4, rules).expect("6x4 start");
            let db = match cached_db(&start) {
                Some(db) => db,
                None => cache
                    .build(
                        rules,
                        n,
                        EndgameCache::stones(rules, n).expect("scope own"),
                        threads as usize,
                        u64::MAX,
                        &AtomicBool::new(false),
                        &mancala_sweep::game::endgame::BuildProgress::default(),
                    )
                    .expect("cache written")
                    .expect("built whole"),
            };
            println!(
                "endgame database for {mode}: {} stones from {}, ready in {:.1} s (built once, then read by every analysis)",
                db.stones(),
                cache.best(rules, n).expect("built").path.display(),
                t0.elapsed().as_secs_f64()
            );
        }
        println!();
    }

    if args.iter().any(|a| a == "--opening") {
        print_opening(&opening(threads, budget, cached), budget);
        return;
    }
    let mut rows: Vec<Row> = vec![];
    for &(mode, preset) in &modes {
        for ((class, _), list) in CLASSES.into_iter().zip(sample(preset, positions)) {
            for (index, state) in list.iter().enumerate() {
                let key = (mode.to_string(), class.to_string(), index);
                let board = state.board().one_line();
                let row = match done.remove(&key) {
                    Some(r) if r.board == board => r,
                    _ => {
                        let r = measure(mode, class, index, state, threads, budget, cached);
                        append(&state_file, &r);
                        r
                    }
                };
                eprintln!(
                    "{mode} {class} {}/{}: {} stones, {:.2} s{}",
                    index + 1,
                    list.len(),
                    row.stones,
                    row.seconds,
                    if row.exact { ", exact" } else { "" }
                );
                rows.push(row);
            }
        }
    }
    // The start is timed: a budget of picks says nothing of its seconds.
    let start = (nodes.is_none() && modes.iter().any(|(m, _)| *m == "avalanche"))
        .then(|| avalanche_start(threads, cached));
    print_tables(&rows, start.as_ref(), budget);
    if modes.len() == MODES.len() {
        print_opening(&opening(threads, budget, cached), budget);
    }
}

/// The opening stage of one mode: every position of a committed book
/// short of its frontier (every position at most that many turns from the
/// start, less one), analyzed as `game analyze` runs it, and again without
/// the book.
struct Opening {
    mode: &'static str,
    turns: u32,
    positions: usize,
    /// Answers proved best (the value proved and no turn better).
    proved: usize,
    /// The slowest answer, in seconds.
    worst: f64,
    /// Proved best without the book, within the same budget.
    proved_without: usize,
    /// Without the book, the best turn is a best turn (by the book's exact
    /// ranking of every turn).
    best_without: usize,
    /// Without the book, proved best yet not a best turn: must be none.
    wrongly_without: usize,
}

fn opening(threads: u32, budget: Budget, cached: bool) -> Vec<Opening> {
    let never = AtomicBool::new(false);
    let mut out = vec![];
    for (mode, preset) in MODES {
        let Some(book) = mancala_sweep::game::book::builtin()
            .into_iter()
            .find(|b| b.describe().0 == preset.rules())
        else {
            continue;
        };
        let (rules, n, stones, turns) = book.describe();
        let start = GameState::start(n, stones, rules).expect("start");
        let mut depths = mancala_sweep::game::book::by_depth(&start, turns);
        depths.pop();
        let positions: Vec<GameState> = depths.into_iter().flatten().collect();
        let mut row = Opening {
            mode,
            turns,
            positions: positions.len(),
            proved: 0,
            worst: 0.0,
            proved_without: 0,
            best_without: 0,
            wrongly_without: 0,
        };
        for (i, state) in positions.iter().enumerate() {
            eprintln!("opening {mode} {}/{}", i + 1, positions.len());
            let mut ranked: Option<Analysis> = None;
            for book in [true, false] {
                let t0 = Instant::now();
                let db = cached.then(|| cached_db(state)).flatten();
                let opts = SolveOptions {
                    book,
                    ..analyze_options(state, threads)
                };
                let a = analyze(state, &opts, db.as_ref(), budget, &never, None)
                    .expect("a position in play");
                if book {
                    row.worst = row.worst.max(t0.elapsed().as_secs_f64());
                    row.proved += a.exact() as usize;
                    assert_eq!(a.proved(), a.turns.len(), "the book ranks every turn");
                    ranked = Some(a);
                } else {
                    let exact = ranked.as_ref().expect("the book's answer first");
                    let chosen = exact
                        .turns
                        .iter()
                        .find(|t| t.picks == a.turns[0].picks)
                        .expect("the same turns");
                    let best = chosen.value == exact.value();
                    row.proved_without += a.exact() as usize;
                    row.best_without += best as usize;
                    row.wrongly_without += (a.exact() && !best) as usize;
                }
            }
        }
        out.push(row);
    }
    out
}

fn print_opening(rows: &[Opening], budget: Budget) {
    let analysis = match budget {
        Budget::Nodes(n) => format!("analysis of {n} picks on one thread"),
        Budget::Seconds(s) => format!("{s} s analysis"),
    };
    println!("\nThe opening (every position short of a committed book's frontier), {analysis}:\n");
    println!("With the book every answer is the book's exact ranking; without it, the best turn is checked against that ranking.\n");
    println!("| mode | turns from the start | positions | proved best | worst time | without the book: proved best | best turn is a best turn | called proved best wrongly |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        println!(
            "| {} | 0 to {} | {} | {} ({:.0}%) | {:.3} s | {} ({:.0}%) | {} ({:.0}%) | {} |",
            r.mode,
            r.turns - 1,
            r.positions,
            r.proved,
            pct(r.proved, r.positions),
            r.worst,
            r.proved_without,
            pct(r.proved_without, r.positions),
            r.best_without,
            pct(r.best_without, r.positions),
            r.wrongly_without
        );
    }
}

/// The classes of positions, by the stones in their pits: the late game,
/// the middle, its hardest part, and the early game (the books' and just
/// past them).
const CLASSES: [(&str, std::ops::RangeInclusive<u32>); 4] = [
    ("small", 1..=30),
    ("mid", 31..=44),
    ("hard", 37..=44),
    ("early", 45..=48),
];

/// The positions of `preset` on 6×4: `n` of each of [`CLASSES`], one of
/// each from a game (games that have none of a class give none), from at
/// most [`GAMES_A_POSITION`] games a position asked for: a class the
/// games seldom reach (avalanche's 45 to 48 stones: a turn there mostly
/// sows a handful of stones into the store, and the few positions left
/// repeat) has fewer, and a line says so, where the search for more went
/// on for ever.
fn sample(preset: Preset, n: usize) -> [Vec<GameState>; 4] {
    let mut lists: [Vec<GameState>; 4] = Default::default();
    let mut taken = HashSet::new();
    let mut game = 0u64;
    let most = (n as u64).saturating_mul(GAMES_A_POSITION);
    while lists.iter().any(|l| l.len() < n) && game < most {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(game);
        let start = GameState::start(6, 4, preset.rules()).expect("6x4 start");
        let mut random = AgentSpec::Random.build(&start, game).expect("agent");
        let mut medium = Level::Medium.agent().build(&start, game).expect("agent");
        let openings = rng.random_range(2..=4);
        let mut state = start;
        let mut seen = vec![];
        let mut turn = 0;
        while !state.is_over() {
            seen.push(state);
            let picks = if turn < openings {
                random.choose(&state)
            } else {
                medium.choose(&state)
            };
            state.play_turn(&picks).expect("an agent's turn is legal");
            turn += 1;
        }
        for (list, (_, range)) in lists.iter_mut().zip(CLASSES) {
            let of: Vec<&GameState> = seen
                .iter()
                .filter(|s| range.contains(&s.stones_in_pits()))
                .collect();
            if of.is_empty() || list.len() >= n {
                continue;
            }
            let pick = *of[rng.random_range(0..of.len())];
            // Each position once: games that meet again after their random
            // openings would weigh the same position twice.
            if taken.insert((pick.board().one_line(), pick.mover(), range.clone())) {
                list.push(pick);
            }
        }
        game += 1;
    }
    for (list, (class, range)) in lists.iter().zip(CLASSES) {
        if list.len() < n {
            eprintln!(
                "{preset:?} {class} ({range:?} stones): {} different positions in {game} games, of {n} asked for",
                list.len()
            );
        }
    }
    lists
}

/// The most games [`sample`] plays for each position a class asks for.
const GAMES_A_POSITION: u64 = 3;

/// Prints the positions of [`CLASSES`]' `class` (part 2's, 31 to 44
/// stones, unless `--class` names another), `n` a mode, one JSON line
/// each (mode, index, stones, the board from the mover's side, as
/// `--board` takes it), and measures nothing: for the site's bench
/// (`benches/site-endgame.mjs`), which measures them in the browser.
fn list_positions(n: usize, class: usize) {
    for (mode, preset) in MODES {
        for (index, state) in sample(preset, n)[class].iter().enumerate() {
            println!(
                "{}",
                serde_json::json!({
                    "mode": mode,
                    "index": index,
                    "stones": state.stones_in_pits(),
                    "board": state.board_from(state.mover()).one_line(),
                })
            );
        }
    }
}

/// The cache folder of the endgame databases: `$MANCALA_SWEEP_CACHE`, as
/// `game analyze`'s, else Cargo's scratch folder for benches.
fn bench_cache() -> EndgameCache {
    EndgameCache::new(
        std::env::var_os("MANCALA_SWEEP_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("endgame-cache")),
    )
}

/// The cached database of `state`'s rules, read from disk as a fresh
/// `game analyze` reads it.
fn cached_db(state: &GameState) -> Option<EndgameDb> {
    let n = state.pits_per_side();
    let stones = DB_STONES.get().copied().flatten();
    // A cap in bytes of the packed file takes the layers that fit it: up
    // to `stones` (a cap of a byte a position took one layer more).
    let cap = stones.map_or(u64::MAX, |s| EndgameDb::packed_bytes_for(n, s));
    let db = bench_cache()
        .load(state.rules(), n, cap, Reading::Mapped)
        .expect("cache readable");
    if let (Some(s), Some(db)) = (stones, &db) {
        if db.stones() != s {
            eprintln!(
                "--endgame-stones {s}: the cache holds a database of {} stones within that memory; build {s} stones first",
                db.stones()
            );
            std::process::exit(2);
        }
    }
    db
}

/// The options of `game analyze` on `state` with `threads` threads.
fn analyze_options(state: &GameState, threads: u32) -> SolveOptions {
    SolveOptions {
        table_bytes: ANALYZE_TABLE,
        threads,
        ..SolveOptions::default()
    }
    .fit_to(state.rules(), state.pits_per_side(), state.stones_in_pits())
}

/// The options of `game solve` on `state` with `threads` threads.
fn solve_options(state: &GameState, threads: u32) -> SolveOptions {
    SolveOptions {
        threads,
        ..SolveOptions::default()
    }
    .fit_to(state.rules(), state.pits_per_side(), state.stones_in_pits())
}

/// One position: the analysis within `budget`, and for the mid class the
/// exact value of the position and of the analysis's best turn.
fn measure(
    mode: &str,
    class: &str,
    index: usize,
    state: &GameState,
    threads: u32,
    budget: Budget,
    cached: bool,
) -> Row {
    let never = AtomicBool::new(false);
    let t0 = Instant::now();
    let db = cached.then(|| cached_db(state)).flatten();
    // As `game analyze`: the seconds count the database's reading.
    let budget = if db.is_some() {
        budget.less(t0.elapsed())
    } else {
        budget
    };
    let a = analyze(
        state,
        &analyze_options(state, threads),
        db.as_ref(),
        budget,
        &never,
        None,
    )
    .expect("analysis of a position in play");
    let seconds = t0.elapsed().as_secs_f64();
    let mut row = Row {
        mode: mode.into(),
        class: class.into(),
        index,
        board: state.board().one_line(),
        stones: state.stones_in_pits(),
        seconds,
        all_proved: a.proved() == a.turns.len(),
        exact: a.exact(),
        value: a.value(),
        exact_value: None,
        chosen_value: None,
        check_seconds: None,
    };
    {
        let t1 = Instant::now();
        let (v, chosen) = exact_check(state, &a, threads);
        row.exact_value = Some(v);
        row.chosen_value = Some(chosen);
        row.check_seconds = Some(t1.elapsed().as_secs_f64());
    }
    row
}

/// The exact value of `state` and of the best turn of `a` (for the player
/// to move), by the exact solver with `game solve`'s options; one table,
/// so the second search reuses the first.
fn exact_check(state: &GameState, a: &Analysis, threads: u32) -> (i32, i32) {
    let never = AtomicBool::new(false);
    let opts = solve_options(state, threads);
    // With the largest cached database whole (the analysis may have had
    // less of it, `--endgame-stones`): the values are the same, the check
    // far quicker.
    let full = bench_cache()
        .load(
            state.rules(),
            state.pits_per_side(),
            u64::MAX,
            Reading::Mapped,
        )
        .expect("cache readable");
    let mut solver = Solver::builder()
        .options(opts)
        .endgame(full.as_ref())
        .build(state.rules(), state.pits_per_side())
        .expect("solver within the cap")
        .expect("never stopped");
    let root = solver.solve(state, &never);
    assert!(root.exact, "an unbounded search is exact");
    let after = a.turns[0].after;
    // The value after the turn from its mover's view, then from ours.
    let v = if after.is_over() {
        after.mover_minus_opponent()
    } else {
        let r = solver.solve(&after, &never);
        assert!(r.exact, "an unbounded search is exact");
        r.value
    };
    let chosen = if after.mover() == state.mover() {
        v
    } else {
        -v
    };
    assert!(chosen <= root.value, "no turn is better than the position");
    if a.turns[0].exact {
        assert_eq!(a.turns[0].value, chosen, "a turn called exact is exact");
    }
    (root.value, chosen)
}

/// Part 3: avalanche's start, by `game analyze` (the time to the exact
/// value, and to every turn proved) and by `game solve`.
struct Start {
    value: i32,
    to_exact: Option<f64>,
    all_proved: Option<f64>,
    solve_seconds: f64,
}

fn avalanche_start(threads: u32, cached: bool) -> Start {
    eprintln!("avalanche start: game analyze until exact, then game solve");
    let state = GameState::start(6, 4, Preset::Avalanche.rules()).expect("start");
    let never = AtomicBool::new(false);
    let first_exact: Mutex<Option<Duration>> = Mutex::new(None);
    let t0 = Instant::now();
    let db = cached.then(|| cached_db(&state)).flatten();
    let report = |a: &Analysis| {
        let mut f = first_exact.lock().unwrap();
        if f.is_none() && a.exact() {
            *f = Some(t0.elapsed());
        }
    };
    let a = analyze(
        &state,
        &analyze_options(&state, threads),
        db.as_ref(),
        Budget::Seconds(120.0),
        &never,
        Some(&report),
    )
    .expect("analysis of the start");
    let all = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let r = Solver::builder()
        .options(solve_options(&state, threads))
        .solve(&state)
        .expect("solve");
    let solve_seconds = t1.elapsed().as_secs_f64();
    assert!(r.exact);
    if a.exact() {
        assert_eq!(a.value(), r.value, "the analysis and game solve agree");
    }
    let to_exact = first_exact.lock().unwrap().map(|d| d.as_secs_f64());
    Start {
        value: r.value,
        to_exact: to_exact.or(a.exact().then_some(all)),
        all_proved: (a.proved() == a.turns.len()).then_some(all),
        solve_seconds,
    }
}

/// The rows of one mode and class, for one line of a table.
fn class_rows<'a>(rows: &'a [Row], mode: &str, class: &str) -> Vec<&'a Row> {
    rows.iter()
        .filter(|r| r.mode == mode && r.class == class)
        .collect()
}

fn print_tables(rows: &[Row], start: Option<&Start>, budget: Budget) {
    let analysis = match budget {
        Budget::Nodes(n) => format!("analysis of {n} picks on one thread"),
        Budget::Seconds(s) => format!("{s} s analysis"),
    };
    println!("Positions with at most 30 stones in the pits, {analysis}:\n");
    println!(
        "| mode | positions | every turn proved | best turn proved | best turn is a best turn | called proved best wrongly | median time | worst time |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (mode, _) in MODES {
        let of = class_rows(rows, mode, "small");
        let n = of.len();
        if n == 0 {
            continue;
        }
        let all = of.iter().filter(|r| r.all_proved).count();
        let exact = of.iter().filter(|r| r.exact).count();
        let agree = of
            .iter()
            .filter(|r| r.chosen_value == r.exact_value)
            .count();
        let wrongly = of
            .iter()
            .filter(|r| r.exact && r.chosen_value != r.exact_value)
            .count();
        let mut t: Vec<f64> = of.iter().map(|r| r.seconds).collect();
        t.sort_by(f64::total_cmp);
        println!(
            "| {mode} | {n} | {all} ({:.0}%) | {exact} ({:.0}%) | {agree} ({:.0}%) | {wrongly} | {:.2} s | {:.2} s |",
            pct(all, n),
            pct(exact, n),
            pct(agree, n),
            t[n / 2],
            t[n - 1]
        );
    }
    println!(
        "\nPositions with 31 to 44 stones in the pits (and apart, 37 to 44: the hardest), and with 45 to 48 (the early game: the books' and just past them), {analysis} against the exact solver:\n"
    );
    println!(
        "| mode | stones | positions | best turn is a best turn | proved best | called proved best wrongly | estimate off by (mean / worst) | stones lost when not (worst) | worst time | exact check (median / worst) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let classes = [("mid", "31–44"), ("hard", "37–44"), ("early", "45–48")];
    for ((mode, _), (class, stones)) in MODES.into_iter().flat_map(|m| classes.map(|c| (m, c))) {
        let of = class_rows(rows, mode, class);
        let n = of.len();
        if n == 0 {
            continue;
        }
        let agree = of
            .iter()
            .filter(|r| r.chosen_value == r.exact_value)
            .count();
        let exact = of.iter().filter(|r| r.exact).count();
        // Proved best, yet not a best turn by the exact check: must be none.
        let wrongly = of
            .iter()
            .filter(|r| r.exact && r.chosen_value != r.exact_value)
            .count();
        let off: Vec<i32> = of
            .iter()
            .map(|r| (r.value - r.exact_value.unwrap()).abs())
            .collect();
        let lost = of
            .iter()
            .map(|r| r.exact_value.unwrap() - r.chosen_value.unwrap())
            .max()
            .unwrap_or(0);
        let worst = of.iter().map(|r| r.seconds).fold(0.0, f64::max);
        let mut check: Vec<f64> = of.iter().map(|r| r.check_seconds.unwrap()).collect();
        check.sort_by(f64::total_cmp);
        println!(
            "| {mode} | {stones} | {n} | {agree} ({:.0}%) | {exact} ({:.0}%) | {wrongly} | {:.1} / {} | {lost} | {worst:.2} s | {:.1} s / {:.1} s |",
            pct(agree, n),
            pct(exact, n),
            off.iter().sum::<i32>() as f64 / n as f64,
            off.iter().max().unwrap(),
            check[n / 2],
            check[n - 1]
        );
    }
    let Some(start) = start else {
        return;
    };
    let secs = |s: Option<f64>| s.map_or("not within 120 s".into(), |s| format!("{s:.1} s"));
    println!(
        "\nAvalanche 6x4 from the start (value {:+}):\n",
        start.value
    );
    println!("| | time |");
    println!("|---|---:|");
    println!(
        "| `game analyze`: the value proved | {} |",
        secs(start.to_exact)
    );
    println!(
        "| `game analyze`: every turn proved | {} |",
        secs(start.all_proved)
    );
    println!("| `game solve` | {:.1} s |", start.solve_seconds);
}

fn pct(k: usize, n: usize) -> f64 {
    100.0 * k as f64 / n.max(1) as f64
}

type Key = (String, String, usize);

/// The results of an earlier run (lines that do not read, such as one cut
/// short by a kill, are measured again).
fn read_state(path: &PathBuf) -> HashMap<Key, Row> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Row>(l).ok())
        .map(|r| ((r.mode.clone(), r.class.clone(), r.index), r))
        .collect()
}

/// Append one result as one line, written whole and flushed.
fn append(path: &PathBuf, row: &Row) {
    let line = serde_json::to_string(row).expect("json") + "\n";
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("the state file opens");
    f.write_all(line.as_bytes())
        .expect("the state file takes a line");
}
