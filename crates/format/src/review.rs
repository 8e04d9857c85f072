//! What `game review` prints: the versioned JSON document
//! (`mancala-sweep-game-review/1`, schema `schemas/game-review.schema.json`)
//! and the text report.
//!
//! The document: `format`, `version`, `rules`, `preset`, `start`, `players`,
//! `complete` (every turn graded), `stopped` (Ctrl-C), `seconds`, `nodes`,
//! `turns` (each: `number`, `by` (side), `player`, `picks`, `played` and
//! `best` (the values of the turn played and of the best turn for the
//! mover, each `{low, high}`, equal when exact), `best_turn` (pits, empty
//! when not proved), `lost` (`{low, high}`: stones given away), `grade`
//! (`best`, `good`, `inaccuracy`, `mistake`, `blunder`, or null when not
//! proved), and `reviewed` (false for a turn not reached before a stop)),
//! `accuracy` (`first` and `second`: `turns`, `graded`, `best`, `percent`,
//! `lost`, and the count of each grade), `decided` (`turn`, null when
//! settled before the first turn, and `proved`), `graph` (every
//! position's value from the first player's view, `{low, high}` or null),
//! and `says`, the summary in words (each player's record, the result),
//! with each turn's grade in words in the turn's `says`: the pages show
//! these sentences as the engine writes them, so the terminal and the
//! pages never word a grade apart.

use super::json::{preset_name, PositionJson};
use super::record::Players;
use super::{Header, GAME_REVIEW_FORMAT};
use game::review::{Accuracy, Bounds, Decided, Grade, Review, TurnReview};
use game::state::Side;
use rules::{Pit, Rules};
use serde::{Deserialize, Serialize};

/// Proved bounds in JSON.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundsJson {
    /// At least.
    pub low: i32,
    /// At most.
    pub high: i32,
}

impl From<Bounds> for BoundsJson {
    fn from(b: Bounds) -> Self {
        BoundsJson {
            low: b.low,
            high: b.high,
        }
    }
}

/// One turn in the review document.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TurnReviewJson {
    /// From 1.
    pub number: usize,
    /// The side that played it.
    pub by: Side,
    /// Who played that side.
    pub player: String,
    /// Pit numbers from the mover's view.
    pub picks: Vec<u8>,
    /// False when the review stopped before it.
    pub reviewed: bool,
    /// The value of the turn played, for its mover.
    pub played: Option<BoundsJson>,
    /// The value of the best turn.
    pub best: Option<BoundsJson>,
    /// A best turn, when proved.
    pub best_turn: Vec<u8>,
    /// Stones given away.
    pub lost: Option<BoundsJson>,
    /// The grade, when proved.
    pub grade: Option<String>,
    /// The grade and the stones lost in words ([`turn_says`]).
    #[serde(default)]
    pub says: String,
}

/// One player's record.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AccuracyJson {
    /// Turns played.
    pub turns: usize,
    /// Turns with a proved grade.
    pub graded: usize,
    /// Best turns among them.
    pub best: usize,
    /// best / graded in percent; null when none is graded.
    pub percent: Option<f64>,
    /// Stones given away over the graded turns with an exact loss.
    pub lost: i32,
    /// Good turns.
    pub good: usize,
    /// Inaccuracies.
    pub inaccuracy: usize,
    /// Mistakes.
    pub mistake: usize,
    /// Blunders.
    pub blunder: usize,
}

impl From<Accuracy> for AccuracyJson {
    fn from(a: Accuracy) -> Self {
        AccuracyJson {
            turns: a.turns,
            graded: a.graded,
            best: a.best,
            percent: a.percent(),
            lost: a.lost,
            good: a.grades[Grade::Good as usize],
            inaccuracy: a.grades[Grade::Inaccuracy as usize],
            mistake: a.grades[Grade::Mistake as usize],
            blunder: a.grades[Grade::Blunder as usize],
        }
    }
}

/// Both players' records.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct BothJson {
    /// The first player's.
    pub first: AccuracyJson,
    /// The second player's.
    pub second: AccuracyJson,
}

/// When the result was settled.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct DecidedJson {
    /// True when proved.
    pub proved: bool,
    /// The turn that settled it; null when best play from the start gives
    /// the result (or when not proved).
    pub turn: Option<usize>,
}

/// `game review --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameReviewJson {
    /// `format` ([`GAME_REVIEW_FORMAT`]) and `version`.
    #[serde(flatten)]
    pub header: Header,
    /// The rules.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// The start, from the side to move.
    pub start: PositionJson,
    /// Who played each side.
    pub players: Players,
    /// True when every turn is graded.
    pub complete: bool,
    /// True when Ctrl-C stopped the review.
    pub stopped: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Picks searched.
    pub nodes: u64,
    /// Every turn.
    pub turns: Vec<TurnReviewJson>,
    /// Each player's record.
    pub accuracy: BothJson,
    /// When the result was settled.
    pub decided: DecidedJson,
    /// Each position's value from the first player's view.
    pub graph: Vec<Option<BoundsJson>>,
    /// The summary in words: each player's record, then the result
    /// ([`summary_lines`]).
    #[serde(default)]
    pub says: Vec<String>,
}

fn numbers(picks: &[Pit]) -> Vec<u8> {
    picks.iter().map(|p| p.number()).collect()
}

impl GameReviewJson {
    /// The document of review `r` of a game between `players`.
    pub fn new(r: &Review, players: &Players) -> GameReviewJson {
        let start = &r.positions[0];
        let turns = (1..=r.picks.len())
            .map(|n| {
                let by = r.positions[n - 1].mover();
                let t = r.turn(n);
                TurnReviewJson {
                    number: n,
                    by,
                    player: players.of(by).to_string(),
                    picks: numbers(&r.picks[n - 1]),
                    reviewed: t.is_some(),
                    played: t.as_ref().map(|t| t.played.into()),
                    best: t.as_ref().map(|t| t.best.into()),
                    best_turn: t.as_ref().map_or(vec![], |t| numbers(&t.best_turn)),
                    lost: t.as_ref().map(|t| t.lost.into()),
                    says: turn_says(t.as_ref()),
                    grade: t.and_then(|t| t.grade()).map(|g| g.name().to_string()),
                }
            })
            .collect();
        let decided = match r.decided() {
            Decided::FromStart => DecidedJson {
                proved: true,
                turn: None,
            },
            Decided::AtTurn(k) => DecidedJson {
                proved: true,
                turn: Some(k),
            },
            Decided::Unproved => DecidedJson {
                proved: false,
                turn: None,
            },
        };
        GameReviewJson {
            header: Header::new(GAME_REVIEW_FORMAT),
            rules: start.rules(),
            preset: preset_name(start.rules()),
            start: (&start.board()).into(),
            players: players.clone(),
            complete: r.complete(),
            stopped: r.cancelled,
            seconds: r.elapsed.as_secs_f64(),
            nodes: r.nodes,
            turns,
            accuracy: BothJson {
                first: r.accuracy(Side::First).into(),
                second: r.accuracy(Side::Second).into(),
            },
            decided,
            graph: r.graph().into_iter().map(|b| b.map(Into::into)).collect(),
            says: summary_lines(r, players),
        }
    }
}

/// A value with its sign, or its bounds.
pub fn bounds_text(b: Bounds) -> String {
    if b.is_exact() {
        format!("{:+}", b.low)
    } else {
        format!("{:+}..{:+}", b.low, b.high)
    }
}

/// A turn's grade in words, values for its mover: `best: no stone given
/// away (value +4)`, `mistake: 5 stones given away (value +2; the best
/// turn's +7)`, `not proved: 2 to 5 stones given away (…)`, or `not
/// reviewed yet`.
pub fn turn_says(t: Option<&TurnReview>) -> String {
    let Some(t) = t else {
        return "not reviewed yet".into();
    };
    let stones = |n: i32| format!("{n} stone{}", if n == 1 { "" } else { "s" });
    let lost = if t.lost.is_exact() {
        stones(t.lost.low)
    } else {
        format!("{} to {}", t.lost.low, stones(t.lost.high))
    };
    let (played, best) = (bounds_text(t.played), bounds_text(t.best));
    match t.grade() {
        Some(Grade::Best) => format!("best: no stone given away (value {played})"),
        Some(g) => format!(
            "{}: {lost} given away (value {played}; the best turn's {best})",
            g.name()
        ),
        None => format!("not proved: {lost} given away (value {played}; the best turn's {best})"),
    }
}

fn pits(picks: &[Pit]) -> String {
    if picks.is_empty() {
        return "-".into();
    }
    picks
        .iter()
        .map(|p| p.number().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line of one turn in the text report: `None` when not reviewed yet.
pub fn turn_line(r: &Review, number: usize, players: &Players) -> String {
    let by = r.positions[number - 1].mover();
    let (w, pw) = (name_width(players), picks_width(r));
    let who = players.of(by);
    let picks = pits(&r.picks[number - 1]);
    let Some(t) = r.turn(number) else {
        return format!("{number:>4}  {who:<w$} {picks:<pw$} not reviewed (stopped)");
    };
    let lost = if t.lost.is_exact() {
        t.lost.low.to_string()
    } else {
        format!("{}..{}", t.lost.low, t.lost.high)
    };
    let grade = match t.grade() {
        Some(g) => g.name().to_string(),
        None => "not proved".into(),
    };
    format!(
        "{number:>4}  {who:<w$} {picks:<pw$} {:>7} {:>7}  {:<pw$} {lost:>5}  {grade}",
        bounds_text(t.played),
        bounds_text(t.best),
        pits(&t.best_turn),
    )
}

/// The width of the player column: the longer name, at least "player".
fn name_width(players: &Players) -> usize {
    players
        .first
        .chars()
        .count()
        .max(players.second.chars().count())
        .max(6)
}

/// The width of the picks columns: the longest turn played or best, at
/// least "best turn".
fn picks_width(r: &Review) -> usize {
    let best = r.values.iter().flatten().map(|v| pits(&v.best_turn).len());
    r.picks
        .iter()
        .map(|p| pits(p).len())
        .chain(best)
        .chain([9])
        .max()
        .unwrap_or(9)
}

/// The header line of the turn table.
pub fn turn_header(r: &Review, players: &Players) -> String {
    format!(
        "turn  {:<w$} {:<pw$}  played    best  {:<pw$}  lost  grade",
        "player",
        "picks",
        "best turn",
        w = name_width(players),
        pw = picks_width(r)
    )
}

/// `side`'s player in a sentence: their name, or `the first player`.
fn who(players: &Players, side: Side) -> String {
    let name = players.of(side);
    if name == side.to_string() {
        format!("the {side} player")
    } else {
        name.to_string()
    }
}

/// `count` turns of grade `g`, as the summary says it: `1 mistake`,
/// `2 inaccuracies`.
fn grade_count(count: usize, g: Grade) -> String {
    let name = g.name();
    match (count, g) {
        (1, _) | (_, Grade::Best | Grade::Good) => format!("{count} {name}"),
        (_, Grade::Inaccuracy) => format!("{count} inaccuracies"),
        _ => format!("{count} {name}s"),
    }
}

/// `side`'s player as the summary names them: `you (first)`, or `first`
/// when the player has no other name.
fn named(players: &Players, side: Side) -> String {
    let who = players.of(side);
    if who == side.to_string() {
        format!("the {side} player")
    } else {
        format!("{who} ({side})")
    }
}

/// The summary below the turns: each player's accuracy, when the result
/// was settled ([`summary_lines`]), the graph of values.
pub fn summary_text(r: &Review, players: &Players) -> String {
    let mut out = String::new();
    for line in summary_lines(r, players) {
        out.push_str(&line);
        out.push('\n');
    }
    let graph: Vec<String> = r
        .graph()
        .iter()
        .map(|b| b.map_or("?".into(), bounds_text))
        .collect();
    out.push_str(&format!(
        "Value for {} before each turn, then at the end: {}\n",
        named(players, Side::First),
        graph.join(" ")
    ));
    out
}

/// The summary in sentences: each player's accuracy, then the result and
/// when it was settled.
pub fn summary_lines(r: &Review, players: &Players) -> Vec<String> {
    let mut out = Vec::new();
    for side in [Side::First, Side::Second] {
        let a = r.accuracy(side);
        let who = named(players, side);
        let share = match a.percent() {
            Some(p) => format!("{p:.0}% best"),
            None => "no turn graded".into(),
        };
        let counts = Grade::ALL
            .iter()
            .filter(|g| a.grades[**g as usize] > 0)
            .map(|g| grade_count(a.grades[*g as usize], *g))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(format!(
            "{who}: {share} ({} of {} turns graded{}{counts}); {} stone{} given away",
            a.graded,
            a.turns,
            if counts.is_empty() { "" } else { ": " },
            a.lost,
            if a.lost == 1 { "" } else { "s" }
        ));
    }
    let end = r.positions.last().expect("a start");
    let result = if end.is_over() {
        match end.first_minus_second().signum() {
            1 => format!(
                "{} won by {}",
                who(players, Side::First),
                end.first_minus_second()
            ),
            -1 => format!(
                "{} won by {}",
                who(players, Side::Second),
                -end.first_minus_second()
            ),
            _ => "a draw".into(),
        }
    } else {
        "unfinished".into()
    };
    let decided = match r.decided() {
        Decided::FromStart => {
            "best play from the start already gives this result: no turn changed it".into()
        }
        Decided::AtTurn(k) => format!(
            "settled at turn {k} ({} played {}): before it best play gave another result",
            who(players, r.positions[k - 1].mover()),
            pits(&r.picks[k - 1])
        ),
        Decided::Unproved => "not proved when it was settled (some values have bounds only)".into(),
    };
    if end.is_over() {
        out.push(format!("Result: {result}; {decided}."));
    } else {
        out.push(format!("Result: {result}."));
    }
    out
}

/// The whole text report of review `r`.
pub fn review_text(r: &Review, players: &Players) -> String {
    let mut out = String::from(
        "Values are the mover's final store minus the opponent's with best play after the turn; lost = best − played.\n",
    );
    out.push_str(&turn_header(r, players));
    out.push('\n');
    for n in 1..=r.picks.len() {
        out.push_str(&turn_line(r, n, players));
        out.push('\n');
    }
    out.push_str(&summary_text(r, players));
    out
}
