//! The endgame database as a whole and as a file: [`EndgameDb`], filled
//! bottom-up for every position up to a stone count, saved with a first
//! line of JSON and read back checked (`game endgame`, `--endgame FILE`).

use super::packed::{PackedBuf, PackedLayout, GROUP, PER_LINE};
use super::Endgame;
use crate::error::{EndgameError, GameError, GameFileError};
pub use crate::files::{ENDGAME_FORMAT, ENDGAME_FORMAT_BYTES};
use base::header::Header;
use rules::{Rules, Scope, MAX_PITS_PER_SIDE};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// How a database file is brought into memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Read whole into memory of the process's own, on huge pages where
    /// the system gives them (from 128 MiB): the fastest to probe, for a
    /// solve of seconds or more; reading costs about a second for each
    /// gigabyte.
    Whole,
    /// Mapped: there at once, whatever the size, its pages read as they
    /// are probed (and kept by the system between runs), for an answer
    /// within a second. Not in WebAssembly, which maps no files (it reads
    /// whole there).
    Mapped,
}

/// The first line of an endgame database file. Its unknown keys are
/// refused, so that a first line of some other JSON document is not taken
/// for a database's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndgameHeader {
    /// [`ENDGAME_FORMAT`] and the version of the tool that wrote it, the
    /// header every document opens with (flattened: the line keeps
    /// `format` and `version` first and at the top level).
    #[serde(flatten)]
    pub header: Header,
    /// Pits a side.
    pub pits_per_side: usize,
    /// The rules it was built under (scope own).
    pub rules: Rules,
    /// Every position with at most this many stones in its pits is in it.
    pub stones: u32,
    /// Positions: in the first format ([`ENDGAME_FORMAT_BYTES`]) the
    /// bytes after the first line.
    pub positions: u64,
    /// Packed files ([`ENDGAME_FORMAT`]) only: how many values are kept
    /// as exceptions (docs/games.md, "The endgame database file").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exceptions: Option<u64>,
}

impl EndgameHeader {
    /// Where the packed arrays lie after the first line (`None`: a byte
    /// a position).
    fn layout(&self) -> Option<PackedLayout> {
        let positions = self.positions as usize;
        let lines = positions.div_ceil(PER_LINE);
        self.exceptions.map(|e| PackedLayout {
            lines,
            dir: lines.div_ceil(GROUP),
            exceptions: e as usize,
        })
    }

    /// Bytes after the first line.
    fn body(&self) -> u64 {
        match self.layout() {
            Some(l) => l.offsets()[3] as u64,
            None => self.positions,
        }
    }
}

/// A file's first line ends on a multiple of this many bytes (spaces
/// before its newline), so that the packed arrays after it are aligned
/// for a mapped file to be probed in place.
const LINE_ALIGN: usize = 64;

/// An endgame database filled whole: every position with at most
/// [`EndgameDb::stones`] stones in its pits, for one board size and rule
/// set, built bottom-up ([`EndgameDb::build_file`]) or read from a file,
/// and shared by the solvers given it ([`crate::solve::SolverBuilder::endgame`]).
///
/// Why a file: the database does not depend on the stores or on the game
/// it is met in, and its size is what decides a solve's time (each two
/// stones more about halve the picks of Kalah(6,4); figures in
/// docs/notebook/game-solver.md), but building 24 stones takes minutes. Built once, it
/// serves every later solve on that board and rule set.
#[derive(Clone)]
pub struct EndgameDb {
    pub(crate) db: Arc<Endgame>,
    pub(super) rules: Rules,
    pub(super) n: usize,
    pub(super) stones: u32,
}

impl std::fmt::Debug for EndgameDb {
    /// What it holds, not its values (gigabytes of them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameDb")
            .field("rules", &self.rules)
            .field("pits_per_side", &self.n)
            .field("stones", &self.stones)
            .finish()
    }
}

/// What [`EndgameDb::build_file`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameBuild {
    /// Stones the file held before (`None`: there was no file).
    pub resumed_from: Option<u32>,
    /// Stones the file holds now (`None`: the build was stopped before
    /// its first layer and there was no file, so none was written).
    pub stones: Option<u32>,
    /// Positions in the file now (0 when there is none).
    pub positions: u64,
    /// False when the cancel flag stopped the build; the file then holds
    /// the layers finished (the same command goes on from there).
    pub complete: bool,
}

/// A database file opened by [`EndgameDb::open`]: its first line, and
/// what to take from it.
pub(super) struct Opened {
    file: std::fs::File,
    pub(super) header: EndgameHeader,
    /// Bytes of the first line.
    first_line: u64,
    /// Where the file's packed arrays lie (`None`: a byte a position).
    layout: Option<PackedLayout>,
    /// Stones to take (all of the file's, or fewer within a cap).
    stones: u32,
    /// How much of each packed array those stones take.
    take: Option<PackedLayout>,
    /// Bytes in memory of what is taken, as the file holds it.
    memory: u64,
}

impl EndgameDb {
    /// Bytes a database of `stones` stones takes on `n` pits a side (and
    /// on disk, after its first line).
    pub fn bytes_for(n: usize, stones: u32) -> u64 {
        Endgame::bytes(2 * n, stones)
    }

    /// Every position with at most this many stones in its pits is in it.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// The rules it holds values for.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pits a side.
    pub fn pits_per_side(&self) -> usize {
        self.n
    }

    /// Bytes in memory (as the file holds them: a byte a position, or
    /// packed).
    pub fn bytes(&self) -> u64 {
        self.db.values.memory()
    }

    /// Bytes in memory of its first `stones` stones (a smaller database
    /// whole), as it holds them: what [`EndgameDb::load_within`] compares
    /// with its cap.
    pub fn bytes_within(&self, stones: u32) -> u64 {
        let positions = Endgame::bytes(2 * self.n, stones.min(self.stones)) as usize;
        match self.db.values.packed_view() {
            Some(p) => p.layout(positions).bytes(),
            None => positions as u64,
        }
    }

    /// True when the values are packed ([`ENDGAME_FORMAT`]), not a byte
    /// a position.
    pub fn is_packed(&self) -> bool {
        self.db.values.packed_view().is_some()
    }

    /// Checks what a database may be built for, before anything is
    /// allocated: scope own (with scope any the game graph has cycles), 1
    /// to 16 pits, 1 to 127 stones (the values are signed bytes), and the
    /// memory cap.
    pub fn check(rules: Rules, n: usize, stones: u32, memory_cap: u64) -> Result<(), GameError> {
        if rules.scope != Scope::Own {
            return Err(EndgameError::Scope(rules).into());
        }
        if n == 0 || n > MAX_PITS_PER_SIDE {
            return Err(EndgameError::Pits(n).into());
        }
        if stones == 0 || stones > 127 {
            return Err(EndgameError::Stones(stones).into());
        }
        EndgameDb::within(n, stones, Endgame::bytes(2 * n, stones), memory_cap)
    }

    /// Refuses a database of `stones` stones on `n` pits a side that takes
    /// `requested` bytes when that passes `memory_cap`.
    pub(super) fn within(
        n: usize,
        stones: u32,
        requested: u64,
        memory_cap: u64,
    ) -> Result<(), GameError> {
        if requested > memory_cap {
            return Err(EndgameError::OverCap {
                stones,
                n,
                requested,
                cap: memory_cap,
            }
            .into());
        }
        Ok(())
    }

    /// [`EndgameDb::check`] for a database that takes `memory` bytes, as
    /// a file holds it (packed, in a file of [`ENDGAME_FORMAT`]).
    fn check_memory(
        rules: Rules,
        n: usize,
        stones: u32,
        memory: u64,
        memory_cap: u64,
    ) -> Result<(), GameError> {
        EndgameDb::check(rules, n, stones, u64::MAX)?;
        EndgameDb::within(n, stones, memory, memory_cap)
    }

    /// The first line of the database file `path`, whatever its rules:
    /// what it holds, for a listing of files (`game cache list`).
    pub fn read_header(path: &Path) -> Result<EndgameHeader, GameError> {
        let file = std::fs::File::open(path)
            .map_err(|e| EndgameError::from(GameFileError::new(path, "read", e)))?;
        let mut r = std::io::BufReader::with_capacity(4096, file);
        Ok(EndgameDb::first_line(path, &mut r)?.0)
    }

    /// The file's first line and its length in bytes, of this format; the
    /// reader is left at the first value.
    fn first_line(path: &Path, r: &mut impl BufRead) -> Result<(EndgameHeader, u64), GameError> {
        let path = path.to_path_buf();
        let mut line = Vec::new();
        r.take(4096)
            .read_until(b'\n', &mut line)
            .map_err(|e| EndgameError::from(GameFileError::new(&path, "read", e)))?;
        let h: EndgameHeader = std::str::from_utf8(&line)
            .ok()
            .and_then(|l| serde_json::from_str(l.trim_end()).ok())
            .ok_or_else(|| EndgameError::NotADatabase { path: path.clone() })?;
        let packed = h.header.format == ENDGAME_FORMAT;
        if !packed && h.header.format != ENDGAME_FORMAT_BYTES {
            return Err(EndgameError::Format {
                path,
                format: h.header.format,
            }
            .into());
        }
        if packed != h.exceptions.is_some() {
            return Err(EndgameError::NotADatabase { path: path.clone() }.into());
        }
        Ok((h, line.len() as u64))
    }

    /// The file's first line, checked against the rules and board asked
    /// for; the reader is left at the first value.
    fn header(
        path: &Path,
        r: &mut impl BufRead,
        rules: Rules,
        n: usize,
    ) -> Result<(EndgameHeader, u64), GameError> {
        let (h, len) = EndgameDb::first_line(path, r)?;
        let path = path.to_path_buf();
        if h.rules != rules || h.pits_per_side != n {
            return Err(EndgameError::ForeignFile {
                path,
                built_n: h.pits_per_side,
                built: h.rules,
                n,
                rules,
            }
            .into());
        }
        if h.stones == 0 || h.stones > 127 || h.positions != Endgame::bytes(2 * n, h.stones) {
            return Err(EndgameError::Damaged {
                path,
                positions: h.positions,
                stones: h.stones,
            }
            .into());
        }
        Ok((h, len))
    }

    /// The file `path` opened and its first line checked against `rules`
    /// and `n`: what to take from it ([`Opened`]): all of it, or with
    /// `prefix` as many stones as fit in `memory_cap` (positions are
    /// stored fewest stones first, so the first values of a larger file
    /// are a smaller database whole).
    pub(super) fn open(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        prefix: bool,
    ) -> Result<Opened, GameError> {
        let read_err = |e: std::io::Error| EndgameError::from(GameFileError::new(path, "read", e));
        let file = std::fs::File::open(path).map_err(read_err)?;
        let len = file.metadata().map_err(read_err)?.len();
        let mut r = std::io::BufReader::with_capacity(4096, &file);
        let (h, first_line) = EndgameDb::header(path, &mut r, rules, n)?;
        drop(r);
        if len != first_line + h.body() {
            return Err(EndgameError::Length {
                path: path.to_path_buf(),
                len,
                expected: first_line + h.body(),
            }
            .into());
        }
        // What `s` stones take: a byte a position, or packed as far as
        // their last line (its exceptions: the directory's entry of its
        // group, the line's count and its codes 7).
        let take = |s: u32| -> std::io::Result<(u64, Option<PackedLayout>)> {
            let positions = Endgame::bytes(2 * n, s) as usize;
            let Some(l) = h.layout() else {
                return Ok((positions as u64, None));
            };
            let lines = positions.div_ceil(PER_LINE);
            let mut line = [0u8; 64];
            let mut entry = [0u8; 4];
            let last = lines.saturating_sub(1);
            let read_at = |at: usize, buf: &mut [u8]| {
                std::io::Seek::seek(&mut &file, std::io::SeekFrom::Start(first_line + at as u64))?;
                std::io::Read::read_exact(&mut &file, buf)
            };
            read_at(64 * last, &mut line)?;
            read_at(l.offsets()[1] + 4 * (last / GROUP), &mut entry)?;
            let line = super::packed::CacheLine(std::array::from_fn(|i| {
                u64::from_le_bytes(line[8 * i..8 * i + 8].try_into().expect("8 bytes")).to_le()
            }));
            let dir = [u32::from_le_bytes(entry).to_le()];
            let one = super::packed::Packed {
                lines: std::slice::from_ref(&line),
                dir: &dir,
                vals: &[],
            };
            let t = PackedLayout {
                lines,
                dir: lines.div_ceil(GROUP),
                exceptions: one.layout(PER_LINE).exceptions.min(l.exceptions),
            };
            Ok((t.bytes(), Some(t)))
        };
        let mut stones = h.stones;
        let mut took = take(stones).map_err(read_err)?;
        if prefix {
            while took.0 > memory_cap && stones > 1 {
                stones -= 1;
                took = take(stones).map_err(read_err)?;
            }
        }
        Ok(Opened {
            file,
            layout: h.layout(),
            header: h,
            first_line,
            stones,
            memory: took.0,
            take: took.1,
        })
    }

    /// Reads the database in `path`, built for `rules` on `n` pits a side
    /// (its first layers only with `prefix`, as [`EndgameDb::open`] says).
    /// With `room` more stones than it holds, into a byte a position of
    /// memory of its own with room for them (the rest unknown, for a build
    /// to go on with); else as the file holds it. Refused when it would
    /// pass `memory_cap`.
    pub(super) fn read(
        path: &Path,
        rules: Rules,
        n: usize,
        room: u32,
        memory_cap: u64,
        prefix: bool,
    ) -> Result<(EndgameDb, EndgameHeader), GameError> {
        let read_err = |e: std::io::Error| EndgameError::from(GameFileError::new(path, "read", e));
        let o = EndgameDb::open(path, rules, n, memory_cap, prefix)?;
        let (mut file, stones) = (&o.file, o.stones);
        // The first line was read through a buffer of its own: the file's
        // position is wherever that buffer stopped.
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(o.first_line)).map_err(read_err)?;
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        let positions = Endgame::bytes(2 * n, stones) as usize;
        let db = match (o.layout, o.take) {
            (Some(layout), Some(take)) => {
                let packed = PackedBuf::read(&mut r, layout, take).map_err(read_err)?;
                if room > stones {
                    EndgameDb::check(rules, n, room, memory_cap)?;
                    let mut db = Endgame::new(2 * n, room);
                    let bytes = db.values.owned_bytes_mut().expect("a new database's own");
                    packed.view().unpack_into(&db.ranks, positions, bytes);
                    db
                } else {
                    EndgameDb::check_memory(rules, n, stones, o.memory, memory_cap)?;
                    Endgame::packed(2 * n, stones, packed)
                }
            }
            _ => {
                let room = room.max(stones);
                EndgameDb::check(rules, n, room, memory_cap)?;
                let mut db = Endgame::new(2 * n, room);
                let bytes = db.values.owned_bytes_mut().expect("a new database's own");
                r.read_exact(&mut bytes[..positions]).map_err(read_err)?;
                db
            }
        };
        Ok((
            EndgameDb {
                db: Arc::new(db),
                rules,
                n,
                stones,
            },
            o.header,
        ))
    }

    /// The database in `bytes`, as [`EndgameDb::write_to`] wrote them (a
    /// file's bytes), built for `rules` on `n` pits a side; `name` says
    /// where they came from in an error. For a front end that keeps the
    /// database somewhere other than a file (the static site's engine: in
    /// the browser's storage). Refused when it would pass `memory_cap`
    /// bytes.
    pub fn from_bytes(
        name: &Path,
        bytes: &[u8],
        rules: Rules,
        n: usize,
        memory_cap: u64,
    ) -> Result<EndgameDb, GameError> {
        let len = bytes.len() as u64;
        EndgameDb::from_reader(name, &mut &bytes[..], len, rules, n, memory_cap, 0)
    }

    /// [`EndgameDb::from_bytes`] read from `r`, which holds `len` bytes:
    /// the values go straight into their arrays, so that a front end
    /// whose bytes are elsewhere (the static site's page, outside the
    /// engine's WebAssembly memory) never holds them twice in the
    /// engine's memory. With `room` stones more than it holds, its arrays
    /// are read into room reserved for a database of that many
    /// ([`EndgameDb::build_on`] then grows nothing: a copy grown out of
    /// its room would stand beside the old one at the build's peak).
    pub fn from_reader(
        name: &Path,
        r: &mut impl BufRead,
        len: u64,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        room: u32,
    ) -> Result<EndgameDb, GameError> {
        let read_err = |e: std::io::Error| EndgameError::from(GameFileError::new(name, "read", e));
        let (h, first_line) = EndgameDb::header(name, r, rules, n)?;
        if len != first_line + h.body() {
            return Err(EndgameError::Length {
                path: name.to_path_buf(),
                len,
                expected: first_line + h.body(),
            }
            .into());
        }
        let db = match h.layout() {
            Some(layout) => {
                let memory = layout.bytes();
                EndgameDb::check_memory(rules, n, h.stones, memory, memory_cap)?;
                let room = match room > h.stones {
                    true => PackedLayout::for_build(n, room),
                    false => PackedLayout::default(),
                };
                let packed =
                    PackedBuf::read_with_room(r, layout, layout, room).map_err(read_err)?;
                if !packed.view().fits(h.positions as usize) {
                    return Err(EndgameError::Damaged {
                        path: name.to_path_buf(),
                        positions: h.positions,
                        stones: h.stones,
                    }
                    .into());
                }
                Endgame::packed(2 * n, h.stones, packed)
            }
            None => {
                EndgameDb::check(rules, n, h.stones, memory_cap)?;
                let db = Endgame::new(2 * n, h.stones);
                db.read_values(r).map_err(read_err)?;
                db
            }
        };
        Ok(EndgameDb {
            db: Arc::new(db),
            rules,
            n,
            stones: h.stones,
        })
    }

    /// The database in `path`, built for `rules` on `n` pits a side, read
    /// whole ([`Reading::Whole`]); refused when it would pass `memory_cap`
    /// bytes.
    pub fn load(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
    ) -> Result<EndgameDb, GameError> {
        EndgameDb::open_as(path, rules, n, memory_cap, Reading::Whole, false)
    }

    /// The database in `path`, built for `rules` on `n` pits a side, read
    /// as `reading` says; refused when it would pass `memory_cap` bytes.
    pub fn load_as(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        reading: Reading,
    ) -> Result<EndgameDb, GameError> {
        EndgameDb::open_as(path, rules, n, memory_cap, reading, false)
    }

    /// The most of the database in `path` that fits in `memory_cap` bytes,
    /// read as `reading` says: its positions of at most `s` stones for the
    /// largest `s` up to the file's that fit ([`EndgameDb::stones`] says
    /// which). Refused as [`EndgameDb::load`] when not even one stone
    /// fits.
    pub fn load_within(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        reading: Reading,
    ) -> Result<EndgameDb, GameError> {
        EndgameDb::open_as(path, rules, n, memory_cap, reading, true)
    }

    /// The database in `path` (its first layers only with `prefix`) read
    /// as `reading` says; WebAssembly, which maps no files, reads whole.
    fn open_as(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        reading: Reading,
        prefix: bool,
    ) -> Result<EndgameDb, GameError> {
        #[cfg(not(target_arch = "wasm32"))]
        if reading == Reading::Mapped {
            return EndgameDb::map(path, rules, n, memory_cap, prefix);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = reading;
        Ok(EndgameDb::read(path, rules, n, 0, memory_cap, prefix)?.0)
    }

    /// [`EndgameDb::load_within`] by mapping the file.
    #[cfg(not(target_arch = "wasm32"))]
    fn map(
        path: &Path,
        rules: Rules,
        n: usize,
        memory_cap: u64,
        prefix: bool,
    ) -> Result<EndgameDb, GameError> {
        let read_err = |e: std::io::Error| EndgameError::from(GameFileError::new(path, "read", e));
        let o = EndgameDb::open(path, rules, n, memory_cap, prefix)?;
        let stones = o.stones;
        EndgameDb::check_memory(rules, n, stones, o.memory, memory_cap)?;
        let positions = Endgame::bytes(2 * n, stones);
        let layout = o.layout.zip(o.take);
        let values =
            super::values::Values::map(&o.file, o.first_line as usize, positions as usize, layout)
                .map_err(read_err)?
                .ok_or_else(|| EndgameError::Damaged {
                    path: path.to_path_buf(),
                    positions: o.header.positions,
                    stones: o.header.stones,
                })?;
        Ok(EndgameDb {
            db: Arc::new(Endgame {
                ranks: super::Ranks::new(2 * n, stones),
                values,
            }),
            rules,
            n,
            stones,
        })
    }

    /// True when the values are a mapped file, not memory of this
    /// process's own.
    pub fn is_mapped(&self) -> bool {
        self.db.values.is_mapped()
    }

    /// Writes the database's first `stones` stones to `path` whole: to a
    /// temporary file beside it, synced and renamed, so that a reader (or
    /// a build that is stopped) sees the old file whole or the new one. The
    /// values go out a megabyte at a time, as the database is too large to
    /// copy whole.
    pub fn save(&self, path: &Path, stones: u32) -> Result<(), GameError> {
        base::atomic_file::write_with(path, |w| self.write_first(stones, w))
            .map_err(|e| EndgameError::from(GameFileError::new(path, "write", e)).into())
    }

    /// Writes the whole database to `w` as its file holds it (a first line
    /// of JSON, then the values), for a front end that keeps it elsewhere
    /// than in a file ([`EndgameDb::from_bytes`] reads it back).
    pub fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> std::io::Result<()> {
        self.write_first(self.stones, w)
    }

    /// Writes the first `stones` stones of the database as a file holds
    /// them ([`EndgameDb::write_packed`]; packed here, on every core,
    /// when they are a byte a position).
    fn write_first<W: Write + ?Sized>(&self, stones: u32, w: &mut W) -> std::io::Result<()> {
        let stones = stones.min(self.db.ranks.max_stones);
        let positions = Endgame::bytes(2 * self.n, stones) as usize;
        let packed;
        let view = match self.db.values.packed_view() {
            Some(p) => p.prefix(positions),
            None => {
                #[cfg(not(target_arch = "wasm32"))]
                let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
                #[cfg(target_arch = "wasm32")]
                let threads = 1;
                let (values, ranks) = (self.db.values.bytes(), &self.db.ranks);
                packed = PackedBuf::pack(values, 0, ranks, self.n, 0..positions, threads);
                packed.view()
            }
        };
        EndgameDb::write_packed(w, self.rules, self.n, stones, positions, &[view])
    }

    /// Writes a file of `stones` stones (`positions` positions) whose
    /// values are `parts` joined: a first line of JSON padded to
    /// [`LINE_ALIGN`] bytes, then the packed arrays ([`super::packed`]).
    pub(super) fn write_packed<W: Write + ?Sized>(
        w: &mut W,
        rules: Rules,
        n: usize,
        stones: u32,
        positions: usize,
        parts: &[super::packed::Packed<'_>],
    ) -> std::io::Result<()> {
        let header = EndgameHeader {
            header: Header::new(ENDGAME_FORMAT),
            pits_per_side: n,
            rules,
            stones,
            positions: positions as u64,
            exceptions: Some(parts.iter().map(|p| p.vals.len() as u64).sum()),
        };
        let mut line = serde_json::to_string(&header).expect("json");
        let padded = (line.len() + 1).next_multiple_of(LINE_ALIGN) - 1;
        line.extend(std::iter::repeat_n(' ', padded - line.len()));
        line.push('\n');
        w.write_all(line.as_bytes())?;
        super::packed::write_joined(w, parts)
    }

    /// Builds the database of every position with at most `stones` stones
    /// in its pits for `rules` on `n` pits a side in memory, on `threads`
    /// threads, layer by layer from the fewest stones up, `layer` hearing
    /// of each layer finished (its stones and how many positions it held).
    /// [`EndgameDb::build_file`] without the file, for a front end with no
    /// file system (the static site's engine, which keeps the bytes of
    /// [`EndgameDb::write_to`] in the browser's storage). `None` when
    /// `cancel` stopped it.
    pub fn build(
        rules: Rules,
        n: usize,
        stones: u32,
        threads: usize,
        memory_cap: u64,
        cancel: &AtomicBool,
        mut layer: impl FnMut(u32, u64),
    ) -> Result<Option<EndgameDb>, GameError> {
        EndgameDb::check(rules, n, stones, memory_cap)?;
        let Some(fresh) = Endgame::new_until(2 * n, stones, cancel) else {
            return Ok(None);
        };
        let done = AtomicU64::new(0);
        for t in 0..=stones {
            let add = |k| {
                done.fetch_add(k, Ordering::Relaxed);
            };
            if !fresh.build_layer(t, n, rules, threads.max(1), cancel, &add) {
                return Ok(None);
            }
            layer(t, fresh.ranks.layer_len(t));
        }
        Ok(Some(EndgameDb {
            db: Arc::new(fresh),
            rules,
            n,
            stones,
        }))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::endgame::BuildProgress;
    use crate::{GameState, SolveOptions, Solver};

    /// Solves `start` exactly with `db` and with no database (the one
    /// filled on demand): the same value.
    pub(in crate::endgame) fn solves_alike(db: &EndgameDb, start: &GameState) {
        let never = AtomicBool::new(false);
        let (rules, n) = (start.rules(), start.pits_per_side());
        let opts = SolveOptions {
            table_bytes: 8 << 20,
            threads: 1,
            ..SolveOptions::default()
        };
        let with = Solver::builder()
            .options(opts.clone())
            .endgame(Some(db))
            .build(rules, n)
            .unwrap()
            .unwrap()
            .solve(start, &never);
        let without = Solver::new(rules, n, opts).unwrap().solve(start, &never);
        assert!(with.exact && without.exact);
        assert_eq!(with.value, without.value);
    }

    /// Built in memory, written to bytes and read back: the same bytes as
    /// the file `build_file` writes, a solve with it gives the value of a
    /// solve without any database, and bytes cut short or of other rules
    /// are refused.
    #[test]
    fn a_database_built_in_memory_round_trips_through_bytes() {
        let never = AtomicBool::new(false);
        let (rules, n, stones) = (Rules::KALAH, 3, 12);
        let mut layers = Vec::new();
        let db = EndgameDb::build(rules, n, stones, 2, 1 << 30, &never, |t, len| {
            layers.push((t, len))
        })
        .unwrap()
        .expect("not stopped");
        assert_eq!(layers.len(), stones as usize + 1);
        let total: u64 = layers.iter().map(|&(_, len)| len).sum();
        assert_eq!(total, EndgameDb::bytes_for(n, stones));
        let mut bytes = Vec::new();
        db.write_to(&mut bytes).unwrap();

        let path = std::env::temp_dir().join(format!("ms-db-bytes-{}.bin", std::process::id()));
        let built = EndgameDb::build_file(
            &path,
            rules,
            n,
            stones,
            1,
            1 << 30,
            &never,
            &BuildProgress::default(),
        )
        .unwrap();
        assert!(built.complete);
        let file = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(bytes, file, "the bytes of the file build_file writes");

        let name = Path::new("test bytes");
        let back = EndgameDb::from_bytes(name, &bytes, rules, n, 1 << 30).unwrap();
        assert_eq!(back.stones(), stones);
        assert!(back.is_packed() && !db.is_packed());
        assert_eq!(back.db.every_value(n), db.db.every_value(n));
        solves_alike(&back, &GameState::start(n, 4, rules).unwrap());

        let short = EndgameDb::from_bytes(name, &bytes[..bytes.len() - 1], rules, n, 1 << 30);
        assert!(
            matches!(short, Err(GameError::Endgame(EndgameError::Length { .. }))),
            "{short:?}"
        );
        let foreign = EndgameDb::from_bytes(name, &bytes, Rules::AVALANCHE, n, 1 << 30);
        assert!(
            matches!(
                foreign,
                Err(GameError::Endgame(EndgameError::ForeignFile { .. }))
            ),
            "{foreign:?}"
        );
        let over = EndgameDb::from_bytes(name, &bytes, rules, n, 1000);
        assert!(
            matches!(over, Err(GameError::Endgame(EndgameError::OverCap { .. }))),
            "{over:?}"
        );
    }
}
