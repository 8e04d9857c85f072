//! Rule sets: which pits a player may pick from, whether a last stone in a
//! non-empty pit relays the sowing, and how captures work.
//!
//! A rule set is a small `Copy` value so that the search can carry it in every
//! worker without sharing. The three presets are named constants; every
//! field can be overridden from the command line.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which pits the player to move may pick from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Own pits only (pits 1..n).
    Own,
    /// Any non-empty pit on the board (pits 1..2n), as in seed 002's MATLAB search.
    Any,
}

/// What happens when the last stone of a pick lands in an empty own pit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Capture {
    /// No capture: the turn simply ends.
    None,
    /// Kalah capture: the last stone and the opposite pit's stones go to the
    /// store, but only when the opposite pit is not empty.
    Kalah,
    /// Like `kalah`, but the last stone is taken even when the opposite pit is empty.
    Empty,
}

/// A complete rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Which pits may be picked.
    pub scope: Scope,
    /// Relay ("avalanche") sowing: a last stone in a pit that already held
    /// stones picks them all up and sowing goes on, within the same pick.
    pub relay: bool,
    /// Capture rule for a last stone in an empty own pit.
    pub capture: Capture,
}

impl Rules {
    /// GamePigeon's avalanche mode (seed 000): own pits, relay, no capture.
    pub const AVALANCHE: Rules = Rules {
        scope: Scope::Own,
        relay: true,
        capture: Capture::None,
    };
    /// Seed 002's "pick from any hole" rules: any pit, relay, no capture.
    pub const ANY_HOLE: Rules = Rules {
        scope: Scope::Any,
        relay: true,
        capture: Capture::None,
    };
    /// Plain Kalah: own pits, no relay, Kalah capture.
    pub const KALAH: Rules = Rules {
        scope: Scope::Own,
        relay: false,
        capture: Capture::Kalah,
    };
}

/// The named rule sets accepted by `--rules`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// GamePigeon avalanche: scope own, relay on, capture none.
    Avalanche,
    /// Pick from any hole: scope any, relay on, capture none.
    AnyHole,
    /// Kalah: scope own, relay off, capture kalah.
    Kalah,
}

impl Preset {
    /// Every preset, in the order the help text lists them.
    pub const ALL: [Preset; 3] = [Preset::Avalanche, Preset::AnyHole, Preset::Kalah];

    /// The rule set this preset names.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Avalanche => Rules::AVALANCHE,
            Preset::AnyHole => Rules::ANY_HOLE,
            Preset::Kalah => Rules::KALAH,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Avalanche => "avalanche",
            Preset::AnyHole => "any-hole",
            Preset::Kalah => "kalah",
        }
    }

    /// The other names the preset is read under: `capture` is Kalah's
    /// rules under the name GamePigeon's players know.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Preset::Kalah => &["capture"],
            Preset::Avalanche | Preset::AnyHole => &[],
        }
    }

    /// The preset in a player's words, as the pages show it: GamePigeon's
    /// names for its two modes, and where any-hole comes from.
    pub fn label(self) -> &'static str {
        match self {
            Preset::Avalanche => "GamePigeon avalanche",
            Preset::AnyHole => "any-hole (not in GamePigeon)",
            Preset::Kalah => "GamePigeon capture",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset by name or by one of its [`Preset::aliases`], as on the
/// command line.
impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s || p.aliases().contains(&s))
            .ok_or_else(|| {
                format!("unknown rules {s:?}: use avalanche, any-hole, kalah or capture (= kalah)")
            })
    }
}

impl Scope {
    /// The pits this scope allows on a board with `n` pits a side, in pit
    /// order: 1..=n or 1..=2n.
    pub fn pits(self, n: usize) -> impl Iterator<Item = super::pit::Pit> {
        let last = match self {
            Scope::Own => n,
            Scope::Any => 2 * n,
        };
        super::pit::Pit::all(n).take(last)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scope::Own => "own",
            Scope::Any => "any",
        })
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "own" => Ok(Scope::Own),
            "any" => Ok(Scope::Any),
            _ => Err(format!("unknown scope {s:?}: use own or any")),
        }
    }
}

impl Capture {
    /// Every capture rule, for whoever lists them (the atlas, the tests).
    pub const ALL: [Capture; 3] = [Capture::None, Capture::Kalah, Capture::Empty];

    /// The capture rule itself: whether a last stone that lands alone in an
    /// empty pit of the mover's takes itself and the `opposite` pit's
    /// stones to the mover's store. Written here once; every sowing (the
    /// reference pick, the packed kernel, the game search's move ordering)
    /// asks it, so that a new rule is this match and its names below.
    #[inline(always)]
    pub fn takes(self, opposite: u32) -> bool {
        match self {
            Capture::None => false,
            Capture::Kalah => opposite > 0,
            Capture::Empty => true,
        }
    }

    /// Whether the rule ever takes stones: a sowing may skip looking at
    /// the opposite pit when it does not (the hot loops of the sweep ask
    /// this first), and a search may count stores alone.
    #[inline(always)]
    pub fn ever_takes(self) -> bool {
        self != Capture::None
    }

    /// The rule in a few words, as a table's heading names it.
    pub fn label(self) -> &'static str {
        match self {
            Capture::None => "no captures",
            Capture::Kalah => "Kalah captures",
            Capture::Empty => "captures always",
        }
    }

    /// The rule's name in flags, board texts and JSON (`--capture kalah`).
    pub fn name(self) -> &'static str {
        match self {
            Capture::None => "none",
            Capture::Kalah => "kalah",
            Capture::Empty => "empty",
        }
    }

    /// The rule as `--capture`'s help says it.
    pub fn help(self) -> &'static str {
        match self {
            Capture::None => "A last stone in an empty pit of yours just ends the turn",
            Capture::Kalah => "A last stone in an empty pit of yours goes to your store with the stones in the pit opposite it, when that pit has any",
            Capture::Empty => "Like kalah, but the last stone goes to your store even when the pit opposite is empty",
        }
    }

    /// The rule in a sentence a player reads.
    pub fn sentence(self) -> &'static str {
        match self {
            Capture::None => "a last stone in an empty pit of yours ends the turn",
            Capture::Kalah => "a last stone in an empty pit of yours takes the stones opposite (when there are any) to your store",
            Capture::Empty => "a last stone in an empty pit of yours goes to your store, with the stones opposite",
        }
    }
}

impl FromStr for Capture {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Capture::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Capture::ALL.iter().map(|c| c.name()).collect();
                let (last, rest) = names.split_last().expect("rules exist");
                format!("unknown capture {s:?}: use {} or {last}", rest.join(", "))
            })
    }
}

impl fmt::Display for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Rules {
    /// `scope=any relay=on capture=none`, with the preset's name in front when it is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = Preset::ALL.into_iter().find(|p| p.rules() == *self) {
            write!(f, "{p} (")?;
        }
        write!(
            f,
            "scope={} relay={} capture={}",
            self.scope,
            if self.relay { "on" } else { "off" },
            self.capture
        )?;
        if Preset::ALL.into_iter().any(|p| p.rules() == *self) {
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_through_their_names() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
        }
        assert!("mancala".parse::<Preset>().unwrap_err().contains("mancala"));
        // GamePigeon's name for Kalah's rules, as the web and the command line take it.
        assert_eq!("capture".parse::<Preset>(), Ok(Preset::Kalah));
        for p in Preset::ALL {
            for alias in p.aliases() {
                assert_eq!(alias.parse::<Preset>(), Ok(p));
            }
        }
    }

    #[test]
    fn display_names_the_preset() {
        assert_eq!(
            Rules::ANY_HOLE.to_string(),
            "any-hole (scope=any relay=on capture=none)"
        );
        let custom = Rules {
            capture: Capture::Empty,
            ..Rules::AVALANCHE
        };
        assert_eq!(custom.to_string(), "scope=own relay=on capture=empty");
    }
}
