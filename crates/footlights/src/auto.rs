//! Automatic placement: sample what actors do while the program runs, and move the actors
//! the runtime placed itself ([`crate::PlacementMode::Auto`]).
//!
//! # What is sampled, and what it costs
//!
//! Nothing here runs unless the system was built with placement `observe` or `auto`.
//! Then:
//!
//! * **Turns, by sampling.** Each worker samples about one turn in [`SAMPLE_EVERY`] (with
//!   jitter, so that a ring of actors is not sampled at the same member every time). A
//!   sampled turn records its wall time (less any time spent waking another thread: that
//!   is the cost of a cross-thread hand-off, not work the actor needs a core for), the
//!   messages it handled, and every send it made: to whom, and whether the receiver last
//!   ran on another stage (a *cross-stage* send, the hand-off that co-location would
//!   save). That gives message counts per pair of actors
//!   and handler time per actor, scaled by the sampling rate. An unsampled turn costs one
//!   counter decrement and a flag test.
//! * **Long turns, by watching.** A controller thread looks at every stage each
//!   [`ROUND`]. A stage that has been inside the same turn since the previous look is
//!   *watched*: the controller notes the time, the thread's CPU clock and its voluntary
//!   context switches, and when the turn ends, the worker reports the actor with the wall
//!   and CPU time since then. A turn that used more than half its wall time on the CPU,
//!   and at least [`BUSY_CPU`] of CPU, was busy computing. (Without that floor, a cheap
//!   turn whose thread was preempted just before the look, and finished just after it,
//!   would count as a long computation: CI saw a 400 ns counter marked CPU-heavy that
//!   way.) One that used less was blocked (sleeping, waiting on I/O or a lock)
//!   if the thread gave up the CPU by itself meanwhile; if it did not, it was only
//!   preempted by the operating system, which says nothing about the actor. Sampling by
//!   time, not by turn count, is what makes a rare long turn visible at all.
//!
//! # What it decides
//!
//! Every [`DECIDE_EVERY`] rounds the controller folds the samples into decaying averages
//! (halved each decision, so old behaviour fades within tens of milliseconds) and, in
//! `auto` mode, moves actors. Only actors spawned with [`crate::Placement::Default`] under
//! the `task` policy are moved; what the program placed stays where it was put.
//!
//! 1. **Blocking actors get their own stage.** An actor seen blocked (off the CPU for at
//!    least 5 ms of a watched turn, having given the CPU up itself) moves to a dedicated
//!    stage, so it stops holding a pool worker (and every actor queued behind it) hostage.
//! 2. **CPU-heavy actors get room.** An actor whose handler takes long per message (on
//!    average, and in at least half of its sampled turns, so that one sampled turn that
//!    was preempted for milliseconds does not brand a cheap actor) is kept in the pool,
//!    where stealing spreads such actors over the workers, and is never pinned next to
//!    chatty actors that would wait behind it.
//! 3. **Cheap leaves run inline.** An actor whose handler is short, which sends nothing
//!    itself, and whose messages arrive one at a time (about one message per turn) becomes
//!    inline: its senders run it directly, with no hand-off. A leaf whose messages queue
//!    up stays where it is: its turns handle them in batches, and inlining a flood would
//!    make its sender do all the work while other workers idle (counting on two cores
//!    took 1.5 times as long that way).
//! 4. **Chatty groups share a stage**, under the sharing and stage schedulers. Pairs of
//!    light actors with many *cross-stage* sends, each with at most two chatty partners
//!    (pairs, chains and rings), are merged into groups, strongest pair first, as long as a
//!    group's estimated load fits in one stage ([`GROUP_LOAD`] of a core). Loads add up,
//!    except for two actors that message each other both ways: those mostly take turns
//!    (a ball going back and forth, a request and its reply) and count as the busier of
//!    the two. (Added up, a ping-pong pair on two stages looked like 0.9 to 1.8 cores,
//!    since each stage is busy while the other waits, and was co-located only when the
//!    noise allowed: after seconds, sometimes not within a minute.) Each group is pinned
//!    to one stage, the least loaded one unless a member is pinned already. Under
//!    work stealing the controller does not co-locate: the next slot already keeps a
//!    hand-off on the sender's worker, and a cross-stage send there means a thief took
//!    work an idle worker needed. Pinning only the sampled fragments of a token ring to
//!    different stages made threadring 1.7 times slower on two threads (see
//!    `docs/findings.md`). Hubs (chameneos's meeting place) are left alone under every
//!    scheduler: pinning a hub with the sampled part of its partners made chameneos
//!    unfair.
//! 5. **A lone worker's queue order.** With one work-stealing worker, the controller also
//!    chooses, every round (the first few rounds are short, because a short program's
//!    actors are laid out in memory by then), between plain FIFO order, where the worker
//!    starts, and hand-off order, where the receiver of a send runs next
//!    (the scheduler's `worker` module). FIFO order is kept while actors are being spawned
//!    (trees: each level runs before the next, and a parent's answers arrive in memory
//!    order; spreading ran 1.4 times faster) or while the samples show a hub, an actor
//!    with several senders that gets a large share of all messages (its clients then wait
//!    their turn; in hand-off order two of sixteen clients got 82% of a hub's answers).
//!    Without either, and only on evidence from enough samples, the worker switches to
//!    hand-off order, which keeps a request and its reply hot in the cache (big ran about
//!    1.15 times faster). [`crate::Metrics::fifo_order`] and
//!    [`crate::Metrics::queue_switches`] show what it chose.
//!
//! Moving an actor is a store to its home ([`crate::placement`]), so a move can never
//! reorder messages or let two threads run one actor.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::placement::{Placement, PlacementMode, Site};
use crate::rng::XorShift;
use crate::scheduler::Task;
use crate::scheduler::stage::Stage;
use crate::system::Shared;

/// About one turn in this many is sampled on each worker.
pub const SAMPLE_EVERY: u32 = 512;
/// How often the controller looks at the stages.
pub const ROUND: Duration = Duration::from_millis(2);
/// Rounds at the start that last a quarter of [`ROUND`].
const EARLY_ROUNDS: u32 = 4;
/// Decisions are made every this many rounds.
pub const DECIDE_EVERY: u32 = 5;
/// The largest estimated load, in cores, of a group pinned to one stage.
pub const GROUP_LOAD: f64 = 0.7;
/// Long turns (decayed count) it takes to call an actor blocking or CPU-heavy.
const LONG_TURNS: f64 = 1.0;
/// Time off the CPU, in a watched turn whose thread gave the CPU up, that makes the turn
/// a blocked one. A worker preempted while it briefly waited for a lock is rarely off the
/// CPU this long; an actor that sleeps or waits on I/O usually is.
const BLOCKED_NS: u64 = 5_000_000;
/// Handler time per message above which an actor is CPU-heavy.
const HEAVY_NS_PER_MESSAGE: f64 = 50_000.0;
/// CPU time a watched turn must use, besides more than half its wall time, to count as
/// a long computation.
pub const BUSY_CPU: Duration = Duration::from_millis(1);
/// Handler time per message below which an actor is cheap enough to run inline.
const CHEAP_NS_PER_MESSAGE: f64 = 1_000.0;
/// Sampled turns needed before an actor is judged at all.
const MIN_TURNS: f64 = 2.0;
/// Sampled cross-stage sends on a pair needed before it counts as chatty.
const MIN_CROSS: f64 = 4.0;
/// Most distinct chatty partners an actor may have and still be co-located: pairs, chains
/// and rings, not hubs.
const MAX_PARTNERS: usize = 2;
/// Distinct receivers recorded per sampled turn; further sends are only counted.
const MAX_RECEIVERS: usize = 8;
/// Distinct senders that make an actor that gets many messages a hub (not a pair's
/// partner).
const HUB_SENDERS: usize = 3;
/// Share of all sampled sends a hub must get for a lone worker to keep FIFO order
/// (half of it to keep FIFO order once chosen).
const HUB_SHARE: f64 = 0.2;
/// Spawns per turn that make a lone worker keep FIFO order (a quarter of it to keep FIFO
/// order once chosen).
const SPAWNING: f64 = 0.02;
/// Turns a round must have run for its spawn rate to count.
const MIN_ORDER_TURNS: u64 = 256;
/// Sampled turns (decaying) needed before the hub share counts.
const MIN_ORDER_SAMPLES: f64 = 32.0;

/// One receiver of a sampled turn's sends.
pub(crate) struct SendSample {
    to: Task,
    count: u32,
    cross: u32,
}

/// What a worker reports to the controller.
pub(crate) enum Sample {
    /// A sampled turn.
    Turn {
        actor: Task,
        wall_ns: u64,
        handled: u64,
        sends: Vec<SendSample>,
        other_sends: u32,
    },
    /// A watched long turn: wall and CPU time since the controller began to watch it, and
    /// whether the thread gave up the CPU by itself meanwhile (slept or waited) rather
    /// than only being preempted.
    Long {
        actor: Task,
        wall_ns: u64,
        cpu_ns: u64,
        gave_up_cpu: bool,
    },
}

/// The watch a controller puts on a stage that is in a long turn.
struct Watch {
    turn: u64,
    since: Instant,
    cpu_ns: u64,
    /// The thread's voluntary context switches so far.
    voluntary: u64,
}

/// How a worker thread can be looked at from another thread.
#[derive(Clone, Copy)]
struct ThreadIds {
    cpu_clock: libc::clockid_t,
    tid: libc::pid_t,
}

/// The part of a stage the controller and its worker share.
#[derive(Default)]
pub(crate) struct StageProbe {
    samples: Mutex<Vec<Sample>>,
    /// Set while the worker is parked (written only when it parks and wakes).
    parked: AtomicBool,
    watched: AtomicBool,
    watch: Mutex<Option<Watch>>,
    /// The worker thread's CPU clock and thread id, once it has started.
    thread: Mutex<Option<ThreadIds>>,
    /// What the controller saw of this stage last round: turns, and whether in a turn.
    last_seen: AtomicU64,
    /// Set by the controller: a lone work-stealing worker keeps plain FIFO order.
    pub(crate) fifo: AtomicBool,
}

/// A worker's own sampling state.
pub(crate) struct WorkerProbe {
    enabled: bool,
    countdown: Cell<u32>,
    rng: XorShift,
    sampling: Cell<bool>,
    started: Cell<Option<Instant>>,
    /// Time the sampled turn spent waking other threads.
    waking_ns: Cell<u64>,
    sends: RefCell<Vec<SendSample>>,
    other_sends: Cell<u32>,
}

impl WorkerProbe {
    /// A probe for a system in `mode`; `seed` varies the sampling jitter per worker.
    pub(crate) fn new(mode: PlacementMode, seed: u64) -> WorkerProbe {
        WorkerProbe {
            enabled: mode != PlacementMode::Manual,
            countdown: Cell::new(SAMPLE_EVERY),
            rng: XorShift::new(0x9E37_79B9 ^ seed),
            sampling: Cell::new(false),
            started: Cell::new(None),
            waking_ns: Cell::new(0),
            sends: RefCell::new(Vec::new()),
            other_sends: Cell::new(0),
        }
    }

    /// Whether this system samples at all.
    #[inline]
    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Whether the running turn is sampled (its sends are recorded).
    #[inline]
    pub(crate) fn sampling(&self) -> bool {
        self.sampling.get()
    }

    /// Called on the worker thread before its first turn.
    pub(crate) fn started(&self, stage: &StageProbe) {
        if self.enabled {
            // SAFETY: `gettid` has no preconditions.
            let tid = unsafe { libc::gettid() };
            *stage.thread.lock() = thread_cpu_clock().map(|cpu_clock| ThreadIds { cpu_clock, tid });
        }
    }

    /// Called before every turn when sampling is enabled.
    #[inline]
    pub(crate) fn turn_starting(&self) {
        let left = self.countdown.get();
        if left > 1 {
            self.countdown.set(left - 1);
            return;
        }
        self.begin_sample();
    }

    #[cold]
    #[inline(never)]
    fn begin_sample(&self) {
        self.countdown.set(self.jitter());
        self.sampling.set(true);
        self.waking_ns.set(0);
        self.started.set(Some(Instant::now()));
    }

    /// Called after every turn when sampling is enabled.
    #[inline]
    pub(crate) fn turn_finished(&self) {
        if self.sampling.get() {
            self.sampling.set(false);
            self.started.set(None);
        }
    }

    /// Whether the end of the running turn must be reported ([`WorkerProbe::turn_ending`]):
    /// it is sampled, or the controller is watching it.
    #[inline]
    pub(crate) fn wants_turn_end(&self, stage: &StageProbe) -> bool {
        self.sampling.get() || stage.watched.load(Ordering::Relaxed)
    }

    /// Called by the worker around parking, so the controller does not mistake a parked
    /// worker for one stuck in a long turn.
    pub(crate) fn parking(&self, stage: &StageProbe, parked: bool) {
        if self.enabled {
            stage.parked.store(parked, Ordering::Relaxed);
        }
    }

    /// Called by the actor at the end of its turn (before it gives up its reference), with
    /// the messages it handled. `outermost` is false for an inline turn inside another.
    pub(crate) fn turn_ending(
        &self,
        stage: &StageProbe,
        actor: impl FnOnce() -> Task,
        handled: u64,
        turns: u64,
        outermost: bool,
    ) {
        if !outermost {
            return;
        }
        let mut actor = Some(actor);
        if self.sampling.get() {
            if let Some(started) = self.started.get() {
                let sample = Sample::Turn {
                    actor: (actor.take().expect("taken once"))(),
                    wall_ns: nanos(started.elapsed()).saturating_sub(self.waking_ns.get()),
                    handled,
                    sends: std::mem::take(&mut *self.sends.borrow_mut()),
                    other_sends: self.other_sends.replace(0),
                };
                stage.samples.lock().push(sample);
            }
        }
        if stage.watched.load(Ordering::Relaxed) {
            stage.watched.store(false, Ordering::Relaxed);
            let Some(watch) = stage.watch.lock().take() else {
                return;
            };
            let (Some(actor), Some(cpu_now), Some(voluntary)) =
                (actor, own_cpu_ns(), own_voluntary_switches())
            else {
                return;
            };
            if watch.turn == turns {
                stage.samples.lock().push(Sample::Long {
                    actor: actor(),
                    wall_ns: nanos(watch.since.elapsed()),
                    cpu_ns: cpu_now.saturating_sub(watch.cpu_ns),
                    gave_up_cpu: voluntary > watch.voluntary,
                });
            }
        }
    }

    /// Records a send made by the sampled turn; `cross` if the receiver last ran on
    /// another stage than `here`.
    pub(crate) fn note_send(&self, to: impl FnOnce() -> Task, to_ptr: *const (), cross: bool) {
        let mut sends = self.sends.borrow_mut();
        if let Some(s) = sends
            .iter_mut()
            .find(|s| Arc::as_ptr(&s.to).cast::<()>() == to_ptr)
        {
            s.count += 1;
            s.cross += u32::from(cross);
        } else if sends.len() < MAX_RECEIVERS {
            sends.push(SendSample {
                to: to(),
                count: 1,
                cross: u32::from(cross),
            });
        } else {
            self.other_sends.set(self.other_sends.get() + 1);
        }
    }

    /// Runs `wake` (waking another thread) in a sampled turn, and takes the time it took
    /// out of the turn's.
    #[cold]
    pub(crate) fn not_the_handlers(&self, wake: impl FnOnce()) {
        let start = Instant::now();
        wake();
        self.waking_ns
            .set(self.waking_ns.get() + nanos(start.elapsed()));
    }

    /// Stops recording for a nested inline turn; returns what to restore.
    pub(crate) fn pause(&self) -> bool {
        self.sampling.replace(false)
    }

    /// Restores recording after a nested inline turn.
    pub(crate) fn resume(&self, sampling: bool) {
        self.sampling.set(sampling);
    }

    fn jitter(&self) -> u32 {
        // The period varies between 1/2 and 3/2 of SAMPLE_EVERY.
        SAMPLE_EVERY / 2 + self.rng.below(u64::from(SAMPLE_EVERY)) as u32
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The calling thread's CPU clock id, if the system has one.
fn thread_cpu_clock() -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `pthread_self` is always valid for the calling thread, and `clock` is a valid
    // place for the result.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    (rc == 0).then_some(clock)
}

/// Reads a CPU clock, in nanoseconds.
fn clock_ns(clock: libc::clockid_t) -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write; an invalid clock (a thread that has ended)
    // makes the call fail, which is handled.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    (rc == 0).then(|| {
        u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000
            + u64::try_from(ts.tv_nsec).unwrap_or(0)
    })
}

fn own_cpu_ns() -> Option<u64> {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The calling thread's voluntary context switches (it blocked or slept).
fn own_voluntary_switches() -> Option<u64> {
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid place for the result.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    (rc == 0).then(|| u64::try_from(usage.ru_nvcsw).unwrap_or(0))
}

/// Another thread's voluntary context switches, from `/proc`.
fn voluntary_switches_of(tid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/self/task/{tid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
}

/// What the controller knows of one actor (decaying sums of its samples).
struct Observed {
    actor: Task,
    turns: f64,
    wall_ns: f64,
    handled: f64,
    sends: f64,
    /// Long turns seen blocked (decaying, like the sums above).
    blocked: f64,
    /// Long turns seen computing (decaying).
    busy: f64,
    /// Sampled turns that took at least [`HEAVY_NS_PER_MESSAGE`] per message (decaying).
    heavy_turns: f64,
    blocked_for_good: bool,
    heavy: bool,
    /// Sampled sends other actors made to it (keeps a receiver that is never sampled
    /// itself in view).
    received: f64,
    /// Distinct actors seen sending to it (the first [`HUB_SENDERS`]).
    senders: Vec<usize>,
}

impl Observed {
    fn new(actor: Task) -> Observed {
        Observed {
            actor,
            turns: 0.0,
            wall_ns: 0.0,
            handled: 0.0,
            sends: 0.0,
            blocked: 0.0,
            busy: 0.0,
            heavy_turns: 0.0,
            blocked_for_good: false,
            heavy: false,
            received: 0.0,
            senders: Vec::new(),
        }
    }

    fn ns_per_message(&self) -> f64 {
        self.wall_ns / self.handled.max(1.0)
    }
}

fn key(task: &Task) -> usize {
    Arc::as_ptr(task).cast::<()>() as usize
}

/// The controller thread's state.
struct Controller {
    shared: Arc<Shared>,
    actors: HashMap<usize, Observed>,
    /// Sampled cross-stage sends per (sender, receiver).
    edges: HashMap<(usize, usize), f64>,
    window: Instant,
    order: OrderState,
}

/// What [`Controller::choose_order`] keeps between rounds.
#[derive(Default)]
struct OrderState {
    /// The lone worker's turns and spawns at the last round.
    turns: u64,
    spawned: u64,
    /// Spawns per turn, averaged over rounds.
    spawn_rate: f64,
    /// Whether `spawn_rate` has a first value.
    seen: bool,
}

/// Whether the controller chooses the queue order: a lone work-stealing worker, under
/// automatic placement.
fn orders_queue(shared: &Shared) -> bool {
    let sched = &shared.sched;
    sched.mode == PlacementMode::Auto
        && sched.threads() == 1
        && sched.kind == crate::SchedulerKind::Steal
}

/// Starts the controller thread for `shared` (placement `observe` or `auto`).
pub(crate) fn start(shared: &Arc<Shared>) -> std::io::Result<JoinHandle<()>> {
    let shared = Arc::clone(shared);
    std::thread::Builder::new()
        .name("footlights-placement".to_owned())
        .spawn(move || {
            Controller {
                shared,
                actors: HashMap::new(),
                edges: HashMap::new(),
                window: Instant::now(),
                order: OrderState::default(),
            }
            .run();
        })
}

impl Controller {
    fn run(mut self) {
        let mut round = 0u32;
        loop {
            // The first rounds are short, so that the queue order is chosen early in a
            // short program (where its actors end up in memory is set by then).
            std::thread::park_timeout(if round < EARLY_ROUNDS {
                ROUND / 4
            } else {
                ROUND
            });
            if self.shared.sched.is_shutdown() {
                return;
            }
            self.watch_long_turns();
            self.ingest();
            let auto = self.shared.sched.mode == PlacementMode::Auto;
            if auto {
                self.choose_order();
            }
            round += 1;
            if round % DECIDE_EVERY == 0 {
                if auto {
                    self.decide();
                }
                self.decay();
            }
        }
    }

    /// Every stage the controller looks at: the pool's and the live dedicated ones.
    fn stages(&self) -> Vec<Arc<Stage>> {
        let sched = &self.shared.sched;
        let mut stages: Vec<Arc<Stage>> = sched.stages.to_vec();
        stages.extend(sched.dedicated.lock().stages.iter().cloned());
        stages
    }

    /// Puts a watch on every stage still inside the turn it was in last round.
    fn watch_long_turns(&self) {
        for stage in self.stages() {
            let probe = &stage.probe;
            let turns = stage.stats.turns.load(Ordering::Acquire);
            // Busy in a turn: not parked, and no turn has started since last round. (A
            // worker between turns searches for microseconds, then parks.)
            let in_turn = !probe.parked.load(Ordering::Relaxed);
            let seen = (turns << 1) | u64::from(in_turn);
            let before = probe.last_seen.swap(seen, Ordering::Relaxed);
            if !in_turn || before != seen || probe.watched.load(Ordering::Relaxed) {
                continue;
            }
            let Some(ids) = *probe.thread.lock() else {
                continue;
            };
            let (Some(cpu_ns), Some(voluntary)) =
                (clock_ns(ids.cpu_clock), voluntary_switches_of(ids.tid))
            else {
                continue;
            };
            *probe.watch.lock() = Some(Watch {
                turn: turns,
                since: Instant::now(),
                cpu_ns,
                voluntary,
            });
            probe.watched.store(true, Ordering::Relaxed);
        }
    }

    fn observed(&mut self, actor: &Task) -> &mut Observed {
        self.actors
            .entry(key(actor))
            .or_insert_with(|| Observed::new(Arc::clone(actor)))
    }

    /// Folds every stage's new samples into the averages.
    fn ingest(&mut self) {
        for stage in self.stages() {
            let samples = std::mem::take(&mut *stage.probe.samples.lock());
            for sample in samples {
                match sample {
                    Sample::Turn {
                        actor,
                        wall_ns,
                        handled,
                        sends,
                        other_sends,
                    } => {
                        let from = key(&actor);
                        let total: u32 = sends.iter().map(|s| s.count).sum::<u32>() + other_sends;
                        let o = self.observed(&actor);
                        o.turns += 1.0;
                        o.wall_ns += wall_ns as f64;
                        o.handled += handled as f64;
                        o.sends += f64::from(total);
                        if wall_ns as f64 >= HEAVY_NS_PER_MESSAGE * handled.max(1) as f64 {
                            o.heavy_turns += 1.0;
                        }
                        for send in sends {
                            let to = key(&send.to);
                            let receiver = self.observed(&send.to);
                            receiver.received += f64::from(send.count);
                            if receiver.senders.len() < HUB_SENDERS
                                && to != from
                                && !receiver.senders.contains(&from)
                            {
                                receiver.senders.push(from);
                            }
                            if send.cross > 0 && to != from {
                                *self.edges.entry((from, to)).or_insert(0.0) +=
                                    f64::from(send.cross);
                            }
                        }
                    }
                    Sample::Long {
                        actor,
                        wall_ns,
                        cpu_ns,
                        gave_up_cpu,
                    } => {
                        // Off the CPU for most of the turn: blocked if the thread gave the
                        // CPU up itself, merely preempted (the machine is oversubscribed)
                        // otherwise, which says nothing about the actor.
                        let o = self.observed(&actor);
                        if cpu_ns * 2 >= wall_ns && cpu_ns >= nanos(BUSY_CPU) {
                            o.busy += 1.0;
                        } else if gave_up_cpu && wall_ns.saturating_sub(cpu_ns) >= BLOCKED_NS {
                            o.blocked += 1.0;
                        }
                    }
                }
            }
        }
    }

    /// Halves every average, and forgets stopped actors and faded pairs.
    fn decay(&mut self) {
        self.window = Instant::now();
        self.actors.retain(|_, o| {
            o.turns *= 0.5;
            o.wall_ns *= 0.5;
            o.handled *= 0.5;
            o.sends *= 0.5;
            o.received *= 0.5;
            o.blocked *= 0.5;
            o.busy *= 0.5;
            o.heavy_turns *= 0.5;
            !o.actor.is_stopped()
                && (o.turns >= 0.05 || o.received >= 0.05 || o.blocked_for_good || o.heavy)
        });
        let actors = &self.actors;
        self.edges.retain(|(a, b), w| {
            *w *= 0.5;
            *w >= 0.05 && actors.contains_key(a) && actors.contains_key(b)
        });
    }

    /// Step 5: on a lone work-stealing worker, chooses between hand-off order and plain
    /// FIFO order, every round.
    fn choose_order(&mut self) {
        if !orders_queue(&self.shared) {
            return;
        }
        let sched = &self.shared.sched;
        let stage = &sched.stages[0];
        let turns = stage.stats.turns.load(Ordering::Relaxed);
        let spawned = stage.stats.spawned.load(Ordering::Relaxed);
        let order = &mut self.order;
        let (turns_now, spawned_now) = (
            turns.saturating_sub(order.turns),
            spawned.saturating_sub(order.spawned),
        );
        (order.turns, order.spawned) = (turns, spawned);
        if turns_now < MIN_ORDER_TURNS {
            // Too little happened this round to say anything.
            return;
        }
        let rate = spawned_now as f64 / turns_now as f64;
        order.spawn_rate = if order.seen {
            0.5 * (order.spawn_rate + rate)
        } else {
            rate
        };
        order.seen = true;
        // The share of all sampled sends that go to the busiest actor with many senders.
        let sampled: f64 = self.actors.values().map(|o| o.turns).sum();
        let sent: f64 = self.actors.values().map(|o| o.sends).sum();
        let hub = self
            .actors
            .values()
            .filter(|o| o.senders.len() >= HUB_SENDERS)
            .map(|o| o.received)
            .fold(0.0, f64::max);
        // Without enough sampled turns there is no evidence of a hub either way: a hub's
        // senders must have been sampled too, not just one of its turns.
        let hub_share = (sampled >= MIN_ORDER_SAMPLES && sent > 0.0).then(|| hub / sent);
        let current = stage.probe.fifo.load(Ordering::Relaxed);
        let fifo = if current {
            // Leave FIFO order only on evidence: no spawning, and no hub in the samples.
            order.spawn_rate >= SPAWNING / 4.0
                || hub_share.is_none_or(|share| share >= HUB_SHARE / 2.0)
        } else {
            order.spawn_rate >= SPAWNING || hub_share.is_some_and(|share| share >= HUB_SHARE)
        };
        if fifo != current {
            stage.probe.fifo.store(fifo, Ordering::Relaxed);
            self.shared.queue_switches.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn movable(o: &Observed) -> bool {
        o.actor.home().movable() && !o.actor.is_stopped()
    }

    fn decide(&mut self) {
        let mut moves = 0u64;
        // 1 and 2: blocking actors to dedicated stages; heavy ones stay in (or go back to)
        // the pool.
        for o in self.actors.values_mut() {
            if !Self::movable(o) {
                continue;
            }
            let site = o.actor.home().target();
            if (o.turns >= MIN_TURNS
                && o.ns_per_message() >= HEAVY_NS_PER_MESSAGE
                && o.heavy_turns * 2.0 >= o.turns)
                || o.busy >= LONG_TURNS
            {
                o.heavy = true;
            }
            if o.blocked >= LONG_TURNS {
                o.blocked_for_good = true;
            }
            if o.blocked_for_good && site != Site::Dedicated {
                o.actor.relocate(&Placement::Dedicated, true);
                moves += 1;
            } else if o.heavy
                && !o.blocked_for_good
                && matches!(site, Site::Stage(_) | Site::Inline)
            {
                o.actor.relocate(&Placement::Pool, true);
                moves += 1;
            }
        }
        // 3: cheap leaves run inline.
        for o in self.actors.values() {
            if !Self::movable(o) || o.heavy || o.blocked_for_good {
                continue;
            }
            // Whether the messages come from actors does not matter: a send from outside
            // the runtime schedules an inline actor on the pool as before.
            // Inline only what arrives one message at a time: a leaf whose messages queue up
            // is handled in batches, which inlining would undo (and a flood's sender would
            // do all the work itself, leaving the other workers idle).
            let one_at_a_time = o.handled <= o.turns * 1.5;
            let leaf = o.turns >= MIN_TURNS && o.sends == 0.0 && one_at_a_time;
            if leaf
                && o.ns_per_message() <= CHEAP_NS_PER_MESSAGE
                && o.actor.home().target() == Site::Pool
            {
                o.actor.relocate(&Placement::Inline, true);
                moves += 1;
            }
        }
        moves += self.colocate();
        if moves > 0 {
            self.shared
                .placement_moves
                .fetch_add(moves, Ordering::Relaxed);
        }
    }

    /// Estimated cores an actor keeps busy.
    fn load(&self, o: &Observed) -> f64 {
        let window = self.window.elapsed().as_nanos().max(1) as f64;
        o.wall_ns * f64::from(SAMPLE_EVERY) / window
    }

    /// Step 4: groups chatty light actors and pins each group to one stage.
    fn colocate(&self) -> u64 {
        let threads = self.shared.sched.threads();
        if threads < 2 || self.shared.sched.kind == crate::SchedulerKind::Steal {
            return 0;
        }
        let light = |k: &usize| {
            self.actors.get(k).is_some_and(|o| {
                Self::movable(o)
                    && !o.heavy
                    && !o.blocked_for_good
                    && matches!(o.actor.home().target(), Site::Pool | Site::Stage(_))
            })
        };
        // Distinct partners of each actor, over every sampled pair.
        let mut partners: HashMap<usize, Vec<usize>> = HashMap::new();
        for &(a, b) in self.edges.keys() {
            for (x, y) in [(a, b), (b, a)] {
                let list = partners.entry(x).or_default();
                if !list.contains(&y) {
                    list.push(y);
                }
            }
        }
        let few_partners = |k: &usize| partners.get(k).is_none_or(|p| p.len() <= MAX_PARTNERS);
        let mut pairs: Vec<((usize, usize), f64)> = self
            .edges
            .iter()
            .filter(|&(&(a, b), &w)| {
                w >= MIN_CROSS && light(&a) && light(&b) && few_partners(&a) && few_partners(&b)
            })
            .map(|(&pair, &w)| (pair, w))
            .collect();
        pairs.sort_by(|x, y| y.1.total_cmp(&x.1));
        // Union-find over the actors in chatty pairs, with each group's load.
        let mut parent: HashMap<usize, usize> = HashMap::new();
        let mut load: HashMap<usize, f64> = HashMap::new();
        let mut size: HashMap<usize, usize> = HashMap::new();
        fn find(parent: &HashMap<usize, usize>, mut k: usize) -> usize {
            while let Some(&p) = parent.get(&k) {
                if p == k {
                    break;
                }
                k = p;
            }
            k
        }
        for &((a, b), _) in &pairs {
            for k in [a, b] {
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(k) {
                    e.insert(k);
                    load.insert(k, self.load(&self.actors[&k]));
                    size.insert(k, 1usize);
                }
            }
            let (ra, rb) = (find(&parent, a), find(&parent, b));
            if ra == rb {
                continue;
            }
            // Two actors that message each other both ways mostly take turns (a ball
            // going back and forth, a request and its reply): together they need about
            // as much as the busier of them. Otherwise their loads add up.
            // (Only for the pair itself: joining larger groups adds their loads.)
            let both_ways = size[&ra] == 1
                && size[&rb] == 1
                && self.edges.get(&(b, a)).is_some_and(|&w| w >= MIN_CROSS);
            let merged = if both_ways {
                load[&ra].max(load[&rb])
            } else {
                load[&ra] + load[&rb]
            };
            if merged <= GROUP_LOAD {
                parent.insert(rb, ra);
                load.insert(ra, merged);
                let joined = size[&ra] + size[&rb];
                size.insert(ra, joined);
            }
        }
        let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
        let members: Vec<usize> = parent.keys().copied().collect();
        for k in members {
            let root = find(&parent, k);
            groups.entry(root).or_default().push(k);
        }
        // Each stage's load from what is pinned there already.
        let mut stage_load = vec![0.0f64; threads];
        for o in self.actors.values() {
            if let Site::Stage(k) = o.actor.home().target() {
                stage_load[k % threads] += self.load(o);
            }
        }
        let mut moves = 0;
        let mut ordered: Vec<(usize, Vec<usize>)> =
            groups.into_iter().filter(|(_, m)| m.len() >= 2).collect();
        ordered.sort_by(|x, y| load[&y.0].total_cmp(&load[&x.0]));
        for (root, members) in ordered {
            let pinned = members
                .iter()
                .find_map(|k| self.actors[k].actor.home().pinned_stage());
            let stage = pinned.unwrap_or_else(|| {
                (0..threads)
                    .min_by(|&x, &y| stage_load[x].total_cmp(&stage_load[y]))
                    .unwrap_or(0)
            });
            stage_load[stage] += load[&root];
            for k in members {
                let actor = &self.actors[&k].actor;
                if actor.home().target() != Site::Stage(stage) {
                    actor.relocate(&Placement::Stage(stage), true);
                    moves += 1;
                }
            }
        }
        moves
    }
}
