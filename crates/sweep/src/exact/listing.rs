//! The listing: a depth-first walk over the good nodes in pit order, so
//! that optimal lines come out in lexicographic order of their pit numbers
//! and the walk never enters a dead end.

use super::backward::GoodSet;
use super::key::Key;
use super::store::Count;
use super::Search;
use crate::kernel::packed::{self, Packed};
use rules::{Line, PickEnd, Pit};

impl<K: Key, C: Count, const W: usize> Search<K, C, W> {
    /// Depth-first walk over good nodes, in pit order, collecting at most
    /// `limit` optimal sequences.
    pub(super) fn list(&self, good: &[GoodSet<W>], best: usize, limit: usize) -> Vec<Line> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        let start = packed::pack(self.start.ring());
        self.walk(good, best, limit, &start, &mut path, &mut out);
        out
    }

    fn walk(
        &self,
        good: &[GoodSet<W>],
        best: usize,
        limit: usize,
        ring: &Packed<W>,
        path: &mut Vec<Pit>,
        out: &mut Vec<Line>,
    ) {
        let mut next = Vec::new();
        let moved = self.for_each_pick(ring, |from, after, end| next.push((from, *after, end)));
        if !moved && self.store_of(ring) == best {
            out.push(Line(path.clone()));
        }
        for (from, after, end) in next {
            if out.len() >= limit {
                return;
            }
            let pit = Pit::from_ring(from, self.n).expect("picks are pits");
            let store = self.store_of(&after);
            match end {
                PickEnd::TurnOver if store == best => {
                    path.push(pit);
                    out.push(Line(path.clone()));
                    path.pop();
                }
                PickEnd::FreeTurn if good[store].contains(&after) => {
                    path.push(pit);
                    self.walk(good, best, limit, &after, path, out);
                    path.pop();
                }
                _ => {}
            }
        }
    }
}
