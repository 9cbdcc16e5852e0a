//! An actor's lifecycle: the phase of its state, and the word through which other
//! threads stop it.
//!
//! # Two halves
//!
//! What only the actor's own turn touches is its [`Phase`]: not started yet, running, or
//! gone. The turn matches on it once (where it used to test a `started` flag and unwrap
//! the state), so a running actor pays one predictable branch, and the stop knows whether
//! `started` ran: an actor runs `stopped` only if it ran `started`.
//!
//! What other threads write is the [`Life`] word, one atomic of flags:
//!
//! * `STOPPING`: [`crate::Addr::stop`] was called. Later sends are refused (the message
//!   comes back to its sender); a `Stop` signal queued behind the messages sent before
//!   stops the actor when its turn reaches it.
//! * `KILLED`: [`crate::Addr::kill`] was called, or the system is shutting down. Later
//!   sends are refused, and the actor stops before it handles anything more: a turn tests
//!   the flag once when it begins and, only when it has a second envelope to take, between
//!   envelopes; a `Wake` signal pushed after setting the flag wakes an idle actor (the push
//!   orders the flag before the turn that pops it).
//! * `STOPPED`: the actor has stopped for good.
//! * Two bits of *exit code* ([`Exit`]): why it stopped, recorded by the turn that stopped
//!   it, so that a monitor set on it later is told.
//!
//! One more bit is no other thread's business, but lives here because the turn reads this
//! word when it begins: `BOUNDED`, set at spawn for an actor with a bounded mailbox
//! ([`crate::mailbox::capacity`]). The turn tests it together with `KILLED`, in the same
//! instruction, and takes a loop that uncounts each message it takes only if it is set;
//! a send tests it together with the flags that refuse, and counts the message only if
//! it is set. So a bounded mailbox costs an unbounded actor nothing on either path.
//!
//! Another is for the stop alone: `NAMED`, set when the actor is given a name
//! ([`crate::registry`]), so that its stop takes the name out; nothing else tests it.
//!
//! A send reads the word once, where it used to read a `stopped` flag; a turn reads it
//! once more. So an actor nobody stops costs what it cost before: one load on each path.

use super::exit::Exit;
use crate::sync::{AtomicU32, Ordering};

/// A graceful stop was asked for: sends are refused, and a `Stop` signal is queued.
pub(crate) const STOPPING: u32 = 1;
/// The actor must stop before it handles anything more; sends are refused.
pub(crate) const KILLED: u32 = 2;
/// The actor has stopped for good.
pub(crate) const STOPPED: u32 = 4;
/// The actor's mailbox is bounded (set at spawn, never changed).
pub(crate) const BOUNDED: u32 = 8;
/// The actor holds a name in its system's registry: its stop takes the names out
/// ([`super::named`]). Neither sends nor turns test it.
pub(crate) const NAMED: u32 = 1 << 16;

/// Where the exit code's two bits are (above `BOUNDED`).
const EXIT_SHIFT: u32 = 4;

/// The flags that refuse a send.
const REFUSES: u32 = STOPPING | KILLED | STOPPED;
/// The flags a turn must act on before it takes an envelope.
const ATTEND: u32 = KILLED;

/// The flags other threads set on an actor; see the module documentation.
pub(crate) struct Life(AtomicU32);

impl Life {
    /// A live actor's word: no flag set but `BOUNDED` if its mailbox is `bounded`.
    pub(crate) fn new(bounded: bool) -> Life {
        Life(AtomicU32::new(if bounded { BOUNDED } else { 0 }))
    }

    /// What a turn must know when it begins: `KILLED` and `BOUNDED`, if set. One load
    /// and, for an actor neither killed nor bounded, one test that finds nothing.
    #[inline]
    pub(crate) fn at_turn(&self) -> u32 {
        self.0.load(Ordering::Relaxed) & (ATTEND | BOUNDED)
    }

    /// Whether sends are refused (the actor stops, or has stopped).
    #[inline]
    pub(crate) fn refuses(&self) -> bool {
        self.0.load(Ordering::Acquire) & REFUSES != 0
    }

    /// Whether a send must look further than the plain push: it is refused, or the
    /// mailbox is bounded. The same load and test as [`Life::refuses`].
    #[inline]
    pub(crate) fn refuses_or_bounded(&self) -> bool {
        self.0.load(Ordering::Acquire) & (REFUSES | BOUNDED) != 0
    }

    /// Whether a turn must act on a flag before it takes an envelope.
    #[inline]
    pub(crate) fn needs_attention(&self) -> bool {
        self.0.load(Ordering::Relaxed) & ATTEND != 0
    }

    /// Sets `flags`; returns the flags set before.
    pub(crate) fn set(&self, flags: u32) -> u32 {
        self.0.fetch_or(flags, Ordering::AcqRel)
    }

    /// Whether every flag of `flags` is set.
    pub(crate) fn has(&self, flags: u32) -> bool {
        self.0.load(Ordering::Acquire) & flags == flags
    }

    /// Marks the actor stopped for good, for the reason `exit`; returns the flags set
    /// before. Sequentially consistent: a watcher that registers on the actor's ties and
    /// then reads this word, against the stop that sets it and then looks for ties (see
    /// [`super::ties`]).
    pub(crate) fn stop(&self, exit: Exit) -> u32 {
        self.0.fetch_or(
            STOPPED | u32::from(exit as u8) << EXIT_SHIFT,
            Ordering::SeqCst,
        )
    }

    /// Whether the actor has stopped for good, and why (sequentially consistent: see
    /// [`Life::stop`]).
    pub(crate) fn stopped(&self) -> Option<Exit> {
        let word = self.0.load(Ordering::SeqCst);
        (word & STOPPED != 0).then(|| Exit::from_bits(word >> EXIT_SHIFT))
    }
}

/// The actor's state, as only its own turns see it.
pub(crate) enum Phase<B> {
    /// Spawned; `started` has not run yet.
    Unstarted(B),
    /// `started` has run: messages go to the handler, and `stopped` runs at the end.
    Running(B),
    /// Stopped: the state is gone.
    Gone,
}
