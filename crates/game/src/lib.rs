//! Whole games: two players, from any position to the end of the game.
//!
//! The rest of the crate answers "what is the best single turn?"; this
//! layer plays the whole game on the same rules engine
//! ([`rules::pick::play`]): a [`GameState`] with both sides and the
//! side to move, an exact [`solve`](mod@solve)r, agents that choose turns,
//! and matches between agents.

pub mod agent;
pub mod analyze;
pub mod book;
pub mod endgame;
pub mod error;
mod files;
pub mod matches;
pub mod review;
pub mod session;
pub mod solve;
pub mod state;

pub use agent::{Agent, AgentSpec, Level, PickEffect, PickPlace, PickRule};
pub use analyze::{analyze, analyze_on, best_turn_on, Analysis, Budget, TurnValue};
pub use endgame::{EndgameBuild, EndgameCache, EndgameDb, ENDGAME_FORMAT};
pub use error::{CheckpointError, EndgameError, GameError, GameFileError, MatchError, PickRefusal};
pub use review::{review, Review, ReviewOptions};
pub use session::{GameSession, Played};
pub use solve::{
    GameSolveResult, Horizon, Keep, KeepEvent, SolveOptions, SolveWatch, Solver, SolverBuilder,
    WatchReading, CHECKPOINT_FORMAT,
};
pub use state::{GameState, PickOutcome, Side, TurnMove};
