//! A whole two-player game: both rows of pits, both stores, who is to move
//! and the turn number.
//!
//! # Layout
//!
//! A [`GameState`] keeps the board *from the mover's view*, as the cycle of
//! 2n+2 counters in sowing order: the mover's pits (ring indices `0..n`, pit
//! numbers 1..n), the mover's store (index `n`), the opponent's pits (indices
//! `n+1..=2n`, pit numbers n+1..2n) and the opponent's store (index `2n+1`).
//! The first 2n+1 counters are exactly the ring that [`rules::pick::play`]
//! sows on, so a pick here is the crate's reference pick. When the turn passes
//! the cycle is rotated by n+1, which puts the other player at the bottom.
//! Pit numbers in this module are always the mover's, as in the board text
//! format.
//!
//! # End of the game
//!
//! After every pick, if the pits of either side are all empty, the game ends
//! and each player adds the stones left on their own side to their own store
//! (the Kalah convention, the one of Irving, Donkers & Uiterwijk's "Solving
//! Kalah"). Under [`Scope::Any`], where a player may pick any non-empty pit on
//! either side, the same rule applies: a side whose pits are all empty ends
//! the game. The game also ends when the mover has no legal pick (which,
//! given the rule above, can only be the case in a position built that way).
//!
//! Under [`Scope::Any`] stones can travel round the board past the skipped
//! store forever, so a game could go on without end; there a game also ends,
//! by the same convention, once [`ANY_SCOPE_TURN_LIMIT`] turns have been
//! played. Under [`Scope::Own`] every game is finite (a turn that adds nothing
//! to a store moves the mover's own stones closer to their store and leaves the
//! other row alone), so no limit applies.
//!
//! # Moves
//!
//! Two levels are offered: single picks ([`GameState::play_pick`]) and whole
//! turns ([`GameState::turns`]: every distinct end-of-turn position reachable
//! through chains of free turns, each with one pick sequence that reaches it).
//! The agents choose whole turns; the search agents recurse on picks and
//! count their depth in turns (see the agents for the measurement
//! behind that choice).

use crate::error::{GameError, PickRefusal};
use rules::pick::{self, PickEnd, PickTrace};
use rules::Board;
use rules::{PickError, Pit};
use rules::{Rules, Scope};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

/// Turns after which a game under [`Scope::Any`] ends (see the module docs).
pub const ANY_SCOPE_TURN_LIMIT: u32 = 200;

/// Capacity of the cycle: 2n pits and two stores.
pub(crate) const CYCLE_CAP: usize = 2 * rules::MAX_PITS_PER_SIDE + 2;

/// One of the two players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The player who moved first.
    First,
    /// The player who moved second.
    Second,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// What one pick did to the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PickOutcome {
    /// The last stone fell into the mover's store: the same player picks again.
    FreeTurn,
    /// The turn is over and the other player is to move.
    TurnOver,
    /// The game is over (the stones left were swept to their owners' stores).
    GameOver,
}

/// A whole turn: the picks that make it and the state after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnMove {
    /// The picks of the turn, in order (pit numbers from the mover's view).
    pub picks: Vec<Pit>,
    /// The state after the turn (the other player to move, or the game over).
    pub after: GameState,
}

/// A position of a two-player game under one rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameState {
    rules: Rules,
    n: u8,
    /// The cycle from the mover's view (see the module docs); `..2n+2` used.
    cells: [u8; CYCLE_CAP],
    mover: Side,
    turn: u32,
    over: bool,
}

/// Sum of a slice of counters.
#[inline]
pub(crate) fn sum(c: &[u8]) -> u32 {
    c.iter().map(|&x| x as u32).sum()
}

/// Rotate a cycle of 2n+2 counters by n+1: the other player's view. A
/// rotation by half the cycle is a swap of its halves, which compiles to
/// a short loop where `rotate_left` called `memmove` (the solvers flip at
/// every turn's end).
#[inline]
pub(crate) fn flip_cells(cells: &mut [u8], n: usize) {
    let (mine, theirs) = cells[..2 * n + 2].split_at_mut(n + 1);
    mine.swap_with_slice(theirs);
}

/// [`flip_cells`] for a board of `N` pits a side known at compile time
/// (0: read `n` at run time): on a board of at most 7 pits a side the
/// whole cycle is one 16-byte word, whose halves swap in two shifts,
/// where the loop over the cells was a call of about 50 instructions at
/// every turn's end of the solver's search and every child of the
/// endgame build (6% of a build's time at 19 stones).
#[inline(always)]
pub(crate) fn flip_word<const N: usize>(c: &mut [u8; CYCLE_CAP], n: usize) {
    if N == 0 || 2 * N + 2 > 16 {
        flip_cells(c, n);
        return;
    }
    let half = 8 * (N as u32 + 1);
    let mut w = [0u8; 16];
    w.copy_from_slice(&c[..16]);
    let mut x = u128::from_le_bytes(w);
    if 2 * N + 2 < 16 {
        x &= (1u128 << (2 * half)) - 1;
    }
    let low = x & ((1u128 << half) - 1);
    let y = (x >> half) | (low << half);
    c[..16].copy_from_slice(&y.to_le_bytes());
}

/// True when the pits of either side are all empty.
#[inline]
pub(crate) fn a_side_is_empty(cells: &[u8], n: usize) -> bool {
    cells[..n].iter().all(|&c| c == 0) || cells[n + 1..=2 * n].iter().all(|&c| c == 0)
}

/// Sweep each side's pits into its own store.
#[inline]
pub(crate) fn sweep_cells(cells: &mut [u8], n: usize) {
    let own = sum(&cells[..n]);
    let opp = sum(&cells[n + 1..=2 * n]);
    cells[..n].iter_mut().for_each(|c| *c = 0);
    cells[n + 1..=2 * n].iter_mut().for_each(|c| *c = 0);
    cells[n] += own as u8;
    cells[2 * n + 1] += opp as u8;
}

impl GameState {
    /// A game from a board (read from the mover's view, as the board text
    /// format does) with `mover` to move at turn 1. If a side is already
    /// empty or the mover cannot pick, the game is over at once.
    pub fn new(board: Board, mover: Side, rules: Rules) -> Result<GameState, GameError> {
        let n = board.pits_per_side();
        let total = board.stones_in_play() + board.opponent_store() as u32;
        if total > rules::MAX_STONES_IN_PLAY {
            return Err(GameError::TooManyStones(total));
        }
        let mut cells = [0u8; CYCLE_CAP];
        cells[..2 * n + 1].copy_from_slice(board.ring());
        cells[2 * n + 1] = board.opponent_store();
        let mut s = GameState {
            rules,
            n: n as u8,
            cells,
            mover,
            turn: 1,
            over: false,
        };
        if a_side_is_empty(&s.cells, n) || s.legal_picks().is_empty() {
            s.finish();
        }
        Ok(s)
    }

    /// The start of a game: `n` pits a side with `stones` each, first player
    /// to move.
    pub fn start(n: usize, stones: u32, rules: Rules) -> Result<GameState, GameError> {
        let board = Board::uniform(n, stones)?;
        GameState::new(board, Side::First, rules)
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pits a side.
    #[inline]
    pub fn pits_per_side(&self) -> usize {
        self.n as usize
    }

    /// The player to move (after the game ended: the one who would have been).
    pub fn mover(&self) -> Side {
        self.mover
    }

    /// The turn number, 1 for the first turn of the game.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The position from the mover's view, in the board text format's terms.
    pub fn board(&self) -> Board {
        let n = self.pits_per_side();
        let pits: Vec<u32> = self.cells[..n]
            .iter()
            .chain(&self.cells[n + 1..=2 * n])
            .map(|&c| c as u32)
            .collect();
        Board::from_pits(&pits, self.cells[n] as u32, self.cells[2 * n + 1] as u32)
            .expect("a game state always fits a board")
    }

    /// The cycle from the mover's view (see the module docs).
    #[inline]
    pub(crate) fn cells(&self) -> &[u8] {
        &self.cells[..2 * self.pits_per_side() + 2]
    }

    /// Stones in the mover's store.
    pub fn mover_store(&self) -> u8 {
        self.cells[self.pits_per_side()]
    }

    /// Stones in the store of the player not to move.
    pub fn opponent_store(&self) -> u8 {
        self.cells[2 * self.pits_per_side() + 1]
    }

    /// Stones in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        if side == self.mover {
            self.mover_store()
        } else {
            self.opponent_store()
        }
    }

    /// `side`'s pits, in that player's pit order (their pit 1 first).
    pub fn pits_of(&self, side: Side) -> Vec<u8> {
        let n = self.pits_per_side();
        if side == self.mover {
            self.cells[..n].to_vec()
        } else {
            self.cells[n + 1..=2 * n].to_vec()
        }
    }

    /// Stones still in pits (both rows).
    pub fn stones_in_pits(&self) -> u32 {
        let n = self.pits_per_side();
        sum(&self.cells[..n]) + sum(&self.cells[n + 1..=2 * n])
    }

    /// First player's store minus second player's store: the game value
    /// once the game is over.
    pub fn first_minus_second(&self) -> i32 {
        self.store(Side::First) as i32 - self.store(Side::Second) as i32
    }

    /// Mover's store minus opponent's store: the value from a solver's view.
    pub fn mover_minus_opponent(&self) -> i32 {
        self.mover_store() as i32 - self.opponent_store() as i32
    }

    /// The winner once the game is over (`None` for a draw or a game that
    /// has not ended).
    pub fn winner(&self) -> Option<Side> {
        if !self.over {
            return None;
        }
        match self.first_minus_second().signum() {
            1 => Some(Side::First),
            -1 => Some(Side::Second),
            _ => None,
        }
    }

    /// The pits the mover may pick now, in pit order (empty once over).
    pub fn legal_picks(&self) -> Vec<Pit> {
        if self.over {
            return Vec::new();
        }
        let n = self.pits_per_side();
        self.rules
            .scope
            .pits(n)
            .filter(|p| self.cells[p.ring(n)] > 0)
            .collect()
    }

    /// True when pit `p` may be picked now.
    pub fn is_legal(&self, p: Pit) -> bool {
        let n = self.pits_per_side();
        !self.over
            && (p.number() as usize) <= 2 * n
            && (self.rules.scope == Scope::Any || p.is_own(n))
            && self.cells[p.ring(n)] > 0
    }

    /// Check that pit number `number` may be picked now, naming why not
    /// (in the rules engine's words, [`PickError`]).
    pub fn check_pick(&self, number: u32) -> Result<Pit, GameError> {
        let n = self.pits_per_side();
        let refuse = |reason: PickRefusal| GameError::IllegalPick {
            pick: number,
            reason,
        };
        if self.over {
            return Err(refuse(PickRefusal::GameOver));
        }
        let scope = self.rules.scope;
        let p =
            Pit::new(number, n).ok_or_else(|| refuse(PickError::OutOfRange { n, scope }.into()))?;
        if scope == Scope::Own && !p.is_own(n) {
            return Err(refuse(PickError::OutsideScope { n }.into()));
        }
        if self.cells[p.ring(n)] == 0 {
            return Err(refuse(PickError::Empty.into()));
        }
        Ok(p)
    }

    /// End the game: sweep each row into its owner's store.
    fn finish(&mut self) {
        let n = self.pits_per_side();
        sweep_cells(&mut self.cells, n);
        self.over = true;
    }

    /// Play pick `p`, which must be legal (see [`GameState::play_pick`] for
    /// the checked one). Used by the searches.
    #[inline]
    pub(crate) fn play_unchecked(&mut self, p: Pit) -> PickOutcome {
        let n = self.pits_per_side();
        let end = pick::play(&mut self.cells[..2 * n + 1], p.ring(n), self.rules);
        self.after_pick(end)
    }

    /// What follows a pick that ended with `end`: the end of the game, a
    /// free turn, or the board handed over.
    #[inline]
    fn after_pick(&mut self, end: PickEnd) -> PickOutcome {
        let n = self.pits_per_side();
        if a_side_is_empty(&self.cells, n) {
            self.finish();
            return PickOutcome::GameOver;
        }
        match end {
            PickEnd::FreeTurn => PickOutcome::FreeTurn,
            PickEnd::TurnOver => {
                flip_cells(&mut self.cells, n);
                self.mover = self.mover.other();
                self.turn += 1;
                if self.rules.scope == Scope::Any && self.turn > ANY_SCOPE_TURN_LIMIT {
                    self.finish();
                    return PickOutcome::GameOver;
                }
                PickOutcome::TurnOver
            }
        }
    }

    /// Play pit number `number` (from the mover's view), checked, and say
    /// what happened in it (sowings, relays, capture) for people.
    pub fn play_pick_traced(&mut self, number: u32) -> Result<(PickOutcome, PickTrace), GameError> {
        let p = self.check_pick(number)?;
        let n = self.pits_per_side();
        let trace = pick::play_traced(&mut self.cells[..2 * n + 1], p.ring(n), self.rules);
        Ok((self.after_pick(trace.end), trace))
    }

    /// The position as `side` sees it (their row at the bottom).
    pub fn board_from(&self, side: Side) -> Board {
        if side == self.mover {
            return self.board();
        }
        let n = self.pits_per_side();
        let mut cells = self.cells;
        flip_cells(&mut cells, n);
        let pits: Vec<u32> = cells[..n]
            .iter()
            .chain(&cells[n + 1..=2 * n])
            .map(|&c| c as u32)
            .collect();
        Board::from_pits(&pits, cells[n] as u32, cells[2 * n + 1] as u32)
            .expect("a game state always fits a board")
    }

    /// Play pit number `number` (from the mover's view), checked. After a
    /// turn ends the other player is to move.
    pub fn play_pick(&mut self, number: u32) -> Result<PickOutcome, GameError> {
        let p = self.check_pick(number)?;
        Ok(self.play_unchecked(p))
    }

    /// Play the picks of one whole turn, checked: every pick but the last must
    /// end in a free turn, and the last must end the turn (or the game).
    pub fn play_turn(&mut self, picks: &[Pit]) -> Result<PickOutcome, GameError> {
        if picks.is_empty() {
            return Err(GameError::IllegalTurn(
                "a turn needs at least one pick".into(),
            ));
        }
        let mut s = *self;
        for (i, p) in picks.iter().enumerate() {
            let out = s.play_pick(p.number() as u32)?;
            let last = i + 1 == picks.len();
            if last && out == PickOutcome::FreeTurn {
                return Err(GameError::IllegalTurn(format!(
                    "pick {} of {} ({p}) ends in the store: the turn is not over",
                    i + 1,
                    picks.len()
                )));
            }
            if !last && out != PickOutcome::FreeTurn {
                return Err(GameError::IllegalTurn(format!(
                    "pick {} of {} ({p}) ends the turn, but {} more picks follow",
                    i + 1,
                    picks.len(),
                    picks.len() - i - 1
                )));
            }
        }
        *self = s;
        Ok(if self.over {
            PickOutcome::GameOver
        } else {
            PickOutcome::TurnOver
        })
    }

    /// Every distinct end-of-turn state reachable from here through chains
    /// of free turns, each with the first pick sequence (in pit order, depth
    /// first) that reaches it. Empty once the game is over.
    pub fn turns(&self) -> Vec<TurnMove> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let mut seen_end: HashSet<GameState> = HashSet::new();
        let mut seen_mid: HashSet<[u8; CYCLE_CAP]> = HashSet::new();
        let mut picks = Vec::new();
        self.turns_from(&mut picks, &mut seen_mid, &mut seen_end, &mut out);
        out
    }

    fn turns_from(
        &self,
        picks: &mut Vec<Pit>,
        seen_mid: &mut HashSet<[u8; CYCLE_CAP]>,
        seen_end: &mut HashSet<GameState>,
        out: &mut Vec<TurnMove>,
    ) {
        for p in self.legal_picks() {
            let mut s = *self;
            let o = s.play_unchecked(p);
            picks.push(p);
            if o == PickOutcome::FreeTurn {
                if seen_mid.insert(s.cells) {
                    s.turns_from(picks, seen_mid, seen_end, out);
                }
            } else if seen_end.insert(s) {
                out.push(TurnMove {
                    picks: picks.clone(),
                    after: s,
                });
            }
            picks.pop();
        }
    }
}

impl fmt::Display for GameState {
    /// The board from the mover's view, with who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.board())?;
        if self.over {
            write!(
                f,
                "game over after turn {}: first {} second {}",
                self.turn,
                self.store(Side::First),
                self.store(Side::Second)
            )
        } else {
            write!(f, "turn {}: {} player to move", self.turn, self.mover)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_round_trip_and_flip() {
        let b: Board = "1 2 3 / 4 5 / 6 7 8".parse().unwrap();
        let s = GameState::new(b, Side::Second, Rules::KALAH).unwrap();
        assert_eq!(s.board(), b);
        assert_eq!(s.pits_of(Side::Second), vec![6, 7, 8]);
        assert_eq!(s.pits_of(Side::First), vec![3, 2, 1]);
        assert_eq!(s.store(Side::Second), 5);
        assert_eq!(s.store(Side::First), 4);
        let mut c = s.cells;
        flip_cells(&mut c, 3);
        assert_eq!(&c[..8], &[3, 2, 1, 4, 6, 7, 8, 5]);
    }

    #[test]
    fn a_turn_passes_and_the_game_ends_with_a_sweep() {
        let mut s = GameState::start(6, 4, Rules::KALAH).unwrap();
        // Pit 3 ends in the store, then pit 1 ends the turn.
        assert_eq!(s.play_pick(3).unwrap(), PickOutcome::FreeTurn);
        assert_eq!(s.play_pick(1).unwrap(), PickOutcome::TurnOver);
        assert_eq!(s.mover(), Side::Second);
        assert_eq!(s.turn(), 2);
        assert!(s.play_pick(7).is_err());
        // One stone each side: mover's pit 2 sows into the store, its side is
        // empty, the game ends and the other stone goes to its owner.
        let b: Board = "1 0 / 0 0 / 0 1".parse().unwrap();
        let mut s = GameState::new(b, Side::First, Rules::KALAH).unwrap();
        assert_eq!(s.play_pick(2).unwrap(), PickOutcome::GameOver);
        assert_eq!(s.first_minus_second(), 0);
        assert!(s.is_over());
    }

    #[test]
    fn turns_are_distinct_and_replay() {
        let s = GameState::start(6, 4, Rules::KALAH).unwrap();
        let t = s.turns();
        // Kalah(6,4): pit 3 gives a free turn, so 5 + 6 - ... distinct turns.
        assert!(t.len() >= 10);
        for m in &t {
            let mut r = s;
            r.play_turn(&m.picks).unwrap();
            assert_eq!(r, m.after);
        }
    }
}
