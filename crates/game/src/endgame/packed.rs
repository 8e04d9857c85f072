//! The endgame database packed: under 4 bits a position where a byte
//! each took 8, every value still exact and probed in one cache line.
//!
//! Why: the database is the lever of the middle game's proofs (each two
//! stones more prove a large share more of a one-second analysis), and its
//! size is what limits it: 26 stones on 6 pits a side are 2.7 GB a byte a
//! position, past what a laptop's default run keeps to; packed they are
//! about 1.3 GB. Smaller also means more of it in the cache, where the
//! solver's probes wait on memory.
//!
//! How: a position's value `v` (the mover's future gains minus the
//! opponent's) has the parity of its `t` stones, so `g = (v + t) / 2`, the
//! stones the mover will gain, carries it whole in `0..=t`. Neighbours in
//! rank order differ in the opponent's last pits and their `g` lie close,
//! so [`PER_WORD`] of them share a word of 3-bit codes over a 7-bit base:
//! `g = base + code` for codes 0 to 6, and code 7 marks an exception,
//! whose exact value is kept in a list in rank order. A 64-byte line holds
//! [`WORDS`] such words and a first word with their bases and the count of
//! exceptions before the line in its group of [`GROUP`] lines; a directory
//! holds where each group's exceptions start. So a probe reads one line,
//! and an exception two more loads: the directory's entry and the value,
//! found by counting the codes 7 before it in its line. The base of a word
//! is the one that leaves the fewest exceptions (measured on Kalah's
//! databases: 2% of positions at 16 stones, 4% at 20). A position with a
//! side empty is never probed (the game is over there), so its code is 0.

use super::window::Window;
use std::sync::atomic::{AtomicI8, Ordering};

/// Values to pack, by position from the first rank given.
pub(crate) trait Source: Sync {
    /// The value of position `i`, of `total` stones.
    fn value(&self, i: usize, total: u32) -> i8;

    /// Told that positions `range` are packed and are not read again.
    fn packed(&self, range: std::ops::Range<usize>) {
        let _ = range;
    }
}

impl Source for [AtomicI8] {
    fn value(&self, i: usize, _: u32) -> i8 {
        self[i].load(Ordering::Relaxed)
    }
}

impl Source for Window {
    fn value(&self, i: usize, total: u32) -> i8 {
        self.get(i, total)
    }
}

/// A window whose positions, once packed, give their memory back
/// ([`Window::release`]): a build's layer packed at its end, so that the
/// window shrinks as the packed layer grows.
pub(crate) struct GivingBack<'a>(pub(crate) &'a Window);

impl Source for GivingBack<'_> {
    fn value(&self, i: usize, total: u32) -> i8 {
        self.0.get(i, total)
    }

    fn packed(&self, range: std::ops::Range<usize>) {
        self.0.release(range)
    }
}

/// Positions a word of codes holds (63 of its bits).
const PER_WORD: usize = 21;

/// Words of codes a line holds, after its first word.
const WORDS: usize = 7;

/// Positions a line holds.
pub(crate) const PER_LINE: usize = PER_WORD * WORDS;

/// Lines a group holds: a line's count of the exceptions before it in its
/// group takes the 15 bits its first word has left (at most 16 × 147).
pub(crate) const GROUP: usize = 16;

/// Positions a group of lines holds: a build packs whole groups.
pub(crate) const GROUP_POSITIONS: usize = PER_LINE * GROUP;

/// Bits of a word's base.
const BASE_BITS: u32 = 7;

/// The code of a position whose value is in the exceptions.
const ESCAPE: u64 = 7;

/// The lowest bit of each code of a word.
const LOW_BITS: u64 = {
    let mut m = 0;
    let mut j = 0;
    while j < PER_WORD {
        m |= 1 << (3 * j);
        j += 1;
    }
    m
};

/// Positions a thread packs at a time: whole groups, so that the pieces
/// join end to end.
const CHUNK: usize = PER_LINE * GROUP * 64;

/// One line of the packed values: the bases and the count, then the
/// codes; aligned so that it is one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(crate) struct CacheLine(pub(crate) [u64; WORDS + 1]);

/// The packed values, as the arrays of a file or of memory of their own:
/// the lines, the directory of the exceptions (the index of each group's
/// first), and the exceptions' exact values in rank order.
pub(crate) struct Packed<'a> {
    pub(crate) lines: &'a [CacheLine],
    pub(crate) dir: &'a [u32],
    pub(crate) vals: &'a [i8],
}

/// The value of `g` as the database keeps it, for `total` stones.
#[inline(always)]
fn value_of(g: u64, total: u32) -> i8 {
    (2 * g as i32 - total as i32) as i8
}

/// The codes 7 of `word`, a bit each (at the lowest bit of the code).
#[inline(always)]
fn escapes(word: u64) -> u64 {
    word & (word >> 1) & (word >> 2) & LOW_BITS
}

impl Packed<'_> {
    /// The value of the position of rank `r` with `total` stones in its
    /// pits: exact, unless its side is empty (never probed) or the arrays
    /// are damaged ([`super::UNKNOWN`] then).
    #[inline(always)]
    pub(crate) fn get(&self, r: usize, total: u32) -> i8 {
        let line = &self.lines[r / PER_LINE].0;
        let at = r % PER_LINE;
        let (w, j) = (at / PER_WORD, at % PER_WORD);
        let word = u64::from_le(line[1 + w]);
        let code = (word >> (3 * j)) & 7;
        if code != ESCAPE {
            let base = (u64::from_le(line[0]) >> (BASE_BITS as usize * w)) & 0x7f;
            return value_of(base + code, total);
        }
        self.exception(line, r / PER_LINE, w, j)
    }

    /// The exact value of the exception at code `j` of word `w` of line
    /// `l`: the count of exceptions before it in its group, from the
    /// directory, the line's first word and its codes 7.
    #[inline(never)]
    fn exception(&self, line: &[u64; WORDS + 1], l: usize, w: usize, j: usize) -> i8 {
        let Some(&first) = self.dir.get(l / GROUP) else {
            return super::UNKNOWN;
        };
        let mut i = u32::from_le(first) as usize + (u64::from_le(line[0]) >> 49) as usize;
        for &word in &line[1..1 + w] {
            i += escapes(u64::from_le(word)).count_ones() as usize;
        }
        let below = (1u64 << (3 * j)) - 1;
        i += (escapes(u64::from_le(line[1 + w])) & below).count_ones() as usize;
        self.vals.get(i).copied().unwrap_or(super::UNKNOWN)
    }

    /// The line of rank `r` asked for.
    #[inline(always)]
    pub(crate) fn prefetch(&self, r: usize) {
        super::prefetch_line(&self.lines[r / PER_LINE]);
    }

    /// Checks that the arrays fit one another for `positions` positions,
    /// so that a probe of a damaged file finds nothing rather than reading
    /// out of place: the lines and the directory as long as the positions
    /// need, the directory rising, within the exceptions.
    pub(crate) fn fits(&self, positions: usize) -> bool {
        let lines = positions.div_ceil(PER_LINE);
        self.lines.len() >= lines
            && self.dir.len() >= lines.div_ceil(GROUP)
            && self
                .dir
                .windows(2)
                .all(|w| u32::from_le(w[0]) <= u32::from_le(w[1]))
            && self
                .dir
                .last()
                .is_none_or(|&e| u32::from_le(e) as usize <= self.vals.len())
    }
}

/// Packed arrays of memory of their own, made from a byte a position.
#[derive(Default)]
pub(crate) struct PackedBuf {
    pub(crate) lines: Vec<CacheLine>,
    pub(crate) dir: Vec<u32>,
    pub(crate) vals: Vec<i8>,
}

impl PackedBuf {
    /// The arrays to probe.
    pub(crate) fn view(&self) -> Packed<'_> {
        Packed {
            lines: &self.lines,
            dir: &self.dir,
            vals: &self.vals,
        }
    }

    /// Packs the values of `ranks` `range` from `source` (its position 0
    /// is rank `start`; every one in the range filled: a byte a position
    /// or a build's window), ranked by `ranks`, on `threads` threads;
    /// `range` starts a group.
    pub(crate) fn pack(
        source: &(impl Source + ?Sized),
        start: usize,
        ranks: &super::Ranks,
        n: usize,
        range: std::ops::Range<usize>,
        threads: usize,
    ) -> PackedBuf {
        let mut out = PackedBuf::default();
        out.pack_onto(source, start, ranks, n, range, threads);
        out
    }

    /// [`PackedBuf::pack`] appended to these arrays (whose last group is
    /// whole), each thread's piece as soon as it and those before it are
    /// done: a layer of hundreds of megabytes is not held twice.
    pub(crate) fn pack_onto(
        &mut self,
        source: &(impl Source + ?Sized),
        start: usize,
        ranks: &super::Ranks,
        n: usize,
        range: std::ops::Range<usize>,
        threads: usize,
    ) {
        debug_assert_eq!(range.start % GROUP_POSITIONS, 0);
        self.lines.reserve(range.len().div_ceil(PER_LINE));
        let chunks = range.len().div_ceil(CHUNK);
        let next = std::sync::atomic::AtomicUsize::new(0);
        // The pieces packed and not yet appended, and how many are.
        let done = std::sync::Mutex::new((self, 0usize, std::collections::BTreeMap::new()));
        let work = || loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks {
                break;
            }
            let from = range.start + c * CHUNK;
            let to = range.end.min(from + CHUNK);
            let piece = pack_range(source, start, ranks, n, from, to);
            source.packed(from - start..to - start);
            let mut d = done.lock().expect("the pieces' lock");
            let (out, appended, waiting) = &mut *d;
            waiting.insert(c, piece);
            while let Some(p) = waiting.remove(appended) {
                out.append(p);
                *appended += 1;
            }
        };
        if threads <= 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for _ in 1..threads {
                    s.spawn(work);
                }
                work();
            });
        }
    }

    /// `more` after these (whose last group is whole).
    pub(crate) fn append(&mut self, more: PackedBuf) {
        let first = self.vals.len() as u32;
        self.lines.extend_from_slice(&more.lines);
        // Each part's directory counts from its own first exception.
        self.dir
            .extend(more.dir.iter().map(|&d| (u32::from_le(d) + first).to_le()));
        self.vals.extend_from_slice(&more.vals);
    }

    /// These arrays copied (a database another holder shares).
    pub(crate) fn copy_of(p: &Packed<'_>) -> PackedBuf {
        PackedBuf {
            lines: p.lines.to_vec(),
            dir: p.dir.to_vec(),
            vals: p.vals.to_vec(),
        }
    }

    /// Room for `lines` lines, `dir` directory entries and `exceptions`
    /// exceptions in all, reserved exactly: a build that reserves its
    /// whole database at the start never holds a vector and its grown
    /// copy at once.
    pub(crate) fn reserve_for(&mut self, lines: usize, dir: usize, exceptions: usize) {
        self.lines
            .reserve_exact(lines.saturating_sub(self.lines.len()));
        self.dir.reserve_exact(dir.saturating_sub(self.dir.len()));
        self.vals
            .reserve_exact(exceptions.saturating_sub(self.vals.len()));
    }

    /// Keeps the first `positions` positions (a smaller database whole).
    pub(crate) fn truncate_to(&mut self, positions: usize) {
        let layout = self.view().layout(positions);
        self.lines.truncate(layout.lines);
        self.dir.truncate(layout.dir);
        self.vals.truncate(layout.exceptions);
    }

    /// Keeps the ranks below `split`, which starts a group.
    pub(crate) fn truncate(&mut self, split: usize) {
        let group = split / GROUP_POSITIONS;
        let exceptions = self
            .dir
            .get(group)
            .map_or(self.vals.len(), |&d| u32::from_le(d) as usize);
        self.lines.truncate(split / PER_LINE);
        self.dir.truncate(group);
        self.vals.truncate(exceptions);
    }
}

/// The lines, the directory (relative to the piece's first exception)
/// and the exceptions of ranks `from..to` (their values in `source`,
/// whose position 0 is rank `start`), where
/// `from` starts a group. Kept little-endian, as a file holds them and a
/// probe reads them.
fn pack_range(
    source: &(impl Source + ?Sized),
    start: usize,
    ranks: &super::Ranks,
    n: usize,
    from: usize,
    to: usize,
) -> PackedBuf {
    let m = 2 * n;
    let mut out = PackedBuf::default();
    let mut pits = ranks.unrank(from as u64);
    let mut total: u32 = pits[..m].iter().map(|&c| c as u32).sum();
    // Per position of a word: its g, or None for a position never probed
    // (a side empty), and its value.
    let mut word: [(Option<u64>, i8); PER_WORD] = [(None, 0); PER_WORD];
    let mut r = from;
    while r < to {
        let l = out.lines.len();
        if l % GROUP == 0 {
            out.dir.push(out.vals.len() as u32);
        }
        let in_group = out.vals.len() - out.dir[l / GROUP] as usize;
        let mut line = [0u64; WORDS + 1];
        line[0] = (in_group as u64) << 49;
        for w in 0..WORDS {
            let len = PER_WORD.min(to - r);
            for slot in word.iter_mut().take(len) {
                let v = source.value(r - start, total);
                let over = pits[..n].iter().all(|&c| c == 0) || pits[n..m].iter().all(|&c| c == 0);
                let g = (v as i32 + total as i32).max(0) as u64 / 2;
                *slot = ((!over).then_some(g), v);
                r += 1;
                if !super::next_composition(&mut pits[..m]) && r < to {
                    total += 1;
                    pits = ranks.unrank(r as u64);
                }
            }
            let base = best_base(&word[..len]);
            line[0] |= base << (BASE_BITS as usize * w);
            for (j, &(g, v)) in word[..len].iter().enumerate() {
                let code = match g {
                    None => 0,
                    Some(g) if g >= base && g - base < ESCAPE => g - base,
                    Some(_) => {
                        out.vals.push(v);
                        ESCAPE
                    }
                };
                line[1 + w] |= code << (3 * j);
            }
            if r >= to {
                break;
            }
        }
        out.lines.push(CacheLine(line.map(u64::to_le)));
    }
    out
}

/// The base that puts the most of `word`'s values within the codes, the
/// lowest such (at most what 7 bits hold).
fn best_base(word: &[(Option<u64>, i8)]) -> u64 {
    let mut gs = [0u64; PER_WORD];
    let mut len = 0;
    for g in word.iter().filter_map(|&(g, _)| g) {
        gs[len] = g;
        len += 1;
    }
    let gs = &mut gs[..len];
    gs.sort_unstable();
    let (mut best, mut most) = (0, 0);
    let mut hi = 0;
    for (i, &lo) in gs.iter().enumerate() {
        let lo = lo.min((1 << BASE_BITS) - 1);
        hi = hi.max(i);
        while hi < gs.len() && gs[hi] < lo + ESCAPE {
            hi += 1;
        }
        if hi - i > most {
            (best, most) = (lo, hi - i);
        }
    }
    best
}

impl Packed<'_> {
    /// Where the arrays of the first `positions` positions end: the lines
    /// that hold them, the directory of their groups, and the exceptions
    /// of those lines (a line's exceptions of ranks past `positions` ride
    /// along, never probed).
    pub(crate) fn layout(&self, positions: usize) -> PackedLayout {
        let lines = positions.div_ceil(PER_LINE);
        let exceptions = match lines.checked_sub(1) {
            None => 0,
            Some(last) => {
                let line = &self.lines[last].0;
                let mut e = u32::from_le(self.dir[last / GROUP]) as usize
                    + (u64::from_le(line[0]) >> 49) as usize;
                for &word in &line[1..] {
                    e += escapes(u64::from_le(word)).count_ones() as usize;
                }
                e
            }
        };
        PackedLayout {
            lines,
            dir: lines.div_ceil(GROUP),
            exceptions,
        }
    }

    /// The first `positions` positions' arrays, as [`Packed::layout`]
    /// cuts them.
    pub(crate) fn prefix(&self, positions: usize) -> Packed<'_> {
        let l = self.layout(positions);
        Packed {
            lines: &self.lines[..l.lines],
            dir: &self.dir[..l.dir],
            vals: &self.vals[..l.exceptions],
        }
    }

    /// The values of the first `positions` positions a byte each into
    /// `out`, ranked by `ranks` (for a build to go on from).
    pub(crate) fn unpack_into(&self, ranks: &super::Ranks, positions: usize, out: &mut [u8]) {
        let mut total = 0;
        for (r, o) in out.iter_mut().enumerate().take(positions) {
            while ranks.offset[total as usize + 1] <= r as u64 {
                total += 1;
            }
            *o = self.get(r, total) as u8;
        }
    }
}

/// Writes `parts`' arrays joined, as a file holds them (little-endian,
/// each array from a multiple of 8 bytes; see [`PackedLayout::offsets`]):
/// every part but the last ends on a whole group.
pub(crate) fn write_joined<W: std::io::Write + ?Sized>(
    w: &mut W,
    parts: &[Packed<'_>],
) -> std::io::Result<()> {
    let l = PackedLayout {
        lines: parts.iter().map(|p| p.lines.len()).sum(),
        dir: parts.iter().map(|p| p.dir.len()).sum(),
        exceptions: parts.iter().map(|p| p.vals.len()).sum(),
    };
    let o = l.offsets();
    for p in parts {
        write_le(w, p.lines.as_flattened_words(), |x| {
            u64::from_le(x).to_le_bytes()
        })?;
    }
    let mut first = 0;
    for p in parts {
        write_le(w, p.dir, |x| (u32::from_le(x) + first).to_le_bytes())?;
        first += p.vals.len() as u32;
    }
    w.write_all(&[0u8; 8][..o[2] - (o[1] + l.dir * 4)])?;
    for p in parts {
        write_le(w, p.vals, |x| x.to_le_bytes())?;
    }
    w.write_all(&[0u8; 8][..o[3] - (o[2] + l.exceptions)])
}

/// A slice of lines as its words.
trait Words {
    fn as_flattened_words(&self) -> &[u64];
}

impl Words for &[CacheLine] {
    fn as_flattened_words(&self) -> &[u64] {
        // SAFETY: `CacheLine` is `repr(C)` over `[u64; 8]` and exactly 64 bytes
        // (its alignment adds no padding), so the lines are their words
        // end to end.
        unsafe { std::slice::from_raw_parts(self.as_ptr().cast::<u64>(), self.len() * (WORDS + 1)) }
    }
}

/// Writes `xs` little-endian, a megabyte at a time.
fn write_le<W: std::io::Write + ?Sized, T: Copy, const B: usize>(
    w: &mut W,
    xs: &[T],
    bytes: impl Fn(T) -> [u8; B],
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 20);
    for chunk in xs.chunks((1 << 20) / B) {
        buf.clear();
        for &x in chunk {
            buf.extend_from_slice(&bytes(x));
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// Reads `len` little-endian values of `B` bytes from `r`.
fn read_le<T, const B: usize>(
    r: &mut impl std::io::Read,
    len: usize,
    room: usize,
    from: impl Fn([u8; B]) -> T,
) -> std::io::Result<Vec<T>> {
    let mut out = Vec::with_capacity(len.max(room));
    let mut buf = vec![0u8; (1 << 20) / B * B];
    let mut left = len;
    while left > 0 {
        let take = left.min(buf.len() / B);
        r.read_exact(&mut buf[..take * B])?;
        out.extend(
            buf[..take * B]
                .chunks_exact(B)
                .map(|c| from(c.try_into().expect("B bytes"))),
        );
        left -= take;
    }
    Ok(out)
}

impl PackedBuf {
    /// Reads the arrays a file holds as `file` lays them out, keeping the
    /// first `take`'s worth of each (a smaller database whole), kept in
    /// memory little-endian as a probe reads them.
    pub(crate) fn read(
        r: &mut impl std::io::Read,
        file: PackedLayout,
        take: PackedLayout,
    ) -> std::io::Result<PackedBuf> {
        PackedBuf::read_with_room(r, file, take, PackedLayout::default())
    }

    /// [`PackedBuf::read`] into arrays with room for `room`'s worth of
    /// each: a build on them grows nothing.
    pub(crate) fn read_with_room(
        r: &mut impl std::io::Read,
        file: PackedLayout,
        take: PackedLayout,
        room: PackedLayout,
    ) -> std::io::Result<PackedBuf> {
        fn skip(r: &mut impl std::io::Read, n: usize) -> std::io::Result<()> {
            std::io::copy(&mut std::io::Read::take(r, n as u64), &mut std::io::sink()).map(|_| ())
        }
        let o = file.offsets();
        // Read as lines, not as words gathered into lines after: a
        // database of a gigabyte is not held twice.
        let lines = read_le(r, take.lines, room.lines, |b: [u8; 64]| {
            CacheLine(std::array::from_fn(|i| {
                u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes")).to_le()
            }))
        })?;
        skip(r, o[1] - take.lines * 64)?;
        let dir = read_le(r, take.dir, room.dir, |b| u32::from_le_bytes(b).to_le())?;
        skip(r, o[2] - o[1] - take.dir * 4)?;
        let vals = read_le(r, take.exceptions, room.exceptions, |b: [u8; 1]| b[0] as i8)?;
        Ok(PackedBuf { lines, dir, vals })
    }
}

pub(crate) use super::values::PackedLayout;

#[cfg(test)]
mod tests {
    use super::super::{BuildProgress, Endgame, EndgameDb, Reading, ENDGAME_FORMAT_BYTES};
    use base::header::Header;
    use rules::{Capture, Rules};
    use std::io::Write;
    use std::path::Path;
    use std::sync::atomic::AtomicBool;

    fn rule_sets() -> [Rules; 3] {
        [
            Rules::KALAH,
            Rules {
                capture: Capture::Empty,
                ..Rules::KALAH
            },
            Rules::AVALANCHE,
        ]
    }

    /// Packed on one thread and on three, every value of a position with
    /// stones on both sides is the byte the build made, on boards of 2, 3
    /// and 6 pits a side under three rule sets; the exceptions are few.
    #[test]
    fn packed_values_are_the_bytes_built() {
        let never = AtomicBool::new(false);
        for rules in rule_sets() {
            for (n, stones) in [(2, 14), (3, 12), (6, 9)] {
                let built = Endgame::new(2 * n, stones);
                assert!(built.build(n, rules, 2, &never));
                let want = built.every_value(n);
                let positions = built.values.len();
                for threads in [1, 3] {
                    let (values, ranks) = (built.values.bytes(), &built.ranks);
                    let p = super::PackedBuf::pack(values, 0, ranks, n, 0..positions, threads);
                    assert!(p.view().fits(positions));
                    assert!(p.vals.len() * 10 < positions, "{} exceptions", p.vals.len());
                    let packed = Endgame::packed(2 * n, stones, p);
                    assert_eq!(packed.every_value(n), want, "{rules} {n} {stones}");
                }
            }
        }
    }

    /// Written packed and read back whole and mapped, a file holds the
    /// values of the database built in memory, and any prefix of it is
    /// the smaller database built alone; a file of the first format (a
    /// byte a position) is read as it is, and a build on it writes it
    /// packed with the same values.
    #[test]
    fn packed_files_read_back_whole_mapped_and_in_part() {
        let never = AtomicBool::new(false);
        let dir = std::env::temp_dir().join(format!("ms-packed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (rules, n) = (Rules::KALAH, 6);
        let full = dir.join("full.bin");
        assert!(
            EndgameDb::build_file(
                &full,
                rules,
                n,
                10,
                2,
                1 << 30,
                &never,
                &BuildProgress::default()
            )
            .unwrap()
            .complete
        );
        let built = EndgameDb::build(rules, n, 10, 2, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        let want = built.db.every_value(n);
        for reading in [Reading::Whole, Reading::Mapped] {
            let read = EndgameDb::load_as(&full, rules, n, 1 << 30, reading).unwrap();
            assert!(read.is_packed());
            assert!(read.bytes() * 2 < built.bytes(), "{} bytes", read.bytes());
            assert_eq!(read.db.every_value(n), want, "{reading:?}");
            // Within the bytes of 8 stones, packed: the 8-stone database.
            let eight = EndgameDb::build(rules, n, 8, 1, 1 << 30, &never, |_, _| {})
                .unwrap()
                .unwrap();
            let cap = read.bytes_within(8);
            let part = EndgameDb::load_within(&full, rules, n, cap, reading).unwrap();
            assert_eq!(part.stones(), 8);
            assert_eq!(part.db.every_value(n), eight.db.every_value(n));
        }

        // The first format, written as it was: a first line, a byte each.
        let old = dir.join("old.bin");
        let mut f = std::fs::File::create(&old).unwrap();
        let line = format!(
            "{{\"format\":\"{ENDGAME_FORMAT_BYTES}\",\"version\":\"{}\",\"pits_per_side\":{n},\"rules\":{},\"stones\":10,\"positions\":{}}}\n",
            Header::new(ENDGAME_FORMAT_BYTES).version,
            serde_json::to_string(&rules).unwrap(),
            EndgameDb::bytes_for(n, 10)
        );
        f.write_all(line.as_bytes()).unwrap();
        built
            .db
            .write_values(built.db.values.len(), &mut f)
            .unwrap();
        drop(f);
        for reading in [Reading::Whole, Reading::Mapped] {
            let read = EndgameDb::load_as(&old, rules, n, 1 << 30, reading).unwrap();
            assert!(!read.is_packed());
            assert_eq!(read.db.every_value(n), want, "{reading:?}");
        }
        let grown = EndgameDb::build_file(
            &old,
            rules,
            n,
            11,
            2,
            1 << 30,
            &never,
            &BuildProgress::default(),
        )
        .unwrap();
        assert_eq!(grown.resumed_from, Some(10));
        let read = EndgameDb::load(&old, rules, n, 1 << 30).unwrap();
        assert!(read.is_packed());
        let eleven = EndgameDb::build(rules, n, 11, 2, 1 << 30, &never, |_, _| {})
            .unwrap()
            .unwrap();
        assert_eq!(read.db.every_value(n), eleven.db.every_value(n));

        // Cut short, or with a byte more: refused, naming the file.
        let bytes = std::fs::read(&full).unwrap();
        for (name, b) in [
            ("cut", &bytes[..bytes.len() - 8]),
            ("long", &[&bytes[..], &[0]].concat()[..]),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, b).unwrap();
            for reading in [Reading::Whole, Reading::Mapped] {
                let e = EndgameDb::load_as(&path, rules, n, 1 << 30, reading).unwrap_err();
                assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
            }
            let e = EndgameDb::from_bytes(Path::new(name), b, rules, n, 1 << 30).unwrap_err();
            assert!(e.to_string().contains(name), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
