//! Files written whole: to a temporary name beside the target, synced, then
//! renamed over it. A reader, or a run stopped part-way (Ctrl-C, a full
//! disk), sees the old file or the new one, never half of one. It sits
//! below every layer so that the search's checkpoints, the game's endgame
//! files and the JSON documents share one way of doing it, each mapping
//! the `io::Error` to its own layer's error.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary name `path` is written under: its name with `.tmp` added
/// (`atlas.json` → `atlas.json.tmp`), so that a leftover is easy to spot
/// and to clean up.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Write `path` whole with what `fill` writes (through a 1 MiB buffer).
/// Nothing is left behind when `fill` or the system fails: the temporary
/// file is removed and `path` is as it was.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let tmp = tmp_path(path);
    let written = std::fs::File::create(&tmp).and_then(|file| {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        fill(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// True when `e` says the disk or the quota is full: a failed run, not bad
/// input. Here, below every layer that writes files (the game layer's
/// endgame database and the formats alike), so that each can tell it.
pub fn is_disk_full(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("ms-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        write_with(&path, |w| w.write_all(b"old")).unwrap();
        let failed = write_with(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert!(!tmp_path(&path).exists());
        assert_eq!(tmp_path(&path), dir.join("a.json.tmp"));
        write_with(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
