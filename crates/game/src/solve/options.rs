//! What the solver may use: table, memory cap, threads, endgame database,
//! and how they are fitted to a board.

use super::{Solver, ENTRY_BYTES};
use crate::endgame::Endgame;
use crate::state::ANY_SCOPE_TURN_LIMIT;
use rules::{Rules, Scope};
use serde::{Deserialize, Serialize};
/// What the whole-game solver may use. Named apart from the one-turn
/// search's [`sweep::SweepOptions`], which a front end often
/// imports beside it: with one name for both, which solver a file meant was
/// up to its `use` lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Bytes for the transposition table (rounded down to a power of two
    /// entries).
    pub table_bytes: u64,
    /// Most bytes the table and the endgame database may take together; a
    /// request above it is refused before the search starts.
    pub memory_cap: u64,
    /// Enhanced transposition cutoffs on.
    pub etc: bool,
    /// Enhanced transposition cutoffs only at positions with at least this
    /// many stones in their pits: they cost a table probe per child, which
    /// pays only where a cutoff saves a large subtree.
    pub etc_stones: u32,
    /// Positions with at most this many stones in their pits are solved
    /// into an endgame database (0: none). Only for [`Scope::Own`].
    pub endgame_stones: u32,
    /// Fill the whole endgame database before the search, layer by layer
    /// from the fewest stones up, on [`SolveOptions::threads`] threads,
    /// instead of on demand. Off by default: a database built first cuts
    /// the picks but not the time (docs/notebook/game-solver.md).
    #[serde(default)]
    pub endgame_build: bool,
    /// Iterative deepening: depth-limited searches of 1, 2, ... this many
    /// turns (leaves scored by the stores) run before the search to the end,
    /// so that its move ordering comes from the table (0: none).
    pub deepening: u32,
    /// The most stones the pits of the positions to solve hold (0: not
    /// known); [`SolveOptions::fit_to`] sets it. Known, and with scope own,
    /// the table keys a position by the rank of its pit counts and packs an
    /// entry into 8 bytes, four times the entries of the 32-byte layout in
    /// the same memory, when the ranks fit its tag (see [`CompactTable`]).
    #[serde(default)]
    pub max_stones: u32,
    /// Threads for [`Solver::solve`] (1: the calling thread alone). More
    /// share each of its searches (the value's and the principal
    /// variation's): the children of a large node after the first are
    /// searched side by side once the first did not cut (Young Brothers
    /// Wait); only with the compact table, whose 8-byte entries are read
    /// and written whole. Every search is a null window, so a child's
    /// search does not depend on its brothers': the value and the principal
    /// variation are the same for any count; the node count is not.
    #[serde(default = "one")]
    pub threads: u32,
    /// The analyses and the `perfect` agent answer from the committed
    /// opening books ([`crate::book`]) where they hold the position:
    /// exact, every turn ranked, with no search. Off only to compare (a
    /// solve's result does not depend on it, so a checkpoint does not
    /// record it).
    #[serde(skip, default = "yes")]
    pub book: bool,
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// The table `game solve` makes for a position of `stones` stones in its
/// pits unless told a size: [`SolveOptions::default`]'s 256 MiB, or
/// [`SMALL_TABLE`] for positions of at most [`SMALL_TABLE_STONES`] stones.
/// Such a search fills no more than the small table (Kalah(6,3) searches
/// the same picks in it), and a table of 128 MiB or more goes on huge
/// pages, whose making can cost a fresh process more than the whole
/// search when the system has to compact memory
/// (docs/notebook/game-solver.md#huge-pages).
pub fn table_for(stones: u32) -> u64 {
    if stones <= SMALL_TABLE_STONES {
        SMALL_TABLE
    } else {
        SolveOptions::default().table_bytes
    }
}

/// See [`table_for`].
pub const SMALL_TABLE_STONES: u32 = 36;

/// See [`table_for`].
pub const SMALL_TABLE: u64 = 32 << 20;

impl Default for SolveOptions {
    /// 256 MiB of table, a 4 GiB cap, ETC at 20 stones and more, endgame
    /// database up to 12 stones, no deepening: the fastest of the settings
    /// `cargo bench --bench game` compares.
    fn default() -> Self {
        SolveOptions {
            table_bytes: 256 << 20,
            memory_cap: 4 << 30,
            etc: true,
            etc_stones: 20,
            endgame_stones: 12,
            endgame_build: false,
            deepening: 0,
            max_stones: 0,
            threads: 1,
            book: true,
        }
    }
}

impl SolveOptions {
    /// These options with the table no larger than the positions of at
    /// most `stones` stones in the pits of `n` pits a side can fill (twice
    /// their number, and a turn count per position under [`Scope::Any`]):
    /// a game on a small board needs kilobytes, not the default 256 MiB,
    /// and zeroing a table it cannot use was most of a small solve's time.
    /// Only ever lowers `table_bytes`. Records `stones` as
    /// [`SolveOptions::max_stones`], for the compact table; sets the
    /// deepening for the rules when none is set.
    pub fn fit_to(mut self, rules: Rules, n: usize, stones: u32) -> SolveOptions {
        self.max_stones = stones;
        // Positions with at most `stones` stones in 2n pits: C(stones + 2n, 2n).
        let (a, b) = (stones as u128 + 2 * n as u128, 2 * n as u128);
        let mut positions: u128 = 1;
        for i in 0..b {
            positions = positions * (a - i) / (i + 1);
            if positions > 1 << 60 {
                return self.fit_deepening(rules).fit_endgame(rules, n);
            }
        }
        if rules.scope == Scope::Any {
            positions *= ANY_SCOPE_TURN_LIMIT as u128 + 1;
        }
        let bytes = (2 * positions * ENTRY_BYTES as u128).min(u64::MAX as u128) as u64;
        self.table_bytes = self.table_bytes.min(bytes.max(2 * ENTRY_BYTES));
        self.fit_deepening(rules).fit_endgame(rules, n)
    }

    /// [`SolveOptions::deepening`] for `rules` when none is set: two
    /// turns where nothing is captured. There the first player's lead
    /// grows large (avalanche 6×4: +42), far from MTD(f)'s first guess of
    /// no more gains, and the passes from there cost most of the proof;
    /// two turns of deepening put the guess near the value, and the proof
    /// then needs a few passes. With captures the values stay near that
    /// guess and deepening does not pay (docs/notebook/game-analyze.md).
    /// Called by
    /// [`SolveOptions::fit_to`].
    fn fit_deepening(mut self, rules: Rules) -> SolveOptions {
        if self.deepening == 0 && !rules.capture.ever_takes() {
            self.deepening = 2;
        }
        self
    }

    /// These options with the endgame database filled on demand
    /// ([`SolveOptions::endgame_stones`]) lowered, a stone at a time, until
    /// it takes no more than the larger of the table and
    /// [`ENDGAME_ON_DEMAND_BYTES`], and the table and database together fit
    /// [`SolveOptions::memory_cap`]. Its size grows with the board as
    /// C(2n + stones, stones): 12 stones are 2.7 MB on 6 pits a side but
    /// 5.6 GB on 14 and 21 GB on 16, which would be refused for the cap (or
    /// take seconds to zero) although a smaller database does the same
    /// job. Only ever lowers `endgame_stones`.
    fn fit_endgame(mut self, rules: Rules, n: usize) -> SolveOptions {
        let most = self.table_bytes.max(ENDGAME_ON_DEMAND_BYTES);
        while self.endgame_stones > 0
            && (Endgame::bytes(2 * n, Solver::endgame_stones(rules, &self)) > most
                || Solver::bytes(rules, n, &self) > self.memory_cap)
        {
            self.endgame_stones -= 1;
        }
        self
    }
}

/// The most bytes [`SolveOptions::fit_to`] gives the endgame database filled
/// on demand when the table is smaller: 12 stones of 10 pits a side (225 MB)
/// fit, larger boards get fewer stones.
pub const ENDGAME_ON_DEMAND_BYTES: u64 = 256 << 20;
