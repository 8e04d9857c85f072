//! A whole-game solve that outlives its process (`game solve --checkpoint
//! FILE`): Kalah(6,5) and GamePigeon's avalanche with 5 stones a pit take
//! longer than a sitting, and a stopped solve's work is its table.
//!
//! Every bound in the table is proven (a search stopped part-way stores
//! nothing from the node it was in), and so are the bounds of the MTD(f)
//! passes that finished. So the checkpoint is those bounds and the table's
//! entries as they are, with the endgame database filled on demand so far;
//! read back into a solver of the same layout, MTD(f) goes on inside the
//! bounds and the table spares the work done. The search stops by itself
//! every [`Keep::every`] to write the file (whole: a temporary file renamed
//! over it, so a kill leaves the last one), and when stopped; the file is
//! removed once the value is proved.

use super::{GameSolveResult, Solver};
use crate::error::GameError;
use crate::error::{CheckpointError, GameFileError};
use crate::state::GameState;
use crate::state::Side;
use base::clock::Instant;
use base::header::Header;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use crate::files::CHECKPOINT_FORMAT;

/// Where and how often a solve keeps its work
/// ([`SolverBuilder::solve_kept`](super::SolverBuilder::solve_kept)).
#[derive(Clone, Copy, Debug)]
pub struct Keep<'a> {
    /// The file: read first when it is there (the solve goes on from it),
    /// written every [`Keep::every`] and when the solve is stopped, and
    /// removed once the value is proved.
    pub path: &'a Path,
    /// How long the search runs between writes. Each write takes about as
    /// long as the disk needs for the table (seconds for gigabytes), and
    /// the search then starts its pass again from the top, through the
    /// table: minutes apart, both cost little.
    pub every: Duration,
}

/// What a kept solve tells its caller as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum KeepEvent {
    /// The file was read: the solve goes on from these bounds (the mover's
    /// final store minus the opponent's, as [`GameSolveResult`] gives
    /// them), after these picks and seconds of earlier runs.
    Resumed {
        /// The value is at least this.
        lower: i32,
        /// The value is at most this.
        upper: i32,
        /// Picks searched by the runs before.
        nodes: u64,
        /// Wall time of the runs before.
        seconds: f64,
    },
    /// The file is being written: this many bytes.
    Saving {
        /// Bytes of the file.
        bytes: u64,
    },
    /// The file was written with these bounds.
    Saved {
        /// The value is at least this.
        lower: i32,
        /// The value is at most this.
        upper: i32,
    },
}

/// The first line of a checkpoint file. Unknown keys are refused, so that
/// the first line of some other JSON document is not taken for one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointHeader {
    /// [`CHECKPOINT_FORMAT`] and the tool's version.
    #[serde(flatten)]
    header: Header,
    /// What the work is of: rules, position, table layout and endgame
    /// database ([`Solver::identity`]); only the same search resumes it.
    search: String,
    /// The value is at least this (with the stores, as results give it).
    lower: i32,
    /// The value is at most this.
    upper: i32,
    /// Picks searched so far, over every run.
    nodes: u64,
    /// Picks searched towards the value so far (see
    /// [`GameSolveResult::value_nodes`]).
    value_nodes: u64,
    /// Positions expanded so far.
    expanded: u64,
    /// Wall time so far, over every run (their writes included).
    seconds: f64,
    /// Bytes of table entries after the first line.
    table_bytes: u64,
    /// Bytes of endgame values after the table's.
    endgame_bytes: u64,
}

/// The work of [`SolverBuilder::solve_kept`](super::SolverBuilder::solve_kept)
/// on its freshly built `solver`.
pub(super) fn solve_kept(
    mut solver: Solver,
    t0: Instant,
    state: &GameState,
    cancel: &AtomicBool,
    keep: Keep,
    heard: &mut dyn FnMut(KeepEvent),
) -> Result<GameSolveResult, GameError> {
    // A write cut short by a kill leaves its temporary file (the file
    // itself is the last whole one): it is this file's, by its name.
    let _ = std::fs::remove_file(base::atomic_file::tmp_path(keep.path));
    let (base, s) = (state.mover_minus_opponent(), state.stones_in_pits() as i32);
    let mut so_far = CheckpointHeader {
        header: Header::new(CHECKPOINT_FORMAT),
        search: solver.identity(state),
        lower: base - s,
        upper: base + s,
        nodes: 0,
        value_nodes: 0,
        expanded: 0,
        seconds: 0.0,
        table_bytes: solver.table.file_bytes(),
        endgame_bytes: solver.endgame_file_bytes(),
    };
    let earlier = if keep.path.exists() {
        let h = solver.resume(keep.path, &so_far)?;
        heard(KeepEvent::Resumed {
            lower: h.lower,
            upper: h.upper,
            nodes: h.nodes,
            seconds: h.seconds,
        });
        so_far = h;
        so_far.seconds
    } else {
        0.0
    };
    let mut passes = 0;
    loop {
        if let Some(w) = &solver.watch {
            w.carry(so_far.nodes, passes);
        }
        solver.set_pause(Instant::now() + keep.every);
        let mut r = solver.solve_from(state, Some((so_far.lower, so_far.upper)), None, cancel);
        passes = solver.watch.as_ref().map_or(0, |w| w.read().passes);
        so_far.nodes += r.nodes;
        so_far.value_nodes += r.value_nodes;
        so_far.expanded += r.expanded;
        so_far.lower = so_far.lower.max(r.lower);
        so_far.upper = so_far.upper.min(r.upper);
        so_far.seconds = earlier + t0.elapsed().as_secs_f64();
        if !r.exact {
            heard(KeepEvent::Saving {
                bytes: so_far.table_bytes + so_far.endgame_bytes,
            });
            solver.keep(keep.path, &so_far)?;
            heard(KeepEvent::Saved {
                lower: so_far.lower,
                upper: so_far.upper,
            });
        } else {
            match std::fs::remove_file(keep.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(
                        CheckpointError::from(GameFileError::new(keep.path, "remove", e)).into(),
                    );
                }
                _ => {}
            }
        }
        if r.exact || cancel.load(Ordering::Relaxed) {
            r.lower = so_far.lower;
            r.upper = so_far.upper;
            r.nodes = so_far.nodes;
            r.value_nodes = so_far.value_nodes;
            r.expanded = so_far.expanded;
            r.elapsed = Duration::from_secs_f64(earlier + t0.elapsed().as_secs_f64());
            if !r.exact {
                r.value = (r.lower + r.upper).div_euclid(2);
            }
            return Ok(r);
        }
    }
}

impl Solver {
    /// What a checkpoint of this solver's work on `state` is the work of:
    /// the rules, the position and its mover, the table's layout and the
    /// endgame database.
    fn identity(&self, state: &GameState) -> String {
        let endgame = match (&self.endgame, self.endgame_whole) {
            (None, _) => "no endgame database".to_string(),
            (Some(db), true) => format!(
                "an endgame database of {} stones read whole",
                db.ranks.max_stones
            ),
            (Some(db), false) => format!(
                "an endgame database of {} stones filled on demand",
                db.ranks.max_stones
            ),
        };
        format!(
            "rules {}; board {} with {} to move; {}; {}",
            self.rules,
            state.board().one_line(),
            match state.mover() {
                Side::First => "the first player",
                Side::Second => "the second player",
            },
            self.table.layout_name(),
            endgame
        )
    }

    /// Bytes of the endgame database a checkpoint keeps: the one filled on
    /// demand (a database read whole is read again from its file).
    fn endgame_file_bytes(&self) -> u64 {
        match (&self.endgame, self.endgame_whole) {
            (Some(db), false) => db.values.len() as u64,
            _ => 0,
        }
    }

    /// Writes `header` and the work to `path` whole.
    fn keep(&self, path: &Path, header: &CheckpointHeader) -> Result<(), GameError> {
        base::atomic_file::write_with(path, |w| {
            w.write_all(serde_json::to_string(header).expect("json").as_bytes())?;
            w.write_all(b"\n")?;
            self.table.write_to(w)?;
            if let (Some(db), false) = (&self.endgame, self.endgame_whole) {
                db.write_values(db.values.len(), w)?;
            }
            Ok(())
        })
        .map_err(|e| CheckpointError::from(GameFileError::new(path, "write", e)).into())
    }

    /// Reads the checkpoint in `path` into this solver, checked against
    /// `fresh` (this search's header before any work): the same search,
    /// and a file as long as its header says. Returns the file's header.
    fn resume(
        &mut self,
        path: &Path,
        fresh: &CheckpointHeader,
    ) -> Result<CheckpointHeader, GameError> {
        let read_err =
            |e: std::io::Error| CheckpointError::from(GameFileError::new(path, "read", e));
        let file = std::fs::File::open(path).map_err(read_err)?;
        let len = file.metadata().map_err(read_err)?.len();
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        let mut line = Vec::new();
        (&mut r)
            .take(64 << 10)
            .read_until(b'\n', &mut line)
            .map_err(read_err)?;
        let h: CheckpointHeader = std::str::from_utf8(&line)
            .ok()
            .and_then(|l| serde_json::from_str(l.trim_end()).ok())
            .ok_or_else(|| CheckpointError::NotACheckpoint {
                path: path.to_path_buf(),
            })?;
        if h.header.format != CHECKPOINT_FORMAT {
            return Err(CheckpointError::Format {
                path: path.to_path_buf(),
                format: h.header.format,
            }
            .into());
        }
        if h.search != fresh.search
            || h.table_bytes != fresh.table_bytes
            || h.endgame_bytes != fresh.endgame_bytes
        {
            return Err(CheckpointError::Foreign {
                path: path.to_path_buf(),
                made_for: h.search,
                asked: fresh.search.clone(),
            }
            .into());
        }
        if h.lower > h.upper {
            return Err(CheckpointError::Bounds {
                path: path.to_path_buf(),
                lower: h.lower,
                upper: h.upper,
            }
            .into());
        }
        let expected = line.len() as u64 + h.table_bytes + h.endgame_bytes;
        if len != expected {
            return Err(CheckpointError::Length {
                path: path.to_path_buf(),
                len,
                expected,
            }
            .into());
        }
        self.table.read_from(&mut r).map_err(read_err)?;
        if let (Some(db), false) = (&self.endgame, self.endgame_whole) {
            db.read_values(&mut r).map_err(read_err)?;
        }
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::SolveOptions;
    use rules::{Capture, Rules};

    /// A fresh file name in the temporary folder for test `name`.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ms-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    fn options(state: &GameState, threads: u32) -> SolveOptions {
        // A small table: a test writes it many times.
        SolveOptions {
            threads,
            table_bytes: 1 << 20,
            ..SolveOptions::default()
        }
        .fit_to(state.rules(), state.pits_per_side(), state.stones_in_pits())
    }

    /// Runs [`SolverBuilder::solve_kept`](crate::solve::SolverBuilder::solve_kept)
    /// writing every `every` until it has written
    /// `stop_after` times (then stops it as Ctrl-C would), or to the end.
    fn kept(
        state: &GameState,
        opts: &SolveOptions,
        path: &Path,
        every: Duration,
        stop_after: Option<usize>,
    ) -> (Result<GameSolveResult, GameError>, Vec<KeepEvent>) {
        let cancel = AtomicBool::new(false);
        let mut events = Vec::new();
        let mut saved = 0;
        let mut heard = |e: KeepEvent| {
            if matches!(e, KeepEvent::Saved { .. }) {
                saved += 1;
                if Some(saved) == stop_after {
                    cancel.store(true, Ordering::Relaxed);
                }
            }
            events.push(e);
        };
        let keep = Keep { path, every };
        let r = Solver::builder()
            .options(opts.clone())
            .cancel(&cancel)
            .solve_kept(state, keep, &mut heard);
        (r, events)
    }

    /// A solve stopped after its first write, then resumed by a new
    /// solver that stops to write after every few thousand picks, ends with
    /// the value, best turn and line of one solve that was never stopped;
    /// every bound it says on the way holds the value. Both table layouts
    /// (scope any keys the wide one), with and without the endgame
    /// database, one and two threads.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "slow: about 4 s on 2 cores; cargo test --release runs it"
    )]
    fn a_solve_stopped_and_resumed_from_its_file_ends_as_one_never_stopped() {
        let games = [
            (Rules::KALAH, 4, 4, 1),
            (Rules::KALAH, 5, 3, 2),
            (Rules::AVALANCHE, 5, 3, 1),
            (
                Rules {
                    capture: Capture::Empty,
                    ..Rules::KALAH
                },
                5,
                3,
                1,
            ),
            (Rules::ANY_HOLE, 5, 1, 1),
        ];
        for (i, (rules, n, stones, threads)) in games.into_iter().enumerate() {
            let state = GameState::start(n, stones, rules).unwrap();
            let opts = options(&state, threads);
            let whole = Solver::builder()
                .options(opts.clone())
                .solve(&state)
                .unwrap();
            assert!(whole.exact);
            let path = scratch(&format!("resume-{i}"));
            let (first, events) = kept(&state, &opts, &path, Duration::ZERO, Some(1));
            let first = first.unwrap();
            let what = format!("{rules} {n}x{stones}: {events:?}");
            if first.exact {
                // Too small to be stopped: nothing was kept.
                assert!(!path.exists(), "{what}");
                assert_eq!(first.value, whole.value, "{what}");
                continue;
            }
            assert!(path.exists(), "{what}");
            assert!(
                first.lower <= whole.value && whole.value <= first.upper,
                "{what}"
            );
            // What a kill in the middle of a write leaves beside it.
            let tmp = base::atomic_file::tmp_path(&path);
            std::fs::write(&tmp, b"half a checkpoint").unwrap();
            let (last, events) = kept(&state, &opts, &path, Duration::from_millis(1), None);
            let last = last.unwrap();
            let what = format!("{rules} {n}x{stones}: {events:?}");
            assert!(
                matches!(events[0], KeepEvent::Resumed { lower, upper, .. }
                    if (lower, upper) == (first.lower, first.upper)),
                "{what}"
            );
            for e in &events {
                if let KeepEvent::Saved { lower, upper } = e {
                    assert!(*lower <= whole.value && whole.value <= *upper, "{what}");
                }
            }
            assert!(last.exact, "{what}");
            assert_eq!(
                (last.value, &last.best_turn, &last.pv),
                (whole.value, &whole.best_turn, &whole.pv),
                "{what}"
            );
            assert!(last.nodes > first.nodes, "{what}");
            assert!(
                !path.exists(),
                "the file is removed once the value is proved: {what}"
            );
            assert!(
                !tmp.exists(),
                "a temporary file left by a kill is removed: {what}"
            );
        }
    }

    /// A file is read back only by the search that wrote it, and only
    /// whole.
    #[test]
    fn a_checkpoint_of_another_search_or_a_damaged_one_is_refused() {
        let state = GameState::start(4, 4, Rules::KALAH).unwrap();
        let opts = options(&state, 1);
        let path = scratch("refused");
        let (r, _) = kept(&state, &opts, &path, Duration::ZERO, Some(1));
        assert!(!r.unwrap().exact && path.exists());
        let resume = |state: &GameState, opts: &SolveOptions| {
            kept(state, opts, &path, Duration::from_secs(60), Some(1)).0
        };
        let foreign = |r: Result<GameSolveResult, GameError>| {
            matches!(
                r,
                Err(GameError::Checkpoint(CheckpointError::Foreign { .. }))
            )
        };
        // Other rules, another position, another table.
        let avalanche = GameState::start(4, 4, Rules::AVALANCHE).unwrap();
        assert!(foreign(resume(&avalanche, &opts)));
        let mut later = state;
        later.play_pick(2).unwrap();
        assert!(foreign(resume(&later, &opts)));
        let mut bigger = opts.clone();
        bigger.table_bytes *= 2;
        assert!(foreign(resume(&state, &bigger)));
        // Cut short, longer, crossed bounds, not a checkpoint at all.
        let bytes = std::fs::read(&path).unwrap();
        let damaged = |content: &[u8]| {
            std::fs::write(&path, content).unwrap();
            resume(&state, &opts).unwrap_err()
        };
        let cut = damaged(&bytes[..bytes.len() - 1]);
        assert!(
            matches!(cut, GameError::Checkpoint(CheckpointError::Length { .. })),
            "{cut}"
        );
        let mut longer = bytes.clone();
        longer.push(0);
        let long = damaged(&longer);
        assert!(
            matches!(long, GameError::Checkpoint(CheckpointError::Length { .. })),
            "{long}"
        );
        let text =
            String::from_utf8_lossy(&bytes[..bytes.iter().position(|&b| b == b'\n').unwrap()])
                .to_string();
        let h: CheckpointHeader = serde_json::from_str(&text).unwrap();
        let crossed = CheckpointHeader {
            lower: h.upper + 1,
            ..h.clone()
        };
        let mut with = serde_json::to_vec(&crossed).unwrap();
        with.extend_from_slice(&bytes[text.len()..]);
        let cross = damaged(&with);
        assert!(
            matches!(cross, GameError::Checkpoint(CheckpointError::Bounds { .. })),
            "{cross}"
        );
        let other = damaged(b"{\"format\":\"mancala-sweep-game-solve/1\"}\n");
        assert!(
            matches!(
                other,
                GameError::Checkpoint(CheckpointError::NotACheckpoint { .. })
            ),
            "{other}"
        );
        let newer = CheckpointHeader {
            header: Header::new("mancala-sweep-game-checkpoint/2"),
            ..h
        };
        let mut with = serde_json::to_vec(&newer).unwrap();
        with.extend_from_slice(&bytes[text.len()..]);
        let format = damaged(&with);
        assert!(
            matches!(
                format,
                GameError::Checkpoint(CheckpointError::Format { .. })
            ),
            "{format}"
        );
        // Each message names the file.
        for e in [cut, long, cross, other, format] {
            assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        }
        std::fs::remove_file(&path).unwrap();
    }
}
