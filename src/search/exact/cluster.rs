//! The forward pass on timely-dataflow, over threads, processes and
//! machines (`solve --cluster`).
//!
//! Each store bucket is one round, as in the single-machine search: every
//! timely worker owns the positions whose key hashes to it (`owner`),
//! takes its share of the bucket from its own `Frontier` (sorted and
//! deduplicated the usual way), expands it with the same
//! `Search::expand_bucket` and kernels, and sends every successor to the
//! worker that owns it. Successors are sent in batches, one per destination
//! worker and bucket, deduplicated by the sender first and coded as LEB128
//! key gaps and path counts (the spill store's coding), so that a position
//! crosses the network once per sender however many paths reach it. A
//! worker's summary of the round (positions, finished turns by final store,
//! whether it must stop) is broadcast to all, so that every worker knows the
//! totals and all stop together: after a Ctrl-C or a time budget on any
//! process, or when any process passes the memory guard.
//!
//! A round ends when timely's progress tracking says that nothing sent in
//! it is still in flight: the probe has passed the round's time. Nothing
//! else in the search knows about timely; the answer is the same
//! `Counted` as the other two forward passes, so the JSON is the same,
//! byte for byte (the cluster tests compare them).
//!
//! When a process dies, timely's network threads panic on the others; the
//! search turns those panics into [`crate::search::SearchError::Cluster`] naming the lost
//! connection, instead of a hang or a backtrace.
//!
//! Path counts are `u64`, and `u128` after an overflow, as in the
//! single-machine search: every worker learns of an overflow from the
//! round's summaries, so all start again together.

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
mod dataflow {
    use super::{Cluster, Traffic};
    use crate::rules::{Board, Rules};
    use crate::search::control::Stop;
    use crate::search::error::{SearchError, StopCause};
    use crate::search::exact::forward::Counted;
    use crate::search::exact::forward::Expanded;
    use crate::search::exact::key::Key;
    use crate::search::exact::level::Level;
    use crate::search::exact::spilled::wave_entries;
    use crate::search::exact::store::disk::{Spill, SpillFail};
    use crate::search::exact::store::memory::{Count, Frontier, Run};
    use crate::search::exact::store::Entry;
    use crate::search::exact::{Fail, Phase, Progress, Search, SolveOptions};
    use crate::search::kernel::Plan;
    use serde::{Deserialize, Serialize};
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc, Mutex};

    /// The worker that owns a key: a fixed mix of its bits (the same on every
    /// machine), modulo the workers.
    #[inline]
    fn owner(key: u128, peers: usize) -> usize {
        let mut h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        // splitmix64's finaliser: every key bit reaches the low bits.
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        (h % peers as u64) as usize
    }

    /// A batch of successors for one worker: `(worker, bucket, coded entries)`.
    type Batch = (u32, u32, Vec<u8>);

    /// One worker's account of a round, broadcast to every worker.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    struct Summary {
        /// The round, as the timely time it was sent at.
        round: u64,
        /// The worker that sent it.
        worker: u64,
        /// Positions this worker expanded in the round.
        positions: u64,
        /// Path counts of the turns they ended, by final store.
        ended: Vec<u128>,
        /// 1: cancelled here; 2: this process's time budget ran out.
        stop: u8,
        /// The time budget, for the message.
        seconds: f64,
        /// This process holds more than its memory limit.
        memory: bool,
        /// A path count overflowed `u128`.
        overflow: bool,
        /// Bytes of memory this process holds (resident).
        resident: u64,
        /// Traffic sent this round: all, to other processes, entries.
        sent: (u64, u64, u64),
        /// In the first round: the bucket this worker's checkpoint resumes at.
        resume: Option<u64>,
        /// This worker's spill store failed (its own error is kept).
        failed: bool,
    }

    /// Code sorted, deduplicated `entries` as LEB128 key gaps and counts.
    fn encode<'a, K: Key, C: Count>(
        entries: impl Iterator<Item = &'a Entry<K, C>>,
        out: &mut Vec<u8>,
    ) {
        let mut prev = 0u128;
        for &(key, count) in entries {
            crate::search::exact::store::disk::put_varint(out, key.to_u128() - prev);
            crate::search::exact::store::disk::put_varint(out, count.into());
            prev = key.to_u128();
        }
    }

    /// The entries [`encode`] coded; `None` for a damaged batch.
    /// (A count too big for `C` is `None` too: the search then starts
    /// again with `u128` counts.)
    fn decode<K: Key, C: Count>(bytes: &[u8]) -> Option<Vec<Entry<K, C>>> {
        let mut out = Vec::with_capacity(bytes.len() / 3);
        let (mut at, mut key) = (0, 0u128);
        while at < bytes.len() {
            key = key.checked_add(crate::search::exact::store::disk::get_varint(
                bytes, &mut at,
            )?)?;
            let count = crate::search::exact::store::disk::get_varint(bytes, &mut at)?;
            out.push((K::from_u128(key), C::from_u128(count)?));
        }
        Some(out)
    }

    /// Standard output sent to standard error while it lives (Linux).
    struct StdoutToStderr(#[cfg_attr(not(target_os = "linux"), allow(dead_code))] Option<i32>);

    impl StdoutToStderr {
        fn new() -> Self {
            use std::io::Write;
            let _ = std::io::stdout().flush();
            #[cfg(target_os = "linux")]
            {
                // SAFETY: plain descriptor calls on the process's own
                // standard descriptors; a failed dup leaves stdout alone.
                unsafe {
                    let saved = libc::dup(1);
                    if saved >= 0 && libc::dup2(2, 1) >= 0 {
                        return StdoutToStderr(Some(saved));
                    }
                    if saved >= 0 {
                        libc::close(saved);
                    }
                }
            }
            StdoutToStderr(None)
        }
    }

    impl Drop for StdoutToStderr {
        fn drop(&mut self) {
            use std::io::Write;
            let _ = std::io::stdout().flush();
            #[cfg(target_os = "linux")]
            if let Some(saved) = self.0.take() {
                // SAFETY: `saved` is the descriptor `new` duplicated from
                // stdout; it is put back and closed once.
                unsafe {
                    libc::dup2(saved, 1);
                    libc::close(saved);
                }
            }
        }
    }

    /// Panic messages of timely's threads, kept out of the terminal: when
    /// a peer goes away, timely's network threads panic, and so do the
    /// workers and the guards that join them. The search turns them into
    /// one [`SearchError::Cluster`].
    fn lost_messages() -> std::sync::MutexGuard<'static, Vec<String>> {
        static LOST: Mutex<Vec<String>> = Mutex::new(Vec::new());
        LOST.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Install, once a process, a panic hook that keeps timely's panics in
    /// [`lost_messages`] and hands every other panic to the hook before it.
    /// It stays: threads that timely leaves behind after a failure may
    /// panic later still.
    fn quiet_timely_panics() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let before = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                // Timely's threads, and its guards dropped on this one.
                let timely = std::thread::current()
                    .name()
                    .is_some_and(|n| n.starts_with("timely"))
                    || info.location().is_some_and(|l| l.file().contains("timely"));
                if !timely {
                    return before(info);
                }
                let text = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                lost_messages().push(text);
            }));
        });
    }

    /// Run the forward pass of `board` on the cluster, this process being
    /// `cluster.process`: the answer (every process computes it) and the
    /// traffic, or the error that stopped the cluster.
    pub(in crate::search::exact) fn solve(
        board: &Board,
        rules: Rules,
        plan: Plan,
        opts: &SolveOptions,
        cluster: &Cluster,
        pool: crate::search::control::Pool,
    ) -> Result<(crate::search::exact::Solution, Traffic), SearchError> {
        let config = timely::Config {
            communication: if cluster.processes() == 1 && cluster.workers == 1 {
                timely::CommunicationConfig::Thread
            } else if cluster.processes() == 1 {
                timely::CommunicationConfig::Process(cluster.workers)
            } else {
                timely::CommunicationConfig::Cluster {
                    threads: cluster.workers,
                    process: cluster.process,
                    addresses: cluster.addresses.clone(),
                    report: false,
                    zerocopy: false,
                }
            },
            worker: timely::WorkerConfig::default(),
        };
        // The cancel flag and the progress callback belong to the caller's
        // thread; the workers get a flag of their own, raised from here, and
        // send progress back over a channel.
        let cancel = Arc::new(AtomicBool::new(false));
        let (tell, heard) = mpsc::channel::<Progress>();
        let pool = Arc::new(pool);
        let (board, seconds) = (*board, opts.seconds);
        let max_memory = opts.max_memory;
        let spill = opts.spill.map(|dir| {
            (
                dir.to_path_buf(),
                opts.spill_buffer.unwrap_or(opts.max_memory / 3),
                opts.max_disk,
            )
        });
        let (workers, first_worker) = (cluster.workers, cluster.process * cluster.workers);
        quiet_timely_panics();
        lost_messages().clear();
        let worker_cancel = Arc::clone(&cancel);
        let started = std::time::Instant::now();
        // Timely prints "awaiting connections" on stdout while the
        // processes connect, which would spoil a JSON answer there.
        let to_stderr = StdoutToStderr::new();
        let guards = timely::execute(config, move |worker| {
            let is_first = worker.index() == first_worker;
            let tell = is_first.then(|| tell.clone());
            let stop = Stop::new(Some(&worker_cancel), seconds);
            let run = Shared {
                pool: &pool,
                stop: &stop,
                max_memory,
                workers,
                tell: tell.as_ref(),
                spill: spill.as_ref().map(|(d, b, m)| (d.as_path(), *b, *m)),
            };
            let bits = crate::search::exact::key::bits_needed(
                board.stones_in_pits(),
                2 * board.pits_per_side(),
            );
            let narrow = 2 * board.pits_per_side() < 16;
            match (bits, narrow) {
                (0..=64, true) => run.counts::<u64, u64, 2>(&board, rules, plan, worker),
                (0..=64, false) => run.counts::<u64, u64, 5>(&board, rules, plan, worker),
                (65..=128, true) => run.counts::<u128, u64, 2>(&board, rules, plan, worker),
                (65..=128, false) => run.counts::<u128, u64, 5>(&board, rules, plan, worker),
                _ => Err(Fail::KeyTooWide(bits)),
            }
        });
        drop(to_stderr);
        let result = match guards {
            Err(e) => {
                return Err(SearchError::ClusterSetup {
                    message: format!("cannot start the cluster: {e}"),
                });
            }
            Ok(guards) => {
                // Relay progress and the caller's cancel flag until the workers end.
                let stop = Stop::new(opts.cancel, None);
                loop {
                    match heard.recv_timeout(std::time::Duration::from_millis(100)) {
                        Ok(p) => {
                            if let Some(report) = opts.progress {
                                report(&p);
                            }
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                    if stop.cause().is_some() {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
                // Dropping the guards joins the network threads, which panic
                // again when a peer is gone.
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || guards.join()))
            }
        };
        let lost_text = || {
            let texts = lost_messages();
            texts
                .iter()
                .find(|t| t.contains("communication error"))
                .or(texts.first())
                .cloned()
                .unwrap_or_else(|| "a worker thread ended".into())
        };
        let mine = match result {
            Ok(results) => results
                .into_iter()
                .next()
                .expect("every process has a worker"),
            Err(_) => Err(String::new()),
        };
        let outcome = match mine {
            Ok(outcome) => outcome,
            Err(_) => {
                return Err(SearchError::Cluster {
                    message: format!(
                        "process {} of {}: the cluster stopped after {:.1} s: {}; another process has probably stopped or lost its network (see its own message)",
                        cluster.process,
                        cluster.processes(),
                        started.elapsed().as_secs_f64(),
                        lost_text()
                    ),
                })
            }
        };
        outcome.map_err(|fail| crate::search::exact::search_error(fail, &board, rules, opts))
    }

    /// What every worker of a process shares for the run.
    struct Shared<'a> {
        pool: &'a crate::search::control::Pool,
        stop: &'a Stop<'a>,
        max_memory: u64,
        /// Timely workers in each process: timely numbers them process by
        /// process, so worker `w` is in process `w / workers`.
        workers: usize,
        /// Progress goes back to the caller from the process's first worker.
        tell: Option<&'a mpsc::Sender<Progress>>,
        /// `--spill DIR`, the buffer's bytes and `--max-disk`: each worker
        /// keeps its share in `DIR/worker-I-of-N`, with a checkpoint after
        /// every round.
        spill: Option<(&'a Path, u64, u64)>,
    }

    /// A worker's share of the frontier: in memory, or on disk.
    enum Share<K, C> {
        Memory(Frontier<K, C>),
        Disk(Spill<K, C>),
    }

    impl<K: Key, C: Count> Share<K, C> {
        fn push(&mut self, store: usize, run: Run<K, C>) {
            match self {
                Share::Memory(f) => f.push(store, run),
                Share::Disk(s) => s.push(store, run),
            }
        }
    }

    /// The error of a worker whose own spill store is fine when another's failed.
    fn other_failed(dir: &Path) -> SpillFail {
        SpillFail::Io {
            action: "go on with",
            path: dir.to_path_buf(),
            source: std::io::Error::other(
                "another worker's spill directory failed; see its process's message",
            ),
        }
    }

    /// A worker's result: the answer and the traffic, or why it stopped.
    type Outcome = Result<(crate::search::exact::Solution, Traffic), Fail>;

    impl Shared<'_> {
        /// The search with `C0` (`u64`) path counts, and again with `u128` when
        /// one overflows: every worker learns of an overflow in the same
        /// round (from the summaries), so all start again together, on a
        /// new dataflow.
        fn counts<K: Key, C0: Count, const W: usize>(
            &self,
            board: &Board,
            rules: Rules,
            plan: Plan,
            worker: &mut timely::worker::Worker,
        ) -> Outcome {
            match self.go(Search::<K, C0, W>::new(board, rules, plan), worker) {
                Err(Fail::Overflow) => {
                    self.go(Search::<K, u128, W>::new(board, rules, plan), worker)
                }
                other => other,
            }
        }

        /// Build the dataflow on `worker` and run the search's rounds.
        fn go<K: Key, C: Count, const W: usize>(
            &self,
            search: Search<K, C, W>,
            worker: &mut timely::worker::Worker,
        ) -> Outcome {
            use std::cell::RefCell;
            use std::rc::Rc;
            use timely::container::CapacityContainerBuilder;
            use timely::dataflow::channels::pact::{Exchange, Pipeline};
            use timely::dataflow::operators::generic::Operator;
            use timely::dataflow::operators::vec::Broadcast;
            use timely::dataflow::operators::{Input, Probe};
            use timely::dataflow::{InputHandle, ProbeHandle};

            let (me, peers) = (worker.index(), worker.peers());
            // This worker's share, and the checkpoint it resumes from.
            let mut failure: Option<SpillFail> = None;
            let mut checkpoint = None;
            let mut dir = None;
            let share = match self.spill {
                None => Share::Memory(Frontier::<K, C>::new(search.max_store)),
                Some((root, buffer, max_disk)) => {
                    let path = root.join(format!("worker-{me}-of-{peers}"));
                    dir = Some(path.clone());
                    let identity = format!("{}; worker {me} of {peers}", search.identity());
                    match Spill::open(&path, identity, search.shifts.clone(), buffer, max_disk) {
                        Ok((spill, cp)) => {
                            checkpoint = cp;
                            Share::Disk(spill)
                        }
                        Err(e) => {
                            failure = Some(e);
                            Share::Memory(Frontier::new(search.max_store))
                        }
                    }
                }
            };
            let share = Rc::new(RefCell::new(share));
            let heard = Rc::new(RefCell::new(Vec::<Summary>::new()));
            let damaged = Rc::new(RefCell::new(false));
            let mut batches = InputHandle::<u64, CapacityContainerBuilder<Vec<Batch>>>::new();
            let mut summaries = InputHandle::<u64, CapacityContainerBuilder<Vec<Summary>>>::new();
            let probe = ProbeHandle::new();
            worker.dataflow::<u64, _, _>(|scope| {
                let (share, damaged) = (Rc::clone(&share), Rc::clone(&damaged));
                let shifts = search.shifts.clone();
                scope
                    .input_from(&mut batches)
                    .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                        Exchange::new(|b: &Batch| b.0 as u64),
                        "Receive",
                        move |_, _| {
                            move |input, _output| {
                                input.for_each(|_time, data| {
                                    for (_, store, bytes) in data.drain(..) {
                                        let store = store as usize;
                                        match decode::<K, C>(&bytes) {
                                            Some(entries) if store < shifts.len() => share
                                                .borrow_mut()
                                                .push(store, Run::new(entries, shifts[store])),
                                            _ => *damaged.borrow_mut() = true,
                                        }
                                    }
                                });
                            }
                        },
                    )
                    .probe_with(&probe);
                let heard = Rc::clone(&heard);
                scope
                    .input_from(&mut summaries)
                    .broadcast()
                    .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                        Pipeline,
                        "Hear",
                        move |_, _| {
                            move |input, _output| {
                                input.for_each(|_time, data| {
                                    heard.borrow_mut().extend(data.drain(..))
                                });
                            }
                        },
                    )
                    .probe_with(&probe);
            });

            let blank = |time: u64| Summary {
                round: time,
                worker: me as u64,
                positions: 0,
                ended: vec![0; search.max_store + 1],
                stop: 0,
                seconds: 0.0,
                memory: false,
                overflow: false,
                resident: crate::search::memory::resident_bytes().unwrap_or(0),
                sent: (0, 0, 0),
                resume: None,
                failed: false,
            };
            // End the round at `time`: advance the inputs past it, work
            // until nothing sent at it is in flight anywhere, and return
            // every worker's summary of it. (A faster worker's summary of
            // the next round may be here already: it passed this round's
            // end before this worker.)
            let round = |time: u64,
                         batches: &mut InputHandle<u64, _>,
                         summaries: &mut InputHandle<u64, _>,
                         worker: &mut timely::worker::Worker| {
                batches.advance_to(time + 1);
                summaries.advance_to(time + 1);
                while probe.less_than(&(time + 1)) {
                    worker.step_or_park(Some(std::time::Duration::from_millis(50)));
                }
                let mut heard = heard.borrow_mut();
                let (this, later): (Vec<Summary>, _) =
                    heard.drain(..).partition(|s| s.round == time);
                *heard = later;
                assert_eq!(this.len(), peers, "one summary a worker a round");
                this
            };
            let spill_fail = |failure: &mut Option<SpillFail>, p: Progress| match failure.take() {
                Some(e) => Fail::Spill(e, Box::new(p)),
                None => Fail::Spill(
                    other_failed(dir.as_deref().unwrap_or(Path::new("."))),
                    Box::new(p),
                ),
            };
            let best = |ended: &[u128]| ended.iter().rposition(|&c| c > 0).map(|b| b as u32);
            let progress = |store: usize, positions: u64, ended: &[u128], memory: u64| Progress {
                phase: Phase::Forward,
                store,
                max_store: search.max_store,
                positions,
                memory,
                best: best(ended),
                within: None,
                disk: None,
                left: None,
            };

            // Round 0: the workers agree where to start. A search starts at
            // the start position's bucket; a spilled one resumes after the
            // last bucket that every worker checkpointed (they checkpoint
            // together, so they differ only after a stop in the middle of
            // writing them).
            let mut time = 0u64;
            let mut summary = blank(time);
            summary.resume = checkpoint.as_ref().map(|cp| cp.next_store as u64);
            summary.failed = failure.is_some();
            summaries.send(summary);
            let all = round(time, &mut batches, &mut summaries, worker);
            time += 1;
            let first = search.start.store() as usize;
            if all.iter().any(|s| s.failed) {
                return Err(spill_fail(&mut failure, progress(first, 0, &[], 0)));
            }
            let mut ended = vec![0u128; search.max_store + 1];
            let mut by_store = vec![0u64; search.max_store + 1];
            let mut seconds = 0.0;
            let first = match (all[0].resume, &checkpoint) {
                _ if all.iter().any(|s| s.resume != all[0].resume) => {
                    return Err(Fail::Spill(
                        SpillFail::Foreign {
                            path: dir.clone().unwrap_or_default(),
                            reason: format!(
                                "the workers' checkpoints are of different buckets ({}): a process stopped while they were written; remove the directory to start over",
                                all.iter().map(|s| s.resume.map_or("none".into(), |r| r.to_string())).collect::<Vec<_>>().join(", ")
                            ),
                        },
                        Box::new(progress(first, 0, &[], 0)),
                    ));
                }
                (Some(_), Some(cp)) => {
                    by_store.copy_from_slice(&cp.positions_by_store);
                    ended = cp.ended().expect("checked on open");
                    seconds = cp.seconds;
                    cp.next_store
                }
                _ => {
                    // A fresh search: the start position, to its owner.
                    if me == 0 {
                        let key = K::encode(search.start.ring(), search.n);
                        let mut bytes = Vec::new();
                        encode([(key, C::ONE)].iter(), &mut bytes);
                        batches.send((owner(key.to_u128(), peers) as u32, first as u32, bytes));
                    }
                    summaries.send(blank(time));
                    round(time, &mut batches, &mut summaries, worker);
                    time += 1;
                    first
                }
            };
            let mut traffic = Traffic::default();
            let process_of = |w: usize| w / self.workers;
            for store in first..=search.max_store {
                let round_began = std::time::Instant::now();
                // This worker's share of the bucket, expanded a wave at a
                // time on disk, at once in memory.
                let mut summary = blank(time);
                summary.overflow = *damaged.borrow();
                let mut taking = None;
                loop {
                    let wave = match &mut *share.borrow_mut() {
                        Share::Memory(f) => {
                            if summary.positions > 0 || summary.overflow {
                                None
                            } else {
                                match self.pool.install(|| f.take(store)) {
                                    Ok(nodes) => Some(nodes),
                                    Err(_) => {
                                        summary.overflow = true;
                                        None
                                    }
                                }
                            }
                        }
                        Share::Disk(spill) => {
                            if taking.is_none() {
                                match spill.take(store) {
                                    Ok(t) => taking = Some(t),
                                    Err(e) => failure = Some(e),
                                }
                            }
                            let (_, buffer, _) = self.spill.expect("on disk");
                            match taking.as_mut().map(|t| {
                                self.pool.install(|| {
                                    t.next_wave::<K, C>(wave_entries(
                                        buffer,
                                        size_of::<Entry<K, C>>(),
                                    ))
                                })
                            }) {
                                Some(Ok(Some((nodes, _)))) => Some(nodes),
                                Some(Err(e)) => {
                                    failure = Some(e);
                                    None
                                }
                                _ => None,
                            }
                        }
                    };
                    let Some(nodes) = wave.filter(|n| !n.is_empty()) else {
                        break;
                    };
                    summary.positions += nodes.len() as u64;
                    let expanded = self
                        .pool
                        .install(|| search.expand_bucket(&nodes, store, self.stop, None));
                    drop(nodes);
                    let send = |to: usize, s: usize, bytes: Vec<u8>, summary: &mut Summary| {
                        summary.sent.0 += bytes.len() as u64;
                        if process_of(to) != process_of(me) {
                            summary.sent.1 += bytes.len() as u64;
                        }
                        batches.send((to as u32, s as u32, bytes));
                    };
                    self.route(&search, expanded, (me, peers), &share, &mut summary, send);
                    if let Share::Disk(spill) = &mut *share.borrow_mut() {
                        if let Err(e) = spill.relieve() {
                            failure = Some(e);
                        }
                    }
                    if failure.is_some() || self.stop.cause().is_some() {
                        break;
                    }
                    // Take in what the others sent meanwhile.
                    worker.step();
                }
                match self.stop.cause() {
                    Some(StopCause::Cancelled) => summary.stop = 1,
                    Some(StopCause::Deadline { seconds }) => {
                        summary.stop = 2;
                        summary.seconds = seconds;
                    }
                    None => {}
                }
                summary.failed = failure.is_some();
                summary.resident = crate::search::memory::resident_bytes().unwrap_or(0);
                summary.memory = summary.resident > self.max_memory;
                summaries.send(summary);
                let all = round(time, &mut batches, &mut summaries, worker);
                time += 1;
                let positions_before: u64 = by_store.iter().sum();
                let mut resident = 0;
                for s in &all {
                    by_store[store] += s.positions;
                    for (total, &c) in ended.iter_mut().zip(&s.ended) {
                        *total = total.checked_add(c).ok_or(Fail::Overflow)?;
                    }
                    traffic.sent += s.sent.0;
                    traffic.between_processes += s.sent.1;
                    traffic.entries += s.sent.2;
                    if process_of(s.worker as usize) == process_of(me) {
                        traffic.positions_here += s.positions;
                    }
                    resident = resident.max(s.resident);
                }
                let positions: u64 = by_store.iter().sum();
                if all.iter().any(|s| s.overflow) {
                    return Err(Fail::Overflow);
                }
                if all.iter().any(|s| s.failed) {
                    let p = progress(store, positions_before, &ended, resident);
                    return Err(spill_fail(&mut failure, p));
                }
                if let Some(s) = all.iter().find(|s| s.stop > 0) {
                    let cause = match s.stop {
                        1 => StopCause::Cancelled,
                        _ => StopCause::Deadline { seconds: s.seconds },
                    };
                    // The bucket may be cut short: report the one before.
                    let p = progress(store, positions_before, &ended, resident);
                    return Err(Fail::Stopped(cause, Box::new(p)));
                }
                if all.iter().any(|s| s.memory) {
                    let p = progress(store, positions, &ended, resident);
                    return Err(Fail::Memory(Box::new(p)));
                }
                // Every worker finished the round: each records it.
                if let (Share::Disk(spill), Some(taken)) = (&mut *share.borrow_mut(), taking) {
                    seconds += round_began.elapsed().as_secs_f64();
                    let done = store == search.max_store;
                    if let Err(e) =
                        spill.checkpoint(taken, store + 1, &by_store, &ended, seconds, done)
                    {
                        // The others learn of it in the next round, or not
                        // at all after the last: this worker fails alone.
                        let p = progress(store, positions, &ended, resident);
                        return Err(Fail::Spill(e, Box::new(p)));
                    }
                }
                if let Some(tell) = self.tell {
                    // The caller may have gone (its own error); nothing to do then.
                    let _ = tell.send(Progress {
                        left: search.left(&by_store, store, None),
                        ..progress(store, positions, &ended, resident)
                    });
                }
            }
            let levels = (0..=search.max_store).map(|_| Level::default()).collect();
            let counted = Counted::new(ended, by_store, levels)?;
            Ok((search.solution(counted, Vec::new()), traffic))
        }

        /// Send the successors of `expanded` to their owners: this worker's
        /// own go straight to its share; the others' are gathered by owner
        /// in frontiers of their own, whose take sorts and merges them the
        /// usual way, and handed to `send(worker, bucket, coded bytes)`.
        fn route<K: Key, C: Count, const W: usize>(
            &self,
            search: &Search<K, C, W>,
            expanded: Vec<Expanded<K, C>>,
            (me, peers): (usize, usize),
            share: &std::cell::RefCell<Share<K, C>>,
            summary: &mut Summary,
            mut send: impl FnMut(usize, usize, Vec<u8>, &mut Summary),
        ) {
            let mut outgoing: Vec<Option<Frontier<K, C>>> = (0..peers)
                .map(|w| (w != me).then(|| Frontier::new(search.max_store)))
                .collect();
            for chunk in expanded {
                summary.overflow |= chunk.overflow;
                for (total, c) in summary.ended.iter_mut().zip(chunk.ended) {
                    match total.checked_add(c) {
                        Some(t) => *total = t,
                        None => summary.overflow = true,
                    }
                }
                for (s, run) in chunk.runs {
                    if peers == 1 {
                        share.borrow_mut().push(s, run);
                        continue;
                    }
                    let mut split: Vec<Vec<Entry<K, C>>> = vec![Vec::new(); peers];
                    for &e in run.entries() {
                        split[owner(e.0.to_u128(), peers)].push(e);
                    }
                    for (to, entries) in split.into_iter().enumerate() {
                        let run = Run::new(entries, search.shifts[s]);
                        match &mut outgoing[to] {
                            _ if run.entries().is_empty() => {}
                            None => share.borrow_mut().push(s, run),
                            Some(out) => out.push(s, run),
                        }
                    }
                }
            }
            for (to, out) in outgoing.iter_mut().enumerate() {
                let Some(out) = out else { continue };
                for s in out.pending_buckets() {
                    let Ok(nodes) = self.pool.install(|| out.take(s)) else {
                        summary.overflow = true;
                        continue;
                    };
                    let mut bytes = Vec::with_capacity(nodes.len() * 4);
                    encode(nodes.iter(), &mut bytes);
                    summary.sent.2 += nodes.len() as u64;
                    send(to, s, bytes, summary);
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::search::exact::Listing;
        use crate::search::kernel::KernelChoice;

        /// A count type that overflows (`u8`, from the search's own
        /// tests) makes every worker start again with `u128` counts, on a
        /// new dataflow, together; the answer is the one in memory.
        #[test]
        fn an_overflow_restarts_every_worker_with_u128_counts() {
            // Any-hole 2x6x3 has positions reached by hundreds of sequences.
            let board = Board::uniform(6, 3).unwrap();
            let rules = Rules::ANY_HOLE;
            let opts = SolveOptions {
                listing: Listing::Limit(0),
                ..Default::default()
            };
            let want = crate::search::exact::solve(&board, rules, &opts).unwrap();
            let plan = crate::search::kernel::plan(6, 47, KernelChoice::Auto);
            let guards = timely::execute(timely::Config::process(2), move |worker| {
                let pool = crate::search::control::Pool(Some(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .unwrap(),
                ));
                let cancel = AtomicBool::new(false);
                let stop = Stop::new(Some(&cancel), None);
                let shared = Shared {
                    pool: &pool,
                    stop: &stop,
                    max_memory: u64::MAX,
                    workers: 2,
                    tell: None,
                    spill: None,
                };
                shared
                    .counts::<u64, u8, 2>(&board, rules, plan, worker)
                    .map(|(s, _)| s)
                    .map_err(|e| format!("{e:?}"))
            })
            .unwrap();
            let answers = guards.join();
            assert_eq!(answers.len(), 2);
            for answer in answers {
                let got = answer.unwrap().unwrap();
                assert_eq!(got.turns_by_store, want.turns_by_store);
                assert_eq!(got.positions_by_store, want.positions_by_store);
                assert_eq!(
                    (got.best_store, got.optimal_count),
                    (want.best_store, want.optimal_count)
                );
            }
            // And u8 counts alone do overflow on this board (so the
            // restart above was taken).
            let small = Search::<u64, u8, 2>::new(&board, rules, plan);
            let stop = Stop::default();
            assert!(matches!(small.run(&opts, &stop), Err(Fail::Overflow)));
        }
    }
}
