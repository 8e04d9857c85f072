pub mod error;
pub mod solve;
pub mod state;
pub use error::GameError;
pub use solve::{SolveOptions, SolveResult, Solver};
pub use state::{GameState, PickOutcome, Side, TurnMove};
