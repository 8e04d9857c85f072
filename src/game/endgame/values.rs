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

/// The values of an endgame database, one signed byte a position.
pub(crate) enum Values {
    /// Memory of this process's own.
    Owned(Vec<AtomicI8>),
    /// `len` values from byte `offset` of a file mapped copy-on-write: the
    /// file is never written through the map, and a value stored (a
    /// database complete in its file has none left to fill) stays in this
    /// process.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped {
        map: memmap2::MmapMut,
        offset: usize,
        len: usize,
    },
}

impl Values {
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
        Ok(Values::Mapped { map, offset, len })
    }

    /// The memory of the process's own, when the values are in it.
    pub(crate) fn owned_mut(&mut self) -> Option<&mut Vec<AtomicI8>> {
        match self {
            Values::Owned(v) => Some(v),
            #[cfg(not(target_arch = "wasm32"))]
            Values::Mapped { .. } => None,
        }
    }

    /// True when the values are a mapped file.
    pub(crate) fn is_mapped(&self) -> bool {
        !matches!(self, Values::Owned(_))
    }
}

impl std::ops::Deref for Values {
    type Target = [AtomicI8];

    fn deref(&self) -> &[AtomicI8] {
        match self {
            Values::Owned(v) => v,
            #[cfg(not(target_arch = "wasm32"))]
            Values::Mapped { map, offset, len } => {
                let bytes = &map[*offset..*offset + *len];
                // SAFETY: `AtomicI8` has the size, alignment and bit
                // validity of `u8`, and the map is writable memory of this
                // process's own (copy-on-write), so stores through the
                // atomics are allowed; the slice lives as long as `self`.
                unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<AtomicI8>(), *len) }
            }
        }
    }
}
