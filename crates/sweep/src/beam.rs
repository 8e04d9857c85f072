//! `find`: a bounded beam search for the best turn on boards too big to
//! search exhaustively.
//!
//! The search walks the same store buckets as [`crate::exact`], but keeps at
//! most `beam` positions in each bucket: the ones with the best heuristic
//! score (see [`score`]). Positions are deduplicated by their packed ring, and
//! each remembers the pick that first reached it, so the best line can be
//! read back. With `widen` on (the default when no beam is given), a round
//! with beam `W` that has to drop positions is followed by a round with beam
//! `2W`, until a sweep is found (nothing can beat it), a round drops nothing
//! (the search was exhaustive and its answer is exact), or the time budget
//! runs out. With `widen` off there is one round, which never keeps more
//! than `beam` positions a bucket. Each line returned is replayed through the
//! checked [`rules::turn`] path to prove its score.
//!
//! The result is deterministic for a given seed, beam and thread count as
//! long as the same rounds finish; the time budget only decides how many
//! rounds run.

use super::control::{cancelled, guarded, worker_pool};
use super::error::SearchError;
use super::kernel::packed::{self, Engine, Packed};
use super::kernel::{plan, KernelChoice};
use base::clock::Instant;
use rayon::prelude::*;
use rules::{turn, Board, Line, PickEnd, Pit, Rules};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Options for [`find`].
#[derive(Copy, Clone)]
pub struct FindOptions<'a> {
    /// Positions kept per store bucket (in the first round, when widening).
    pub beam: usize,
    /// Run further rounds, each with twice the beam, while time is left.
    pub widen: bool,
    /// Wall-clock budget.
    pub seconds: f64,
    /// Seed for breaking ties between equal scores.
    pub seed: u64,
    /// Worker threads; 0 uses one per core.
    pub threads: usize,
    /// Weights of the heuristic score.
    pub weights: Weights,
    /// Called after every bucket.
    pub progress: Option<&'a (dyn Fn(&FindProgress) + Sync)>,
    /// When this becomes true (Ctrl-C), the search stops after the bucket it
    /// is on and returns the best line so far, marked interrupted.
    pub cancel: Option<&'a AtomicBool>,
    /// Which kernels may play the picks (see [`crate::kernel`]).
    pub kernel: KernelChoice,
}

impl Default for FindOptions<'_> {
    fn default() -> Self {
        FindOptions {
            beam: 1024,
            widen: true,
            seconds: 10.0,
            seed: 0,
            threads: 0,
            weights: Weights::TUNED,
            progress: None,
            cancel: None,
            kernel: KernelChoice::Auto,
        }
    }
}

/// A snapshot of a running [`find`].
#[derive(Copy, Clone, Debug)]
pub struct FindProgress {
    /// Round (0-based); round r keeps `beam * 2^r` positions a bucket.
    pub round: u32,
    /// The beam of this round.
    pub beam: usize,
    /// The store bucket just expanded.
    pub store: usize,
    /// The highest store value.
    pub max_store: usize,
    /// The best final store found so far.
    pub best: usize,
    /// Positions expanded so far, over all rounds.
    pub positions: u64,
}

/// The best turn `find` found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The rules searched under.
    pub rules: Rules,
    /// The start position.
    pub start: Board,
    /// Store at the end of `line` (replayed).
    pub best_store: u32,
    /// Stones in the pits and the own store at the start.
    pub total_stones: u32,
    /// The line: a complete turn.
    pub line: Line,
    /// True when `best_store` is proved best: the last round dropped no
    /// position, or the line is a sweep.
    pub exact: bool,
    /// Rounds that ran (fully or until the budget ran out).
    pub rounds: u32,
    /// Beam of the last round.
    pub beam: usize,
    /// Positions expanded over all rounds.
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// True when the cancel flag stopped the search early.
    pub interrupted: bool,
}

impl Found {
    /// True when every stone in play ends in the store.
    pub fn sweep(&self) -> bool {
        self.best_store == self.total_stones
    }
}

/// Search for the best turn from `board` within the options' budget.
pub fn find(board: &Board, rules: Rules, opts: &FindOptions) -> Result<Found, SearchError> {
    let pool = worker_pool(board, rules, opts.threads)?;
    let started = Instant::now();
    // Keys are never decoded here, so any width will do for the plan.
    let kernel = plan(board.pits_per_side(), 128, opts.kernel).kernel;
    let Rounds {
        best,
        exact,
        rounds,
        beam,
        positions,
    } = guarded(&pool, || {
        if 2 * board.pits_per_side() < 16 {
            Beam::<2>::new(board, rules, kernel).run(opts, started)
        } else {
            Beam::<5>::new(board, rules, kernel).run(opts, started)
        }
    })?;
    let interrupted = cancelled(opts.cancel);
    let line = Line(best.line);
    let end = turn::replay(*board, rules, &line.numbers())
        .map_err(|e| SearchError::Internal(format!("a found line does not replay: {e}")))?
        .pop()
        .expect("replay returns the start state at least");
    debug_assert!(!end.to_move(), "a found line is a complete turn");
    let best_store = end.board().store() as u32;
    let total_stones = board.stones_in_play();
    Ok(Found {
        rules,
        start: *board,
        best_store,
        total_stones,
        line,
        exact: (exact && !interrupted) || best_store == total_stones,
        rounds,
        beam,
        positions,
        seconds: started.elapsed().as_secs_f64(),
        interrupted,
    })
}

/// The best turn a round found: its store and its picks.
#[derive(Default)]
struct Best {
    store: usize,
    line: Vec<Pit>,
}

/// What one round with a fixed beam found.
struct Round {
    best: Best,
    /// No position was dropped: the best is proved.
    exhaustive: bool,
    /// The round finished within the budget.
    in_time: bool,
    /// Positions expanded.
    positions: u64,
}

/// What the rounds of widening beams found.
struct Rounds {
    best: Best,
    /// Proved: the last round dropped nothing and finished in time.
    exact: bool,
    rounds: u32,
    /// The last round's beam.
    beam: usize,
    /// Positions expanded, all rounds.
    positions: u64,
}

/// How a kept position was reached: its parent's arena index and the pick.
#[derive(Copy, Clone)]
struct Link {
    parent: u32,
    pick: u8,
}

/// A candidate in a bucket: its ring, score, tie-break and arena index.
#[derive(Copy, Clone)]
struct Candidate<const W: usize> {
    ring: Packed<W>,
    score: i64,
    tie: u64,
    link: u32,
}

struct Beam<const W: usize> {
    start: Board,
    n: usize,
    max_store: usize,
    engine: Engine<W>,
    scope: Vec<usize>,
}

/// What expanding one kept position gives.
struct Expansion<const W: usize> {
    /// Free turns: the ring reached and the pick (ring index).
    next: Vec<(Packed<W>, usize)>,
    /// The best turn that ends here: (final store, pick ring index), or the
    /// node's own store with no pick when it has no legal pick.
    ends: Option<(usize, Option<usize>)>,
}

/// A candidate's free turns with their scores: the ring reached, the pick
/// (ring index) and [`score`] of the ring.
type Scored<const W: usize> = Vec<(Packed<W>, usize, i64)>;

/// The candidates of one store, by position: a position met again in a
/// bucket keeps its first candidate.
type Bucket<const W: usize> =
    hashbrown::HashMap<Packed<W>, Candidate<W>, foldhash::fast::FixedState>;

impl<const W: usize> Beam<W> {
    fn new(start: &Board, rules: Rules, kernel: super::kernel::Kernel) -> Self {
        let n = start.pits_per_side();
        Beam {
            start: *start,
            n,
            max_store: start.stones_in_play() as usize,
            engine: Engine::new(n, start.stones_in_play() as usize, rules, kernel),
            scope: rules.scope.pits(n).map(|p| p.ring(n)).collect(),
        }
    }

    fn store_of(&self, ring: &Packed<W>) -> usize {
        packed::get(ring, self.n) as usize
    }

    fn expand(&self, ring: &Packed<W>) -> Expansion<W> {
        let mut next = Vec::new();
        let mut ends: Option<(usize, Option<usize>)> = None;
        let moved = self
            .engine
            .for_each_pick(ring, &self.scope, |from, after, end| match end {
                PickEnd::FreeTurn => next.push((*after, from)),
                PickEnd::TurnOver => {
                    let s = self.store_of(after);
                    if ends.is_none_or(|(b, _)| s > b) {
                        ends = Some((s, Some(from)));
                    }
                }
            });
        if !moved {
            ends = Some((self.store_of(ring), None));
        }
        Expansion { next, ends }
    }

    /// The heuristic: how promising a position is among those with the same
    /// store. See [`score`].
    fn score(&self, ring: &Packed<W>, weights: Weights) -> i64 {
        let mut bytes = [0u8; rules::board::RING_CAP];
        let len = 2 * self.n + 1;
        packed::unpack(ring, &mut bytes[..len]);
        let mut free = 0i64;
        self.engine.for_each_pick(ring, &self.scope, |_, _, end| {
            free += (end == PickEnd::FreeTurn) as i64
        });
        score(&bytes[..len], self.n, free, weights)
    }

    /// Rounds of doubling beams, while `opts.widen` and the budget allow.
    fn run(&self, opts: &FindOptions, started: Instant) -> Rounds {
        let budget = Duration::from_secs_f64(opts.seconds.max(0.0));
        let mut best = Best::default();
        let mut positions = 0u64;
        let mut beam = opts.beam.max(1);
        let mut round = 0u32;
        loop {
            let found = self.round(opts, beam, round, started, budget, &best);
            positions += found.positions;
            if found.best.store > best.store || best.line.is_empty() {
                best = found.best;
            }
            let sweep = best.store == self.max_store;
            if !opts.widen
                || sweep
                || found.exhaustive
                || !found.in_time
                || started.elapsed() >= budget
            {
                return Rounds {
                    best,
                    exact: found.exhaustive && found.in_time,
                    rounds: round + 1,
                    beam,
                    positions,
                };
            }
            beam = beam.saturating_mul(2);
            round += 1;
        }
    }

    /// A round's start: the arena of links holding the root's, and a
    /// bucket for every store, the start position's holding it alone. A
    /// step of its own so that [`Self::round`] is the loop over the buckets.
    fn first_buckets(&self) -> (Vec<Link>, Vec<Bucket<W>>) {
        let arena: Vec<Link> = vec![Link {
            parent: u32::MAX,
            pick: 0,
        }];
        let mut buckets: Vec<Bucket<W>> =
            (0..=self.max_store).map(|_| Default::default()).collect();
        let start = packed::pack(self.start.ring());
        let first = self.start.store() as usize;
        buckets[first].insert(
            start,
            Candidate {
                ring: start,
                score: 0,
                tie: 0,
                link: 0,
            },
        );
        (arena, buckets)
    }

    /// One round with a fixed beam.
    fn round(
        &self,
        opts: &FindOptions,
        beam: usize,
        round: u32,
        started: Instant,
        budget: Duration,
        so_far: &Best,
    ) -> Round {
        let (mut arena, mut buckets) = self.first_buckets();
        let first = self.start.store() as usize;
        let mut best: (usize, u32, Option<u8>) = (0, 0, None);
        let mut have_best = false;
        let mut exhaustive = true;
        let mut positions = 0u64;
        for store in first..=self.max_store {
            let mut cands: Vec<Candidate<W>> =
                std::mem::take(&mut buckets[store]).into_values().collect();
            if cands.is_empty() {
                continue;
            }
            cands.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.tie.cmp(&b.tie)));
            if cands.len() > beam {
                exhaustive = false;
                cands.truncate(beam);
            }
            positions += cands.len() as u64;
            let (expansions, scored) = self.expand_bucket(&cands, opts);
            for ((c, e), succ) in cands.iter().zip(&expansions).zip(scored) {
                if let Some((s, pick)) = e.ends {
                    if !have_best || s > best.0 {
                        best = (s, c.link, pick.map(|p| p as u8));
                        have_best = true;
                    }
                }
                for (ring, from, score) in succ {
                    let t = self.store_of(&ring);
                    if buckets[t].contains_key(&ring) {
                        continue;
                    }
                    arena.push(Link {
                        parent: c.link,
                        pick: from as u8,
                    });
                    let link = (arena.len() - 1) as u32;
                    let tie = tie_break(&ring, opts.seed ^ round as u64);
                    buckets[t].insert(
                        ring,
                        Candidate {
                            ring,
                            score,
                            tie,
                            link,
                        },
                    );
                }
            }
            if let Some(report) = opts.progress {
                report(&FindProgress {
                    round,
                    beam,
                    store,
                    max_store: self.max_store,
                    best: best.0.max(so_far.store),
                    positions,
                });
            }
            if best.0 == self.max_store {
                break;
            }
            if started.elapsed() >= budget || cancelled(opts.cancel) {
                return Round {
                    best: self.line(&arena, best),
                    exhaustive: false,
                    in_time: false,
                    positions,
                };
            }
        }
        Round {
            best: self.line(&arena, best),
            exhaustive,
            in_time: true,
            positions,
        }
    }

    /// Expand a bucket's candidates and score their successors, each step
    /// in parallel over the candidates; [`Self::round`] then inserts the
    /// results in the candidates' order, so that a round is the same for any
    /// thread count.
    fn expand_bucket(
        &self,
        cands: &[Candidate<W>],
        opts: &FindOptions,
    ) -> (Vec<Expansion<W>>, Vec<Scored<W>>) {
        // A raised cancel flag skips the rest of the bucket's work.
        let stop = || cancelled(opts.cancel);
        let expansions: Vec<Expansion<W>> = cands
            .par_iter()
            .map(|c| {
                if stop() {
                    Expansion {
                        next: Vec::new(),
                        ends: None,
                    }
                } else {
                    self.expand(&c.ring)
                }
            })
            .collect();
        // Score the successors in parallel, then insert them in order.
        let scored: Vec<Scored<W>> = expansions
            .par_iter()
            .map(|e| {
                if stop() {
                    return Vec::new();
                }
                e.next
                    .iter()
                    .map(|&(r, from)| (r, from, self.score(&r, opts.weights)))
                    .collect()
            })
            .collect();
        (expansions, scored)
    }

    /// Read a line back from the arena: the picks to the node, then the last pick.
    fn line(&self, arena: &[Link], (store, node, last): (usize, u32, Option<u8>)) -> Best {
        let mut picks = Vec::new();
        if let Some(p) = last {
            picks.push(p);
        }
        let mut at = node;
        while at != 0 {
            let link = arena[at as usize];
            picks.push(link.pick);
            at = link.parent;
        }
        picks.reverse();
        let line = picks
            .into_iter()
            .map(|r| Pit::from_ring(r as usize, self.n).expect("picks are pits"))
            .collect();
        Best { store, line }
    }
}

/// Deterministic tie-break for equal scores: a hash of the ring and the seed.
fn tie_break<const W: usize>(ring: &Packed<W>, seed: u64) -> u64 {
    let mut h = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD6E8_FEB8_6659_FD93;
    for &w in ring {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
    }
    h
}

/// The beam's score of a position (higher is kept first), from the ring
/// counters (`ring`, store at index `n`) and `free`, the number of picks from
/// it that end in the store.
///
/// Positions in one bucket all have the same store, so the score ranks how
/// well the rest can still come in. The features and weights were chosen by
/// measurement (`examples/tune_find.rs`, results in docs/search.md): the number
/// of free-turn picks (one-ply mobility) matters most by far; among equal
/// mobility, fewer stones on the own side and fewer empty pits find sweeps
/// sooner. More own-side stones, the first guess, made sweeps slower to find.
pub fn score(ring: &[u8], n: usize, free: i64, w: Weights) -> i64 {
    let own: i64 = ring[..n].iter().map(|&c| c as i64).sum();
    let empty = ring
        .iter()
        .enumerate()
        .filter(|&(i, &c)| i != n && c == 0)
        .count() as i64;
    w.free * free + w.own * own + w.empty * empty
}

/// Weights of [`score`]'s features.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per pick that ends in the store (one-ply mobility).
    pub free: i64,
    /// Per stone in the player's own pits.
    pub own: i64,
    /// Per empty pit.
    pub empty: i64,
}

impl Weights {
    /// The weights `find` uses, chosen with `examples/tune_find.rs`: free
    /// turns first, then fewer stones on the own side and fewer empty pits.
    pub const TUNED: Weights = Weights {
        free: 1000,
        own: -2,
        empty: -1,
    };
}
