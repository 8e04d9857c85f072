//! Where an endgame database's values live, and in which form: a byte a
//! position (a database being built or filled on demand, or a file of the
//! first format) or packed ([`super::packed`], the files written now), in
//! memory of the process's own or in a database file mapped as it is.
//!
//! Why both places: reading a file whole costs a pass over every byte
//! before the first probe (seconds for a database of hundreds of
//! megabytes, longer than the one-second analysis it serves), while a
//! mapped file is there at once and the system brings in only the pages
//! probed, keeping them between runs. Memory of its own can be given huge
//! pages, which a mapped file cannot, so a long solve that reads the
//! database whole probes it faster (the two are compared in
//! docs/notebook/endgame-cache.md). Why the forms: a database filled on
//! demand is a byte a position (a value is written once, by whichever
//! thread gets to it first), a build's layer is a window of 5 bits a
//! position ([`super::window`]) over the packed layers below, and a
//! finished database is kept packed, at under half the bytes.

use super::packed::{Packed, PackedBuf, GROUP, PER_LINE};
use super::window::{Fields, Window};
use std::sync::atomic::{AtomicI8, Ordering};

/// What holds the values' memory.
enum Owner {
    /// A byte a position, memory of this process's own.
    Bytes(Vec<AtomicI8>),
    /// Packed arrays of this process's own.
    Packed(PackedBuf),
    /// The layers below a build's, packed, and its layer in a window
    /// ([`Window`]: 5 bits a position).
    Layered(PackedBuf, Window),
    /// A file mapped copy-on-write: the file is never written through the
    /// map, and a value stored (a database complete in its file has none
    /// left to fill) stays in this process.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped {
        /// Held for as long as the values are read; unmapped on drop.
        _map: memmap2::MmapMut,
    },
}

/// The form of the values, found once when they are made, so that a probe
/// (the solver's hot path) reads through plain pointers whoever holds
/// them.
enum Form {
    Bytes {
        ptr: *const AtomicI8,
        len: usize,
    },
    Packed(Packed<'static>),
    /// The ranks below `split` packed, the rest in a window's fields.
    Layered {
        packed: Packed<'static>,
        split: usize,
        fields: Fields,
    },
}

/// The values of an endgame database: [`Values::get`] reads the value of a
/// rank in either form; the build and the fill on demand write bytes
/// ([`Values::bytes`]).
pub(crate) struct Values {
    form: Form,
    /// Positions held.
    len: usize,
    /// Keeps the memory `form` points into; never grown or moved.
    owner: Owner,
}

// SAFETY: `form` points into `owner`, which moves with the struct (a
// vector's or a map's memory does not move when they do) and is never
// reallocated; the byte values are atomics and the packed ones are never
// written, so shared access from many threads is sound, as for a
// `Vec<AtomicI8>`.
unsafe impl Send for Values {}
// SAFETY: as above.
unsafe impl Sync for Values {}

/// `bytes` as a slice of another type `T` at `offset`, `len` of them.
///
/// # Safety
/// `offset` must be a multiple of `T`'s alignment from an address aligned
/// for it, the range must lie in `bytes`, every bit pattern must be a `T`,
/// and the memory must outlive the slice and not be written while it is
/// read.
#[cfg(not(target_arch = "wasm32"))]
unsafe fn cast<T>(bytes: &[u8], offset: usize, len: usize) -> &'static [T] {
    let p = bytes[offset..].as_ptr();
    debug_assert_eq!(p as usize % std::mem::align_of::<T>(), 0);
    debug_assert!(offset + len * std::mem::size_of::<T>() <= bytes.len());
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(p.cast::<T>(), len) }
}

/// Where the four arrays of a packed database lie in a file's bytes after
/// its first line, as [`super::db`] lays them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PackedLayout {
    pub(crate) lines: usize,
    pub(crate) dir: usize,
    pub(crate) exceptions: usize,
}

/// The most exceptions a build reckons with, a share of the positions
/// (measured on 6 pits a side: 2% of Kalah's at 16 stones, 4% at 20).
pub(super) const EXCEPTIONS_MOST: f64 = 0.08;

impl PackedLayout {
    /// The room a build of `stones` stones on `n` pits a side reserves
    /// for its packed arrays: every line and directory entry, and the
    /// most exceptions it reckons with ([`EXCEPTIONS_MOST`]).
    pub(super) fn for_build(n: usize, stones: u32) -> PackedLayout {
        let positions = super::Endgame::bytes(2 * n, stones) as usize;
        let lines = positions.div_ceil(PER_LINE);
        PackedLayout {
            lines,
            dir: lines.div_ceil(GROUP),
            exceptions: (positions as f64 * EXCEPTIONS_MOST) as usize,
        }
    }

    /// Byte offsets of the three arrays from the first line, and the end:
    /// the lines first (64 bytes each, so that a line on a 64-byte
    /// boundary of the file is one cache line), then the directory, then
    /// the exceptions, each array from a multiple of 8 bytes.
    pub(crate) fn offsets(&self) -> [usize; 4] {
        let dir = self.lines * 64;
        let vals = (dir + self.dir * 4).next_multiple_of(8);
        let end = (vals + self.exceptions).next_multiple_of(8);
        [0, dir, vals, end]
    }

    /// The lengths of `p`'s arrays.
    pub(crate) fn of(p: &Packed<'_>) -> PackedLayout {
        PackedLayout {
            lines: p.lines.len(),
            dir: p.dir.len(),
            exceptions: p.vals.len(),
        }
    }

    /// Bytes in memory of the arrays.
    pub(crate) fn bytes(&self) -> u64 {
        (self.lines * 64 + self.dir * 4 + self.exceptions) as u64
    }
}
impl Values {
    /// The values in `v`, a byte a position.
    pub(crate) fn owned(v: Vec<AtomicI8>) -> Values {
        Values {
            form: Form::Bytes {
                ptr: v.as_ptr(),
                len: v.len(),
            },
            len: v.len(),
            owner: Owner::Bytes(v),
        }
    }

    /// `positions` values packed in `p`.
    pub(crate) fn packed(p: PackedBuf, positions: usize) -> Values {
        Values {
            form: Form::Packed(Values::view_of(&p)),
            len: positions,
            owner: Owner::Packed(p),
        }
    }

    /// The values of a build: the ranks below `split` packed in `p`, the
    /// rest in `window`, from rank `split` on.
    pub(crate) fn layered(p: PackedBuf, split: usize, window: Window) -> Values {
        Values {
            form: Form::Layered {
                packed: Values::view_of(&p),
                split,
                fields: window.fields(),
            },
            len: split + window.len(),
            owner: Owner::Layered(p, window),
        }
    }

    /// The packed arrays and the window of [`Values::layered`] back.
    pub(crate) fn into_layered(self) -> (PackedBuf, Window) {
        match self.owner {
            Owner::Layered(p, window) => (p, window),
            _ => unreachable!("made by Values::layered"),
        }
    }

    /// The packed arrays of values of this process's own, or else the
    /// values a byte a position (a file of the first format, read whole).
    pub(crate) fn into_packed(self) -> Result<PackedBuf, Vec<AtomicI8>> {
        match self.owner {
            Owner::Packed(p) => Ok(p),
            Owner::Bytes(v) => Err(v),
            _ => unreachable!("a database read whole is its own"),
        }
    }

    /// `p` as slices that live as long as the values (whose owner keeps
    /// `p`).
    fn view_of(p: &PackedBuf) -> Packed<'static> {
        // SAFETY: the vectors move into the values' `owner`, which never
        // grows or moves their memory while the values live; the slices
        // are never written.
        unsafe {
            Packed {
                lines: std::slice::from_raw_parts(p.lines.as_ptr(), p.lines.len()),
                dir: std::slice::from_raw_parts(p.dir.as_ptr(), p.dir.len()),
                vals: std::slice::from_raw_parts(p.vals.as_ptr(), p.vals.len()),
            }
        }
    }

    /// The file `file` mapped: its first `len` values from byte `offset`,
    /// a byte each, or packed (`layout`: the file's arrays, and how much
    /// of each to take); the system is asked to read them ahead in the
    /// background. `None` when the packed arrays do not fit one another.
    ///
    /// The files this maps are only ever replaced whole (written beside
    /// and renamed), never written in place, so the mapped bytes do not
    /// change under the map.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn map(
        file: &std::fs::File,
        offset: usize,
        len: usize,
        layout: Option<(PackedLayout, PackedLayout)>,
    ) -> std::io::Result<Option<Values>> {
        // SAFETY: the map is private (copy-on-write), so nothing this
        // process stores reaches the file, and the database files are
        // replaced by rename, never truncated or written in place (see
        // `base::atomic_file`), so the mapped pages stay valid.
        let map = unsafe { memmap2::MmapOptions::new().map_copy(file)? };
        let end = match layout {
            None => offset + len,
            Some((file, _)) => offset + file.offsets()[3],
        };
        if map.len() < end {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file is shorter than its values",
            ));
        }
        let _ = map.advise(memmap2::Advice::WillNeed);
        let form = match layout {
            None => Form::Bytes {
                // `AtomicI8` has the size, alignment and bit validity of
                // `u8`, and the map is writable memory of this process's
                // own.
                ptr: map[offset..].as_ptr().cast::<AtomicI8>(),
                len,
            },
            Some((file, take)) => {
                let o = file.offsets();
                if !offset.is_multiple_of(64)
                    || take.lines > file.lines
                    || take.dir > file.dir
                    || take.exceptions > file.exceptions
                {
                    return Ok(None);
                }
                // SAFETY: the map starts on a page and `offset` is a
                // multiple of 64 (checked), so each array is aligned; the
                // ranges lie in the file (checked above); integers of any
                // bits are valid; the map lives in `owner` and is never
                // written.
                let view = unsafe {
                    Packed {
                        lines: cast(&map, offset + o[0], take.lines),
                        dir: cast(&map, offset + o[1], take.dir),
                        vals: cast(&map, offset + o[2], take.exceptions),
                    }
                };
                if !view.fits(len) {
                    return Ok(None);
                }
                Form::Packed(view)
            }
        };
        Ok(Some(Values {
            form,
            len,
            owner: Owner::Mapped { _map: map },
        }))
    }

    /// The value of rank `r`, of `total` stones: exact once known,
    /// [`super::UNKNOWN`] before (a byte not yet filled).
    #[inline(always)]
    pub(crate) fn get(&self, r: usize, total: u32) -> i8 {
        match &self.form {
            Form::Bytes { .. } => self.bytes()[r].load(Ordering::Relaxed),
            Form::Packed(p) => p.get(r, total),
            Form::Layered {
                packed,
                split,
                fields,
            } => match r.checked_sub(*split) {
                // SAFETY: a rank from `split` on lies in the window (the
                // values' `len`), which `owner` keeps.
                Some(i) => unsafe { fields.get(i, total) },
                None => packed.get(r, total),
            },
        }
    }

    /// Keeps `v` as the value of rank `r`, of `total` stones, where the
    /// values are written (a packed database is complete and is never
    /// written).
    #[inline(always)]
    pub(crate) fn set(&self, r: usize, v: i8, total: u32) {
        match self.form {
            Form::Bytes { .. } => self.bytes()[r].store(v, Ordering::Relaxed),
            Form::Layered { split, fields, .. } => {
                if let Some(i) = r.checked_sub(split) {
                    debug_assert!(r < self.len);
                    // SAFETY: as in `get`.
                    unsafe { fields.set(i, v, total) }
                }
            }
            Form::Packed(_) => {}
        }
    }

    /// The cache line of rank `r` asked for.
    #[inline(always)]
    pub(crate) fn prefetch(&self, r: usize) {
        match &self.form {
            Form::Bytes { .. } => super::prefetch_line(&self.bytes()[r]),
            Form::Packed(p) => p.prefetch(r),
            Form::Layered {
                packed,
                split,
                fields,
            } => match r.checked_sub(*split) {
                // SAFETY: as in `get`.
                Some(i) => unsafe { fields.prefetch(i) },
                None => packed.prefetch(r),
            },
        }
    }

    /// The values a byte a position (none when they are packed or
    /// layered).
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &[AtomicI8] {
        match self.form {
            // SAFETY: `ptr` and `len` describe memory `owner` holds for as
            // long as `self` lives (see the type's invariant).
            Form::Bytes { ptr, len } => unsafe { std::slice::from_raw_parts(ptr, len) },
            Form::Packed(_) | Form::Layered { .. } => &[],
        }
    }

    /// The packed arrays, when the values are packed.
    pub(crate) fn packed_view(&self) -> Option<&Packed<'static>> {
        match &self.form {
            Form::Packed(p) => Some(p),
            _ => None,
        }
    }

    /// Positions held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes the values take in memory.
    pub(crate) fn memory(&self) -> u64 {
        match &self.form {
            Form::Bytes { len, .. } => *len as u64,
            Form::Packed(p) => PackedLayout::of(p).bytes(),
            Form::Layered { packed, .. } => {
                let Owner::Layered(_, window) = &self.owner else {
                    unreachable!("made by Values::layered")
                };
                PackedLayout::of(packed).bytes() + window.memory()
            }
        }
    }

    /// The values as bytes to write into, when they are a byte a position
    /// of the process's own and not shared yet (a database read from its
    /// file).
    pub(crate) fn owned_bytes_mut(&mut self) -> Option<&mut [u8]> {
        match &mut self.owner {
            Owner::Bytes(v) => {
                // SAFETY: `AtomicI8` has the size, alignment and bit
                // validity of `u8`, and `&mut self` means no other
                // reference to the values exists.
                Some(unsafe {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), v.len())
                })
            }
            _ => None,
        }
    }

    /// True when the values are a mapped file.
    pub(crate) fn is_mapped(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return matches!(self.owner, Owner::Mapped { .. });
        #[cfg(target_arch = "wasm32")]
        false
    }
}
