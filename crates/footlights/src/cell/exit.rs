//! Why an actor stopped: what its monitors and links are told.
//!
//! The turn that stops an actor knows why: its hook asked ([`crate::Context::stop`]) or
//! nothing could reach it any more (both [`ExitReason::Normal`]), it reached the signal
//! of [`crate::Addr::stop`] ([`ExitReason::Stopped`]), it was killed, or a hook panicked.
//! It records that as a small code in the actor's lifecycle word ([`super::lifecycle`]),
//! so that the stop, and anybody who asks later, can tell. What needs more than a code,
//! a panic's message or the reason a link passed on with a kill, is kept in the actor's
//! ties ([`super::ties`]), allocated then if it was not already.

use std::fmt;
use std::sync::Arc;

/// Why an actor stopped: what a monitor's [`crate::Down`] and a linked actor are told.
///
/// ```
/// use footlights::ExitReason;
///
/// assert!(ExitReason::Normal.is_normal());
/// assert!(!ExitReason::Stopped.is_failure(), "asked to stop: not a failure");
/// assert!(ExitReason::Killed.is_failure());
/// assert!(ExitReason::Panicked("boom".into()).is_failure());
/// assert_eq!(ExitReason::Panicked("boom".into()).to_string(), "panicked: boom");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExitReason {
    /// It stopped itself ([`crate::Context::stop`]), or was collected: nothing could reach
    /// it any more. The only reason a link does not pass on.
    Normal,
    /// It was asked to stop ([`crate::Addr::stop`]), by a supervisor, or by its
    /// system's shutdown.
    Stopped,
    /// A hook panicked, with this message.
    Panicked(Arc<str>),
    /// It was killed ([`crate::Addr::kill`]).
    Killed,
    /// It was a supervisor whose children failed more often than its restart intensity
    /// allows ([`crate::supervision::Intensity`]), and no supervisor above it restarted
    /// it: it stopped its children and itself.
    TooManyRestarts,
}

impl ExitReason {
    /// Whether the actor stopped itself or was collected ([`ExitReason::Normal`]).
    pub fn is_normal(&self) -> bool {
        matches!(self, ExitReason::Normal)
    }

    /// Whether the actor failed: a hook panicked, it was killed, or it was a supervisor
    /// that gave up. (A supervisor restarts a transient child only after a failure.)
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            ExitReason::Panicked(_) | ExitReason::Killed | ExitReason::TooManyRestarts
        )
    }
}

impl fmt::Display for ExitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExitReason::Normal => f.write_str("normal"),
            ExitReason::Stopped => f.write_str("stopped"),
            ExitReason::Panicked(message) => write!(f, "panicked: {message}"),
            ExitReason::Killed => f.write_str("killed"),
            ExitReason::TooManyRestarts => f.write_str("too many restarts"),
        }
    }
}

/// The reason a turn records, as a code that fits in the lifecycle word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Exit {
    /// [`ExitReason::Normal`].
    Normal = 0,
    /// [`ExitReason::Stopped`].
    Stopped = 1,
    /// Killed: [`ExitReason::Killed`], or the reason the kill came with.
    Killed = 2,
    /// [`ExitReason::Panicked`], with the message kept in the ties.
    Panicked = 3,
}

impl Exit {
    /// The code with these two bits.
    pub(crate) fn from_bits(bits: u32) -> Exit {
        match bits & 3 {
            0 => Exit::Normal,
            1 => Exit::Stopped,
            2 => Exit::Killed,
            _ => Exit::Panicked,
        }
    }

    /// The reason's name, as [`crate::trace`] reports it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Exit::Normal => "normal",
            Exit::Stopped => "stopped",
            Exit::Killed => "killed",
            Exit::Panicked => "panicked",
        }
    }
}

/// Which actor: unique among the actors alive at one time (it is the address of the
/// actor's cell), so compare it with the ids of addresses you hold ([`crate::Addr::id`]).
///
/// ```
/// use footlights::{Actor, Context, System};
///
/// struct Noop;
/// impl Actor for Noop {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// let (a, b) = (system.spawn(Noop), system.spawn(Noop));
/// assert_eq!(a.id(), a.clone().id());
/// assert_ne!(a.id(), b.id());
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActorId(pub(crate) usize);

/// What a monitor is told when the actor it watches stops, and what an actor that traps
/// exits is told when a linked actor stops ([`crate::Context::monitor`],
/// [`crate::Context::trap_exits`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Down {
    /// The actor that stopped.
    pub actor: ActorId,
    /// Why.
    pub reason: ExitReason,
}
