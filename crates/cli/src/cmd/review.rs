//! `game review`: every turn of a game graded by the stones it gave away,
//! proved by the exact solver (the library's `game::review`), from a kept
//! game, a match's game, or turns typed on the command line.

use super::cache::{cached_endgame, Reading};
use super::game::{solver_setup, start};
use super::kept;
use super::Outcome;
use crate::args::GameReviewArgs;
use crate::errors::CliError;
use crate::progress::Counter;
use crate::signal::INTERRUPTED;
use mancala_sweep::format::record::{GameRecordJson, Players, Said};
use mancala_sweep::format::review::{review_text, turn_line, GameReviewJson};
use mancala_sweep::format::text;
use mancala_sweep::format::{
    parse_versioned, GameMatchJson, GAME_MATCH_FORMAT, GAME_RECORD_FORMAT,
};
use mancala_sweep::game::review::{review as run_review, Review, ReviewOptions};
use mancala_sweep::game::{solve, Budget, GameState, Side};
use mancala_sweep::rules::Pit;
use std::path::Path;
use std::sync::Mutex;

/// The game to review: its start, its turns, who played.
struct Game {
    start: GameState,
    turns: Vec<Vec<Pit>>,
    players: Players,
    /// Where it came from, for error lines (`GAME FILE`, `--turns`).
    what: String,
    /// What the companion proved at each turn while the game was played.
    said: Vec<Option<Said>>,
}

/// Run `game review`.
pub fn review(args: &GameReviewArgs) -> Outcome {
    let game = game_of(args)?;
    let stones = game.start.stones_in_pits() + game.start.mover_store() as u32;
    let stones = stones + game.start.opponent_store() as u32;
    let table = args.table.unwrap_or_else(|| solve::table_for(stones));
    let (mut opts, db) = solver_setup(
        table,
        &args.solver,
        &game.start,
        Reading::Mapped,
        args.quiet.quiet,
    )?;
    // The table holds every position of the game: at most the start's
    // stones in the pits.
    opts = opts.fit_to(
        game.start.rules(),
        game.start.pits_per_side(),
        game.start.stones_in_pits(),
    );
    opts.book = !args.no_book;
    // Refuse a bad game before reading or building any database.
    Review::new(&game.start, &game.turns, false)
        .map_err(|e| CliError::Input(format!("{}: {e}", game.what)))?;
    let db = match db {
        None if !args.no_cache => {
            let room = opts.memory_cap.saturating_sub(opts.table_bytes);
            cached_endgame(
                &game.start,
                room,
                opts.threads as usize,
                true,
                Reading::Mapped,
                args.quiet.quiet,
            )?
            .map(|(db, _)| db)
        }
        db => db,
    };
    let budget = match args.nodes {
        Some(n) => Budget::Nodes(n),
        None => Budget::Seconds(args.seconds),
    };
    let all = game.turns.len() as u64;
    let bar = Counter::new(
        all,
        "turns",
        "reviewing [{bar:30}] {pos}/{len} turns graded {msg} {elapsed}",
        args.quiet.quiet,
    );
    // The turns said so far on stderr, so that each is said once, as it
    // is graded (the last turns first).
    let said = Mutex::new(vec![false; game.turns.len()]);
    let report = |r: &Review| {
        let mut said = said.lock().expect("not poisoned");
        let mut done = 0;
        for n in 1..=r.picks.len() {
            if r.turn(n).is_none() {
                continue;
            }
            done += 1;
            if !said[n - 1] {
                said[n - 1] = true;
                bar.println(&turn_line(r, n, &game.players));
            }
        }
        bar.set(done, format!("({:.1} s)", r.elapsed.as_secs_f64()));
    };
    let r = run_review(
        &game.start,
        &game.turns,
        &ReviewOptions {
            solve: opts,
            budget,
        },
        db.as_ref(),
        &INTERRUPTED,
        Some(&report),
    )?;
    bar.finish();
    let checked = check_said(&r, &game.said);
    let out = if args.json.json {
        serde_json::to_string(&GameReviewJson::new(&r, &game.players)).expect("json") + "\n"
    } else {
        text::header(game.start.rules(), &game.start.board())
            + "\n"
            + &review_text(&r, &game.players)
            + &checked
    };
    if r.cancelled {
        let (done, all) = r.progress();
        return Err(CliError::Partial {
            stdout: out,
            error: Box::new(CliError::Stopped(format!(
                "the review was stopped after {:.1} s with {done} of {all} turns reviewed; it shows those",
                r.elapsed.as_secs_f64()
            ))),
        });
    }
    Ok(out)
}

/// The game the flags name.
fn game_of(args: &GameReviewArgs) -> Result<Game, CliError> {
    let Some(game) = &args.game else {
        let text = args.turns.as_deref().unwrap_or("");
        let start = start(&args.rules)?;
        return Ok(Game {
            turns: typed_turns(text, start.pits_per_side())?,
            start,
            players: Players {
                first: "first".into(),
                second: "second".into(),
            },
            what: format!("--turns {text:?}"),
            said: vec![],
        });
    };
    let given = [
        ("--board", args.rules.board.is_some()),
        ("--stones", args.rules.stones.is_some()),
        ("--pits", args.rules.pits.is_some()),
        ("--rules", args.rules.set.rules.is_some()),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
        return Err(CliError::Input(format!(
            "{flag}: the game {game} holds its rules and start; {flag} goes with --turns only"
        )));
    }
    let (path, what) = if game == "last" {
        let Some((path, _)) = kept::list(|_| true).pop() else {
            let dir =
                kept::games_dir().map_or("(none: no $HOME)".into(), |d| d.display().to_string());
            return Err(CliError::Input(format!(
                "GAME last: no game is kept in {dir}: play one (game play) or follow one (game analyze --follow), or give a file"
            )));
        };
        let what = format!("the last kept game, {}", path.display());
        (path, what)
    } else {
        (Path::new(game).to_path_buf(), format!("GAME {game}"))
    };
    let text =
        std::fs::read_to_string(&path).map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    let record = if text.contains(GAME_MATCH_FORMAT) && !text.contains(GAME_RECORD_FORMAT) {
        match_game(&text, args.number, &what)?
    } else {
        if let Some(n) = args.number {
            return Err(CliError::Input(format!(
                "--number {n}: {what} is one game, not a match; --number goes with a `game match --out` file"
            )));
        }
        kept::read(&path, "GAME")?
    };
    let start = record
        .start_state()
        .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    let turns = record
        .picks()
        .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    Ok(Game {
        start,
        turns,
        players: record.players.clone(),
        what,
        said: record.turns.iter().map(|t| t.said).collect(),
    })
}

/// Game `number` of the match in `text` as a kept game.
fn match_game(text: &str, number: Option<u32>, what: &str) -> Result<GameRecordJson, CliError> {
    let doc: GameMatchJson = parse_versioned(text, GAME_MATCH_FORMAT, "a match")
        .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    let played = doc.games.len();
    let range = if played == 0 {
        "it holds no game yet".to_string()
    } else {
        format!(
            "its games are numbered 0 to {}",
            doc.games_planned.saturating_sub(1)
        )
    };
    let Some(number) = number else {
        return Err(CliError::Input(format!(
            "{what} is a match of {played} games: give --number N to review game N ({range})"
        )));
    };
    let Some(g) = doc.games.iter().find(|g| g.game == number) else {
        return Err(CliError::Input(format!(
            "--number {number}: {what} holds no game {number} ({range}, {played} played)"
        )));
    };
    if g.moves.is_empty() {
        return Err(CliError::Input(format!(
            "--number {number}: {what} was written before matches kept their turns; play the match again (same seed, the same games) to review it"
        )));
    }
    let board = doc
        .start
        .board
        .parse()
        .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    let start = GameState::new(board, Side::First, doc.rules)
        .map_err(|e| CliError::Input(format!("{what}: {e}")))?;
    let (a, b) = (doc.a.clone(), doc.b.clone());
    let players = if g.a_first {
        Players {
            first: a,
            second: b,
        }
    } else {
        Players {
            first: b,
            second: a,
        }
    };
    let mut record = GameRecordJson::new(&start, players, "match");
    let mut s = start;
    for (k, m) in g.moves.iter().enumerate() {
        let picks: Vec<Pit> = m
            .iter()
            .filter_map(|&p| Pit::new(u32::from(p), start.pits_per_side()))
            .collect();
        let before = s;
        s.play_turn(&picks)
            .map_err(|e| CliError::Input(format!("{what}: game {number}, turn {}: {e}", k + 1)))?;
        record.push(&before, &picks, &s, None);
    }
    Ok(record)
}

/// `--turns`: turns split by commas, picks by spaces.
fn typed_turns(text: &str, n: usize) -> Result<Vec<Vec<Pit>>, CliError> {
    let bad = |why: String| CliError::Input(format!("--turns {text:?}: {why}"));
    let mut turns = Vec::new();
    for (k, part) in text.split(',').enumerate() {
        let mut picks = Vec::new();
        for word in part.split_whitespace() {
            let p = word
                .parse::<u32>()
                .ok()
                .and_then(|x| Pit::new(x, n))
                .ok_or_else(|| {
                    bad(format!(
                        "turn {} has {word:?}: a pick is a pit number, 1 to {}",
                        k + 1,
                        2 * n
                    ))
                })?;
            picks.push(p);
        }
        if picks.is_empty() {
            return Err(bad(format!(
                "turn {} is empty: split turns by commas and the picks of a turn by spaces, e.g. \"3, 1 4, 6\"",
                k + 1
            )));
        }
        turns.push(picks);
    }
    Ok(turns)
}

/// The review against what `game analyze` proved while the game was
/// played (`--follow` keeps it): a line saying how many values agree, or
/// naming each that does not (which would be a bug of one of the two);
/// empty when the game kept none.
fn check_said(r: &Review, said: &[Option<Said>]) -> String {
    let (mut agree, mut differ) = (0, Vec::new());
    for (k, s) in said.iter().enumerate() {
        let (Some(s), Some(t)) = (s, r.turn(k + 1)) else {
            continue;
        };
        for (what, then, now) in [("best", s.best, t.best), ("played", s.played, t.played)] {
            let Some(then) = then else { continue };
            if !now.is_exact() {
                continue;
            }
            if then == now.low {
                agree += 1;
            } else {
                differ.push(format!(
                    "turn {}: `game analyze` proved the {what} turn {then:+}, the review {:+}",
                    k + 1,
                    now.low
                ));
            }
        }
    }
    match (agree, differ.is_empty()) {
        (0, true) => String::new(),
        (_, true) => format!(
            "The {agree} values `game analyze` proved during the game agree with the review.\n"
        ),
        _ => format!("DISAGREEMENT (a bug): {}\n", differ.join("; ")),
    }
}
