//! A frontier that spills to disk, for searches larger than memory
//! (`solve --spill DIR`).
//!
//! It keeps the in-memory [`Frontier`] as a buffer. When the buffer holds
//! more than its budget, and at the end of every bucket, each bucket in it
//! is deduplicated the usual way and written to `DIR` as a *run file*:
//! the bucket's entries in key order, cut into the same [`PARTS`] key
//! ranges as the in-memory runs, each range coded as LEB128 gaps between
//! keys (restarting from 0 at its first key) and LEB128 path counts. A
//! footer gives every part's byte offset and entry count, so that a reader
//! can read one key range of a run without the rest.
//!
//! Taking a bucket is the in-memory take with the runs read from disk: key
//! ranges of about [`TASK`](super::memory::TASK) entries are gathered from
//! every run file, sorted and merged in parallel, and handed out in *waves*
//! of a bounded number of entries, so that a bucket larger than memory is
//! expanded a wave at a time; a part that holds more than a task's share
//! is cut into key ranges first ([`Taking`]). Deduplication, order and counts are the in-memory ones, so the
//! answers are the same, byte for byte (a test checks this).
//!
//! After every bucket the buffer is written out and a checkpoint
//! (`checkpoint.json`, written to a temporary file, synced and renamed)
//! records the counts so far and the run files that hold the rest. A
//! search that is stopped, killed or loses its machine resumes from the
//! last checkpoint with the same command: run files that no checkpoint
//! names (those of the bucket in progress) are deleted, and at most that
//! bucket is done again.

mod run_file;
mod taking;

pub use self::taking::Taking;

/// The cluster codes its batches the way run files code their parts.
#[cfg(feature = "cluster")]
pub(crate) use self::run_file::{get_varint, put_varint};

use self::run_file::{assemble, encode_parts, DiskRun, END, FOOTER, MAGIC};
use super::memory::{Count, Entry, Frontier, Run, PARTS};
use super::{DiskUse, SpillFail, Store, Wave};
use crate::exact::counts::ForwardCounts;
use crate::exact::key::Key;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The checkpoint's format name; another one is refused.
pub const CHECKPOINT_FORMAT: &str = "mancala-sweep-spill/1";
/// The checkpoint's file name in the spill directory.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// Room kept free on the disk beyond what a run file needs.
const DISK_MARGIN: u64 = 64 << 20;

/// The failure of `action` on `path`, from what the system said.
fn io_fail<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> SpillFail + 'a {
    move |source| SpillFail::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Bytes free for this user on the disk that holds `dir`.
#[cfg(target_os = "linux")]
pub fn disk_free(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is a plain C struct of integers, for which all
    // zero bytes is a valid value.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string and `stat` a writable
    // statvfs that the call fills in.
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    (rc == 0).then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
}

/// Bytes free on the disk that holds `dir` (not known off Linux).
#[cfg(not(target_os = "linux"))]
pub fn disk_free(_dir: &Path) -> Option<u64> {
    None
}

/// What the checkpoint says of one run file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RunRecord {
    /// Its bucket.
    store: usize,
    /// Its file name in the directory.
    file: String,
    /// Its size, checked on resume.
    bytes: u64,
}

/// The state of a spilled search after a whole bucket: `checkpoint.json`.
///
/// Unlike the documents the tool prints or publishes, it carries its
/// format and no tool version (not the shared `Header`): it is one run's
/// own file, matched to its search by `search`, and a newer build of the
/// tool must resume a run that an older one began (a count of days may
/// outlive a release) as long as the format is the same.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Checkpoint {
    /// `CHECKPOINT_FORMAT` (`mancala-sweep-spill/1`).
    pub format: String,
    /// The search it belongs to: rules, board and key and count types.
    pub search: String,
    /// The next bucket to take.
    pub next_store: usize,
    /// Distinct positions expanded so far.
    pub positions: u64,
    /// Those positions by bucket.
    pub positions_by_store: Vec<u64>,
    /// Path counts of finished turns by final store, in decimal (they may
    /// pass 2^64, which JSON numbers do not keep).
    pub ended: Vec<String>,
    /// Wall-clock seconds spent on the finished buckets, over every run.
    pub seconds: f64,
    /// True when every bucket is done: the counts are the answer.
    pub done: bool,
    /// Bytes written to run files over every run.
    pub written: u64,
    /// Run files that hold the buckets still to do.
    runs: Vec<RunRecord>,
    /// The next run file's number.
    seq: u64,
}

impl Checkpoint {
    /// The path counts by final store.
    pub fn ended(&self) -> Option<Vec<u128>> {
        self.ended.iter().map(|c| c.parse().ok()).collect()
    }
}

/// The spilling frontier: a memory buffer, the run files of every bucket,
/// and the directory's checkpoint.
pub struct Spill<K, C> {
    dir: PathBuf,
    search: String,
    buffer: Frontier<K, C>,
    /// Run files by bucket.
    runs: Vec<Vec<DiskRun>>,
    shifts: Vec<u32>,
    /// Bytes the buffer may hold before it is written out.
    budget: u64,
    max_disk: u64,
    seq: u64,
    written: u64,
    /// Bytes of the bucket being taken, on disk until the next checkpoint.
    taken: u64,
}

impl<K: Key, C: Count> Spill<K, C> {
    /// Open `dir` (made if missing) for the search `search` (rules, board,
    /// types: a checkpoint of another search is refused), with the part
    /// shift of every bucket. Returns the store and the checkpoint found,
    /// if any; run files it does not name are deleted.
    pub fn open(
        dir: &Path,
        search: String,
        shifts: Vec<u32>,
        budget: u64,
        max_disk: u64,
    ) -> Result<(Self, Option<Checkpoint>), SpillFail> {
        std::fs::create_dir_all(dir).map_err(io_fail("create", dir))?;
        // Large blocks mapped whole, so that a trim after each write
        // gives the buffer back (see `allocator`).
        crate::allocator::tune();
        let mut spill = Spill {
            dir: dir.to_path_buf(),
            search,
            buffer: Frontier::new(shifts.len() - 1),
            runs: (0..shifts.len()).map(|_| Vec::new()).collect(),
            shifts,
            budget,
            max_disk,
            seq: 0,
            written: 0,
            taken: 0,
        };
        let path = dir.join(CHECKPOINT_FILE);
        let checkpoint = match std::fs::read_to_string(&path) {
            Ok(text) => Some(spill.resume(&path, &text)?),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(io_fail("read", &path)(e)),
        };
        // Run files of a bucket that was not finished, and temporary files.
        let named: Vec<PathBuf> = spill
            .runs
            .iter()
            .flatten()
            .map(|r| r.path.clone())
            .collect();
        for entry in std::fs::read_dir(dir).map_err(io_fail("read", dir))? {
            let entry = entry.map_err(io_fail("read", dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let ours =
                name.ends_with(".run") || name.ends_with(".run.tmp") || name.ends_with(".json.tmp");
            if ours && !named.contains(&entry.path()) {
                std::fs::remove_file(entry.path()).map_err(io_fail("delete", &entry.path()))?;
            }
        }
        Ok((spill, checkpoint))
    }

    /// Load the checkpoint `text` and open the run files it names.
    fn resume(&mut self, path: &Path, text: &str) -> Result<Checkpoint, SpillFail> {
        let foreign = |reason: String| SpillFail::Foreign {
            path: path.to_path_buf(),
            reason,
        };
        let cp: Checkpoint = serde_json::from_str(text).map_err(|e| {
            foreign(format!(
                "not a spill checkpoint ({e}); use another spill directory"
            ))
        })?;
        if cp.format != CHECKPOINT_FORMAT {
            return Err(foreign(format!(
                "checkpoint format {:?}, this version reads {CHECKPOINT_FORMAT:?}; use another spill directory",
                cp.format
            )));
        }
        if cp.search != self.search {
            return Err(foreign(format!(
                "holds another search ({}); use another spill directory, or empty this one to start over",
                cp.search
            )));
        }
        let sizes = [cp.ended.len(), cp.positions_by_store.len()];
        if sizes != [self.shifts.len(); 2] || cp.ended().is_none() {
            return Err(foreign(
                "damaged counts; empty the directory to start over".into(),
            ));
        }
        for record in &cp.runs {
            let run = DiskRun::open(&self.dir.join(&record.file))?;
            if run.bytes != record.bytes || record.store >= self.runs.len() {
                return Err(foreign(format!(
                    "{} does not match the checkpoint",
                    record.file
                )));
            }
            self.runs[record.store].push(run);
        }
        self.seq = cp.seq;
        self.written = cp.written;
        Ok(cp)
    }

    /// File a run of successors (in memory until [`Spill::relieve`] or the
    /// next checkpoint writes it out).
    pub fn push(&mut self, store: usize, run: Run<K, C>) {
        self.buffer.push(store, run);
    }

    /// Write the buffer out if it holds more than its budget.
    pub fn relieve(&mut self) -> Result<(), SpillFail> {
        if self.buffer.memory() > self.budget {
            self.flush()?;
        }
        Ok(())
    }

    /// Write the buffer out whatever it holds: the process is short of
    /// room under its memory guard for the next wave's successors.
    pub fn make_room(&mut self) -> Result<(), SpillFail> {
        self.flush()
    }

    /// Write every bucket of the buffer to a run file.
    fn flush(&mut self) -> Result<(), SpillFail> {
        for store in self.buffer.pending_buckets() {
            self.write_run(store)?;
        }
        // The buffer's blocks are free now, but kept by the allocator
        // (and counted by the memory guard) until trimmed.
        crate::allocator::trim();
        Ok(())
    }

    /// Write what the buffer holds of bucket `store` as a new run file:
    /// deduplicated and coded a take task at a time (so that the bucket is
    /// never held twice decoded), checked against the disk guards, written
    /// to a temporary name and renamed.
    fn write_run(&mut self, store: usize) -> Result<(), SpillFail> {
        let shift = self.shifts[store];
        let coded = self
            .buffer
            .take_into(store, |entries| encode_parts(entries, shift))?;
        if coded.is_empty() {
            return Ok(());
        }
        let (chunks, offsets, counts) = assemble(coded);
        let len: u64 = counts.iter().sum();
        let needed = offsets[PARTS] + FOOTER as u64;
        let on_disk = self.disk_used() + needed;
        if on_disk > self.max_disk {
            return Err(SpillFail::DiskLimit {
                limit: self.max_disk,
                needed: on_disk,
            });
        }
        if let Some(free) = disk_free(&self.dir).filter(|&f| f < needed + DISK_MARGIN) {
            return Err(SpillFail::DiskFull {
                path: self.dir.clone(),
                free,
                needed,
            });
        }
        let name = format!("b{store:03}-{:06}.run", self.seq);
        self.seq += 1;
        let path = self.dir.join(&name);
        let tmp = self.dir.join(format!("{name}.tmp"));
        // Not synced here: a file that no checkpoint names is deleted on
        // resume, and the next checkpoint syncs every file it names first
        // (one sync a file had been a third of the time spent writing).
        let written = (|| {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&tmp)?;
            let mut out = io::BufWriter::with_capacity(1 << 20, file);
            out.write_all(MAGIC)?;
            for chunk in &chunks {
                out.write_all(chunk)?;
            }
            for word in offsets.iter().chain(&counts).chain([&len]) {
                out.write_all(&word.to_le_bytes())?;
            }
            out.write_all(END)?;
            let file = out.into_inner().map_err(|e| e.into_error())?;
            std::fs::rename(&tmp, &path)?;
            Ok(file)
        })();
        let file = match written {
            Ok(file) => file,
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                return Err(io_fail("write", &path)(e));
            }
        };
        self.written += needed;
        self.runs[store].push(DiskRun {
            path,
            file,
            offsets,
            counts,
            bytes: needed,
            synced: false,
        });
        Ok(())
    }

    /// Take bucket `store` from disk: whatever of it is in the buffer is
    /// written out first, so that every entry comes through the same path.
    pub fn take(&mut self, store: usize) -> Result<Taking, SpillFail> {
        if self.buffer.pending_buckets().contains(&store) {
            self.write_run(store)?;
        }
        let runs = std::mem::take(&mut self.runs[store]);
        self.taken = runs.iter().map(|r| r.bytes).sum();
        // A task at most a quarter of a wave: a wave of one task is then
        // still within the buffer's share, whatever the keys' spread (the
        // floor only keeps a tiny buffer's tasks worth a thread's while;
        // the tests' buffers of a few KiB cut parts with it).
        let most = (wave_entries(self.budget, size_of::<Entry<K, C>>()) / 4).max(1 << 10);
        Ok(Taking::new(runs, self.shifts[store], most))
    }

    /// Sync the run files written since the last checkpoint that the
    /// next one will name, all at once (the disk can write them back
    /// together), and the directory that names them. Runs taken since
    /// are not synced: no checkpoint names them.
    fn sync_runs(&mut self) -> Result<(), SpillFail> {
        let mut fresh: Vec<&mut DiskRun> = self
            .runs
            .iter_mut()
            .flatten()
            .filter(|r| !r.synced)
            .collect();
        let dir = &self.dir;
        fresh
            .par_iter_mut()
            .try_for_each(|r| {
                r.file.sync_all()?;
                r.synced = true;
                Ok(())
            })
            .and_then(|()| File::open(dir)?.sync_all())
            .map_err(io_fail("sync", dir))
    }

    /// Bytes of run files the store holds now.
    pub fn disk_used(&self) -> u64 {
        self.runs.iter().flatten().map(|r| r.bytes).sum::<u64>() + self.taken
    }

    /// Bytes written to run files so far, over every run of the search.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Bytes the buffer holds.
    pub fn memory(&self) -> u64 {
        self.buffer.memory()
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// After bucket `done` (taken as `taken`): write the buffer out, record
    /// the state, then delete the taken bucket's files. A crash before the
    /// checkpoint is renamed leaves the previous one, whose files are still
    /// there; a crash after it leaves files no checkpoint names, which the
    /// next [`Spill::open`] deletes.
    pub fn checkpoint(
        &mut self,
        taken: Taking,
        next_store: usize,
        positions_by_store: &[u64],
        ended: &[u128],
        seconds: f64,
        done: bool,
    ) -> Result<Checkpoint, SpillFail> {
        self.flush()?;
        self.sync_runs()?;
        let runs = self
            .runs
            .iter()
            .enumerate()
            .flat_map(|(store, runs)| {
                runs.iter().map(move |r| RunRecord {
                    store,
                    file: r
                        .path
                        .file_name()
                        .expect("a file")
                        .to_string_lossy()
                        .into_owned(),
                    bytes: r.bytes,
                })
            })
            .collect();
        let cp = Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            search: self.search.clone(),
            next_store,
            positions: positions_by_store.iter().sum(),
            positions_by_store: positions_by_store.to_vec(),
            ended: ended.iter().map(|c| c.to_string()).collect(),
            seconds,
            done,
            written: self.written,
            runs,
            seq: self.seq,
        };
        let path = self.dir.join(CHECKPOINT_FILE);
        let text = serde_json::to_string_pretty(&cp).expect("serializable") + "\n";
        base::atomic_file::write_with(&path, |w| w.write_all(text.as_bytes()))
            // The rename itself is made durable by syncing the directory.
            .and_then(|_| File::open(&self.dir)?.sync_all())
            .map_err(io_fail("write", &path))?;
        for run in taken.runs {
            std::fs::remove_file(&run.path).map_err(io_fail("delete", &run.path))?;
        }
        self.taken = 0;
        Ok(cp)
    }
}

/// Entries of a wave for a buffer of `buffer` bytes and entries of
/// `entry` bytes: a wave's nodes and their successors (about three a node,
/// and a copy while they are filed) take a few buffers' worth of tenths.
pub(crate) fn wave_entries(buffer: u64, entry: usize) -> u64 {
    (buffer / (10 * entry as u64)).clamp(1 << 12, 1 << 26)
}

/// The store on disk with keys of another type: the buffer re-typed, the
/// run files as they are (they code keys as gaps, whatever the type),
/// and the checkpoint's search unchanged, so that a search that went
/// on with narrower keys resumes either side of the change.
impl<K: Key, C: Count> super::Rekey<C> for Spill<K, C> {
    type With<K2: Key> = Spill<K2, C>;
    fn rekey<K2: Key>(self) -> Spill<K2, C> {
        Spill {
            dir: self.dir,
            search: self.search,
            buffer: super::Rekey::rekey(self.buffer),
            runs: self.runs,
            shifts: self.shifts,
            budget: self.budget,
            max_disk: self.max_disk,
            seq: self.seq,
            written: self.written,
            taken: self.taken,
        }
    }
}

/// The store on disk hands a bucket out in waves of a tenth of its buffer
/// (see [`wave_entries`]), and its checkpoint hook writes the buffer out
/// and records the counts, so that the same search resumes after the
/// bucket.
impl<K: Key, C: Count> Store<K, C> for Spill<K, C> {
    type Taking = Taking;
    const ON_DISK: bool = true;
    fn push(&mut self, store: usize, run: Run<K, C>) {
        Spill::push(self, store, run)
    }
    fn take(&mut self, store: usize) -> Result<Taking, SpillFail> {
        Spill::take(self, store)
    }
    fn entries(taking: &Taking) -> u64 {
        taking.entries()
    }
    fn next_wave(&mut self, taking: &mut Taking) -> Result<Option<Wave<K, C>>, SpillFail> {
        taking.next_wave::<K, C>(wave_entries(self.budget, size_of::<Entry<K, C>>()))
    }
    fn memory(&self) -> u64 {
        Spill::memory(self)
    }
    fn relieve(&mut self) -> Result<(), SpillFail> {
        Spill::relieve(self)
    }
    fn make_room(&mut self) -> Result<(), SpillFail> {
        Spill::make_room(self)
    }
    fn checkpoint(
        &mut self,
        taken: Taking,
        tally: &ForwardCounts,
        done: bool,
    ) -> Result<(), SpillFail> {
        let (by_store, ended) = (&tally.by_store, &tally.ended);
        Spill::checkpoint(
            self,
            taken,
            tally.next,
            by_store,
            ended,
            tally.seconds,
            done,
        )?;
        Ok(())
    }
    fn disk(&self) -> Option<DiskUse> {
        Some(DiskUse {
            used: self.disk_used(),
            free: disk_free(self.dir()),
            written: self.written(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Push the same 30 runs of 3,000 entries (run `r` with path counts
    /// `r + 1`, keys `key(i, x)` for entry `i` and a fresh pseudo-random
    /// `x` from `seed`) to `spill` and to an in-memory frontier, the spill
    /// writing its buffer out as it fills; the frontier's take of `store`,
    /// which the spill's must equal.
    pub(super) fn fill_both(
        spill: &mut Spill<u64, u64>,
        stones: usize,
        store: usize,
        shift: u32,
        seed: u64,
        key: impl Fn(u64, u64) -> u64,
    ) -> Vec<(u64, u64)> {
        let mut memory = Frontier::<u64, u64>::new(stones);
        let mut x = seed;
        for r in 0..30u64 {
            let run: Vec<(u64, u64)> = (0..3000u64)
                .map(|i| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (key(i, x), r + 1)
                })
                .collect();
            memory.push(store, Run::new(run.clone(), shift));
            spill.push(store, Run::new(run, shift));
            spill.relieve().unwrap();
        }
        memory.take(store).unwrap().iter().copied().collect()
    }

    /// Runs written and read back give the in-memory take, over many
    /// parts, waves of every size and a run that holds overlapping keys.
    #[test]
    fn runs_on_disk_take_like_the_memory_frontier() {
        let dir = std::env::temp_dir().join(format!("mancala-sweep-disk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (stones, store, pits) = (48, 20, 12);
        let shift = super::super::memory::part_shift(stones, store, pits);
        let shifts = vec![shift; stones + 1];
        let (mut spill, cp) =
            Spill::<u64, u64>::open(&dir, "test".into(), shifts, 1 << 16, u64::MAX).unwrap();
        assert!(cp.is_none());
        let want = fill_both(&mut spill, stones, store, shift, 1, |i, x| {
            ((x >> 52) << 27) + (i % 3)
        });
        let mut taking = spill.take(store).unwrap();
        assert!(taking.runs.len() > 3, "the budget forced several runs");
        // Each run was deduplicated when it was written: between the
        // distinct keys and the 90,000 entries pushed.
        let entries = taking.entries();
        assert!(
            entries >= want.len() as u64 && entries < 90_000,
            "{entries}"
        );
        let mut got = Vec::new();
        while let Some((nodes, _)) = taking.next_wave::<u64, u64>(40_000).unwrap() {
            got.extend(nodes.iter().copied());
        }
        assert_eq!(got, want);
        // A checkpoint names no taken file; a reopened store deletes the
        // strays and reads the checkpoint back.
        let ended = vec![7u128 << 70; stones + 1];
        let mut by_store = vec![0; stones + 1];
        by_store[store] = 5;
        spill
            .checkpoint(taking, store + 1, &by_store, &ended, 1.5, false)
            .unwrap();
        std::fs::write(dir.join("b021-999999.run"), b"stray").unwrap();
        let (_, cp) =
            Spill::<u64, u64>::open(&dir, "test".into(), vec![shift; stones + 1], 1, u64::MAX)
                .unwrap();
        let cp = cp.unwrap();
        assert_eq!((cp.next_store, cp.positions), (store + 1, 5));
        assert_eq!(cp.ended().unwrap(), ended);
        assert!(!dir.join("b021-999999.run").exists());
        let other =
            Spill::<u64, u64>::open(&dir, "other".into(), vec![shift; stones + 1], 1, u64::MAX);
        assert!(matches!(other, Err(SpillFail::Foreign { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
