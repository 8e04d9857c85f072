//! Agents: players that choose a whole turn in a position.
//!
//! Every agent is deterministic for its seed and budget (no agent reads the
//! clock to decide), so a match gives the same games on any machine and for
//! any thread count. Agents choose among whole turns ([`GameState::turns`]:
//! distinct end-of-turn positions, each with one pick sequence), except
//! `mtdf` and `perfect`, which search pick by pick in [`Solver`] (its table
//! is keyed on pits, where free-turn chains share positions), and `random`
//! and `greedy-pick`, which choose one pick at a time ([`PickRule`]).
//!
//! | name | what it does |
//! |---|---|
//! | `random` | a uniformly random legal pick, again after each free turn |
//! | `greedy` | the turn that leaves the best store difference now (ties: random) |
//! | `greedy-pick` | a pick that ends in the store if there is one, else the one that leaves the most in the store (ties: random), again after each free turn |
//! | `minimax:D` | plain negamax over whole turns, `D` turns deep, leaves scored by the stores |
//! | `alphabeta:D` | the same value with alpha-beta, move ordering and a transposition table |
//! | `mtdf:D` | MTD(f) with iterative deepening over picks ([`Solver`]), `D` turns deep |
//! | `budget:K` | the same deepened a turn at a time up to 12 turns within `K` thousand picks a turn, playing the deepest turn it finished ([`Solver::best_turn_within`]): a bounded time a turn |
//! | `perfect` | the exact solver: the best turn with perfect play to the end |
//! | `mcts:N` | UCT over whole turns with `N` random playouts a move |
//! | `montecarlo:N` | seed 003's flat Monte Carlo: `N` playouts a turn, best wins minus losses |

use crate::solve::{SolveWatch, Solver};
use crate::state::{GameState, Side};
use rand::Rng;
use rules::Pit;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The random generator of every agent: seedable and the same everywhere.
pub type Rng64 = rand_pcg::Pcg64;

/// A player: chooses the picks of one whole turn.
pub trait Agent: Send {
    /// The agent's description, as [`AgentSpec`] reads it.
    fn name(&self) -> String;
    /// The picks of the turn to play in `state` (which is not over).
    fn choose(&mut self, state: &GameState) -> Vec<Pit>;
    /// [`Agent::choose`], but giving up when `cancel` is raised, with no
    /// picks then: a server must be able to stop a search whose time is
    /// not bounded (`perfect`, deep `mtdf`) when its client leaves or its
    /// time runs out. Agents whose turn is quick ignore the flag.
    fn choose_until(&mut self, state: &GameState, cancel: &AtomicBool) -> Vec<Pit> {
        let _ = cancel;
        self.choose(state)
    }
    /// How far the agent's search has got, for a progress line while it
    /// chooses; `None` for agents whose turn is quick.
    fn watch(&self) -> Option<Arc<SolveWatch>> {
        None
    }
}

mod pick;
mod spec;
pub use pick::{PickEffect, PickPlace, PickRule};
pub use spec::{AgentSpec, Level, BUDGET_DEPTH, MAX_BUDGET, MAX_DEPTH, MAX_PLAYOUTS};

/// Stores of `me` minus the other's.
fn lead(s: &GameState, me: Side) -> i32 {
    s.store(me) as i32 - s.store(me.other()) as i32
}

/// Play random picks until the game ends; the first player's lead.
pub fn playout(state: &GameState, rng: &mut Rng64) -> i32 {
    let mut s = *state;
    while !s.is_over() {
        play_random_pick(&mut s, rng);
    }
    s.first_minus_second()
}

/// Plays one legal pick of `s` chosen uniformly by `rng`: the `random`
/// agent's step, the playouts' too. `s` must not be over.
fn play_random_pick(s: &mut GameState, rng: &mut Rng64) {
    let p = PickRule::Random.choose(s, rng).expect("a game not over");
    s.play_unchecked(p);
}

/// `random` and `greedy-pick`: a [`PickRule`] with a generator of its own.
struct PickAgent {
    /// The agent, for its name.
    spec: AgentSpec,
    /// Its rule ([`AgentSpec::pick_rule`]).
    rule: PickRule,
    rng: Rng64,
}

impl Agent for PickAgent {
    fn name(&self) -> String {
        self.spec.to_string()
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        let mut s = *state;
        self.rule.play_turn(&mut s, &mut self.rng)
    }
}

struct Greedy {
    rng: Rng64,
}

impl Agent for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        let me = state.mover();
        let turns = state.turns();
        let best = turns.iter().map(|t| lead(&t.after, me)).max().unwrap_or(0);
        let top: Vec<_> = turns
            .iter()
            .filter(|t| lead(&t.after, me) == best)
            .collect();
        top[self.rng.random_range(0..top.len())].picks.clone()
    }
}

/// Negamax over whole turns: the lead of `state`'s mover after `depth`
/// turns (or at the end), with plain minimax.
fn negamax(state: &GameState, depth: u32) -> i32 {
    let me = state.mover();
    if state.is_over() || depth == 0 {
        return lead(state, me);
    }
    state
        .turns()
        .iter()
        .map(|t| child_value(&t.after, me, negamax(&t.after, depth - 1)))
        .max()
        .expect("a game that is not over has a turn")
}

/// A child's value (its own mover's view) seen from `me`.
fn child_value(child: &GameState, me: Side, v: i32) -> i32 {
    if child.mover() == me {
        v
    } else {
        -v
    }
}

/// The value of `state` for its mover after `depth` whole turns (to the
/// end when the game is shorter), by plain minimax over turns: the slow,
/// obviously correct reference that the faster searches are tested against.
pub fn minimax_value(state: &GameState, depth: u32) -> i32 {
    negamax(state, depth)
}

/// The same value as [`minimax_value`], by alpha-beta with move ordering
/// and a transposition table.
pub fn alphabeta_value(state: &GameState, depth: u32) -> i32 {
    let mut ab = AlphaBeta {
        depth,
        table: HashMap::new(),
    };
    ab.search(state, depth, i32::MIN + 1, i32::MAX)
}

struct Minimax {
    depth: u32,
}

impl Agent for Minimax {
    fn name(&self) -> String {
        format!("minimax:{}", self.depth)
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        let me = state.mover();
        let mut best: Option<(i32, Vec<Pit>)> = None;
        for t in state.turns() {
            let v = child_value(&t.after, me, negamax(&t.after, self.depth - 1));
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, t.picks));
            }
        }
        best.map(|(_, p)| p).unwrap_or_default()
    }
}

/// An alpha-beta table entry: bounds at a depth and the best turn's index.
#[derive(Clone, Copy)]
struct AbEntry {
    depth: u32,
    lo: i32,
    hi: i32,
    best: usize,
}

struct AlphaBeta {
    depth: u32,
    table: HashMap<GameState, AbEntry>,
}

impl AlphaBeta {
    /// Fail-soft alpha-beta over turns, children ordered by the table's
    /// best turn, then by the lead they leave (captures and free-turn chains
    /// first).
    fn search(&mut self, s: &GameState, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let me = s.mover();
        if s.is_over() || depth == 0 {
            return lead(s, me);
        }
        let mut first = usize::MAX;
        if let Some(e) = self.table.get(s) {
            // Only bounds of this very depth: a deeper bound would make the
            // value differ from plain minimax at this depth.
            if e.depth == depth {
                if e.lo >= beta || e.lo == e.hi {
                    return e.lo;
                }
                if e.hi <= alpha {
                    return e.hi;
                }
            }
            first = e.best;
        }
        let alpha0 = alpha;
        let mut turns = s.turns();
        let mut order: Vec<usize> = (0..turns.len()).collect();
        order.sort_by_key(|&i| (i != first, std::cmp::Reverse(lead(&turns[i].after, me)), i));
        let mut best = i32::MIN;
        let mut best_i = order[0];
        for &i in &order {
            let child = std::mem::replace(&mut turns[i].after, *s);
            let v = if child.mover() == me {
                self.search(&child, depth - 1, alpha, beta)
            } else {
                -self.search(&child, depth - 1, -beta, -alpha)
            };
            if v > best {
                best = v;
                best_i = i;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        let (lo, hi) = if best >= beta {
            (best, i32::MAX)
        } else if best <= alpha0 {
            (i32::MIN, best)
        } else {
            (best, best)
        };
        self.table.insert(
            *s,
            AbEntry {
                depth,
                lo,
                hi,
                best: best_i,
            },
        );
        best
    }
}

impl Agent for AlphaBeta {
    fn name(&self) -> String {
        format!("alphabeta:{}", self.depth)
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        // The table is per move: entries of other depths would not help
        // and would grow without end over a match.
        self.table.clear();
        for d in 1..=self.depth {
            self.search(state, d, i32::MIN + 1, i32::MAX);
        }
        let best = self.table.get(state).map_or(0, |e| e.best);
        let mut turns = state.turns();
        turns.swap_remove(best.min(turns.len() - 1)).picks
    }
}

/// The agents built on the exact solver: one solver, four ways to ask it
/// for a turn.
struct SolverAgent {
    mode: SolverMode,
    solver: Solver,
}

/// How a [`SolverAgent`] asks its solver for a turn.
#[derive(Clone, Copy, Debug)]
enum SolverMode {
    /// MTD(f) to this many turns (`mtdf:D`).
    Depth(u32),
    /// MTD(f) deepened a turn at a time up to `depth` turns within `picks`
    /// picks a turn (`budget:K`, K thousand picks).
    Budget { depth: u32, picks: u64 },
    /// The exact value's turn (`perfect`).
    Exact,
    /// The analysis of `game analyze` for at most this many seconds a
    /// turn (`analyze:S`).
    Analyze(u32),
}

impl Agent for SolverAgent {
    fn name(&self) -> String {
        match self.mode {
            SolverMode::Depth(d) => format!("mtdf:{d}"),
            SolverMode::Budget { picks, .. } => format!("budget:{}", picks / 1000),
            SolverMode::Exact => "perfect".into(),
            SolverMode::Analyze(s) => format!("analyze:{s}"),
        }
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        self.choose_until(state, &AtomicBool::new(false))
    }
    fn choose_until(&mut self, state: &GameState, cancel: &AtomicBool) -> Vec<Pit> {
        match self.mode {
            SolverMode::Depth(depth) => self.solver.best_turn(state, Some(depth), cancel).1,
            SolverMode::Budget { depth, picks } => {
                self.solver.best_turn_within(state, depth, picks, cancel).1
            }
            SolverMode::Exact => {
                // The committed opening books know the best turn at once.
                match crate::book::lookup(state).filter(|_| self.solver.options().book) {
                    Some(a) => a.turns[0].picks.clone(),
                    None => self.solver.best_turn(state, None, cancel).1,
                }
            }
            SolverMode::Analyze(s) => {
                let budget = super::analyze::Budget::Seconds(s as f64);
                // The solver was built for this game and the game is not
                // over (an agent is asked only for a turn to play), so the
                // analysis does not refuse; the exact solver's turn is the
                // fallback all the same. Stopped, it plays nothing, as the
                // other agents do (the game stays as it was).
                match super::analyze::best_turn_on(&mut self.solver, state, budget, cancel) {
                    Ok(a) if a.cancelled => Vec::new(),
                    Ok(a) => a.turns[0].picks.clone(),
                    Err(_) => self.solver.best_turn(state, None, cancel).1,
                }
            }
        }
    }
    fn watch(&self) -> Option<Arc<SolveWatch>> {
        Some(self.solver.watch())
    }
}

struct MonteCarlo {
    playouts: u32,
    rng: Rng64,
}

impl Agent for MonteCarlo {
    fn name(&self) -> String {
        format!("montecarlo:{}", self.playouts)
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        let me = state.mover();
        let turns = state.turns();
        let each = (self.playouts / turns.len() as u32).max(1);
        let mut best: Option<(i64, usize)> = None;
        for (i, t) in turns.iter().enumerate() {
            let mut score = 0i64;
            for _ in 0..each {
                let v = playout(&t.after, &mut self.rng);
                let v = if me == Side::First { v } else { -v };
                score += v.signum() as i64;
            }
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        turns[best.map_or(0, |(_, i)| i)].picks.clone()
    }
}

/// A node of the UCT tree.
struct Node {
    state: GameState,
    /// The turns not yet expanded (indices into `moves`).
    untried: Vec<usize>,
    moves: Vec<(Vec<Pit>, GameState)>,
    children: Vec<(usize, usize)>,
    visits: u32,
    /// Total reward for the player who moved into this node (1 win, ½ draw).
    reward: f64,
}

struct Mcts {
    playouts: u32,
    rng: Rng64,
}

impl Mcts {
    fn node(state: GameState) -> Node {
        let moves: Vec<_> = state
            .turns()
            .into_iter()
            .map(|t| (t.picks, t.after))
            .collect();
        Node {
            state,
            untried: (0..moves.len()).rev().collect(),
            moves,
            children: Vec::new(),
            visits: 0,
            reward: 0.0,
        }
    }
}

impl Agent for Mcts {
    fn name(&self) -> String {
        format!("mcts:{}", self.playouts)
    }
    fn choose(&mut self, state: &GameState) -> Vec<Pit> {
        const C: f64 = std::f64::consts::SQRT_2;
        let mut tree = vec![Mcts::node(*state)];
        for _ in 0..self.playouts {
            // Select down the tree by UCT.
            let mut path = vec![0usize];
            let mut at = 0;
            while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
                let parent = tree[at].visits.max(1) as f64;
                let next = tree[at]
                    .children
                    .iter()
                    .map(|&(_, c)| {
                        let n = &tree[c];
                        let v = n.visits.max(1) as f64;
                        (n.reward / v + C * (parent.ln() / v).sqrt(), c)
                    })
                    .fold((f64::MIN, 0), |a, b| if b.0 > a.0 { b } else { a })
                    .1;
                at = next;
                path.push(at);
            }
            // Expand one turn.
            if let Some(m) = tree[at].untried.pop() {
                let child = Mcts::node(tree[at].moves[m].1);
                tree.push(child);
                let c = tree.len() - 1;
                tree[at].children.push((m, c));
                at = c;
                path.push(at);
            }
            // Play out and back up: a node's reward is its mover-in's.
            let result = playout(&tree[at].state, &mut self.rng);
            for w in path.windows(2).rev() {
                let (parent, child) = (w[0], w[1]);
                let mover = tree[parent].state.mover();
                let v = if mover == Side::First {
                    result
                } else {
                    -result
                };
                tree[child].visits += 1;
                tree[child].reward += match v.signum() {
                    1 => 1.0,
                    0 => 0.5,
                    _ => 0.0,
                };
            }
            tree[0].visits += 1;
        }
        let root = &tree[0];
        let best = root
            .children
            .iter()
            .max_by_key(|&&(m, c)| (tree[c].visits, std::cmp::Reverse(m)))
            .map_or(0, |&(m, _)| m);
        root.moves[best].0.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::SolveOptions;
    use crate::state::PickOutcome;
    use rand::SeedableRng;
    use rules::{Board, Rules};
    use rules::{PickEnd, Turn};

    #[test]
    fn specs_read_and_print_back() {
        for text in [
            "random",
            "greedy",
            "greedy-pick",
            "minimax:3",
            "alphabeta:6",
            "mtdf:10",
            "budget:500",
            "perfect",
            "mcts:500",
            "montecarlo:100",
        ] {
            assert_eq!(text.parse::<AgentSpec>().unwrap().to_string(), text);
        }
        assert_eq!(
            "hard".parse::<AgentSpec>().unwrap(),
            AgentSpec::Budget(2000)
        );
        for bad in [
            "minimax:0",
            "mcts:x",
            "random:3",
            "greedy-pick:2",
            "deep",
            "alphabeta:41",
            "budget:0",
            "budget:1000001",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }

    /// The puzzle generator's players as `crates/puzzle/src/sim.rs` wrote them
    /// before they became the agents `random` and `greedy-pick`, kept here
    /// word for word (picks as numbers, on a bare [`Turn`]) as the
    /// reference that [`PickRule`] must match draw for draw: the committed
    /// `game` puzzles came from these games. One pick:
    fn sim_pick(turn: &Turn, greedy: bool, rng: &mut Rng64) -> u32 {
        let rules = turn.rules();
        let legal: Vec<u32> = turn
            .board()
            .legal_picks(rules)
            .map(|p| p.number() as u32)
            .collect();
        if greedy {
            let score = |p: u32| {
                let mut t = turn.clone();
                let end = t.pick(p).expect("legal");
                (end == PickEnd::FreeTurn, t.board().store())
            };
            let best = legal.iter().map(|&p| score(p)).max().expect("a legal pick");
            let top: Vec<u32> = legal.into_iter().filter(|&p| score(p) == best).collect();
            top[rng.random_range(0..top.len())]
        } else {
            legal[rng.random_range(0..legal.len())]
        }
    }

    /// ... and one whole turn: the picks and the board after them.
    fn sim_turn(board: &Board, rules: Rules, greedy: bool, rng: &mut Rng64) -> (Vec<u32>, Board) {
        let mut turn = Turn::new(*board, rules);
        let mut picks = Vec::new();
        while turn.to_move() {
            let choice = sim_pick(&turn, greedy, rng);
            turn.pick(choice).expect("legal");
            picks.push(choice);
        }
        (picks, *turn.board())
    }

    /// The board turned round, as the generator's games hand it over.
    fn turned(b: &Board) -> Board {
        let n = b.pits_per_side();
        let pits: Vec<u32> = b.pits()[n..]
            .iter()
            .chain(&b.pits()[..n])
            .map(|&c| c as u32)
            .collect();
        Board::from_pits(&pits, b.opponent_store() as u32, b.store() as u32).unwrap()
    }

    const CAPTURE_ANY: Rules = Rules {
        scope: rules::Scope::Any,
        relay: false,
        capture: rules::Capture::Kalah,
    };

    #[test]
    fn pick_rules_play_the_puzzle_generators_turns() {
        let numbers = |picks: &[Pit]| picks.iter().map(|p| p.number() as u32).collect::<Vec<_>>();
        let mut turns = 0;
        for rules in [Rules::AVALANCHE, Rules::ANY_HOLE, Rules::KALAH, CAPTURE_ANY] {
            let mut rng = Rng64::seed_from_u64(7);
            for game in 0..12 {
                let mut board = Board::uniform(3 + game % 4, 3 + (game % 2) as u32).unwrap();
                for _ in 0..200 {
                    if !board.can_move(rules) {
                        break;
                    }
                    let greedy = rng.random_range(0..2) == 1;
                    let rule = if greedy {
                        PickRule::Greedy
                    } else {
                        PickRule::Random
                    };
                    // The same generator lent to both: same picks, same
                    // board, and the same draws taken from it.
                    let (mut old_rng, mut new_rng) = (rng.clone(), rng.clone());
                    let (old_picks, old_board) = sim_turn(&board, rules, greedy, &mut old_rng);
                    let mut turn = Turn::new(board, rules);
                    let picks = rule.play_turn(&mut turn, &mut new_rng);
                    assert_eq!(numbers(&picks), old_picks, "{rules:?} {board}");
                    assert_eq!(*turn.board(), old_board);
                    assert!(old_rng == new_rng, "{rules:?} {board}: the draws differ");
                    rng = new_rng;
                    board = turned(&old_board);
                    turns += 1;
                }
            }
        }
        assert!(turns > 500, "only {turns} turns");
    }
    /// The `random` agent written out pick by pick, apart from
    /// [`PickRule`]: the agent's games in matches are these.
    fn old_random_turn(state: &GameState, rng: &mut Rng64) -> Vec<Pit> {
        let me = state.mover();
        let mut s = *state;
        let mut picks = Vec::new();
        while !s.is_over() {
            let legal = s.legal_picks();
            let p = legal[rng.random_range(0..legal.len())];
            let outcome = s.play_unchecked(p);
            picks.push(p);
            if outcome != PickOutcome::FreeTurn || s.mover() != me {
                break;
            }
        }
        picks
    }

    #[test]
    fn pick_agents_play_games_as_before() {
        let mut checked = 0;
        for rules in [Rules::AVALANCHE, Rules::ANY_HOLE, Rules::KALAH, CAPTURE_ANY] {
            for seed in 0..6u64 {
                let mut state = GameState::start(3 + seed as usize % 4, 4, rules).unwrap();
                let mut random = AgentSpec::Random.build(&state, seed).unwrap();
                let mut greedy = AgentSpec::GreedyPick.build(&state, seed).unwrap();
                // Each agent's own generator, mirrored.
                let mut old_rng = Rng64::seed_from_u64(seed);
                let mut greedy_rng = Rng64::seed_from_u64(seed);
                while !state.is_over() {
                    let picks = random.choose(&state);
                    assert_eq!(picks, old_random_turn(&state, &mut old_rng));
                    let greedy_picks = greedy.choose(&state);
                    // `greedy-pick` in a game chooses each pick as the
                    // generator's player does on a bare turn, except where
                    // a pick would end the game (the game sweeps the pits
                    // then; the bare turn goes on).
                    let mut s = state;
                    for &p in &greedy_picks {
                        let ends_game = s.legal_picks().into_iter().any(|q| {
                            let mut t = s;
                            t.play_unchecked(q) == PickOutcome::GameOver
                        });
                        let mut bare_rng = greedy_rng.clone();
                        let chosen = PickRule::Greedy.choose(&s, &mut greedy_rng);
                        assert_eq!(chosen, Some(p));
                        if !ends_game {
                            let bare = Turn::new(s.board(), rules);
                            assert_eq!(sim_pick(&bare, true, &mut bare_rng), p.number() as u32);
                            assert!(bare_rng == greedy_rng, "the draws differ");
                            checked += 1;
                        }
                        s.play_unchecked(p);
                    }
                    let played = if state.turn().is_multiple_of(2) {
                        picks
                    } else {
                        greedy_picks
                    };
                    state.play_turn(&played).unwrap();
                }
            }
        }
        assert!(checked > 100, "only {checked} picks");
    }

    #[test]
    fn alphabeta_and_minimax_agree_on_the_value() {
        let s = GameState::start(4, 3, Rules::KALAH).unwrap();
        for depth in 1..=4 {
            let mut ab = AlphaBeta {
                depth,
                table: HashMap::new(),
            };
            let v = ab.search(&s, depth, i32::MIN + 1, i32::MAX);
            assert_eq!(v, negamax(&s, depth), "depth {depth}");
        }
    }

    /// A `perfect` agent fitted to a memory cap holds no more than the cap
    /// and plays the turn of the agent with the default table (the exact
    /// value, with ties broken the same way); a cap below its smallest
    /// table is reported as passed, for the caller to refuse; the other
    /// agents are not changed by a cap.
    #[test]
    fn a_perfect_agent_fitted_to_a_cap_holds_less_and_plays_the_same_turns() {
        let cap = 40 << 20;
        for (n, stones) in [(6, 2), (5, 3)] {
            let s = GameState::start(n, stones, Rules::KALAH).unwrap();
            let (rules, total) = (s.rules(), s.stones_in_pits());
            let full = AgentSpec::Perfect.memory_bytes(rules, n, total);
            let fitted = AgentSpec::Perfect.memory_bytes_within(rules, n, total, cap);
            assert!(full > cap && fitted <= cap, "{n}x{stones}: {full} {fitted}");
            let tiny = 1 << 20;
            assert!(AgentSpec::Perfect.memory_bytes_within(rules, n, total, tiny) > tiny);
            let mtdf = AgentSpec::Mtdf(4);
            assert_eq!(
                mtdf.memory_bytes_within(rules, n, total, tiny),
                mtdf.memory_bytes(rules, n, total)
            );
            let mut whole = AgentSpec::Perfect.build(&s, 1).unwrap();
            let mut small = AgentSpec::Perfect.build_within(&s, 1, None, cap).unwrap();
            let mut game = s;
            for _ in 0..3 {
                if game.is_over() {
                    break;
                }
                let turn = whole.choose(&game);
                assert_eq!(small.choose(&game), turn, "{n}x{stones} at {game:?}");
                game.play_turn(&turn).unwrap();
            }
        }
    }

    /// The `analyze:S` agent (the pages' `perfect`) proves small boards
    /// within its seconds, so every turn it plays keeps the position's
    /// exact value: the value after its turn (by a second solver, from the
    /// mover's view) is the value before it, on Kalah 5x3 and avalanche
    /// 4x3, a whole game against itself. Its name reads back.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "slow: about 3 s on 2 cores; cargo test --release runs it"
    )]
    fn the_analyze_agent_plays_exact_turns_on_small_boards() {
        let never = AtomicBool::new(false);
        for (n, stones, rules) in [(5, 3, Rules::KALAH), (4, 3, Rules::AVALANCHE)] {
            let spec: AgentSpec = "analyze:30".parse().unwrap();
            assert_eq!(spec, AgentSpec::Analyze(30));
            let mut game = GameState::start(n, stones, rules).unwrap();
            let mut agent = spec.build(&game, 1).unwrap();
            assert_eq!(agent.name(), "analyze:30");
            let mut judge = Solver::new(rules, n, SolveOptions::default()).unwrap();
            let mut value_of = |s: &GameState, me: Side| {
                let v = if s.is_over() {
                    s.mover_minus_opponent()
                } else {
                    let r = judge.solve(s, &never);
                    assert!(r.exact);
                    r.value
                };
                if s.mover() == me {
                    v
                } else {
                    -v
                }
            };
            let mut turns = 0;
            while !game.is_over() {
                let me = game.mover();
                let before = value_of(&game, me);
                let turn = agent.choose(&game);
                game.play_turn(&turn).unwrap();
                assert_eq!(value_of(&game, me), before, "{n}x{stones} turn {turns}");
                turns += 1;
            }
            assert!(turns >= 4, "{turns}");
        }
        for bad in ["analyze:0", "analyze:3601", "analyze:x"] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }
}
