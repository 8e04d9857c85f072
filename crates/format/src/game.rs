//! What `game solve` and `game match` print: versioned JSON documents and
//! the text reports, shared by the command line and a web server.
//!
//! `game solve --json` (`mancala-sweep-game-solve/1`): `rules`, `preset`,
//! `start` (the position from the side to move), `complete`, `value` (the
//! mover's final store minus the opponent's with perfect play; when not
//! complete, the middle of `lower`..`upper`), `lower`, `upper`, `best_turn`
//! (pit numbers), `principal_variation` (one list of picks a turn, each
//! from its mover's side), `nodes`, `value_nodes` (before the principal
//! variation), `expanded` (positions whose picks were searched: other
//! solvers' "nodes"), `seconds`, `table_bytes`.
//!
//! `game analyze --json` (`mancala-sweep-game-analysis/1`): `rules`,
//! `preset`, `start`, `value` (the best turn's value for the player to
//! move, as `game solve` gives it), `exact` (true only when proved),
//! `depth` (turns the estimates of every turn looked ahead), `seconds`,
//! `nodes`, `threads`, `stopped`, `principal_variation`, and `turns`, best
//! first, each with `picks`, `value`, `exact`, `depth`, and `low`/`high`
//! (proved bounds) when not exact.
//!
//! `game match --json` (`mancala-sweep-game-match/1`): `rules`, `preset`,
//! `start`, `a`, `b`, `seed`, `games_planned`, `opening_turns`, `complete`,
//! `summary` (see [`game::matches::Summary`]) and `games` (one
//! record a game).

use super::json::{preset_name, PositionJson};
use super::words;
use super::{Header, GAME_ANALYSIS_FORMAT, GAME_MATCH_FORMAT, GAME_SOLVE_FORMAT};
use game::matches::{GameRecord, MatchRecord, Summary};
use game::{Analysis, GameSolveResult, GameState, TurnValue};
use rules::{Pit, Rules};
use serde::{Deserialize, Serialize};

/// `game solve --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameSolveJson {
    /// `format` ([`GAME_SOLVE_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The rules.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// The position, from the side to move.
    pub start: PositionJson,
    /// True when the value is exact.
    pub complete: bool,
    /// Mover's final store minus the opponent's with perfect play.
    pub value: i32,
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The best first turn's picks.
    pub best_turn: Vec<u8>,
    /// The principal variation, a list of picks a turn.
    pub principal_variation: Vec<Vec<u8>>,
    /// Picks searched.
    pub nodes: u64,
    /// Picks searched to prove the value, before the principal variation.
    pub value_nodes: u64,
    /// Positions whose picks were searched to prove the value (a pick
    /// answered by the table, the endgame database or the game's end is
    /// not one): what other solvers call nodes.
    pub expanded: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes of transposition table.
    pub table_bytes: u64,
}

fn numbers(picks: &[Pit]) -> Vec<u8> {
    picks.iter().map(|p| p.number()).collect()
}

impl GameSolveJson {
    /// The document for a solve of `state`.
    pub fn new(state: &GameState, r: &GameSolveResult, table_bytes: u64) -> Self {
        GameSolveJson {
            header: Header::new(GAME_SOLVE_FORMAT),
            rules: state.rules(),
            preset: preset_name(state.rules()),
            start: (&state.board()).into(),
            complete: r.exact,
            value: r.value,
            lower: r.lower,
            upper: r.upper,
            best_turn: numbers(&r.best_turn),
            principal_variation: r.pv.iter().map(|t| numbers(t)).collect(),
            nodes: r.nodes,
            value_nodes: r.value_nodes,
            expanded: r.expanded,
            seconds: r.elapsed.as_secs_f64(),
            table_bytes,
        }
    }
}

/// `game analyze --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameAnalysisJson {
    /// `format` ([`GAME_ANALYSIS_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The rules.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// The position, from the side to move.
    pub start: PositionJson,
    /// The best turn's value for the player to move: final store minus the
    /// opponent's, exact when `exact`, else the best estimate.
    pub value: i32,
    /// True only when the value is proved and the first turn proved best.
    pub exact: bool,
    /// Turns looked ahead by the estimate of every turn.
    pub depth: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Picks searched.
    pub nodes: u64,
    /// Threads searching.
    pub threads: u32,
    /// True when Ctrl-C (or a signal) stopped the analysis early.
    pub stopped: bool,
    /// `proved-best` when the first turn is proved best (as `exact`),
    /// else `best-so-far`: another turn might be better.
    pub answer: String,
    /// The answer in a player's words, as the terminal and the pages say
    /// it.
    pub says: String,
    /// `says` in its parts, for a page that draws the turn and its value
    /// itself and keeps the engine's words around them.
    #[serde(default)]
    pub says_parts: SaysParts,
    /// Where the answer came from: `book` (a committed opening book: every
    /// turn exact, no search) or `search`.
    #[serde(default = "searched")]
    pub source: String,
    /// The best line, one list of picks a turn (each from its mover's
    /// side); past the first turn only when proved.
    pub principal_variation: Vec<Vec<u8>>,
    /// Every whole turn (or the first `--top`), best first.
    pub turns: Vec<TurnJson>,
}

fn searched() -> String {
    "search".into()
}

/// One turn of [`GameAnalysisJson`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TurnJson {
    /// Pit numbers as typed.
    pub picks: Vec<u8>,
    /// The value for the player to move (exact, or the estimate).
    pub value: i32,
    /// True when the value is proved.
    pub exact: bool,
    /// Turns looked ahead after this one by its estimate.
    pub depth: u32,
    /// Proved lower bound, when not exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<i32>,
    /// Proved upper bound, when not exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<i32>,
}

/// An analysis's `says` in parts ([`words::Headline`]): `template` with
/// `{tap}` and `{value}` where `tap` and `value` go.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaysParts {
    /// The sentence with `{tap}` and `{value}` in place of the two.
    pub template: String,
    /// The turn to tap: "Tap 3, then 6".
    pub tap: String,
    /// What is known of its value: "you win by 8".
    pub value: String,
}

impl From<words::Headline> for SaysParts {
    fn from(h: words::Headline) -> Self {
        SaysParts {
            template: h.template.into(),
            tap: h.tap,
            value: h.value,
        }
    }
}

impl GameAnalysisJson {
    /// The document for an analysis of `state`, its first `top` turns.
    pub fn new(state: &GameState, a: &Analysis, threads: u32, top: usize) -> Self {
        GameAnalysisJson {
            header: Header::new(GAME_ANALYSIS_FORMAT),
            rules: state.rules(),
            preset: preset_name(state.rules()),
            start: (&state.board()).into(),
            value: a.value(),
            exact: a.exact(),
            depth: a.depth,
            seconds: a.elapsed.as_secs_f64(),
            nodes: a.nodes,
            threads,
            stopped: a.cancelled,
            answer: words::Answer::of(a).name().into(),
            says: words::headline(a),
            says_parts: SaysParts::from(words::Headline::of(a)),
            source: if a.book { "book" } else { "search" }.into(),
            principal_variation: a.pv().iter().map(|t| numbers(t)).collect(),
            turns: a
                .turns
                .iter()
                .take(top)
                .map(|t| TurnJson {
                    picks: numbers(&t.picks),
                    value: t.value,
                    exact: t.exact,
                    depth: t.depth,
                    low: (!t.exact).then_some(t.low),
                    high: (!t.exact).then_some(t.high),
                })
                .collect(),
        }
    }
}

/// A value for the player to move in words: "wins by 6", "a draw".
pub fn value_words(v: i32) -> String {
    match v.signum() {
        1 => format!("wins by {v}"),
        -1 => format!("loses by {}", -v),
        _ => "a draw".into(),
    }
}

/// A signed value: `+6`, `0`, `-2`.
fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// The text report of `game analyze`, in a player's words: the answer
/// (proved best, or the best so far), the best line, the first `top`
/// turns ranked, the turn that takes the most stones now when it is
/// another, and how the answer was reached. `verbose` adds each open
/// turn's bounds and depth and what was searched.
pub fn game_analysis_text(
    state: &GameState,
    a: &Analysis,
    threads: u32,
    top: usize,
    verbose: bool,
) -> String {
    let mut out = String::new();
    let best = &a.turns[0];
    out.push_str(&words::headline(a));
    out.push('\n');
    let pv = a.pv();
    if pv.len() > 1 {
        // The opponent's pits as the player sees them (the top row's
        // numbers), as the player types them in `--follow`.
        let n = state.pits_per_side() as u8;
        let seen = |t: &[Pit]| {
            t.iter()
                .map(|p| {
                    let k = p.number();
                    (if k <= n { k + n } else { k - n }).to_string()
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push_str("Best line, a turn a line (pits as you see them):\n");
        for (i, t) in pv.iter().enumerate() {
            let (who, picks) = if i % 2 == 0 {
                ("you", picks_text(t))
            } else {
                ("them", seen(t))
            };
            out.push_str(&format!("  {:>3}. {who:<4} {picks}\n", i + 1));
        }
    }
    let proved = a.proved();
    out.push_str(&format!(
        "\nTurns, best first ({} of {}, {proved} proved):\n",
        top.min(a.turns.len()),
        a.turns.len()
    ));
    let width = a
        .turns
        .iter()
        .take(top)
        .map(|t| picks_text(&t.picks).len())
        .max()
        .unwrap_or(0);
    for (i, t) in a.turns.iter().take(top).enumerate() {
        let details = words::turn_details(t);
        out.push_str(&format!(
            "  {:>3}. {:<width$}  {}{}\n",
            i + 1,
            picks_text(&t.picks),
            words::turn_words(t),
            if verbose && !details.is_empty() {
                format!(" ({details})")
            } else {
                String::new()
            }
        ));
    }
    // The turn `solve` would give: the most stones in the store now.
    let me = state.mover();
    let most = |t: &TurnValue| t.after.store(me);
    if let Some((rank, greedy)) = a
        .turns
        .iter()
        .enumerate()
        .max_by_key(|(i, t)| (most(t), std::cmp::Reverse(*i)))
    {
        if rank != 0 && most(greedy) > most(best) {
            out.push_str(&format!(
                "\nThe most stones this turn ({} in your store) comes from {}, turn {} here: {}.\n",
                most(greedy),
                picks_text(&greedy.picks),
                rank + 1,
                words::turn_words(greedy)
            ));
        }
    }
    out.push('\n');
    out.push_str(&words::how(a));
    out.push('\n');
    if verbose && !a.book {
        out.push_str(&format!(
            "Searched {} picks in {:.2} s on {threads} thread{}; every turn looked at least {} turn{} ahead{}.\n",
            picks_count(a.nodes),
            a.elapsed.as_secs_f64(),
            if threads == 1 { "" } else { "s" },
            a.depth,
            if a.depth == 1 { "" } else { "s" },
            if a.cancelled { " (stopped)" } else { "" }
        ));
    }
    out
}

/// A count of picks searched, as the terminal shows it in progress lines
/// and summaries: `830`, `12.4 k`, `3.1 M`.
pub fn picks_count(picks: u64) -> String {
    match picks {
        p if p < 10_000 => p.to_string(),
        p if p < 1_000_000 => format!("{:.1} k", p as f64 / 1e3),
        p => format!("{:.1} M", p as f64 / 1e6),
    }
}

/// Picks as text: `3 1`.
pub fn picks_text(picks: &[Pit]) -> String {
    picks
        .iter()
        .map(|p| p.number().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A game's value (the mover's final store minus the opponent's) in words:
/// who wins and by how much, as a bare `+6` does not say.
pub fn verdict(value: i32) -> String {
    match value {
        0 => value_words(0),
        v => format!(
            "the player to move {} stone{}",
            value_words(v),
            if v.abs() == 1 { "" } else { "s" }
        ),
    }
}

/// The text report of `game solve`.
pub fn game_solve_text(
    state: &GameState,
    r: &GameSolveResult,
    table_bytes: u64,
    threads: u32,
) -> String {
    let mut out = String::new();
    if state.is_over() {
        // A finished position has no best turn: an empty "Best first
        // turn" line would read as a bug, so the result is said instead.
        out.push_str(&format!(
            "The game is over: no pick is left, and the stones left in each row went to its owner's store. It ends {} to {}: {} ({}).\n",
            state.store(state.mover()),
            state.store(state.mover().other()),
            verdict(r.value),
            signed(r.value)
        ));
    } else if r.exact {
        out.push_str(&format!(
            "Value with perfect play: {} for the player to move ({}).\n",
            signed(r.value),
            verdict(r.value)
        ));
        out.push_str(&format!("Best first turn: {}\n", picks_text(&r.best_turn)));
        out.push_str("Best line, a turn a line (each in its player's own pit numbers):\n");
        for (i, t) in r.pv.iter().enumerate() {
            let who = if i % 2 == 0 { "you" } else { "them" };
            out.push_str(&format!("  {:>3}. {who:<4} {}\n", i + 1, picks_text(t)));
        }
    } else {
        out.push_str(&format!(
            "Stopped before the end: the value is between {} and {} (incomplete).\n",
            signed(r.lower),
            signed(r.upper)
        ));
    }
    let secs = r.elapsed.as_secs_f64();
    out.push_str(&format!(
        "Searched {} picks in {:.2} s ({:.2} million picks a second), table {} MiB, {} thread{}, {} stones in the pits.\n",
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-9) / 1e6,
        table_bytes >> 20,
        threads,
        if threads == 1 { "" } else { "s" },
        state.stones_in_pits()
    ));
    out
}

/// `game match --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameMatchJson {
    /// `format` ([`GAME_MATCH_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The rules.
    pub rules: Rules,
    /// The preset these rules are, or null.
    pub preset: Option<String>,
    /// The start position (first player to move).
    pub start: PositionJson,
    /// Agent A.
    pub a: String,
    /// Agent B.
    pub b: String,
    /// The seed.
    pub seed: u64,
    /// Games asked for.
    pub games_planned: u32,
    /// Random opening turns.
    pub opening_turns: u32,
    /// True when every game planned was played.
    pub complete: bool,
    /// The results from A's side.
    pub summary: Summary,
    /// Every game played, in game order.
    pub games: Vec<GameRecord>,
}

impl GameMatchJson {
    /// The document for a match (finished or not).
    pub fn new(start: &GameState, m: &MatchRecord, summary: Summary) -> Self {
        GameMatchJson {
            header: Header::new(GAME_MATCH_FORMAT),
            rules: start.rules(),
            preset: preset_name(start.rules()),
            start: (&start.board()).into(),
            a: m.a.clone(),
            b: m.b.clone(),
            seed: m.seed,
            games_planned: m.games_planned,
            opening_turns: m.opening_turns,
            complete: m.games.len() as u32 == m.games_planned,
            summary,
            games: m.games.clone(),
        }
    }

    /// The match record inside, to resume from.
    pub fn record(&self) -> MatchRecord {
        MatchRecord {
            a: self.a.clone(),
            b: self.b.clone(),
            seed: self.seed,
            games_planned: self.games_planned,
            opening_turns: self.opening_turns,
            games: self.games.clone(),
        }
    }
}

/// The text report of `game match`.
pub fn match_text(m: &MatchRecord, s: &Summary) -> String {
    let elo = |e: Option<f64>| e.map_or("beyond measure".to_string(), |e| format!("{e:+.0}"));
    let mut out = format!(
        "{} against {}: {} games{}\n",
        m.a,
        m.b,
        s.games,
        if s.games < m.games_planned {
            format!(" of {} (incomplete)", m.games_planned)
        } else {
            String::new()
        }
    );
    out.push_str(&format!(
        "  {:<16} wins {:>5}  draws {:>5}  losses {:>5}\n",
        m.a, s.a_wins, s.draws, s.b_wins
    ));
    out.push_str(&format!(
        "  {:<16} wins {:>5}  draws {:>5}  losses {:>5}\n",
        m.b, s.b_wins, s.draws, s.a_wins
    ));
    out.push_str(&format!(
        "  score of {}: {:.3} (95% interval {:.3} to {:.3})\n",
        m.a, s.score, s.score_low, s.score_high
    ));
    out.push_str(&format!(
        "  Elo difference: {} ({} to {})\n",
        elo(s.elo),
        elo(s.elo_low),
        elo(s.elo_high)
    ));
    out.push_str(&format!(
        "  first player's score: {:.3}; {:.1} turns and {:.1} picks a game\n",
        s.first_player_score, s.turns_per_game, s.picks_per_game
    ));
    out.push_str(&format!(
        "  time a turn: {} {:.2} ms, {} {:.2} ms\n",
        m.a, s.a_ms_per_move, m.b, s.b_ms_per_move
    ));
    // The two numbers a reader may not know, said where they are read.
    out.push_str(&format!(
        "Score: {}'s points a game (1 a win, ½ a draw; 0.500 is even). Elo difference: the rating gap that score means, 400·log10(score / (1 − score)), beyond measure at a score of 0 or 1.\n",
        m.a
    ));
    // A clean sweep is worth a sentence of its own: the Elo line cannot
    // measure it, and a first player's score of 1.000 means that the order
    // of play, not the agents, decided every game.
    if s.games > 0 {
        if s.a_wins == s.games {
            out.push_str(&format!("{} won every game.\n", m.a));
        } else if s.b_wins == s.games {
            out.push_str(&format!("{} won every game.\n", m.b));
        }
        if s.first_player_score == 1.0 {
            out.push_str("The player who moved first won every game, whichever agent it was.\n");
        } else if s.first_player_score == 0.0 {
            out.push_str("The player who moved second won every game, whichever agent it was.\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::picks_count;

    /// Counts read at a glance: whole below ten thousand, then thousands
    /// and millions with one decimal.
    #[test]
    fn picks_counts_read_at_a_glance() {
        for (n, want) in [
            (0, "0"),
            (830, "830"),
            (9_999, "9999"),
            (12_400, "12.4 k"),
            (893_288, "893.3 k"),
            (3_100_000, "3.1 M"),
        ] {
            assert_eq!(picks_count(n), want);
        }
    }
}
