//! Game review: every turn of a finished (or stopped) game graded by the
//! stones it gave away, proved by the exact solver.
//!
//! A chess engine can only estimate how much a move cost; here the books,
//! the endgame database and the solver settle the value of every position
//! of a game, so a grade is a proof or is not given.
//!
//! # One value a position serves two turns
//!
//! The game is a list of positions `P_0 … P_T` (`P_k` before turn `k + 1`,
//! a turn being the whole sequence of picks of one player until the move
//! passes or the game ends). The value of `P_k` for its mover (their final
//! store minus the opponent's with best play, as `game solve` gives it) is
//! the value of the best turn there; the value of `P_{k+1}`, seen from
//! `P_k`'s mover, is the value of the turn that was played. So one solve of
//! each position grades both the turn before it and the turn after it, and
//! the stones a turn gave away are `value(P_k) − value(played)`, never
//! negative.
//!
//! Positions are solved from the last to the first: the end of a game has
//! few stones and is proved at once (often by the endgame database), so
//! the last turns are graded within seconds and the grades fill in towards
//! the start, each solve finding the table filled by the later positions'.
//! A position an opening book holds is exact with no search; a finished
//! position is its stores. Each solve starts (MTD(f)'s first test) at the
//! played turn's value, known by then, which is the value itself whenever
//! the turn played was a best one.
//!
//! The budget is a budget a position on average: every position is
//! solved once within it, last first, and then the positions still open
//! share what the easy ones left (most end positions are proved in
//! milliseconds), again last first, until all are proved or the whole
//! budget is spent. A solve stopped by its budget leaves proven bounds,
//! which the next pass starts within; after every solve the open
//! positions also take the bounds the table has proved for them.
//! A turn with bounds gets a grade only when every value within them gives
//! the same grade ([`TurnReview::grade`]).

use crate::analyze::Budget;
use crate::endgame::EndgameDb;
use crate::error::GameError;
use crate::solve::{SolveOptions, Solver};
use crate::state::{GameState, Side};
use base::clock::Instant;
use rules::Pit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A grade of one turn, by the stones it gave away against the best turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// No stone lost: a best turn.
    Best,
    /// One stone.
    Good,
    /// Two or three stones.
    Inaccuracy,
    /// Four to seven stones.
    Mistake,
    /// Eight stones or more.
    Blunder,
}

impl Grade {
    /// Every grade, best first.
    pub const ALL: [Grade; 5] = [
        Grade::Best,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
    ];

    /// The grade of a turn that gave away `lost` stones (0 or more): best
    /// 0, good 1, inaccuracy 2–3, mistake 4–7, blunder 8 or more. A stone
    /// is the unit of the game's result; the steps double, as a player
    /// feels a loss by its order more than by its count.
    pub fn of(lost: i32) -> Grade {
        match lost {
            i32::MIN..=0 => Grade::Best,
            1 => Grade::Good,
            2..=3 => Grade::Inaccuracy,
            4..=7 => Grade::Mistake,
            _ => Grade::Blunder,
        }
    }

    /// The grade's name, as the report and the JSON spell it.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}

/// What is proved of a value: at least `low`, at most `high` (equal when
/// exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub low: i32,
    /// The value is at most this.
    pub high: i32,
}

impl Bounds {
    /// An exact value.
    pub fn exact(v: i32) -> Bounds {
        Bounds { low: v, high: v }
    }

    /// True when proved to one value.
    pub fn is_exact(self) -> bool {
        self.low == self.high
    }

    /// The same value from the other player's view.
    pub fn negated(self) -> Bounds {
        Bounds {
            low: -self.high,
            high: -self.low,
        }
    }

    /// What both say (each is proved, so they overlap; a gap would be a
    /// bug, and the first's stays).
    fn and(self, o: Bounds) -> Bounds {
        let (low, high) = (self.low.max(o.low), self.high.min(o.high));
        if low <= high {
            Bounds { low, high }
        } else {
            self
        }
    }
}

/// Where a position's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over there: the stores.
    End,
    /// A committed opening book.
    Book,
    /// The solver (its table, its endgame database).
    Solver,
}

/// What the review knows of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionValue {
    /// The value for the position's mover.
    pub bounds: Bounds,
    /// A best turn, when the solver or a book proved it (empty otherwise,
    /// and at the game's end).
    pub best_turn: Vec<Pit>,
    /// Where the value came from.
    pub source: Source,
    /// Picks searched for it.
    pub nodes: u64,
    /// Seconds spent on it.
    pub seconds: f64,
}

/// One turn of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnReview {
    /// The turn's number in the game, from 1.
    pub number: usize,
    /// Who played it.
    pub by: Side,
    /// Its picks (pit numbers from the mover's view).
    pub picks: Vec<Pit>,
    /// The position before it.
    pub before: GameState,
    /// The value of the turn played, for its mover, with best play after it.
    pub played: Bounds,
    /// The value of the best turn there (the position's value).
    pub best: Bounds,
    /// A best turn, when proved (empty otherwise).
    pub best_turn: Vec<Pit>,
    /// The stones the turn gave away: best − played, proved within these.
    pub lost: Bounds,
}

impl TurnReview {
    /// The grade, when proved: every number of stones lost within
    /// [`TurnReview::lost`] gives it.
    pub fn grade(&self) -> Option<Grade> {
        let g = Grade::of(self.lost.low);
        (g == Grade::of(self.lost.high)).then_some(g)
    }
}

/// When the game's result was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// Best play from the first position already gives the game's result:
    /// no turn changed it.
    FromStart,
    /// The result was settled by this turn (its number, from 1): the
    /// result with best play changed there for the last time.
    AtTurn(usize),
    /// Not proved: a position that could matter has only bounds that
    /// allow more than one result.
    Unproved,
}

/// A review so far: the game's positions and what is known of each.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// `P_0 … P_T`: the start, then the position after every turn.
    pub positions: Vec<GameState>,
    /// The picks of every turn (turn `k + 1` leads from `P_k` to `P_{k+1}`).
    pub picks: Vec<Vec<Pit>>,
    /// What is known of each position (none: not reviewed yet).
    pub values: Vec<Option<PositionValue>>,
    /// Picks searched in all.
    pub nodes: u64,
    /// Wall time so far.
    pub elapsed: Duration,
    /// True when the cancel flag stopped it.
    pub cancelled: bool,
}

/// Each player's record over the turns graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Accuracy {
    /// Turns the player played.
    pub turns: usize,
    /// Of them, turns with a proved grade.
    pub graded: usize,
    /// Of them, best turns.
    pub best: usize,
    /// Stones given away over the graded turns whose loss is exact.
    pub lost: i32,
    /// The count of each grade, in [`Grade::ALL`]'s order.
    pub grades: [usize; 5],
}

impl Accuracy {
    /// The share of the graded turns that were best, in percent (none
    /// when no turn is graded).
    pub fn percent(&self) -> Option<f64> {
        (self.graded > 0).then(|| 100.0 * self.best as f64 / self.graded as f64)
    }
}

/// Play `turns` from `start`: every position of the game, the start first.
/// An illegal turn is refused with its number (from 1) and why.
pub fn replay_turns(start: &GameState, turns: &[Vec<Pit>]) -> Result<Vec<GameState>, GameError> {
    let mut out = vec![*start];
    let mut s = *start;
    for (k, picks) in turns.iter().enumerate() {
        if s.is_over() {
            return Err(GameError::IllegalTurn(format!(
                "turn {} ({}): the game was over after turn {k}",
                k + 1,
                pits_text(picks)
            )));
        }
        s.play_turn(picks).map_err(|e| {
            let why = match e {
                GameError::IllegalTurn(why) => why,
                e => e.to_string(),
            };
            GameError::IllegalTurn(format!("turn {} ({}): {why}", k + 1, pits_text(picks)))
        })?;
        out.push(s);
    }
    Ok(out)
}

fn pits_text(picks: &[Pit]) -> String {
    picks
        .iter()
        .map(|p| p.number().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Review {
    /// A review of `turns` from `start` with nothing searched yet: the
    /// finished position and the book's positions known at once (books
    /// when `book`).
    pub fn new(start: &GameState, turns: &[Vec<Pit>], book: bool) -> Result<Review, GameError> {
        let positions = replay_turns(start, turns)?;
        let values = positions
            .iter()
            .map(|p| {
                let (bounds, source) = if p.is_over() {
                    (Bounds::exact(p.mover_minus_opponent()), Source::End)
                } else {
                    let v = crate::book::book_value(p).filter(|_| book)?;
                    (Bounds::exact(v), Source::Book)
                };
                // A book short of its frontier ranks every turn: its best.
                let best_turn = match crate::book::lookup(p).filter(|_| book) {
                    Some(a) if a.exact() && a.value() == bounds.low => a.turns[0].picks.clone(),
                    _ => vec![],
                };
                Some(PositionValue {
                    bounds,
                    best_turn,
                    source,
                    nodes: 0,
                    seconds: 0.0,
                })
            })
            .collect();
        Ok(Review {
            positions,
            picks: turns.to_vec(),
            values,
            nodes: 0,
            elapsed: Duration::ZERO,
            cancelled: false,
        })
    }

    /// `v`, a value for `from`'s mover, for `to`'s mover.
    fn seen(from: &GameState, to: &GameState, v: Bounds) -> Bounds {
        if from.mover() == to.mover() {
            v
        } else {
            v.negated()
        }
    }

    /// Turn `number` (from 1) reviewed, once both its positions are.
    pub fn turn(&self, number: usize) -> Option<TurnReview> {
        let k = number.checked_sub(1)?;
        let (before, after) = (self.positions.get(k)?, self.positions.get(k + 1)?);
        let (b, a) = (self.values[k].as_ref()?, self.values[k + 1].as_ref()?);
        let mut played = Review::seen(after, before, a.bounds);
        let mut best = b.bounds;
        // A turn is worth at most the best one, which is worth at least it.
        played = played.and(Bounds {
            low: i32::MIN,
            high: best.high,
        });
        best = best.and(Bounds {
            low: played.low,
            high: i32::MAX,
        });
        // The solver's proved best turn was the one played: nothing lost.
        if b.bounds.is_exact() && !b.best_turn.is_empty() {
            let mut s = *before;
            if s.play_turn(&b.best_turn).is_ok() && s == *after {
                played = best;
            }
        }
        let lost = Bounds {
            low: (best.low - played.high).max(0),
            high: (best.high - played.low).max(0),
        };
        Some(TurnReview {
            number,
            by: before.mover(),
            picks: self.picks[k].clone(),
            before: *before,
            played,
            best,
            best_turn: b.best_turn.clone(),
            lost,
        })
    }

    /// Every turn reviewed so far, in the game's order.
    pub fn turns(&self) -> Vec<TurnReview> {
        (1..=self.picks.len())
            .filter_map(|n| self.turn(n))
            .collect()
    }

    /// The turns reviewed so far and the turns in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.turns().len(), self.picks.len())
    }

    /// `side`'s record over its turns.
    pub fn accuracy(&self, side: Side) -> Accuracy {
        let mut a = Accuracy::default();
        for (k, p) in self.positions[..self.picks.len()].iter().enumerate() {
            if p.mover() != side {
                continue;
            }
            a.turns += 1;
            let Some(t) = self.turn(k + 1) else { continue };
            let Some(g) = t.grade() else { continue };
            a.graded += 1;
            a.grades[g as usize] += 1;
            if g == Grade::Best {
                a.best += 1;
            }
            if t.lost.is_exact() {
                a.lost += t.lost.low;
            }
        }
        a
    }

    /// Each position's value from the first player's view (bounds; none
    /// where not reviewed yet): the game's graph.
    pub fn graph(&self) -> Vec<Option<Bounds>> {
        self.positions
            .iter()
            .zip(&self.values)
            .map(|(p, v)| {
                let b = v.as_ref()?.bounds;
                Some(if p.mover() == Side::First {
                    b
                } else {
                    b.negated()
                })
            })
            .collect()
    }

    /// The turn that settled the result: the last turn before which best
    /// play gave another result (win, draw or loss for the first player)
    /// than the game's.
    pub fn decided(&self) -> Decided {
        // The result a position's bounds prove, from the first player's
        // view (-1, 0, 1), when they prove one.
        let result = |b: Option<Bounds>| {
            let b = b?;
            let (lo, hi) = (b.low.signum(), b.high.signum());
            (lo == hi).then_some(lo)
        };
        let graph = self.graph();
        let Some(end) = graph.last().and_then(|b| result(*b)) else {
            return Decided::Unproved;
        };
        for k in (0..graph.len() - 1).rev() {
            match result(graph[k]) {
                Some(r) if r == end => {}
                Some(_) => return Decided::AtTurn(k + 1),
                None => return Decided::Unproved,
            }
        }
        Decided::FromStart
    }

    /// True when every turn has a proved grade.
    pub fn complete(&self) -> bool {
        self.turns().iter().filter(|t| t.grade().is_some()).count() == self.picks.len()
    }
}

/// How a review runs.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// The solver's options (its table fitted to the game's start).
    pub solve: SolveOptions,
    /// The budget a position on average: the whole review has it times
    /// the positions to solve (see the module docs).
    pub budget: Budget,
}

/// The progress callback: the review so far, after each position.
pub type ReviewReport<'a> = &'a (dyn Fn(&Review) + Sync);

/// Review the game of `turns` from `start`: every position solved within
/// `opts.budget`, from the last to the first, on one solver (with `db`
/// when given). `cancel` stops it with what is done; `report` hears of
/// each position as it is settled (the finished and booked ones first).
pub fn review(
    start: &GameState,
    turns: &[Vec<Pit>],
    opts: &ReviewOptions,
    db: Option<&EndgameDb>,
    cancel: &AtomicBool,
    report: Option<ReviewReport<'_>>,
) -> Result<Review, GameError> {
    let t0 = Instant::now();
    let mut r = Review::new(start, turns, opts.solve.book)?;
    if let Some(report) = report {
        report(&r);
    }
    if r.values.iter().all(Option::is_some) && unnamed(&r).is_empty() {
        r.elapsed = t0.elapsed();
        return Ok(r);
    }
    let (rules, n) = (start.rules(), start.pits_per_side());
    let solve = opts.solve.clone();
    let solver = Solver::builder()
        .options(solve)
        .endgame(db)
        .cancel(cancel)
        .build(rules, n)?;
    let Some(mut solver) = solver else {
        r.cancelled = true;
        r.elapsed = t0.elapsed();
        return Ok(r);
    };
    // The whole budget: the budget a position, for each to search.
    let searched = r.values.iter().filter(|v| v.is_none()).count() as f64;
    let total = match opts.budget {
        Budget::Seconds(s) => Budget::Seconds(s * searched),
        Budget::Nodes(n) => Budget::Nodes(n.saturating_mul(searched as u64)),
    };
    // First every position once, within its share; then the open ones
    // again, last first, sharing what the easy ones left, until every
    // one is proved or the whole budget is spent.
    let mut first = true;
    loop {
        let open: Vec<usize> = (0..r.positions.len())
            .rev()
            .filter(|&k| r.values[k].as_ref().is_none_or(|v| !v.bounds.is_exact()))
            .collect();
        if open.is_empty() {
            break;
        }
        let share = if first {
            Some(opts.budget)
        } else {
            left(total, &r, t0).map(|b| b.split(open.len()))
        };
        let Some(share) = share else { break };
        first = false;
        for k in open {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            settle(&mut r, k, &mut solver, share, cancel);
            r.elapsed = t0.elapsed();
            if let Some(report) = report {
                report(&r);
            }
        }
        if cancel.load(Ordering::Relaxed) {
            break;
        }
    }
    name_best_turns(&mut r, &mut solver, opts.budget, cancel, report);
    r.cancelled |= cancel.load(Ordering::Relaxed);
    r.elapsed = t0.elapsed();
    Ok(r)
}

/// The positions before a turn that gave stones away whose value is
/// proved but whose best turn is not named: a book's frontier ranks no
/// turns, and a value the table proved on the way comes without one.
fn unnamed(r: &Review) -> Vec<usize> {
    (0..r.picks.len())
        .filter(|&k| {
            let named = r.values[k]
                .as_ref()
                .is_none_or(|v| !v.bounds.is_exact() || !v.best_turn.is_empty());
            !named && r.turn(k + 1).is_some_and(|t| t.lost.low > 0)
        })
        .collect()
}

/// A best turn for each of [`unnamed`]'s positions, searched at its known
/// value within `budget` each, so that every turn that gave stones away
/// shows what was better (when the budget allows: else none, as before).
fn name_best_turns(
    r: &mut Review,
    solver: &mut Solver,
    budget: Budget,
    cancel: &AtomicBool,
    report: Option<ReviewReport<'_>>,
) {
    for k in unnamed(r) {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let t = Instant::now();
        set_budget(solver, budget, t);
        let Some(v) = r.values[k].as_mut() else {
            continue;
        };
        let (turn, nodes) = solver.turn_reaching(&r.positions[k], v.bounds.low, cancel);
        v.best_turn = turn;
        v.nodes += nodes;
        v.seconds += t.elapsed().as_secs_f64();
        r.nodes += nodes;
        if let Some(report) = report {
            report(r);
        }
    }
}

/// The solver's limits for a search of `budget` begun at `t`.
fn set_budget(solver: &mut Solver, budget: Budget, t: Instant) {
    match budget {
        Budget::Nodes(nodes) => solver.set_limits(Some(nodes), None),
        Budget::Seconds(s) => solver.set_limits(None, Some(t + Duration::from_secs_f64(s))),
    }
}

/// What is left of the whole budget `total` of review `r` begun at `t0`;
/// none once (nearly) spent.
fn left(total: Budget, r: &Review, t0: Instant) -> Option<Budget> {
    match total {
        Budget::Seconds(s) => {
            let rest = s - t0.elapsed().as_secs_f64();
            (rest >= 0.05).then_some(Budget::Seconds(rest))
        }
        Budget::Nodes(n) => {
            let rest = n.saturating_sub(r.nodes);
            (rest >= 4_096).then_some(Budget::Nodes(rest))
        }
    }
}

/// Solve position `k` of `r` within `budget`, then narrow every open
/// position's bounds by what the table has proved.
fn settle(r: &mut Review, k: usize, solver: &mut Solver, budget: Budget, cancel: &AtomicBool) {
    let t = Instant::now();
    let p = r.positions[k];
    set_budget(solver, budget, t);
    // MTD(f) starts at the played turn's value: the value itself when the
    // turn played was a best one.
    let guess = match r.values.get(k + 1).and_then(Option::as_ref) {
        Some(v) => {
            let b = Review::seen(&r.positions[k + 1], &p, v.bounds);
            b.low + (b.high - b.low) / 2
        }
        None => p.mover_minus_opponent(),
    };
    // Within what an earlier pass proved of it.
    let known = r.values[k].as_ref().map(|v| v.bounds);
    let guess = known.map_or(guess, |b| guess.clamp(b.low, b.high));
    let s = solver.solve_near(&p, guess, cancel);
    r.nodes += s.nodes;
    let mut bounds = Bounds {
        low: s.lower,
        high: s.upper,
    };
    if s.exact {
        bounds = Bounds::exact(s.value);
    }
    if let Some(b) = known {
        bounds = bounds.and(b);
    }
    let seconds = t.elapsed().as_secs_f64() + r.values[k].as_ref().map_or(0.0, |v| v.seconds);
    let nodes = s.nodes + r.values[k].as_ref().map_or(0, |v| v.nodes);
    r.values[k] = Some(PositionValue {
        bounds,
        best_turn: if s.exact { s.best_turn } else { vec![] },
        source: Source::Solver,
        nodes,
        seconds,
    });
    for (j, v) in r.values.iter_mut().enumerate() {
        let Some(v) = v.as_mut().filter(|v| !v.bounds.is_exact()) else {
            continue;
        };
        if let Some((lo, hi)) = solver.proven_bounds(&r.positions[j]) {
            v.bounds = v.bounds.and(Bounds { low: lo, high: hi });
            if v.bounds.is_exact() {
                v.best_turn.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_the_documented_steps() {
        let want = [
            (0, Grade::Best),
            (1, Grade::Good),
            (2, Grade::Inaccuracy),
            (3, Grade::Inaccuracy),
            (4, Grade::Mistake),
            (7, Grade::Mistake),
            (8, Grade::Blunder),
            (40, Grade::Blunder),
        ];
        for (lost, g) in want {
            assert_eq!(Grade::of(lost), g, "{lost} stones");
        }
    }

    #[test]
    fn bounds_that_straddle_two_grades_give_none() {
        let t = |low, high| TurnReview {
            number: 1,
            by: Side::First,
            picks: vec![],
            before: GameState::start(3, 3, rules::Preset::Kalah.rules()).unwrap(),
            played: Bounds::exact(0),
            best: Bounds::exact(0),
            best_turn: vec![],
            lost: Bounds { low, high },
        };
        assert_eq!(t(4, 7).grade(), Some(Grade::Mistake));
        assert_eq!(t(3, 4).grade(), None);
        assert_eq!(t(8, 30).grade(), Some(Grade::Blunder));
    }
}
