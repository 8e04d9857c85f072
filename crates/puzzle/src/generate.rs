//! Making puzzle collections (`puzzles generate`): candidate positions
//! from each [`Source`], each proved by the exhaustive search, kept when
//! it has one solution and a choice on the way, graded, and spread over
//! the grades.

use super::error::PuzzleError;
use super::Result;
use super::{make, position, puzzle_id, Collection, Generator, Puzzle, Source, PUZZLES_FORMAT};
use format::VERSION;
use game::agent::Rng64;
use game::{AgentSpec, GameState};
use rand::{Rng, SeedableRng};
use rules::{turn, Board, Line, Rules, Turn};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use sweep::{solve, Listing, SweepOptions};
/// Options for [`generate`].
pub struct GenerateOptions<'a> {
    /// Rules of the collection.
    pub rules: Rules,
    /// Sources to draw from; the count is shared between them.
    pub sources: Vec<Source>,
    /// Puzzles wanted.
    pub count: usize,
    /// Seed of the games and of the choice between candidates.
    pub seed: u64,
    /// Budget of one exhaustive solve, in seconds; positions that take
    /// longer are passed over (the famous start boards get 20 times more).
    pub seconds: f64,
    /// Ctrl-C.
    pub stop: &'a AtomicBool,
    /// Called with (puzzles found so far, wanted, source being searched).
    pub progress: Option<&'a dyn Fn(usize, usize, Source)>,
    /// Puzzles already made (by an interrupted run), by id: reused instead
    /// of solving their positions again.
    pub cache: &'a std::collections::HashMap<String, Puzzle>,
}

/// What [`generate`] made.
pub struct Generated {
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
    /// False when Ctrl-C stopped it; `puzzles` then holds every puzzle
    /// found so far (for the cache of the next run).
    pub complete: bool,
}

/// [`make`], or the cached puzzle of the same id. `Ok(None)` is no puzzle;
/// `Err(Stop)` means Ctrl-C.
fn attempt(
    opts: &GenerateOptions,
    board: &Board,
    source: Source,
    allow_many: bool,
    seconds: f64,
) -> std::result::Result<Option<Puzzle>, Attempt> {
    if opts.stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Attempt::Stop);
    }
    if let Some(p) = opts.cache.get(&puzzle_id(source, opts.rules, board)) {
        return Ok((!forced(p, opts.rules)).then(|| p.clone()));
    }
    match make(board, opts.rules, source, allow_many, seconds, opts.stop) {
        Ok(Some(p)) if forced(&p, opts.rules) => Ok(None),
        Ok(p) => Ok(p),
        Err(PuzzleError::Search(e)) if e.is_cancelled() => Err(Attempt::Stop),
        Err(e) => Err(Attempt::Failed(e)),
    }
}

/// True when checking (solving) `p` takes seconds or more, to warn before
/// a long run. Measured: any-hole 2x6 with 48 stones in the pits (59-bit
/// keys, 123 million positions) takes 6 to 25 s on 2 cores; 2x5 with 40
/// (49-bit keys) 0.2 s; own-scope boards of these sizes are far smaller.
pub fn slow(p: &Puzzle, rules: Rules) -> bool {
    let stones: u32 = p.pits.iter().map(|&c| u32::from(c)).sum();
    let bits = stones + p.pits.len() as u32 - 1;
    rules.scope == rules::Scope::Any && bits >= 55
}

/// True when every pick of the solution was the only legal one: no
/// choice, so no puzzle (the generator skips these).
pub(super) fn forced(p: &Puzzle, rules: Rules) -> bool {
    let Ok(board) = position(p) else {
        return false;
    };
    let mut turn = rules::Turn::new(board, rules);
    for pit in p.solution.picks() {
        if turn.board().legal_picks(rules).count() > 1 {
            return false;
        }
        if turn.pick(u32::from(pit.number())).is_err() {
            return false;
        }
    }
    true
}

enum Attempt {
    Stop,
    Failed(PuzzleError),
}

/// The famous start boards, kept even though they have many solutions:
/// the standard 2x6x4 board.
fn famous(pits: usize, stones: u32) -> bool {
    pits == 6 && stones == 4
}

/// Make a collection's puzzles: for each source its share of `count`,
/// chosen from the candidates it yields so that every grade is represented
/// (round robin over grades 1 to 5, in the order found). Deterministic for
/// the same options. A source that runs short leaves the rest of its share
/// to the sources after it.
pub fn generate(opts: &GenerateOptions) -> Result<Generated> {
    let mut out: Vec<Puzzle> = Vec::new();
    let k = opts.sources.len().max(1);
    let mut rng = Rng64::seed_from_u64(opts.seed);
    for (i, &source) in opts.sources.iter().enumerate() {
        // What earlier sources could not fill rolls over to later ones.
        let left = k - i;
        let wanted = opts.count - out.len();
        let share = wanted / left + usize::from(!wanted.is_multiple_of(left));
        let mut g = Gather {
            opts,
            source,
            before: out.len(),
            share,
            // Enough candidates to choose a spread of grades from.
            enough: share * 3,
            seen: out.iter().map(|p| p.id.clone()).collect(),
            candidates: Vec::new(),
        };
        let finished = match source {
            Source::Start => g.start_boards()?,
            Source::Line => g.optimal_lines()?,
            Source::Game => g.simple_games(&mut rng)?,
            Source::GameHard => g.hard_games(&mut rng)?,
        };
        if !finished {
            out.extend(g.candidates);
            return Ok(Generated {
                puzzles: out,
                complete: false,
            });
        }
        out.extend(spread(g.candidates, share));
    }
    Ok(Generated {
        puzzles: out,
        complete: true,
    })
}

/// One source's search for candidates in [`generate`]. Each source walks
/// its own positions (one method each); what they share is here: a
/// position offered ([`Gather::offer`]) is made a puzzle or not, kept once
/// (by id, across sources), reported, and Ctrl-C ends the walk. Every
/// walk returns `Ok(false)` when Ctrl-C ended it, `Ok(true)` otherwise.
struct Gather<'o, 'a> {
    opts: &'o GenerateOptions<'a>,
    source: Source,
    /// Puzzles the earlier sources kept, counted in the progress reports.
    before: usize,
    /// Puzzles this source is to give.
    share: usize,
    /// Candidates at which a walk that could go on stops.
    enough: usize,
    /// Ids of the puzzles kept so far, earlier sources' included.
    seen: std::collections::HashSet<String>,
    /// This source's puzzles, in the order found.
    candidates: Vec<Puzzle>,
}

impl Gather<'_, '_> {
    /// Try `board` as a puzzle (`many`: keep it even with many solutions,
    /// within `seconds` to solve); `Ok(false)` on Ctrl-C.
    fn offer(&mut self, board: &Board, many: bool, seconds: f64) -> Result<bool> {
        match attempt(self.opts, board, self.source, many, seconds) {
            Ok(p) => {
                if let Some(p) = p {
                    if self.seen.insert(p.id.clone()) {
                        self.candidates.push(p);
                    }
                }
                if let Some(report) = self.opts.progress {
                    let found = self.candidates.len().min(self.share);
                    report(self.before + found, self.opts.count, self.source);
                }
                Ok(true)
            }
            Err(Attempt::Stop) => Ok(false),
            Err(Attempt::Failed(e)) => Err(e),
        }
    }

    /// [`Source::Start`]: every start board of 3 to 8 pits and 1 to 6
    /// stones.
    fn start_boards(&mut self) -> Result<bool> {
        for pits in 3..=8 {
            for stones in 1..=6u32 {
                let board = Board::uniform(pits, stones)?;
                let many = famous(pits, stones);
                let secs = if many {
                    self.opts.seconds * 20.0
                } else {
                    self.opts.seconds
                };
                if !self.offer(&board, many, secs)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// [`Source::Line`]: the positions along up to 8 optimal lines of each
    /// start board of 3 to 6 pits and 1 to 6 stones, until there are
    /// enough.
    fn optimal_lines(&mut self) -> Result<bool> {
        let opts = self.opts;
        for pits in 3..=6 {
            for stones in 1..=6u32 {
                let board = Board::uniform(pits, stones)?;
                let Some(lines) = optimal_lines(&board, opts, 8)? else {
                    return Ok(false);
                };
                for line in lines {
                    let states = turn::replay(board, opts.rules, &line.numbers())?;
                    for t in &states[1..states.len().saturating_sub(1)] {
                        if !self.offer(t.board(), false, opts.seconds)? {
                            return Ok(false);
                        }
                        if self.candidates.len() >= self.enough {
                            return Ok(true);
                        }
                    }
                }
            }
        }
        Ok(true)
    }

    /// [`Source::Game`]: positions of games between the `random` and
    /// `greedy-pick` agents (each side drawn), a third of them past the
    /// opening, until there are enough or 20 games a candidate wanted have
    /// been played. The games are bare turns on a board turned round between
    /// them, going on while the mover can pick (past the game's end, when a
    /// side is empty but not swept), and the agents draw from `rng`, the
    /// generator of the whole collection: that is how the committed
    /// collections were made, and their recorded commands make them again.
    fn simple_games(&mut self, rng: &mut Rng64) -> Result<bool> {
        let opts = self.opts;
        let mut games = 0;
        while self.candidates.len() < self.enough && games < 20 * self.enough.max(10) {
            games += 1;
            let pits = 4 + rng.random_range(0..3);
            let stones = 3 + rng.random_range(0..2u32);
            let players = [AgentSpec::Random, AgentSpec::GreedyPick].map(|a| {
                a.pick_rule()
                    .expect("an agent that picks one pick at a time")
            });
            let (mut a, mut b) = (
                players[rng.random_range(0..2)],
                players[rng.random_range(0..2)],
            );
            let mut board = Board::uniform(pits, stones)?;
            for _ in 0..200 {
                if !board.can_move(opts.rules) {
                    break;
                }
                // Past the opening, a position may become a puzzle.
                if board.store() + board.opponent_store() > 0
                    && rng.random_range(0..3) == 0
                    && !self.offer(&board, false, opts.seconds)?
                {
                    return Ok(false);
                }
                let mut turn = Turn::new(board, opts.rules);
                a.play_turn(&mut turn, rng);
                board = flip(turn.board());
                std::mem::swap(&mut a, &mut b);
            }
        }
        Ok(true)
    }

    /// [`Source::GameHard`]: positions of games between two `mtdf:12`
    /// agents after a random first turn, a third of them, until there are
    /// enough or 4 games a candidate wanted have been played.
    fn hard_games(&mut self, rng: &mut Rng64) -> Result<bool> {
        let opts = self.opts;
        let mut games = 0;
        while self.candidates.len() < self.enough && games < 4 * self.enough.max(5) {
            games += 1;
            let pits = 4 + rng.random_range(0..3);
            let stones = 3 + rng.random_range(0..2u32);
            let start = GameState::start(pits, stones, opts.rules)?;
            // A random first turn, so that the games differ.
            let first = start.turns();
            let mut state = first[rng.random_range(0..first.len())].after;
            // `mtdf:12`, the agent the `hard` level was when the committed
            // collections were made: their recorded commands make them
            // again.
            let hard = AgentSpec::Mtdf(12);
            let mut agents = [
                hard.build(&state, rng.random())?,
                hard.build(&state, rng.random())?,
            ];
            let mut side = 0;
            while !state.is_over() {
                if rng.random_range(0..3) == 0
                    && !self.offer(&state.board(), false, opts.seconds)?
                {
                    return Ok(false);
                }
                let picks = agents[side].choose(&state);
                state.play_turn(&picks)?;
                side = 1 - side;
            }
        }
        Ok(true)
    }
}

/// The board seen from the other side: the opponent's pits become the
/// mover's, and the stores swap.
pub(super) fn flip(board: &Board) -> Board {
    let n = board.pits_per_side();
    let pits = board.pits();
    let turned: Vec<u32> = pits[n..]
        .iter()
        .chain(&pits[..n])
        .map(|&c| c as u32)
        .collect();
    Board::from_pits(&turned, board.opponent_store() as u32, board.store() as u32)
        .expect("a flipped board holds the same stones")
}

/// Up to `lines` optimal lines of `board` (none if it does not solve
/// within the budget); `None` on Ctrl-C.
fn optimal_lines(board: &Board, opts: &GenerateOptions, lines: usize) -> Result<Option<Vec<Line>>> {
    if !board.can_move(opts.rules) {
        return Ok(Some(Vec::new()));
    }
    let so = SweepOptions {
        listing: Listing::Limit(lines),
        seconds: Some(opts.seconds),
        cancel: Some(opts.stop),
        ..Default::default()
    };
    match solve(board, opts.rules, &so) {
        Ok(s) => Ok(Some(s.optimal)),
        Err(e) if e.is_deadline() => Ok(Some(Vec::new())),
        Err(e) if e.is_cancelled() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Take `share` puzzles, round robin over the grades, each grade in the
/// order found.
fn spread(candidates: Vec<Puzzle>, share: usize) -> Vec<Puzzle> {
    let mut by_grade: BTreeMap<u8, std::collections::VecDeque<Puzzle>> = BTreeMap::new();
    for p in candidates {
        by_grade.entry(p.difficulty).or_default().push_back(p);
    }
    let mut out = Vec::new();
    while out.len() < share && by_grade.values().any(|q| !q.is_empty()) {
        for q in by_grade.values_mut() {
            if out.len() < share {
                if let Some(p) = q.pop_front() {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// A collection around generated puzzles.
pub fn collection(name: &str, rules: Rules, command: &str, made: Generated) -> Collection {
    Collection {
        format: PUZZLES_FORMAT.into(),
        name: name.into(),
        rules,
        generator: Generator {
            tool: "mancala-sweep".into(),
            version: VERSION.into(),
            command: command.into(),
        },
        complete: made.complete,
        puzzles: made.puzzles,
    }
}
