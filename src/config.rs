//! From command-line choices to a validated rule set and start position.
//!
//! The binary parses flags into [`RuleOptions`]; [`RuleOptions::resolve`] is
//! the one place that turns them into a [`Rules`] and a [`Board`], so the rest
//! of the code never sees raw flags.

use crate::board::Board;
use crate::error::Result;
use crate::rules::{Capture, Preset, Rules, Scope};

/// Default pits a side.
pub const DEFAULT_PITS: usize = 6;
/// Default stones a pit.
pub const DEFAULT_STONES: u32 = 4;
/// Preset used when `--rules` is not given.
pub const DEFAULT_PRESET: Preset = Preset::Avalanche;

/// The rule and board flags shared by every command, as given.
#[derive(Clone, Debug, Default)]
pub struct RuleOptions {
    /// `--rules`.
    pub preset: Option<Preset>,
    /// `--scope`, overriding the preset.
    pub scope: Option<Scope>,
    /// `--relay`, overriding the preset.
    pub relay: Option<bool>,
    /// `--capture`, overriding the preset.
    pub capture: Option<Capture>,
    /// `--pits`.
    pub pits: Option<usize>,
    /// `--stones`.
    pub stones: Option<u32>,
    /// `--board` text.
    pub board: Option<String>,
}

impl RuleOptions {
    /// The rules and start board these options name.
    pub fn resolve(&self) -> Result<(Rules, Board)> {
        let base = self.preset.unwrap_or(DEFAULT_PRESET).rules();
        let rules = Rules {
            scope: self.scope.unwrap_or(base.scope),
            relay: self.relay.unwrap_or(base.relay),
            capture: self.capture.unwrap_or(base.capture),
        };
        let board = match &self.board {
            Some(text) => text.parse()?,
            None => Board::uniform(
                self.pits.unwrap_or(DEFAULT_PITS),
                self.stones.unwrap_or(DEFAULT_STONES),
            )?,
        };
        Ok((rules, board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_preset() {
        let o = RuleOptions {
            preset: Some(Preset::Kalah),
            relay: Some(true),
            pits: Some(4),
            stones: Some(3),
            ..Default::default()
        };
        let (rules, board) = o.resolve().unwrap();
        assert_eq!(
            rules,
            Rules {
                relay: true,
                ..Rules::KALAH
            }
        );
        assert_eq!(board, Board::uniform(4, 3).unwrap());
        let (rules, board) = RuleOptions::default().resolve().unwrap();
        assert_eq!(rules, Rules::AVALANCHE);
        assert_eq!(board.stones_in_play(), 48);
    }
}

/// Share of the machine's memory that `--max-memory` defaults to: enough for
/// the largest exhaustive searches, while leaving room for the operating
/// system and for the allocator's slack beyond the search's own estimate.
pub const DEFAULT_MEMORY_SHARE: f64 = 0.5;

/// The default `--max-memory`: half of `MemTotal` in `/proc/meminfo`, or 4 GiB
/// where that cannot be read.
pub fn default_max_memory() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb * 1024);
    match total {
        Some(bytes) => (bytes as f64 * DEFAULT_MEMORY_SHARE) as u64,
        None => 4 << 30,
    }
}

/// Read a size such as `800M`, `1.5G`, `2GiB` or `1000000` (bytes).
/// Suffixes K, M, G and T are powers of 1024, with or without `B`/`iB`.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_uppercase();
    let scale: u64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "{text:?} is not a size: use a number with K, M, G or T, such as 800M or 1.5G"
            ))
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("{text:?} is not a size: use a number with K, M, G or T, such as 800M or 1.5G")
    })?;
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(format!(
            "{text:?} is out of range: give at least 1 byte, such as 800M or 1.5G"
        ));
    }
    Ok(bytes as u64)
}

/// A size for people: `1.50 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_bytes("800M"), Ok(800 << 20));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots")
            .unwrap_err()
            .contains("\"lots\" is not a size"));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("-5G").is_err());
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
        assert_eq!(format_bytes(12), "12 B");
        assert!(default_max_memory() > 0);
    }
}
