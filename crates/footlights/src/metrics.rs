//! Counters cheap enough to leave on, and the snapshots a program reads.
//!
//! Each worker owns a [`WorkerStats`] on its own cache line. Only that worker writes it, so
//! an increment is a plain load and store (no locked instruction, no shared cache line);
//! anybody may read it at any time. Threads outside the runtime share [`ExternalStats`],
//! updated with atomic adds. A snapshot sums them: [`crate::System::metrics`].
//!
//! # Where a worker's time goes
//!
//! Besides counting events, each pool worker splits its life into three phases and adds
//! the time of each phase to its own counters: *running* (taking tasks from its own queues
//! and running turns), *searching* (its own queues are empty: it looks at the other
//! workers' deques, the injector and its inbox, spinning a little between looks), and
//! *parked* (asleep until somebody wakes it). The clock is read only where a phase
//! changes, never per turn or per message: a worker that always has work reads it once.
//! The time spent waking other workers (the unpark system call, counted only when a
//! sleeper is actually woken) is part of the running time and is also reported on its
//! own. With these, [`WorkerMetrics`] tells where a second core's time goes: turns,
//! spinning, stealing, sleeping or waking others
//! (`docs/experiments/2026-11-23-pace-one-worker-against-two.md` reads them).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Adds one to a counter that only the calling worker writes.
pub(crate) fn bump(counter: &AtomicU64) {
    bump_by(counter, 1);
}

/// Adds `n` to a counter that only the calling worker writes.
pub(crate) fn bump_by(counter: &AtomicU64, n: u64) {
    // Single writer: a load and a store are enough, and the release store publishes
    // everything the worker did before it (the quiescence check relies on that).
    counter.store(counter.load(Ordering::Relaxed) + n, Ordering::Release);
}

/// Per-worker counters, written only by their worker.
#[derive(Default)]
pub(crate) struct WorkerStats {
    pub(crate) turns: AtomicU64,
    pub(crate) steals: AtomicU64,
    pub(crate) parks: AtomicU64,
    pub(crate) handled: AtomicU64,
    /// Messages sent that found their actor already scheduled.
    pub(crate) sent: AtomicU64,
    /// Messages sent that woke their actor: each is a message sent *and* an actor
    /// scheduled, counted once here rather than once in `sent` and once in `scheduled`
    /// (one increment on a hop instead of two). Read as part of both.
    pub(crate) sent_waking: AtomicU64,
    pub(crate) spawned: AtomicU64,
    pub(crate) stopped: AtomicU64,
    pub(crate) scheduled: AtomicU64,
    pub(crate) descheduled: AtomicU64,
    pub(crate) inline_turns: AtomicU64,
    /// Tasks that came into this worker's deque from another's with a steal (the one run
    /// at once included).
    pub(crate) stolen: AtomicU64,
    /// Tasks this worker scheduled onto a queue that another thread takes from (another
    /// stage's inbox, the shared injector, a dedicated stage).
    pub(crate) pushed_out: AtomicU64,
    /// Times the worker ran out of work in its own queues and began to search.
    pub(crate) searches: AtomicU64,
    /// Searches that ended with nothing found (the worker then tried to park).
    pub(crate) searches_failed: AtomicU64,
    /// Other threads this worker unparked.
    pub(crate) wakes: AtomicU64,
    /// Times the worker parked while other workers' work was in sight, giving a
    /// ping-pong back to the workers still awake.
    pub(crate) yields: AtomicU64,
    /// Steals whose first task last went idle on this worker: an actor it ran, woken
    /// since on the victim's worker, and stolen back (see [`crate::scheduler`]'s pace).
    pub(crate) stolen_back: AtomicU64,
    /// Nanoseconds running (turns and the bookkeeping between them).
    pub(crate) running_ns: AtomicU64,
    /// Nanoseconds searching other queues and spinning.
    pub(crate) searching_ns: AtomicU64,
    /// Nanoseconds parked.
    pub(crate) parked_ns: AtomicU64,
    /// Nanoseconds spent unparking other threads (part of the running time).
    pub(crate) waking_ns: AtomicU64,
    /// Turns that kept what they woke (a flood within one turn; see
    /// [`crate::scheduler::governor::flood`]).
    pub(crate) keeping_turns: AtomicU64,
    /// Give-backs asked for by another worker's keeping turn (also in `yields`).
    pub(crate) yields_to_keeping: AtomicU64,
}

impl WorkerStats {
    /// Adds every counter of `other` into these (retiring a dedicated stage; the caller is
    /// the only writer, under the registry lock).
    pub(crate) fn add(&self, other: &WorkerStats) {
        let pairs = [
            (&self.turns, &other.turns),
            (&self.steals, &other.steals),
            (&self.parks, &other.parks),
            (&self.handled, &other.handled),
            (&self.sent, &other.sent),
            (&self.sent_waking, &other.sent_waking),
            (&self.spawned, &other.spawned),
            (&self.stopped, &other.stopped),
            (&self.scheduled, &other.scheduled),
            (&self.descheduled, &other.descheduled),
            (&self.inline_turns, &other.inline_turns),
            (&self.stolen, &other.stolen),
            (&self.pushed_out, &other.pushed_out),
            (&self.searches, &other.searches),
            (&self.searches_failed, &other.searches_failed),
            (&self.wakes, &other.wakes),
            (&self.yields, &other.yields),
            (&self.stolen_back, &other.stolen_back),
            (&self.running_ns, &other.running_ns),
            (&self.searching_ns, &other.searching_ns),
            (&self.parked_ns, &other.parked_ns),
            (&self.waking_ns, &other.waking_ns),
            (&self.keeping_turns, &other.keeping_turns),
            (&self.yields_to_keeping, &other.yields_to_keeping),
        ];
        for (mine, theirs) in pairs {
            bump_by(mine, theirs.load(Ordering::Acquire));
        }
    }
}

/// Counters for work that threads outside the runtime start.
#[derive(Default)]
pub(crate) struct ExternalStats {
    pub(crate) sent: AtomicU64,
    pub(crate) spawned: AtomicU64,
    pub(crate) scheduled: AtomicU64,
}

/// What one worker thread has done since the system started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerMetrics {
    /// Turns run: each is up to one batch of one actor's messages.
    pub turns: u64,
    /// Tasks taken from another worker's queue.
    pub steals: u64,
    /// Times the worker parked for lack of work.
    pub parks: u64,
    /// Messages handled by actors on this worker.
    pub messages_handled: u64,
    /// Messages sent by actors running on this worker.
    pub messages_sent: u64,
    /// Actors spawned by actors running on this worker.
    pub actors_spawned: u64,
    /// Actors that stopped on this worker.
    pub actors_stopped: u64,
    /// Turns of inline actors run by a sender on this worker (also counted in `turns`).
    pub inline_turns: u64,
    /// Tasks that moved to this worker from another's deque by stealing (a steal takes up
    /// to half of the victim's deque, so this is at least `steals`).
    pub tasks_stolen: u64,
    /// Tasks this worker scheduled onto a queue another thread takes from: another
    /// stage's inbox, the shared injector, a dedicated stage.
    pub tasks_pushed_out: u64,
    /// Times the worker ran out of work in its own queues and searched the others.
    pub searches: u64,
    /// Searches that found nothing (each then parks, or finds work at the last look).
    pub searches_failed: u64,
    /// Parked threads this worker woke.
    pub wakes: u64,
    /// Times the worker parked although it could see work in another worker's queue,
    /// because its last runs were all too short to be worth a core of their own (it then
    /// left that work to the workers still awake; also counted in `parks`).
    pub yields: u64,
    /// Steals whose first task had last gone idle on this worker (its actor was woken on
    /// the victim's worker since, and came back by the steal). Counted only by
    /// work-stealing pools of several workers.
    pub stolen_back: u64,
    /// Time spent running turns (and taking them from its own queues).
    pub running: Duration,
    /// Time spent searching other workers' queues and spinning between looks.
    pub searching: Duration,
    /// Time spent parked.
    pub parked: Duration,
    /// Time spent waking other threads (a part of `running`).
    pub waking: Duration,
    /// Turns that pushed so many more messages onto actors busy on another worker than
    /// they handled that, under [`Rule::Keep`](crate::Rule::Keep), they kept what they woke
    /// on this worker until they ended.
    pub keeping_turns: u64,
    /// Times the worker gave its work back to another worker whose keeping turn asked for
    /// it, and parked (also counted in `yields`).
    pub yields_to_keeping: u64,
}

impl WorkerMetrics {
    fn add(&mut self, other: &WorkerMetrics) {
        self.turns += other.turns;
        self.steals += other.steals;
        self.parks += other.parks;
        self.messages_handled += other.messages_handled;
        self.messages_sent += other.messages_sent;
        self.actors_spawned += other.actors_spawned;
        self.actors_stopped += other.actors_stopped;
        self.inline_turns += other.inline_turns;
        self.tasks_stolen += other.tasks_stolen;
        self.tasks_pushed_out += other.tasks_pushed_out;
        self.searches += other.searches;
        self.searches_failed += other.searches_failed;
        self.wakes += other.wakes;
        self.yields += other.yields;
        self.stolen_back += other.stolen_back;
        self.running += other.running;
        self.searching += other.searching;
        self.parked += other.parked;
        self.waking += other.waking;
        self.keeping_turns += other.keeping_turns;
        self.yields_to_keeping += other.yields_to_keeping;
    }

    /// Hand-offs that crossed between threads: tasks stolen from another worker plus tasks
    /// pushed onto another thread's queue. On one worker, with no other threads sending,
    /// this is 0.
    pub fn crossed_handoffs(&self) -> u64 {
        self.tasks_stolen + self.tasks_pushed_out
    }

    /// The sum of several workers' counters.
    pub fn total<'a>(workers: impl IntoIterator<Item = &'a WorkerMetrics>) -> WorkerMetrics {
        let mut sum = WorkerMetrics::default();
        for w in workers {
            sum.add(w);
        }
        sum
    }
}

/// A snapshot of a system's counters; see [`crate::System::metrics`].
///
/// ```
/// # fn main() -> Result<(), footlights::ConfigError> {
/// let system = footlights::System::builder().threads(2).build()?;
/// let m = system.metrics();
/// assert_eq!(m.workers.len(), 2);
/// assert_eq!(m.live_actors(), 0);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// One entry per pool worker thread.
    pub workers: Vec<WorkerMetrics>,
    /// All dedicated stages together, those running and those retired.
    pub dedicated: WorkerMetrics,
    /// Dedicated stages started so far.
    pub dedicated_started: u64,
    /// Dedicated stages running now.
    pub dedicated_live: u64,
    /// Placements on a dedicated stage that were refused (the limit was reached, or the
    /// operating system would not start a thread); those actors went to the pool.
    pub dedicated_refused: u64,
    /// Actors the automatic placement moved.
    pub placement_moves: u64,
    /// Times the automatic placement switched a lone work-stealing worker between
    /// hand-off order (the next slot first) and plain FIFO order.
    pub queue_switches: u64,
    /// Whether a lone work-stealing worker keeps plain FIFO order now (chosen by the
    /// automatic placement; otherwise a hand-off takes the next slot and runs first).
    pub fifo_order: bool,
    /// Whether the pool's workers label the groups their actors form (a tug of war was
    /// seen; see `docs/experiments/2026-11-27-whole-groups.md`): a woken worker then steals whole
    /// groups.
    pub labels_groups: bool,
    /// Messages sent from threads outside the runtime.
    pub external_messages_sent: u64,
    /// Actors spawned from threads outside the runtime.
    pub external_actors_spawned: u64,
    /// Messages that reached an actor after it stopped, and were dropped.
    pub dead_letters: u64,
}

impl Metrics {
    /// Every thread's counters together: the pool workers' and the dedicated stages'.
    pub fn all_threads(&self) -> WorkerMetrics {
        WorkerMetrics::total(self.workers.iter().chain(std::iter::once(&self.dedicated)))
    }

    /// Messages handled by all actors.
    pub fn messages_handled(&self) -> u64 {
        self.all_threads().messages_handled
    }

    /// Messages sent, from inside and outside the runtime.
    pub fn messages_sent(&self) -> u64 {
        self.all_threads().messages_sent + self.external_messages_sent
    }

    /// Actors spawned and not yet stopped.
    pub fn live_actors(&self) -> u64 {
        let all = self.all_threads();
        (all.actors_spawned + self.external_actors_spawned).saturating_sub(all.actors_stopped)
    }

    /// Messages sent but neither handled nor dropped as dead letters.
    pub fn messages_pending(&self) -> u64 {
        self.messages_sent()
            .saturating_sub(self.messages_handled() + self.dead_letters)
    }
}

impl WorkerStats {
    pub(crate) fn snapshot(&self) -> WorkerMetrics {
        let get = |c: &AtomicU64| c.load(Ordering::Acquire);
        WorkerMetrics {
            turns: get(&self.turns),
            steals: get(&self.steals),
            parks: get(&self.parks),
            messages_handled: get(&self.handled),
            messages_sent: get(&self.sent) + get(&self.sent_waking),
            actors_spawned: get(&self.spawned),
            actors_stopped: get(&self.stopped),
            inline_turns: get(&self.inline_turns),
            tasks_stolen: get(&self.stolen),
            tasks_pushed_out: get(&self.pushed_out),
            searches: get(&self.searches),
            searches_failed: get(&self.searches_failed),
            wakes: get(&self.wakes),
            yields: get(&self.yields),
            stolen_back: get(&self.stolen_back),
            running: Duration::from_nanos(get(&self.running_ns)),
            searching: Duration::from_nanos(get(&self.searching_ns)),
            parked: Duration::from_nanos(get(&self.parked_ns)),
            waking: Duration::from_nanos(get(&self.waking_ns)),
            keeping_turns: get(&self.keeping_turns),
            yields_to_keeping: get(&self.yields_to_keeping),
        }
    }
}

/// Nanoseconds in `d`, saturating (for the time counters).
pub(crate) fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// One line per pool worker (and one for the dedicated stages, if any ran): where its
/// time went and what it did. `FOOTLIGHTS_STATS=1` prints this on standard error when a
/// system shuts down.
///
/// ```
/// # fn main() -> Result<(), footlights::ConfigError> {
/// let system = footlights::System::builder().threads(2).build()?;
/// let table = system.metrics().to_string();
/// assert!(table.starts_with("worker"));
/// assert_eq!(table.lines().count(), 3); // a header and two workers
/// # Ok(()) }
/// ```
impl fmt::Display for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "worker      turns   running  searching     parked    waking  wakes  searches  failed  yields  steals  stolen  pushed out   back       sent    handled  kept"
        )?;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut row = |name: String, w: &WorkerMetrics| {
            writeln!(
                f,
                "{name:<6} {:>10} {:>7.1}ms {:>8.1}ms {:>8.1}ms {:>7.1}ms {:>6} {:>9} {:>7} {:>7} {:>7} {:>7} {:>11} {:>6} {:>10} {:>10} {:>5}",
                w.turns,
                ms(w.running),
                ms(w.searching),
                ms(w.parked),
                ms(w.waking),
                w.wakes,
                w.searches,
                w.searches_failed,
                w.yields,
                w.steals,
                w.tasks_stolen,
                w.tasks_pushed_out,
                w.stolen_back,
                w.messages_sent,
                w.messages_handled,
                w.keeping_turns,
            )
        };
        for (i, w) in self.workers.iter().enumerate() {
            row(i.to_string(), w)?;
        }
        if self.dedicated_started > 0 {
            row("ded.".to_owned(), &self.dedicated)?;
        }
        Ok(())
    }
}
