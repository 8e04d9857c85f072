//! The run file of the store on disk: a bucket's entries in key order,
//! cut into the in-memory store's [`PARTS`] key ranges, each range coded
//! as LEB128 gaps between keys (from 0 at its first key) and LEB128 path
//! counts, with a footer of where each range starts, so that a reader
//! takes one key range of every run at a time. Kept apart from the
//! store's bookkeeping (which runs it holds, the checkpoint): this is the
//! format, and the cluster's batches share its coding.

use super::{io_fail, SpillFail};
use crate::exact::key::Key;
use crate::exact::store::memory::{part_of, Count, Entry, PARTS};
use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// First bytes of a run file.
pub(super) const MAGIC: &[u8; 8] = b"MSWRUN01";
/// Last bytes of a run file: a file cut short does not end with them.
pub(super) const END: &[u8; 8] = b"MSWEND01";
/// Bytes of a run file's footer: part offsets, part counts, entries, end mark.
pub(super) const FOOTER: usize = 8 * (PARTS + 1) + 8 * PARTS + 8 + 8;

#[inline]
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u128) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Read a LEB128 number at `*at`; `None` past the end or beyond 128 bits.
///
/// Most numbers of a run file are key gaps of one to four bytes and counts
/// of one: those are read from one 8-byte word without a loop (a byte
/// loop for them takes a sixth of a spilled search's decoding time);
/// longer numbers, and the last bytes of a buffer, take the byte loop.
#[inline]
pub(crate) fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u128> {
    if let Some(word) = bytes.get(*at..*at + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        // The lowest byte without its continuation bit ends the number.
        let ends = !w & 0x8080_8080_8080_8080;
        if ends != 0 {
            let len = (ends.trailing_zeros() / 8 + 1) as usize;
            let mut x = if len == 8 {
                w
            } else {
                w & ((1u64 << (8 * len)) - 1)
            };
            // Pack the 7-bit groups: pairs into 14 bits, then 28, then 56.
            x = ((x & 0x7f00_7f00_7f00_7f00) >> 1) | (x & 0x007f_007f_007f_007f);
            x = ((x & 0x3fff_0000_3fff_0000) >> 2) | (x & 0x0000_3fff_0000_3fff);
            x = ((x & 0x0fff_ffff_0000_0000) >> 4) | (x & 0x0000_0000_0fff_ffff);
            *at += len;
            return Some(x as u128);
        }
    }
    get_varint_bytes(bytes, at)
}

/// [`get_varint`] a byte at a time.
#[inline(never)]
fn get_varint_bytes(bytes: &[u8], at: &mut usize) -> Option<u128> {
    let mut v = 0u128;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        if shift >= 128 {
            return None;
        }
        v |= ((b & 0x7F) as u128) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
    }
}

/// Read `buf.len()` bytes of `file` at `offset`, without moving a shared
/// cursor, so that the workers read one file at once.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Read `buf.len()` bytes of `file` at `offset`.
#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Elsewhere (the browser's WebAssembly, which has no files): an error,
/// as every other file operation there gives.
#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// One run file: a bucket's entries, sorted and deduplicated, by part.
#[derive(Debug)]
pub(super) struct DiskRun {
    pub(super) path: PathBuf,
    pub(super) file: File,
    /// Byte offset of each part's first entry; `offsets[PARTS]` ends them.
    pub(super) offsets: Vec<u64>,
    /// Entries of each part.
    pub(super) counts: Vec<u64>,
    /// Size of the file.
    pub(super) bytes: u64,
    /// Synced to disk: a run written since the last checkpoint is not,
    /// until the next one syncs it before naming it.
    pub(super) synced: bool,
}

impl DiskRun {
    /// Open a run file and read its footer.
    pub(super) fn open(path: &Path) -> Result<DiskRun, SpillFail> {
        let file = File::open(path).map_err(io_fail("open", path))?;
        let bytes = file.metadata().map_err(io_fail("open", path))?.len();
        let damaged = |reason: &str| SpillFail::Foreign {
            path: path.to_path_buf(),
            reason: format!(
                "not a whole run file ({reason}); delete the directory's contents to start over"
            ),
        };
        if bytes < (MAGIC.len() + FOOTER) as u64 {
            return Err(damaged("too short"));
        }
        let mut footer = vec![0u8; FOOTER];
        read_at(&file, &mut footer, bytes - FOOTER as u64).map_err(io_fail("read", path))?;
        if &footer[FOOTER - 8..] != END {
            return Err(damaged("no end mark"));
        }
        let word =
            |i: usize| u64::from_le_bytes(footer[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        let offsets: Vec<u64> = (0..=PARTS).map(word).collect();
        let counts: Vec<u64> = (PARTS + 1..2 * PARTS + 1).map(word).collect();
        let in_order = offsets.windows(2).all(|w| w[0] <= w[1]);
        // A checked sum: a footer's last offset near 2^64 must be refused,
        // not wrap (or panic in a build with overflow checks).
        let ends_at_footer = offsets[PARTS].checked_add(FOOTER as u64) == Some(bytes);
        if !in_order || !ends_at_footer || offsets[0] != MAGIC.len() as u64 {
            return Err(damaged("bad footer"));
        }
        // Every entry takes two bytes at least (a key gap and a count), so
        // a part that claims more entries than half its bytes is damaged;
        // refused here, no sum of the counts can pass the file's size.
        if let Some(p) = (0..PARTS).find(|&p| counts[p] > (offsets[p + 1] - offsets[p]) / 2) {
            return Err(damaged(&format!(
                "part {p} claims {} entries in {} bytes",
                counts[p],
                offsets[p + 1] - offsets[p]
            )));
        }
        Ok(DiskRun {
            path: path.to_path_buf(),
            file,
            offsets,
            counts,
            bytes,
            // Named by the checkpoint it was resumed from.
            synced: true,
        })
    }

    /// Entries in the file.
    pub(super) fn len(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Append the entries of `parts` to `out` (keys shifted right by
    /// `shift` give their part, as in [`part_of`]).
    pub(super) fn read_parts<K: Key, C: Count>(
        &self,
        parts: Range<usize>,
        shift: u32,
        out: &mut Vec<Entry<K, C>>,
        bytes: &mut Vec<u8>,
    ) -> Result<(), SpillFail> {
        let (from, to) = (self.offsets[parts.start], self.offsets[parts.end]);
        bytes.resize((to - from) as usize, 0);
        read_at(&self.file, bytes, from).map_err(io_fail("read", &self.path))?;
        let mut at = 0;
        for p in parts {
            let mut reader = Reader::new(self, p, shift, Cursor::default(), K::BITS);
            for _ in 0..self.counts[p] {
                let (key, count) = reader.next(bytes, &mut at)?;
                out.push((
                    K::from_u128(key),
                    C::from_u128(count).ok_or(SpillFail::Overflow)?,
                ));
            }
        }
        Ok(())
    }

    /// Read part `part` through once and note where the reader stands
    /// after every `stride` entries: the places a slice of a part too
    /// large for one task can start and end (see [`DiskRun::read_slice`]).
    pub(super) fn cursors(
        &self,
        part: usize,
        shift: u32,
        key_bits: u32,
        stride: u64,
        bytes: &mut Vec<u8>,
    ) -> Result<Vec<Cursor>, SpillFail> {
        self.read_whole_part(part, bytes)?;
        let stride = stride.max(1);
        let mut reader = Reader::new(self, part, shift, Cursor::default(), key_bits);
        let mut at = 0;
        let mut cursors = Vec::with_capacity((self.counts[part] / stride) as usize);
        for i in 1..=self.counts[part] {
            reader.next(bytes, &mut at)?;
            if i % stride == 0 {
                cursors.push(reader.cursor(at));
            }
        }
        Ok(cursors)
    }

    /// Append the entries of part `part` whose keys are in `keys` (no upper
    /// bound when its end is `None`) to `out`, reading from `from` (at or
    /// before the first of them) up to `to` bytes into the part (past the
    /// entry that ends them).
    pub(super) fn read_slice<K: Key, C: Count>(
        &self,
        part: usize,
        shift: u32,
        (from, to): (Cursor, u64),
        keys: (u128, Option<u128>),
        out: &mut Vec<Entry<K, C>>,
        bytes: &mut Vec<u8>,
    ) -> Result<(), SpillFail> {
        let base = self.offsets[part];
        let len = (to.saturating_sub(from.offset)).min(self.offsets[part + 1] - base);
        bytes.resize(len as usize, 0);
        read_at(&self.file, bytes, base + from.offset).map_err(io_fail("read", &self.path))?;
        let mut reader = Reader::new(self, part, shift, from, K::BITS);
        let mut at = 0;
        while reader.index < self.counts[part] {
            let (key, count) = reader.next(bytes, &mut at)?;
            if keys.1.is_some_and(|end| key >= end) {
                break;
            }
            if key >= keys.0 {
                out.push((
                    K::from_u128(key),
                    C::from_u128(count).ok_or(SpillFail::Overflow)?,
                ));
            }
        }
        Ok(())
    }

    /// Read the bytes of part `part` into `bytes`.
    fn read_whole_part(&self, part: usize, bytes: &mut Vec<u8>) -> Result<(), SpillFail> {
        let (from, to) = (self.offsets[part], self.offsets[part + 1]);
        bytes.resize((to - from) as usize, 0);
        read_at(&self.file, bytes, from).map_err(io_fail("read", &self.path))
    }
}

/// Where a reader of one part of a run stands: after `index` entries, the
/// last of them with key `key`, `offset` bytes into the part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cursor {
    pub(super) index: u64,
    pub(super) key: u128,
    pub(super) offset: u64,
}

/// Decodes the entries of one part of a run, checking what the framing
/// alone cannot: every key lies in its part and fits the key type, keys
/// increase, and no path count is zero. A file with a sound footer and
/// entries that break these is refused as damaged, not searched.
struct Reader<'a> {
    run: &'a DiskRun,
    part: usize,
    shift: u32,
    key_bits: u32,
    /// The entries read, the last key, and the byte offset of `bytes[0]`
    /// in the part.
    index: u64,
    key: u128,
    base: u64,
}

impl<'a> Reader<'a> {
    fn new(run: &'a DiskRun, part: usize, shift: u32, from: Cursor, key_bits: u32) -> Self {
        Reader {
            run,
            part,
            shift,
            key_bits,
            index: from.index,
            key: from.key,
            base: from.offset,
        }
    }

    /// Where the reader stands with `at` bytes of its buffer read.
    fn cursor(&self, at: usize) -> Cursor {
        Cursor {
            index: self.index,
            key: self.key,
            offset: self.base + at as u64,
        }
    }

    /// The next entry's key and count, from `bytes` at `*at`.
    #[inline]
    fn next(&mut self, bytes: &[u8], at: &mut usize) -> Result<(u128, u128), SpillFail> {
        let gap = get_varint(bytes, at).ok_or_else(|| self.damaged("a part ends early"))?;
        if gap == 0 && self.index > 0 {
            return Err(self.damaged("two entries of a part have the same key"));
        }
        let key = self
            .key
            .checked_add(gap)
            .filter(|&k| self.key_bits >= 128 || k >> self.key_bits == 0)
            .ok_or_else(|| self.damaged("a key passes the key type"))?;
        let part = key
            .checked_shr(self.shift)
            .unwrap_or(0)
            .min(PARTS as u128 - 1);
        if part as usize != self.part {
            return Err(self.damaged("a key lies outside its part"));
        }
        let count = get_varint(bytes, at).ok_or_else(|| self.damaged("a part ends early"))?;
        if count == 0 {
            return Err(self.damaged("a path count is zero"));
        }
        self.index += 1;
        self.key = key;
        Ok((key, count))
    }

    fn damaged(&self, why: &str) -> SpillFail {
        SpillFail::Foreign {
            path: self.run.path.clone(),
            reason: format!(
                "{why} (part {}); delete the directory's contents to start over",
                self.part
            ),
        }
    }
}

/// Bytes coded from some whole parts, and where each part starts in them:
/// `(part, byte offset, entries)`.
pub(super) type Coded = (Vec<u8>, Vec<(usize, usize, u64)>);

/// Code `entries` (sorted, deduplicated, whole key parts of part shift
/// `shift`) as a piece of a run file's body, noting where each part starts.
pub(super) fn encode_parts<K: Key, C: Count>(entries: &[Entry<K, C>], shift: u32) -> Coded {
    let mut out = Vec::with_capacity(entries.len() * 6);
    let mut starts: Vec<(usize, usize, u64)> = Vec::new();
    let mut prev = 0u128;
    let mut current = usize::MAX;
    for &(key, count) in entries {
        let p = part_of(key, shift);
        if p != current {
            starts.push((p, out.len(), 0));
            current = p;
            prev = 0;
        }
        starts.last_mut().expect("pushed above").2 += 1;
        put_varint(&mut out, key.to_u128() - prev);
        put_varint(&mut out, count.into());
        prev = key.to_u128();
    }
    (out, starts)
}

/// A run file's body from its pieces in key order ([`encode_parts`]): the
/// pieces' bytes to write after the magic, each part's byte offset (and
/// the end's) and each part's entries.
pub(super) fn assemble(coded: Vec<Coded>) -> (Vec<Vec<u8>>, Vec<u64>, Vec<u64>) {
    let mut offsets = vec![u64::MAX; PARTS + 1];
    let mut counts = vec![0u64; PARTS];
    let mut at = MAGIC.len() as u64;
    let mut chunks = Vec::with_capacity(coded.len());
    for (bytes, starts) in coded {
        for (p, start, count) in starts {
            offsets[p] = at + start as u64;
            counts[p] = count;
        }
        at += bytes.len() as u64;
        chunks.push(bytes);
    }
    // Empty parts start where the next one does.
    offsets[PARTS] = at;
    for p in (0..PARTS).rev() {
        if offsets[p] == u64::MAX {
            offsets[p] = offsets[p + 1];
        }
    }
    (chunks, offsets, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        let mut out = Vec::new();
        let values = [0u128, 1, 127, 128, 300, u64::MAX as u128, u128::MAX];
        for v in values {
            put_varint(&mut out, v);
        }
        let mut at = 0;
        for v in values {
            assert_eq!(get_varint(&out, &mut at), Some(v));
        }
        assert_eq!(get_varint(&out, &mut at), None);
        assert_eq!(get_varint(&[0x80, 0x80], &mut 0), None, "cut short");
        // Every length from 1 to 19 bytes, at every offset before and
        // inside the last 8 bytes of a buffer (the word path and the byte
        // path), against the byte-at-a-time reading.
        for bits in 0..128 {
            for low in [0u128, 1, 0x55, u128::MAX] {
                let v = (1u128 << bits) | (low & ((1u128 << bits) - 1));
                for pad in 0..10 {
                    let mut out = vec![0xffu8; pad];
                    put_varint(&mut out, v);
                    put_varint(&mut out, 1);
                    out.extend(std::iter::repeat_n(0, pad % 3));
                    let (mut a, mut b) = (pad, pad);
                    assert_eq!(get_varint(&out, &mut a), Some(v), "{v:#x} after {pad}");
                    assert_eq!(get_varint_bytes(&out, &mut b), Some(v));
                    assert_eq!(a, b);
                    assert_eq!(get_varint(&out, &mut a), Some(1));
                }
            }
        }
    }
}
