//! A database file built layer by layer, the finished layers kept packed
//! in memory as they will be in the file, and only the layer being built
//! in a window of 5 bits a position ([`EndgameDb::build_file`],
//! [`super::window`]).
//!
//! Why: a layer's positions play only into its own layer and the ones
//! below, which are finished and never written again, so they can be read
//! packed. A byte a position for the whole database would be 2.7 GB for
//! 26 stones on 6 pits a side, and a file written from it another copy
//! packed; this way the build holds the packed layers below (under half
//! their bytes) and one layer (the largest, 26 stones, is a third of the
//! positions) in its window, given back as it is packed, and a checkpoint
//! writes what is packed already: 1.39 GiB at the most for 26 stones.

use super::db::{EndgameBuild, EndgameDb};
use super::packed::{GivingBack, PackedBuf, GROUP_POSITIONS};
use super::values::{PackedLayout, Values, EXCEPTIONS_MOST};
use super::window::Window;
use super::{Endgame, Ranks};
use crate::error::{EndgameError, GameError, GameFileError};
use base::clock::Instant;
use rules::Rules;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often, at most, a build writes its file between layers.
const CHECKPOINT_SECS: u64 = 60;

/// How far a build of a file is ([`EndgameDb::build_file`]), read while
/// it runs from another thread: positions count, not layers, since the
/// last layers hold most of them (26 stones on 6 pits a side is a third
/// of its database), and a share of layers would stand still for minutes
/// there; the layers a file already held count as done, so that a build
/// that goes on says how far it really is. The share and the forecast
/// weigh each position by its stones ([`work_of`]): a position of 26
/// stones costs about half again one of 18 (longer sowings, more picks,
/// deeper recursion into its own layer), and counted alike the first
/// minutes forecast half the time the build took.
#[derive(Default)]
pub struct BuildProgress {
    /// Positions finished, those the file held included.
    done: AtomicU64,
    /// Positions of the database being built.
    total: AtomicU64,
    /// Positions the file held when the build started.
    held: AtomicU64,
    /// [`BuildProgress::done`], [`BuildProgress::total`] and
    /// [`BuildProgress::held`] weighed by stones ([`work_of`]).
    work_done: AtomicU64,
    work_total: AtomicU64,
    work_held: AtomicU64,
    /// Stones of the layer being built.
    layer: AtomicU64,
    /// Set while a search of the same process needs the memory: the
    /// building threads wait at the end of their next piece of positions
    /// ([`BuildProgress::pause`]).
    paused: AtomicBool,
    /// Told of every piece of positions finished, on the thread that
    /// finished it: a build on one thread with no other to read the
    /// counts (the static site's, in WebAssembly) says how far it is
    /// from here ([`BuildProgress::with_tick`]).
    tick: Option<Tick>,
}

/// What [`BuildProgress::with_tick`] calls.
type Tick = Box<dyn Fn(&BuildProgress) + Send + Sync>;

impl std::fmt::Debug for BuildProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildProgress")
            .field("done", &self.done())
            .field("total", &self.total())
            .field("held", &self.held())
            .field("layer", &self.layer())
            .finish()
    }
}

impl BuildProgress {
    /// Progress that calls `tick` after every piece of positions
    /// finished (some thousands), on the building thread: it should
    /// only look at the clock and now and then say how far it is.
    pub fn with_tick(tick: impl Fn(&BuildProgress) + Send + Sync + 'static) -> BuildProgress {
        BuildProgress {
            tick: Some(Box::new(tick)),
            ..BuildProgress::default()
        }
    }

    /// `k` more positions finished; waits here while paused.
    fn add(&self, k: u64) {
        self.done.fetch_add(k, Ordering::Relaxed);
        self.work_done
            .fetch_add(k * weight(self.layer()), Ordering::Relaxed);
        if let Some(tick) = &self.tick {
            tick(self);
        }
        while self.paused.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Holds the build (`true`) at the end of each thread's piece of
    /// positions (some thousands, milliseconds), or lets it go on. A build
    /// at the lowest priority gives up the cores but not the memory and
    /// the last-level cache, on which a search waits
    /// (docs/notebook/game-solver.md, thirteenth round). A stop is heard
    /// once it goes on: let it go before cancelling.
    pub fn pause(&self, on: bool) {
        self.paused.store(on, Ordering::Relaxed);
    }

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

    /// The share of the work done, 0 to 1: positions weighed by their
    /// stones ([`work_of`]).
    pub fn share(&self) -> f64 {
        self.share_of_work(self.work_total.load(Ordering::Relaxed))
    }

    /// The share done of a build of `stones` stones on `pits` pits,
    /// which this build's database may be a step towards (the static
    /// site builds in steps, each a file of its own).
    pub fn share_of(&self, pits: usize, stones: u32) -> f64 {
        self.share_of_work(work_of(pits, stones))
    }

    /// The work done over `total`.
    fn share_of_work(&self, total: u64) -> f64 {
        self.work_done.load(Ordering::Relaxed) as f64 / total.max(1) as f64
    }

    /// Seconds still to go, reckoned from the work this run did in
    /// `elapsed` seconds (positions weighed by their stones); `None`
    /// until it has done a thousandth of what is left to it.
    pub fn seconds_left(&self, elapsed: f64) -> Option<f64> {
        let done = self.work_done.load(Ordering::Relaxed);
        let total = self.work_total.load(Ordering::Relaxed);
        let held = self.work_held.load(Ordering::Relaxed);
        let built = done.saturating_sub(held);
        (built > 0 && built * 1000 >= total.saturating_sub(held))
            .then(|| elapsed * total.saturating_sub(done) as f64 / built as f64)
    }

    /// A build of every position of at most `stones` stones on `pits`
    /// pits that starts from those of at most `held` (none when `None`).
    fn start(&self, pits: usize, stones: u32, held: Option<u32>) {
        let positions = |s: Option<u32>| s.map_or(0, |s| Endgame::bytes(pits, s));
        let work = |s: Option<u32>| s.map_or(0, |s| work_of(pits, s));
        self.total.store(positions(Some(stones)), Ordering::Relaxed);
        self.held.store(positions(held), Ordering::Relaxed);
        self.done.store(positions(held), Ordering::Relaxed);
        self.work_total.store(work(Some(stones)), Ordering::Relaxed);
        self.work_held.store(work(held), Ordering::Relaxed);
        self.work_done.store(work(held), Ordering::Relaxed);
    }
}

/// What a position of `t` stones weighs in a build's share and forecast:
/// its stones (a build's cost per position grows about in proportion,
/// 8 to 9 ns a stone on 6 pits a side: docs/notebook/endgame-cache.md,
/// "The set-up measured on a quiet machine"); the empty board weighs one.
fn weight(t: u32) -> u64 {
    u64::from(t.max(1))
}

/// The work of building every position of at most `stones` stones on
/// `pits` pits: each layer's positions times [`weight`].
fn work_of(pits: usize, stones: u32) -> u64 {
    (0..=stones)
        .map(|t| {
            let below = t.checked_sub(1).map_or(0, |s| Endgame::bytes(pits, s));
            (Endgame::bytes(pits, t) - below) * weight(t)
        })
        .sum()
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
    /// `stones` stones on `n` pits a side: the layers below the last
    /// packed, and the last in its window ([`Window`]) or, once packing
    /// has given the window back, packed.
    pub fn build_bytes_for(n: usize, stones: u32) -> u64 {
        let below = EndgameDb::packed_bytes_for(n, stones - 1);
        let largest = Endgame::bytes(2 * n, stones) - Endgame::bytes(2 * n, stones - 1);
        let last =
            Window::bytes_for(stones, largest).max(EndgameDb::packed_bytes_for(n, stones) - below);
        below + last + GROUP_POSITIONS as u64
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
        let threads = threads.max(1);
        let (packed, resumed_from) = match path.exists() {
            true => {
                // Asked for no more than the file holds: nothing to build.
                let h = EndgameDb::open(path, rules, n, u64::MAX, false)?.header;
                if h.stones >= stones {
                    progress.start(2 * n, stones, Some(stones));
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
        let mut save = |_: u32, fill: &mut FillFile<'_>| {
            base::atomic_file::write_with(path, |w| fill(w))
                .map_err(|e| EndgameError::from(GameFileError::new(path, "write", e)).into())
        };
        let plan = LayerPlan {
            rules,
            n,
            stones,
            threads,
            every: Duration::from_secs(CHECKPOINT_SECS),
        };
        plan.run(packed, resumed_from, cancel, progress, &mut save)
    }

    /// [`EndgameDb::build_file`] without a file: builds on `base` (a
    /// smaller database of the same rules and board, or none) up to
    /// `stones` stones, handing `save` each file written whole, as
    /// [`EndgameDb::write_to`] writes one: after a layer once `every` has
    /// passed since the last, at the end, and when `cancel` stops the
    /// build (the layers finished). For a front end that keeps its
    /// databases elsewhere than in files (the static site: in the
    /// browser's storage, so that a page loaded again goes on from the
    /// last one kept). Its memory is [`EndgameDb::build_bytes_for`],
    /// reserved at the start rather than grown (a WebAssembly page's
    /// memory never shrinks, so a vector grown twice over would stay
    /// that large); refused before any work when it would pass
    /// `memory_cap`.
    #[allow(clippy::too_many_arguments)]
    pub fn build_on(
        base: Option<EndgameDb>,
        rules: Rules,
        n: usize,
        stones: u32,
        threads: usize,
        memory_cap: u64,
        every: Duration,
        cancel: &AtomicBool,
        progress: &BuildProgress,
        save: &mut SaveFile<'_>,
    ) -> Result<EndgameBuild, GameError> {
        EndgameDb::check_build(rules, n, stones, memory_cap)?;
        let threads = threads.max(1);
        if let Some(b) = &base {
            if (b.rules, b.n) != (rules, n) {
                return Err(EndgameError::ForeignFile {
                    path: "the database built on".into(),
                    built_n: b.n,
                    built: b.rules,
                    n,
                    rules,
                }
                .into());
            }
            if b.stones >= stones {
                progress.start(2 * n, stones, Some(stones));
                return Ok(EndgameBuild {
                    resumed_from: Some(b.stones),
                    stones: Some(b.stones),
                    positions: Endgame::bytes(2 * n, b.stones),
                    complete: true,
                });
            }
        }
        let resumed_from = base.as_ref().map(|b| b.stones);
        let packed = base.map_or_else(PackedBuf::default, |b| b.into_packed(threads));
        let plan = LayerPlan {
            rules,
            n,
            stones,
            threads,
            every,
        };
        plan.run(packed, resumed_from, cancel, progress, save)
    }

    /// The values packed, as arrays of their own: taken when this is
    /// their only holder, else copied (or packed, when they are a byte a
    /// position).
    fn into_packed(self, threads: usize) -> PackedBuf {
        let positions = Endgame::bytes(2 * self.n, self.stones) as usize;
        let db = match Arc::try_unwrap(self.db) {
            Ok(e) if !e.values.is_mapped() => {
                let Endgame { ranks, values } = e;
                return match values.into_packed() {
                    Ok(mut p) => {
                        p.truncate_to(positions);
                        p
                    }
                    Err(b) => PackedBuf::pack(&b[..], 0, &ranks, self.n, 0..positions, threads),
                };
            }
            Ok(e) => Arc::new(e),
            Err(shared) => shared,
        };
        match db.values.packed_view() {
            Some(p) => PackedBuf::copy_of(&p.prefix(positions)),
            None => PackedBuf::pack(
                db.values.bytes(),
                0,
                &db.ranks,
                self.n,
                0..positions,
                threads,
            ),
        }
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
            Err(bytes) => PackedBuf::pack(&bytes[..], 0, &ranks, n, 0..positions, threads),
        };
        Ok((packed, h.stones))
    }
}

/// What writes a database's file whole, to the writer it is given.
pub type FillFile<'a> = dyn FnMut(&mut dyn Write) -> std::io::Result<()> + 'a;

/// Where a build keeps its file ([`EndgameDb::build_on`]): told the
/// stones of the layers finished and handed what writes them whole.
pub type SaveFile<'a> = dyn FnMut(u32, &mut FillFile<'_>) -> Result<(), GameError> + 'a;

/// What a build of layers is asked for.
struct LayerPlan {
    rules: Rules,
    n: usize,
    stones: u32,
    threads: usize,
    /// The least time between two files written before the last.
    every: Duration,
}

impl LayerPlan {
    /// Builds the layers above `resumed_from`'s (whose values `packed`
    /// holds, none when `None`) up to the plan's stones, the finished
    /// layers packed and the one being built in a window allocated once
    /// for the largest; `save` keeps the file.
    fn run(
        &self,
        mut packed: PackedBuf,
        resumed_from: Option<u32>,
        cancel: &AtomicBool,
        progress: &BuildProgress,
        save: &mut SaveFile<'_>,
    ) -> Result<EndgameBuild, GameError> {
        let (n, stones) = (self.n, self.stones);
        let mut ranks = Ranks::new(2 * n, stones);
        let total = ranks.offset[stones as usize + 1] as usize;
        // Ranks below `split` are packed; from it on, a byte each in the
        // window: the finished ones below the layer, then the layer.
        let have = resumed_from.map_or(0, |s| ranks.offset[s as usize + 1] as usize);
        progress.start(2 * n, stones, resumed_from);
        let mut split = have / GROUP_POSITIONS * GROUP_POSITIONS;
        let largest = total - ranks.offset[stones as usize] as usize + GROUP_POSITIONS;
        let mut window = Window::with_room(stones, largest);
        for r in split..have {
            let total = ranks.total_of(r);
            window.push(packed.view().get(r, total), total);
        }
        packed.truncate(split);
        let room = PackedLayout::for_build(n, stones);
        packed.reserve_for(room.lines, room.dir, room.exceptions);
        let mut finished = resumed_from;
        let mut saved = resumed_from;
        let mut last_save = Instant::now();
        let mut complete = true;
        for t in resumed_from.map_or(0, |s| s + 1)..=stones {
            let end = ranks.offset[t as usize + 1] as usize;
            let below = ranks.offset[t as usize] as usize - split;
            if !window.fill_to(end - split, cancel) {
                window.truncate(below);
                complete = false;
                break;
            }
            let db = Endgame {
                ranks,
                values: Values::layered(packed, split, window),
            };
            progress.layer.store(u64::from(t), Ordering::Relaxed);
            let built =
                db.build_layer(t, n, self.rules, self.threads, cancel, &|k| progress.add(k));
            ranks = db.ranks;
            (packed, window) = db.values.into_layered();
            if !built {
                // Keep the layers below this one, finished.
                window.truncate(below);
                complete = false;
                break;
            }
            let new_split = end / GROUP_POSITIONS * GROUP_POSITIONS;
            let giving = GivingBack(&window);
            packed.pack_onto(&giving, split, &ranks, n, split..new_split, self.threads);
            // The ranks left in the window move to its front.
            window.drain_front(new_split - split);
            split = new_split;
            finished = Some(t);
            if t == stones || last_save.elapsed() >= self.every {
                self.save(save, &packed, &window, split, &ranks, t)?;
                saved = Some(t);
                last_save = Instant::now();
            }
        }
        if let Some(t) = finished.filter(|&t| Some(t) != saved) {
            // Stopped: keep what was finished since the last write.
            self.save(save, &packed, &window, split, &ranks, t)?;
        }
        Ok(EndgameBuild {
            resumed_from,
            stones: finished,
            positions: finished.map_or(0, |t| Endgame::bytes(2 * n, t)),
            complete,
        })
    }

    /// Hands `save` the file of the layers up to `t`: `packed` (the ranks
    /// below `split`) and `tail` (a byte each from `split` on) packed
    /// after it.
    fn save(
        &self,
        save: &mut SaveFile<'_>,
        packed: &PackedBuf,
        tail: &Window,
        split: usize,
        ranks: &Ranks,
        t: u32,
    ) -> Result<(), GameError> {
        let (rules, n) = (self.rules, self.n);
        let end = ranks.offset[t as usize + 1] as usize;
        let rest = PackedBuf::pack(tail, split, ranks, n, split..end, 1);
        save(t, &mut |w| {
            EndgameDb::write_packed(w, rules, n, t, end, &[packed.view(), rest.view()])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built on a smaller database with a file kept after every layer,
    /// stopped after two layers and taken up again from the last file
    /// kept, as the static site does across a page loaded again: every
    /// value equals the database built whole in one go, the files kept
    /// are smaller databases whole, and a base of other rules is refused.
    #[test]
    fn a_build_on_a_smaller_database_goes_on_from_the_files_it_kept() {
        let never = AtomicBool::new(false);
        let (rules, n, stones) = (Rules::KALAH, 3, 14);
        let whole = EndgameDb::build(rules, n, stones, 1, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        let read = |bytes: &[u8]| {
            EndgameDb::from_bytes(Path::new("kept"), bytes, rules, n, 1 << 30).unwrap()
        };
        let small = EndgameDb::build(rules, n, 8, 1, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        let mut kept: Vec<(u32, Vec<u8>)> = Vec::new();
        let stop = AtomicBool::new(false);
        let mut save = |t: u32, fill: &mut FillFile<'_>| {
            let mut bytes = Vec::new();
            fill(&mut bytes).expect("a vector takes every write");
            kept.push((t, bytes));
            // Stopped once two layers are kept: the next layer's first
            // check of the flag ends it.
            stop.store(kept.len() == 2, Ordering::Relaxed);
            Ok(())
        };
        let progress = BuildProgress::default();
        let first = EndgameDb::build_on(
            Some(small),
            rules,
            n,
            stones,
            1,
            1 << 30,
            Duration::ZERO,
            &stop,
            &progress,
            &mut save,
        )
        .unwrap();
        assert_eq!(first.resumed_from, Some(8));
        assert!(!first.complete);
        let last = kept.last().expect("two layers kept").clone();
        assert_eq!(kept.iter().map(|k| k.0).collect::<Vec<_>>(), [9, 10]);
        let part = read(&last.1);
        assert_eq!(part.stones(), 10);
        let prefix = Endgame::bytes(2 * n, 10) as usize;
        assert_eq!(part.db.every_value(n), whole.db.every_value(n)[..prefix]);

        let mut done = Vec::new();
        let mut save = |t: u32, fill: &mut FillFile<'_>| {
            let mut bytes = Vec::new();
            fill(&mut bytes).expect("a vector takes every write");
            done.push((t, bytes));
            Ok(())
        };
        let progress = BuildProgress::default();
        let again = EndgameDb::build_on(
            Some(part),
            rules,
            n,
            stones,
            1,
            1 << 30,
            Duration::from_secs(3600),
            &never,
            &progress,
            &mut save,
        )
        .unwrap();
        assert!(again.complete && again.stones == Some(stones));
        assert_eq!(done.len(), 1, "kept once, at the end, an hour apart");
        assert_eq!(progress.share(), 1.0);
        let built = read(&done[0].1);
        assert_eq!(built.db.every_value(n), whole.db.every_value(n));
        let mut bytes = Vec::new();
        whole.write_to(&mut bytes).unwrap();
        assert_eq!(done[0].1, bytes, "the file a build in one go writes");

        let foreign = EndgameDb::build(Rules::AVALANCHE, n, 4, 1, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        let refused = EndgameDb::build_on(
            Some(foreign),
            rules,
            n,
            stones,
            1,
            1 << 30,
            Duration::ZERO,
            &never,
            &BuildProgress::default(),
            &mut |_, _| Ok(()),
        );
        assert!(
            matches!(
                refused,
                Err(GameError::Endgame(EndgameError::ForeignFile { .. }))
            ),
            "{refused:?}"
        );
    }

    /// The build's window holds a value in 5 bits up to 30 stones and in
    /// 8 above ([`Window`]): each, on one thread and on three (threads
    /// that write neighbours in one word), writes byte for byte the file
    /// of the whole build a byte a position, which has no window.
    #[test]
    fn the_window_narrow_and_wide_writes_the_whole_builds_file() {
        let never = AtomicBool::new(false);
        for (rules, n, stones) in [
            (Rules::KALAH, 2, 40),
            (Rules::KALAH, 3, 16),
            (Rules::AVALANCHE, 3, 12),
        ] {
            let whole = EndgameDb::build(rules, n, stones, 1, 1 << 30, &never, |_, _| {})
                .unwrap()
                .unwrap();
            let mut want = Vec::new();
            whole.write_to(&mut want).unwrap();
            for threads in [1, 3] {
                let mut file = Vec::new();
                let built = EndgameDb::build_on(
                    None,
                    rules,
                    n,
                    stones,
                    threads,
                    1 << 30,
                    Duration::from_secs(3600),
                    &never,
                    &BuildProgress::default(),
                    &mut |_, fill| {
                        file.clear();
                        fill(&mut file).map_err(|e| unreachable!("a vector: {e}"))
                    },
                )
                .unwrap();
                assert!(built.complete);
                assert!(
                    file == want,
                    "{rules:?} {n} pits {stones} stones, {threads} threads"
                );
            }
        }
    }

    /// The share and the forecast weigh a position by its stones: a
    /// server restarted with 20 of 22 stones' layers held has most of the
    /// positions but less of the work done.
    #[test]
    fn the_share_weighs_positions_by_their_stones() {
        let progress = BuildProgress::default();
        progress.start(12, 22, Some(20));
        let share = progress.share();
        assert_eq!(share, work_of(12, 20) as f64 / work_of(12, 22) as f64);
        let by_positions = progress.done() as f64 / progress.total() as f64;
        assert!(share < by_positions, "{share} against {by_positions}");
        // On 2 pits: the 3 positions of at most 1 stone (the empty board
        // counts with them, as in `Endgame::bytes`) weigh 1 each, the 3
        // of 2 stones 2 each.
        assert_eq!(work_of(2, 2), 3 + 3 * 2);
        assert_eq!(progress.seconds_left(10.0), None, "nothing built yet");
    }

    /// A paused build waits at the end of a piece of positions and, let
    /// go, finishes the same file.
    #[test]
    fn a_paused_build_waits_and_then_finishes_the_same_file() {
        let never = AtomicBool::new(false);
        let (rules, n, stones) = (Rules::KALAH, 3, 14);
        let whole = EndgameDb::build(rules, n, stones, 1, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        let progress = BuildProgress::default();
        progress.pause(true);
        let mut file = Vec::new();
        let built = std::thread::scope(|scope| {
            let building = scope.spawn(|| {
                let mut save = |_: u32, fill: &mut FillFile<'_>| {
                    file.clear();
                    fill(&mut file).expect("a vector takes every write");
                    Ok(())
                };
                EndgameDb::build_on(
                    None,
                    rules,
                    n,
                    stones,
                    2,
                    1 << 30,
                    Duration::from_secs(3600),
                    &never,
                    &progress,
                    &mut save,
                )
                .unwrap()
            });
            std::thread::sleep(Duration::from_millis(300));
            let held = progress.done();
            assert!(!building.is_finished(), "a paused build went on");
            assert!(held < progress.total().max(1), "{held} positions done");
            std::thread::sleep(Duration::from_millis(100));
            assert_eq!(progress.done(), held, "a paused build went on");
            progress.pause(false);
            building.join().unwrap()
        });
        assert!(built.complete);
        let mut want = Vec::new();
        whole.write_to(&mut want).unwrap();
        assert_eq!(file, want);
    }
}
