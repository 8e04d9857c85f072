//! The values of the layer a build is making, 5 bits a position
//! ([`Window`]).
//!
//! Why: a build holds the finished layers packed (under 4 bits a
//! position) and the layer it makes in memory it can write from any
//! thread at any rank. At a byte a position that layer would be the
//! build's largest part: 26 stones on 6 pits a side is 854 M positions,
//! 0.85 GB beside 0.91 GB of packed layers below it. A value is stored as
//! `g = (v + t) / 2` (`v` has the parity of the stones `t`, so `g` is
//! exact and lies in 0..=t): 5 bits hold it up to 30 stones, twelve to a
//! 64-bit word (0.57 GB for that layer), with all ones for a value not
//! known yet. Builds of more stones (small boards only) take 8 bits,
//! eight to a word. A value is written with an atomic `and` into a word
//! of ones, so two threads that meet the same position, or neighbours in
//! one word, never lose a write. As the layer is packed its pages go back
//! to the system ([`Window::release`]), so the two forms of the last
//! layer are never held whole together.

use super::UNKNOWN;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most stones whose values fit 5 bits (all ones means unknown).
const NARROW_MOST: u32 = 30;

/// Where a window's values are read and written from: its words and its
/// width, copied into the values' form so that a probe reads through a
/// plain pointer ([`super::values`]).
#[derive(Clone, Copy)]
pub(crate) struct Fields {
    words: *const AtomicU64,
    wide: bool,
}

impl Fields {
    /// The word of position `i` and the shift of its field.
    #[inline(always)]
    fn at(self, i: usize) -> (usize, u32) {
        if self.wide {
            (i / 8, (i % 8) as u32 * 8)
        } else {
            (i / 12, (i % 12) as u32 * 5)
        }
    }

    /// Ones in a field's bits: the field of a value not known yet.
    #[inline(always)]
    fn mask(self) -> u64 {
        if self.wide {
            0xff
        } else {
            0x1f
        }
    }

    /// # Safety
    /// `i` must lie within the window these fields were taken from, which
    /// must still live.
    #[inline(always)]
    unsafe fn word(self, w: usize) -> &'static AtomicU64 {
        // SAFETY: as the caller promises.
        unsafe { &*self.words.add(w) }
    }

    /// The value of position `i`, of `total` stones, or [`UNKNOWN`].
    ///
    /// # Safety
    /// As [`Fields::word`].
    #[inline(always)]
    pub(crate) unsafe fn get(self, i: usize, total: u32) -> i8 {
        let (w, s) = self.at(i);
        // SAFETY: as the caller promises.
        let g = (unsafe { self.word(w) }.load(Ordering::Relaxed) >> s) & self.mask();
        if g == self.mask() {
            UNKNOWN
        } else {
            (2 * g as i32 - total as i32) as i8
        }
    }

    /// Keeps `v` as the value of position `i`, of `total` stones. A value
    /// out of range (a position with a side empty, never probed, whose
    /// value is whatever its empty plan left) is clamped into it.
    ///
    /// # Safety
    /// As [`Fields::word`].
    #[inline(always)]
    pub(crate) unsafe fn set(self, i: usize, v: i8, total: u32) {
        let (w, s) = self.at(i);
        let g = ((v as i32 + total as i32).max(0) as u64 / 2).min(self.mask() - 1);
        // SAFETY: as the caller promises.
        unsafe { self.word(w) }.fetch_and(!(self.mask() << s) | (g << s), Ordering::Relaxed);
    }

    /// The cache line of position `i` asked for.
    ///
    /// # Safety
    /// As [`Fields::word`].
    #[inline(always)]
    pub(crate) unsafe fn prefetch(self, i: usize) {
        // SAFETY: as the caller promises.
        super::prefetch_line(unsafe { self.word(self.at(i).0) });
    }
}

/// The values of the positions from a build's split on: the layer being
/// built and the few of the layer below that share its first group.
pub(crate) struct Window {
    words: Vec<AtomicU64>,
    /// Positions held.
    len: usize,
    wide: bool,
}

impl Window {
    /// An empty window for builds of up to `stones` stones, with room for
    /// `positions` of them made once (on huge pages where the system
    /// gives them): the window is allocated for the largest layer and
    /// never grows.
    pub(crate) fn with_room(stones: u32, positions: usize) -> Window {
        let wide = stones > NARROW_MOST;
        let words = positions.div_ceil(Window::per_word(wide)) + 1;
        let mut v: Vec<AtomicU64> = Vec::with_capacity(words);
        super::advise_huge(v.as_mut_ptr() as usize, words * 8);
        Window {
            words: v,
            len: 0,
            wide,
        }
    }

    fn per_word(wide: bool) -> usize {
        if wide {
            8
        } else {
            12
        }
    }

    /// Bytes of memory a window of `positions` positions of up to
    /// `stones` stones takes.
    pub(crate) fn bytes_for(stones: u32, positions: u64) -> u64 {
        positions.div_ceil(Window::per_word(stones > NARROW_MOST) as u64) * 8
    }

    pub(crate) fn fields(&self) -> Fields {
        Fields {
            words: self.words.as_ptr(),
            wide: self.wide,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes the values take.
    pub(crate) fn memory(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The value of position `i`, of `total` stones, or [`UNKNOWN`].
    pub(crate) fn get(&self, i: usize, total: u32) -> i8 {
        assert!(i < self.len, "position {i} of a window of {}", self.len);
        // SAFETY: `i` lies in the window (checked), which lives.
        unsafe { self.fields().get(i, total) }
    }

    /// Appends `v`, the value of a position of `total` stones.
    pub(crate) fn push(&mut self, v: i8, total: u32) {
        self.grow(self.len + 1);
        if v != UNKNOWN {
            // SAFETY: position `len - 1` lies in the window just grown.
            unsafe { self.fields().set(self.len - 1, v, total) };
        }
    }

    /// Lengthens the window to `len` values not known yet, 64 MiB at a
    /// time with `cancel` checked between; false when cancelled (the
    /// window as long as it got).
    pub(crate) fn fill_to(&mut self, len: usize, cancel: &AtomicBool) -> bool {
        while self.len < len {
            if cancel.load(Ordering::Relaxed) {
                return false;
            }
            let per = Window::per_word(self.wide);
            self.grow(len.min(self.len + (64 << 20) * per / 8));
        }
        true
    }

    /// Lengthens the window to `len` values not known yet.
    fn grow(&mut self, len: usize) {
        let per = Window::per_word(self.wide);
        let (w, s) = self.fields().at(self.len);
        if s > 0 {
            // The fields after the last value of a word shortened by
            // `truncate` become unknown again.
            self.words[w].fetch_or(u64::MAX << s, Ordering::Relaxed);
        }
        self.words
            .resize_with(len.div_ceil(per), || AtomicU64::new(u64::MAX));
        self.len = len;
    }

    /// Keeps the first `len` values.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
        self.words
            .truncate(self.len.div_ceil(Window::per_word(self.wide)));
    }

    /// Drops the first `k` values, a whole number of words (a multiple of
    /// the packed format's group, which is one of 8 and 12): the rest
    /// move to the front.
    pub(crate) fn drain_front(&mut self, k: usize) {
        let per = Window::per_word(self.wide);
        assert_eq!(k % per, 0, "a whole number of words");
        self.words.drain(..k / per);
        self.len -= k;
    }

    /// Gives the memory of the whole pages that hold only positions in
    /// `range` back to the system: those positions are packed and are
    /// never read again before [`Window::drain_front`] drops them (a
    /// page given back reads as zeros). The last layer's window so
    /// shrinks as its packed form grows, and the two are never held
    /// whole together.
    pub(crate) fn release(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            const PAGE: usize = 4096;
            let per = Window::per_word(self.wide);
            let base = self.words.as_ptr() as usize;
            // Words wholly in the range, then pages wholly in those.
            let (first, end) = (range.start.div_ceil(per), range.end / per);
            let from = (base + first * 8).next_multiple_of(PAGE);
            let to = (base + end * 8) / PAGE * PAGE;
            if to > from {
                // SAFETY: the pages lie inside the window's allocation
                // (words `first..end`), whose values the caller no
                // longer reads; the system gives zeroed pages back on
                // the next touch, and the window's later writes (a
                // resize after a drain) write every word before it is
                // read.
                unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_DONTNEED) };
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = range;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of every stone count, narrow and wide, read back as
    /// written, a field's neighbours unchanged; a truncated window grown
    /// again reads unknown after its end.
    #[test]
    fn a_window_keeps_every_value_and_its_unknowns() {
        for stones in [1, 7, 26, 30, 31, 60, 127] {
            let never = AtomicBool::new(false);
            let mut w = Window::with_room(stones, 100);
            assert!(w.fill_to(50, &never));
            let vals: Vec<(i8, u32)> = (0..50usize)
                .map(|i| {
                    let t = stones - (i as u32 % 2).min(stones - 1);
                    // Every value of t's parity from -t to t, in turn.
                    let v = -(t as i32) + 2 * (i as i32 % (t as i32 + 1));
                    (v as i8, t)
                })
                .collect();
            for (i, &(v, t)) in vals.iter().enumerate().step_by(2) {
                // SAFETY: the window holds 50 positions and lives.
                unsafe { w.fields().set(i, v, t) };
            }
            for (i, &(v, t)) in vals.iter().enumerate() {
                let want = if i % 2 == 0 { v } else { UNKNOWN };
                assert_eq!(w.get(i, t), want, "stones {stones}, position {i}");
            }
            w.truncate(25);
            assert!(w.fill_to(40, &never));
            for (i, &(v, t)) in vals.iter().enumerate().take(40) {
                let want = if i % 2 == 0 && i < 25 { v } else { UNKNOWN };
                assert_eq!(
                    w.get(i, t),
                    want,
                    "stones {stones}, position {i} after truncate"
                );
            }
            let per = Window::per_word(w.wide);
            w.drain_front(per);
            assert_eq!(w.len(), 40 - per);
            for (i, &(v, t)) in vals.iter().enumerate().take(40).skip(per) {
                let want = if i % 2 == 0 && i < 25 { v } else { UNKNOWN };
                assert_eq!(
                    w.get(i - per, t),
                    want,
                    "stones {stones}, position {i} after drain"
                );
            }
            w.push(vals[0].0, vals[0].1);
            assert_eq!(w.get(w.len() - 1, vals[0].1), vals[0].0);
        }
    }
}
