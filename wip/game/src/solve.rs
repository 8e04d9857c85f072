//! The exact solver: the value of a position with perfect play by both
//! sides, the best first turn, and the principal variation.
//!
//! # Value
//!
//! The value is the mover's final store minus the opponent's final store
//! (so, from the start, first player minus second player). Stores only grow
//! and never feed back into play, so the search works on the pits alone: a
//! node's value is the mover's future gains minus the opponent's, and the
//! stores already filled are added at the root. This makes positions that
//! differ only in their stores one transposition-table entry.
//!
//! # Search
//!
//! Picks are the nodes: a pick that ends in the store keeps the mover (the
//! child's value is added), one that ends the turn hands the board over (the
//! child's value is subtracted, negamax). The root is solved with MTD(f):
//! a sequence of null-window fail-soft alpha-beta searches that close in on
//! the value from the first guess 0. Because the search always goes to the
//! end of the game, every bound in the transposition table is exact whatever
//! depth it came from (no depth field, no re-search of stored bounds).
//!
//! What the search uses, and what each paid on Kalah(6,4) (see the crate's
//! `benches/game.rs` and this branch's report for the figures):
//! - a transposition table of lower and upper bounds with the best pick,
//!   2-way buckets replaced by subtree size;
//! - move ordering: the table's pick, then picks that end in the store (the
//!   one nearest the store first), then captures by size, then the rest from
//!   the store side;
//! - enhanced transposition cutoffs ([`SolveOptions::etc`]): before
//!   searching a node's children, their table bounds are checked for a cutoff;
//! - an endgame database ([`SolveOptions::endgame_stones`]): exact values of
//!   every position with few stones in its pits, filled on demand in a dense
//!   array indexed by the position's rank, never replaced.
//!
//! # Limits
//!
//! [`SolveOptions::table_bytes`] is refused before any work if it exceeds
//! [`SolveOptions::memory_cap`] (the endgame database counts too). A cancel
//! flag stops the search; the result then carries the bounds known so far.
//! Under [`Scope::Any`] the value is that of the game with
//! [`ANY_SCOPE_TURN_LIMIT`] (turns left are part of the key there).

use crate::game::error::GameError;
use crate::game::state::{
    a_side_is_empty, flip_cells, sum, GameState, PickOutcome, ANY_SCOPE_TURN_LIMIT, CYCLE_CAP,
};
use crate::pick::{self, PickEnd};
use crate::pit::Pit;
use crate::rules::{Rules, Scope};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the solver may use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Bytes for the transposition table (rounded down to a power of two
    /// entries).
    pub table_bytes: u64,
    /// Most bytes the table and the endgame database may take together; a
    /// request above it is refused before the search starts.
    pub memory_cap: u64,
    /// Enhanced transposition cutoffs on.
    pub etc: bool,
    /// Positions with at most this many stones in their pits are solved
    /// into an endgame database (0: none). Only for [`Scope::Own`].
    pub endgame_stones: u32,
}

impl Default for SolveOptions {
    /// 256 MiB of table, a 4 GiB cap, ETC on, endgame database up to 12
    /// stones.
    fn default() -> Self {
        SolveOptions {
            table_bytes: 256 << 20,
            memory_cap: 4 << 30,
            etc: true,
            endgame_stones: 12,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveResult {
    /// The value (mover's final store minus opponent's) when exact, else
    /// the middle of the bounds rounded down.
    pub value: i32,
    /// True when `lower == upper`: the search finished.
    pub exact: bool,
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The picks of the best first turn (empty when not exact or over).
    pub best_turn: Vec<Pit>,
    /// The principal variation: one entry per turn, each its picks (pit
    /// numbers from that turn's mover's view). Empty when not exact.
    pub pv: Vec<Vec<Pit>>,
    /// Nodes (picks) searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// True when the cancel flag stopped the search.
    pub cancelled: bool,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    k0: u64,
    k1: u64,
    lo: i16,
    hi: i16,
    best: u8,
    work: u8,
}

/// Bytes one table entry takes.
pub const ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

type Cells = [u8; CYCLE_CAP];

const NO_MOVE: u8 = u8::MAX;

/// The exact solver for one rule set and board size; keep it between calls
/// to reuse its table (an agent that plays perfectly does).
pub struct Solver {
    rules: Rules,
    n: usize,
    opts: SolveOptions,
    table: Vec<Entry>,
    mask: usize,
    nodes: u64,
    stopped: bool,
    exact_key: bool,
    endgame: Option<Endgame>,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

impl Solver {
    /// A solver for `rules` on boards of `n` pits a side. Refuses when the
    /// table (and endgame database) would exceed `opts.memory_cap`.
    pub fn new(rules: Rules, n: usize, opts: SolveOptions) -> Result<Solver, GameError> {
        let entries = (opts.table_bytes / ENTRY_BYTES).max(2);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let endgame_stones = if rules.scope == Scope::Own {
            opts.endgame_stones
        } else {
            0
        };
        let db_bytes = Endgame::bytes(2 * n, endgame_stones);
        let requested = entries * ENTRY_BYTES + db_bytes;
        if requested > opts.memory_cap {
            return Err(GameError::TableTooLarge {
                requested,
                cap: opts.memory_cap,
            });
        }
        let any_bits = if rules.scope == Scope::Any { 16 } else { 0 };
        Ok(Solver {
            rules,
            n,
            table: vec![Entry::default(); entries as usize],
            mask: entries as usize - 2,
            nodes: 0,
            stopped: false,
            exact_key: 16 * n + any_bits <= 128,
            endgame: (endgame_stones > 0).then(|| Endgame::new(2 * n, endgame_stones)),
            opts,
        })
    }

    /// The options in force.
    pub fn options(&self) -> &SolveOptions {
        &self.opts
    }

    fn key(&self, pos: &Cells, turns_left: u32) -> (u64, u64) {
        let n = self.n;
        if self.exact_key {
            let mut k: u128 = 0;
            for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                k = (k << 8) | c as u128;
            }
            if self.rules.scope == Scope::Any {
                k = (k << 16) | turns_left as u128;
            }
            // Never all-zero: a position in the table has stones.
            ((k >> 64) as u64, k as u64)
        } else {
            let mut a: u64 = 0x9e3779b97f4a7c15 ^ turns_left as u64;
            let mut b: u64 = 0x7f4a7c159e3779b9;
            for &c in pos[..n].iter().chain(&pos[n + 1..=2 * n]) {
                a = mix(a ^ c as u64);
                b = mix(b.rotate_left(7) ^ c as u64 ^ 0x55);
            }
            (a | 1, b)
        }
    }

    #[inline]
    fn slot(&self, k: (u64, u64)) -> usize {
        (mix(k.0 ^ k.1.rotate_left(17)) as usize) & self.mask
    }

    #[inline]
    fn probe(&self, k: (u64, u64)) -> Option<Entry> {
        let i = self.slot(k);
        self.table[i..i + 2]
            .iter()
            .find(|e| e.k0 == k.0 && e.k1 == k.1)
            .copied()
    }

    fn store(&mut self, k: (u64, u64), lo: i32, hi: i32, best: u8, work: u8) {
        let i = self.slot(k);
        let b = &mut self.table[i..i + 2];
        let j = if b[0].k0 == k.0 && b[0].k1 == k.1 {
            0
        } else if b[1].k0 == k.0 && b[1].k1 == k.1 {
            1
        } else if b[0].work <= b[1].work {
            b[0] = Entry::default();
            0
        } else {
            b[1] = Entry::default();
            1
        };
        let e = &mut b[j];
        if e.k0 == k.0 && e.k1 == k.1 {
            e.lo = e.lo.max(lo as i16);
            e.hi = e.hi.min(hi as i16);
            e.work = e.work.max(work);
            if best != NO_MOVE {
                e.best = best;
            }
        } else {
            *e = Entry {
                k0: k.0,
                k1: k.1,
                lo: lo as i16,
                hi: hi as i16,
                best,
                work,
            };
        }
    }

    /// Solve `state` exactly (or until `cancel` is set).
    pub fn solve(&mut self, state: &GameState, cancel: &AtomicBool) -> SolveResult {
        let t0 = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        let base = state.mover_minus_opponent();
        if state.is_over() {
            return SolveResult {
                value: base,
                exact: true,
                lower: base,
                upper: base,
                best_turn: vec![],
                pv: vec![],
                nodes: 0,
                elapsed: t0.elapsed(),
                cancelled: false,
            };
        }
        let n = self.n;
        assert_eq!(n, state.pits_per_side(), "solver built for another size");
        let mut pos: Cells = [0; CYCLE_CAP];
        pos[..2 * n + 2].copy_from_slice(state.cells());
        pos[n] = 0;
        pos[2 * n + 1] = 0;
        let turns_left = ANY_SCOPE_TURN_LIMIT + 1 - state.turn().min(ANY_SCOPE_TURN_LIMIT);
        let s = state.stones_in_pits() as i32;
        let (mut lo, mut hi) = (-s, s);
        let mut g = 0;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let v = self.search(&pos, beta - 1, beta, turns_left, cancel);
            if self.stopped {
                break;
            }
            g = v;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        let exact = lo == hi;
        let pv = if exact {
            self.principal_variation(state, lo, cancel)
        } else {
            vec![]
        };
        SolveResult {
            value: base + if exact { lo } else { (lo + hi).div_euclid(2) },
            exact,
            lower: base + lo,
            upper: base + hi,
            best_turn: pv.first().cloned().unwrap_or_default(),
            pv,
            nodes: self.nodes,
            elapsed: t0.elapsed(),
            cancelled: !exact,
        }
    }

    /// Exact value of `state`'s future (mover's gains minus opponent's) by
    /// null-window tests; used for the PV.
    fn exact_future(&mut self, pos: &Cells, turns_left: u32, cancel: &AtomicBool) -> i32 {
        let s = stones(pos, self.n) as i32;
        let (mut lo, mut hi) = (-s, s);
        let mut g = 0;
        while lo < hi && !self.stopped {
            let beta = if g == lo { g + 1 } else { g };
            g = self.search(pos, beta - 1, beta, turns_left, cancel);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        lo
    }

    fn principal_variation(
        &mut self,
        state: &GameState,
        future: i32,
        cancel: &AtomicBool,
    ) -> Vec<Vec<Pit>> {
        let n = self.n;
        let mut pv = Vec::new();
        let mut turn = Vec::new();
        let mut s = *state;
        let mut future = future;
        while !s.is_over() && !self.stopped {
            let mover_before = s.mover();
            let before = s.mover_minus_opponent();
            let mut chosen = None;
            for p in s.legal_picks() {
                let mut c = s;
                let out = c.play_unchecked(p);
                let gained = if c.mover() == mover_before {
                    c.mover_minus_opponent() - before
                } else {
                    -c.mover_minus_opponent() - before
                };
                let child_future = if out == PickOutcome::GameOver {
                    0
                } else {
                    let mut pos: Cells = [0; CYCLE_CAP];
                    pos[..2 * n + 2].copy_from_slice(c.cells());
                    pos[n] = 0;
                    pos[2 * n + 1] = 0;
                    let tl = ANY_SCOPE_TURN_LIMIT + 1 - c.turn().min(ANY_SCOPE_TURN_LIMIT);
                    self.exact_future(&pos, tl, cancel)
                };
                let v = if out == PickOutcome::FreeTurn {
                    gained + child_future
                } else {
                    gained - child_future
                };
                if v == future {
                    chosen = Some((p, out, child_future, c));
                    break;
                }
            }
            let Some((p, out, child_future, c)) = chosen else {
                break;
            };
            turn.push(p);
            if out != PickOutcome::FreeTurn {
                pv.push(std::mem::take(&mut turn));
            }
            future = child_future;
            s = c;
        }
        if !turn.is_empty() {
            pv.push(turn);
        }
        pv
    }

    /// Fail-soft alpha-beta on the pits of `pos` (stores zero), returning
    /// the mover's future gains minus the opponent's.
    fn search(
        &mut self,
        pos: &Cells,
        alpha: i32,
        beta: i32,
        turns_left: u32,
        cancel: &AtomicBool,
    ) -> i32 {
        let n = self.n;
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && cancel.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let s = stones(pos, n);
        if let Some(db) = &self.endgame {
            if s <= db.max_stones {
                let v = self.endgame_value(pos);
                return v;
            }
        }
        let s = s as i32;
        let key = self.key(pos, turns_left);
        let (mut lo, mut hi, mut tt_move) = (-s, s, NO_MOVE);
        if let Some(e) = self.probe(key) {
            lo = lo.max(e.lo as i32);
            hi = hi.min(e.hi as i32);
            tt_move = e.best;
        }
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let mut alpha = alpha.max(lo);
        let beta = beta.min(hi);
        let nodes_before = self.nodes;

        // Children, ordered.
        let mut kids: [(u8, i32); CYCLE_CAP] = [(0, 0); CYCLE_CAP];
        let mut count = 0;
        let len = 2 * n + 1;
        let top = if self.rules.scope == Scope::Any { len } else { n };
        for from in 0..top {
            let k = pos[from] as usize;
            if k == 0 || from == n {
                continue;
            }
            let last = (from + k) % len;
            let score = if from as u8 == tt_move {
                1 << 20
            } else if last == n {
                (1 << 16) + from as i32
            } else if last < n
                && k < len
                && pos[last] == 0
                && self.rules.capture != crate::rules::Capture::None
            {
                (1 << 8) + pos[2 * n - last] as i32
            } else {
                from as i32
            };
            kids[count] = (from as u8, score);
            count += 1;
        }
        let kids = &mut kids[..count];
        kids.sort_unstable_by(|a, b| b.1.cmp(&a.1));

        let mut children: [(Cells, i32, u8); CYCLE_CAP] = [([0; CYCLE_CAP], 0, 0); CYCLE_CAP];
        // Each child: (position ready for its mover, gain, kind): kind 0 =
        // terminal (gain is the whole value), 1 = free turn, 2 = turn over.
        for (i, &(from, _)) in kids.iter().enumerate() {
            let mut c = *pos;
            let end = pick::play(&mut c[..len], from as usize, self.rules);
            let gain = c[n] as i32;
            c[n] = 0;
            let entry = &mut children[i];
            if a_side_is_empty(&c, n) || (end == PickEnd::TurnOver && turns_left == 1) {
                let own = sum(&c[..n]) as i32;
                let opp = sum(&c[n + 1..=2 * n]) as i32;
                *entry = (c, gain + own - opp, 0);
            } else if end == PickEnd::FreeTurn {
                *entry = (c, gain, 1);
            } else {
                flip_cells(&mut c, n);
                *entry = (c, gain, 2);
            }
        }
        let children = &children[..count];

        if self.opts.etc {
            for (c, gain, kind) in children {
                let bound = match kind {
                    0 => *gain,
                    1 => match self.probe(self.key(c, turns_left)) {
                        Some(e) => gain + e.lo as i32,
                        None => continue,
                    },
                    _ => match self.probe(self.key(c, turns_left - 1)) {
                        Some(e) => gain - e.hi as i32,
                        None => continue,
                    },
                };
                if bound >= beta {
                    return bound;
                }
            }
        }

        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        for (i, (c, gain, kind)) in children.iter().enumerate() {
            let v = match kind {
                0 => *gain,
                1 => gain + self.search(c, alpha - gain, beta - gain, turns_left, cancel),
                _ => gain - self.search(c, gain - beta, gain - alpha, turns_left - 1, cancel),
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = kids[i].0;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        if best >= beta {
            self.store(key, best, s, best_move, work);
        } else {
            // best <= alpha: an upper bound (null window: never exact inside).
            self.store(key, -s, best, best_move, work);
        }
        best
    }

    /// The exact value of a position with few stones, from the database.
    fn endgame_value(&mut self, pos: &Cells) -> i32 {
        let n = self.n;
        let mut pits = [0u8; CYCLE_CAP];
        pits[..n].copy_from_slice(&pos[..n]);
        pits[n..2 * n].copy_from_slice(&pos[n + 1..=2 * n]);
        let db = self.endgame.as_mut().expect("endgame database");
        db.value(&pits[..2 * n], n, self.rules)
    }
}

#[inline]
fn stones(pos: &Cells, n: usize) -> u32 {
    sum(&pos[..n]) + sum(&pos[n + 1..=2 * n])
}

/// Exact values of every position with at most `max_stones` stones in its
/// pits (scope own only: there the game graph has no cycles), stored as
/// `i8` in a dense array by the rank of the pit counts, filled on demand.
struct Endgame {
    pits: usize,
    max_stones: u32,
    /// `binom[a][b]` = C(a, b).
    binom: Vec<Vec<u64>>,
    /// First index of the positions with exactly `t` stones.
    offset: Vec<u64>,
    values: Vec<i8>,
}

const UNKNOWN: i8 = i8::MIN;

impl Endgame {
    fn count(pits: usize, stones: u32) -> u64 {
        // Compositions of at most `stones` into `pits` parts: C(stones+pits, pits).
        let (a, b) = (stones as u64 + pits as u64, pits as u64);
        let mut c: u128 = 1;
        for i in 0..b {
            c = c * (a - i) as u128 / (i + 1) as u128;
        }
        c as u64
    }

    fn bytes(pits: usize, stones: u32) -> u64 {
        if stones == 0 {
            0
        } else {
            Endgame::count(pits, stones)
        }
    }

    fn new(pits: usize, max_stones: u32) -> Endgame {
        let m = max_stones as usize + pits + 1;
        let mut binom = vec![vec![0u64; pits + 1]; m + 1];
        for a in 0..=m {
            binom[a][0] = 1;
            for b in 1..=pits.min(a) {
                binom[a][b] = binom[a - 1][b - 1] + if b < a { binom[a - 1][b] } else { 0 };
            }
        }
        let mut offset = vec![0u64; max_stones as usize + 2];
        for t in 0..=max_stones as usize {
            // Compositions of exactly t into `pits` parts: C(t+pits-1, pits-1).
            offset[t + 1] = offset[t] + binom[t + pits - 1][pits - 1];
        }
        let total = offset[max_stones as usize + 1];
        Endgame {
            pits,
            max_stones,
            binom,
            offset,
            values: vec![UNKNOWN; total as usize],
        }
    }

    fn rank(&self, pits: &[u8]) -> usize {
        let total: usize = pits.iter().map(|&c| c as usize).sum();
        let mut r = self.offset[total];
        let mut left = total;
        let m = self.pits;
        for (j, &c) in pits[..m - 1].iter().enumerate() {
            // Compositions whose pit j holds fewer than c: for each x < c,
            // the rest (left - x) spread over m-j-1 pits.
            let parts = m - j - 1;
            for x in 0..c as usize {
                let rest = left - x;
                r += self.binom[rest + parts - 1][parts - 1];
            }
            left -= c as usize;
        }
        r as usize
    }

    /// Exact future value of the position whose pits (mover's n, then the
    /// opponent's n) are `pits`, by plain negamax memoised here.
    fn value(&mut self, pits: &[u8], n: usize, rules: Rules) -> i32 {
        let r = self.rank(pits);
        let v = self.values[r];
        if v != UNKNOWN {
            return v as i32;
        }
        let len = 2 * n + 1;
        let mut best = i32::MIN;
        for from in 0..n {
            if pits[from] == 0 {
                continue;
            }
            let mut ring = [0u8; CYCLE_CAP];
            ring[..n].copy_from_slice(&pits[..n]);
            ring[n + 1..len].copy_from_slice(&pits[n..2 * n]);
            let end = pick::play(&mut ring[..len], from, rules);
            let gain = ring[n] as i32;
            ring[n] = 0;
            let own = sum(&ring[..n]) as i32;
            let opp = sum(&ring[n + 1..len]) as i32;
            let v = if own == 0 || opp == 0 {
                gain + own - opp
            } else {
                let mut child = [0u8; CYCLE_CAP];
                if end == PickEnd::FreeTurn {
                    child[..n].copy_from_slice(&ring[..n]);
                    child[n..2 * n].copy_from_slice(&ring[n + 1..len]);
                    gain + self.value(&child[..2 * n], n, rules)
                } else {
                    child[..n].copy_from_slice(&ring[n + 1..len]);
                    child[n..2 * n].copy_from_slice(&ring[..n]);
                    gain - self.value(&child[..2 * n], n, rules)
                }
            };
            best = best.max(v);
        }
        self.values[r] = best as i8;
        best
    }
}

/// Solve `state` exactly with a fresh [`Solver`]: the entry point for a CLI
/// or a server. Refuses before starting when the table would exceed the cap.
pub fn solve(
    state: &GameState,
    opts: &SolveOptions,
    cancel: &AtomicBool,
) -> Result<SolveResult, GameError> {
    let mut solver = Solver::new(state.rules(), state.pits_per_side(), opts.clone())?;
    Ok(solver.solve(state, cancel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endgame_rank_is_dense() {
        let db = Endgame::new(4, 3);
        let mut seen = vec![false; db.values.len()];
        for a in 0..=3u8 {
            for b in 0..=3 - a {
                for c in 0..=3 - a - b {
                    for d in 0..=3 - a - b - c {
                        let r = db.rank(&[a, b, c, d]);
                        assert!(!seen[r]);
                        seen[r] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
