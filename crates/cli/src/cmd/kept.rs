//! Kept games: the folder `game play` and `game analyze --follow` write
//! each game into as it goes, whole after every turn (a closed terminal or
//! a crash loses nothing), and where `game review last` and `--follow
//! --resume` find the last one.
//!
//! The folder is `$MANCALA_SWEEP_GAMES`, else `games/` in the cache folder
//! of the endgame databases (`$MANCALA_SWEEP_CACHE`, else
//! `$XDG_CACHE_HOME/mancala-sweep`, else `~/.cache/mancala-sweep`). A game's
//! file is named by the moment it began, `YYYY-MM-DDTHH-MM-SSZ-SOURCE-PID.json`
//! (UTC), so that the names sort in the order the games began.

use crate::errors::CliError;
use mancala_sweep::format::record::{GameRecordJson, Players, Said, TurnRecord};
use mancala_sweep::format::{parse_versioned, write_atomic, GAME_RECORD_FORMAT};
use mancala_sweep::game::{GameError, GameState, PickOutcome};
use mancala_sweep::rules::Pit;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The environment variable that names the folder of kept games.
pub const GAMES_VAR: &str = "MANCALA_SWEEP_GAMES";

/// The folder of kept games; none when no folder can be named (no
/// `$HOME`).
pub fn games_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(GAMES_VAR) {
        return Some(PathBuf::from(dir));
    }
    Some(super::cache::cache_dir()?.join("games"))
}

/// A game being kept: its file and the record written there.
pub struct Kept {
    /// The file (none when no folder could be named: the game is not kept).
    pub path: Option<PathBuf>,
    /// The game so far.
    pub record: GameRecordJson,
    /// Said once: a game that cannot be written goes on unkept.
    failed: bool,
}

impl Kept {
    /// Keep `record` in a new file of the games folder (named by now and
    /// `source`).
    pub fn new(record: GameRecordJson) -> Kept {
        let path = games_dir().map(|d| d.join(file_name(&record.source)));
        Kept {
            path,
            record,
            failed: false,
        }
    }

    /// Go on keeping `record` in `path` (a resumed game).
    pub fn at(path: PathBuf, record: GameRecordJson) -> Kept {
        Kept {
            path: Some(path),
            record,
            failed: false,
        }
    }

    /// Write the record whole; a failure is said once on stderr and the
    /// game goes on.
    pub fn save(&mut self) {
        let Some(path) = &self.path else { return };
        if self.failed {
            return;
        }
        let made = path.parent().map_or(Ok(()), std::fs::create_dir_all);
        let written = made.map_err(|e| e.to_string()).and_then(|()| {
            write_atomic(path, self.record.to_line().as_bytes()).map_err(|e| e.to_string())
        });
        if let Err(e) = written {
            self.failed = true;
            eprintln!(
                "the game cannot be kept in {} ({e}); it goes on unkept",
                path.display()
            );
        }
    }
}

/// What the companion's analysis proved at one position: the position's
/// value and each turn's, by the position after it (values for the mover).
#[derive(Default, Clone)]
struct Proved {
    best: Option<i32>,
    turns: HashMap<GameState, i32>,
}

/// A game kept pick by pick as it is played: each pick with the position
/// before it, so that a take-back is a cut of the list, and the file is
/// written whole (whole turns only) after every turn.
pub struct Recorder {
    kept: Kept,
    start: GameState,
    log: Vec<(GameState, Pit)>,
    proved: HashMap<GameState, Proved>,
    /// Turns in the file as last written.
    written: Option<Vec<TurnRecord>>,
    /// The turns of a resumed game as read, whose `said` this run's
    /// analyses did not see.
    resumed: Vec<TurnRecord>,
}

impl Recorder {
    /// A new game from `start` between `players`, kept by `source` in a
    /// new file (written once its first turn is played).
    pub fn new(start: &GameState, players: Players, source: &str) -> Recorder {
        Recorder {
            kept: Kept::new(GameRecordJson::new(start, players, source)),
            start: *start,
            log: vec![],
            proved: HashMap::new(),
            written: None,
            resumed: vec![],
        }
    }

    /// Go on with the game kept in `path`: the recorder and the position
    /// its turns lead to.
    pub fn resume(
        path: PathBuf,
        record: GameRecordJson,
    ) -> Result<(Recorder, GameState), CliError> {
        let bad = |e: GameError| CliError::Input(format!("--resume {}: {e}", path.display()));
        let start = record.start_state().map_err(bad)?;
        let turns = record.picks().map_err(bad)?;
        let mut r = Recorder {
            start,
            log: vec![],
            proved: HashMap::new(),
            written: Some(record.turns.clone()),
            resumed: record.turns.clone(),
            kept: Kept::at(path.clone(), record),
        };
        let mut s = start;
        for t in &turns {
            for p in t {
                r.log.push((s, *p));
                s.play_pick(u32::from(p.number())).map_err(bad)?;
            }
        }
        Ok((r, s))
    }

    /// The file, once named.
    pub fn path(&self) -> Option<&Path> {
        self.kept.path.as_deref()
    }

    /// Pick `pit` (the mover's numbering) was played at `before`.
    pub fn pick(&mut self, before: &GameState, pit: Pit) {
        self.log.push((*before, pit));
    }

    /// The game went back to `state` (a take-back): the picks from there
    /// on are dropped. False when `state` is not a position of this game.
    pub fn back_to(&mut self, state: &GameState) -> bool {
        if let Some(i) = self.log.iter().rposition(|(b, _)| b == state) {
            self.log.truncate(i);
            true
        } else if *state == self.start {
            self.log.clear();
            true
        } else {
            false
        }
    }

    /// What an analysis of `at` proved: the position's value when
    /// `best`, and the values of the turns in `turns` (by the position
    /// after each).
    pub fn proved(&mut self, at: &GameState, best: Option<i32>, turns: Vec<(GameState, i32)>) {
        self.proved.insert(
            *at,
            Proved {
                best,
                turns: turns.into_iter().collect(),
            },
        );
    }

    /// Write the file whole when its whole turns changed.
    pub fn save(&mut self) {
        let mut rec = self.kept.record.clone();
        rec.turns.clear();
        rec.finished = self.start.is_over();
        let (mut s, mut turn_start, mut picks) = (self.start, self.start, Vec::new());
        for (_, p) in &self.log {
            let Ok(outcome) = s.play_pick(u32::from(p.number())) else {
                break;
            };
            picks.push(*p);
            if outcome != PickOutcome::FreeTurn {
                let said = self.proved.get(&turn_start).map(|pr| Said {
                    best: pr.best,
                    played: pr.turns.get(&s).copied(),
                });
                rec.push(&turn_start, &picks, &s, said);
                picks.clear();
                turn_start = s;
            }
        }
        for (t, old) in rec.turns.iter_mut().zip(&self.resumed) {
            if t.said.is_none() && (t.by, &t.picks) == (old.by, &old.picks) {
                t.said = old.said;
            }
        }
        if rec.turns.is_empty() || self.written.as_ref() == Some(&rec.turns) {
            return;
        }
        self.written = Some(rec.turns.clone());
        self.kept.record = rec;
        self.kept.save();
    }
}

/// `YYYY-MM-DDTHH-MM-SSZ-SOURCE-PID.json` for now (UTC).
fn file_name(source: &str) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}-{:02}-{:02}Z-{source}-{}.json",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        std::process::id()
    )
}

/// The date of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Read a kept game's file; `what` names where it was given (`GAME`).
pub fn read(path: &Path, what: &str) -> Result<GameRecordJson, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("{what} {}: {e}", path.display())))?;
    parse_versioned(&text, GAME_RECORD_FORMAT, "a kept game").map_err(|e| {
        CliError::Input(format!(
            "{what} {}: {e}: give a kept game (game play, game analyze --follow) or a `game match --out` file with --number",
            path.display()
        ))
    })
}

/// The kept games, oldest first, each with its path, that `keep` accepts.
pub fn list(keep: impl Fn(&GameRecordJson) -> bool) -> Vec<(PathBuf, GameRecordJson)> {
    let Some(dir) = games_dir() else {
        return vec![];
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return vec![];
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let r = read(&p, "").ok()?;
            keep(&r).then_some((p, r))
        })
        .collect()
}

/// The last unfinished game `--follow` kept, for `--resume`: its recorder
/// and the position its turns lead to. Rule flags that name other rules
/// than the game's are refused.
pub fn last_unfinished(rules: &crate::args::RuleArgs) -> Result<(Recorder, GameState), CliError> {
    let Some((path, record)) = list(|r| r.source == "follow" && !r.finished).pop() else {
        let dir = games_dir().map_or("(none: no $HOME)".into(), |d| d.display().to_string());
        return Err(CliError::Input(format!(
            "--resume: no unfinished followed game is kept in {dir}: start one with `game analyze --follow`"
        )));
    };
    if let Some(preset) = rules.set.rules {
        let wanted = mancala_sweep::Preset::from(preset).rules();
        if wanted != record.rules {
            return Err(CliError::Input(format!(
                "--rules {}: the last unfinished game, {}, is played under {}; leave --rules out to take it up",
                mancala_sweep::Preset::from(preset).name(),
                path.display(),
                record.rules
            )));
        }
    }
    Recorder::resume(path, record)
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_become_dates() {
        assert_eq!(super::civil(0), (1970, 1, 1));
        assert_eq!(super::civil(20_420), (2025, 11, 28));
        assert_eq!(super::civil(11_016), (2000, 2, 29));
    }
}
