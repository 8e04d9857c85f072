//! Agents by name: [`AgentSpec`] (`alphabeta:6`, `mcts:2000`), read and
//! printed the same way on the command line, in the web API and in match
//! files; the four levels ([`Level`]) as agents; and the agent each builds.

use super::pick::PickRule;
use super::{
    Agent, AlphaBeta, Greedy, Mcts, Minimax, MonteCarlo, PickAgent, Rng64, SolverAgent, SolverMode,
};
use crate::endgame::EndgameDb;
use crate::error::GameError;
use crate::solve::{SolveOptions, Solver};
use crate::state::GameState;
use rand::SeedableRng;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
/// A description of an agent, such as `alphabeta:6` or `mcts:2000`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// Random picks.
    Random,
    /// The best immediate store difference.
    Greedy,
    /// The best single pick, one at a time ([`PickRule::Greedy`]).
    GreedyPick,
    /// Negamax over turns to a depth.
    Minimax(u32),
    /// Alpha-beta over turns to a depth, with a table.
    AlphaBeta(u32),
    /// MTD(f) over picks to a depth in turns.
    Mtdf(u32),
    /// MTD(f) deepened a turn at a time up to [`BUDGET_DEPTH`] turns
    /// within this many thousand picks a turn.
    Budget(u32),
    /// The exact solver.
    Perfect,
    /// The analysis of `game analyze` for at most this many seconds a
    /// turn, playing its best turn: the exact solver's turn when it proves
    /// the position in time (small boards, endgames), otherwise its best
    /// estimate. `perfect` on the web pages, where a turn must come in a
    /// time the page can state; it depends on the machine's speed, so its
    /// games are not reproducible.
    Analyze(u32),
    /// UCT with this many playouts a move.
    Mcts(u32),
    /// Flat Monte Carlo with this many playouts a turn.
    MonteCarlo(u32),
}

/// The levels offered to people, each an agent (see [`Level::agent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// `greedy`: takes what it can now.
    Easy,
    /// `alphabeta:4`: looks four turns ahead.
    Medium,
    /// `budget:2000`: looks up to twelve turns ahead within two million
    /// picks a turn (about a second on one core): a budget of picks bounds
    /// the wait where a fixed depth does not (`mtdf:12`'s first turn from
    /// avalanche's start takes 80 s and more).
    Hard,
    /// `perfect`: the exact solver (small boards, or patience).
    Perfect,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

    /// The agent behind the level.
    pub fn agent(self) -> AgentSpec {
        match self {
            Level::Easy => AgentSpec::Greedy,
            Level::Medium => AgentSpec::AlphaBeta(4),
            Level::Hard => AgentSpec::Budget(2000),
            Level::Perfect => AgentSpec::Perfect,
        }
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        }
    }

    /// What the level does, in a player's words (the pages' label after
    /// its name).
    pub fn words(self) -> &'static str {
        match self {
            Level::Easy => "grabs the most stones now",
            Level::Medium => "looks 4 turns ahead",
            Level::Hard => "looks up to 12 turns ahead",
            Level::Perfect => "best play",
        }
    }
}

impl FromStr for Level {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Level, GameError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| GameError::Level(s.to_string()))
    }
}

/// Largest depth an agent accepts (turns).
pub const MAX_DEPTH: u32 = 40;
/// The deepest a `budget:K` agent looks (turns), as `mtdf:12` does.
pub const BUDGET_DEPTH: u32 = 12;
/// Most thousands of picks a turn a `budget:K` agent accepts.
pub const MAX_BUDGET: u32 = 1_000_000;
/// Most seconds a turn an `analyze:S` agent accepts (an hour).
pub const MAX_ANALYZE_SECONDS: u32 = 3600;
/// Most playouts a move an agent accepts.
pub const MAX_PLAYOUTS: u32 = 10_000_000;

impl FromStr for AgentSpec {
    type Err = GameError;
    /// `random`, `greedy`, `greedy-pick`, `perfect`, `analyze:S`,
    /// `minimax:D`, `alphabeta:D`, `mtdf:D`, `budget:K`, `mcts:N`, `montecarlo:N`, or a
    /// level name (`easy`, `medium`, `hard`).
    fn from_str(text: &str) -> Result<AgentSpec, GameError> {
        let bad = |reason: String| GameError::AgentSpec {
            spec: text.to_string(),
            reason,
        };
        let (kind, arg) = match text.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (text, None),
        };
        let number = |what: &str, max: u32, default: u32| -> Result<u32, GameError> {
            match arg {
                None => Ok(default),
                Some(a) => match a.parse::<u32>() {
                    Ok(v) if (1..=max).contains(&v) => Ok(v),
                    _ => Err(bad(format!(
                        "the {what} must be a whole number from 1 to {max}"
                    ))),
                },
            }
        };
        let plain = |spec: AgentSpec| -> Result<AgentSpec, GameError> {
            match arg {
                None => Ok(spec),
                Some(_) => Err(bad(format!("{kind} takes no ':' argument"))),
            }
        };
        match kind {
            "random" => plain(AgentSpec::Random),
            "greedy" => plain(AgentSpec::Greedy),
            "greedy-pick" => plain(AgentSpec::GreedyPick),
            "perfect" => plain(AgentSpec::Perfect),
            "analyze" => Ok(AgentSpec::Analyze(number(
                "seconds a turn",
                MAX_ANALYZE_SECONDS,
                15,
            )?)),
            "easy" | "medium" | "hard" => plain(kind.parse::<Level>()?.agent()),
            "minimax" => Ok(AgentSpec::Minimax(number("depth", MAX_DEPTH, 4)?)),
            "alphabeta" => Ok(AgentSpec::AlphaBeta(number("depth", MAX_DEPTH, 6)?)),
            "mtdf" => Ok(AgentSpec::Mtdf(number("depth", MAX_DEPTH, 12)?)),
            "budget" => Ok(AgentSpec::Budget(number(
                "thousands of picks",
                MAX_BUDGET,
                2000,
            )?)),
            "mcts" => Ok(AgentSpec::Mcts(number(
                "playout count",
                MAX_PLAYOUTS,
                2000,
            )?)),
            "montecarlo" => Ok(AgentSpec::MonteCarlo(number(
                "playout count",
                MAX_PLAYOUTS,
                1000,
            )?)),
            _ => Err(bad(
                "not an agent: use random, greedy, greedy-pick, minimax:D, alphabeta:D, mtdf:D, \
                 budget:K, perfect, analyze:S, mcts:N, montecarlo:N or a level (easy, medium, hard, perfect)"
                    .into(),
            )),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Greedy => write!(f, "greedy"),
            AgentSpec::GreedyPick => write!(f, "greedy-pick"),
            AgentSpec::Minimax(d) => write!(f, "minimax:{d}"),
            AgentSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            AgentSpec::Mtdf(d) => write!(f, "mtdf:{d}"),
            AgentSpec::Budget(k) => write!(f, "budget:{k}"),
            AgentSpec::Perfect => write!(f, "perfect"),
            AgentSpec::Analyze(s) => write!(f, "analyze:{s}"),
            AgentSpec::Mcts(n) => write!(f, "mcts:{n}"),
            AgentSpec::MonteCarlo(n) => write!(f, "montecarlo:{n}"),
        }
    }
}

/// Table size of the `mtdf` agents (the `perfect` one uses the solver's
/// default).
const AGENT_TABLE_BYTES: u64 = 32 << 20;

/// The smallest table a `perfect` agent is fitted down to for a memory
/// cap ([`AgentSpec::build_within`]).
const PERFECT_MIN_TABLE: u64 = 16 << 20;

impl AgentSpec {
    /// Build the agent for games under `state`'s rules and size, with its
    /// own generator seeded by `seed`.
    pub fn build(self, state: &GameState, seed: u64) -> Result<Box<dyn Agent>, GameError> {
        self.build_with(state, seed, None)
    }

    /// [`AgentSpec::build`] with an endgame database filled whole (read
    /// from a file, see [`EndgameDb`]) for the `perfect` agent, which then
    /// plays big boards in seconds a move instead of minutes. The database
    /// is shared, not copied; the other agents do not use it (their levels
    /// stay what they are documented to be).
    pub fn build_with(
        self,
        state: &GameState,
        seed: u64,
        endgame: Option<&EndgameDb>,
    ) -> Result<Box<dyn Agent>, GameError> {
        self.build_within(state, seed, endgame, u64::MAX)
    }

    /// [`AgentSpec::build_with`] holding the agent's tables to `cap` bytes
    /// where it can: a `perfect` agent whose tables would pass it gets a
    /// smaller table (see [`AgentSpec::memory_bytes_within`]), for a page
    /// whose engine holds at most 256 MiB. The value it plays for is the
    /// same; only its speed changes.
    pub fn build_within(
        self,
        state: &GameState,
        seed: u64,
        endgame: Option<&EndgameDb>,
        cap: u64,
    ) -> Result<Box<dyn Agent>, GameError> {
        let rng = Rng64::seed_from_u64(seed);
        Ok(match self {
            AgentSpec::Random | AgentSpec::GreedyPick => Box::new(PickAgent {
                spec: self,
                rule: self.pick_rule().expect("an agent that picks one at a time"),
                rng,
            }),
            AgentSpec::Greedy => Box::new(Greedy { rng }),
            AgentSpec::Minimax(depth) => Box::new(Minimax { depth }),
            AgentSpec::AlphaBeta(depth) => Box::new(AlphaBeta {
                depth,
                table: HashMap::new(),
            }),
            AgentSpec::Mtdf(_)
            | AgentSpec::Budget(_)
            | AgentSpec::Perfect
            | AgentSpec::Analyze(_) => {
                let (rules, n) = (state.rules(), state.pits_per_side());
                let opts = self
                    .solver_options(rules, n, state.stones_in_pits(), cap)
                    .expect("a solver agent");
                let solver = match (self, endgame) {
                    (AgentSpec::Perfect | AgentSpec::Analyze(_), Some(db)) => {
                        // The database is in memory already (its reader
                        // checked it against the cap) and shared: only the
                        // table is new.
                        let opts = SolveOptions {
                            memory_cap: opts.memory_cap.saturating_add(db.bytes()),
                            ..opts
                        };
                        Solver::builder()
                            .options(opts)
                            .endgame(Some(db))
                            .build(rules, n)?
                            .expect("never stopped")
                    }
                    _ => Solver::new(rules, n, opts)?,
                };
                let mode = match self {
                    AgentSpec::Mtdf(depth) => SolverMode::Depth(depth),
                    AgentSpec::Budget(k) => SolverMode::Budget {
                        depth: BUDGET_DEPTH,
                        picks: k as u64 * 1000,
                    },
                    AgentSpec::Analyze(s) => SolverMode::Analyze(s),
                    _ => SolverMode::Exact,
                };
                Box::new(SolverAgent { mode, solver })
            }
            AgentSpec::Mcts(playouts) => Box::new(Mcts { playouts, rng }),
            AgentSpec::MonteCarlo(playouts) => Box::new(MonteCarlo { playouts, rng }),
        })
    }

    /// The solver options of the agents built on the exact solver (`mtdf`
    /// and `perfect`) for games of `stones` stones in the pits of `n` pits
    /// a side; `None` for the others.
    fn solver_options(
        self,
        rules: rules::Rules,
        n: usize,
        stones: u32,
        cap: u64,
    ) -> Option<SolveOptions> {
        let opts = match self {
            AgentSpec::Mtdf(_) | AgentSpec::Budget(_) => SolveOptions {
                table_bytes: AGENT_TABLE_BYTES,
                endgame_stones: 0,
                ..SolveOptions::default()
            },
            // Every core: its turns are proofs, shared by the threads
            // (the same turn on any number of them).
            AgentSpec::Perfect | AgentSpec::Analyze(_) => SolveOptions {
                threads: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
                ..SolveOptions::default()
            },
            _ => return None,
        };
        let mut opts = opts.fit_to(rules, n, stones);
        // Halve the table (and let the endgame database follow it down)
        // until both fit `cap`, but not below a table that still plays in
        // reasonable time: past that the agent is refused for the cap.
        while matches!(self, AgentSpec::Perfect | AgentSpec::Analyze(_))
            && Solver::bytes(rules, n, &opts) > cap
            && opts.table_bytes / 2 >= PERFECT_MIN_TABLE
        {
            opts = SolveOptions {
                table_bytes: opts.table_bytes / 2,
                memory_cap: opts.memory_cap.min(cap),
                ..opts
            }
            .fit_to(rules, n, stones);
        }
        Some(opts)
    }

    /// Bytes the agent holds once built for games of `stones` stones in the
    /// pits under `rules` on `n` pits a side: the solver's tables for
    /// `mtdf` and `perfect` (up to hundreds of megabytes for `perfect`, less
    /// on boards too small to fill them), nothing to speak of for the
    /// others. A server that keeps many games alive adds these up against
    /// its cap.
    pub fn memory_bytes(self, rules: rules::Rules, n: usize, stones: u32) -> u64 {
        self.memory_bytes_within(rules, n, stones, u64::MAX)
    }

    /// [`AgentSpec::memory_bytes`] of the agent [`AgentSpec::build_within`]
    /// builds for `cap`: no more than `cap` when it could be fitted, more
    /// (and so refused by its caller) when even its smallest table passes it.
    pub fn memory_bytes_within(self, rules: rules::Rules, n: usize, stones: u32, cap: u64) -> u64 {
        self.solver_options(rules, n, stones, cap)
            .map_or(0, |opts| Solver::bytes(rules, n, &opts))
    }

    /// True when the agent draws random numbers (its games depend on the seed).
    pub fn is_random(self) -> bool {
        matches!(
            self,
            AgentSpec::Random
                | AgentSpec::Greedy
                | AgentSpec::GreedyPick
                | AgentSpec::Mcts(_)
                | AgentSpec::MonteCarlo(_)
        )
    }

    /// The rule of an agent that chooses one pick at a time (`random`,
    /// `greedy-pick`), which can also play on a bare [`Turn`] with a
    /// generator it is lent; `None` for the agents that choose whole turns.
    pub fn pick_rule(self) -> Option<PickRule> {
        match self {
            AgentSpec::Random => Some(PickRule::Random),
            AgentSpec::GreedyPick => Some(PickRule::Greedy),
            _ => None,
        }
    }
}
