//! The counts of a forward pass: kept by the step driver, recorded by a
//! store's checkpoint and shared by a cluster's workers, so it sits below
//! all three.

/// The counts of a forward pass after its finished buckets: what a
/// checkpoint records and a resumed search starts from.
#[derive(Clone, Debug)]
pub(crate) struct ForwardCounts {
    /// The next bucket to take.
    pub(crate) next: usize,
    /// Distinct positions expanded, by bucket.
    pub(crate) by_store: Vec<u64>,
    /// Path counts of finished turns, by final store.
    pub(crate) ended: Vec<u128>,
    /// Wall-clock seconds spent on the finished buckets, over every run
    /// of a resumed search.
    pub(crate) seconds: f64,
}

impl ForwardCounts {
    /// Nothing counted yet, the first bucket `first`, stores up to `max_store`.
    pub(crate) fn fresh(first: usize, max_store: usize) -> Self {
        ForwardCounts {
            next: first,
            by_store: vec![0; max_store + 1],
            ended: vec![0; max_store + 1],
            seconds: 0.0,
        }
    }

    /// Distinct positions expanded.
    pub(crate) fn positions(&self) -> u64 {
        self.by_store.iter().sum()
    }
}
