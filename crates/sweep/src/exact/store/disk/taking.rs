//! A bucket taken from disk a wave at a time: tasks of whole parts
//! gathered from every run file, sorted and merged in parallel, and parts
//! too large for one task cut into key ranges first.
//!
//! Why the cut: the in-memory store's [`PARTS`] key ranges are even in
//! key space, not in entries, and the keys of a large bucket crowd into a
//! few of them. On any-hole 2×6×6 one part of bucket 37 held 76.5 million
//! entries (35 times the mean); a task of that part alone took three
//! copies of it on each worker and a wave far beyond the buffer's share,
//! and the search passed a 9 GiB memory guard by half. A part of more
//! than a task's share is read through once to note a cursor every few
//! entries of each run ([`DiskRun::cursors`]), split at key quantiles of
//! those cursors, and each slice read from its cursors
//! ([`DiskRun::read_slice`]). The cut happens when the part's turn comes,
//! so only one part's cursors are held at a time.

use super::run_file::{Cursor, DiskRun};
use super::SpillFail;
use crate::exact::key::Key;
use crate::exact::store::memory::{merge_in_place, radix_sort, Count, Entry, Nodes, PARTS, TASK};
use crate::exact::store::Wave;
use rayon::prelude::*;
use std::ops::Range;

/// Cursors noted per run for each slice a part will be cut into: the
/// slices' sizes are then right to within an eighth of a slice a run.
const CURSORS_PER_SLICE: u64 = 8;

/// What one task reads.
#[derive(Debug)]
enum Task {
    /// Whole parts, from every run.
    Parts(Range<usize>),
    /// One part too large for a task, to be cut when its turn comes.
    Large(usize),
    /// The keys `from..to` (no end when `None`) of one part, with where
    /// each run's entries of them start and end.
    Slice {
        part: usize,
        keys: (u128, Option<u128>),
        /// By run: the cursor to read from, and the byte offset in the
        /// part to read to.
        reads: Vec<(Cursor, u64)>,
    },
}

/// A bucket being taken from disk, a wave at a time.
pub struct Taking {
    pub(super) runs: Vec<DiskRun>,
    /// The bucket's part shift (see [`crate::exact::store::memory::part_shift`]).
    shift: u32,
    /// Entries a task may hold at most before its part is cut.
    most: u64,
    tasks: Vec<Task>,
    /// Entries (before deduplication) of each task; those of slices are
    /// estimates that sum to their part's.
    sizes: Vec<u64>,
    next: usize,
}

impl Taking {
    /// The bucket held in `runs`, with part shift `shift`, in tasks of
    /// about [`TASK`] entries and at most `most` (parts of more stand
    /// alone and are cut when their turn comes).
    pub(super) fn new(runs: Vec<DiskRun>, shift: u32, most: u64) -> Taking {
        let mut sizes = vec![0u64; PARTS];
        for run in &runs {
            for (size, count) in sizes.iter_mut().zip(&run.counts) {
                *size += count;
            }
        }
        let (mut tasks, mut task_sizes) = (Vec::new(), Vec::new());
        let (mut from, mut gathered) = (0, 0);
        for (p, &size) in sizes.iter().enumerate() {
            if size > most {
                if gathered > 0 {
                    tasks.push(Task::Parts(from..p));
                    task_sizes.push(gathered);
                }
                tasks.push(Task::Large(p));
                task_sizes.push(size);
                (from, gathered) = (p + 1, 0);
                continue;
            }
            gathered += size;
            if gathered >= TASK as u64 || (p + 1 == PARTS && gathered > 0) {
                tasks.push(Task::Parts(from..p + 1));
                task_sizes.push(gathered);
                (from, gathered) = (p + 1, 0);
            }
        }
        debug_assert_eq!(
            task_sizes.iter().sum::<u64>(),
            runs.iter().map(DiskRun::len).sum::<u64>()
        );
        Taking {
            runs,
            shift,
            most,
            tasks,
            sizes: task_sizes,
            next: 0,
        }
    }

    /// Entries in the bucket's runs (before deduplication).
    pub fn entries(&self) -> u64 {
        self.sizes.iter().sum()
    }

    /// The next wave of about `entries` entries (before deduplication; at
    /// least one task), deduplicated and in key order, after the previous
    /// waves; `None` when the bucket is done.
    pub fn next_wave<K: Key, C: Count>(
        &mut self,
        entries: u64,
    ) -> Result<Option<Wave<K, C>>, SpillFail> {
        let from = self.next;
        let mut gathered = 0;
        while self.next < self.tasks.len() {
            if let Task::Large(part) = self.tasks[self.next] {
                let slices = self.cut(part, self.sizes[self.next], K::BITS)?;
                let (tasks, sizes): (Vec<Task>, Vec<u64>) = slices.into_iter().unzip();
                self.tasks.splice(self.next..=self.next, tasks);
                self.sizes.splice(self.next..=self.next, sizes);
                continue;
            }
            if self.next > from && gathered + self.sizes[self.next] > entries {
                break;
            }
            gathered += self.sizes[self.next];
            self.next += 1;
        }
        if self.next == from {
            return Ok(None);
        }
        let (runs, shift) = (&self.runs, self.shift);
        let parts: Vec<Vec<Entry<K, C>>> = self.tasks[from..self.next]
            .par_iter()
            .map_init(
                || (Vec::new(), Vec::new(), Vec::new()),
                |(buffer, spare, bytes), task| {
                    buffer.clear();
                    match task {
                        Task::Parts(parts) => {
                            for run in runs {
                                run.read_parts(parts.clone(), shift, buffer, bytes)?;
                            }
                        }
                        // Cut before it is read (above); read whole, were it not.
                        &Task::Large(part) => {
                            for run in runs {
                                run.read_parts(part..part + 1, shift, buffer, bytes)?;
                            }
                        }
                        Task::Slice { part, keys, reads } => {
                            for (run, &read) in runs.iter().zip(reads) {
                                run.read_slice(*part, shift, read, *keys, buffer, bytes)?;
                            }
                        }
                    }
                    radix_sort(buffer, spare);
                    let kept = merge_in_place(buffer)?;
                    Ok(buffer[..kept].to_vec())
                },
            )
            .filter(|part: &Result<Vec<_>, SpillFail>| {
                part.as_ref().map_or(true, |p| !p.is_empty())
            })
            .collect::<Result<_, _>>()?;
        Ok(Some((Nodes::from_parts(parts), gathered)))
    }

    /// Cut part `part` of `size` entries into slices of about
    /// [`Taking::most`] entries at most: each run's part read through
    /// once for its cursors, the slices' bounds at quantiles of the
    /// cursors' keys, and each slice's sizes estimated from the cursors
    /// (scaled to sum to `size`, so that the bucket's progress ends at its
    /// entries).
    fn cut(&self, part: usize, size: u64, key_bits: u32) -> Result<Vec<(Task, u64)>, SpillFail> {
        let slices = size.div_ceil(self.most).max(2);
        let cursors: Vec<(Vec<Cursor>, u64)> = self
            .runs
            .par_iter()
            .map_init(Vec::new, |bytes, run| {
                let count = run.counts[part];
                // About CURSORS_PER_SLICE cursors a slice in this run.
                let stride = (count as u128 * self.most as u128
                    / (size as u128 * CURSORS_PER_SLICE as u128))
                    .max(1) as u64;
                let cursors = if count == 0 {
                    Vec::new()
                } else {
                    run.cursors(part, self.shift, key_bits, stride, bytes)?
                };
                Ok((cursors, stride))
            })
            .collect::<Result<_, SpillFail>>()?;
        // The bounds between slices: each cursor stands for the `stride`
        // entries up to it.
        let mut samples: Vec<(u128, u64)> = cursors
            .iter()
            .flat_map(|(cs, stride)| cs.iter().map(move |c| (c.key, *stride)))
            .collect();
        samples.sort_unstable();
        let mut bounds: Vec<u128> = Vec::new();
        let mut seen = 0u64;
        for (key, weight) in samples {
            seen += weight;
            let due = (bounds.len() as u64 + 1) * size / slices;
            let next = key.saturating_add(1);
            if seen >= due && bounds.len() as u64 + 1 < slices && bounds.last() < Some(&next) {
                bounds.push(next);
            }
        }
        let ends: Vec<(u128, Option<u128>)> = std::iter::once(0)
            .chain(bounds.iter().copied())
            .zip(bounds.iter().copied().map(Some).chain([None]))
            .collect();
        let mut out: Vec<(Task, u64)> = ends
            .into_iter()
            .map(|(lo, hi)| {
                let mut estimate = 0u64;
                let reads = self
                    .runs
                    .iter()
                    .zip(&cursors)
                    .map(|(run, (cs, _))| {
                        let part_bytes = run.offsets[part + 1] - run.offsets[part];
                        // The last cursor before the slice's first key.
                        let start = match cs.partition_point(|c| c.key < lo) {
                            0 => Cursor::default(),
                            i => cs[i - 1],
                        };
                        // The first cursor at or past its end: its entry
                        // ends the slice's, and the read.
                        let (end, end_index) = match hi {
                            None => (part_bytes, run.counts[part]),
                            Some(hi) => match cs.get(cs.partition_point(|c| c.key < hi)) {
                                Some(c) => (c.offset, c.index),
                                None => (part_bytes, run.counts[part]),
                            },
                        };
                        estimate += end_index - start.index;
                        (start, end)
                    })
                    .collect();
                let task = Task::Slice {
                    part,
                    keys: (lo, hi),
                    reads,
                };
                (task, estimate)
            })
            .collect();
        // Scale the estimates (each run's reads overlap its neighbours' by
        // a stride) to sum to the part's entries.
        let estimated: u64 = out.iter().map(|(_, e)| e).sum::<u64>().max(1);
        let mut left = size;
        let last = out.len() - 1;
        for (i, (_, e)) in out.iter_mut().enumerate() {
            *e = if i == last {
                left
            } else {
                ((*e as u128 * size as u128 / estimated as u128) as u64).min(left)
            };
            left -= *e;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fill_both;
    use super::super::Spill;
    use super::*;
    use crate::exact::store::memory::{part_shift, Run};
    use std::io::{Seek, SeekFrom, Write};

    /// A scratch directory of this test and process.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "mancala-sweep-taking-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A bucket crowded into two parts comes out of its runs, cut into
    /// slices, exactly as the in-memory store takes it: the same keys and
    /// counts in the same order, keys shared by many runs merged once, and
    /// no task larger than its share.
    #[test]
    fn a_crowded_part_is_cut_and_taken_like_the_memory_frontier() {
        let dir = scratch("crowded");
        let (stones, store, pits) = (48, 20, 12);
        let shift = part_shift(stones, store, pits);
        let shifts = vec![shift; stones + 1];
        let (mut spill, _) =
            Spill::<u64, u64>::open(&dir, "test".into(), shifts, 1 << 16, u64::MAX).unwrap();
        // Most in part 5, a few in part 9, some elsewhere; one key in
        // every run.
        let want = fill_both(&mut spill, stones, store, shift, 7, |i, x| {
            let low = (x >> 40) & ((1 << shift) - 1);
            match i % 10 {
                0 => (9 << shift) + (low & 0xff),
                1 => (x >> 54) << shift,
                2 => (5 << shift) + 12345,
                _ => (5 << shift) + low,
            }
        });
        let mut taking = spill.take(store).unwrap();
        let entries = taking.entries();
        assert!(taking.runs.len() > 3, "the budget forced several runs");
        assert!(
            taking.tasks.iter().any(|t| matches!(t, Task::Large(5))),
            "part 5 stands alone, to be cut: {:?}",
            taking.sizes
        );
        let (mut got, mut gathered) = (Vec::new(), 0);
        while let Some((nodes, of)) = taking.next_wave::<u64, u64>(40_000).unwrap() {
            got.extend(nodes.iter().copied());
            gathered += of;
        }
        assert_eq!(got, want);
        assert_eq!(gathered, entries, "the waves' entries sum to the bucket's");
        let slices = taking
            .tasks
            .iter()
            .filter(|t| matches!(t, Task::Slice { part: 5, .. }))
            .count();
        assert!(slices >= 2, "{slices} slices of part 5");
        assert!(taking.tasks.iter().all(|t| !matches!(t, Task::Large(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run file whose framing is whole but whose entries are not (a key
    /// repeated, a count of zero) is refused as damaged when read.
    #[test]
    fn damaged_entries_are_refused() {
        for (at, byte, why) in [(2, 0u8, "same key"), (1, 0, "path count is zero")] {
            let dir = scratch("damaged");
            let shifts = vec![4; 49];
            let (mut spill, _) =
                Spill::<u64, u64>::open(&dir, "test".into(), shifts, 1 << 16, u64::MAX).unwrap();
            // Keys 1 and 2 of part 0 (shift 4): gap 1, count 3, gap 1, count 3.
            spill.push(20, Run::new(vec![(1, 3), (2, 3)], 4));
            let mut taking = spill.take(20).unwrap();
            let run = &taking.runs[0];
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(&run.path)
                .unwrap();
            file.seek(SeekFrom::Start(run.offsets[0] + at)).unwrap();
            file.write_all(&[byte]).unwrap();
            drop(file);
            match taking.next_wave::<u64, u64>(1 << 20) {
                Err(SpillFail::Foreign { reason, .. }) => {
                    assert!(reason.contains(why), "{reason}")
                }
                other => panic!("{other:?}"),
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
