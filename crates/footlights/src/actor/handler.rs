//! Several message types per actor: the [`Handler`] trait, and sending a message of any
//! type an actor handles ([`Addr::tell`], [`Addr::try_tell`], [`Addr::request`]).
//!
//! # The algorithm
//!
//! An actor's mailbox carries its own [`Actor::Msg`] by value, and beside it continuations
//! ([`crate::Context::then`]): boxed closures run in the actor's turn, with its state. A
//! message of another type `M` that the actor handles (`A: Handler<M>`) travels as such a
//! continuation: a box that owns the message and, when the turn reaches it, calls
//! `<A as Handler<M>>::handle` (and, for a request, sends the handler's result to the
//! reply). So the envelope, the send path and the turn of `Actor::Msg` are untouched: an
//! actor whose messages are all `Actor::Msg` pays nothing for this, not a branch and not a
//! byte, and a message sent with `tell` costs one allocation more than one sent with
//! `send` (the box; a request also allocates its reply slot, as [`Addr::ask`] does).
//!
//! What holds for messages holds for these: they are handled one at a time, in the
//! actor's turns, in the order each sender sent them, `Actor::Msg` and others mixed (they
//! share one mailbox); they count in [`Addr::messages_handled`]; a panic in a handler
//! stops the actor (and cancels a request's reply); and what is queued when the actor
//! stops is dropped and counted as dead letters.
//!
//! # Bounded mailboxes
//!
//! A handler message counts against a bounded mailbox's capacity
//! ([`crate::SpawnOptions::capacity`]) like a message: [`Addr::tell`] and
//! [`Addr::request`] count it whatever the count, as [`Addr::send`] does, and
//! [`Addr::try_tell`] gives it back when the mailbox is full, as [`Addr::try_send`] does.
//! The turn uncounts a plain message when it pops it; a handler message uncounts itself,
//! first thing when it runs. (The yielding [`crate::Context::send`] takes `Actor::Msg`
//! only.)
//!
//! # A send racing a stop
//!
//! A send checks that the actor takes messages before it boxes the message, and gives
//! the message back if not. Once boxed, the message cannot be taken out again, so an
//! actor that stops between the check and the push (the only way that push can fail)
//! counts it as a dead letter, as it does messages still queued when it stops, and the
//! send reports success: it was sent while the actor took messages.

use super::context::Call;
use super::{Actor, Addr, Context, SendError, TrySendError};
use crate::reply::{self, Reply};

/// An actor that accepts messages of type `M` besides its own [`Actor::Msg`]: an actor
/// may implement `Handler` for as many types as it likes, so that unrelated protocols
/// need not be folded into one enum. Send them with [`Addr::tell`], [`Addr::try_tell`],
/// [`Addr::request`] (which returns the handler's result), or through a
/// [`crate::Recipient`]. Each costs one allocation more than [`Addr::send`]; see the
/// module documentation.
///
/// ```
/// use footlights::{Actor, Context, Handler, System};
///
/// /// A bank account: deposits are its own messages; queries and resets come from
/// /// other parts of the program, each a type of its own.
/// struct Account { balance: i64 }
/// impl Actor for Account {
///     type Msg = i64; // a deposit
///     fn handle(&mut self, _: &mut Context<Self>, amount: i64) { self.balance += amount; }
/// }
///
/// struct Balance;
/// impl Handler<Balance> for Account {
///     type Reply = i64;
///     fn handle(&mut self, _: &mut Context<Self>, _: Balance) -> i64 { self.balance }
/// }
///
/// struct Reset;
/// impl Handler<Reset> for Account {
///     type Reply = ();
///     fn handle(&mut self, _: &mut Context<Self>, _: Reset) { self.balance = 0; }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// let account = system.spawn(Account { balance: 0 });
/// account.send(100)?;
/// account.tell(Reset)?;
/// account.send(5)?;
/// // Handled in the order sent, whatever their types.
/// assert_eq!(account.request(Balance)?.wait()?, 5);
/// # Ok(()) }
/// ```
///
/// An actor whose messages are all handler messages can take a type with no values as
/// its own: `type Msg = std::convert::Infallible;` with `match msg {}` as its handler.
pub trait Handler<M: Send + 'static>: Actor {
    /// What handling an `M` gives back: sent to whoever used [`Addr::request`], dropped
    /// for [`Addr::tell`]. `()` for a handler that answers nothing.
    type Reply: Send + 'static;

    /// Handles one `M`, in one of the actor's turns, like [`Actor::handle`].
    fn handle(&mut self, ctx: &mut Context<Self>, msg: M) -> Self::Reply;
}

/// Whether a send to a full bounded mailbox delivers anyway or gives the message back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WhenFull {
    Deliver,
    Refuse,
}

impl<A: Actor> Addr<A> {
    /// Sends `msg`, of any type `M` the actor handles ([`Handler`]), without waiting.
    /// Fails, giving `msg` back, if the actor has stopped, or was asked to stop. To a
    /// bounded mailbox it delivers past the capacity, like [`Addr::send`].
    ///
    /// ```
    /// use footlights::{Actor, Context, Handler, System};
    ///
    /// struct Greeter { greeted: Vec<String> }
    /// impl Actor for Greeter {
    ///     type Msg = std::convert::Infallible;
    ///     fn handle(&mut self, _: &mut Context<Self>, msg: Self::Msg) { match msg {} }
    /// }
    ///
    /// struct Hello(String);
    /// impl Handler<Hello> for Greeter {
    ///     type Reply = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, Hello(name): Hello) {
    ///         self.greeted.push(name);
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let greeter = system.spawn(Greeter { greeted: Vec::new() });
    /// greeter.tell(Hello("world".into()))?;
    /// greeter.stop();
    /// let back = greeter.tell(Hello("late".into())).unwrap_err().into_inner();
    /// assert_eq!(back.0, "late", "refused after stop, and given back");
    /// system.wait_quiescent();
    /// assert_eq!(greeter.messages_handled(), 1);
    /// # Ok(()) }
    /// ```
    pub fn tell<M: Send + 'static>(&self, msg: M) -> Result<(), SendError<M>>
    where
        A: Handler<M>,
    {
        self.deliver_handled(msg, WhenFull::Deliver, handling)
            .map_err(|e| SendError(e.into_inner()))
    }

    /// Sends `msg`, of any type `M` the actor handles, unless the actor's bounded mailbox
    /// is full; fails, giving `msg` back, if it is full or the actor has stopped. To an
    /// unbounded mailbox (the default) it is [`Addr::tell`].
    ///
    /// ```
    /// use footlights::{Actor, Context, Handler, SpawnOptions, System, TrySendError};
    ///
    /// struct Sink;
    /// impl Actor for Sink {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    /// struct Sample(f64);
    /// impl Handler<Sample> for Sink {
    ///     type Reply = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, _: Sample) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let sink = system.spawn_with(Sink, SpawnOptions::new().capacity(4));
    /// let mut full = 0;
    /// for n in 0..1000 {
    ///     match sink.try_tell(Sample(f64::from(n))) {
    ///         Ok(()) => {}
    ///         Err(TrySendError::Full(back)) => { assert_eq!(back.0, f64::from(n)); full += 1; }
    ///         Err(TrySendError::Stopped(_)) => unreachable!("the sink runs"),
    ///     }
    /// }
    /// system.wait_quiescent();
    /// assert_eq!(sink.messages_handled() + full, 1000, "each handled or given back");
    /// # Ok(()) }
    /// ```
    pub fn try_tell<M: Send + 'static>(&self, msg: M) -> Result<(), TrySendError<M>>
    where
        A: Handler<M>,
    {
        self.deliver_handled(msg, WhenFull::Refuse, handling)
    }

    /// Sends `msg`, of any type `M` the actor handles, and returns the [`Reply`] that
    /// gets what its handler returns (to wait on, `.await`, or continue on with
    /// [`crate::Context::then`]). The reply is canceled if the actor stops before
    /// handling it, or its handler panics. Fails, giving `msg` back, if the actor has
    /// stopped. To a bounded mailbox it delivers past the capacity, like [`Addr::ask`].
    ///
    /// ```
    /// use footlights::{Actor, Context, Handler, System};
    ///
    /// struct Calculator;
    /// impl Actor for Calculator {
    ///     type Msg = std::convert::Infallible;
    ///     fn handle(&mut self, _: &mut Context<Self>, msg: Self::Msg) { match msg {} }
    /// }
    ///
    /// struct Add(i32, i32);
    /// impl Handler<Add> for Calculator {
    ///     type Reply = i32;
    ///     fn handle(&mut self, _: &mut Context<Self>, Add(a, b): Add) -> i32 { a + b }
    /// }
    ///
    /// struct Describe;
    /// impl Handler<Describe> for Calculator {
    ///     type Reply = &'static str;
    ///     fn handle(&mut self, _: &mut Context<Self>, _: Describe) -> &'static str { "adds" }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let calc = system.spawn(Calculator);
    /// assert_eq!(calc.request(Add(2, 3))?.wait()?, 5);
    /// assert_eq!(calc.request(Describe)?.wait()?, "adds");
    /// # Ok(()) }
    /// ```
    pub fn request<M: Send + 'static>(&self, msg: M) -> Result<Reply<A::Reply>, SendError<M>>
    where
        A: Handler<M>,
    {
        let (reply_to, reply) = reply::pair();
        self.deliver_handled(msg, WhenFull::Deliver, move |msg| -> Call<A> {
            Box::new(move |actor, ctx| {
                uncount(ctx);
                let answer = <A as Handler<M>>::handle(actor, ctx, msg);
                // Whoever asked may have stopped waiting.
                let _ = reply_to.send(answer);
            })
        })
        .map_err(|e| SendError(e.into_inner()))?;
        Ok(reply)
    }

    /// The send path of handler messages: checks that the actor takes messages, counts
    /// the message into a bounded mailbox (or refuses it there, by `when_full`), boxes it
    /// with `boxed` and delivers it. See the module documentation.
    fn deliver_handled<M>(
        &self,
        msg: M,
        when_full: WhenFull,
        boxed: impl FnOnce(M) -> Call<A>,
    ) -> Result<(), TrySendError<M>> {
        let cell = self.node().cell();
        if cell.refuses() || cell.env().sched.is_shutdown() {
            return Err(TrySendError::Stopped(msg));
        }
        let capacity = cell.capacity();
        if let Some(capacity) = capacity {
            match when_full {
                WhenFull::Deliver => {
                    capacity.acquire_past();
                }
                WhenFull::Refuse => {
                    if !capacity.try_acquire() {
                        return Err(TrySendError::Full(msg));
                    }
                }
            }
        }
        if let Err(call) = self.call(boxed(msg)) {
            // Stopped since the check: a dead letter (see the module documentation).
            if let Some(capacity) = capacity {
                capacity.release();
            }
            drop(call);
            cell.count_dead_letters(1);
        }
        Ok(())
    }
}

/// The continuation that hands `msg` to the actor's handler for `M`.
fn handling<A: Handler<M>, M: Send + 'static>(msg: M) -> Call<A> {
    Box::new(move |actor, ctx| {
        uncount(ctx);
        // `tell` answers nobody.
        drop(<A as Handler<M>>::handle(actor, ctx, msg));
    })
}

/// Counts a handler message out of its actor's bounded mailbox, if it has one: the turn
/// has taken it (see the module documentation).
#[inline]
fn uncount<A: Actor>(ctx: &Context<'_, A>) {
    if let Some(capacity) = ctx.node().cell().capacity() {
        capacity.release();
    }
}
