//! Where an actor runs: placements, execution policies, scheduler kinds, and the per-actor
//! *home* the scheduler reads every time it schedules the actor.
//!
//! # The choices, and where they come from
//!
//! Footlights puts the mappings of actors onto threads that the seed runtimes each fixed
//! into one code base, chosen at run time:
//!
//! * **Placement** (SALSA Lite's first-class placement): a program may spawn an actor with a
//!   [`Placement`]: on stage `k`, on the same stage as another actor, on a new dedicated
//!   stage (a thread of its own), run inline by its senders, or (the default) wherever the
//!   runtime chooses. The *number* of stages is never the program's choice: stage `k` of a
//!   system with `n` workers is stage `k mod n`, so the same program runs on every
//!   configuration.
//! * **Execution policy** (Panini's thread, task and inline): the [`Policy`] an actor gets
//!   when the program does not place it. `task` is the shared pool, `thread` a dedicated
//!   stage per actor, `inline` means a sender runs the receiver's handler itself when the
//!   receiver is idle.
//! * **Scheduler** (Boost.Fiber's and Encore's comparison): [`SchedulerKind`] selects work
//!   stealing, work sharing (one shared queue) or stages without stealing.
//! * **Automatic placement** ([`PlacementMode::Auto`]): the runtime samples what actors do
//!   and moves the ones it placed itself while the program runs; see [`crate::auto`].
//!
//! Each has a builder method and an environment variable ([`crate::config`]).
//!
//! # The home word
//!
//! Every actor cell has a *home*: one atomic word naming where the actor is scheduled
//! next (the pool, pool stage `k`, its dedicated stage, or inline), plus a bit saying
//! whether the runtime may move it (it may not move what the program placed). The
//! scheduler reads the word each time it schedules the actor, so moving an actor is just a
//! store to that word: the move takes effect at the actor's next scheduling. That is why a
//! move can never break the runtime's guarantees: whichever queue an actor sits in, its
//! mailbox's idle bit still lets exactly one thread run it at a time, and its messages
//! still come out of the one mailbox in the order they went in.
//!
//! A dedicated stage is reached through a lock in the home. Whoever schedules onto a
//! dedicated stage pushes while holding it, and moving an actor away takes the same lock,
//! so a stage never retires with a task still on its way to it
//! (the `scheduler::dedicated` module).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use parking_lot::Mutex;

use crate::scheduler::stage::Stage;
use crate::scheduler::{Task, worker};
use crate::system::Shared;

/// How worker threads share actors; see the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchedulerKind {
    /// Each worker has its own run queue; an idle worker steals half of another's (the
    /// default). The receiver of a send usually runs next on the sender's worker (the
    /// *next slot*), except on a lone worker, which runs tasks in FIFO order unless
    /// [`PlacementMode::Auto`] sees that hand-off order is better (see
    /// [`crate::Metrics::fifo_order`]).
    #[default]
    Steal,
    /// One queue shared by every worker: each turn is taken from it, and requeued to it.
    Share,
    /// SALSA Lite's stages: each actor belongs to one worker (round robin at spawn unless
    /// placed), and workers never take each other's actors.
    Stages,
}

/// The execution policy of an actor spawned without a [`Placement`] (Panini's three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Run by the shared pool of workers (the default).
    #[default]
    Task,
    /// Run on a dedicated stage of its own: a thread per actor.
    Thread,
    /// Run by its sender when it is idle; see [`Placement::Inline`].
    Inline,
}

/// Whether the runtime moves actors while the program runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlacementMode {
    /// Actors stay where they were placed (the default).
    #[default]
    Manual,
    /// Sample what actors do, as [`PlacementMode::Auto`] does, but move nothing: this
    /// mode exists to measure what sampling costs.
    Observe,
    /// Sample, and move the actors the runtime placed itself; see [`crate::auto`].
    Auto,
}

/// A setting's text that names none of its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What the setting is ("scheduler", "policy", "placement").
    pub setting: &'static str,
    /// The text given.
    pub given: String,
    /// The values it accepts.
    pub accepted: &'static [&'static str],
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a {}; use one of: {}",
            self.given,
            self.setting,
            self.accepted.join(", ")
        )
    }
}

impl std::error::Error for UnknownChoice {}

macro_rules! choice_from_str {
    ($ty:ty, $setting:literal, [$($text:literal => $value:expr),+ $(,)?]) => {
        impl FromStr for $ty {
            type Err = UnknownChoice;
            fn from_str(s: &str) -> Result<Self, UnknownChoice> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($text => Ok($value),)+
                    _ => Err(UnknownChoice {
                        setting: $setting,
                        given: s.to_owned(),
                        accepted: &[$($text),+],
                    }),
                }
            }
        }
    };
}

choice_from_str!(SchedulerKind, "scheduler", [
    "steal" => SchedulerKind::Steal,
    "share" => SchedulerKind::Share,
    "stages" => SchedulerKind::Stages,
]);
choice_from_str!(Policy, "policy", [
    "task" => Policy::Task,
    "thread" => Policy::Thread,
    "inline" => Policy::Inline,
]);
choice_from_str!(PlacementMode, "placement", [
    "manual" => PlacementMode::Manual,
    "observe" => PlacementMode::Observe,
    "auto" => PlacementMode::Auto,
]);

/// Where to run an actor, given when spawning it ([`crate::System::spawn_placed`],
/// [`crate::Context::spawn_placed`]) or later ([`crate::Addr::place`]).
///
/// ```
/// use footlights::{Actor, Context, Placement, System};
///
/// struct Noop;
/// impl Actor for Noop {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// let a = system.spawn_placed(Noop, Placement::Stage(1));
/// let b = system.spawn_placed(Noop, Placement::near(&a)); // also on stage 1
/// let c = system.spawn_placed(Noop, Placement::Stage(3)); // 3 mod 2 workers: stage 1
/// assert_eq!(a.stage(), Some(1));
/// assert_eq!(b.stage(), Some(1));
/// assert_eq!(c.stage(), Some(1));
/// # Ok(()) }
/// ```
#[derive(Clone, Default)]
pub enum Placement {
    /// The system's default [`Policy`]; under [`PlacementMode::Auto`] the runtime may move
    /// the actor.
    #[default]
    Default,
    /// The shared pool of workers (the `task` policy), never moved by the runtime.
    Pool,
    /// Always on pool stage `k mod threads`: no other worker takes it.
    Stage(usize),
    /// On the same stage as another actor ([`Placement::near`]). If that actor is in the
    /// pool, both are pinned to one stage: the one it last ran on if the system samples
    /// (placement `observe` or `auto`), else the spawning worker's, else stage 0.
    Near(Anchor),
    /// On a new stage of its own: a thread that runs only this actor (and actors placed
    /// near it), for actors that block. If the thread cannot be started (the system's
    /// limit, [`crate::Builder::max_dedicated`], or the operating system's), the actor
    /// goes to the pool and [`crate::Metrics::dedicated_refused`] counts it.
    Dedicated,
    /// Run by the sender: a send from inside a handler that finds the actor idle runs the
    /// actor's turn right there, with no hand-off. A send that finds it busy only queues
    /// the message. Turns still run one at a time and in order; a chain of inline sends
    /// deeper than [`INLINE_DEPTH`] is scheduled instead of run, so cycles and long chains
    /// cannot deadlock or overflow the stack. Sends from outside the runtime schedule it
    /// on the pool.
    Inline,
}

/// How many inline turns may nest on one thread before a send schedules instead.
pub const INLINE_DEPTH: u32 = 16;

impl Placement {
    /// The placement "on the same stage as `addr`'s actor".
    pub fn near<A: crate::Actor>(addr: &crate::Addr<A>) -> Placement {
        Placement::Near(Anchor(addr.task()))
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placement::Default => f.write_str("Default"),
            Placement::Pool => f.write_str("Pool"),
            Placement::Stage(k) => write!(f, "Stage({k})"),
            Placement::Near(_) => f.write_str("Near(..)"),
            Placement::Dedicated => f.write_str("Dedicated"),
            Placement::Inline => f.write_str("Inline"),
        }
    }
}

/// Another actor to place an actor near; made by [`Placement::near`].
#[derive(Clone)]
pub struct Anchor(pub(crate) Task);

/// Where an actor is scheduled next: what [`crate::Addr::site`] reports.
///
/// ```
/// use footlights::{Actor, Context, Placement, Site, System};
///
/// struct Noop;
/// impl Actor for Noop {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// assert_eq!(system.spawn(Noop).site(), Site::Pool);
/// assert_eq!(system.spawn_placed(Noop, Placement::Inline).site(), Site::Inline);
/// assert_eq!(system.spawn_placed(Noop, Placement::Dedicated).site(), Site::Dedicated);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// Any worker of the pool.
    Pool,
    /// Pool stage `k` only.
    Stage(usize),
    /// A dedicated stage of its own.
    Dedicated,
    /// Run by its sender when idle; by the pool otherwise.
    Inline,
}

/// What a placement comes to on one system.
pub(crate) enum Resolved {
    /// A site other than a dedicated stage.
    Site(Site),
    /// A dedicated stage that already counts the actor as resident.
    Dedicated(Arc<Stage>),
}

/// Resolves `placement` on `shared`: the site, and whether the runtime may move the actor
/// later. Starting a dedicated stage happens here; if it cannot start, the actor goes to
/// the pool.
pub(crate) fn resolve(shared: &Arc<Shared>, placement: &Placement) -> (Resolved, bool) {
    let sched = &shared.sched;
    let dedicated = || match sched.dedicated.start(shared) {
        Some(stage) => Resolved::Dedicated(stage),
        None => Resolved::Site(sched.pool_site()),
    };
    match placement {
        Placement::Default => match sched.policy {
            Policy::Task => (Resolved::Site(sched.pool_site()), true),
            Policy::Thread => (dedicated(), false),
            Policy::Inline => (Resolved::Site(Site::Inline), false),
        },
        Placement::Pool => (Resolved::Site(sched.pool_site()), false),
        Placement::Stage(k) => (Resolved::Site(Site::Stage(k % sched.threads())), false),
        Placement::Dedicated => (dedicated(), false),
        Placement::Inline => (Resolved::Site(Site::Inline), false),
        Placement::Near(Anchor(anchor)) => {
            let home = anchor.home();
            let resolved = match home.target() {
                Site::Stage(k) => Resolved::Site(Site::Stage(k)),
                Site::Dedicated => match home.dedicated_stage() {
                    Some(stage) if stage.join() => Resolved::Dedicated(stage),
                    _ => Resolved::Site(sched.pool_site()),
                },
                site @ (Site::Pool | Site::Inline) => {
                    let here = worker::with_current(shared, |w| w.and_then(|w| w.pool_index()));
                    let k = home.last_stage().or(here).unwrap_or(0) % sched.threads();
                    if site == Site::Pool {
                        // Co-location needs both on one stage: pin the anchor too.
                        anchor.relocate(&Placement::Stage(k), false);
                    }
                    Resolved::Site(Site::Stage(k))
                }
            };
            (resolved, false)
        }
    }
}

/// The bit of the home word saying the runtime placed the actor and may move it.
const MOVABLE: u32 = 1 << 31;
const POOL: u32 = 0x7FFF_FFFF;
const INLINE: u32 = 0x7FFF_FFFE;
const DEDICATED: u32 = 0x7FFF_FFFD;
/// Stage indices are below this.
const MAX_STAGE: u32 = 0x7FFF_FFF0;
/// `ran_on` before the actor's first turn on a pool stage.
const NOWHERE: u32 = u32::MAX;

fn encode(target: Site) -> u32 {
    match target {
        Site::Pool => POOL,
        Site::Inline => INLINE,
        Site::Dedicated => DEDICATED,
        Site::Stage(k) => u32::try_from(k).map_or(MAX_STAGE - 1, |k| k.min(MAX_STAGE - 1)),
    }
}

fn decode(word: u32) -> Site {
    match word & !MOVABLE {
        POOL => Site::Pool,
        INLINE => Site::Inline,
        DEDICATED => Site::Dedicated,
        k => Site::Stage(k as usize),
    }
}

/// The home word, and the protocol that keeps a stopped actor off dedicated stages.
///
/// A move onto a dedicated stage can race with the actor's stop. The stop sets `closed`,
/// then (after a fence) looks at the word; the move stores the word, then (after a fence)
/// looks at `closed`. This is the store-buffer pattern: by the two `SeqCst` fences, at
/// least one side sees the other's store, so whoever sees both releases the stage (the
/// release is idempotent, so both may). Loom checks it: `loom_models` below.
pub(crate) struct Residency {
    word: crate::sync::AtomicU32,
    closed: crate::sync::AtomicBool,
}

impl Residency {
    pub(crate) fn new(word: u32) -> Residency {
        Residency {
            word: crate::sync::AtomicU32::new(word),
            closed: crate::sync::AtomicBool::new(false),
        }
    }

    #[inline]
    pub(crate) fn load(&self) -> u32 {
        self.word.load(crate::sync::Ordering::Relaxed)
    }

    /// Stores a word that is not a dedicated stage.
    pub(crate) fn store(&self, word: u32) {
        self.word.store(word, crate::sync::Ordering::Relaxed);
    }

    /// Stores a dedicated-stage word; `true` if the actor has stopped, so the caller must
    /// release the stage.
    pub(crate) fn move_to(&self, word: u32) -> bool {
        self.word.store(word, crate::sync::Ordering::Relaxed);
        crate::sync::fence(crate::sync::Ordering::SeqCst);
        self.closed.load(crate::sync::Ordering::Relaxed)
    }

    /// Marks the actor stopped; `true` if it is on a dedicated stage, which the caller
    /// must release.
    pub(crate) fn close(&self) -> bool {
        self.closed.store(true, crate::sync::Ordering::Relaxed);
        crate::sync::fence(crate::sync::Ordering::SeqCst);
        decode(self.word.load(crate::sync::Ordering::Relaxed)) == Site::Dedicated
    }
}

/// An actor's placement state; see the [module documentation](self).
pub(crate) struct Home {
    word: Residency,
    /// The pool stage the actor last ran a turn on, kept only by sampled systems (for
    /// [`Placement::Near`] and cross-stage sends): set at spawn and when a move pins it,
    /// and by a worker that takes it from another (`Worker::arrived`).
    ran_on: AtomicU32,
    /// The dedicated stage, while the home word says [`Site::Dedicated`].
    dedicated: Mutex<Option<Arc<Stage>>>,
}

impl Home {
    /// The home of a new actor placed as `resolved`.
    pub(crate) fn new(resolved: Resolved, movable: bool) -> Home {
        let flag = if movable { MOVABLE } else { 0 };
        let (word, dedicated) = match resolved {
            Resolved::Site(site) => (encode(site), None),
            Resolved::Dedicated(stage) => (DEDICATED, Some(stage)),
        };
        Home {
            word: Residency::new(word | flag),
            ran_on: AtomicU32::new(NOWHERE),
            dedicated: Mutex::new(dedicated),
        }
    }

    /// Moves the actor to `resolved`.
    pub(crate) fn set_resolved(&self, resolved: Resolved, movable: bool) {
        match resolved {
            Resolved::Site(site) => self.set(site, movable),
            Resolved::Dedicated(stage) => self.set_dedicated(stage, movable),
        }
    }

    /// Where to schedule the actor next.
    #[inline]
    pub(crate) fn target(&self) -> Site {
        decode(self.word.load())
    }

    /// Whether the runtime may move the actor.
    pub(crate) fn movable(&self) -> bool {
        self.word.load() & MOVABLE != 0
    }

    /// Records the pool stage a turn runs on.
    #[inline]
    pub(crate) fn ran_on(&self, stage: usize) {
        let stage = stage as u32;
        if self.ran_on.load(Ordering::Relaxed) != stage {
            self.ran_on.store(stage, Ordering::Relaxed);
        }
    }

    /// The pool stage the actor last ran on, if any.
    pub(crate) fn last_stage(&self) -> Option<usize> {
        match self.ran_on.load(Ordering::Relaxed) {
            NOWHERE => None,
            k => Some(k as usize),
        }
    }

    /// The pool stage the actor is pinned to, if it is pinned to one.
    pub(crate) fn pinned_stage(&self) -> Option<usize> {
        match self.target() {
            Site::Stage(k) => Some(k),
            _ => None,
        }
    }

    /// Moves the actor to a target that is not a dedicated stage, releasing its dedicated
    /// stage if it had one. `movable` says whether the runtime may move it again.
    pub(crate) fn set(&self, target: Site, movable: bool) {
        debug_assert_ne!(target, Site::Dedicated, "use set_dedicated");
        let mut dedicated = self.dedicated.lock();
        self.word
            .store(encode(target) | if movable { MOVABLE } else { 0 });
        if let Site::Stage(k) = target {
            self.ran_on(k);
        }
        if let Some(stage) = dedicated.take() {
            stage.leave();
        }
    }

    /// Moves the actor onto `stage` (which already counts it as one of its actors).
    pub(crate) fn set_dedicated(&self, stage: Arc<Stage>, movable: bool) {
        let must_release = {
            let mut dedicated = self.dedicated.lock();
            if let Some(old) = dedicated.replace(stage) {
                old.leave();
            }
            self.word
                .move_to(DEDICATED | if movable { MOVABLE } else { 0 })
        };
        if must_release {
            // The actor stopped meanwhile: it must not hold the stage.
            self.release();
        }
    }

    /// The dedicated stage, if the actor has one (for placing another actor near it).
    pub(crate) fn dedicated_stage(&self) -> Option<Arc<Stage>> {
        self.dedicated.lock().clone()
    }

    /// Pushes `task` onto the actor's dedicated stage, under the lock that keeps the stage
    /// from retiring meanwhile. Gives the task back if the actor has no dedicated stage any
    /// more (it was moved meanwhile).
    pub(crate) fn push_dedicated(&self, task: Task) -> Result<(), Task> {
        let dedicated = self.dedicated.lock();
        match dedicated.as_ref() {
            Some(stage) => {
                stage.push(task);
                Ok(())
            }
            None => Err(task),
        }
    }

    /// Called when the actor stops: it leaves its dedicated stage, if it has one, now or
    /// (if a move onto one races with the stop) when that move sees the stop.
    pub(crate) fn close(&self) {
        if self.word.close() {
            self.release();
        }
    }

    /// Leaves the dedicated stage, if any (idempotent).
    fn release(&self) {
        if let Some(stage) = self.dedicated.lock().take() {
            stage.leave();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_words_round_trip() {
        for target in [
            Site::Pool,
            Site::Inline,
            Site::Dedicated,
            Site::Stage(0),
            Site::Stage(7),
        ] {
            for movable in [false, true] {
                let word = encode(target) | if movable { MOVABLE } else { 0 };
                assert_eq!(decode(word), target);
            }
        }
    }

    #[test]
    fn choices_parse_and_bad_text_names_the_choices() {
        assert_eq!("steal".parse(), Ok(SchedulerKind::Steal));
        assert_eq!(" Stages ".parse(), Ok(SchedulerKind::Stages));
        assert_eq!("thread".parse(), Ok(Policy::Thread));
        assert_eq!("auto".parse(), Ok(PlacementMode::Auto));
        let err = "stealing".parse::<SchedulerKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"stealing\" is not a scheduler; use one of: steal, share, stages"
        );
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.

    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A stop racing a move onto a dedicated stage: whatever the interleaving, if the word
    /// ends on a dedicated stage, somebody releases it.
    #[test]
    fn a_stop_racing_a_move_never_leaves_a_stage_held() {
        loom::model(|| {
            let residency = Arc::new(Residency::new(POOL));
            let released = Arc::new(AtomicUsize::new(0));
            let (r, rel) = (Arc::clone(&residency), Arc::clone(&released));
            let mover = loom::thread::spawn(move || {
                if r.move_to(DEDICATED) {
                    rel.fetch_add(1, Ordering::Relaxed);
                }
            });
            if residency.close() {
                released.fetch_add(1, Ordering::Relaxed);
            }
            mover.join().unwrap();
            assert_eq!(decode(residency.load()), Site::Dedicated);
            assert!(
                released.load(Ordering::Relaxed) >= 1,
                "the stage was never released"
            );
        });
    }
}
