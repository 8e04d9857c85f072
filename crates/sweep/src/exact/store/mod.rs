//! Where the frontier of the exact search lives between buckets.
//!
//! The forward pass only pushes runs of successors into a store bucket and
//! takes a whole bucket back, deduplicated and in key order, when every
//! bucket below it is done. [`Store`] is that interface, and both stores
//! implement it: the in-memory one ([`memory`]) and the one that spills runs
//! to disk ([`disk`]), so that one step driver
//! ([`super::steps`]) runs the forward pass over either.

pub(crate) mod disk;
pub mod memory;

pub(crate) use memory::{Count, Entry, Frontier, Nodes, Overflow, Run};

use super::counts::ForwardCounts;
use super::key::Key;
use std::io;
use std::path::PathBuf;

/// Disk use of a search that spills its frontier.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiskUse {
    /// Bytes of run files now.
    pub used: u64,
    /// Bytes free on their disk (`None` where that is not known).
    pub free: Option<u64>,
    /// Bytes written to run files since the search began (over every
    /// resumed run).
    pub written: u64,
}

/// Why the spill store could not go on.
#[derive(Debug)]
pub(crate) enum SpillFail {
    /// A file or directory could not be read or written.
    Io {
        /// What was being done.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The directory holds a checkpoint of another search, or a damaged one.
    Foreign {
        /// The directory or file.
        path: PathBuf,
        /// What it holds instead.
        reason: String,
    },
    /// Writing the next run would pass `--max-disk`.
    DiskLimit {
        /// The limit in bytes.
        limit: u64,
        /// Bytes the run files would then take.
        needed: u64,
    },
    /// The disk has no room for the next run.
    DiskFull {
        /// The directory.
        path: PathBuf,
        /// Bytes free on its disk.
        free: u64,
        /// Bytes the next run needs.
        needed: u64,
    },
    /// A path count did not fit the count type.
    Overflow,
}

impl From<Overflow> for SpillFail {
    fn from(_: Overflow) -> Self {
        SpillFail::Overflow
    }
}

/// A wave of a bucket: its nodes, deduplicated and in key order, and the
/// entries (before deduplication) they were merged from.
pub(crate) type Wave<K, C> = (Nodes<K, C>, u64);

/// A frontier: runs of `(key, path count)` filed by store value, taken
/// back a bucket at a time in *waves* (one for the in-memory store; as
/// many as keep a wave's nodes and successors within the buffer for the
/// store on disk, whose buckets may not fit in memory).
pub(crate) trait Store<K: Key, C: Count> {
    /// A bucket being taken.
    type Taking;
    /// True for a store on disk. It bounds its own memory (it writes its
    /// buffer out past a budget), so the guard before a bucket, which
    /// asks whether the bucket's successors fit in memory, is not for it:
    /// a bucket larger than memory is what it is for. And it records every
    /// bucket in its checkpoint, an empty one too, so that a resume knows
    /// where to start.
    const ON_DISK: bool;
    /// File a run of successors for bucket `store`.
    fn push(&mut self, store: usize, run: Run<K, C>);
    /// Start taking bucket `store`.
    fn take(&mut self, store: usize) -> Result<Self::Taking, SpillFail>;
    /// Entries of the bucket being taken (before deduplication).
    fn entries(taking: &Self::Taking) -> u64;
    /// The next wave of the bucket, after the waves before it; `None` when
    /// the bucket is done. A path count that does not fit `C` is
    /// [`SpillFail::Overflow`].
    fn next_wave(&mut self, taking: &mut Self::Taking) -> Result<Option<Wave<K, C>>, SpillFail>;
    /// Bytes the store holds in memory now.
    fn memory(&self) -> u64;
    /// Called after the successors of a wave are pushed: a store on disk
    /// writes its buffer out here when it holds more than its budget.
    fn relieve(&mut self) -> Result<(), SpillFail> {
        Ok(())
    }
    /// Called before a wave whose successors would not fit under the
    /// memory guard beside what the process holds: a store on disk
    /// writes its whole buffer out, so that the guard holds on a store
    /// on disk (in memory there is nothing to give back).
    fn make_room(&mut self) -> Result<(), SpillFail> {
        Ok(())
    }
    /// The checkpoint hook, called once every bucket below `tally.next` is
    /// done (the last when `done`): a store on disk records `tally` there,
    /// so that the same search resumes from it, and frees the bucket taken.
    fn checkpoint(
        &mut self,
        _taken: Self::Taking,
        _tally: &ForwardCounts,
        _done: bool,
    ) -> Result<(), SpillFail> {
        Ok(())
    }
    /// The run files of a store on disk, for the progress line.
    fn disk(&self) -> Option<DiskUse> {
        None
    }
}

/// A store whose keys can be re-typed as they are: a search on wide keys
/// goes on with `u64` keys once every bucket left fits them (see
/// `Search::count_narrowing`). Every key it holds must fit the new type;
/// the parts stay, since a part's key range depends on the bucket alone.
pub(crate) trait Rekey<C: Count> {
    /// The same store with keys of type `K2`.
    type With<K2: Key>: Store<K2, C>;
    /// Re-type the keys.
    fn rekey<K2: Key>(self) -> Self::With<K2>;
}
