//! Addresses: how anybody, inside or outside the runtime, reaches an actor.
//!
//! An [`Addr`] is a counted reference to the actor's cell. Sending pushes onto the lock-free
//! mailbox and, if the push found the actor idle, schedules it; nothing else is allocated
//! and no lock is taken. Dropping the last address of an idle actor lets it be collected.
//!
//! # Sending to a bounded mailbox
//!
//! An actor spawned with a capacity ([`crate::SpawnOptions::capacity`]) has a bounded
//! mailbox. Each way of sending chooses what happens when it is full:
//!
//! | method | where | when the mailbox is full |
//! |---|---|---|
//! | [`Addr::try_send`] | anywhere | fails, giving the message back ([`TrySendError::Full`]) |
//! | [`crate::Context::send`] | in a handler | delivers, and mutes the sending actor until the mailbox has drained |
//! | [`Addr::send`], [`Addr::ask`] | anywhere | delivers past the capacity: it never refuses or waits |
//!
//! Replies an actor asked for ([`crate::Context::reply_to`]) and continuations
//! ([`crate::Context::then`]) are delivered past the capacity too: the actor asked for
//! them. So the capacity bounds what the senders that choose to feel it put in the
//! mailbox; unbounded mailboxes (the default) behave the same for every method.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::ManuallyDrop;
use std::sync::Arc;

use super::context::Call;
use super::{Actor, SpawnOptions};
use crate::cell::{Envelope, Refused};
use crate::placement::{Anchor, Placement, Site};
use crate::reply::{self, Reply, ReplyTo};
use crate::runtime::{self, Node, Shared};

/// The address of an actor of type `A`: cheap to clone, `Send + Sync`.
///
/// ```
/// use footlights::{Actor, Context, System};
///
/// struct Echo;
/// impl Actor for Echo {
///     type Msg = (u32, footlights::ReplyTo<u32>);
///     fn handle(&mut self, _ctx: &mut Context<Self>, (n, reply): Self::Msg) {
///         let _ = reply.send(n);
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// let echo = system.spawn(Echo);
/// let answer = echo.ask(|reply| (42, reply))?.wait()?;
/// assert_eq!(answer, 42);
/// # Ok(()) }
/// ```
pub struct Addr<A: Actor> {
    /// Dropped by hand in `Drop`, so that after shutdown a chain of actors is freed in a
    /// loop instead of by recursion (see [`crate::scheduler::release_after_shutdown`]).
    node: ManuallyDrop<Arc<Node<A>>>,
}

/// A message that could not be delivered because the actor has stopped (or its system has
/// shut down). The message is inside: nothing is dropped silently.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SendError<M>(pub M);

impl<M> SendError<M> {
    /// The message that was not delivered.
    pub fn into_inner(self) -> M {
        self.0
    }
}

impl<M> fmt::Debug for SendError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SendError(..)")
    }
}

impl<M> fmt::Display for SendError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the actor has stopped; the message was not delivered")
    }
}

impl<M> std::error::Error for SendError<M> {}

/// A message [`Addr::try_send`] could not deliver; the message is inside.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TrySendError<M> {
    /// The actor's bounded mailbox is full.
    Full(M),
    /// The actor has stopped (or its system has shut down).
    Stopped(M),
}

impl<M> TrySendError<M> {
    /// The message that was not delivered.
    pub fn into_inner(self) -> M {
        match self {
            TrySendError::Full(m) | TrySendError::Stopped(m) => m,
        }
    }

    /// Whether the mailbox was full (rather than the actor stopped).
    pub fn is_full(&self) -> bool {
        matches!(self, TrySendError::Full(_))
    }
}

impl<M> fmt::Debug for TrySendError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrySendError::Full(_) => "Full(..)",
            TrySendError::Stopped(_) => "Stopped(..)",
        })
    }
}

impl<M> fmt::Display for TrySendError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrySendError::Full(_) => "the actor's mailbox is full; the message was not delivered",
            TrySendError::Stopped(_) => "the actor has stopped; the message was not delivered",
        })
    }
}

impl<M> std::error::Error for TrySendError<M> {}

impl<M> From<Refused<M>> for TrySendError<M> {
    fn from(refused: Refused<M>) -> Self {
        match refused {
            Refused::Full(m) => TrySendError::Full(m),
            Refused::Stopped(m) => TrySendError::Stopped(m),
        }
    }
}

impl<A: Actor> Addr<A> {
    /// Spawns `actor` on the system of `shared` where `placement` says, and returns its
    /// first address.
    pub(crate) fn spawn(shared: &Arc<Shared>, actor: A, placement: &Placement) -> Self {
        Addr {
            node: ManuallyDrop::new(runtime::spawn(shared, actor, placement, None)),
        }
    }

    /// Spawns `actor` on the system of `shared` with `options`, and returns its first
    /// address.
    pub(crate) fn spawn_with(shared: &Arc<Shared>, actor: A, options: &SpawnOptions) -> Self {
        Addr {
            node: ManuallyDrop::new(runtime::spawn(
                shared,
                actor,
                &options.placement,
                options.capacity,
            )),
        }
    }

    /// Spawns `actor` on the system of `shared`, with `restart` installed before it can
    /// run (see [`crate::supervision`]), and returns its first address.
    pub(crate) fn spawn_restartable(
        shared: &Arc<Shared>,
        actor: A,
        restart: crate::cell::ties::Restart<A>,
    ) -> Self {
        let node = runtime::spawn_prepared(shared, actor, &Placement::Default, None, |cell| {
            cell.set_restart(Some(restart));
        });
        Addr {
            node: ManuallyDrop::new(node),
        }
    }

    /// The actor's node.
    pub(crate) fn node(&self) -> &Arc<Node<A>> {
        &self.node
    }

    /// The actor's node as a bare pointer, to tell actors apart across types.
    pub(crate) fn node_ptr(&self) -> *const () {
        Arc::as_ptr(&self.node).cast()
    }

    /// Makes a new address for a node (counts it).
    pub(crate) fn new_for(node: &Arc<Node<A>>) -> Self {
        node.cell().add_addr();
        Addr {
            node: ManuallyDrop::new(Arc::clone(node)),
        }
    }

    /// Sends `msg` without waiting. Fails, giving `msg` back, if the actor has stopped, or
    /// was asked to stop ([`Addr::stop`], [`Addr::kill`]).
    // Always inline: the send is the hot path of most handlers, and with the other
    // thread's path out of line its inline part is short; left to the compiler's estimate,
    // a ring's handler called it, and copied the message once more for the call.
    #[inline(always)]
    pub fn send(&self, msg: A::Msg) -> Result<(), SendError<A::Msg>> {
        runtime::deliver(&self.node, Envelope::Msg(msg)).map_err(|e| match e {
            Envelope::Msg(m) => SendError(m),
            Envelope::Call(_) | Envelope::Signal(_) => {
                unreachable!("a message comes back as it went")
            }
        })
    }

    /// Sends `msg` unless the actor's bounded mailbox is full; fails, giving `msg` back, if
    /// it is full or the actor has stopped. To an unbounded mailbox (the default) it is
    /// [`Addr::send`].
    ///
    /// ```
    /// use footlights::{Actor, Context, SpawnOptions, System, TrySendError};
    ///
    /// struct Sink;
    /// impl Actor for Sink {
    ///     type Msg = u32;
    ///     fn handle(&mut self, _: &mut Context<Self>, _: u32) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let sink = system.spawn_with(Sink, SpawnOptions::new().capacity(4));
    /// // Sent faster than the sink handles them, some come back.
    /// let mut full = 0;
    /// for n in 0..1000 {
    ///     match sink.try_send(n) {
    ///         Ok(()) => {}
    ///         Err(TrySendError::Full(back)) => { assert_eq!(back, n); full += 1; }
    ///         Err(TrySendError::Stopped(_)) => unreachable!("the sink runs"),
    ///     }
    /// }
    /// system.wait_quiescent();
    /// assert_eq!(sink.messages_handled() + full, 1000, "each message handled or given back");
    /// # Ok(()) }
    /// ```
    pub fn try_send(&self, msg: A::Msg) -> Result<(), TrySendError<A::Msg>> {
        runtime::try_deliver(&self.node, msg).map_err(TrySendError::from)
    }

    /// The capacity of the actor's bounded mailbox, or `None` if it is unbounded.
    pub fn capacity(&self) -> Option<usize> {
        self.node.cell().capacity().map(|c| c.limit())
    }

    /// Sends a request built by `make` around a fresh [`ReplyTo`], and returns the
    /// [`Reply`] to wait on, `.await`, or continue on with [`crate::Context::then`].
    pub fn ask<R>(
        &self,
        make: impl FnOnce(ReplyTo<R>) -> A::Msg,
    ) -> Result<Reply<R>, SendError<A::Msg>> {
        let (reply_to, reply) = reply::pair();
        self.send(make(reply_to))?;
        Ok(reply)
    }

    /// Sends `msg`; if the actor stopped meanwhile, counts it as a dead letter (for
    /// deliveries whose sender has nowhere to return the message to).
    pub(crate) fn send_or_count_dead(&self, msg: A::Msg) {
        if self.send(msg).is_err() {
            self.node.cell().count_dead_letters(1);
        }
    }

    /// Delivers a continuation, to run with the actor's state; gives it back if the actor
    /// has stopped.
    pub(crate) fn call(&self, call: Call<A>) -> Result<(), Call<A>> {
        runtime::deliver(&self.node, Envelope::Call(call)).map_err(|e| match e {
            Envelope::Call(c) => c,
            Envelope::Msg(_) | Envelope::Signal(_) => {
                unreachable!("a call comes back as it went")
            }
        })
    }

    /// Stops the actor gracefully: it handles the messages already sent to it, then stops
    /// (its `stopped` hook runs). Sends after this call fail and give the message back.
    /// Does nothing if the actor stops already.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Sum { total: u64, done: Option<footlights::ReplyTo<u64>> }
    /// impl Actor for Sum {
    ///     type Msg = u64;
    ///     fn handle(&mut self, _: &mut Context<Self>, n: u64) { self.total += n; }
    ///     fn stopped(&mut self, _: &mut Context<Self>) {
    ///         let _ = self.done.take().map(|d| d.send(self.total));
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let (done, total) = footlights::reply::pair();
    /// let sum = system.spawn(Sum { total: 0, done: Some(done) });
    /// for n in 1..=10 {
    ///     sum.send(n)?;
    /// }
    /// sum.stop();
    /// assert!(sum.send(11).is_err(), "refused after stop");
    /// assert_eq!(total.wait()?, 55, "the ten messages sent before were handled");
    /// # Ok(()) }
    /// ```
    pub fn stop(&self) {
        runtime::stop(&self.node);
    }

    /// Stops the actor at once: it handles no message it has not begun (a handler already
    /// running finishes; there is no preemption), what is queued is dropped (each dropped
    /// request cancels its reply), and its `stopped` hook runs if its `started` hook did.
    /// Sends after this call fail and give the message back. Does nothing if the actor
    /// has stopped already.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    ///
    /// struct Echo;
    /// impl Actor for Echo {
    ///     type Msg = ReplyTo<()>;
    ///     fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<()>) { let _ = r.send(()); }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let echo = system.spawn(Echo);
    /// echo.kill();
    /// system.wait_quiescent();
    /// assert!(echo.is_stopped());
    /// assert!(echo.ask(|r| r).is_err(), "a killed actor takes nothing more");
    /// # Ok(()) }
    /// ```
    pub fn kill(&self) {
        runtime::kill(&self.node);
    }

    /// Whether the actor has stopped for good. (An actor asked to stop or killed refuses
    /// sends at once, and has stopped once its turn has seen it.)
    pub fn is_stopped(&self) -> bool {
        self.node.cell().is_stopped()
    }

    /// Where the actor is scheduled next.
    pub fn site(&self) -> Site {
        self.node.home().target()
    }

    /// The pool stage the actor is pinned to, if it is pinned to one.
    pub fn stage(&self) -> Option<usize> {
        self.node.home().pinned_stage()
    }

    /// Moves the actor to `placement` (SALSA Lite's migration). The move takes effect the
    /// next time the actor is scheduled; its messages stay in order and its turns stay one
    /// at a time, whichever threads run them.
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
    /// let a = system.spawn(Noop);
    /// a.place(Placement::Stage(1));
    /// assert_eq!(a.site(), Site::Stage(1));
    /// a.place(Placement::Pool);
    /// assert_eq!(a.site(), Site::Pool);
    /// # Ok(()) }
    /// ```
    pub fn place(&self, placement: Placement) {
        runtime::relocate(&self.node, &placement, false);
    }

    /// How many messages the actor has handled so far.
    pub fn messages_handled(&self) -> u64 {
        self.node.cell().messages_handled()
    }
}

impl Placement {
    /// The placement "on the same stage as `addr`'s actor".
    pub fn near<A: Actor>(addr: &Addr<A>) -> Placement {
        Placement::Near(Anchor(addr.node.task()))
    }
}

impl<A: Actor> Clone for Addr<A> {
    fn clone(&self) -> Self {
        Addr::new_for(&self.node)
    }
}

impl<A: Actor> Drop for Addr<A> {
    fn drop(&mut self) {
        // SAFETY: `self.node` is taken exactly once, here, and `self` is never used again.
        let node = unsafe { ManuallyDrop::take(&mut self.node) };
        runtime::release(node);
    }
}

impl<A: Actor> PartialEq for Addr<A> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.node, &other.node)
    }
}

impl<A: Actor> Eq for Addr<A> {}

impl<A: Actor> Hash for Addr<A> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        Arc::as_ptr(&self.node).hash(state);
    }
}

impl<A: Actor> fmt::Debug for Addr<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Addr<{}>({:p})",
            std::any::type_name::<A>(),
            Arc::as_ptr(&self.node)
        )
    }
}
