//! A database file built layer by layer, the finished layers kept packed
//! in memory as they will be in the file, and only the layer being built
//! a byte a position ([`EndgameDb::build_file`]).
//!
//! Why: a layer's positions play only into its own layer and the ones
//! below, which are finished and never written again, so they can be read
//! packed. A byte a position for the whole database was 2.7 GB for 26
//! stones on 6 pits a side, and a file written from it another copy
//! packed; this way the build holds the packed layers below (under half
//! their bytes) and one layer (the largest, 26 stones, is a third of the
//! positions), and a checkpoint writes what is packed already.

use super::packed::{PackedBuf, GROUP_POSITIONS};
use super::*;

/// How often, at most, a build writes its file between layers.
const CHECKPOINT_SECS: u64 = 60;

/// The most exceptions a build reckons with, a share of the positions
/// (measured on 6 pits a side: 2% of Kalah's at 16 stones, 4% at 20).
const EXCEPTIONS_MOST: f64 = 0.08;

/// How far a build of a file is ([`EndgameDb::build_file`]), read while
/// it runs from another thread: positions count, not layers, since the
/// last layers hold most of them (26 stones on 6 pits a side is a third
/// of its database), and a share of layers would stand still for minutes
/// there; the layers a file already held count as done, so that a build
/// that goes on says how far it really is.
#[derive(Debug, Default)]
pub struct BuildProgress {
    /// Positions finished, those the file held included.
    done: AtomicU64,
    /// Positions of the database being built.
    total: AtomicU64,
    /// Positions the file held when the build started.
    held: AtomicU64,
    /// Stones of the layer being built.
    layer: AtomicU64,
}

impl BuildProgress {
    /// Positions finished, of [`BuildProgress::total`].
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Positions of the database being built (0 before it starts).
    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Positions the file held when the build started (done before it).
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Stones of the layer being built.
    pub fn layer(&self) -> u32 {
        self.layer.load(Ordering::Relaxed) as u32
    }

    /// The share done, 0 to 1.
    pub fn share(&self) -> f64 {
        self.done() as f64 / self.total().max(1) as f64
    }

    /// Seconds still to go, reckoned from the positions this run built
    /// in `elapsed` seconds; `None` until it has built a thousandth of
    /// what is left to it. The last layers' positions cost a little more
    /// each, so the forecast is a floor that rises a little as it goes.
    pub fn seconds_left(&self, elapsed: f64) -> Option<f64> {
        let (done, total, held) = (self.done(), self.total(), self.held());
        let built = done.saturating_sub(held);
        (built > 0 && built * 1000 >= total.saturating_sub(held))
            .then(|| elapsed * total.saturating_sub(done) as f64 / built as f64)
    }

    /// A build of `total` positions that starts from `held` of them.
    fn start(&self, total: u64, held: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.held.store(held, Ordering::Relaxed);
        self.done.store(held, Ordering::Relaxed);
    }
}

impl EndgameDb {
    /// Bytes a database of `stones` stones on `n` pits a side takes
    /// packed, in memory and on disk, reckoned with the most exceptions
    /// a build expects ([`EXCEPTIONS_MOST`]): what a cap is checked
    /// against before the database exists.
    pub fn packed_bytes_for(n: usize, stones: u32) -> u64 {
        let positions = Endgame::bytes(2 * n, stones);
        positions.div_ceil(super::packed::PER_LINE as u64) * 64
            + positions.div_ceil(GROUP_POSITIONS as u64) * 4
            + (positions as f64 * EXCEPTIONS_MOST) as u64
    }

    /// Bytes [`EndgameDb::build_file`] holds at most while it builds
    /// `stones` stones on `n` pits a side: every layer packed, and the
    /// largest a byte a position.
    pub fn build_bytes_for(n: usize, stones: u32) -> u64 {
        let largest = Endgame::bytes(2 * n, stones) - Endgame::bytes(2 * n, stones - 1);
        EndgameDb::packed_bytes_for(n, stones) + largest + GROUP_POSITIONS as u64
    }

    /// [`EndgameDb::check`] for a build of `stones` stones into a file,
    /// whose memory is [`EndgameDb::build_bytes_for`]: refused before any
    /// work when it would pass `memory_cap`.
    pub fn check_build(
        rules: Rules,
        n: usize,
        stones: u32,
        memory_cap: u64,
    ) -> Result<(), GameError> {
        EndgameDb::check(rules, n, stones, u64::MAX)?;
        EndgameDb::within(n, stones, EndgameDb::build_bytes_for(n, stones), memory_cap)
    }

    /// Builds the database of every position with at most `stones` stones
    /// in its pits for `rules` on `n` pits a side into `path`, on
    /// `threads` threads, layer by layer from the fewest stones up. A file
    /// already there for the same rules and board is taken as the layers
    /// it holds, and the build goes on from them (a file of the first
    /// format is packed first): the file is written whole (see
    /// [`EndgameDb::save`]) after a layer at most once a minute, at the
    /// end, and when `cancel` stops the build, so that the same call
    /// resumes. `progress` follows it position by position. Refused before any work when the build
    /// would pass `memory_cap` ([`EndgameDb::build_bytes_for`]).
    #[allow(clippy::too_many_arguments)]
    pub fn build_file(
        path: &Path,
        rules: Rules,
        n: usize,
        stones: u32,
        threads: usize,
        memory_cap: u64,
        cancel: &AtomicBool,
        progress: &BuildProgress,
    ) -> Result<EndgameBuild, GameError> {
        EndgameDb::check_build(rules, n, stones, memory_cap)?;
        let mut ranks = Ranks::new(2 * n, stones);
        let total = ranks.offset[stones as usize + 1];
        let threads = threads.max(1);
        let (mut packed, resumed_from) = match path.exists() {
            true => {
                // Asked for no more than the file holds: nothing to build.
                let h = EndgameDb::open(path, rules, n, u64::MAX, false)?.header;
                if h.stones >= stones {
                    progress.start(total, total);
                    return Ok(EndgameBuild {
                        resumed_from: Some(h.stones),
                        stones: Some(h.stones),
                        positions: h.positions,
                        complete: true,
                    });
                }
                let (p, s) = EndgameDb::read_packed(path, rules, n, threads)?;
                (p, Some(s))
            }
            false => (PackedBuf::default(), None),
        };
        // Ranks below `split` are packed; from it on, a byte each in
        // `tail` (the finished ones) and the layer's window.
        let have = resumed_from.map_or(0, |s| ranks.offset[s as usize + 1] as usize);
        progress.start(total, have as u64);
        let mut split = have / GROUP_POSITIONS * GROUP_POSITIONS;
        let mut tail: Vec<AtomicI8> = (split..have)
            .map(|r| AtomicI8::new(packed.view().get(r, ranks.total_of(r))))
            .collect();
        packed.truncate(split);
        let mut finished = resumed_from;
        let mut saved = resumed_from;
        let mut last_save = Instant::now();
        let first = resumed_from.map_or(0, |s| s + 1);
        let mut complete = true;
        for t in first..=stones {
            let end = ranks.offset[t as usize + 1] as usize;
            let Some(mut window) = huge_vec(end - split, cancel, || AtomicI8::new(UNKNOWN)) else {
                complete = false;
                break;
            };
            for (w, v) in window.iter_mut().zip(&tail) {
                *w.get_mut() = v.load(Ordering::Relaxed);
            }
            let db = Endgame {
                ranks,
                values: Values::layered(packed, split, window),
            };
            progress.layer.store(u64::from(t), Ordering::Relaxed);
            let built = db.build_layer(t, n, rules, threads, cancel, &progress.done);
            ranks = db.ranks;
            let (p, window) = db.values.into_layered();
            packed = p;
            if !built {
                // Keep the layers below this one, finished.
                let done = ranks.offset[t as usize] as usize - split;
                tail = window[..done]
                    .iter()
                    .map(|v| AtomicI8::new(v.load(Ordering::Relaxed)))
                    .collect();
                complete = false;
                break;
            }
            let new_split = end / GROUP_POSITIONS * GROUP_POSITIONS;
            packed.pack_onto(&window, split, &ranks, n, split..new_split, threads);
            // Copied out, so that the layer's bytes go now (collected from
            // the window in place, they kept its memory).
            tail = window[new_split - split..]
                .iter()
                .map(|v| AtomicI8::new(v.load(Ordering::Relaxed)))
                .collect();
            drop(window);
            split = new_split;
            finished = Some(t);
            if t == stones || last_save.elapsed().as_secs() >= CHECKPOINT_SECS {
                EndgameDb::save_parts(path, &packed, &tail, split, &ranks, rules, n, t)?;
                saved = Some(t);
                last_save = Instant::now();
            }
        }
        if let Some(t) = finished.filter(|&t| Some(t) != saved) {
            // Stopped: keep what was finished since the last write.
            EndgameDb::save_parts(path, &packed, &tail, split, &ranks, rules, n, t)?;
        }
        Ok(EndgameBuild {
            resumed_from,
            stones: finished,
            positions: finished.map_or(0, |t| Endgame::bytes(2 * n, t)),
            complete,
        })
    }

    /// The database in `path` packed, and its stones; a file of the
    /// first format is read a byte a position and packed.
    fn read_packed(
        path: &Path,
        rules: Rules,
        n: usize,
        threads: usize,
    ) -> Result<(PackedBuf, u32), GameError> {
        let (db, h) = EndgameDb::read(path, rules, n, 0, u64::MAX, false)?;
        let Endgame { ranks, values } = Arc::into_inner(db.db).expect("read here, not shared");
        let positions = values.len();
        let packed = match values.into_packed() {
            Ok(p) => p,
            Err(bytes) => PackedBuf::pack(&bytes, 0, &ranks, n, 0..positions, threads),
        };
        Ok((packed, h.stones))
    }

    /// Writes the file of the layers up to `t`: `packed` (the ranks below
    /// `split`) and `tail` (a byte each from `split` on) packed after it.
    #[allow(clippy::too_many_arguments)]
    fn save_parts(
        path: &Path,
        packed: &PackedBuf,
        tail: &[AtomicI8],
        split: usize,
        ranks: &Ranks,
        rules: Rules,
        n: usize,
        t: u32,
    ) -> Result<(), GameError> {
        let end = ranks.offset[t as usize + 1] as usize;
        let rest = PackedBuf::pack(tail, split, ranks, n, split..end, 1);
        crate::atomic_file::write_with(path, |w| {
            EndgameDb::write_packed(w, rules, n, t, end, &[packed.view(), rest.view()])
        })
        .map_err(|e| EndgameError::from(GameFileError::new(path, "write", e)).into())
    }
}
