//! A game between a person and the computer: whose turn it is, the
//! person's picks one at a time, the computer's turn, hints and undo.
//!
//! The terminal (`game play`) and a web page drive the same state machine,
//! so the rules of a session (what undo takes back, when the computer
//! moves) are written once.

use crate::agent::{Agent, AgentSpec};
use crate::analyze::{analyze, Analysis, Budget, Report};
use crate::endgame::EndgameDb;
use crate::error::{GameError, PickRefusal};
use crate::solve::{SolveOptions, SolveWatch};
use crate::state::{GameState, PickOutcome, Side};
use rules::pick::PickTrace;
use rules::Pit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One pick played, for people: the pit (as the picker numbers it), what
/// the pick did, and how it ended.
#[derive(Clone, Debug)]
pub struct Played {
    /// Who picked.
    pub by: Side,
    /// The pit, numbered from the picker's side.
    pub pit: Pit,
    /// What happened in the pick.
    pub trace: PickTrace,
    /// Free turn, turn over or game over.
    pub outcome: PickOutcome,
    /// The game after the pick.
    pub after: GameState,
}

/// A game of a person against an agent.
pub struct GameSession {
    state: GameState,
    person: Side,
    computer: Box<dyn Agent>,
    spec: AgentSpec,
    seed: u64,
    /// The game at the start of each of the person's turns, for undo.
    starts: Vec<GameState>,
    helped: bool,
    /// The database the `perfect` computer and its hints read.
    endgame: Option<EndgameDb>,
    /// The bytes each of its agents (the computer's, a hint's) may hold
    /// (see [`AgentSpec::build_within`]).
    memory_cap: u64,
}

impl GameSession {
    /// A game from `start` with the person playing `person` against `spec`
    /// (seeded with `seed`).
    pub fn new(
        start: GameState,
        person: Side,
        spec: AgentSpec,
        seed: u64,
    ) -> Result<GameSession, GameError> {
        GameSession::with_endgame(start, person, spec, seed, None)
    }

    /// [`GameSession::new`] with an endgame database for a `perfect`
    /// computer and for the hints (see [`AgentSpec::build_with`]).
    pub fn with_endgame(
        start: GameState,
        person: Side,
        spec: AgentSpec,
        seed: u64,
        endgame: Option<EndgameDb>,
    ) -> Result<GameSession, GameError> {
        GameSession::within(start, person, spec, seed, endgame, u64::MAX)
    }

    /// [`GameSession::with_endgame`] whose computer, and every agent a hint
    /// builds, holds its tables to `memory_cap` bytes where it can (a
    /// `perfect` computer on a page whose engine has little memory).
    pub fn within(
        start: GameState,
        person: Side,
        spec: AgentSpec,
        seed: u64,
        endgame: Option<EndgameDb>,
        memory_cap: u64,
    ) -> Result<GameSession, GameError> {
        Ok(GameSession {
            computer: spec.build_within(&start, seed, endgame.as_ref(), memory_cap)?,
            state: start,
            person,
            spec,
            seed,
            starts: Vec::new(),
            helped: false,
            endgame,
            memory_cap,
        })
    }

    /// Plays on with `db` as the computer's and the hints' endgame
    /// database (a larger one a background build has finished): the
    /// computer's agent is built again with it, so that it is read from
    /// this turn on.
    pub fn set_endgame(&mut self, db: EndgameDb) -> Result<(), GameError> {
        self.computer =
            self.spec
                .build_within(&self.state, self.seed, Some(&db), self.memory_cap)?;
        self.endgame = Some(db);
        Ok(())
    }

    /// The endgame database the computer and the hints read.
    pub fn endgame(&self) -> Option<&EndgameDb> {
        self.endgame.as_ref()
    }

    /// The game now.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The person's side.
    pub fn person(&self) -> Side {
        self.person
    }

    /// The computer's agent.
    pub fn agent(&self) -> AgentSpec {
        self.spec
    }

    /// True when the person asked for a hint in this game.
    pub fn helped(&self) -> bool {
        self.helped
    }

    /// True when it is the person's pick.
    pub fn persons_turn(&self) -> bool {
        !self.state.is_over() && self.state.mover() == self.person
    }

    /// The person picks pit `number` (their numbering).
    pub fn pick(&mut self, number: u32) -> Result<Played, GameError> {
        if !self.persons_turn() {
            return Err(GameError::IllegalPick {
                pick: number,
                reason: if self.state.is_over() {
                    PickRefusal::GameOver
                } else {
                    PickRefusal::ComputersTurn
                },
            });
        }
        let before = self.state;
        let (outcome, trace) = self.state.play_pick_traced(number)?;
        if !self.mid_turn(&before) {
            self.starts.push(before);
        }
        Ok(Played {
            by: self.person,
            pit: trace.sowings[0].from,
            trace,
            outcome,
            after: self.state,
        })
    }

    /// True when `before` is not the start of the person's turn (a free
    /// turn led to it), so undo goes further back.
    fn mid_turn(&self, before: &GameState) -> bool {
        self.starts
            .last()
            .is_some_and(|s| s.turn() == before.turn() && s.mover() == before.mover())
    }

    /// The computer plays its whole turn; each pick as it happened.
    pub fn computer_turn(&mut self) -> Result<Vec<Played>, GameError> {
        self.computer_turn_until(&AtomicBool::new(false))
    }

    /// [`GameSession::computer_turn`], stopped with [`GameError::Stopped`]
    /// (the game unchanged) when `cancel` is raised first: a web server
    /// raises it when the time runs out or the page goes away.
    pub fn computer_turn_until(&mut self, cancel: &AtomicBool) -> Result<Vec<Played>, GameError> {
        if self.state.is_over() || self.state.mover() == self.person {
            return Ok(Vec::new());
        }
        let by = self.state.mover();
        let picks = self.computer.choose_until(&self.state, cancel);
        if picks.is_empty() {
            return Err(if cancel.load(Ordering::Relaxed) {
                GameError::Stopped
            } else {
                GameError::AgentFailed(format!("agent {} chose no pick", self.spec))
            });
        }
        let mut out = Vec::new();
        for p in picks {
            let (outcome, trace) = self.state.play_pick_traced(p.number() as u32)?;
            out.push(Played {
                by,
                pit: p,
                trace,
                outcome,
                after: self.state,
            });
        }
        if !self.state.is_over() && self.state.mover() == by {
            return Err(GameError::AgentFailed(format!(
                "agent {} stopped in the middle of its turn",
                self.spec
            )));
        }
        Ok(out)
    }

    /// What the computer's engine would play for the person now: the rest
    /// of the person's turn. Marks the game as helped.
    pub fn hint(&mut self) -> Result<Vec<Pit>, GameError> {
        self.hint_until(&AtomicBool::new(false))
    }

    /// [`GameSession::hint`], stopped with [`GameError::Stopped`] when
    /// `cancel` is raised first.
    pub fn hint_until(&mut self, cancel: &AtomicBool) -> Result<Vec<Pit>, GameError> {
        if !self.persons_turn() {
            return Ok(Vec::new());
        }
        self.helped = true;
        // An agent of its own, so that hints do not change the computer's
        // random choices.
        let mut adviser = self.spec.build_within(
            &self.state,
            self.seed ^ 0x5eed,
            self.endgame.as_ref(),
            self.memory_cap,
        )?;
        let picks = adviser.choose_until(&self.state, cancel);
        if picks.is_empty() && cancel.load(Ordering::Relaxed) {
            return Err(GameError::Stopped);
        }
        Ok(picks)
    }

    /// The best rest of the person's turn by [`analyze`] within `budget`,
    /// with the solver's options `opts` and this game's endgame database:
    /// every whole turn ranked for the game, exact where proved. Hints come
    /// from this analysis, not from the computer's level (the `easy`
    /// computer's own choice is weak advice), and a budget keeps a hint's
    /// wait to a stated time on any board. Marks the game as helped; `None`
    /// when it is not the person's turn.
    pub fn hint_analysis(
        &mut self,
        opts: &SolveOptions,
        budget: Budget,
        cancel: &AtomicBool,
        report: Option<Report<'_>>,
    ) -> Result<Option<Analysis>, GameError> {
        if !self.persons_turn() {
            return Ok(None);
        }
        self.helped = true;
        let a = analyze(
            &self.state,
            opts,
            self.endgame.as_ref(),
            budget,
            cancel,
            report,
        )?;
        if a.cancelled && a.turns.iter().all(|t| !t.exact) && a.depth == 0 {
            return Err(GameError::Stopped);
        }
        Ok(Some(a))
    }

    /// How far the computer's search has got while it chooses its turn
    /// (`mtdf` and `perfect` agents), for a progress line.
    pub fn computer_watch(&self) -> Option<Arc<SolveWatch>> {
        self.computer.watch()
    }

    /// The seed the computer's agent was built with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Take back the person's turn in progress, or their last whole turn
    /// (with the computer's reply). False when there is nothing to take
    /// back.
    pub fn undo(&mut self) -> bool {
        let Some(start) = self.starts.last().copied() else {
            return false;
        };
        if start == self.state {
            // Already at the start of this turn: go back one more.
            self.starts.pop();
            match self.starts.last().copied() {
                Some(s) => self.state = s,
                None => {
                    self.starts.push(start);
                    return false;
                }
            }
        } else {
            self.state = start;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Rules;

    #[test]
    fn a_turn_and_its_undo() {
        let start = GameState::start(6, 4, Rules::KALAH).unwrap();
        let mut g = GameSession::new(start, Side::First, AgentSpec::Greedy, 1).unwrap();
        assert!(g.persons_turn());
        assert_eq!(g.pick(3).unwrap().outcome, PickOutcome::FreeTurn);
        assert!(g.persons_turn());
        assert!(g.pick(9).is_err());
        assert_eq!(g.pick(1).unwrap().outcome, PickOutcome::TurnOver);
        assert!(!g.persons_turn());
        let reply = g.computer_turn().unwrap();
        assert!(!reply.is_empty());
        assert!(g.persons_turn());
        // Undo goes back to the start of the person's last turn.
        assert!(g.undo());
        assert_eq!(g.state(), &start);
        assert!(!g.undo());
    }

    #[test]
    fn a_stopped_computer_turn_changes_nothing() {
        let start = GameState::start(6, 4, Rules::KALAH).unwrap();
        let mut g = GameSession::new(start, Side::Second, AgentSpec::Mtdf(12), 1).unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            g.computer_turn_until(&stop).unwrap_err(),
            GameError::Stopped
        );
        assert_eq!(g.state(), &start);
        assert!(!g.persons_turn());
        // Not stopped, it plays its turn.
        let turn = g.computer_turn_until(&AtomicBool::new(false)).unwrap();
        assert!(!turn.is_empty());
        assert!(g.persons_turn());
        assert_eq!(g.hint_until(&stop).unwrap_err(), GameError::Stopped);
    }
}
