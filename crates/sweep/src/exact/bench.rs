//! One bucket of a real search, for the benchmarks (`benches/search.rs`):
//! not part of the documented API, and free to change with the search.

use super::key::Key;
use super::store::{Entry, Nodes};
use super::{Search, SearchError};
use crate::control::Stop;
use crate::kernel::{Kernel, KernelChoice, Plan};
use rules::{Board, Rules};

/// One bucket of a real search and its expansion: the nodes of bucket
/// `store` (deduplicated, as the search expands them) and the raw successor
/// streams they produce, which deduplication consumes. Boards up to 7 pits
/// a side with 64-bit keys.
pub struct Bucket {
    search: Search<u64, u64, 2>,
    kernel: Kernel,
    store: usize,
    nodes: Nodes<u64, u64>,
}

/// The same bucket with 128-bit keys, as boards of more than 64 key bits
/// (any-hole 2x6x5, avalanche 2x6x6) are searched: the positions and the
/// kernel are the same, so a benchmark of both shows what the key's
/// width alone costs.
pub struct WideBucket {
    search: Search<u128, u64, 2>,
    store: usize,
    nodes: Nodes<u128, u64>,
}

impl WideBucket {
    /// Expand every node; successors by store as `u64` keys (they fit: the
    /// board is the same), each store's runs concatenated.
    pub fn expand(&self) -> Vec<Vec<Entry<u64, u64>>> {
        let mut streams = vec![Vec::new(); self.search.max_store + 1];
        for chunk in
            self.search
                .expand_bucket(&self.nodes, self.store, &Stop::default(), None, None)
        {
            for (t, run) in chunk.runs {
                let narrow = run.entries().iter().map(|&(k, c)| (k as u64, c));
                streams[t].extend(narrow);
            }
        }
        streams
    }
}

impl Bucket {
    /// Run the forward pass from `board` up to bucket `store` with the
    /// fastest kernel here and keep that bucket.
    pub fn new(board: &Board, rules: Rules, store: usize) -> Result<Bucket, SearchError> {
        let bits = super::bits_needed(board.stones_in_pits(), 2 * board.pits_per_side());
        if bits > 64 || board.pits_per_side() > 7 {
            return Err(SearchError::KeyTooWide {
                stones: board.stones_in_pits(),
                pits: 2 * board.pits_per_side(),
                bits,
            });
        }
        let plan = crate::kernel::plan(board.pits_per_side(), bits, KernelChoice::Auto);
        let search = Search::<u64, u64, 2>::new(board, rules, plan);
        let overflow = || super::overflow_error(rules, board);
        let mut frontier = search.seeded();
        let stop = Stop::default();
        for s in board.store() as usize..store.min(search.max_store) {
            search
                .step(&mut frontier, s, &stop, None, &|_| Ok(()))
                .map_err(|_| overflow())?;
        }
        let nodes = frontier.take(store).map_err(|_| overflow())?;
        Ok(Bucket {
            search,
            kernel: plan.kernel,
            store,
            nodes,
        })
    }

    /// The same bucket, expanded by `kernel` (which must run here: see
    /// [`Kernel::supported`]), so that the benchmark can time the paths
    /// that other CPUs and boards take.
    pub fn with_kernel(mut self, kernel: Kernel) -> Bucket {
        let s = &self.search;
        assert!(
            kernel.supported().is_ok(),
            "kernel {kernel} does not run here"
        );
        let plan = Plan {
            kernel,
            decode_keys: matches!(kernel, Kernel::Avx512Vbmi | Kernel::Avx512Vbmi2)
                && crate::kernel::cpu().decodes,
        };
        self.search = Search::new(&s.start, s.rules, plan);
        self.kernel = kernel;
        self
    }

    /// The same bucket and kernel with 128-bit keys (which the kernel
    /// never decodes itself: the search hands it rings).
    pub fn widened(&self) -> WideBucket {
        let s = &self.search;
        let plan = Plan {
            kernel: self.kernel,
            decode_keys: false,
        };
        let parts = self
            .nodes
            .parts()
            .iter()
            .map(|p| p.iter().map(|&(k, c)| (k as u128, c)).collect())
            .collect();
        WideBucket {
            search: Search::new(&s.start, s.rules, plan),
            store: self.store,
            nodes: Nodes::from_parts(parts),
        }
    }

    /// Number of nodes in the bucket.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the bucket has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The bucket's nodes, keys and path counts, in key order.
    pub fn nodes(&self) -> impl Iterator<Item = &Entry<u64, u64>> + '_ {
        self.nodes.iter()
    }

    /// Expand every node; returns the successors by store, each store's
    /// stream being the runs of all chunks concatenated (split by part
    /// within each run).
    pub fn expand(&self) -> Vec<Vec<Entry<u64, u64>>> {
        let mut streams = vec![Vec::new(); self.search.max_store + 1];
        for chunk in
            self.search
                .expand_bucket(&self.nodes, self.store, &Stop::default(), None, None)
        {
            for (t, run) in chunk.runs {
                streams[t].extend_from_slice(run.entries());
            }
        }
        streams
    }

    /// The part shift of bucket `store` of this search (see
    /// [`super::store::memory::part_shift`]).
    pub fn shift(&self, store: usize) -> u32 {
        self.search.shifts[store]
    }

    /// Encode a ring as the search's key for this board, for benchmarks that
    /// time decoding.
    pub fn key_of(&self, ring: &[u8]) -> u64 {
        u64::encode(ring, self.search.n)
    }
}
