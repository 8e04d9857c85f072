//! The best turn and the principal variation: each pick of a turn chosen
//! by searching every legal pick, so that the choice does not depend on
//! which pass of MTD(f) filled the table.

use super::search::{ready, stones};
use super::{Limits, Solver, TO_THE_END};
use crate::state::{GameState, PickOutcome};
use rules::Pit;
use std::sync::atomic::AtomicBool;
impl Solver {
    /// The best turn from `state` looking `depth` turns ahead (`None`: to
    /// the end of the game, exact), and its value (mover's final store minus
    /// the opponent's when exact; the stores after `depth` turns otherwise).
    /// Each pick of the turn is chosen by searching every legal pick, so
    /// the choice does not depend on which pass of MTD(f) filled the table;
    /// ties go to the lowest pit number. Returns no picks once the game is
    /// over or when `cancel` stopped the search.
    pub fn best_turn(
        &mut self,
        state: &GameState,
        depth: Option<u32>,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>) {
        self.stopped = false;
        let n = self.n;
        let depth = depth.map_or(TO_THE_END, |d| d.clamp(1, TO_THE_END as u32 - 1) as u8);
        let ready = |s: &GameState| ready(n, s);
        // Warm the table, shallow first, for the move ordering.
        let (pos, tl) = ready(state);
        let in_pits = stones(&pos, n) as i32;
        if depth != TO_THE_END {
            let mut g = 0;
            for d in 1..=depth {
                g = self.mtdf(&pos, g, in_pits, d, tl, cancel).0;
            }
        }
        if depth == TO_THE_END {
            return self.best_exact_turn(state, None, cancel);
        }
        let mut picks = Vec::new();
        let mut s = *state;
        let mut total = 0;
        let me = state.mover();
        while !s.is_over() && !self.stopped && (picks.is_empty() || s.mover() == me) {
            let before = s.mover_minus_opponent();
            let mut chosen: Option<(i32, Pit, GameState)> = None;
            for p in s.legal_picks() {
                let mut c = s;
                let out = c.play_unchecked(p);
                let v = if out == PickOutcome::GameOver {
                    c.store(me) as i32 - c.store(me.other()) as i32 - before
                } else {
                    let (cpos, ctl) = ready(&c);
                    let cs = stones(&cpos, n) as i32;
                    let d = if out == PickOutcome::FreeTurn || depth == TO_THE_END {
                        depth
                    } else {
                        depth - 1
                    };
                    let future = if d == 0 {
                        0
                    } else {
                        let (_, (lo, hi)) = self.mtdf(&cpos, 0, cs, d, ctl, cancel);
                        (lo + hi).div_euclid(2)
                    };
                    let gained = c.store(me) as i32 - c.store(me.other()) as i32 - before;
                    if out == PickOutcome::FreeTurn {
                        gained + future
                    } else {
                        gained - future
                    }
                };
                if self.stopped {
                    break;
                }
                if chosen.as_ref().is_none_or(|(b, _, _)| v > *b) {
                    chosen = Some((v, p, c));
                }
            }
            let Some((v, p, c)) = chosen else { break };
            if picks.is_empty() {
                total = before + v;
            }
            picks.push(p);
            s = c;
            if s.mover() != me || s.is_over() {
                break;
            }
        }
        if self.stopped {
            picks.clear();
        }
        (total, picks)
    }

    /// [`Solver::best_turn`] deepened a turn at a time, from 1 up to
    /// `depth` turns, within about `picks` picks in all (the budget is
    /// checked every 4,096 picks, as a cancel is): the turn of the deepest
    /// search that finished, its value and that depth. A budget of picks
    /// rather than of seconds keeps the choice the same on every machine
    /// and under any load, as every agent's is, while bounding the time a
    /// turn takes. The first depth always finishes, whatever the budget,
    /// so that there is a turn to play; `cancel` stops it with no picks.
    pub fn best_turn_within(
        &mut self,
        state: &GameState,
        depth: u32,
        picks: u64,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>, u32) {
        let mut kept = (0, Vec::new(), 0);
        // The picks of the whole turn, every depth's (the progress line
        // shows them growing).
        self.nodes = 0;
        for d in 1..=depth.max(1) {
            if d > 1 {
                self.set_limits(Some(picks), None);
            }
            let (v, turn) = self.best_turn(state, Some(d), cancel);
            self.limits = Limits::NONE;
            if turn.is_empty() {
                break;
            }
            kept = (v, turn, d);
            if self.nodes >= picks {
                break;
            }
        }
        kept
    }

    /// [`Solver::best_turn`] to the end of the game. The exact value of the
    /// position is found once; then each pick, in pit order, is tested with
    /// one null-window search for reaching that value, and the first that
    /// does is played (the lowest optimal pit, as `best_turn` promises).
    /// Exact values have no search instability, so some pick always passes;
    /// valuing every pick with a whole MTD(f) instead made the principal
    /// variation of Kalah(6,3) cost four times the solve itself.
    /// `value`, when known (the principal variation knows each position's
    /// value from the one before), is MTD(f)'s first guess: from the value
    /// itself the proof takes one or two passes, where a guess of no more
    /// gains took many on avalanche, whose values are far from it.
    /// Searched on the solver's threads ([`Solver::on_threads`]).
    pub(super) fn best_exact_turn(
        &mut self,
        state: &GameState,
        value: Option<i32>,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>) {
        self.on_threads(|me| me.best_exact_turn_here(state, value, cancel))
    }

    /// [`Solver::best_exact_turn`] on the threads it runs on.
    fn best_exact_turn_here(
        &mut self,
        state: &GameState,
        value: Option<i32>,
        cancel: &AtomicBool,
    ) -> (i32, Vec<Pit>) {
        let n = self.n;
        let ready = |s: &GameState| ready(n, s);
        let me = state.mover();
        let mut picks = Vec::new();
        if state.is_over() {
            return (0, picks);
        }
        let (pos, tl) = ready(state);
        let guess = value.map_or(0, |v| v - state.mover_minus_opponent());
        let (_, (lo, hi)) = self.mtdf(&pos, guess, stones(&pos, n) as i32, TO_THE_END, tl, cancel);
        if self.stopped || lo != hi {
            return (0, picks);
        }
        // `future`: what the mover can still gain on the opponent from `s`.
        let total = state.mover_minus_opponent() + lo;
        let mut future = lo;
        let mut s = *state;
        'picks: loop {
            let before = s.mover_minus_opponent();
            for p in s.legal_picks() {
                let mut c = s;
                let out = c.play_unchecked(p);
                let gained = c.store(me) as i32 - c.store(me.other()) as i32 - before;
                let reaches = match out {
                    PickOutcome::GameOver => gained >= future,
                    _ => {
                        let (cpos, ctl) = ready(&c);
                        if out == PickOutcome::FreeTurn {
                            // gained + child >= future
                            let b = future - gained;
                            self.search(&cpos, b - 1, b, TO_THE_END, ctl, cancel) >= b
                        } else {
                            // gained - child >= future
                            let b = gained - future + 1;
                            self.search(&cpos, b - 1, b, TO_THE_END, ctl, cancel) < b
                        }
                    }
                };
                if self.stopped {
                    return (0, Vec::new());
                }
                if reaches {
                    picks.push(p);
                    s = c;
                    if out != PickOutcome::FreeTurn {
                        break 'picks;
                    }
                    future -= gained;
                    continue 'picks;
                }
            }
            // Unreachable with exact values; stop rather than loop.
            break;
        }
        (total, picks)
    }

    /// A turn that reaches `value`, the proved value of `state` for its
    /// mover, found within the limits set ([`Solver::set_limits`]), and
    /// the picks searched for it; no turn when they run out first. For a
    /// caller that knows the value from elsewhere: a book's frontier
    /// gives a position's value but ranks none of its turns.
    pub(crate) fn turn_reaching(
        &mut self,
        state: &GameState,
        value: i32,
        cancel: &AtomicBool,
    ) -> (Vec<Pit>, u64) {
        self.nodes = 0;
        self.stopped = false;
        let (_, turn) = self.best_exact_turn(state, Some(value), cancel);
        (turn, self.nodes)
    }

    /// The principal variation: the best turn of each side in turn, to the
    /// end of the game, each found as [`Solver::best_turn`] finds it (so
    /// the PV and the agents' choices are one code path), from `value`,
    /// the proved value of `state`: each turn's value gives the next
    /// position's, the first guess of its search. The first turn is found
    /// whatever the limits; the later ones within `limits` (the caller's
    /// budget, most of it spent on the proof), so that a budgeted call
    /// returns a line cut short rather than late: the rest of the line can
    /// cost as much as the proof. Stops short when `cancel` stops a search.
    pub(super) fn principal_variation(
        &mut self,
        state: &GameState,
        value: i32,
        limits: Limits,
        cancel: &AtomicBool,
    ) -> Vec<Vec<Pit>> {
        let mut pv = Vec::new();
        let mut s = *state;
        let mut value = value;
        while !s.is_over() {
            self.stopped = false;
            let (total, turn) = self.best_exact_turn(&s, Some(value), cancel);
            if turn.is_empty() {
                break;
            }
            let mover = s.mover();
            for &p in &turn {
                s.play_unchecked(p);
            }
            value = if s.mover() == mover { total } else { -total };
            pv.push(turn);
            self.limits = limits;
        }
        pv
    }
}
