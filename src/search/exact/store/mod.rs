//! Where the frontier of the exact search lives between buckets.
//!
//! The forward pass only pushes runs of successors into a store bucket and
//! takes a whole bucket back, deduplicated and in key order, when every
//! bucket below it is done. [`Store`] is that interface, so that a store
//! that spills runs to disk can sit next to the in-memory one ([`memory`])
//! without the passes changing.

pub(crate) mod disk;
pub(crate) mod memory;

pub(crate) use memory::{Count, Entry, Frontier, Nodes, Overflow, Run};

use super::key::Key;

/// A frontier: runs of `(key, path count)` filed by store value.
pub(crate) trait Store<K: Key, C: Count> {
    /// File a run of successors for bucket `store`.
    fn push(&mut self, store: usize, run: Run<K, C>);
    /// Take bucket `store`, deduplicated (path counts of equal keys added)
    /// and in key order; `Overflow` when a sum does not fit `C`.
    fn take(&mut self, store: usize) -> Result<Nodes<K, C>, Overflow>;
    /// Bytes the store holds now.
    fn memory(&self) -> u64;
}
