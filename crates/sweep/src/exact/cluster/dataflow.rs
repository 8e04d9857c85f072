//! The search on timely-dataflow (the `cluster` feature): the workers'
//! steps, their exchange of successors and summaries, and the setup and
//! failures of timely itself. See the parent module for how it works.

use super::quiet::{lost_messages, quiet_timely_panics, StdoutToStderr};
use super::share::{ShareStore, Trouble};
use super::{Cluster, Traffic};
use crate::control::Stop;
use crate::error::{SearchError, StopCause};
use crate::exact::counts::ForwardCounts;
use crate::exact::forward::Expanded;
use crate::exact::key::Key;
use crate::exact::steps::{At, Peers};
use crate::exact::store::disk::{Checkpoint, Spill};
use crate::exact::store::memory::{Count, Frontier, Run};
use crate::exact::store::SpillFail;
use crate::exact::store::{Entry, Store};
use crate::exact::{Fail, Progress, Search, SweepOptions};
use crate::kernel::Plan;
use rules::{Board, Rules};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{Exchange, Pipeline};
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

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

/// One worker's account of a step, broadcast to every worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Summary {
    /// The step, as the timely time it was sent at.
    step: u64,
    /// The worker that sent it.
    worker: u64,
    /// Positions this worker expanded in the step.
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
    /// Traffic sent this step: all, to other processes, entries.
    sent: (u64, u64, u64),
    /// In the first step: the bucket this worker's checkpoint resumes at.
    resume: Option<u64>,
    /// This worker's spill store failed (its own error is kept).
    failed: bool,
}

/// Code sorted, deduplicated `entries` as LEB128 key gaps and counts.
fn encode<'a, K: Key, C: Count>(entries: impl Iterator<Item = &'a Entry<K, C>>, out: &mut Vec<u8>) {
    let mut prev = 0u128;
    for &(key, count) in entries {
        crate::exact::store::disk::put_varint(out, key.to_u128() - prev);
        crate::exact::store::disk::put_varint(out, count.into());
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
        key = key.checked_add(crate::exact::store::disk::get_varint(bytes, &mut at)?)?;
        let count = crate::exact::store::disk::get_varint(bytes, &mut at)?;
        out.push((K::from_u128(key), C::from_u128(count)?));
    }
    Some(out)
}

/// Run the forward pass of `board` on the cluster, this process being
/// `cluster.process`: the answer (every process computes it) and the
/// traffic, or the error that stopped the cluster.
pub(in crate::exact) fn solve(
    board: &Board,
    rules: Rules,
    plan: Plan,
    opts: &SweepOptions,
    cluster: &Cluster,
    pool: crate::control::Pool,
) -> Result<(crate::exact::Solution, Traffic), SearchError> {
    let config = config(cluster);
    // The cancel flag and the progress callback belong to the caller's
    // thread; the workers get a flag of their own, raised from here, and
    // send progress back over a channel.
    let cancel = Arc::new(AtomicBool::new(false));
    let (tell, heard) = mpsc::channel::<Progress>();
    let pool = Arc::new(pool);
    let (board, seconds) = (*board, opts.seconds);
    let max_memory = opts.max_memory;
    // A process's workers share its memory guard: each one's buffer is
    // its share of the third that one spilling process gives its buffer.
    let buffer = opts
        .spill_buffer
        .unwrap_or(opts.max_memory / 3 / cluster.workers.max(1) as u64);
    let spill = opts
        .spill
        .map(|dir| (dir.to_path_buf(), buffer, opts.max_disk));
    // Raised by any worker of this process that finds it over the guard
    // between the chunks of a wave; every worker of the process then
    // ends the step and says so in its summary.
    let over = Arc::new(AtomicBool::new(false));
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
        let stop =
            Stop::new(Some(&worker_cancel), seconds).with_memory_limit(max_memory, None, &over);
        let run = Shared {
            pool: &pool,
            stop: &stop,
            max_memory,
            workers,
            tell: tell.as_ref(),
            spill: spill.as_ref().map(|(d, b, m)| (d.as_path(), *b, *m)),
        };
        run.counts_sized(&board, rules, plan, worker)
    });
    drop(to_stderr);
    let result = match guards {
        Err(e) => {
            return Err(SearchError::ClusterSetup {
                message: format!("cannot start the cluster: {e}"),
            });
        }
        Ok(guards) => {
            relay(&heard, opts, &cancel);
            // Dropping the guards joins the network threads, which panic
            // again when a peer is gone.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || guards.join()))
        }
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
        Err(_) => return Err(cluster_lost(cluster, started)),
    };
    outcome.map_err(|fail| crate::exact::search_error(fail, &board, rules, opts))
}

/// The error for a cluster whose worker here ended without an answer
/// (its thread panicked, or a peer went away): a step of its own because
/// it reads the messages timely left, to name the likely cause.
fn cluster_lost(cluster: &Cluster, started: std::time::Instant) -> SearchError {
    let lost_text = || {
        let texts = lost_messages();
        texts
            .iter()
            .find(|t| t.contains("communication error"))
            .or(texts.first())
            .cloned()
            .unwrap_or_else(|| "a worker thread ended".into())
    };
    SearchError::Cluster {
        message: format!(
            "process {} of {}: the cluster stopped after {:.1} s: {}; another process has probably stopped or lost its network (see its own message)",
            cluster.process,
            cluster.processes(),
            started.elapsed().as_secs_f64(),
            lost_text()
        ),
    }
}

/// Timely's configuration for `cluster`: one thread, the threads of one
/// process, or processes that connect over the network.
fn config(cluster: &Cluster) -> timely::Config {
    timely::Config {
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
    }
}

/// On the caller's thread, until the workers end: pass the progress they
/// send on to the caller's callback, and the caller's cancel flag on to
/// theirs (`cancel`).
fn relay(heard: &mpsc::Receiver<Progress>, opts: &SweepOptions, cancel: &AtomicBool) {
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
}

/// What every worker of a process shares for the run.
struct Shared<'a> {
    pool: &'a crate::control::Pool,
    stop: &'a Stop<'a>,
    max_memory: u64,
    /// Timely workers in each process: timely numbers them process by
    /// process, so worker `w` is in process `w / workers`.
    workers: usize,
    /// Progress goes back to the caller from the process's first worker.
    tell: Option<&'a mpsc::Sender<Progress>>,
    /// `--spill DIR`, the buffer's bytes and `--max-disk`: each worker
    /// keeps its share in `DIR/worker-I-of-N`, with a checkpoint after
    /// every step.
    spill: Option<(&'a Path, u64, u64)>,
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
type Outcome = Result<(crate::exact::Solution, Traffic), Fail>;

/// A worker's share of the frontier, in memory or on disk: any
/// [`Store`], which the timely operator that receives batches fills.
type Share<S> = Rc<RefCell<S>>;

/// How a worker's store opened: the checkpoint it resumes from, or
/// why it could not open (the worker then takes part in the first
/// step with an empty store in memory, so that every worker learns
/// of the failure and all stop together), and its directory.
struct Opened {
    checkpoint: Option<Checkpoint>,
    failure: Option<SpillFail>,
    dir: Option<PathBuf>,
}

/// One worker's end of the dataflow: its share of the frontier, the
/// inputs it sends batches and summaries on, what it has heard, and
/// the step it is in.
struct Wire<S> {
    me: usize,
    peers: usize,
    share: Share<S>,
    heard: Rc<RefCell<Vec<Summary>>>,
    /// What went wrong in this worker's step, told to every worker at
    /// its end.
    trouble: Rc<RefCell<Trouble>>,
    batches: InputHandle<u64, CapacityContainerBuilder<Vec<Batch>>>,
    summaries: InputHandle<u64, CapacityContainerBuilder<Vec<Summary>>>,
    probe: ProbeHandle<u64>,
    /// The step, as the timely time its messages are sent at.
    time: u64,
}

impl<S: 'static> Wire<S> {
    /// Build the dataflow on `worker` around `share`: batches go to the
    /// worker that owns them (timely's exchange) and into its share;
    /// summaries go to every worker.
    fn new<K: Key, C: Count>(
        worker: &mut timely::worker::Worker,
        share: S,
        shifts: Vec<u32>,
    ) -> Self
    where
        S: Store<K, C>,
    {
        let share = Rc::new(RefCell::new(share));
        let heard = Rc::new(RefCell::new(Vec::<Summary>::new()));
        let trouble = Rc::new(RefCell::new(Trouble::default()));
        let mut batches = InputHandle::new();
        let mut summaries = InputHandle::new();
        let probe = ProbeHandle::new();
        worker.dataflow::<u64, _, _>(|scope| {
            let (share, trouble) = (Rc::clone(&share), Rc::clone(&trouble));
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
                                        _ => trouble.borrow_mut().overflow = true,
                                    }
                                    // What arrives counts against the
                                    // buffer's budget as what this
                                    // worker files does: at a step's
                                    // end all of it arrives at once.
                                    if let Err(e) = share.borrow_mut().relieve() {
                                        trouble.borrow_mut().failure.get_or_insert(e);
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
                            input.for_each(|_time, data| heard.borrow_mut().extend(data.drain(..)));
                        }
                    },
                )
                .probe_with(&probe);
        });
        Wire {
            me: worker.index(),
            peers: worker.peers(),
            share,
            heard,
            trouble,
            batches,
            summaries,
            probe,
            time: 0,
        }
    }

    /// An empty summary of this worker's current step.
    fn blank(&self, max_store: usize) -> Summary {
        Summary {
            step: self.time,
            worker: self.me as u64,
            positions: 0,
            ended: vec![0; max_store + 1],
            stop: 0,
            seconds: 0.0,
            memory: false,
            overflow: self.trouble.borrow().overflow,
            resident: crate::memory::resident_bytes().unwrap_or(0),
            sent: (0, 0, 0),
            resume: None,
            failed: false,
        }
    }

    /// End the step with this worker's `summary`: send it, advance
    /// the inputs past the step, work until nothing sent in it is in
    /// flight anywhere, and return every worker's summary of it. (A
    /// faster worker's summary of the next step may be here already:
    /// it passed this step's end before this worker.)
    fn meet(&mut self, summary: Summary, worker: &mut timely::worker::Worker) -> Vec<Summary> {
        let time = self.time;
        self.summaries.send(summary);
        self.batches.advance_to(time + 1);
        self.summaries.advance_to(time + 1);
        while self.probe.less_than(&(time + 1)) {
            worker.step_or_park(Some(std::time::Duration::from_millis(50)));
        }
        let mut heard = self.heard.borrow_mut();
        let (this, later): (Vec<Summary>, _) = heard.drain(..).partition(|s| s.step == time);
        *heard = later;
        assert_eq!(this.len(), self.peers, "one summary a worker a step");
        self.time += 1;
        this
    }
}

impl Shared<'_> {
    /// This worker's search with the narrowest keys that hold `board`'s
    /// positions and its ring packed in as few words as its size needs:
    /// the choice made once, a step of its own, before the generic search.
    fn counts_sized(
        &self,
        board: &Board,
        rules: Rules,
        plan: Plan,
        worker: &mut timely::worker::Worker,
    ) -> Outcome {
        let bits =
            crate::exact::key::bits_needed(board.stones_in_pits(), 2 * board.pits_per_side());
        let narrow = 2 * board.pits_per_side() < 16;
        match (bits, narrow) {
            (0..=64, true) => self.counts::<u64, u64, 2>(board, rules, plan, worker),
            (0..=64, false) => self.counts::<u64, u64, 5>(board, rules, plan, worker),
            (65..=128, true) => self.counts::<u128, u64, 2>(board, rules, plan, worker),
            (65..=128, false) => self.counts::<u128, u64, 5>(board, rules, plan, worker),
            _ => Err(Fail::KeyTooWide(bits)),
        }
    }

    /// The search with `C0` (`u64`) path counts, and again with `u128` when
    /// one overflows: every worker learns of an overflow in the same
    /// step (from the summaries), so all start again together, on a
    /// new dataflow.
    fn counts<K: Key, C0: Count, const W: usize>(
        &self,
        board: &Board,
        rules: Rules,
        plan: Plan,
        worker: &mut timely::worker::Worker,
    ) -> Outcome {
        match self.go(Search::<K, C0, W>::new(board, rules, plan), worker) {
            Err(Fail::Overflow) => self.go(Search::<K, u128, W>::new(board, rules, plan), worker),
            other => other,
        }
    }

    /// Open this worker's share of the frontier (in memory, or on disk
    /// in `DIR/worker-I-of-N`) and run the search's steps on it.
    fn go<K: Key, C: Count, const W: usize>(
        &self,
        search: Search<K, C, W>,
        worker: &mut timely::worker::Worker,
    ) -> Outcome {
        let (me, peers) = (worker.index(), worker.peers());
        let memory = || Frontier::<K, C>::new(search.max_store);
        let Some((root, buffer, max_disk)) = self.spill else {
            let opened = Opened {
                checkpoint: None,
                failure: None,
                dir: None,
            };
            return self.steps(&search, memory(), opened, worker);
        };
        let path = root.join(format!("worker-{me}-of-{peers}"));
        let identity = format!("{}; worker {me} of {peers}", search.identity());
        let opened = |checkpoint, failure| Opened {
            checkpoint,
            failure,
            dir: Some(path.clone()),
        };
        match Spill::open(&path, identity, search.shifts.clone(), buffer, max_disk) {
            Ok((spill, cp)) => self.steps(&search, spill, opened(cp, None), worker),
            Err(e) => self.steps(&search, memory(), opened(None, Some(e)), worker),
        }
    }

    /// Build the dataflow around `share` and run the search's steps:
    /// the first, in which the workers agree where to start, then one
    /// a bucket, run by the search's own step driver
    /// ([`Search::count`]) with this worker's exchange as its peers
    /// ([`Among`]).
    fn steps<K: Key, C: Count, const W: usize, S>(
        &self,
        search: &Search<K, C, W>,
        share: S,
        opened: Opened,
        worker: &mut timely::worker::Worker,
    ) -> Outcome
    where
        S: Store<K, C> + Send + 'static,
        S::Taking: Send,
    {
        let mut wire = Wire::new(worker, share, search.shifts.clone());
        let Opened {
            checkpoint,
            failure,
            dir,
        } = opened;
        wire.trouble.borrow_mut().failure = failure;
        let agreed = self.agree(search, &mut wire, checkpoint, dir.as_deref(), worker);
        let tally = match agreed {
            Ok(tally) => tally,
            Err(Some(e)) => return Err(e),
            Err(None) => {
                let p =
                    Progress::forward(search.start.store() as usize, search.max_store, 0, &[], 0);
                return Err(wire.spill_fail(dir.as_deref(), p));
            }
        };
        let mut share = ShareStore {
            share: Rc::clone(&wire.share),
            trouble: Rc::clone(&wire.trouble),
            pool: self.pool,
        };
        let mut among = Among {
            shared: self,
            wire: &mut wire,
            worker,
            dir: dir.as_deref(),
            traffic: Traffic::default(),
            sent: (0, 0, 0),
        };
        // The worker's own options: its progress goes back over a
        // channel (`Among::report`) and its stop and memory are settled
        // in each step's meeting, not by the guards of a search alone.
        let opts = SweepOptions::default();
        let counted = search.count(&mut share, tally, false, &opts, self.stop, &mut among)?;
        let traffic = among.traffic;
        Ok((search.solution(counted, Vec::new()), traffic))
    }

    /// Add every worker's summary `all` of bucket `store` to `tally`
    /// and `traffic` (seen from worker `me`): the most memory any
    /// worker's process holds.
    fn sum(
        &self,
        all: &[Summary],
        (store, me): (usize, usize),
        tally: &mut ForwardCounts,
        traffic: &mut Traffic,
    ) -> Result<u64, Fail> {
        let process_of = |w: usize| w / self.workers;
        let mut resident = 0;
        for s in all {
            tally.by_store[store] += s.positions;
            for (total, &c) in tally.ended.iter_mut().zip(&s.ended) {
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
        Ok(resident)
    }

    /// Step 0: the workers agree where to start. A search starts at
    /// the start position's bucket (its first step sends the start
    /// position to its owner); a spilled one resumes after the last
    /// bucket that every worker checkpointed (they checkpoint together,
    /// so they differ only after a stop in the middle of writing them).
    /// `Err(None)` when some worker's store failed to open.
    fn agree<K: Key, C: Count, const W: usize, S: Store<K, C> + 'static>(
        &self,
        search: &Search<K, C, W>,
        wire: &mut Wire<S>,
        checkpoint: Option<Checkpoint>,
        dir: Option<&Path>,
        worker: &mut timely::worker::Worker,
    ) -> Result<ForwardCounts, Option<Fail>> {
        let mut summary = wire.blank(search.max_store);
        summary.resume = checkpoint.as_ref().map(|cp| cp.next_store as u64);
        summary.failed = wire.trouble.borrow().failure.is_some();
        let all = wire.meet(summary, worker);
        let first = search.start.store() as usize;
        if all.iter().any(|s| s.failed) {
            return Err(None);
        }
        let mut tally = ForwardCounts::fresh(first, search.max_store);
        match (all[0].resume, checkpoint) {
            _ if all.iter().any(|s| s.resume != all[0].resume) => {
                let at = Progress::forward(first, search.max_store, 0, &[], 0);
                return Err(Some(Fail::Spill(
                    SpillFail::Foreign {
                        path: dir.map(Path::to_path_buf).unwrap_or_default(),
                        reason: format!(
                            "the workers' checkpoints are of different buckets ({}): a process stopped while they were written; remove the directory to start over",
                            all.iter().map(|s| s.resume.map_or("none".into(), |r| r.to_string())).collect::<Vec<_>>().join(", ")
                        ),
                    },
                    Box::new(at),
                )));
            }
            (Some(_), Some(cp)) => {
                tally.ended = cp.ended().expect("checked on open");
                tally.by_store = cp.positions_by_store;
                tally.seconds = cp.seconds;
                tally.next = cp.next_store;
            }
            _ => {
                if wire.me == 0 {
                    let key = K::encode(search.start.ring(), search.n);
                    let mut bytes = Vec::new();
                    encode([(key, C::ONE)].iter(), &mut bytes);
                    let to = owner(key.to_u128(), wire.peers) as u32;
                    wire.batches.send((to, first as u32, bytes));
                }
                let blank = wire.blank(search.max_store);
                wire.meet(blank, worker);
            }
        }
        Ok(tally)
    }
}

impl<S> Wire<S> {
    /// The error of a spill failure somewhere in the cluster: this
    /// worker's own, or one naming `dir` and the other worker.
    fn spill_fail(&self, dir: Option<&Path>, p: Progress) -> Fail {
        match self.trouble.borrow_mut().failure.take() {
            Some(e) => Fail::Spill(e, Box::new(p)),
            None => Fail::Spill(other_failed(dir.unwrap_or(Path::new("."))), Box::new(p)),
        }
    }
}

/// A worker among the cluster's: the exchange of successors and of the
/// step's summaries, as the step driver's [`Peers`].
struct Among<'a, 'w, S> {
    shared: &'a Shared<'a>,
    wire: &'w mut Wire<S>,
    worker: &'w mut timely::worker::Worker,
    /// The worker's spill directory, for the error when another's failed.
    dir: Option<&'a Path>,
    traffic: Traffic,
    /// Sent in this step: all bytes, bytes to other processes, entries.
    sent: (u64, u64, u64),
}

impl<K: Key, C: Count, const W: usize, S: 'static> Peers<K, C, W> for Among<'_, '_, S> {
    const ALONE: bool = false;

    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.shared.pool.install(f)
    }

    /// Send the successors of `expanded` to their owners: this worker's
    /// own go straight to its share; the others' are gathered by owner
    /// in frontiers of their own, whose take sorts and merges them the
    /// usual way, and sent coded, one batch an owner and bucket.
    fn file<F: Store<K, C>>(
        &mut self,
        search: &Search<K, C, W>,
        expanded: Vec<Expanded<K, C>>,
        frontier: &mut F,
        ended: &mut [u128],
    ) -> Result<u64, Fail> {
        let (me, peers) = (self.wire.me, self.wire.peers);
        let process_of = |w: usize| w / self.shared.workers;
        let mut overflow = false;
        let mut outgoing: Vec<Option<Frontier<K, C>>> = (0..peers)
            .map(|w| (w != me).then(|| Frontier::new(search.max_store)))
            .collect();
        let mut filed = 0;
        for chunk in expanded {
            overflow |= chunk.overflow;
            for (total, c) in ended.iter_mut().zip(chunk.ended) {
                match total.checked_add(c) {
                    Some(t) => *total = t,
                    None => overflow = true,
                }
            }
            for (s, run) in chunk.runs {
                filed += run.entries().len() as u64;
                if peers == 1 {
                    frontier.push(s, run);
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
                        None => frontier.push(s, run),
                        Some(out) => out.push(s, run),
                    }
                }
            }
        }
        for (to, out) in outgoing.iter_mut().enumerate() {
            let Some(out) = out else { continue };
            for s in out.pending_buckets() {
                let Ok(nodes) = self.shared.pool.install(|| out.take(s)) else {
                    overflow = true;
                    continue;
                };
                let mut bytes = Vec::with_capacity(nodes.len() * 4);
                encode(nodes.iter(), &mut bytes);
                self.sent.2 += nodes.len() as u64;
                self.sent.0 += bytes.len() as u64;
                if process_of(to) != process_of(me) {
                    self.sent.1 += bytes.len() as u64;
                }
                self.wire.batches.send((to as u32, s as u32, bytes));
            }
        }
        self.wire.trouble.borrow_mut().overflow |= overflow;
        Ok(filed)
    }

    /// Take in what the others sent meanwhile.
    fn between_waves(&mut self) {
        self.worker.step();
    }

    /// The step's meeting: this worker's summary of bucket `store` (its
    /// counts are `tally`'s beyond `before`'s) sent to all, every
    /// worker's summed into `tally`, and the stop that any of them asks
    /// for (an overflow, a failed store, Ctrl-C or a time budget, the
    /// memory guard) taken by all. The most memory any process holds.
    fn settle(
        &mut self,
        search: &Search<K, C, W>,
        store: usize,
        before: &ForwardCounts,
        tally: &mut ForwardCounts,
        _at: &At,
        stop: &Stop,
    ) -> Result<Option<u64>, Fail> {
        let mut summary = self.wire.blank(search.max_store);
        summary.positions = tally.positions() - before.positions();
        for ((mine, &total), &was) in summary
            .ended
            .iter_mut()
            .zip(&tally.ended)
            .zip(&before.ended)
        {
            *mine = total.wrapping_sub(was);
        }
        match stop.cause() {
            Some(StopCause::Cancelled) => summary.stop = 1,
            Some(StopCause::Deadline { seconds }) => {
                summary.stop = 2;
                summary.seconds = seconds;
            }
            None => {}
        }
        summary.failed = self.wire.trouble.borrow().failure.is_some();
        summary.memory = summary.resident > self.shared.max_memory || stop.memory_tripped();
        summary.sent = std::mem::take(&mut self.sent);
        let all = self.wire.meet(summary, self.worker);
        *tally = before.clone();
        let resident = self
            .shared
            .sum(&all, (store, self.wire.me), tally, &mut self.traffic)?;
        let progress = |positions| {
            Progress::forward(store, search.max_store, positions, &tally.ended, resident)
        };
        if all.iter().any(|s| s.overflow) {
            return Err(Fail::Overflow);
        }
        if all.iter().any(|s| s.failed) {
            return Err(self.wire.spill_fail(self.dir, progress(before.positions())));
        }
        if let Some(s) = all.iter().find(|s| s.stop > 0) {
            let cause = match s.stop {
                1 => StopCause::Cancelled,
                _ => StopCause::Deadline { seconds: s.seconds },
            };
            // The bucket may be cut short: report the one before.
            return Err(Fail::Stopped(cause, Box::new(progress(before.positions()))));
        }
        if all.iter().any(|s| s.memory) {
            return Err(Fail::Memory(Box::new(progress(tally.positions()))));
        }
        Ok(Some(resident))
    }

    /// The process's first worker sends the progress to the caller's thread.
    fn report(
        &mut self,
        _search: &Search<K, C, W>,
        progress: Progress,
        _opts: &SweepOptions,
        _stop: &Stop,
    ) -> Result<(), Fail> {
        if let Some(tell) = self.shared.tell {
            // The caller may have gone (its own error); nothing to do then.
            let _ = tell.send(progress);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Listing;
    use crate::kernel::KernelChoice;

    /// A count type that overflows (`u8`, from the search's own
    /// tests) makes every worker start again with `u128` counts, on a
    /// new dataflow, together; the answer is the one in memory.
    #[test]
    fn an_overflow_restarts_every_worker_with_u128_counts() {
        // Any-hole 2x6x3 has positions reached by hundreds of sequences.
        let board = Board::uniform(6, 3).unwrap();
        let rules = Rules::ANY_HOLE;
        let opts = SweepOptions {
            listing: Listing::Limit(0),
            ..Default::default()
        };
        let want = crate::exact::solve(&board, rules, &opts).unwrap();
        let plan = crate::kernel::plan(6, 47, KernelChoice::Auto);
        let guards = timely::execute(timely::Config::process(2), move |worker| {
            let pool = crate::control::Pool(Some(
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
