//! The actor system: building it, spawning, quiescence, metrics and shutdown.
//!
//! [`System`] is the top of the runtime: it assembles the layers below it. Building one
//! resolves the configuration ([`crate::config`]), makes the scheduler (and, for placement
//! `observe` or `auto`, the automatic placement that observes it), the state every actor
//! shares ([`crate::runtime`]), and starts the worker threads and the placement
//! controller. Dropping the `System` shuts it down. See [`crate::scheduler`] for how actors
//! are run.
//!
//! [`System::shutdown`] says how a system shuts down.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

mod naming;
#[cfg(feature = "metrics")]
mod publish;

use crate::actor::{Actor, Addr, SpawnOptions};
use crate::auto::{self, Auto};
use crate::cell::PanicReport;
use crate::census::Census;
use crate::config::{self, ConfigError, DEFAULT_BATCH, DEFAULT_MAX_DEDICATED};
use crate::metrics::{Metrics, WorkerMetrics};
use crate::placement::{Placement, PlacementMode, Policy, SchedulerKind};
use crate::registry::Registry;
use crate::runtime::{PanicHook, Shared};
use crate::scheduler::probe::Observer;
use crate::scheduler::{self, Governor, Scheduler, SchedulerConfig};
use crate::timer::TimerService;

/// Builds a [`System`]. Settings left unset come from the environment, then defaults; see
/// [`crate::config`].
///
/// ```
/// # fn main() -> Result<(), footlights::ConfigError> {
/// let system = footlights::System::builder().threads(2).batch(50).build()?;
/// assert_eq!(system.threads(), 2);
/// # Ok(()) }
/// ```
#[must_use]
pub struct Builder {
    threads: Option<usize>,
    batch: Option<usize>,
    scheduler: Option<SchedulerKind>,
    policy: Option<Policy>,
    placement: Option<PlacementMode>,
    max_dedicated: Option<usize>,
    cpus: Option<usize>,
    print_stats: Option<bool>,
    governor: Option<Governor>,
    on_panic: Option<PanicHook>,
    #[cfg(feature = "tokio")]
    tokio: Option<tokio::runtime::Handle>,
}

impl Builder {
    /// The number of worker threads (stages). Else `FOOTLIGHTS_THREADS`, else the available
    /// parallelism. With more threads than CPUs ([`Builder::cpus`]), at most as many
    /// workers as there are CPUs are awake for shared work at once, and the others start
    /// only when first needed (for work pinned to their stage, or when fewer are awake).
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Some(n);
        self
    }

    /// The CPUs the runtime counts on. Else `FOOTLIGHTS_CPUS`, else the CPUs in the
    /// affinity mask of the thread that builds the system (what `taskset` sets).
    ///
    /// With more worker threads than this, at most this many workers are awake for shared
    /// (pool) work at once: more would only take turns on the same CPUs, waking, spinning
    /// and being preempted (`FOOTLIGHTS_THREADS=8` on two CPUs ran short programs up to
    /// 2.2 times slower before this rule). The cost of the rule: a handler that *blocks*
    /// (sleeps, waits on a lock or on I/O outside the runtime) holds one of those places
    /// for as long as it blocks, and pool work waits for the others. Put actors that block
    /// on threads of their own ([`crate::Placement::Dedicated`]), or, to have a pool in
    /// which every worker may run shared work at once, set this to the thread count.
    ///
    /// ```
    /// use footlights::System;
    ///
    /// // Four workers, each free to run pool work whatever the machine's CPUs.
    /// let system = System::builder().threads(4).cpus(4).build().unwrap();
    /// assert_eq!(system.threads(), 4);
    /// system.shutdown();
    /// ```
    pub fn cpus(mut self, n: usize) -> Self {
        self.cpus = Some(n);
        self
    }

    /// Messages an actor handles per turn before yielding its worker. Else
    /// `FOOTLIGHTS_BATCH`, else 100.
    pub fn batch(mut self, n: usize) -> Self {
        self.batch = Some(n);
        self
    }

    /// How workers share actors: work stealing, work sharing or stages. Else
    /// `FOOTLIGHTS_SCHEDULER`, else work stealing.
    ///
    /// ```
    /// use footlights::{SchedulerKind, System};
    /// # fn main() -> Result<(), footlights::ConfigError> {
    /// let system = System::builder().scheduler(SchedulerKind::Share).build()?;
    /// assert_eq!(system.scheduler(), SchedulerKind::Share);
    /// # Ok(()) }
    /// ```
    pub fn scheduler(mut self, kind: SchedulerKind) -> Self {
        self.scheduler = Some(kind);
        self
    }

    /// The execution policy of actors spawned without a placement. Else
    /// `FOOTLIGHTS_POLICY`, else `task`.
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = Some(policy);
        self
    }

    /// Whether the runtime samples actors and moves them. Else `FOOTLIGHTS_PLACEMENT`, else
    /// manual.
    pub fn placement(mut self, mode: PlacementMode) -> Self {
        self.placement = Some(mode);
        self
    }

    /// The most dedicated stages (threads of their own) running at once; placements beyond
    /// it go to the pool. Else `FOOTLIGHTS_MAX_DEDICATED`, else 4096.
    pub fn max_dedicated(mut self, n: usize) -> Self {
        self.max_dedicated = Some(n);
        self
    }

    /// Prints each worker's counters (where its time went: running, searching, parked,
    /// waking others; see [`Metrics`]) on standard error when the system shuts down. Else
    /// `FOOTLIGHTS_STATS` (`1` on, `0` off), else off.
    pub fn print_stats(mut self, on: bool) -> Self {
        self.print_stats = Some(on);
        self
    }

    /// Which adaptive rules the work-stealing scheduler applies ([`Governor`]). Else
    /// `FOOTLIGHTS_GOVERNOR` (`adaptive`, `plain`, `plain+labels+flood`,
    /// `adaptive-watcher`, ...), else [`Governor::adaptive`]: every rule.
    ///
    /// ```
    /// use footlights::{Governor, Rule, System};
    /// # fn main() -> Result<(), footlights::ConfigError> {
    /// // What tokio and Go keep: a next slot, stealing and a limit on searchers.
    /// let plain = System::builder().threads(2).governor(Governor::plain()).build()?;
    /// assert_eq!(plain.governor(), Governor::plain());
    /// // Every rule but one, to measure what that one is worth.
    /// let g = Governor::adaptive().without(Rule::Flood);
    /// let system = System::builder().threads(2).governor(g).build()?;
    /// assert!(!system.governor().has(Rule::Flood));
    /// # Ok(()) }
    /// ```
    pub fn governor(mut self, governor: Governor) -> Self {
        self.governor = Some(governor);
        self
    }

    /// Called when a handler panics (the actor is stopped), and for the other panics of
    /// user code the runtime catches ([`PanicReport::during`] says where). The default
    /// prints one line on standard error (and prints nothing if it cannot). A hook that
    /// panics itself is caught: the report is lost, nothing else.
    pub fn on_panic(mut self, hook: impl Fn(&PanicReport) + Send + Sync + 'static) -> Self {
        self.on_panic = Some(Box::new(hook));
        self
    }

    /// The tokio runtime whose reactor futures inside actors use
    /// ([`crate::Context::run_future`]); it must drive its I/O (a multi-threaded runtime
    /// does). Else the system starts one of its own, with one worker, the first time it
    /// is needed ([`System::tokio`]). Needs the `tokio` feature.
    ///
    /// The context is entered while a future is polled, not while a handler runs: make
    /// tokio's sockets and timers inside the future (an `async` block), or enter
    /// [`System::tokio`] yourself.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// /// Answers after a tokio sleep, without blocking a worker.
    /// struct Late;
    /// impl Actor for Late {
    ///     type Msg = ReplyTo<&'static str>;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, answer: Self::Msg) {
    ///         // Made inside the future, where the reactor's context is entered.
    ///         let nap = async { tokio::time::sleep(Duration::from_millis(1)).await };
    ///         ctx.run_future(nap, move |_, _, ()| { let _ = answer.send("rested"); });
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let tokio = tokio::runtime::Runtime::new()?;
    /// let system = System::builder().threads(1).tokio(tokio.handle().clone()).build()?;
    /// let late = system.spawn(Late);
    /// assert_eq!(late.ask(|r| r)?.wait()?, "rested");
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "tokio")]
    pub fn tokio(mut self, handle: tokio::runtime::Handle) -> Self {
        self.tokio = Some(handle);
        self
    }

    /// Starts the worker threads.
    pub fn build(self) -> Result<System, ConfigError> {
        let threads = config::resolve(
            "threads",
            self.threads,
            config::THREADS_ENV,
            config::available_parallelism,
        )?;
        let batch = config::resolve("batch", self.batch, config::BATCH_ENV, || DEFAULT_BATCH)?;
        let max_dedicated = config::resolve(
            "max_dedicated",
            self.max_dedicated,
            config::MAX_DEDICATED_ENV,
            || DEFAULT_MAX_DEDICATED,
        )?;
        let cpus = config::resolve("cpus", self.cpus, config::CPUS_ENV, config::cpus)?;
        let kind = config::resolve_choice(self.scheduler, config::SCHEDULER_ENV)?;
        let policy = config::resolve_choice(self.policy, config::POLICY_ENV)?;
        let mode = config::resolve_choice(self.placement, config::PLACEMENT_ENV)?;
        let print_stats = config::resolve_flag(self.print_stats, config::STATS_ENV)?;
        let governor = config::resolve_governor(self.governor)?;
        let auto = (mode != PlacementMode::Manual).then(|| Arc::new(Auto::new(mode)));
        let sched = Scheduler::new(
            SchedulerConfig {
                threads,
                batch,
                kind,
                max_dedicated,
                cpus,
                governor,
            },
            auto.clone().map(|a| a as Arc<dyn Observer>),
        );
        let shared = Arc::new(Shared {
            sched,
            policy,
            mode,
            on_panic: self.on_panic.unwrap_or_else(|| {
                Box::new(|r: &PanicReport| {
                    use std::io::Write as _;
                    // Not `eprintln!`, which panics when standard error is a closed
                    // pipe: a report that cannot be written is lost, quietly.
                    let outcome = if r.during == "a timer" {
                        "the timer was dropped"
                    } else {
                        "it was stopped"
                    };
                    let _ = writeln!(
                        std::io::stderr(),
                        "footlights: actor {} panicked in {}: {}; {outcome}",
                        r.actor,
                        r.during,
                        r.message
                    );
                })
            }),
            dead_letters: AtomicU64::new(0),
            census: Census::new(threads),
            timers: TimerService::new(),
            #[cfg(feature = "tokio")]
            reactor: crate::reactor::Reactor::new(self.tokio),
            registry: Registry::new(),
            closing: AtomicBool::new(false),
        });
        let mut system = System {
            shared: Arc::clone(&shared),
            auto: auto.clone(),
            workers: Vec::new(),
            controller: None,
            print_stats,
        };
        match scheduler::start_workers(&shared.sched) {
            Ok(w) => system.workers = w,
            Err(e) => {
                shared.sched.begin_shutdown();
                return Err(ConfigError::Spawn(e.to_string()));
            }
        }
        if let Some(auto) = &auto {
            system.controller = Some(
                auto::start(auto, &shared.sched, policy)
                    .map_err(|e| ConfigError::Spawn(e.to_string()))?,
            );
        }
        Ok(system)
    }
}

/// An actor system: a set of worker threads running actors.
///
/// ```
/// use footlights::{Actor, Context, System};
///
/// struct Hello;
/// impl Actor for Hello {
///     type Msg = String;
///     fn handle(&mut self, _ctx: &mut Context<Self>, name: String) {
///         eprintln!("hello, {name}");
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().build()?;
/// let hello = system.spawn(Hello);
/// hello.send("world".to_owned())?;
/// system.wait_quiescent();
/// let report = system.shutdown();
/// assert_eq!(report.pending_messages, 0);
/// assert_eq!(report.stopped_actors, 1);
/// # Ok(()) }
/// ```
pub struct System {
    shared: Arc<Shared>,
    /// Automatic placement, for placement `observe` or `auto`.
    auto: Option<Arc<Auto>>,
    workers: Vec<JoinHandle<()>>,
    controller: Option<JoinHandle<()>>,
    /// Print the workers' counters at shutdown.
    print_stats: bool,
}

/// What a shutdown did, and what it left undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Messages sent but never handled: those still queued when their actors were stopped
    /// (or when the workers stopped).
    pub pending_messages: u64,
    /// Actors live when the shutdown began that it stopped (their `stopped` hooks ran, if
    /// they had started), and actors spawned while it ran.
    pub stopped_actors: u64,
    /// Actors that had not stopped when the workers stopped: 0, unless a thread outside
    /// the runtime spawned an actor while the shutdown ended, and its first turn ran
    /// after the last sweep.
    pub live_actors: u64,
}

impl System {
    /// A builder with nothing set (environment and defaults apply).
    pub fn builder() -> Builder {
        Builder {
            threads: None,
            batch: None,
            scheduler: None,
            policy: None,
            placement: None,
            max_dedicated: None,
            cpus: None,
            print_stats: None,
            governor: None,
            on_panic: None,
            #[cfg(feature = "tokio")]
            tokio: None,
        }
    }

    /// The tokio runtime whose reactor futures inside actors use: the one given to
    /// [`Builder::tokio`], else the system's own, started now if it was not already.
    /// Needs the `tokio` feature.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = footlights::System::builder().threads(1).build()?;
    /// // Registering a socket with the reactor needs its context.
    /// let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    /// listener.set_nonblocking(true)?;
    /// let _context = system.tokio().enter();
    /// let listener = tokio::net::TcpListener::from_std(listener)?;
    /// # drop(listener);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "tokio")]
    pub fn tokio(&self) -> tokio::runtime::Handle {
        self.shared.reactor.handle().clone()
    }

    /// Spawns an actor and returns its address. It starts with its `started` hook. It is
    /// placed by the system's default policy ([`Placement::Default`]).
    pub fn spawn<A: Actor>(&self, actor: A) -> Addr<A> {
        Addr::spawn(&self.shared, actor, &Placement::Default)
    }

    /// Spawns an actor where `placement` says; see [`Placement`].
    pub fn spawn_placed<A: Actor>(&self, actor: A, placement: Placement) -> Addr<A> {
        Addr::spawn(&self.shared, actor, &placement)
    }

    /// Spawns an actor with `options`: where it runs and whether its mailbox is bounded;
    /// see [`SpawnOptions`].
    pub fn spawn_with<A: Actor>(&self, actor: A, options: SpawnOptions) -> Addr<A> {
        Addr::spawn_with(&self.shared, actor, &options)
    }

    /// The scheduler kind.
    pub fn scheduler(&self) -> SchedulerKind {
        self.shared.sched.kind
    }

    /// The governor in effect: which of the scheduler's adaptive rules apply (see
    /// [`Builder::governor`]).
    pub fn governor(&self) -> Governor {
        self.shared.sched.policy.rules
    }

    /// The default execution policy.
    pub fn policy(&self) -> Policy {
        self.shared.policy
    }

    /// The placement mode.
    pub fn placement(&self) -> PlacementMode {
        self.shared.mode
    }

    /// The scheduler (for the scheduler's own tests).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn sched(&self) -> &Arc<Scheduler> {
        &self.shared.sched
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.shared.sched.threads()
    }

    /// Messages per turn.
    pub fn batch(&self) -> usize {
        self.shared.sched.batch.get()
    }

    /// Blocks until the system is quiescent: no actor running or scheduled, and no message
    /// in any mailbox. Call it from outside the runtime (never from a handler).
    pub fn wait_quiescent(&self) {
        self.shared.sched.wait_quiescent(None);
    }

    /// Like [`System::wait_quiescent`], but gives up after `timeout`; `true` if quiescent.
    pub fn wait_quiescent_timeout(&self, timeout: Duration) -> bool {
        self.shared
            .sched
            .wait_quiescent(Some(std::time::Instant::now() + timeout))
    }

    /// How many timers are pending ([`crate::timer`]): set, and not yet fired, cancelled
    /// or ended. Pending timers do not keep the system from being quiescent
    /// ([`System::wait_quiescent`] is about messages and actors): a timer is not work
    /// until it fires.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    /// use std::time::Duration;
    ///
    /// struct Idle;
    /// impl Actor for Idle {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let idle = system.spawn(Idle);
    /// let timer = idle.send_after(Duration::from_secs(60), ());
    /// assert_eq!(system.pending_timers(), 1);
    /// system.wait_quiescent(); // returns although the timer is pending
    /// timer.cancel();
    /// assert_eq!(system.pending_timers(), 0);
    /// # Ok(()) }
    /// ```
    pub fn pending_timers(&self) -> usize {
        self.shared.timers.pending()
    }

    /// Whether the system is quiescent right now.
    pub fn is_quiescent(&self) -> bool {
        self.shared.sched.is_quiescent()
    }

    /// A snapshot of the counters.
    pub fn metrics(&self) -> Metrics {
        let sched = &self.shared.sched;
        let dedicated = {
            let registry = sched.dedicated.lock();
            let snapshots: Vec<WorkerMetrics> =
                registry.all_stats().map(|s| s.snapshot()).collect();
            WorkerMetrics::total(&snapshots)
        };
        let (dedicated_started, dedicated_refused) = sched.dedicated.started_and_refused();
        Metrics {
            workers: sched.stages.iter().map(|s| s.stats.snapshot()).collect(),
            dedicated,
            dedicated_started,
            dedicated_live: sched.dedicated.live() as u64,
            dedicated_refused,
            placement_moves: self
                .auto
                .as_ref()
                .map_or(0, |a| a.placement_moves.load(Ordering::Relaxed)),
            queue_switches: self
                .auto
                .as_ref()
                .map_or(0, |a| a.queue_switches.load(Ordering::Relaxed)),
            fifo_order: sched.stages.first().is_some_and(|s| s.keeps_fifo()),
            labels_groups: sched.policy.yardstick.grouping(),
            external_messages_sent: sched.external.sent.load(Ordering::Acquire),
            external_actors_spawned: sched.external.spawned.load(Ordering::Acquire),
            dead_letters: self.shared.dead_letters.load(Ordering::Acquire),
        }
    }

    /// Stops every live actor now (each handler already running finishes first), running
    /// their `stopped` hooks, then stops the threads, and reports what was left undone.
    /// Queued messages are dropped and counted in [`ShutdownReport::pending_messages`].
    /// Sends after this fail. Dropping the `System` does the same.
    ///
    /// The actors are stopped while the workers still run, so that each `stopped` hook
    /// runs on a worker with a working [`crate::Context`], as any stop's would:
    ///
    /// 1. A sweep of every live actor (the system keeps a census of them) kills each, as
    ///    [`Addr::kill`] does: it stops before it handles anything more.
    /// 2. The system waits until it is quiescent, and then until every killed actor has
    ///    stopped (one woken by a thread outside the runtime, that has yet to schedule it,
    ///    is not work that quiescence sees). Actors that started meanwhile (spawned just
    ///    before, or by a `stopped` hook) are found by the next sweep, which comes after
    ///    a while even if the system is not quiescent yet (such an actor may keep it
    ///    busy); the sweeps end when no actor is left.
    /// 3. The workers, dedicated stages and placement controller stop. An actor still
    ///    scheduled then, which will never run again (none is, unless something woke it
    ///    after the last sweep), has its mailbox closed: what is queued
    ///    is dropped, so an ask waiting in it resolves to [`crate::reply::Canceled`], and
    ///    later sends fail as sends to a stopped actor do. Its hooks do not run.
    ///
    /// A handler that never returns cannot be stopped (a worker cannot preempt it), so the
    /// shutdown waits for it; so it does for an actor muted on a bounded mailbox of
    /// another system that never drains ([`crate::Context::send`]). [`System::shutdown_graceful`] lets the actors handle what is
    /// queued first.
    pub fn shutdown(mut self) -> ShutdownReport {
        self.stop_all(None)
    }

    /// Lets the actors handle what is queued first: waits until the system is quiescent
    /// (every message sent has been handled), for at most `deadline`, then shuts down as
    /// [`System::shutdown`] does. If the deadline passed first, what was still queued is
    /// counted in [`ShutdownReport::pending_messages`].
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    /// use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    /// use std::sync::Arc;
    ///
    /// /// Adds what it is sent to a total it flushes when it stops.
    /// struct Batcher { sum: u64, flushed: Arc<AtomicU64> }
    /// impl Actor for Batcher {
    ///     type Msg = u64;
    ///     fn handle(&mut self, _: &mut Context<Self>, n: u64) { self.sum += n; }
    ///     fn stopped(&mut self, _: &mut Context<Self>) {
    ///         self.flushed.store(self.sum, Ordering::SeqCst);
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let flushed = Arc::new(AtomicU64::new(0));
    /// let batcher = system.spawn(Batcher { sum: 0, flushed: Arc::clone(&flushed) });
    /// for n in 1..=100 {
    ///     batcher.send(n)?;
    /// }
    /// let report = system.shutdown_graceful(std::time::Duration::from_secs(60));
    /// assert_eq!(report.pending_messages, 0, "drained before the deadline");
    /// assert_eq!(flushed.load(Ordering::SeqCst), 5050, "and the stopped hook ran");
    /// # Ok(()) }
    /// ```
    pub fn shutdown_graceful(mut self, deadline: Duration) -> ShutdownReport {
        self.stop_all(Some(deadline))
    }

    /// Drains for at most `drain`, stops every actor, stops the threads, and reports.
    fn stop_all(&mut self, drain: Option<Duration>) -> ShutdownReport {
        let dead_before = self.shared.dead_letters.load(Ordering::Acquire);
        if let Some(deadline) = drain {
            self.wait_quiescent_timeout(deadline);
        }
        // Pending timers are dropped first, so that none fires into the actors stopping.
        self.shared.timers.shut_down();
        self.shared.closing.store(true, Ordering::Release);
        let stopped = self.stop_every_actor();
        let live = self.stop_workers();
        let m = self.metrics();
        ShutdownReport {
            pending_messages: m
                .messages_sent()
                .saturating_sub(m.messages_handled() + dead_before),
            stopped_actors: stopped,
            live_actors: live,
        }
    }

    /// Kills every actor in the census, sweep after sweep, until none is left; returns how
    /// many the sweeps killed. See [`System::shutdown`].
    fn stop_every_actor(&self) -> u64 {
        let census = &self.shared.census;
        let mut stopped = 0;
        let mut step = 0;
        let mut patience = RESWEEP_FIRST;
        loop {
            let killed = census.sweep();
            stopped += killed as u64;
            // An actor enters the census on its first turn, so one spawned before this
            // sweep may have entered since (and started): the next sweep kills it. If it
            // keeps busy (it sends itself messages) the system never goes quiet until it
            // is killed, so the sweeps go on while it does not, less and less often.
            let deadline = std::time::Instant::now() + patience;
            if !self.shared.sched.wait_quiescent(Some(deadline)) {
                patience = (patience * 2).min(RESWEEP_LAST);
                continue;
            }
            patience = RESWEEP_FIRST;
            if census.live() == 0 {
                return stopped;
            }
            if killed > 0 {
                step = 0;
                continue;
            }
            // Every actor left was killed by an earlier sweep, and no worker holds it,
            // although its stop is still to come: a thread outside the runtime (a sender,
            // a reactor's waker) pushed to it when it was idle and has yet to schedule it,
            // which quiescence cannot see; or it is muted on a mailbox that has yet to
            // drain. Either way it will be scheduled, and stop: wait for it.
            pause(&mut step);
        }
    }

    /// Stops the workers after their current turns, the dedicated stages and the
    /// placement controller, and drops what the queues still hold. Returns how many actors
    /// had not stopped when the workers stopped (see [`ShutdownReport::live_actors`]).
    fn stop_workers(&mut self) -> u64 {
        let dedicated = self.shared.sched.begin_shutdown();
        if let Some(controller) = self.controller.take() {
            controller.thread().unpark();
            let _ = controller.join();
        }
        let lazy = self.shared.sched.take_lazy_threads();
        for w in self.workers.drain(..).chain(lazy).chain(dedicated) {
            // A worker never panics (handlers are caught); if it somehow did, carry on.
            let _ = w.join();
        }
        let live = self.shared.census.live() as u64;
        if self.print_stats {
            let m = self.metrics();
            eprint!("footlights: {} workers\n{m}", m.workers.len());
        }
        self.shared.sched.drain_queues();
        // A name left over (an actor that never stopped) would keep the system alive.
        drop(self.shared.registry.clear());
        live
    }
}

/// How long a shutdown waits for quiescence after its first sweep before it sweeps again
/// (see `System::stop_every_actor`), and the longest it waits between sweeps (each wait
/// doubles).
const RESWEEP_FIRST: Duration = Duration::from_millis(10);
const RESWEEP_LAST: Duration = Duration::from_secs(1);

/// Waits a little for a thread outside the runtime to schedule an actor it woke: yields
/// at first (it may have been preempted between its push and its scheduling), then
/// sleeps a millisecond at a time, so that a long wait costs no processor.
fn pause(step: &mut u32) {
    if *step < 16 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(Duration::from_millis(1));
    }
    *step += 1;
}

impl Drop for System {
    fn drop(&mut self) {
        if !self.workers.is_empty() {
            self.stop_all(None);
        }
    }
}

impl std::fmt::Debug for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("System")
            .field("threads", &self.threads())
            .field("batch", &self.batch())
            .field("scheduler", &self.scheduler())
            .field("policy", &self.policy())
            .field("placement", &self.placement())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::System;
    use crate::actor::{Actor, Context};
    use crate::reply::{Canceled, ReplyTo};

    /// A hang guard.
    const PATIENCE: Duration = Duration::from_secs(60);

    /// Holds its worker in its handler until the gate opens.
    struct Hold {
        gate: mpsc::Receiver<()>,
        entered: mpsc::Sender<()>,
    }

    impl Actor for Hold {
        type Msg = ();
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {
            let _ = self.entered.send(());
            let _ = self.gate.recv_timeout(PATIENCE);
        }
    }

    /// Answers 7.
    struct Seven;

    impl Actor for Seven {
        type Msg = ReplyTo<u32>;
        fn handle(&mut self, _: &mut Context<Self>, reply: ReplyTo<u32>) {
            let _ = reply.send(7);
        }
    }

    /// The workers stop while an actor waits in a run queue, its first turn never run,
    /// with an ask in its mailbox (what a shutdown would leave of an actor scheduled after
    /// its last sweep): the ask resolves, cancelled, and later sends are refused.
    #[test]
    fn an_ask_to_an_actor_that_never_ran_resolves_when_the_workers_stop() {
        let mut system = System::builder().threads(1).build().unwrap();
        let (open, gate) = mpsc::channel();
        let (entered, inside) = mpsc::channel();
        let hold = system.spawn(Hold { gate, entered });
        hold.send(()).unwrap();
        inside.recv_timeout(PATIENCE).expect("the worker is held");
        let seven = system.spawn(Seven);
        let reply = seven.ask(|r| r).unwrap();
        // The one worker is told to stop while it is held, so it stops after the held
        // turn, before the new actor's first.
        let dedicated = system.shared.sched.begin_shutdown();
        assert!(dedicated.is_empty());
        drop(open);
        let live = system.stop_workers();
        assert_eq!(live, 1, "the held actor, which never stopped");
        assert!(matches!(reply.wait_timeout(PATIENCE), Some(Err(Canceled))));
        assert!(
            seven.send(crate::reply::pair().0).is_err(),
            "refused after shutdown"
        );
        assert!(!seven.is_stopped(), "it never ran, so it never stopped");
    }
}
