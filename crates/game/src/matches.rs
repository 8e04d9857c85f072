//! Matches: two agents play pairs of games from the same opening, each
//! starting once, in parallel, and the results are summed up with their
//! uncertainty.
//!
//! # Determinism
//!
//! Game `2k` and `2k+1` form pair `k`: both start from the same opening
//! (the start position after a few random turns drawn from the match seed
//! and `k`), agent A moves first in the even game and B in the odd one.
//! Every agent is built afresh for each game with a seed drawn from the
//! match seed, the game and the side, and no agent reads the clock, so a
//! game's moves depend only on (seed, game number): the same for one thread
//! or many, and on resume.
//!
//! # Statistics
//!
//! A's score is 1 a win, ½ a draw, 0 a loss. The 95% interval is the mean
//! ± 1.96 standard errors (normal approximation over the games; with
//! pairs played from the same opening this is slightly conservative). The
//! Elo difference is `400·log10(s/(1−s))` of the score and of the
//! interval's ends (none when a side scored everything). These are the
//! textbook formulas, written out here: the rating crates (`skillratings`
//! among them) update ratings game by game and do not give the performance
//! difference of one match with an interval, which is what a match reports.

use crate::agent::{AgentSpec, Rng64};
use crate::endgame::EndgameDb;
use crate::error::{GameError, MatchError};
use crate::state::{GameState, Side};
use base::clock::Instant;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// Most games in one match.
pub const MAX_GAMES: u32 = 1_000_000;
/// Most random opening turns.
pub const MAX_OPENING_TURNS: u32 = 20;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// Games in all (even: pairs of games from one opening).
    pub games: u32,
    /// The seed of the openings and of the agents' generators.
    pub seed: u64,
    /// Random turns played from the start before the agents take over,
    /// so that deterministic agents do not play one game over and over.
    pub opening_turns: u32,
    /// An endgame database for the `perfect` agents (see
    /// [`AgentSpec::build_with`]), shared by every game.
    pub endgame: Option<EndgameDb>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number (pair = game / 2).
    pub game: u32,
    /// True when agent A moved first.
    pub a_first: bool,
    /// First player's store minus the second's at the end.
    pub value: i32,
    /// Turns played, the opening's included.
    pub turns: u32,
    /// Picks played, the opening's included.
    pub picks: u32,
    /// Turns A chose and the seconds it took for them.
    pub a_moves: u32,
    /// Seconds A thought.
    pub a_seconds: f64,
    /// Turns B chose.
    pub b_moves: u32,
    /// Seconds B thought.
    pub b_seconds: f64,
    /// Every turn from the match's start, the opening's included: its
    /// picks (pit numbers from the mover's view), so that `game review`
    /// can review the game. Empty in files written before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Vec<u8>>,
}

impl GameRecord {
    /// A's score in this game: 1, ½ or 0.
    pub fn a_score(&self) -> f64 {
        let a_lead = if self.a_first {
            self.value
        } else {
            -self.value
        };
        match a_lead.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }
}

/// The opening of pair `pair`: `turns` random turns from `start`.
pub fn opening(start: &GameState, seed: u64, pair: u32, turns: u32) -> (GameState, u32) {
    let (s, moves) = opening_moves(start, seed, pair, turns);
    (s, moves.iter().map(|m| m.len() as u32).sum())
}

/// [`opening`] with the opening's turns (pit numbers) instead of its count
/// of picks.
fn opening_moves(start: &GameState, seed: u64, pair: u32, turns: u32) -> (GameState, Vec<Vec<u8>>) {
    let mut rng = Rng64::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut s = *start;
    let mut moves = Vec::new();
    for _ in 0..turns {
        if s.is_over() {
            break;
        }
        let t = s.turns();
        let chosen = &t[rng.random_range(0..t.len())];
        moves.push(chosen.picks.iter().map(|p| p.number()).collect());
        s = chosen.after;
    }
    (s, moves)
}

/// The seed of one agent in one game.
fn agent_seed(seed: u64, game: u32, a: bool) -> u64 {
    let x = seed ^ ((game as u64) << 1 | a as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x.rotate_left(29) ^ 0x94d0_49bb_1331_11eb
}

/// Play game `game` of a match between `a` and `b` from `start`.
pub fn play_game(
    start: &GameState,
    a: AgentSpec,
    b: AgentSpec,
    opts: &MatchOptions,
    game: u32,
) -> Result<GameRecord, GameError> {
    let (mut s, moves) = opening_moves(start, opts.seed, game / 2, opts.opening_turns);
    let opening_picks = moves.iter().map(|m| m.len() as u32).sum();
    let a_first = game.is_multiple_of(2);
    let db = opts.endgame.as_ref();
    let mut agent_a = a.build_with(&s, agent_seed(opts.seed, game, true), db)?;
    let mut agent_b = b.build_with(&s, agent_seed(opts.seed, game, false), db)?;
    // The opening leaves someone to move; A is the side that moved first.
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut rec = GameRecord {
        game,
        a_first,
        value: 0,
        turns: s.turn() - 1,
        picks: opening_picks,
        a_moves: 0,
        a_seconds: 0.0,
        b_moves: 0,
        b_seconds: 0.0,
        moves,
    };
    while !s.is_over() {
        let a_moves = s.mover() == a_side;
        let t0 = Instant::now();
        let picks = if a_moves {
            agent_a.choose(&s)
        } else {
            agent_b.choose(&s)
        };
        let took = t0.elapsed().as_secs_f64();
        if a_moves {
            rec.a_moves += 1;
            rec.a_seconds += took;
        } else {
            rec.b_moves += 1;
            rec.b_seconds += took;
        }
        rec.picks += picks.len() as u32;
        rec.moves.push(picks.iter().map(|p| p.number()).collect());
        s.play_turn(&picks).map_err(|e| {
            GameError::AgentFailed(format!(
                "agent {} chose an illegal turn in game {game}: {e}",
                if a_moves { a } else { b }
            ))
        })?;
        rec.turns += 1;
    }
    rec.value = s.first_minus_second();
    Ok(rec)
}

/// A match's games so far, in game order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Agent A as given.
    pub a: String,
    /// Agent B as given.
    pub b: String,
    /// The seed.
    pub seed: u64,
    /// Games asked for.
    pub games_planned: u32,
    /// Random opening turns.
    pub opening_turns: u32,
    /// The finished games.
    pub games: Vec<GameRecord>,
}

/// Play the games of a match that `done` does not hold yet, in parallel,
/// until all are played or `stop` is set; `on_game` hears of each game as
/// it ends. The games come back in game order, `done`'s included.
pub fn run(
    start: &GameState,
    a: AgentSpec,
    b: AgentSpec,
    opts: &MatchOptions,
    done: Vec<GameRecord>,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, GameError> {
    if opts.games == 0 || opts.games > MAX_GAMES || !opts.games.is_multiple_of(2) {
        return Err(MatchError::Games {
            games: opts.games,
            max: MAX_GAMES,
        }
        .into());
    }
    if opts.opening_turns > MAX_OPENING_TURNS {
        return Err(MatchError::OpeningTurns {
            turns: opts.opening_turns,
            max: MAX_OPENING_TURNS,
        }
        .into());
    }
    let have: std::collections::HashSet<u32> = done.iter().map(|g| g.game).collect();
    let todo: Vec<u32> = (0..opts.games).filter(|g| !have.contains(g)).collect();
    let fresh: Vec<Option<Result<GameRecord, GameError>>> = todo
        .par_iter()
        .map(|&g| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let r = play_game(start, a, b, opts, g);
            if let Ok(rec) = &r {
                on_game(rec);
            }
            Some(r)
        })
        .collect();
    let mut games = done;
    for r in fresh.into_iter().flatten() {
        games.push(r?);
    }
    games.sort_by_key(|g| g.game);
    Ok(games)
}

/// What a match came to, from A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games played.
    pub games: u32,
    /// A's wins.
    pub a_wins: u32,
    /// Draws.
    pub draws: u32,
    /// B's wins.
    pub b_wins: u32,
    /// A's mean score (1 win, ½ draw).
    pub score: f64,
    /// The score's 95% interval.
    pub score_low: f64,
    /// Upper end.
    pub score_high: f64,
    /// A's Elo advantage (none when one side scored everything).
    pub elo: Option<f64>,
    /// Elo at the interval's low end.
    pub elo_low: Option<f64>,
    /// Elo at the interval's high end.
    pub elo_high: Option<f64>,
    /// The first player's mean score, whoever it was.
    pub first_player_score: f64,
    /// Turns a game.
    pub turns_per_game: f64,
    /// Picks a game.
    pub picks_per_game: f64,
    /// A's milliseconds a turn.
    pub a_ms_per_move: f64,
    /// B's milliseconds a turn.
    pub b_ms_per_move: f64,
}

fn elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| 400.0 * (score / (1.0 - score)).log10())
}

/// Sum up `games` (none: all zero).
pub fn summarize(games: &[GameRecord]) -> Summary {
    let n = games.len().max(1) as f64;
    let scores: Vec<f64> = games.iter().map(GameRecord::a_score).collect();
    let mean = scores.iter().sum::<f64>() / n;
    let var = if games.len() > 1 {
        scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.96 * (var / n).sqrt();
    let (low, high) = ((mean - half).max(0.0), (mean + half).min(1.0));
    let first: f64 = games
        .iter()
        .map(|g| match g.value.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        })
        .sum::<f64>()
        / n;
    let count = |f: &dyn Fn(&GameRecord) -> bool| games.iter().filter(|g| f(g)).count() as u32;
    let per_move = |secs: f64, moves: u32| {
        if moves == 0 {
            0.0
        } else {
            secs * 1000.0 / moves as f64
        }
    };
    Summary {
        games: games.len() as u32,
        a_wins: count(&|g| g.a_score() == 1.0),
        draws: count(&|g| g.a_score() == 0.5),
        b_wins: count(&|g| g.a_score() == 0.0),
        score: mean,
        score_low: low,
        score_high: high,
        elo: elo(mean),
        elo_low: elo(low),
        elo_high: elo(high),
        first_player_score: first,
        turns_per_game: games.iter().map(|g| g.turns as f64).sum::<f64>() / n,
        picks_per_game: games.iter().map(|g| g.picks as f64).sum::<f64>() / n,
        a_ms_per_move: per_move(
            games.iter().map(|g| g.a_seconds).sum(),
            games.iter().map(|g| g.a_moves).sum(),
        ),
        b_ms_per_move: per_move(
            games.iter().map(|g| g.b_seconds).sum(),
            games.iter().map(|g| g.b_moves).sum(),
        ),
    }
}
