//! What a mailbox carries: messages, continuations, and the runtime's own signals.
//!
//! # Why one envelope type
//!
//! An actor has one mailbox and one turn, and everything that must happen *in order with
//! its messages*, or *on the actor's thread with its state*, travels through that mailbox:
//! a push is what wakes an idle actor, exactly once (see [`crate::mailbox`]), so anything
//! that goes another way would need a second wake-up protocol. The turn matches on the
//! envelope; a new kind of envelope is one more arm there and costs nothing on the
//! messages that are not of that kind. Ordinary messages stay the first variant, and
//! [`Signal`] keeps every runtime signal in one variant, so the envelope is as large as
//! the larger of a message and a continuation, whatever signals are added.
//!
//! # Where what comes next goes
//!
//! * **System signals** are [`Signal`] variants, handled in the turn's signal arm
//!   ([`super::turn`]). A *graceful stop* ([`Signal::Stop`]) is queued behind the
//!   messages already sent, so the turn reaches it after them. A *kill* must not wait
//!   behind the queue: it is a flag the turn reads when it begins and between envelopes
//!   ([`super::lifecycle`]), plus a [`Signal::Wake`] pushed to wake an idle actor; the
//!   flag makes the woken turn stop before handling anything. A *down* notification from
//!   a linked or monitored actor is pushed like any message.
//! * **Timers** are a system service with its own thread (a wheel or a heap); when a timer
//!   fires, the service delivers its message through the actor's address from outside the
//!   runtime, like any other thread, so the mailbox orders it with everything else.
//!   Cancelling is the service's business and never reaches the cell.
//! * **Futures polled inside an actor** ([`super::polling`]) get a waker that pushes a
//!   [`Signal::Poll`] (naming the future's slot) into the mailbox. The push wakes the
//!   actor if it is idle, like a message, and the turn polls the future, then runs its
//!   continuation with the actor's state if it is ready. A future that is woken twice
//!   before its turn comes is polled once.
//! * **A mailbox capacity** ([`crate::mailbox::capacity`]) counts the messages (not the
//!   continuations or signals) of cells spawned with one; [`super::ActorCell::deliver`]
//!   learns that a cell has one from the lifecycle word it tests anyway.
//!
//! Signals never count as messages: not as handled, not as dead letters.

/// An envelope in a mailbox: a message, a continuation, or a signal from the runtime.
pub(crate) enum Envelope<M, C> {
    /// A message for the actor's handler.
    Msg(M),
    /// A continuation run with the actor's state, like a message
    /// ([`crate::Context::then`]).
    Call(C),
    /// A signal from the runtime itself.
    Signal(Signal),
}

/// What the runtime tells an actor through its mailbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Signal {
    /// The last address was dropped, making this generation of the address count (see
    /// [`super::addresses`]).
    Collect(u32),
    /// Stop here: every message sent before [`crate::Addr::stop`] has been handled.
    Stop,
    /// Look at the lifecycle flags ([`super::lifecycle`]): pushed after setting one, to
    /// wake an idle actor.
    Wake,
    /// Poll the actor's future in this slot: its waker was woken ([`super::polling`]).
    Poll(u32),
}

impl<M, C> Envelope<M, C> {
    /// 1 for a message or a continuation, 0 for a signal: what a dropped envelope adds to
    /// the dead letters.
    pub(crate) fn counts(&self) -> u64 {
        match self {
            Envelope::Msg(_) | Envelope::Call(_) => 1,
            Envelope::Signal(_) => 0,
        }
    }
}
