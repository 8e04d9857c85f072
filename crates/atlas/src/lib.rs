//! The variant atlas: the best first turn for every board size and rule set
//! of a grid, proved by [`sweep::exact::solve`] where the budget allows and
//! found by [`sweep::beam::find`] (a lower bound) where it does not.
//!
//! An atlas lives in one directory: `atlas.json` (the cells, format
//! [`ATLAS_FORMAT`]), `atlas.md` (a table per rule set) and one SVG heat map
//! per rule set. Every file is written whole to a temporary name and renamed,
//! after every cell, so an interrupted run leaves complete files, and a new
//! run with the same directory skips the cells that are already there.

use base::clock::Instant;
use format::{write_atomic, FileError, Header, VERSION};
use rules::{Board, BoardError, Capture, Line, Rules, Scope};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use sweep::{find, FindOptions, Listing, SearchError, SweepOptions};
use thiserror::Error;

pub mod render;

#[cfg(feature = "svg")]
pub use render::heat_map;
pub use render::{cell_text, markdown};

/// `format` of `atlas.json`.
pub const ATLAS_FORMAT: &str = "mancala-sweep-atlas/1";

/// Every rule set of the atlas: scope own and any, relay on and off, and
/// the three capture rules. The presets are among them.
pub fn all_rule_sets() -> Vec<Rules> {
    let mut all = Vec::new();
    for scope in [Scope::Own, Scope::Any] {
        for relay in [true, false] {
            for capture in Capture::ALL {
                all.push(Rules {
                    scope,
                    relay,
                    capture,
                });
            }
        }
    }
    all
}

/// A short name for a rule set, used in file names and headings:
/// `own-relay-none`, `any-norelay-kalah`, ...
pub fn slug(rules: Rules) -> String {
    format!(
        "{}-{}-{}",
        rules.scope,
        if rules.relay { "relay" } else { "norelay" },
        rules.capture
    )
}

/// The grid of an atlas.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Pits a side, in order.
    pub pits: Vec<usize>,
    /// Stones a pit, in order.
    pub stones: Vec<u32>,
    /// Rule sets, in order.
    pub rule_sets: Vec<Rules>,
}

impl Grid {
    /// Every cell, rule set by rule set, then pits, then stones.
    pub fn cells(&self) -> Vec<(Rules, usize, u32)> {
        let mut out = Vec::new();
        for &r in &self.rule_sets {
            for &p in &self.pits {
                for &s in &self.stones {
                    out.push((r, p, s));
                }
            }
        }
        out
    }
}

/// One cell of the atlas.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Cell {
    /// The rule set.
    pub rules: Rules,
    /// Pits a side.
    pub pits: usize,
    /// Stones a pit at the start.
    pub stones: u32,
    /// Best final store: proved when `exact`, a lower bound otherwise.
    pub best_store: u32,
    /// Stones on the board.
    pub total_stones: u32,
    /// True when `best_store == total_stones`.
    pub sweep: bool,
    /// True when `solve` proved the cell; false when `find` gave a lower bound.
    pub exact: bool,
    /// `solve` or `find`.
    pub method: String,
    /// Optimal pick sequences (decimal string); null when not exact.
    pub optimal_count: Option<String>,
    /// Complete turns (decimal string); null when not exact.
    pub turns_total: Option<String>,
    /// Distinct pick positions; null when not exact.
    pub positions: Option<u64>,
    /// One best line (pit numbers): the first optimal one when exact.
    pub line: Line,
    /// Seconds the cell took (the failed exhaustive try included).
    pub seconds: f64,
    /// The run of [`Atlas::runs`] that made the cell (its index); null for
    /// cells made before runs were recorded.
    #[serde(default)]
    pub run: Option<usize>,
}

impl Cell {
    fn key(&self) -> (Rules, usize, u32) {
        (self.rules, self.pits, self.stones)
    }
}

/// `atlas.json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Atlas {
    /// `format` ([`ATLAS_FORMAT`]) and `version`, first in the document.
    #[serde(flatten)]
    pub header: Header,
    /// The runs that made the cells, oldest first: a resumed atlas may
    /// come from several, on several machines.
    #[serde(default)]
    pub runs: Vec<AtlasRun>,
    /// Cells, in grid order.
    pub cells: Vec<Cell>,
}

/// One run of `atlas`: what made some of the cells, so that a reader can
/// weigh the `seconds` and the `find` cells (whose lower bounds depend on
/// the budget).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AtlasRun {
    /// The command line, as typed.
    pub command: String,
    /// Tool version.
    pub version: String,
    /// The machine ([`sweep::kernel::machine`]).
    pub machine: String,
    /// Wall seconds for a cell's exhaustive try, and again for `find`.
    pub seconds: f64,
    /// Memory guard of the exhaustive try, bytes.
    pub max_memory: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Limits for one cell.
#[derive(Copy, Clone, Debug)]
pub struct CellBudget {
    /// Wall time for the exhaustive try, and again for `find`.
    pub seconds: f64,
    /// Memory guard of the exhaustive try.
    pub max_memory: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// Work out one cell: `solve` within the budget, else `find`. `stop` is the
/// user's Ctrl-C; when it is raised the cell is abandoned with
/// [`AtlasError::Interrupted`].
pub fn run_cell(
    rules: Rules,
    pits: usize,
    stones: u32,
    budget: CellBudget,
    stop: &AtomicBool,
) -> Result<Cell> {
    let board = Board::uniform(pits, stones)?;
    let total = board.stones_in_play();
    let started = Instant::now();
    let base = Cell {
        rules,
        pits,
        stones,
        best_store: board.store() as u32,
        total_stones: total,
        sweep: total == 0,
        exact: true,
        method: "solve".into(),
        optimal_count: Some("1".into()),
        turns_total: Some("1".into()),
        positions: Some(1),
        line: Line::default(),
        seconds: 0.0,
        run: None,
    };
    if !board.can_move(rules) {
        // No stones to pick (0 stones a pit): the turn is over at once.
        return Ok(Cell {
            seconds: started.elapsed().as_secs_f64(),
            ..base
        });
    }
    // The exhaustive try, cancelled by the budget or by Ctrl-C.
    let opts = SweepOptions {
        threads: budget.threads,
        listing: Listing::Limit(1),
        max_memory: budget.max_memory,
        seconds: Some(budget.seconds),
        cancel: Some(stop),
        ..Default::default()
    };
    let solved = sweep::solve(&board, rules, &opts);
    match solved {
        Ok(s) => Ok(Cell {
            best_store: s.best_store,
            sweep: s.sweep(),
            optimal_count: Some(s.optimal_count.to_string()),
            turns_total: Some(s.turns_total.to_string()),
            positions: Some(s.positions),
            line: s.optimal[0].clone(),
            seconds: started.elapsed().as_secs_f64(),
            ..base
        }),
        Err(e @ (SearchError::Stopped { .. } | SearchError::MemoryLimit { .. }))
            if !e.is_cancelled() =>
        {
            let opts = FindOptions {
                seconds: budget.seconds,
                threads: budget.threads,
                cancel: Some(stop),
                ..Default::default()
            };
            let f = find(&board, rules, &opts)?;
            if f.interrupted {
                return Err(AtlasError::Interrupted);
            }
            Ok(Cell {
                best_store: f.best_store,
                sweep: f.sweep(),
                exact: false,
                method: "find".into(),
                optimal_count: None,
                turns_total: None,
                positions: None,
                line: f.line,
                seconds: started.elapsed().as_secs_f64(),
                ..base
            })
        }
        Err(e) if e.is_cancelled() => Err(AtlasError::Interrupted),
        Err(e) => Err(e.into()),
    }
}

/// Read `atlas.json` from `dir` if there is one; an unreadable or foreign
/// file is an error naming it (the run would otherwise overwrite it).
pub fn load(dir: &Path) -> Result<Option<Atlas>> {
    let path = dir.join("atlas.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(AtlasError::Unreadable { path, source }),
    };
    let foreign = |reason: String| {
        AtlasError::Occupied(FileError::Foreign {
            path: path.clone(),
            reason,
        })
    };
    format::parse_versioned(&text, ATLAS_FORMAT, "an atlas")
        .map(Some)
        .map_err(|e| foreign(e.to_string()))
}

/// Results of this module.
pub type Result<T, E = AtlasError> = std::result::Result<T, E>;

/// What making an atlas can fail with.
#[derive(Debug, Error)]
pub enum AtlasError {
    /// A cell's board cannot exist.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The search refused or failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// An output file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// `atlas.json` in the output directory is not an atlas: it is not
    /// overwritten.
    #[error(transparent)]
    Occupied(FileError),
    /// `atlas.json` exists but cannot be read.
    #[error("{}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The output directory cannot be created.
    #[error("{}: cannot create the directory ({source})", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The cancel flag stopped the run; the finished cells are saved.
    #[error("interrupted: the atlas is incomplete; the cells finished so far are saved, and running the same command again resumes")]
    Interrupted,
}

/// Keep the cells of `old` that are in the grid, in grid order with `new`
/// cells merged in.
pub fn merge(grid: &Grid, cells: &[Cell]) -> Vec<Cell> {
    grid.cells()
        .into_iter()
        .filter_map(|k| cells.iter().find(|c| c.key() == k).cloned())
        .collect()
}

/// Write every output file of the atlas into `dir`.
pub fn write_all(dir: &Path, grid: &Grid, runs: &[AtlasRun], cells: &[Cell]) -> Result<()> {
    let atlas = Atlas {
        header: Header::new(ATLAS_FORMAT),
        runs: runs.to_vec(),
        cells: cells.to_vec(),
    };
    let json = serde_json::to_string_pretty(&atlas).expect("serializable") + "\n";
    write_atomic(&dir.join("atlas.json"), json.as_bytes())?;
    write_atomic(
        &dir.join("atlas.md"),
        markdown(grid, runs, cells).as_bytes(),
    )?;
    // Without the heat maps' feature (the browser's engine, which writes
    // no atlas) the JSON and the tables are the whole atlas.
    #[cfg(feature = "svg")]
    for &r in &grid.rule_sets {
        let svg = heat_map(grid, cells, r);
        write_atomic(&dir.join(format!("{}.svg", slug(r))), svg.as_bytes())?;
    }
    Ok(())
}

/// Work out every cell of `grid` that `dir` does not hold yet, saving all
/// files after each cell. `on_cell(done, total, cell)` is called after each.
/// Returns the cells and how many came from an earlier run.
pub fn run(
    grid: &Grid,
    dir: &Path,
    budget: CellBudget,
    command: &str,
    stop: &AtomicBool,
    on_cell: &dyn Fn(usize, usize, &Cell),
) -> Result<(Vec<Cell>, usize)> {
    std::fs::create_dir_all(dir).map_err(|source| AtlasError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    let (mut runs, earlier) = load(dir)?.map(|a| (a.runs, a.cells)).unwrap_or_default();
    let mut cells = merge(grid, &earlier);
    let skipped = cells.len();
    let wanted = grid.cells();
    let this_run = AtlasRun {
        command: command.to_string(),
        version: VERSION.into(),
        machine: sweep::kernel::machine(),
        seconds: budget.seconds,
        max_memory: budget.max_memory,
        threads: budget.threads,
    };
    // Write at once, so that an unwritable directory fails before any work.
    write_all(dir, grid, &runs, &cells)?;
    for (rules, pits, stones) in wanted.iter().copied() {
        if cells.iter().any(|c| c.key() == (rules, pits, stones)) {
            continue;
        }
        let mut cell = run_cell(rules, pits, stones, budget, stop)?;
        if runs.last() != Some(&this_run) {
            runs.push(this_run.clone());
        }
        cell.run = Some(runs.len() - 1);
        cells.push(cell.clone());
        cells = merge(grid, &cells);
        write_all(dir, grid, &runs, &cells)?;
        on_cell(cells.len(), wanted.len(), &cell);
    }
    Ok((cells, skipped))
}

/// Read a range of whole numbers: `3`, `1-8` or `1..=8`, within `allowed`.
pub fn parse_range(
    text: &str,
    allowed: std::ops::RangeInclusive<u32>,
) -> std::result::Result<Vec<u32>, String> {
    let bad = || {
        format!(
            "{text:?} is not a range: use N, A-B or A..=B with numbers from {} to {}",
            allowed.start(),
            allowed.end()
        )
    };
    let (a, b) = if let Some((a, b)) = text.split_once("..=") {
        (a, b)
    } else if let Some((a, b)) = text.split_once('-') {
        (a, b)
    } else {
        (text, text)
    };
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b || !allowed.contains(&a) || !allowed.contains(&b) {
        return Err(bad());
    }
    Ok((a..=b).collect())
}

/// The text of a run's summary line.
pub fn summary(cells: &[Cell], wanted: usize, skipped: usize) -> String {
    let exact = cells.iter().filter(|c| c.exact).count();
    let sweeps = cells.iter().filter(|c| c.sweep).count();
    format!(
        "{} of {wanted} cells done ({skipped} from an earlier run): {exact} proved, {} lower bounds, {sweeps} sweeps",
        cells.len(),
        cells.len() - exact
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        Grid {
            pits: vec![1, 2],
            stones: vec![1, 2],
            rule_sets: vec![Rules::AVALANCHE, Rules::KALAH],
        }
    }

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("1..=3", 1..=8), Ok(vec![1, 2, 3]));
        assert_eq!(parse_range("2-4", 1..=8), Ok(vec![2, 3, 4]));
        assert_eq!(parse_range("5", 1..=8), Ok(vec![5]));
        assert!(parse_range("0..=3", 1..=8)
            .unwrap_err()
            .contains("from 1 to 8"));
        assert!(parse_range("4-2", 1..=8).is_err());
        assert!(parse_range("x", 1..=8).is_err());
    }

    #[test]
    fn the_grid_lists_every_cell_once_in_order() {
        let cells = grid().cells();
        assert_eq!(cells.len(), 8);
        assert_eq!(cells[0], (Rules::AVALANCHE, 1, 1));
        assert_eq!(cells[1], (Rules::AVALANCHE, 1, 2));
        assert_eq!(cells[7], (Rules::KALAH, 2, 2));
        assert_eq!(all_rule_sets().len(), 12);
        assert!(all_rule_sets().contains(&Rules::ANY_HOLE));
        assert_eq!(slug(Rules::KALAH), "own-norelay-kalah");
    }

    #[test]
    fn resume_keeps_done_cells_and_writes_complete_files() {
        let dir = std::env::temp_dir().join(format!("ms-atlas-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let g = grid();
        assert_eq!(load(&dir).unwrap(), None);
        let stop = AtomicBool::new(false);
        let budget = CellBudget {
            seconds: 10.0,
            max_memory: u64::MAX,
            threads: 1,
        };
        let first: Vec<Cell> = g.cells()[..3]
            .iter()
            .map(|&(r, p, s)| run_cell(r, p, s, budget, &stop).unwrap())
            .collect();
        write_all(&dir, &g, &[], &first).unwrap();
        let back = load(&dir).unwrap().unwrap();
        assert_eq!(back.cells, first);
        // A cell from outside the grid is dropped by merge; order follows the grid.
        let mut mixed = back.cells.clone();
        mixed.reverse();
        assert_eq!(merge(&g, &mixed), first);
        assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")));
        let md = std::fs::read_to_string(dir.join("atlas.md")).unwrap();
        assert!(
            md.contains("## Avalanche (GamePigeon's avalanche mode)"),
            "{md}"
        );
        assert!(
            md.contains("(`own-relay-none`: scope=own relay=on capture=none)"),
            "{md}"
        );
        assert!(md.contains("| 2 | . | . |"), "{md}");
        std::fs::write(dir.join("atlas.json"), "{\"format\": \"other/9\"}").unwrap();
        assert!(load(&dir).unwrap_err().to_string().contains("is not"));
        std::fs::write(dir.join("atlas.json"), "{\"format\": ").unwrap();
        assert!(load(&dir)
            .unwrap_err()
            .to_string()
            .contains("not valid JSON"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
