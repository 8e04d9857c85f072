//! A puzzle session: the rules of trying a puzzle, apart from any screen.
//!
//! The terminal player ([`super::play`]) and the web app's trainer both
//! drive this one state machine, so that a pick, a hint, an undo and the
//! verdict mean the same everywhere. A session knows every solution of its
//! puzzle when they can be listed within a time budget (puzzles are small;
//! the famous any-hole 2x6x4 start has 1,440 and takes seconds), and then
//! says at once which pick left every solution, and gives hints from the
//! solution that goes on from where the player is.

use super::{Collection, Puzzle, PuzzleError};
use rules::{Board, Line, PickError, PickTrace, Pit, Turn};
use std::sync::atomic::AtomicBool;
use sweep::{solve, Listing, SweepOptions};

/// How a puzzle attempt ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Reached the goal without a hint or the solution.
    Solved,
    /// Reached the goal after a hint, an undo of a wrong pick or a look at
    /// the solution.
    Helped,
    /// The turn ended short of the goal.
    Failed,
}

/// What a pick did, for the screen to tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The pit picked.
    pub pit: Pit,
    /// Its place in the turn, from 1.
    pub place: usize,
    /// What happened in it.
    pub trace: PickTrace,
    /// True while the player may pick again.
    pub to_move: bool,
    /// True when this pick left every solution (known only when the
    /// solutions could be listed): the goal cannot be reached from here.
    pub left_solutions: bool,
    /// How the attempt ended, when the turn is over.
    pub outcome: Option<Outcome>,
}

/// One attempt at one puzzle.
#[derive(Clone, Debug)]
pub struct Session {
    puzzle: Puzzle,
    start: Board,
    turn: Turn,
    history: Vec<Turn>,
    /// Every solution, when they could be listed in time.
    solutions: Option<Vec<Line>>,
    helped: bool,
    /// The place of the pick that left every solution, if one did.
    left_at: Option<usize>,
    outcome: Option<Outcome>,
}

impl Session {
    /// Start `puzzle` of `collection`, listing its solutions within
    /// `seconds` (or `stop`); without them the session still plays, and
    /// only the end of the turn says whether the goal was reached.
    pub fn new(
        collection: &Collection,
        puzzle: &Puzzle,
        seconds: f64,
        stop: &AtomicBool,
    ) -> Result<Session, PuzzleError> {
        let start = super::position(puzzle)?;
        let opts = SweepOptions {
            listing: Listing::All,
            seconds: Some(seconds),
            cancel: Some(stop),
            ..Default::default()
        };
        let solutions = match solve(&start, collection.rules, &opts) {
            Ok(s) if s.best_store == puzzle.goal_store => Some(s.optimal),
            Ok(_) => None,
            Err(e) if e.is_deadline() || e.is_cancelled() => None,
            Err(e) => return Err(e.into()),
        };
        Ok(Session {
            puzzle: puzzle.clone(),
            start,
            turn: Turn::new(start, collection.rules),
            history: Vec::new(),
            solutions,
            helped: false,
            left_at: None,
            outcome: None,
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The board now.
    pub fn board(&self) -> &Board {
        self.turn.board()
    }

    /// The picks made so far.
    pub fn picks(&self) -> &[Pit] {
        self.turn.picks()
    }

    /// True when every solution is known (hints and early warnings work).
    pub fn knows_solutions(&self) -> bool {
        self.solutions.is_some()
    }

    /// True once a hint, the solution or an undo of a wrong pick was used.
    pub fn helped(&self) -> bool {
        self.helped
    }

    /// How the attempt ended, once the turn is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// True when the picks so far begin some solution (unknown: true).
    fn on_track(&self) -> bool {
        let picks = self.turn.picks();
        self.solutions
            .as_ref()
            .is_none_or(|all| all.iter().any(|l| l.picks().starts_with(picks)))
    }

    /// Pick pit `number`; an illegal pick changes nothing.
    pub fn pick(&mut self, number: u32) -> Result<Picked, PickError> {
        let was_on_track = self.on_track();
        let before = self.turn.clone();
        self.turn.pick(number)?;
        self.history.push(before);
        let place = self.turn.picks().len();
        let left_solutions = was_on_track && !self.on_track();
        if left_solutions {
            self.left_at = Some(place);
        }
        let to_move = self.turn.to_move();
        if !to_move {
            let reached = u32::from(self.turn.board().store()) >= self.puzzle.goal_store;
            self.outcome = Some(match (reached, self.helped) {
                (true, false) => Outcome::Solved,
                (true, true) => Outcome::Helped,
                (false, _) => Outcome::Failed,
            });
        }
        Ok(Picked {
            pit: *self.turn.picks().last().expect("a pick was made"),
            place,
            trace: self.turn.last_trace().expect("a pick was made").clone(),
            to_move,
            left_solutions,
            outcome: self.outcome,
        })
    }

    /// The pick that left every solution, as (place from 1, pit), if one did.
    pub fn left_at(&self) -> Option<(usize, Pit)> {
        self.left_at.map(|k| (k, self.turn.picks()[k - 1]))
    }

    /// The next pick of a solution that goes on from here, and the attempt
    /// counts as helped. `None` when no solution goes on from here (undo
    /// first) or the solutions are not known.
    pub fn hint(&mut self) -> Option<Pit> {
        let picks = self.turn.picks();
        let next = self.solutions.as_ref()?.iter().find_map(|l| {
            (l.len() > picks.len() && l.picks().starts_with(picks)).then(|| l.picks()[picks.len()])
        })?;
        self.helped = true;
        Some(next)
    }

    /// Take back the last pick (a finished turn is reopened); false when
    /// there is none. Taking back a pick that left every solution counts
    /// as help.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.history.pop() else {
            return false;
        };
        if self.left_at.is_some_and(|k| k > before.picks().len()) {
            self.left_at = None;
            self.helped = true;
        }
        self.turn = before;
        self.outcome = None;
        true
    }

    /// Back to the start of the puzzle (help used so far still counts).
    pub fn restart(&mut self) {
        if self.left_at.is_some() {
            self.helped = true;
        }
        self.turn = Turn::new(self.start, self.turn.rules());
        self.history.clear();
        self.left_at = None;
        self.outcome = None;
    }

    /// The puzzle's solution; the attempt counts as helped.
    pub fn solution(&mut self) -> &Line {
        self.helped = true;
        &self.puzzle.solution
    }
}

/// How a series of puzzles went: solved, solved with help, failed, and
/// left before the end.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Solved without help.
    pub solved: usize,
    /// Solved with help.
    pub helped: usize,
    /// Turns that ended short of the goal (each try counts once).
    pub failed: usize,
    /// Puzzles left before they were solved.
    pub skipped: usize,
}

impl Tally {
    /// Count one outcome.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Solved => self.solved += 1,
            Outcome::Helped => self.helped += 1,
            Outcome::Failed => self.failed += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Rules;

    fn collection() -> Collection {
        let c: Collection = crate::parse(include_str!("../../../puzzles/avalanche.json")).unwrap();
        assert_eq!(c.rules, Rules::AVALANCHE);
        c
    }

    #[test]
    fn playing_the_solution_solves_and_a_hint_marks_help() {
        let c = collection();
        let stop = AtomicBool::new(false);
        let p = c.puzzles.iter().find(|p| p.length >= 3).unwrap();
        let mut s = Session::new(&c, p, 30.0, &stop).unwrap();
        assert!(s.knows_solutions());
        for (i, pit) in p.solution.picks().iter().enumerate() {
            let picked = s.pick(u32::from(pit.number())).unwrap();
            assert!(!picked.left_solutions);
            assert_eq!(picked.to_move, i + 1 < p.length);
        }
        assert_eq!(s.outcome(), Some(Outcome::Solved));
        s.restart();
        assert_eq!(s.hint(), Some(p.solution.picks()[0]));
        for pit in p.solution.picks() {
            s.pick(u32::from(pit.number())).unwrap();
        }
        assert_eq!(s.outcome(), Some(Outcome::Helped));
    }

    #[test]
    fn a_wrong_pick_is_named_at_once_and_undo_takes_it_back() {
        let c = collection();
        let stop = AtomicBool::new(false);
        // A unique puzzle with a legal first pick that is not the solution's.
        let (p, wrong) = c
            .puzzles
            .iter()
            .filter(|p| p.solutions_count == "1" && p.length >= 2)
            .find_map(|p| {
                let board = super::super::position(p).unwrap();
                let first = p.solution.picks()[0];
                let other = board.legal_picks(c.rules).find(|&q| q != first);
                other.map(|q| (p, q))
            })
            .unwrap();
        let mut s = Session::new(&c, p, 30.0, &stop).unwrap();
        let picked = s.pick(u32::from(wrong.number())).unwrap();
        assert!(picked.left_solutions);
        assert_eq!(s.left_at(), Some((1, wrong)));
        assert_eq!(s.hint(), None, "no solution goes on from a wrong pick");
        assert!(s.undo());
        assert_eq!(s.picks(), &[]);
        assert_eq!(s.left_at(), None);
        assert!(s.helped());
        assert_eq!(s.hint(), Some(p.solution.picks()[0]));
        assert!(!s.undo() || s.picks().is_empty());
    }

    #[test]
    fn an_illegal_pick_changes_nothing() {
        let c = collection();
        let stop = AtomicBool::new(false);
        let p = &c.puzzles[0];
        let mut s = Session::new(&c, p, 30.0, &stop).unwrap();
        assert!(s.pick(99).is_err());
        assert!(s.picks().is_empty());
        assert_eq!(s.outcome(), None);
    }
}
