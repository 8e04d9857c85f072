//! What `game solve` and `game match` print: versioned JSON documents and
//! the text reports, shared by the command line and a web server.
//!
//! `game solve --json` (`mancala-sweep-game-solve/1`): `rules`, `preset`,
//! `start` (the position from the side to move), `complete`, `value` (the
//! mover's final store minus the opponent's with perfect play; when not
//! complete, the middle of `lower`..`upper`), `lower`, `upper`, `best_turn`
//! (pit numbers), `principal_variation` (one list of picks a turn, each
//! from its mover's side), `nodes`, `seconds`, `table_bytes`.
//!
//! `game match --json` (`mancala-sweep-game-match/1`): `rules`, `preset`,
//! `start`, `a`, `b`, `seed`, `games_planned`, `opening_turns`, `complete`,
//! `summary` (see [`crate::game::matches::Summary`]) and `games` (one
//! record a game).

use super::json::{preset_name, PositionJson};
use super::{GAME_MATCH_FORMAT, GAME_SOLVE_FORMAT, VERSION};
use crate::game::matches::{GameRecord, MatchRecord, Summary};
use crate::game::{GameState, SolveResult};
use crate::rules::{Pit, Rules};
use serde::{Deserialize, Serialize};

/// `game solve --json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameSolveJson {
    /// [`GAME_SOLVE_FORMAT`].
    pub format: String,
    /// Tool version.
    pub version: String,
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
    pub fn new(state: &GameState, r: &SolveResult, table_bytes: u64) -> Self {
        GameSolveJson {
            format: GAME_SOLVE_FORMAT.into(),
            version: VERSION.into(),
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
            seconds: r.elapsed.as_secs_f64(),
            table_bytes,
        }
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
    let stones = |v: i32| format!("{v} stone{}", if v == 1 { "" } else { "s" });
    match value.signum() {
        1 => format!("the player to move wins by {}", stones(value)),
        -1 => format!("the player to move loses by {}", stones(-value)),
        _ => "a draw".into(),
    }
}

/// The text report of `game solve`.
pub fn game_solve_text(
    state: &GameState,
    r: &SolveResult,
    table_bytes: u64,
    threads: u32,
) -> String {
    let mut out = String::new();
    let signed = |v: i32| {
        if v > 0 {
            format!("+{v}")
        } else {
            v.to_string()
        }
    };
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
        out.push_str("Principal variation, a turn a line (pits from the mover's side):\n");
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
        "Searched {} picks in {:.2} s ({:.2} M picks/s), table {} MiB, {} thread{}, {} stones in the pits.\n",
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
    /// [`GAME_MATCH_FORMAT`].
    pub format: String,
    /// Tool version.
    pub version: String,
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
            format: GAME_MATCH_FORMAT.into(),
            version: VERSION.into(),
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
