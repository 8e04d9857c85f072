//! A line: the pick sequence of one turn, as pit numbers.
//!
//! Lines are what the tool answers with (the optimal sequences of `solve`,
//! the line `find` returns, a puzzle's solution), so they have one type with
//! one text form (`6 3 2 5`) and one JSON form (an array of pit numbers),
//! instead of a `Vec` of pits, bytes or numbers in each module.

use super::pit::Pit;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A pick sequence, in the order the picks are made.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Line(pub Vec<Pit>);

impl Line {
    /// The picks.
    pub fn picks(&self) -> &[Pit] {
        &self.0
    }

    /// Number of picks.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for a line without picks.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pit numbers, as the checked replay takes them.
    pub fn numbers(&self) -> Vec<u32> {
        self.0.iter().map(|p| u32::from(p.number())).collect()
    }
}

impl From<Vec<Pit>> for Line {
    fn from(picks: Vec<Pit>) -> Line {
        Line(picks)
    }
}

impl fmt::Display for Line {
    /// Pit numbers separated by spaces: `6 3 2 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl Line {
    /// Read pit numbers separated by spaces or commas on a board with `n`
    /// pits a side; an error names the token and the allowed range.
    pub fn parse(text: &str, n: usize) -> Result<Line, String> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u32>()
                    .ok()
                    .and_then(|x| Pit::new(x, n))
                    .ok_or_else(|| format!("{t:?} is not a pit number: use 1 to {}", 2 * n))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_through_text_and_json() {
        let line = Line::parse("6 3,2  12", 6).unwrap();
        assert_eq!(line.numbers(), vec![6, 3, 2, 12]);
        assert_eq!(line.to_string(), "6 3 2 12");
        let json = serde_json::to_string(&line).unwrap();
        assert_eq!(json, "[6,3,2,12]");
        assert_eq!(serde_json::from_str::<Line>(&json).unwrap(), line);
        assert_eq!(
            Line::parse("6 13", 6).unwrap_err(),
            "\"13\" is not a pit number: use 1 to 12"
        );
    }
}
