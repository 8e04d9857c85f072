//! Files the tool reads and writes: one error type that keeps the path and
//! the `io::Error`, and one way to write a file whole.

use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A file or directory that could not be read or written, or that holds
/// something other than what was expected.
#[derive(Debug, Error)]
pub enum FileError {
    /// Reading failed.
    #[error("{}: cannot read it ({source})", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// Writing failed (nothing was left half-written).
    #[error("{}: cannot write it ({source})", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The file holds something else: not JSON, another format, or a
    /// collection for other rules. Output paths that hold such a file are
    /// refused rather than overwritten.
    #[error("{}: {reason}", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it holds instead.
        reason: String,
    },
}

impl FileError {
    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Read { path, .. }
            | FileError::Write { path, .. }
            | FileError::Foreign { path, .. } => path,
        }
    }

    /// True when the disk (or the user's quota) was full: the run failed,
    /// not its input, so the same command works once space is freed
    /// (exit status 1, as for a spilled solve's full disk, not the 2 of
    /// bad input). Found by `benches/faults.py`.
    pub fn is_disk_full(&self) -> bool {
        match self {
            FileError::Read { source, .. } | FileError::Write { source, .. } => {
                is_disk_full(source)
            }
            FileError::Foreign { .. } => false,
        }
    }
}

pub use base::atomic_file::is_disk_full;

/// Write `bytes` to `path` whole: to a temporary file beside it, synced,
/// then renamed, so that a reader (or a run that is stopped) never sees
/// half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    base::atomic_file::write_with(path, |w| w.write_all(bytes)).map_err(|source| FileError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Read a file to a string.
pub fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.to_path_buf(),
        source,
    })
}
