//! Games of a person against the computer, as the web API speaks of them:
//! the new-game body checked, the game document, the computer's turn and
//! the game layer's refusals as API errors. Every game is a
//! [`GameSession`], the state machine that `game play` drives on the
//! terminal, so neither back-end applies a rule of its own; where the
//! sessions are kept (the server's capped, expiring table, or the static
//! site's worker) is the back-end's.

use super::{Error, Position};
use format::text::{trace_text, trace_text_seen};
use format::words::{turn_words, Answer};
use game::{
    AgentSpec, Analysis, Budget, GameError, GameSession, GameState, Level, PickOutcome, Played,
    Side,
};
use rules::{Pit, Preset};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// The `"format"` of every game document.
pub const GAME_FORMAT: &str = "mancala-sweep-web-game/1";

/// Most playouts and depths a request may ask of an agent: the agents
/// that do not watch the cancel flag must end in reasonable time.
const MAX_WEB_PLAYOUTS: u32 = 200_000;
const MAX_WEB_MINIMAX: u32 = 6;
const MAX_WEB_ALPHABETA: u32 = 10;

/// `POST /api/game/new`'s body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    #[serde(flatten)]
    position: Position,
    /// `easy`, `medium`, `hard` or `perfect` (default medium).
    level: Option<String>,
    /// An agent description instead of a level (`alphabeta:6`, ...).
    agent: Option<String>,
    /// `first` or `second`: when the person moves (default first).
    person: Option<String>,
    /// Seed of the computer's random choices (default 0).
    seed: Option<u64>,
}

/// `POST /api/game/{id}/pick`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickRequest {
    /// The pit, as the person numbers it (1 to n own, n+1 to 2n the
    /// computer's row under scope any).
    pub pit: u32,
    /// False: play the person's pick only, and answer at once; the
    /// computer's turn, when the pick passed it the turn, is then asked
    /// for with `POST /api/game/{id}/reply`, so that a page can draw the
    /// person's pick before the computer has thought. Default true: the
    /// computer answers in the same request.
    #[serde(default = "yes")]
    pub reply: bool,
}

fn yes() -> bool {
    true
}

/// Seconds a turn of the pages' `perfect` computer: the exact solver's
/// first turn on Kalah 6x4 takes over a minute on one core, more than a
/// player waits and more than `serve`'s 30 s deadline. The page states
/// 15 s a turn: the analysis may pass its budget by up to a second before
/// it stops (docs/notebook/phone-companion.md), and the page shows each
/// pick of the computer's turn in turn.
pub const PAGE_PERFECT_SECONDS: u32 = 13;

/// The seconds a turn the pages state for `perfect`: its agent's
/// [`PAGE_PERFECT_SECONDS`] with two to spare for its stop and for the
/// picks shown in turn.
pub const PAGE_PERFECT_STATED_SECONDS: u32 = PAGE_PERFECT_SECONDS + 2;

/// The most seconds a turn of `level` takes on the pages, when the level
/// bounds its turn by time (`perfect`); the others are bounded by depth
/// or by picks, which take well under a second on a phone.
pub fn page_seconds(level: Level) -> Option<u32> {
    match level {
        Level::Perfect => Some(PAGE_PERFECT_STATED_SECONDS),
        Level::Easy | Level::Medium | Level::Hard => None,
    }
}

/// The level a game gets when its request names neither a level nor an
/// agent.
pub const DEFAULT_LEVEL: Level = Level::Medium;

/// The agent behind a level on the pages (`serve` and the static site):
/// the level's own ([`Level::agent`]), but `perfect` is the analysis for at
/// most [`PAGE_PERFECT_SECONDS`] a turn (`analyze:13`), which plays the
/// exact solver's turn whenever it proves the position in that time (small
/// boards, and every board once enough stones are stored) and its best
/// estimate otherwise; the level's label on the page says so. The command
/// line's `game play --level perfect` keeps the exact solver, with its
/// progress line and Ctrl-C.
pub fn page_agent(level: Level) -> AgentSpec {
    match level {
        Level::Perfect => AgentSpec::Analyze(PAGE_PERFECT_SECONDS),
        other => other.agent(),
    }
}

/// The computer's agent for a request: a level or an agent description
/// whose cost the server can bound.
fn agent_of(req: &NewGame) -> Result<(AgentSpec, Option<Level>), Error> {
    match (&req.level, &req.agent) {
        (Some(_), Some(_)) => Err(Error::bad(
            "give level or agent, not both: a level is a named agent",
        )
        .field("agent")),
        (Some(l), None) => {
            let level = l
                .parse::<Level>()
                .map_err(|e| Error::bad(e.to_string()).field("level"))?;
            Ok((page_agent(level), Some(level)))
        }
        (None, Some(a)) => {
            let spec = a
                .parse::<AgentSpec>()
                .map_err(|e| Error::bad(e.to_string()).field("agent"))?;
            let too_much = match spec {
                AgentSpec::Minimax(d) if d > MAX_WEB_MINIMAX => Some(format!(
                    "depth {d}: the server allows minimax to {MAX_WEB_MINIMAX}"
                )),
                AgentSpec::AlphaBeta(d) if d > MAX_WEB_ALPHABETA => Some(format!(
                    "depth {d}: the server allows alphabeta to {MAX_WEB_ALPHABETA}"
                )),
                AgentSpec::Mcts(p) | AgentSpec::MonteCarlo(p) if p > MAX_WEB_PLAYOUTS => Some(
                    format!("{p} playouts: the server allows at most {MAX_WEB_PLAYOUTS}"),
                ),
                _ => None,
            };
            match too_much {
                Some(why) => Err(Error::bad(format!("agent {a:?}: {why}")).field("agent")),
                None => Ok((spec, None)),
            }
        }
        (None, None) => Ok((DEFAULT_LEVEL.agent(), Some(DEFAULT_LEVEL))),
    }
}

/// The pit `p` of the computer (its numbering) as the person numbers it.
fn seen_by_person(p: Pit, n: usize) -> Pit {
    let k = p.number() as usize;
    let yours = if k <= n { k + n } else { k - n };
    Pit::new(yours as u32, n).expect("a pit of the board")
}

fn outcome_name(o: PickOutcome) -> &'static str {
    match o {
        PickOutcome::FreeTurn => "free-turn",
        PickOutcome::TurnOver => "turn-over",
        PickOutcome::GameOver => "game-over",
    }
}

/// The board as the person sees it: their row 1..n, the computer's
/// n+1..2n, both stores.
fn board_json(state: &GameState, person: Side) -> Value {
    let b = state.board_from(person);
    json!({
        "pits": b.pits(),
        "store": b.store(),
        "opponent_store": b.opponent_store(),
        "board": b.one_line(),
    })
}

/// One pick for the page: who, which pit (as the picker and as the
/// person numbers it), what happened, and the board after it.
fn played_json(p: &Played, person: Side) -> Value {
    let n = p.after.pits_per_side();
    let free = p.outcome == PickOutcome::FreeTurn;
    let (by, seen, said) = if p.by == person {
        ("person", p.pit, trace_text(&p.trace, free))
    } else {
        let seen = |pit: Pit| seen_by_person(pit, n);
        (
            "computer",
            seen(p.pit),
            trace_text_seen(&p.trace, free, &seen, "its store"),
        )
    };
    json!({
        "by": by,
        "pit": p.pit.number(),
        "pit_seen": seen.number(),
        "outcome": outcome_name(p.outcome),
        "said": said,
        "after": board_json(&p.after, person),
    })
}

/// The game document: everything a page needs to draw the game now.
pub fn game_json(
    id: &str,
    level: Option<Level>,
    s: &GameSession,
    played: &[Played],
    hint: Option<&[Pit]>,
) -> Value {
    let st = s.state();
    let person = s.person();
    let over = st.is_over();
    let to_move = if over {
        Value::Null
    } else if s.persons_turn() {
        json!("person")
    } else {
        json!("computer")
    };
    let result = over.then(|| {
        let (you, them) = (st.store(person), st.store(person.other()));
        json!({
            "person": you,
            "computer": them,
            "winner": match you.cmp(&them) {
                std::cmp::Ordering::Greater => "person",
                std::cmp::Ordering::Less => "computer",
                std::cmp::Ordering::Equal => "draw",
            },
        })
    });
    let legal: Vec<u32> = if s.persons_turn() {
        st.legal_picks().iter().map(|p| p.number() as u32).collect()
    } else {
        Vec::new()
    };
    let mut doc = json!({
        "format": GAME_FORMAT,
        "id": id,
        "rules": st.rules(),
        "preset": format::json::preset_name(st.rules()),
        "pits_per_side": st.pits_per_side(),
        "level": level.map(Level::name),
        "agent": s.agent().to_string(),
        "person": person,
        "seed": s.seed(),
        "turn": st.turn(),
        "to_move": to_move,
        "over": over,
        "result": result,
        "helped": s.helped(),
        "legal": legal,
        "position": board_json(st, person),
        "played": played.iter().map(|p| played_json(p, person)).collect::<Vec<_>>(),
    });
    if let Some(h) = hint {
        doc["hint"] = json!(h.iter().map(|p| p.number()).collect::<Vec<_>>());
    }
    doc
}

/// Seconds a hint on the pages may think: the terminal's `game play` hint
/// is the best turn of a 2-second analysis; the pages keep the whole wait,
/// the request's round trip included, within 2 s.
pub const HINT_SECONDS: f64 = 1.5;

/// `/hint` on both back-ends: the best turn of an analysis of the person's
/// position within [`HINT_SECONDS`] (the Analyze page's, with the game's
/// endgame database), not the computer level's own choice, which below
/// `perfect` is weak advice. `None` when it is not the person's turn.
/// Marks the game as helped.
pub fn hint_analysis(
    s: &mut GameSession,
    max_memory: u64,
    cancel: &AtomicBool,
) -> Result<Option<Analysis>, GameError> {
    let opts = super::analysis_options(s.state(), max_memory);
    s.hint_analysis(&opts, Budget::Seconds(HINT_SECONDS), cancel, None)
}

/// The document of `/hint`: the game, its best turn's picks in `hint`
/// (empty when it is not the person's turn) and, in `hint_value`, what is
/// known of that turn, in numbers and in the terminal's words.
pub fn hint_json(id: &str, level: Option<Level>, s: &GameSession, a: Option<&Analysis>) -> Value {
    let Some(best) = a.and_then(|a| a.turns.first().map(|t| (a, t))) else {
        return game_json(id, level, s, &[], Some(&[]));
    };
    let (a, t) = best;
    let mut doc = game_json(id, level, s, &[], Some(&t.picks));
    doc["hint_value"] = json!({
        "value": t.value,
        "exact": t.exact,
        "answer": Answer::of(a).name(),
        "words": turn_words(t),
        "seconds": a.elapsed.as_secs_f64(),
    });
    doc
}

/// The game layer's refusal as an API error.
pub fn game_error(e: GameError, seconds: f64) -> Error {
    match e {
        GameError::IllegalPick { .. } => Error::bad(e.to_string()).field("pit"),
        GameError::Stopped => Error::status(503,
            format!(
                "the computer did not finish its search within {seconds} s (the server's --seconds) or the request was closed; \
                 the game is as it was before: choose a lower level or a smaller board"
            ),
        ),
        GameError::TableTooLarge { .. } => {
            Error::status(503, e.to_string())
        }
        GameError::AgentFailed(_) => {
            Error::status(500, e.to_string())
        }
        _ => Error::bad(e.to_string()),
    }
}

/// The computer's whole turn when it is to move; a stopped turn takes the
/// person's last turn back, so the game is where the person can go on.
pub fn computer_moves(
    s: &mut GameSession,
    cancel: &AtomicBool,
    seconds: f64,
    played: &mut Vec<Played>,
) -> Result<(), Error> {
    match s.computer_turn_until(cancel) {
        Ok(turn) => {
            played.extend(turn);
            Ok(())
        }
        Err(e) => {
            if matches!(e, GameError::Stopped) && !played.is_empty() {
                s.undo();
            }
            Err(game_error(e, seconds))
        }
    }
}

/// `POST /api/game/{id}/reply`: the computer's whole turn when it is to
/// move (after a pick made with `"reply": false`); nothing when it is not
/// (the person's turn, or the game is over), so that asking twice does no
/// harm. A stopped turn takes the person's last turn back, as in a pick
/// that waits for the reply: the game is where the person can go on.
pub fn computer_reply(
    s: &mut GameSession,
    cancel: &AtomicBool,
    seconds: f64,
) -> Result<Vec<Played>, Error> {
    let mut played = Vec::new();
    if s.persons_turn() || s.state().is_over() {
        return Ok(played);
    }
    match s.computer_turn_until(cancel) {
        Ok(turn) => {
            played.extend(turn);
            Ok(played)
        }
        Err(e) => {
            if matches!(e, GameError::Stopped) {
                s.undo();
            }
            Err(game_error(e, seconds))
        }
    }
}

/// A new game asked for, checked: the start, who the person is, the
/// computer's agent (and level, when one was named), its seed, and the
/// bytes of the agent's tables.
pub struct NewGameSpec {
    /// The start position (first player to move).
    pub start: GameState,
    /// The person's side.
    pub person: Side,
    /// The computer's agent.
    pub spec: AgentSpec,
    /// The level named, if one was.
    pub level: Option<Level>,
    /// Seed of the computer's random choices.
    pub seed: u64,
    /// Bytes of the agent's tables.
    pub bytes: u64,
    /// The bytes the agent was fitted to: build the game's session with
    /// it ([`GameSession::within`](game::GameSession::within)) so
    /// that its tables are the ones counted here.
    pub memory_cap: u64,
}

impl NewGame {
    /// The game asked for, checked, with at most `max_memory` bytes of
    /// tables (`memory` names that limit in an error: "the server's
    /// --max-memory of ...").
    pub fn check(&self, max_memory: u64, memory: &str) -> Result<NewGameSpec, Error> {
        let (rules, board) = self.position.resolve_or(Some(Preset::Kalah))?;
        let (spec, level) = agent_of(self)?;
        let person = match self.person.as_deref() {
            None | Some("first") => Side::First,
            Some("second") => Side::Second,
            Some(other) => {
                return Err(Error::bad(format!(
                    "person {other:?} is not allowed: use first (you start) or second (the computer starts)"
                ))
                .field("person"))
            }
        };
        let start = GameState::new(board, Side::First, rules)
            .map_err(|e| Error::bad(e.to_string()).field("stones"))?;
        let bytes = spec.memory_bytes_within(
            rules,
            start.pits_per_side(),
            start.stones_in_pits(),
            max_memory,
        );
        if bytes > max_memory {
            return Err(Error::status(
                503,
                format!(
                    "the {spec} computer needs {bytes} bytes of tables, more than {memory}; choose a lower level"
                ),
            )
            .field(if level.is_some() { "level" } else { "agent" }));
        }
        Ok(NewGameSpec {
            start,
            person,
            spec,
            level,
            seed: self.seed.unwrap_or(0),
            bytes,
            memory_cap: max_memory,
        })
    }
}
