//! A position: the pits, the own store and the opponent's store, with the
//! board text format that `--board` reads and every diagram prints.
//!
//! # Board text format
//!
//! A board is written the way the player to move sees it: three rows,
//! separated by newlines or by `/`.
//!
//! 1. the opponent's pits, left to right as the player sees them (pit 2n on
//!    the left down to pit n+1 on the right);
//! 2. the two stores: the opponent's store (on the left) then the player's own
//!    store (on the right);
//! 3. the player's own pits, left to right (pit 1 to pit n).
//!
//! Counts are whole numbers separated by spaces or commas. Lines that start
//! with `#` are comments (the diagrams use them for pit numbers) and blank
//! lines are skipped, so a printed diagram can be pasted back in. The store
//! row may be left out, in which case both stores are empty. The start of the
//! standard game in one line is `4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4`; printed:
//!
//! ```text
//! #   12 11 10  9  8  7
//!      4  4  4  4  4  4
//!  0                    0
//!      4  4  4  4  4  4
//! #    1  2  3  4  5  6
//! ```

use super::error::BoardError;
use super::pit::Pit;
use super::variant::Rules;
use std::fmt;
use std::str::FromStr;

pub use super::limits::{MAX_PITS_PER_SIDE, MAX_STONES_IN_PLAY, RING_CAP};

/// A position with the player to move at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    n: u8,
    /// Counters in sowing order (see [`crate::pit`]); only `..2n+1` is used.
    ring: [u8; RING_CAP],
    opponent_store: u8,
}

fn check_pits_per_side(n: usize) -> Result<(), BoardError> {
    if (1..=MAX_PITS_PER_SIDE).contains(&n) {
        Ok(())
    } else {
        Err(BoardError::PitsPerSide(n))
    }
}

impl Board {
    /// The start of a game: `n` pits a side with `stones` each, empty stores.
    pub fn uniform(n: usize, stones: u32) -> Result<Board, BoardError> {
        check_pits_per_side(n)?;
        Board::from_pits(&vec![stones; 2 * n], 0, 0)
    }

    /// A board from the 2n pit counts in pit-number order and both stores.
    pub fn from_pits(pits: &[u32], store: u32, opponent_store: u32) -> Result<Board, BoardError> {
        if !pits.len().is_multiple_of(2) {
            return Err(BoardError::Text {
                text: format!("{pits:?}"),
                reason: format!(
                    "{} pit counts given: a board has an even number (2 to {})",
                    pits.len(),
                    2 * MAX_PITS_PER_SIDE
                ),
            });
        }
        let n = pits.len() / 2;
        check_pits_per_side(n)?;
        let in_play: u64 = pits.iter().map(|&c| c as u64).sum::<u64>() + store as u64;
        if in_play > MAX_STONES_IN_PLAY as u64 {
            return Err(BoardError::TooManyStones(in_play));
        }
        if opponent_store > MAX_STONES_IN_PLAY {
            return Err(BoardError::OpponentStore(opponent_store as u64));
        }
        let mut ring = [0u8; RING_CAP];
        for (p, &c) in Pit::all(n).zip(pits) {
            ring[p.ring(n)] = c as u8;
        }
        ring[n] = store as u8;
        Ok(Board {
            n: n as u8,
            ring,
            opponent_store: opponent_store as u8,
        })
    }

    /// Pits a side (n).
    #[inline]
    pub fn pits_per_side(&self) -> usize {
        self.n as usize
    }

    /// Stones in one pit.
    pub fn pit(&self, p: Pit) -> u8 {
        self.ring[p.ring(self.pits_per_side())]
    }

    /// The 2n pit counts in pit-number order.
    pub fn pits(&self) -> Vec<u8> {
        let n = self.pits_per_side();
        Pit::all(n).map(|p| self.pit(p)).collect()
    }

    /// Stones in the own store.
    #[inline]
    pub fn store(&self) -> u8 {
        self.ring[self.pits_per_side()]
    }

    /// Stones in the opponent's store (never changes during a turn).
    pub fn opponent_store(&self) -> u8 {
        self.opponent_store
    }

    /// Stones in the pits and the own store: the most a turn can score.
    pub fn stones_in_play(&self) -> u32 {
        self.ring().iter().map(|&c| c as u32).sum()
    }

    /// Stones in the pits only.
    pub fn stones_in_pits(&self) -> u32 {
        self.stones_in_play() - self.store() as u32
    }

    /// The ring of 2n+1 counters in sowing order, store at index n.
    #[inline]
    pub fn ring(&self) -> &[u8] {
        &self.ring[..2 * self.pits_per_side() + 1]
    }

    /// Mutable ring (see [`Board::ring`]).
    #[inline]
    pub fn ring_mut(&mut self) -> &mut [u8] {
        let len = 2 * self.pits_per_side() + 1;
        &mut self.ring[..len]
    }

    /// The pits the rules let the player pick from, non-empty, in pit order.
    pub fn legal_picks(&self, rules: Rules) -> impl Iterator<Item = Pit> + '_ {
        rules
            .scope
            .pits(self.pits_per_side())
            .filter(|&p| self.pit(p) > 0)
    }

    /// True when the player has at least one legal pick.
    pub fn can_move(&self, rules: Rules) -> bool {
        self.legal_picks(rules).next().is_some()
    }

    /// The board on one line: `top / stores / bottom`.
    pub fn one_line(&self) -> String {
        let join = |v: &[u8]| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (top, bottom) = self.rows();
        format!(
            "{} / {} {} / {}",
            join(&top),
            self.opponent_store,
            self.store(),
            join(&bottom)
        )
    }

    /// (top row as seen, bottom row as seen).
    fn rows(&self) -> (Vec<u8>, Vec<u8>) {
        let n = self.pits_per_side();
        let pits = self.pits();
        let bottom = pits[..n].to_vec();
        let top = pits[n..].iter().rev().copied().collect();
        (top, bottom)
    }
}

/// A part of the diagram that [`Board::diagram`] lets the caller paint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A pit's count.
    Pit(Pit),
    /// The player's store.
    Store,
    /// The opponent's store.
    OpponentStore,
}

impl Board {
    /// The diagram, with pit numbers on `#` lines above and below; `paint`
    /// gets each count already padded to its column, and may wrap it (in
    /// colour codes, say) without moving anything. [`fmt::Display`] is this
    /// with nothing painted.
    pub fn diagram(&self, paint: &dyn Fn(Cell, String) -> String) -> String {
        let n = self.pits_per_side();
        let (top, bottom) = self.rows();
        // Every count that is printed sizes the columns, the bottom row's
        // too, or a wide bottom pit pushes its row out of line.
        let w = [self.store(), self.opponent_store]
            .iter()
            .chain(&top)
            .chain(&bottom)
            .map(|c| c.to_string().len())
            .chain([(2 * n).to_string().len()])
            .max()
            .unwrap_or(1);
        let row = |first: char, cells: Vec<String>| {
            let mut s = format!("{first}{}{}", " ".repeat(w + 1), cells.join(" "));
            s.truncate(s.trim_end().len());
            s
        };
        let labels = |range: &mut dyn Iterator<Item = usize>| {
            range.map(|i| format!("{i:>w$}")).collect::<Vec<_>>()
        };
        let counts = |pits: &mut dyn Iterator<Item = usize>| {
            pits.map(|i| {
                let pit = Pit::new(i as u32, n).expect("a pit of this board");
                paint(Cell::Pit(pit), format!("{:>w$}", self.pit(pit)))
            })
            .collect::<Vec<_>>()
        };
        let inner = n * (w + 1) + 2;
        [
            row('#', labels(&mut (n + 1..=2 * n).rev())),
            row(' ', counts(&mut (n + 1..=2 * n).rev())),
            format!(
                "{}{}{}",
                paint(Cell::OpponentStore, format!("{:>w$}", self.opponent_store)),
                " ".repeat(inner),
                paint(Cell::Store, self.store().to_string())
            ),
            row(' ', counts(&mut (1..=n))),
            row('#', labels(&mut (1..=n))),
        ]
        .join("\n")
    }
}

impl fmt::Display for Board {
    /// The diagram, with pit numbers on `#` lines above and below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram(&|_, text| text))
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Read the board text format (see the module docs).
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let fail = |reason: String| BoardError::Text {
            text: text.trim().to_string(),
            reason,
        };
        let mut rows: Vec<Vec<u32>> = Vec::new();
        for line in text.split(['\n', '/']) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut row = Vec::new();
            for token in line.split(|c: char| c.is_whitespace() || c == ',') {
                if token.is_empty() {
                    continue;
                }
                let count = token.parse::<u32>().map_err(|_| {
                    fail(if token.starts_with('-') && token[1..].parse::<u64>().is_ok() {
                        format!("count {token} is negative: counts are whole numbers 0 to {MAX_STONES_IN_PLAY}")
                    } else {
                        format!("{token:?} is not a count: use whole numbers 0 to {MAX_STONES_IN_PLAY}")
                    })
                })?;
                row.push(count);
            }
            rows.push(row);
        }
        let (top, stores, bottom) = match rows.as_slice() {
            [top, stores, bottom] => (top, stores.as_slice(), bottom),
            [top, bottom] => (top, &[0, 0][..], bottom),
            _ => {
                return Err(fail(format!(
                    "{} row{} found: write the opponent's pits, the two stores, and your pits, separated by '/' or newlines",
                    rows.len(),
                    if rows.len() == 1 { "" } else { "s" }
                )))
            }
        };
        if top.len() != bottom.len() {
            return Err(fail(format!(
                "the top row has {} pits and the bottom row {}: both rows need the same number, 1 to {MAX_PITS_PER_SIDE}",
                top.len(),
                bottom.len()
            )));
        }
        if !(1..=MAX_PITS_PER_SIDE).contains(&top.len()) {
            return Err(fail(format!(
                "{} pits a side: use 1 to {MAX_PITS_PER_SIDE}",
                top.len()
            )));
        }
        if stores.len() != 2 {
            return Err(fail(format!(
                "the store row has {} numbers: give the opponent's store, then yours",
                stores.len()
            )));
        }
        let pits: Vec<u32> = bottom.iter().chain(top.iter().rev()).copied().collect();
        Board::from_pits(&pits, stores[1], stores[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_and_diagram_read_back() {
        let b = Board::from_pits(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 13, 14).unwrap();
        assert_eq!(b.one_line(), "12 11 10 9 8 7 / 14 13 / 1 2 3 4 5 6");
        assert_eq!(b.one_line().parse::<Board>().unwrap(), b);
        assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
    }

    #[test]
    fn diagram_of_the_standard_start() {
        let b = Board::uniform(6, 4).unwrap();
        assert_eq!(
            b.to_string(),
            "#   12 11 10  9  8  7\n     4  4  4  4  4  4\n 0                    0\n     4  4  4  4  4  4\n#    1  2  3  4  5  6"
        );
    }

    /// Regression (issue 15): a bottom pit wider than anything else pushed
    /// the bottom row out of line with its pit numbers.
    #[test]
    fn diagram_aligns_when_a_bottom_pit_is_the_widest() {
        let b: Board = "3 2 1 / 0 0 / 4 1 100".parse().unwrap();
        let text = b.to_string();
        // Every count ends in the column of its pit number.
        let lines: Vec<&str> = text.lines().collect();
        let ends = |l: &str| {
            l.char_indices()
                .filter(|&(i, c)| {
                    i > 0 && c != ' ' && (i + 1 == l.len() || l[i + 1..].starts_with(' '))
                })
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        assert_eq!(ends(lines[3]), ends(lines[4]), "{text}");
        assert_eq!(ends(lines[1]), ends(lines[0]), "{text}");
        assert_eq!(ends(lines[4]).len(), 3, "{text}");
        assert_eq!(text.parse::<Board>().unwrap(), b);
    }

    #[test]
    fn bad_text_names_the_value() {
        let e = |t: &str| t.parse::<Board>().unwrap_err().to_string();
        assert!(e("4 4 x / 0 0 / 4 4 4").contains("\"x\" is not a count"));
        assert!(e("4 4 -1 / 0 0 / 4 4 4").contains("count -1 is negative"));
        assert!(e("4 4 / 0 0 / 4 4 4").contains("top row has 2 pits and the bottom row 3"));
        assert!(e("4 4 4").contains("1 row found"));
        assert!(e("200 200 / 0 0 / 1 1").contains("402 stones"));
        assert!(e("1 1 / 0 0 0 / 1 1").contains("store row has 3"));
    }

    #[test]
    fn store_row_may_be_left_out() {
        let b: Board = "4 4 4 / 4 4 4".parse().unwrap();
        assert_eq!(b, Board::uniform(3, 4).unwrap());
    }
}
