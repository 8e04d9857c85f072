//! Output places checked before the work: a file or folder that a long
//! run writes (`game endgame --out`, `game solve --checkpoint`,
//! `solve --spill`) is tried at once, so that a missing folder, a path
//! through a file or a full disk is said in the first second, not after
//! twenty minutes of building with the work lost.
//!
//! The check writes a small file where the output goes, syncs it and
//! removes it; then it compares the disk's free bytes with what the run
//! reckons to write. Both can change later (another program fills the
//! disk): the run itself still says so, and claims a resume only where
//! one is kept.

use super::errors::CliError;
use mancala_sweep::sweep::exact::disk_free;
use mancala_sweep::sweep::format_bytes;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The bytes the probe writes: one block, which a disk with no room
/// refuses.
const PROBE_BYTES: usize = 4096;

/// Checks that `flag`'s file `path` can be written, with about `needs`
/// bytes free on its disk (0 when the run cannot tell). Its folder must
/// exist: a missing one, or a path through a file, is bad input.
pub fn file(flag: &str, path: &Path, needs: u64) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::Input(format!(
            "{flag} {}: a folder, not a file: give a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        let what = if folder.exists() {
            "is a file, not a folder"
        } else {
            "does not exist"
        };
        return Err(CliError::Input(format!(
            "{flag} {}: {} {what}: give a file in a folder that exists",
            path.display(),
            folder.display()
        )));
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    probe(&folder, &format!(".{name}.check"), needs).map_err(|p| p.for_flag(flag, path))
}

/// Checks that `flag`'s folder `dir` can be made (if missing) and written,
/// with about `needs` bytes free on its disk.
pub fn folder(flag: &str, dir: &Path, needs: u64) -> Result<(), CliError> {
    let made: Vec<&Path> = dir.ancestors().take_while(|d| !d.exists()).collect();
    folder_room(dir, needs).map_err(|p| {
        // A refused place is left as it was: the folders made to try it
        // go again (each empty; the deepest first).
        for d in &made {
            let _ = std::fs::remove_dir(d);
        }
        p.for_flag(flag, dir)
    })
}

/// Why a place cannot take a run's output.
pub enum Problem {
    /// It cannot be written at all (bad input when a flag named it).
    Unwritable(String),
    /// Its disk has no room (a failed run).
    Full(String),
}

impl Problem {
    /// The line after the place's name.
    pub fn text(&self) -> &str {
        match self {
            Problem::Unwritable(t) | Problem::Full(t) => t,
        }
    }

    /// The error of `flag` naming `place`, with what to do.
    fn for_flag(self, flag: &str, place: &Path) -> CliError {
        match self {
            Problem::Unwritable(t) => CliError::Input(format!(
                "{flag} {}: {t}: give a place that can be written",
                place.display()
            )),
            Problem::Full(t) => CliError::Failed(format!(
                "{flag} {}: {t}: free some room or give a place on another disk",
                place.display()
            )),
        }
    }
}

/// [`folder`] without a flag: the problem, for a place the run chose
/// itself (the cache folder), which it can do without.
pub fn folder_room(dir: &Path, needs: u64) -> Result<(), Problem> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Err(Problem::Unwritable(format!(
            "cannot make this folder ({})",
            plain_io(&e)
        )));
    }
    probe(dir, ".mancala-sweep.check", needs)
}

/// Writes, syncs and removes `folder/name`, then compares the free bytes
/// with `needs`.
fn probe(folder: &Path, name: &str, needs: u64) -> Result<(), Problem> {
    let at = folder.join(name);
    let written = std::fs::File::create(&at).and_then(|mut f| {
        f.write_all(&[0u8; PROBE_BYTES])?;
        f.sync_all()
    });
    let _ = std::fs::remove_file(&at);
    if let Err(e) = written {
        if mancala_sweep::format::file::is_disk_full(&e) {
            return Err(Problem::Full("the disk is full".into()));
        }
        return Err(Problem::Unwritable(format!(
            "cannot write there ({})",
            plain_io(&e)
        )));
    }
    match disk_free(folder) {
        Some(free) if free < needs => Err(Problem::Full(format!(
            "the disk has {} free and this run writes about {}",
            format_bytes(free),
            format_bytes(needs)
        ))),
        _ => Ok(()),
    }
}

/// An `io::Error` in a player's words: its kind, without "(os error N)".
pub fn plain_io(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_lowercase(),
        None => text,
    }
}
