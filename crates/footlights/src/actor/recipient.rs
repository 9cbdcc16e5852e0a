//! Type-erased addresses: a [`Recipient<M>`] reaches any actor that accepts `M`, whatever
//! the actor's type.
//!
//! # How it works
//!
//! A recipient is a shared pointer to a trait object that owns one [`Addr`] of the actor
//! (so it counts as an address: the actor is not garbage-collected while a recipient of
//! it exists) and knows how to deliver an `M` to it. There are two kinds, chosen when the
//! recipient is made:
//!
//! * For the actor's own message type, [`Addr::msg_recipient`] (or `Recipient::from`): a
//!   send is [`Addr::send`] behind one dynamic call, with no allocation.
//! * For a type the actor handles ([`crate::Handler`]), [`Addr::recipient`]: a send is
//!   [`Addr::tell`] behind one dynamic call, so it allocates its envelope as `tell` does.
//!
//! Making a recipient allocates once (the shared object); cloning one adds to a reference
//! count and nothing else. Requests take the footlights form: the message carries a
//! [`ReplyTo`] ([`Recipient::ask`]), so a recipient's type says everything a sender needs
//! to know.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

use super::handler::Handler;
use super::{Actor, Addr, SendError, TrySendError};
use crate::reply::{self, Reply, ReplyTo};

/// An address of any actor that accepts messages of type `M`: cheap to clone,
/// `Send + Sync`. Made from an [`Addr`] with [`Addr::recipient`] (a type the actor
/// handles, [`crate::Handler`]) or [`Addr::msg_recipient`] (its own [`Actor::Msg`]).
/// Two recipients are equal if they reach the same actor.
///
/// ```
/// use footlights::{Actor, Context, Handler, Recipient, System};
///
/// /// What both listeners accept.
/// struct Tick(u64);
///
/// /// Sums ticks; its own messages are ticks.
/// struct Summer { sum: u64 }
/// impl Actor for Summer {
///     type Msg = Tick;
///     fn handle(&mut self, _: &mut Context<Self>, Tick(n): Tick) { self.sum += n; }
/// }
///
/// /// Counts ticks among other duties.
/// struct Counter { ticks: u64 }
/// impl Actor for Counter {
///     type Msg = String;
///     fn handle(&mut self, _: &mut Context<Self>, _: String) {}
/// }
/// impl Handler<Tick> for Counter {
///     type Reply = ();
///     fn handle(&mut self, _: &mut Context<Self>, _: Tick) { self.ticks += 1; }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// let summer = system.spawn(Summer { sum: 0 });
/// let counter = system.spawn(Counter { ticks: 0 });
/// let listeners: Vec<Recipient<Tick>> = vec![summer.msg_recipient(), counter.recipient()];
/// for n in 1..=10 {
///     for listener in &listeners {
///         listener.send(Tick(n))?;
///     }
/// }
/// system.wait_quiescent();
/// assert_eq!(summer.messages_handled(), 10);
/// assert_eq!(counter.messages_handled(), 10);
/// # Ok(()) }
/// ```
pub struct Recipient<M: Send + 'static> {
    to: Arc<dyn Deliver<M>>,
}

/// What every recipient knows of its actor, whatever it delivers.
trait Reach: Send + Sync {
    fn is_stopped(&self) -> bool;
    /// The actor's identity: the pointer of its node.
    fn id(&self) -> *const ();
    /// The actor's type, for `Debug`.
    fn actor(&self) -> &'static str;
}

/// How a recipient delivers an `M` to its actor.
trait Deliver<M>: Reach {
    fn send(&self, msg: M) -> Result<(), SendError<M>>;
    fn try_send(&self, msg: M) -> Result<(), TrySendError<M>>;
}

/// An address of the actor, and how it takes messages: `K` is [`OwnMsg`] or
/// [`Handled<M>`].
struct Via<A: Actor, K>(Addr<A>, PhantomData<fn() -> K>);

/// The actor's own message type: sent with [`Addr::send`].
struct OwnMsg;

/// A type the actor handles: sent with [`Addr::tell`].
struct Handled<M>(PhantomData<fn(M)>);

impl<A: Actor, K> Reach for Via<A, K> {
    fn is_stopped(&self) -> bool {
        self.0.is_stopped()
    }
    fn id(&self) -> *const () {
        self.0.node_ptr()
    }
    fn actor(&self) -> &'static str {
        std::any::type_name::<A>()
    }
}

impl<A: Actor> Deliver<A::Msg> for Via<A, OwnMsg> {
    fn send(&self, msg: A::Msg) -> Result<(), SendError<A::Msg>> {
        self.0.send(msg)
    }
    fn try_send(&self, msg: A::Msg) -> Result<(), TrySendError<A::Msg>> {
        self.0.try_send(msg)
    }
}

impl<A: Handler<M>, M: Send + 'static> Deliver<M> for Via<A, Handled<M>> {
    fn send(&self, msg: M) -> Result<(), SendError<M>> {
        self.0.tell(msg)
    }
    fn try_send(&self, msg: M) -> Result<(), TrySendError<M>> {
        self.0.try_tell(msg)
    }
}

impl<M: Send + 'static> Recipient<M> {
    /// Sends `msg` without waiting. Fails, giving `msg` back, if the actor has stopped, or
    /// was asked to stop. To a bounded mailbox it delivers past the capacity, as
    /// [`Addr::send`] does.
    ///
    /// ```
    /// use footlights::{Actor, Context, Recipient, System};
    ///
    /// struct Printer;
    /// impl Actor for Printer {
    ///     type Msg = String;
    ///     fn handle(&mut self, _: &mut Context<Self>, line: String) { eprintln!("{line}"); }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let printer = system.spawn(Printer);
    /// let out: Recipient<String> = printer.clone().into();
    /// out.send("hello".to_owned())?;
    /// printer.stop();
    /// assert_eq!(out.send("late".to_owned()).unwrap_err().into_inner(), "late");
    /// # Ok(()) }
    /// ```
    pub fn send(&self, msg: M) -> Result<(), SendError<M>> {
        self.to.send(msg)
    }

    /// Sends `msg` unless the actor's bounded mailbox is full; fails, giving `msg` back,
    /// if it is full or the actor has stopped (see [`Addr::try_send`]).
    ///
    /// ```
    /// use footlights::{Actor, Context, Recipient, SpawnOptions, System};
    ///
    /// struct Slow;
    /// impl Actor for Slow {
    ///     type Msg = u32;
    ///     fn handle(&mut self, _: &mut Context<Self>, _: u32) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let slow = system.spawn_with(Slow, SpawnOptions::new().capacity(2));
    /// let to: Recipient<u32> = slow.msg_recipient();
    /// let refused = (0..1000).filter(|&n| to.try_send(n).is_err()).count() as u64;
    /// system.wait_quiescent();
    /// assert_eq!(slow.messages_handled() + refused, 1000);
    /// # Ok(()) }
    /// ```
    pub fn try_send(&self, msg: M) -> Result<(), TrySendError<M>> {
        self.to.try_send(msg)
    }

    /// Sends a request built by `make` around a fresh [`ReplyTo`], and returns the
    /// [`Reply`] to wait on, `.await`, or continue on with [`crate::Context::then`]; as
    /// [`Addr::ask`].
    ///
    /// ```
    /// use footlights::{Actor, Context, Handler, Recipient, ReplyTo, System};
    ///
    /// /// What a clock answers, whoever the clock is.
    /// struct Now(ReplyTo<u64>);
    ///
    /// struct Fixed;
    /// impl Actor for Fixed {
    ///     type Msg = Now;
    ///     fn handle(&mut self, _: &mut Context<Self>, Now(r): Now) { let _ = r.send(42); }
    /// }
    ///
    /// struct Counting { n: u64 }
    /// impl Actor for Counting {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    /// impl Handler<Now> for Counting {
    ///     type Reply = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, Now(r): Now) {
    ///         self.n += 1;
    ///         let _ = r.send(self.n);
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let clocks: [Recipient<Now>; 2] = [
    ///     system.spawn(Fixed).msg_recipient(),
    ///     system.spawn(Counting { n: 0 }).recipient(),
    /// ];
    /// let times: Vec<u64> = clocks.iter().map(|c| c.ask(Now)?.wait().map_err(Into::into))
    ///     .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    /// assert_eq!(times, [42, 1]);
    /// # Ok(()) }
    /// ```
    pub fn ask<R>(&self, make: impl FnOnce(ReplyTo<R>) -> M) -> Result<Reply<R>, SendError<M>> {
        let (reply_to, reply) = reply::pair();
        self.send(make(reply_to))?;
        Ok(reply)
    }

    /// Whether the actor has stopped for good (see [`Addr::is_stopped`]).
    pub fn is_stopped(&self) -> bool {
        self.to.is_stopped()
    }
}

impl<A: Actor> Addr<A> {
    /// A [`Recipient`] of messages of type `M`, a type this actor handles
    /// ([`Handler`]). Its sends are [`Addr::tell`]s. It counts as an address of the actor.
    ///
    /// ```
    /// use footlights::{Actor, Context, Handler, Recipient, System};
    ///
    /// struct Audit { entries: u32 }
    /// impl Actor for Audit {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    /// struct Entry(&'static str);
    /// impl Handler<Entry> for Audit {
    ///     type Reply = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, _: Entry) { self.entries += 1; }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let audit = system.spawn(Audit { entries: 0 });
    /// let log: Recipient<Entry> = audit.recipient();
    /// log.send(Entry("login"))?;
    /// system.wait_quiescent();
    /// assert_eq!(audit.messages_handled(), 1);
    /// # Ok(()) }
    /// ```
    pub fn recipient<M: Send + 'static>(&self) -> Recipient<M>
    where
        A: Handler<M>,
    {
        Recipient {
            to: Arc::new(Via::<A, Handled<M>>(self.clone(), PhantomData)),
        }
    }

    /// A [`Recipient`] of this actor's own messages ([`Actor::Msg`]). Its sends are
    /// [`Addr::send`]s: no allocation. It counts as an address of the actor.
    /// `Recipient::from(addr)` does the same with the address itself.
    ///
    /// ```
    /// use footlights::{Actor, Context, Recipient, System};
    ///
    /// struct Sink;
    /// impl Actor for Sink {
    ///     type Msg = u64;
    ///     fn handle(&mut self, _: &mut Context<Self>, _: u64) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let sink = system.spawn(Sink);
    /// let to: Recipient<u64> = sink.msg_recipient();
    /// assert_eq!(to, Recipient::from(sink.clone()), "the same actor");
    /// to.send(7)?;
    /// system.wait_quiescent();
    /// assert_eq!(sink.messages_handled(), 1);
    /// # Ok(()) }
    /// ```
    pub fn msg_recipient(&self) -> Recipient<A::Msg> {
        Recipient::from(self.clone())
    }
}

impl<A: Actor> From<Addr<A>> for Recipient<A::Msg> {
    fn from(addr: Addr<A>) -> Self {
        Recipient {
            to: Arc::new(Via::<A, OwnMsg>(addr, PhantomData)),
        }
    }
}

impl<M: Send + 'static> Clone for Recipient<M> {
    fn clone(&self) -> Self {
        Recipient {
            to: Arc::clone(&self.to),
        }
    }
}

impl<M: Send + 'static> PartialEq for Recipient<M> {
    fn eq(&self, other: &Self) -> bool {
        self.to.id() == other.to.id()
    }
}

impl<M: Send + 'static> Eq for Recipient<M> {}

impl<M: Send + 'static> Hash for Recipient<M> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to.id().hash(state);
    }
}

impl<M: Send + 'static> fmt::Debug for Recipient<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Recipient<{}>({} at {:p})",
            std::any::type_name::<M>(),
            self.to.actor(),
            self.to.id()
        )
    }
}
