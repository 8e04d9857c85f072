//! Where an endgame database's values live: memory of the process's own
//! (a database being built, or read to be built on), or a database file
//! mapped into memory as it is.
//!
//! Why both: reading a file whole costs a pass over every byte before the
//! first probe (seconds for a database of hundreds of megabytes, longer
//! than the one-second analysis it serves), while a mapped file is there at
//! once and the system brings in only the pages probed, keeping them
//! between runs. Memory of its own can be given huge pages, which a mapped
//! file cannot, so a long solve that reads the database whole probes it
//! faster (the two are compared in docs/notebook/endgame-cache.md).

use std::sync::atomic::AtomicI8;

/// What holds the values' memory.
enum Owner {
    /// Memory of this process's own.
    Owned(Vec<AtomicI8>),
    /// A file mapped copy-on-write: the file is never written through the
    /// map, and a value stored (a database complete in its file has none
    /// left to fill) stays in this process.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped {
        /// Held for as long as the values are read; unmapped on drop.
        _map: memmap2::MmapMut,
    },
}

/// The values of an endgame database, one signed byte a position. The
/// slice is found once, when the values are made, so that a probe (the
/// solver's hot path) reads through a plain pointer whatever holds them.
pub(crate) struct Values {
    ptr: *const AtomicI8,
    len: usize,
    /// Keeps the memory `ptr` points into; never grown or moved.
    owner: Owner,
}

// SAFETY: `ptr` points into `owner`, which moves with the struct (a
// vector's or a map's memory does not move when they do) and is never
// reallocated; the values are atomics, so shared access from many threads
// is sound, as for a `Vec<AtomicI8>`.
unsafe impl Send for Values {}
// SAFETY: as above.
unsafe impl Sync for Values {}

impl Values {
    /// The values in `v`.
    pub(crate) fn owned(v: Vec<AtomicI8>) -> Values {
        Values {
            ptr: v.as_ptr(),
            len: v.len(),
            owner: Owner::Owned(v),
        }
    }

    /// The first `len` values of the file `file` from byte `offset`,
    /// mapped; the system is asked to read them ahead in the background.
    ///
    /// The files this maps are only ever replaced whole (written beside
    /// and renamed), never written in place, so the mapped bytes do not
    /// change under the map.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn map(file: &std::fs::File, offset: usize, len: usize) -> std::io::Result<Values> {
        // SAFETY: the map is private (copy-on-write), so nothing this
        // process stores reaches the file, and the database files are
        // replaced by rename, never truncated or written in place (see
        // `crate::atomic_file`), so the mapped pages stay valid.
        let map = unsafe { memmap2::MmapOptions::new().map_copy(file)? };
        if map.len() < offset + len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file is shorter than its values",
            ));
        }
        let _ = map.advise(memmap2::Advice::WillNeed);
        // `AtomicI8` has the size, alignment and bit validity of `u8`, and
        // the map is writable memory of this process's own.
        let ptr = map[offset..].as_ptr().cast::<AtomicI8>();
        Ok(Values {
            ptr,
            len,
            owner: Owner::Mapped { _map: map },
        })
    }

    /// The values as bytes to write into, when they are memory of the
    /// process's own and not shared yet (a database read from its file).
    pub(crate) fn owned_bytes_mut(&mut self) -> Option<&mut [u8]> {
        match &mut self.owner {
            Owner::Owned(v) => {
                // SAFETY: `AtomicI8` has the size, alignment and bit
                // validity of `u8`, and `&mut self` means no other
                // reference to the values exists.
                Some(unsafe {
                    std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), v.len())
                })
            }
            #[cfg(not(target_arch = "wasm32"))]
            Owner::Mapped { .. } => None,
        }
    }

    /// True when the values are a mapped file.
    pub(crate) fn is_mapped(&self) -> bool {
        !matches!(self.owner, Owner::Owned(_))
    }
}

impl std::ops::Deref for Values {
    type Target = [AtomicI8];

    #[inline]
    fn deref(&self) -> &[AtomicI8] {
        // SAFETY: `ptr` and `len` describe memory `owner` holds for as long
        // as `self` lives (see the type's invariant).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
