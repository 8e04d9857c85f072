//! From a player's choices to a validated rule set and start position.
//!
//! A front end (the command line's flags, a web form) fills [`RuleOptions`];
//! [`RuleOptions::resolve`] is the one place that turns them into a
//! [`Rules`] and a [`Board`], so the rest of the code never sees raw choices.

use super::board::Board;
use super::error::BoardError;
use super::variant::{Capture, Preset, Rules, Scope};

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
    /// The rule set these options name: the preset (avalanche when none
    /// is given) with the given fields overridden.
    pub fn rules(&self) -> Rules {
        let base = self.preset.unwrap_or(DEFAULT_PRESET).rules();
        Rules {
            scope: self.scope.unwrap_or(base.scope),
            relay: self.relay.unwrap_or(base.relay),
            capture: self.capture.unwrap_or(base.capture),
        }
    }

    /// The rules and start board these options name.
    pub fn resolve(&self) -> Result<(Rules, Board), BoardError> {
        let rules = self.rules();
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
