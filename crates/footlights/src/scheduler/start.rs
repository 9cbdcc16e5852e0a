//! Starting pool workers: as many at once as the process has CPUs, the rest when first
//! woken.
//!
//! A pool of more workers than CPUs (`FOOTLIGHTS_THREADS=8` on two cores) lets at most
//! as many workers as there are CPUs wake for shared work ([`super::park`], "As many
//! awake as there are CPUs"). The workers beyond that would start, look for work, find
//! none and park, taking the cores from the thread that spawns the first actors: in a run
//! of a few milliseconds, six threads' start-up is a large part of it. So the system
//! starts `min(threads, cpus)` workers when it is built, and the others *lazily*: each
//! begins life on the sleepers' list as if it had parked, with its run queue, stage and
//! parker already made (other workers may look at its empty deque, and its stage's inbox
//! takes pinned work from the start), and its thread is started the first time a waker
//! takes it off that list: for pinned work in its inbox, or for shared work once fewer
//! workers than CPUs are awake. With as many workers as CPUs or fewer, every worker
//! starts at once, as before.
//!
//! A lazily started thread takes its [`WorkerSeed`] (its deque and parker) from here when
//! it runs, so that a thread the operating system refuses leaves the seed in place: the
//! worker then goes back on the sleepers' list ([`super::park::Sleepers::relist`]) and a later
//! wake-up tries again. (A thread that starts with the system gets its seed moved in, as
//! before: if one is refused, building the system fails.) The threads started lazily are kept here for the system to join at shutdown;
//! none is started once the shutdown has begun.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;

use crate::sync::Mutex;

use super::{Scheduler, WorkerSeed};

/// What a pool worker's thread runs: its worker's loop, until shutdown (given by the
/// scheduler, so that this file need not know the worker).
pub(crate) type Entry = fn(Arc<Scheduler>, WorkerSeed);

/// The pool workers' seeds until their threads take them, and the lazily started threads.
pub(crate) struct Starter {
    /// The scheduler the workers belong to (which owns this starter).
    sched: Weak<Scheduler>,
    /// What each worker's thread runs.
    entry: Entry,
    /// Set once worker `i`'s thread has been started (read on every wake-up).
    started: Box<[AtomicBool]>,
    /// Worker `i`'s seed, until its thread takes it (each behind its own lock, which the
    /// thread that starts it does not hold, so the new thread never waits for it).
    seeds: Box<[Mutex<Option<WorkerSeed>>]>,
    /// The threads started lazily, to join at shutdown; held while one is started.
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Starter {
    /// The starter of `seeds` (one per pool worker, by index), for `sched`, whose threads
    /// run `entry`.
    pub(crate) fn new(sched: Weak<Scheduler>, seeds: Vec<WorkerSeed>, entry: Entry) -> Starter {
        Starter {
            sched,
            entry,
            started: seeds.iter().map(|_| AtomicBool::new(false)).collect(),
            seeds: seeds.into_iter().map(|s| Mutex::new(Some(s))).collect(),
            threads: Mutex::new(Vec::new()),
        }
    }

    /// Starts worker `index`'s thread now (when the system is built) and returns it.
    pub(crate) fn start_now(&self, index: usize) -> std::io::Result<JoinHandle<()>> {
        let sched = self.sched.upgrade().expect("the scheduler is alive");
        let seed = self.seeds[index].lock().take().expect("started once");
        let entry = self.entry;
        let handle = std::thread::Builder::new()
            .name(format!("footlights-worker-{index}"))
            .spawn(move || entry(sched, seed))?;
        self.started[index].store(true, Ordering::Relaxed);
        Ok(handle)
    }

    /// Makes sure worker `index`, just taken off the sleepers' list, has a thread: `false`
    /// if it has none and the operating system refused one (the caller puts it back).
    /// After the shutdown has begun, no thread is started, and this says `true`.
    #[inline]
    pub(crate) fn ensure(&self, index: usize) -> bool {
        self.started[index].load(Ordering::Acquire) || self.start_lazily(index)
    }

    /// Whether worker `index`'s thread has been started.
    pub(crate) fn is_started(&self, index: usize) -> bool {
        self.started[index].load(Ordering::Acquire)
    }

    #[cold]
    #[inline(never)]
    fn start_lazily(&self, index: usize) -> bool {
        let Some(sched) = self.sched.upgrade() else {
            return true;
        };
        let mut threads = self.threads.lock();
        // Under the lock that `take_threads` takes after the shutdown began: a thread
        // started here is either seen to be shutting down, or handed over to be joined.
        if self.started[index].load(Ordering::Relaxed) || sched.is_shutdown() {
            return true;
        }
        match spawn(sched, index, self.entry) {
            Ok(handle) => {
                threads.push(handle);
                self.started[index].store(true, Ordering::Release);
                true
            }
            Err(_) => false,
        }
    }

    /// The seed of worker `index`, taken by its own thread as it begins (or by a unit
    /// test that runs a worker's mechanism without its thread).
    pub(crate) fn take_seed(&self, index: usize) -> WorkerSeed {
        self.seeds[index]
            .lock()
            .take()
            .expect("each worker's thread is started once")
    }

    /// The threads started lazily so far (shutdown: the caller joins them). Call after
    /// the shutdown has begun, so that no more are started.
    pub(crate) fn take_threads(&self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut *self.threads.lock())
    }
}

/// Starts the thread of pool worker `index` lazily; it takes its seed from the starter
/// (so that a refused thread leaves the seed in place).
fn spawn(sched: Arc<Scheduler>, index: usize, entry: Entry) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("footlights-worker-{index}"))
        .spawn(move || {
            let seed = sched.starter.take_seed(index);
            entry(sched, seed);
        })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::config;
    use crate::{Actor, Addr, Context, Placement, ReplyTo, System, reply};

    /// A hang guard.
    const PATIENCE: Duration = Duration::from_secs(60);

    /// Spawns `fan` children, each of which reports to the collector; or reports itself.
    struct Tree {
        fan: u32,
        depth: u32,
        collector: Addr<Collector>,
    }

    impl Actor for Tree {
        type Msg = ();
        fn started(&mut self, ctx: &mut Context<Self>) {
            if self.depth == 0 {
                let _ = self.collector.send(1);
            } else {
                for _ in 0..self.fan {
                    ctx.spawn(Tree {
                        fan: self.fan,
                        depth: self.depth - 1,
                        collector: self.collector.clone(),
                    });
                }
            }
            ctx.stop();
        }
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    }

    /// Counts the leaves, and answers once it has `expected` of them.
    struct Collector {
        expected: u64,
        seen: u64,
        done: Option<ReplyTo<u64>>,
    }

    impl Actor for Collector {
        type Msg = u64;
        fn handle(&mut self, _: &mut Context<Self>, n: u64) {
            self.seen += n;
            if self.seen == self.expected {
                if let Some(done) = self.done.take() {
                    let _ = done.send(self.seen);
                }
            }
        }
    }

    /// Answers every request.
    struct Echo;

    impl Actor for Echo {
        type Msg = ReplyTo<u32>;
        fn handle(&mut self, _: &mut Context<Self>, reply: ReplyTo<u32>) {
            let _ = reply.send(7);
        }
    }

    /// A pool of more workers than CPUs: trees of spawns started from outside (backlogs
    /// that would wake every sleeper) run on the workers that started with the system, as
    /// many as CPUs; the others never start. An actor pinned to the last stage then starts
    /// that worker, runs there and answers, and the shutdown joins it.
    #[test]
    fn workers_beyond_the_cpus_start_only_for_work_pinned_to_them() {
        // As the system counts them (`FOOTLIGHTS_CPUS` may be set where the tests run).
        let cpus = config::resolve("cpus", None, config::CPUS_ENV, config::cpus).unwrap();
        let threads = cpus + 3;
        let system = System::builder().threads(threads).build().unwrap();
        let trees = 8;
        let (fan, depth) = (8, 3);
        let leaves = u64::from(trees * fan * fan * fan);
        let (done, all) = reply::pair();
        let collector = system.spawn(Collector {
            expected: leaves,
            seen: 0,
            done: Some(done),
        });
        for _ in 0..trees {
            system.spawn(Tree {
                fan,
                depth,
                collector: collector.clone(),
            });
        }
        assert_eq!(all.wait_timeout(PATIENCE), Some(Ok(leaves)));
        assert!(system.wait_quiescent_timeout(PATIENCE));
        let m = system.metrics();
        assert!(m.workers[..cpus].iter().map(|w| w.turns).sum::<u64>() > leaves);
        for (k, w) in m.workers.iter().enumerate().skip(cpus) {
            assert_eq!(w.turns, 0, "worker {k} ran shared work: {w:?}");
            assert_eq!(w.parks, 0, "worker {k} started: {w:?}");
        }

        let last = threads - 1;
        let echo = system.spawn_placed(Echo, Placement::Stage(last));
        for _ in 0..3 {
            let answer = echo.ask(|r| r).unwrap().wait_timeout(PATIENCE);
            assert_eq!(answer, Some(Ok(7)));
        }
        assert!(system.wait_quiescent_timeout(PATIENCE));
        let m = system.metrics();
        assert!(m.workers[last].turns >= 1, "the pinned actor ran elsewhere");
        let report = system.shutdown();
        assert_eq!(report.pending_messages, 0);
    }
}
