//! `game analyze --follow`: the companion of a game played elsewhere (a
//! phone, a real board). Before each of the player's picks it shows the
//! analysis; the player types what they tapped and then what the opponent
//! tapped, or the board as they see it, and it keeps the position, free
//! turns included.

use super::background::{Builder, Progress};
use super::kept::Recorder;
use crate::errors::CliError;
use mancala_sweep::format::game::{game_analysis_text, picks_text};
use mancala_sweep::format::record::Players;
use mancala_sweep::game::{analyze, Analysis, Budget, EndgameDb, GameState, PickOutcome, Side};
use mancala_sweep::game::{GameError, SolveOptions};
use mancala_sweep::rules::Scope;
use mancala_sweep::Board;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

/// What the loop needs beside the streams.
pub struct Follow<'a> {
    /// The solver's options (one solver a analysis, as `game analyze`).
    pub opts: &'a SolveOptions,
    /// The endgame database of `--endgame`, if any.
    pub db: Option<&'a EndgameDb>,
    /// The budget of each analysis.
    pub budget: Budget,
    /// Turns listed each time.
    pub top: usize,
    /// The progress line while an analysis runs.
    pub report: &'a (dyn Fn(&Analysis) + Sync),
    /// Called when an analysis ends (the progress line is cleared).
    pub done: &'a dyn Fn(),
    /// The numbers behind the words (`--verbose`).
    pub verbose: bool,
    /// Who moves first from the board given.
    pub first: Side,
}

/// The player: the bottom row of the board as given.
const YOU: Side = Side::First;

/// What one line asked for.
enum Line {
    /// Go on with the game.
    Next,
    /// Analyze the same position again, five times as long.
    Longer,
    /// Leave.
    Quit,
}

/// How much longer `longer` thinks than the budget before.
const LONGER: f64 = 5.0;

/// Run the companion from `start` until the game ends, the input ends or
/// the player quits.
pub fn follow_loop(
    f: &Follow<'_>,
    start: GameState,
    resumed: Option<Recorder>,
    mut builder: Option<Builder>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let n = start.pits_per_side();
    // The board is given as the player sees it; with the opponent first,
    // the same position with them to move. A resumed game is where its
    // turns left it.
    let mut state = if f.first == YOU || resumed.is_some() {
        start
    } else {
        GameState::new(start.board_from(YOU.other()), YOU.other(), start.rules())?
    };
    let mut rec = match resumed {
        Some(rec) => {
            if let Some(path) = rec.path() {
                writeln!(out, "Going on with the game kept in {}.", path.display())
                    .map_err(CliError::Terminal)?;
            }
            rec
        }
        None => Recorder::new(&state, players(), "follow"),
    };
    let mut budget = f.budget;
    // The position before each pick or typed board, for `undo`, with what
    // `undo` then takes back.
    let mut history: Vec<(GameState, String)> = Vec::new();
    // The database built in the background, once there.
    let mut built: Option<EndgameDb> = None;
    writeln!(
        out,
        "You play the bottom row (pits 1 to {n}); the opponent the top row ({} to {}), as you see them.\n\
         Type what was tapped (several pits on a line are played one by one), `best` for the best turn, \
         `longer` to think five times as long, `board` to type the board you see, `undo` or `quit`.",
        n + 1,
        2 * n
    )
    .map_err(CliError::Terminal)?;
    loop {
        writeln!(out, "\n{}", state.board_from(YOU)).map_err(CliError::Terminal)?;
        if state.is_over() {
            return game_over(&state, &rec, out);
        }
        let mine = state.mover() == YOU;
        let mut best: Vec<u32> = Vec::new();
        if mine {
            let building = background_news(&mut builder, &mut built, out)?;
            let db = built.as_ref().or(f.db);
            let paused = builder.as_ref().map(Builder::pause);
            best = show_analysis(f, &state, db, budget, &mut rec, out)?;
            drop(paused);
            if let Some(line) = building {
                writeln!(out, "{line}").map_err(CliError::Terminal)?;
            }
            write!(out, "Your picks (1 to {n}, or best): ").map_err(CliError::Terminal)?;
        } else {
            write!(
                out,
                "Their picks ({} to {}, as you see them), or `board` and the board they left: ",
                n + 1,
                2 * n
            )
            .map_err(CliError::Terminal)?;
        }
        out.flush().map_err(CliError::Terminal)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(CliError::Terminal)? == 0 {
            writeln!(out).map_err(CliError::Terminal)?;
            return Ok(());
        }
        let before = state;
        let line = one_line(&line, &best, &mut state, &mut history, &mut rec, input, out)?;
        rec.save();
        match line {
            Line::Next if state != before => budget = f.budget,
            Line::Next => {}
            Line::Longer => budget = longer(budget),
            Line::Quit => return Ok(()),
        }
    }
}

/// The analysis before the player's pick at `state`, as `game analyze`
/// prints it, with `db` the database at hand, recorded in `rec` as far as
/// it proves; the best turn's pits, for `best`. A step of its own: the
/// loop around it reads and plays the lines.
fn show_analysis(
    f: &Follow<'_>,
    state: &GameState,
    db: Option<&EndgameDb>,
    budget: Budget,
    rec: &mut Recorder,
    out: &mut dyn Write,
) -> Result<Vec<u32>, CliError> {
    // Never stopped by Ctrl-C here: the first one leaves the game.
    let never = AtomicBool::new(false);
    let a = analyze(state, f.opts, db, budget, &never, Some(f.report))?;
    (f.done)();
    let exact = a.turns.iter().filter(|t| t.exact);
    rec.proved(
        state,
        a.exact().then(|| a.value()),
        exact.map(|t| (t.after, t.value)).collect(),
    );
    let best = a.turns[0]
        .picks
        .iter()
        .map(|p| u32::from(p.number()))
        .collect();
    let threads = f.opts.threads;
    write!(
        out,
        "{}",
        game_analysis_text(state, &a, threads, f.top, f.verbose)
    )
    .map_err(CliError::Terminal)?;
    if !a.exact() {
        writeln!(out, "Type `longer` to think five times as long.").map_err(CliError::Terminal)?;
    }
    Ok(best)
}

/// The end of a followed game: who won, and where the game is kept.
fn game_over(state: &GameState, rec: &Recorder, out: &mut dyn Write) -> Result<(), CliError> {
    let (you, them) = (state.store(YOU), state.store(YOU.other()));
    let verdict = match you.cmp(&them) {
        std::cmp::Ordering::Greater => "you win",
        std::cmp::Ordering::Less => "the opponent wins",
        std::cmp::Ordering::Equal => "a draw",
    };
    writeln!(out, "Game over: {verdict}, {you} to {them}.").map_err(CliError::Terminal)?;
    if let Some(path) = rec.path().filter(|p| p.exists()) {
        writeln!(
            out,
            "The game is kept in {}: `mancala-sweep game review last` reviews it.",
            path.display()
        )
        .map_err(CliError::Terminal)?;
    }
    Ok(())
}

/// What the background build has come to since the last analysis: each
/// database once built (said once, and kept in `built`), or how far it is,
/// for the line after the analysis.
fn background_news(
    builder: &mut Option<Builder>,
    built: &mut Option<EndgameDb>,
    out: &mut dyn Write,
) -> Result<Option<String>, CliError> {
    let Some(b) = builder.as_mut() else {
        return Ok(None);
    };
    let news = match b.progress() {
        Progress::Building {
            stones,
            share,
            left,
        } => {
            return Ok(Some(building_line(
                stones,
                share,
                left,
                "Once it is there, more answers are proved.",
            )))
        }
        Progress::Ready(db) => {
            let stones = db.stones();
            *built = Some(db);
            writeln!(
                out,
                "The {stones}-stone endgame database is built: from here more answers are proved."
            )
            .map_err(CliError::Terminal)?;
            // A larger one may follow.
            return background_news(builder, built, out);
        }
        Progress::Failed(e) => format!(
            "The endgame database could not be built ({}); going on without it.",
            reason(&e)
        ),
        Progress::Over => String::new(),
    };
    *builder = None;
    if !news.is_empty() {
        writeln!(out, "{news}").map_err(CliError::Terminal)?;
    }
    Ok(None)
}

/// The line that says how far the background build is, in a player's
/// words: the share done, a forecast, and `gives`: what it gives.
pub(super) fn building_line(stones: u32, share: u64, left: Option<f64>, gives: &str) -> String {
    let left = left.map_or(String::new(), |s| {
        format!(", about {} left", super::cache::duration(s))
    });
    format!(
        "(Building the {stones}-stone endgame database in the background: {share}% done{left}. {gives})"
    )
}

/// Act on one line of input at `state`.
fn one_line(
    line: &str,
    best: &[u32],
    state: &mut GameState,
    history: &mut Vec<(GameState, String)>,
    rec: &mut Recorder,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Line, CliError> {
    let words: Vec<String> = line.split_whitespace().map(str::to_lowercase).collect();
    let mine = state.mover() == YOU;
    // A board pasted alone (it has the row marks `/`) reads as `board` and
    // it: what a phone player copies instead of an avalanche of picks.
    let bare_board = line.contains('/') && !matches!(words[0].as_str(), "b" | "board");
    let first = if bare_board {
        Some("board")
    } else {
        words.first().map(String::as_str)
    };
    match first {
        None => return Ok(Line::Next),
        Some("q" | "quit" | "exit") => return Ok(Line::Quit),
        Some("u" | "undo") => {
            match history.pop() {
                Some((s, what)) => {
                    *state = s;
                    // Back before a typed board: the game kept is another.
                    if !rec.back_to(&s) {
                        *rec = Recorder::new(&s, players(), "follow");
                    }
                    say(out, format!("Taken back: {what}."))?;
                }
                None => say(out, "Nothing to take back.".into())?,
            }
            return Ok(Line::Next);
        }
        Some("b" | "board") => {
            // The board may follow the word on the same line.
            let text = match bare_board {
                true => line.to_string(),
                false => line.trim_start()[words[0].len()..].to_string(),
            };
            return typed_board(text, state, history, rec, input, out);
        }
        Some("longer" | "more") if mine => return Ok(Line::Longer),
        Some("longer" | "more") => {
            say(
                out,
                "`longer` is for your own turn; type the pits the opponent tapped.".into(),
            )?;
            return Ok(Line::Next);
        }
        Some("best") if mine => {
            return play_words(
                &best.iter().map(u32::to_string).collect::<Vec<_>>(),
                state,
                history,
                rec,
                out,
            );
        }
        Some("best") => {
            say(
                out,
                "`best` is for your own turn; type the pits the opponent tapped.".into(),
            )?;
            return Ok(Line::Next);
        }
        _ => {}
    }
    play_words(&words, state, history, rec, out)
}

/// `board` at `state`: the board `text` (read from `input` when the line
/// had none) replaces the position, and the game kept starts again from
/// it. A step of its own, as it reads a line more and checks the board.
fn typed_board(
    mut text: String,
    state: &mut GameState,
    history: &mut Vec<(GameState, String)>,
    rec: &mut Recorder,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Line, CliError> {
    let (rules, n) = (state.rules(), state.pits_per_side());
    if text.trim().is_empty() {
        write!(
            out,
            "The board as you see it, you to move (TOP / THEIR_STORE YOUR_STORE / BOTTOM): "
        )
        .map_err(CliError::Terminal)?;
        out.flush().map_err(CliError::Terminal)?;
        input.read_line(&mut text).map_err(CliError::Terminal)?;
    }
    let read = text
        .trim()
        .parse::<Board>()
        .map_err(GameError::from)
        .and_then(|b| {
            if b.pits_per_side() != n {
                return Err(GameError::IllegalTurn(format!(
                    "a board of {} pits a side: this game has {n}",
                    b.pits_per_side()
                )));
            }
            GameState::new(b, YOU, rules)
        });
    match read {
        Ok(s) => {
            let what = "the board you typed; the game is as it was before it";
            history.push((*state, what.to_string()));
            *state = s;
            // A typed board starts another game to keep.
            *rec = Recorder::new(&s, players(), "follow");
            say(
                out,
                "The game goes on from the board you typed, you to move.".into(),
            )?;
        }
        Err(e) => say(out, format!("{e}; the board is as it was."))?,
    }
    Ok(Line::Next)
}

/// Play the pits in `words` one by one for the side to move (the
/// opponent's as the player sees them), stopping at the first that is not
/// allowed and when the turn passes.
fn play_words(
    words: &[String],
    state: &mut GameState,
    history: &mut Vec<(GameState, String)>,
    rec: &mut Recorder,
    out: &mut dyn Write,
) -> Result<Line, CliError> {
    let n = state.pits_per_side();
    let any = state.rules().scope == Scope::Any;
    let mover = state.mover();
    let mut played = Vec::new();
    // Why the line stopped, said after what it played.
    let mut refused = None;
    for (i, word) in words.iter().enumerate() {
        let left = &words[i + 1..];
        let Ok(seen) = word.parse::<u32>() else {
            refused = Some(if WORDS.contains(&word.as_str()) {
                format!(
                    "{word:?} goes at the start of a line of its own, not after pits.{}",
                    dropped(left)
                )
            } else {
                format!(
                    "{word:?} is not a pit number or a word (best, longer, board, undo, quit).{}",
                    dropped(left)
                )
            });
            break;
        };
        // The opponent's pits as the player sees them are n+1..2n; as the
        // opponent's own, 1..n (and the other way under scope any).
        let k = if mover == YOU {
            seen
        } else if (n as u32 + 1..=2 * n as u32).contains(&seen) {
            seen - n as u32
        } else if any && (1..=n as u32).contains(&seen) {
            seen + n as u32
        } else {
            refused = Some(format!(
                "Pit {seen}: not one of the opponent's pits: they are {} to {} as you see them.{}",
                n + 1,
                2 * n,
                dropped(left)
            ));
            break;
        };
        let before = *state;
        match state.play_pick(k) {
            Ok(outcome) => {
                let who = if mover == YOU { "your" } else { "their" };
                history.push((before, format!("{who} pick of pit {seen}")));
                if let Some(p) = mancala_sweep::Pit::new(k, n) {
                    rec.pick(&before, p);
                }
                played.push(seen);
                if outcome != PickOutcome::FreeTurn && !left.is_empty() {
                    refused = Some(format!(
                        "The turn is over after pit {seen}.{}",
                        dropped(left)
                    ));
                    break;
                }
            }
            Err(e) => {
                refused = Some(format!("Pit {seen}: {}.{}", reason(&e), dropped(left)));
                break;
            }
        }
    }
    if !played.is_empty() {
        let who = if mover == YOU { "You" } else { "They" };
        let nums: Vec<mancala_sweep::Pit> = played
            .iter()
            .filter_map(|&p| mancala_sweep::Pit::new(p, n))
            .collect();
        let still = state.mover() == mover && !state.is_over();
        say(
            out,
            format!(
                "{who} played {}{}",
                picks_text(&nums),
                if still {
                    ": a free turn, the same player picks again."
                } else {
                    "."
                }
            ),
        )?;
    }
    if let Some(why) = refused {
        say(out, why)?;
    }
    Ok(Line::Next)
}

/// A line of the game's words to the player's terminal.
fn say(out: &mut dyn Write, text: String) -> Result<(), CliError> {
    writeln!(out, "{text}").map_err(CliError::Terminal)
}

/// Who plays each side of a followed game: the player moves the bottom
/// row, [`YOU`].
fn players() -> Players {
    Players {
        first: "you".into(),
        second: "opponent".into(),
    }
}

/// `budget` five times over.
fn longer(budget: Budget) -> Budget {
    match budget {
        Budget::Seconds(s) => Budget::Seconds(s * LONGER),
        Budget::Nodes(n) => Budget::Nodes(n.saturating_mul(LONGER as u64)),
    }
}

/// The words `--follow` knows; each starts a line of its own.
const WORDS: [&str; 10] = [
    "best", "b", "board", "u", "undo", "q", "quit", "exit", "longer", "more",
];

/// The note that the rest of a line, after a word that stopped it, is not
/// played: it names those words, so that what was dropped is plain.
fn dropped(rest: &[String]) -> String {
    if rest.is_empty() {
        String::new()
    } else {
        format!(" The rest of the line is not played: {}.", rest.join(" "))
    }
}

/// An illegal pick's reason without the pit it names again.
fn reason(e: &GameError) -> String {
    match e {
        GameError::IllegalPick { reason, .. } => reason.to_string(),
        e => e.to_string(),
    }
}
