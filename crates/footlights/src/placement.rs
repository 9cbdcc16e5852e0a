//! Where an actor runs: placements, execution policies, placement modes, and how a
//! placement resolves to an actor's home word.
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
//! # A policy over the scheduler's mechanism
//!
//! Every actor has a *home*: one word the scheduler reads each time it schedules the
//! actor, naming a [`Site`] (the pool, pool stage `k`, its dedicated stage, or inline), and
//! whether the runtime may move it. The home word, the sites and the scheduler kinds are
//! the scheduler's own (`scheduler::home`); this module is the policy that decides what
//! goes into the word: `resolve` turns a placement into a home target on one system
//! (starting a dedicated stage if it needs one), and `relocate` writes a new target into
//! a running actor's home, which takes effect at its next scheduling. [`SchedulerKind`],
//! [`Site`] and [`INLINE_DEPTH`] are the scheduler's vocabulary, public here with the rest.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use crate::scheduler::{INLINE_DEPTH, SchedulerKind, Site};
use crate::scheduler::{Runnable, Scheduler, Target, Task};

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

/// Resolves `placement` on the system of `sched`, whose default policy is `policy`: the
/// home target, and whether the runtime may move the actor later. Starting a dedicated
/// stage happens here; if it cannot start, the actor goes to the pool.
pub(crate) fn resolve(
    sched: &Arc<Scheduler>,
    policy: Policy,
    placement: &Placement,
) -> (Target, bool) {
    let dedicated = || match sched.dedicated.start(sched) {
        Some(stage) => Target::Dedicated(stage),
        None => Target::Site(sched.pool_site()),
    };
    match placement {
        Placement::Default => match policy {
            Policy::Task => (Target::Site(sched.pool_site()), true),
            Policy::Thread => (dedicated(), false),
            Policy::Inline => (Target::Site(Site::Inline), false),
        },
        Placement::Pool => (Target::Site(sched.pool_site()), false),
        Placement::Stage(k) => (Target::Site(Site::Stage(k % sched.threads())), false),
        Placement::Dedicated => (dedicated(), false),
        Placement::Inline => (Target::Site(Site::Inline), false),
        Placement::Near(Anchor(anchor)) => {
            let home = anchor.home();
            let target = match home.target() {
                Site::Stage(k) => Target::Site(Site::Stage(k)),
                Site::Dedicated => match home.dedicated_stage() {
                    Some(stage) if stage.join() => Target::Dedicated(stage),
                    _ => Target::Site(sched.pool_site()),
                },
                site @ (Site::Pool | Site::Inline) => {
                    let here = sched.current_pool_index();
                    let k = home.last_stage().or(here).unwrap_or(0) % sched.threads();
                    if site == Site::Pool {
                        // Co-location needs both on one stage: pin the anchor too.
                        relocate(sched, policy, &**anchor, &Placement::Stage(k), false);
                    }
                    Target::Site(Site::Stage(k))
                }
            };
            (target, false)
        }
    }
}

/// Moves a running actor to `placement`: the move takes effect at its next scheduling.
/// `movable` says whether the runtime may move it again (what the program placed, it may
/// not); a default placement keeps what the policy says. A stopped actor stays put.
pub(crate) fn relocate(
    sched: &Arc<Scheduler>,
    policy: Policy,
    actor: &dyn Runnable,
    placement: &Placement,
    movable: bool,
) {
    if actor.is_stopped() {
        return;
    }
    let (target, movable_by_default) = resolve(sched, policy, placement);
    let movable = if matches!(placement, Placement::Default) {
        movable_by_default
    } else {
        movable
    };
    // A move onto a dedicated stage that races with a stop is undone by one side or
    // the other (see the home's `Residency`).
    actor.home().set_target(target, movable);
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

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
