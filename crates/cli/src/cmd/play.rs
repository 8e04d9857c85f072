//! `game play`: a game against the computer in the terminal.

use super::background::{Builder, Progress};
use super::cache::{cached_endgame, read_endgame, Reading};
use super::follow::building_line;
use super::game::{agent_of, analysis_status, start};
use super::kept::Recorder;
use super::Outcome;
use crate::args::{FirstArg, GamePlayArgs};
use crate::errors::plain_rules;
use crate::errors::{rules_label, CliError};
use crate::progress::thinking;
use crate::signal::exit_on_first_ctrl_c;
use mancala_sweep::api::ANALYZE_TABLE;
use mancala_sweep::format::game::{picks_count, picks_text};
use mancala_sweep::format::record::Players;
use mancala_sweep::format::text::{trace_text, trace_text_seen};
use mancala_sweep::format::words as plain;
use mancala_sweep::game::agent::BUDGET_DEPTH;
use mancala_sweep::game::WatchReading;
use mancala_sweep::game::{
    AgentSpec, Analysis, Budget, EndgameDb, GameError, GameSession, Level, PickOutcome, Played,
    Side, SolveOptions, SolveWatch,
};
use mancala_sweep::rules::Pit;
use mancala_sweep::sweep::default_max_memory;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Run `game play` on the terminal.
pub fn play(args: &GamePlayArgs) -> Outcome {
    exit_on_first_ctrl_c();
    let state = start(&args.rules)?;
    let spec = match &args.agent {
        Some(a) => agent_of(a)?,
        None => args.level.parse::<Level>().map_err(CliError::from)?.agent(),
    };
    let person = match args.first {
        FirstArg::You => Side::First,
        FirstArg::Them => Side::Second,
    };
    let db = match read_endgame(
        args.endgame.as_deref(),
        &state,
        default_max_memory(),
        Reading::Mapped,
        false,
    )? {
        // The database `game analyze` keeps, for the `perfect` computer
        // and the hints, when it is there: a game does not start with a
        // build of seconds.
        None if !args.no_cache => {
            cached_endgame(
                &state,
                default_max_memory(),
                1,
                false,
                Reading::Mapped,
                false,
            )?.map(|(db, _)| {
                eprintln!(
                    "the cached endgame database: every position with at most {} stones in its pits, for the computer and the hints (--no-cache leaves it)",
                    db.stones()
                );
                db
            })
        }
        db => db,
    };
    let label = rules_label(&args.rules.set, state.rules());
    let mut session = GameSession::with_endgame(state, person, spec, args.seed, db)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let computer = args.agent.clone().unwrap_or_else(|| args.level.clone());
    let players = if person == Side::First {
        Players {
            first: "you".into(),
            second: computer,
        }
    } else {
        Players {
            first: computer,
            second: "you".into(),
        }
    };
    let mut rec = Recorder::new(&state, players, "play");
    // A person at a terminal plays for minutes: the larger databases are
    // built meanwhile, for the computer and the hints (a piped game ends
    // before they would pay).
    let mut builder =
        (!args.no_cache && args.endgame.is_none() && std::io::IsTerminal::is_terminal(&stdin))
            .then(|| {
                let room = default_max_memory().saturating_sub(ANALYZE_TABLE);
                let held = session.endgame().map_or(0, EndgameDb::bytes);
                Builder::start(
                    state.rules(),
                    state.pits_per_side(),
                    state.stones_in_pits(),
                    rayon::current_num_threads(),
                    room,
                    room.saturating_sub(held),
                )
            })
            .flatten();
    // The computer in a player's words: its level, or the agent typed.
    let who = match &args.agent {
        Some(a) => format!("the computer (--agent {a})"),
        None => format!("the computer ({} level)", args.level.to_lowercase()),
    };
    play_loop(
        &mut session,
        &mut rec,
        (&label, &who),
        &mut builder,
        &mut input,
        &mut out,
    )
    .map_err(CliError::Terminal)?;
    if let Some(path) = rec.path().filter(|p| p.exists()) {
        println!(
            "The game is kept in {}: `mancala-sweep game review last` reviews it.",
            path.display()
        );
    }
    Ok(String::new())
}

fn say_pick(out: &mut dyn Write, p: &Played, person: Side, n: usize) -> std::io::Result<()> {
    let free = p.outcome == PickOutcome::FreeTurn;
    if p.by == person {
        return writeln!(out, "You: {}", trace_text(&p.trace, free));
    }
    // The computer's pit k is the person's pit n + k, and the other way.
    let seen = |pit: Pit| {
        let k = pit.number() as usize;
        let yours = if k <= n { k + n } else { k - n };
        Pit::new(yours as u32, n).expect("a pit of the board")
    };
    writeln!(
        out,
        "Computer: {}",
        trace_text_seen(&p.trace, free, &seen, "its store")
    )
}

fn show(out: &mut dyn Write, s: &GameSession) -> std::io::Result<()> {
    let st = s.state();
    writeln!(out, "{}", st.board_from(s.person()))?;
    writeln!(
        out,
        "Stores: you {}, computer {}.",
        st.store(s.person()),
        st.store(s.person().other())
    )
}

/// Act on one word of the person's line (any case: `H`, `Hint`, `QUIT`);
/// `rest` words follow it on the line.
fn one_word(
    s: &mut GameSession,
    rec: &mut Recorder,
    word: &str,
    rest: usize,
    own: &str,
    n: usize,
    out: &mut dyn Write,
) -> std::io::Result<Said> {
    match word.to_lowercase().as_str() {
        "q" | "quit" | "exit" => {
            writeln!(out, "Game left at turn {}.", s.state().turn())?;
            return Ok(Said::Quit);
        }
        "h" | "hint" => match hint_waiting(s) {
            Ok(Some(a)) => writeln!(
                out,
                "Hint: play {}: {}, {}; from {:.1} s of analysis, not the computer's level.",
                picks_text(&a.turns[0].picks),
                plain::turn_words(&a.turns[0]),
                match plain::Answer::of(&a) {
                    plain::Answer::ProvedBest => "proved best",
                    plain::Answer::BestSoFar => "the best found so far",
                },
                a.elapsed.as_secs_f64()
            )?,
            Ok(None) => writeln!(out, "No hint: it is not your turn.")?,
            Err(e) => writeln!(out, "No hint: {e}")?,
        },
        "u" | "undo" => {
            if s.undo() {
                rec.back_to(s.state());
                writeln!(out, "Taken back.")?;
                show(out, s)?;
            } else {
                writeln!(out, "Nothing to take back.")?;
            }
        }
        _ => {
            let Ok(k) = word.parse::<u32>() else {
                writeln!(
                    out,
                    "{word:?} is not a pit number ({own}) or a word (hint, undo, quit).{}",
                    dropped(rest)
                )?;
                return Ok(Said::Drop);
            };
            let before = *s.state();
            match s.pick(k) {
                Ok(p) => {
                    rec.pick(&before, p.pit);
                    rec.save();
                    say_pick(out, &p, s.person(), n)?;
                    show(out, s)?;
                    if rest > 0 && !s.persons_turn() {
                        writeln!(
                            out,
                            "{} is over: the {} after pit {k} {} not played.",
                            if s.state().is_over() {
                                "The game"
                            } else {
                                "Your turn"
                            },
                            if rest == 1 { "word" } else { "words" },
                            if rest == 1 { "is" } else { "are" }
                        )?;
                        return Ok(Said::Drop);
                    }
                }
                Err(GameError::IllegalPick { reason, .. }) => {
                    writeln!(out, "Pit {k}: {reason}.{}", dropped(rest))?;
                    return Ok(Said::Drop);
                }
                Err(e) => {
                    writeln!(out, "{e}")?;
                    return Ok(Said::Drop);
                }
            }
        }
    }
    Ok(Said::Next)
}

/// The time a hint may take in `game play`, in seconds: the budget of the
/// analysis behind it (`game analyze`'s, with its table), whatever the
/// computer's level. Within it the analysis proves every turn of small
/// positions and ranks the rest by a deep estimate.
pub const HINT_SECONDS: f64 = 2.0;

/// A hint from [`GameSession::hint_analysis`] within [`HINT_SECONDS`], with
/// a progress line while it is looked for.
fn hint_waiting(s: &mut GameSession) -> Result<Option<Analysis>, GameError> {
    let st = s.state();
    let opts = SolveOptions {
        table_bytes: ANALYZE_TABLE,
        memory_cap: default_max_memory(),
        threads: rayon::current_num_threads() as u32,
        ..SolveOptions::default()
    }
    .fit_to(st.rules(), st.pits_per_side(), st.stones_in_pits());
    let latest = Mutex::new(String::new());
    let report = |a: &Analysis| *latest.lock().expect("not poisoned") = analysis_status(a);
    let status = |t: f64| {
        format!(
            "looking for a hint: {}{t:.1} s of {HINT_SECONDS:.0} s",
            latest.lock().expect("not poisoned")
        )
    };
    let never = AtomicBool::new(false);
    thinking(false, &status, |_| {
        s.hint_analysis(&opts, Budget::Seconds(HINT_SECONDS), &never, Some(&report))
    })
}

/// The progress line of the computer's turn (`who`, as the person chose
/// it): the depth of its deepest pass so far and the picks searched, when
/// its agent `spec` searches.
fn computer_status(
    spec: AgentSpec,
    who: &str,
    watch: Option<&(Arc<SolveWatch>, WatchReading)>,
    seconds: f64,
) -> String {
    let Some((w, start)) = watch else {
        return format!("{who} is thinking: {seconds:.1} s");
    };
    let r = w.read();
    let depth = match (r.passes > start.passes, r.depth, spec) {
        (false, _, _) => String::new(),
        (true, None, _) => "searching to the end of the game | ".into(),
        (true, Some(d), AgentSpec::Mtdf(of)) => format!("depth {d} of {of} | "),
        (true, Some(d), AgentSpec::Budget(_)) => {
            format!("depth {d} of {BUDGET_DEPTH} | ")
        }
        (true, Some(d), _) => format!("depth {d} | "),
    };
    format!(
        "{who} is thinking: {depth}{} picks | {seconds:.1} s",
        picks_count(r.picks.saturating_sub(start.picks))
    )
}

/// Takes each database the background build finished for the computer
/// and the hints, and says so once; says how far it is at the first
/// prompt, so that a player knows the computer grows stronger.
fn background_news(
    s: &mut GameSession,
    builder: &mut Option<Builder>,
    told: &mut bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    while let Some(b) = builder.as_mut() {
        match b.progress() {
            Progress::Building {
                stones,
                share,
                left,
            } => {
                if !std::mem::replace(told, true) {
                    let gives = if s.agent() == Level::Perfect.agent() {
                        "The computer and the hints use it once it is there."
                    } else {
                        "The hints use it once it is there."
                    };
                    writeln!(out, "{}", building_line(stones, share, left, gives))?;
                }
                return Ok(());
            }
            Progress::Ready(db) => {
                let stones = db.stones();
                match s.set_endgame(db) {
                    Ok(()) => writeln!(
                        out,
                        "The {stones}-stone endgame database is built: the computer and the hints use it from here."
                    )?,
                    Err(e) => writeln!(out, "The {stones}-stone endgame database is left out: {e}")?,
                }
            }
            Progress::Failed(e) => {
                writeln!(
                    out,
                    "The endgame database could not be built ({e}); the game goes on without it."
                )?;
                *builder = None;
            }
            Progress::Over => *builder = None,
        }
    }
    Ok(())
}

/// The note that the words after a refused one are not played.
fn dropped(rest: usize) -> String {
    match rest {
        0 => String::new(),
        1 => " The word after it is not played.".into(),
        k => format!(" The {k} words after it are not played."),
    }
}

/// What one word of the person's line asked for.
enum Said {
    /// The game goes on with the next word.
    Next,
    /// The rest of the line is dropped (an illegal pick, a word not known,
    /// or the turn passed to the computer).
    Drop,
    /// The person left the game.
    Quit,
}

/// The game loop, on any streams (tests drive it through the binary).
/// `rules` is the rules line as the person named them, `who` the computer.
fn play_loop(
    s: &mut GameSession,
    rec: &mut Recorder,
    (rules, who): (&str, &str),
    builder: &mut Option<Builder>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let n = s.state().pits_per_side();
    let own = if s.state().rules().scope == mancala_sweep::Scope::Any {
        format!("1 to {}", 2 * n)
    } else {
        format!("1 to {n}")
    };
    writeln!(out, "{}", plain_rules(format!("Rules: {rules}")))?;
    writeln!(
        out,
        "You play the bottom row (pits {own}; your store is on the right) against {who}.\n\
         Type a pit number (or a whole turn: several on a line), `hint`, `undo` or `quit`."
    )?;
    show(out, s)?;
    let mut told = false;
    loop {
        if s.state().is_over() {
            break;
        }
        if !s.persons_turn() {
            let watch = s.computer_watch().map(|w| {
                let start = w.read();
                (w, start)
            });
            let spec = s.agent();
            let status = |t: f64| computer_status(spec, who, watch.as_ref(), t);
            let mut before = *s.state();
            let paused = builder.as_ref().map(Builder::pause);
            let turn =
                thinking(false, &status, |_| s.computer_turn()).map_err(std::io::Error::other)?;
            drop(paused);
            for p in &turn {
                rec.pick(&before, p.pit);
                before = p.after;
                say_pick(out, p, s.person(), n)?;
            }
            rec.save();
            show(out, s)?;
            continue;
        }
        background_news(s, builder, &mut told, out)?;
        write!(out, "Your pick ({own}): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        // A line is read word by word, as `puzzles play` reads it: picks
        // are played one at a time, so a whole turn (as a hint prints it)
        // can be typed at once, and the first pick that is not allowed
        // stops the line with its reason.
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let rest = words.len() - i - 1;
            match one_word(s, rec, word, rest, &own, n, out)? {
                Said::Next => {}
                Said::Drop => break,
                Said::Quit => return Ok(()),
            }
        }
    }
    let st = s.state();
    let (you, them) = (st.store(s.person()), st.store(s.person().other()));
    let verdict = match you.cmp(&them) {
        std::cmp::Ordering::Greater => "You win",
        std::cmp::Ordering::Less => "The computer wins",
        std::cmp::Ordering::Equal => "A draw",
    };
    writeln!(
        out,
        "Game over: {verdict}, {you} to {them}{}.",
        if s.helped() { " (with hints)" } else { "" }
    )
}
