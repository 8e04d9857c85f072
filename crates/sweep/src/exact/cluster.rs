//! The forward pass on timely-dataflow, over threads, processes and
//! machines (`solve --cluster`).
//!
//! Each store bucket is one step, as in the single-machine search: every
//! timely worker owns the positions whose key hashes to it (`owner`),
//! takes its share of the bucket from its own `Store` (in memory, or on
//! disk with `--spill DIR`; sorted and deduplicated the usual way, a wave at
//! a time), expands it with the same `Search::expand_bucket` and kernels,
//! and sends every successor to the worker that owns it. The steps are
//! run by the single-machine search's own driver (`Search::count` in
//! `steps.rs`); what the cluster adds is this exchange and the step's
//! agreement below, as that driver's `Peers` hooks (`dataflow.rs`), and a
//! store that keeps a failure for the step's end (`share.rs`); the
//! store's checkpoint hook records each step. Successors are sent in batches, one per destination
//! worker and bucket, deduplicated by the sender first and coded as LEB128
//! key gaps and path counts (the spill store's coding), so that a position
//! crosses the network once per sender however many paths reach it. A
//! worker's summary of the step (positions, finished turns by final store,
//! whether it must stop) is broadcast to all, so that every worker knows the
//! totals and all stop together: after a Ctrl-C or a time budget on any
//! process, or when any process passes the memory guard.
//!
//! A step ends when timely's progress tracking says that nothing sent in
//! it is still in flight: the probe has passed the step's time. Nothing
//! else in the search knows about timely; the answer is the same
//! `Counted` as the single-machine forward pass, so the JSON is the same,
//! byte for byte (the cluster tests compare them).
//!
//! When a process dies, timely's network threads panic on the others; the
//! search turns those panics into [`crate::SearchError::Cluster`] naming the lost
//! connection, instead of a hang or a backtrace.
//!
//! Path counts are `u64`, and `u128` after an overflow, as in the
//! single-machine search: every worker learns of an overflow from the
//! step's summaries, so all start again together.

/// Where the processes of a cluster run are and which one this is: the
/// flags timely's own programs take as `-n`, `-p`, `-h` and `-w`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of every process, process 0 first.
    pub addresses: Vec<String>,
    /// This process's index among them.
    pub process: usize,
    /// Timely worker threads in each process.
    pub workers: usize,
}

/// Why a cluster cannot be made as asked, in the cluster's words (the
/// command line names its flags in `cli/words.rs`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClusterError {
    /// No process at all.
    #[error("a cluster has at least 1 process")]
    NoProcess,
    /// This process's index is not among the processes.
    #[error("process {process} of {processes}: it must be 0 to {}", processes - 1)]
    Process {
        /// This process's index.
        process: usize,
        /// Processes in the cluster.
        processes: usize,
    },
    /// No worker thread.
    #[error("each process needs at least 1 worker")]
    NoWorker,
    /// A host file line that is not `host:port`.
    #[error("{file}: {line:?} is not host:port (one process a line, process 0 first)")]
    NotHostPort {
        /// The host file's name.
        file: String,
        /// The line.
        line: String,
    },
    /// A host file with fewer hosts than processes.
    #[error("{file}: it names {hosts} processes, and the cluster needs {processes}")]
    TooFewHosts {
        /// The host file's name.
        file: String,
        /// Hosts it names.
        hosts: usize,
        /// Processes asked for.
        processes: usize,
    },
}

/// The first port of a cluster without a host file, as timely's own
/// programs use it: process `i` listens on `localhost:2101 + i`.
pub const DEFAULT_PORT: u16 = 2101;

impl Cluster {
    /// A cluster of `processes` on this machine, on ports from
    /// [`DEFAULT_PORT`] up, or of the hosts in `hostfile` (one `host:port`
    /// a line; blank lines and lines starting with `#` are skipped): the
    /// first `processes` of them. Errors name the value and what is allowed.
    pub fn new(
        processes: usize,
        process: usize,
        workers: usize,
        hostfile: Option<(&str, &str)>,
    ) -> Result<Cluster, ClusterError> {
        if processes == 0 {
            return Err(ClusterError::NoProcess);
        }
        if process >= processes {
            return Err(ClusterError::Process { process, processes });
        }
        if workers == 0 {
            return Err(ClusterError::NoWorker);
        }
        let addresses = match hostfile {
            None => (0..processes)
                .map(|i| format!("localhost:{}", DEFAULT_PORT as usize + i))
                .collect(),
            Some((name, text)) => {
                let hosts: Vec<String> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string)
                    .collect();
                if let Some(bad) = hosts.iter().find(|h| !is_host_port(h)) {
                    return Err(ClusterError::NotHostPort {
                        file: name.to_string(),
                        line: bad.clone(),
                    });
                }
                if hosts.len() < processes {
                    return Err(ClusterError::TooFewHosts {
                        file: name.to_string(),
                        hosts: hosts.len(),
                        processes,
                    });
                }
                hosts.into_iter().take(processes).collect()
            }
        };
        Ok(Cluster {
            addresses,
            process,
            workers,
        })
    }

    /// Processes in the cluster.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }
}

fn is_host_port(s: &str) -> bool {
    s.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty() && !host.contains(char::is_whitespace) && port.parse::<u16>().is_ok()
    })
}

/// What a cluster run adds to the answer: the traffic.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Traffic {
    /// Coded bytes of successors sent between workers, over the whole
    /// cluster (a worker's batches to itself included).
    pub sent: u64,
    /// Of those, the bytes sent to a worker in another process: what went
    /// over the network.
    pub between_processes: u64,
    /// Entries sent (after each sender's deduplication).
    pub entries: u64,
    /// Positions expanded by this process's workers: its share.
    pub positions_here: u64,
}

#[cfg(feature = "cluster")]
pub(super) use dataflow::solve;

/// The search on timely-dataflow (the `cluster` feature).
#[cfg(feature = "cluster")]
mod dataflow;
#[cfg(feature = "cluster")]
mod quiet;
#[cfg(feature = "cluster")]
mod share;
