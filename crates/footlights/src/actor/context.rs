//! The context a handler runs in: its own address, spawning, stopping, sending with
//! backpressure, and continuing on replies; and the binding of every [`Actor`] to the
//! cell's [`Behaviour`].
//!
//! The cell runs behaviours, whose hooks get a [`Turn`]: the running actor's node and
//! whether its turn goes on. A [`Context`] is that turn seen through the public API; the
//! binding at the bottom of this file copies the turn into a context for each hook and
//! the turn's one byte back out, which compiles to nothing once inlined.

use std::sync::Arc;

use super::{Actor, Addr, SendError, SpawnOptions, futures};
use crate::cell::{ActorCell, Behaviour, Halt, Turn};
use crate::census::Visit;
use crate::counted::Counted;
use crate::placement::Placement;
use crate::reply::{Canceled, Reply, ReplyTo};
use crate::runtime::{self, Node, Shared};

/// A continuation run with the actor's state, like a message (see [`Context::then`]).
pub(crate) type Call<A> = Box<dyn for<'c> FnOnce(&mut A, &mut Context<'c, A>) + Send>;

/// What a handler can do besides changing its own state. Passed to every
/// [`Actor`] method.
///
/// ```
/// use footlights::{Actor, Context, System};
///
/// /// Counts down by spawning a chain of actors, then stops.
/// struct Link { left: u32 }
/// impl Actor for Link {
///     type Msg = ();
///     fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
///         if self.left > 0 {
///             let next = ctx.spawn(Link { left: self.left - 1 });
///             let _ = next.send(());
///         }
///         ctx.stop();
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// system.spawn(Link { left: 100 }).send(())?;
/// system.wait_quiescent();
/// assert_eq!(system.metrics().live_actors(), 0);
/// # Ok(()) }
/// ```
pub struct Context<'a, A: Actor> {
    pub(super) me: &'a Arc<Node<A>>,
    halt: Halt,
}

impl<'a, A: Actor> Context<'a, A> {
    /// The system this actor runs on.
    pub(super) fn shared(&self) -> &Arc<Shared> {
        self.me.cell().env()
    }

    /// This actor's node.
    pub(crate) fn node(&self) -> &Arc<Node<A>> {
        self.me
    }

    /// This actor's own address.
    pub fn addr(&self) -> Addr<A> {
        Addr::new_for(self.me)
    }

    /// Spawns a new actor on the same system. It starts on this worker's queue (idle workers
    /// steal it if this one is busy).
    pub fn spawn<B: Actor>(&self, actor: B) -> Addr<B> {
        Addr::spawn(self.shared(), actor, &Placement::Default)
    }

    /// Spawns a new actor where `placement` says; see [`Placement`].
    pub fn spawn_placed<B: Actor>(&self, actor: B, placement: Placement) -> Addr<B> {
        Addr::spawn(self.shared(), actor, &placement)
    }

    /// Spawns a new actor with `options`: where it runs and whether its mailbox is bounded;
    /// see [`SpawnOptions`].
    pub fn spawn_with<B: Actor>(&self, actor: B, options: SpawnOptions) -> Addr<B> {
        Addr::spawn_with(self.shared(), actor, &options)
    }

    /// Stops this actor after the current message: its `stopped` hook runs, its state is
    /// dropped, and later sends to it fail.
    pub fn stop(&mut self) {
        self.halt = Halt::Stop;
    }

    /// Lets the actors waiting to run go first: this actor's turn ends when the running
    /// handler returns, and if its mailbox holds more messages it goes to the back of its
    /// worker's run queue, behind every actor already waiting there (those this handler
    /// woke by its sends included), and handles the next one after them. With an empty
    /// mailbox it simply goes idle, as at the end of any turn. Nothing is reordered in its
    /// own mailbox, and the handler itself runs to its end.
    ///
    /// This is Go's `runtime.Gosched()` and Erlang's `erlang:yield()` for an actor. A turn
    /// otherwise takes up to a batch of messages ([`crate::Builder::batch`]), and an actor
    /// woken by a send may run right after its sender: so a loop of actors that answer each
    /// other at once (a retry on refusal, a poll) can keep a worker while the actor that
    /// would end the loop waits its turn. An actor in such a loop that yields after each
    /// step runs one step per round of its worker's queue instead (see the `barber`
    /// benchmark of `footlights-suite`). [`Context::stop`] and a muting
    /// [`Context::send`] win over a yield. On several workers, the actors behind which this
    /// one goes are its own worker's: others may run it sooner.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use footlights::{Actor, Addr, Context, System};
    ///
    /// type Log = Arc<Mutex<Vec<&'static str>>>;
    ///
    /// struct Other { log: Log }
    /// impl Actor for Other {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {
    ///         self.log.lock().unwrap().push("other");
    ///     }
    /// }
    ///
    /// /// Sends itself three messages; after the first it wakes `other` and yields to it.
    /// struct Polite { log: Log, other: Addr<Other> }
    /// impl Actor for Polite {
    ///     type Msg = &'static str;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         for step in ["first", "second", "third"] {
    ///             let _ = ctx.addr().send(step);
    ///         }
    ///     }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, step: &'static str) {
    ///         self.log.lock().unwrap().push(step);
    ///         if step == "first" {
    ///             let _ = self.other.send(());
    ///             ctx.yield_now();
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let log = Log::default();
    /// let other = system.spawn(Other { log: log.clone() });
    /// drop(system.spawn(Polite { log: log.clone(), other }));
    /// system.wait_quiescent();
    /// // Without the yield, "other" would come last: the turn would take all three.
    /// assert_eq!(*log.lock().unwrap(), ["first", "other", "second", "third"]);
    /// # Ok(()) }
    /// ```
    pub fn yield_now(&mut self) {
        if self.halt == Halt::Go {
            self.halt = Halt::Yield;
        }
    }

    /// Whether [`Context::stop`] was called (or the actor is stopping).
    pub fn is_stopping(&self) -> bool {
        self.halt == Halt::Stop
    }

    /// Sends `msg` to `to` with backpressure: the *yielding* send of a handler.
    ///
    /// The message is always delivered (it fails, giving the message back, only if `to`
    /// has stopped). If `to` has a bounded mailbox that was already full, this actor is
    /// *muted*: its turn ends when the running handler returns, and it handles nothing more
    /// until `to` has drained to half its capacity; then it goes on where it left off, its
    /// own messages kept in order in its mailbox. A handler cannot wait inside itself
    /// without blocking its worker; ending its turn is how it waits, and it lets the worker
    /// run the receiver, so even one worker never deadlocks.
    ///
    /// So `to` holds at most its capacity plus what muted senders sent in the handlers that
    /// muted them: a producer that sends a bounded number of messages per handler (checking
    /// [`Context::is_muted`] in a loop, or sending one per message) runs at its consumer's
    /// pace. To get the message back instead when the mailbox is full, use
    /// [`Addr::try_send`]. A send to an unbounded mailbox, or to this actor itself, never
    /// mutes; nor does one whose own mailbox others are waiting on (an actor that must drain
    /// keeps running, so that two actors never wait on each other).
    ///
    /// ```
    /// use footlights::{Actor, Addr, Context, ReplyTo, SpawnOptions, System};
    ///
    /// /// Counts, slowly, what it receives.
    /// struct Consumer { got: u64 }
    /// enum Msg { Item, Total(ReplyTo<u64>) }
    /// impl Actor for Consumer {
    ///     type Msg = Msg;
    ///     fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
    ///         match msg {
    ///             Msg::Item => self.got += 1,
    ///             Msg::Total(r) => { let _ = r.send(self.got); }
    ///         }
    ///     }
    /// }
    ///
    /// /// Sends `left` items as fast as the consumer allows, then asks for the total.
    /// struct Producer { left: u64, to: Addr<Consumer>, done: Option<ReplyTo<u64>> }
    /// struct More;
    /// impl Actor for Producer {
    ///     type Msg = More;
    ///     fn started(&mut self, ctx: &mut Context<Self>) { self.handle(ctx, More) }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, More: More) {
    ///         while self.left > 0 && !ctx.is_muted() {
    ///             ctx.send(&self.to, Msg::Item).expect("the consumer runs");
    ///             self.left -= 1;
    ///         }
    ///         if self.left > 0 {
    ///             // Handled once the consumer has drained: the rest follows then.
    ///             let _ = ctx.addr().send(More);
    ///         } else if let Some(done) = self.done.take() {
    ///             let total = self.to.ask(Msg::Total).expect("the consumer runs");
    ///             ctx.then(total, move |_, ctx, n| { let _ = done.send(n.unwrap_or(0)); ctx.stop(); });
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let consumer = system.spawn_with(Consumer { got: 0 }, SpawnOptions::new().capacity(16));
    /// let (done, total) = footlights::reply::pair();
    /// drop(system.spawn(Producer { left: 10_000, to: consumer, done: Some(done) }));
    /// assert_eq!(total.wait()?, 10_000);
    /// # Ok(()) }
    /// ```
    pub fn send<B: Actor>(&mut self, to: &Addr<B>, msg: B::Msg) -> Result<(), SendError<B::Msg>> {
        let Some(capacity) = runtime::deliver_yielding(to.node(), msg).map_err(SendError)? else {
            return Ok(());
        };
        if to.node_ptr() != Arc::as_ptr(self.me).cast() {
            // SAFETY: a context exists only inside a hook of this actor, run by its consumer.
            unsafe { self.me.cell().mute_on(capacity) };
            self.halt.mute();
        }
        Ok(())
    }

    /// Whether a [`Context::send`] of this handler found a full mailbox: the actor's turn
    /// ends when the handler returns, and it handles nothing more until that mailbox has
    /// drained. A handler that sends in a loop stops there, and goes on in a later message
    /// (see the example of [`Context::send`]).
    pub fn is_muted(&self) -> bool {
        self.halt == Halt::Mute
    }

    /// Number of worker threads in this actor's system.
    pub fn threads(&self) -> usize {
        self.shared().sched.threads()
    }

    /// A [`ReplyTo`] whose answer arrives in this actor's mailbox as the message `wrap`
    /// makes of it (a canceled reply, whose replier dropped it, arrives as
    /// `wrap(Err(Canceled))`). Sending on it is one push: no reply slot, no lock, no
    /// continuation. The pending reply keeps the actor alive, like an address.
    ///
    /// ```
    /// use footlights::{Actor, Canceled, Context, ReplyTo, System};
    ///
    /// /// Sums the answers of two children; answers whoever asked it, actor or not.
    /// struct Node { depth: u32, waiting: u32, sum: u64, parent: Option<ReplyTo<u64>> }
    ///
    /// impl Actor for Node {
    ///     type Msg = Result<u64, Canceled>;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         if self.depth == 0 {
    ///             let _ = self.parent.take().expect("a parent").send(1);
    ///             return ctx.stop();
    ///         }
    ///         for _ in 0..2 {
    ///             let parent = Some(ctx.reply_to(|answer| answer));
    ///             ctx.spawn(Node { depth: self.depth - 1, waiting: 0, sum: 0, parent });
    ///         }
    ///         self.waiting = 2;
    ///     }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, answer: Self::Msg) {
    ///         self.sum += answer.unwrap_or(0);
    ///         self.waiting -= 1;
    ///         if self.waiting == 0 {
    ///             let _ = self.parent.take().expect("a parent").send(self.sum);
    ///             ctx.stop();
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let (parent, sum) = footlights::reply::pair();
    /// drop(system.spawn(Node { depth: 10, waiting: 0, sum: 0, parent: Some(parent) }));
    /// assert_eq!(sum.wait()?, 1024);
    /// # Ok(()) }
    /// ```
    pub fn reply_to<R: Send + 'static>(
        &self,
        wrap: impl FnOnce(Result<R, Canceled>) -> A::Msg + Send + 'static,
    ) -> ReplyTo<R> {
        let me = self.addr();
        ReplyTo::to_actor(Box::new(move |outcome| {
            if me.is_stopped() {
                return outcome.map_or(Ok(()), Err);
            }
            me.send_or_count_dead(wrap(outcome));
            Ok(())
        }))
    }

    /// Continues with `k` when `reply` completes, without blocking this worker: `k` runs
    /// later as a turn of this actor, with its state, like a message. The pending reply keeps
    /// the actor alive.
    ///
    /// ```
    /// use footlights::{Actor, Context, Reply, ReplyTo, System};
    ///
    /// struct Doubler;
    /// impl Actor for Doubler {
    ///     type Msg = (u64, ReplyTo<u64>);
    ///     fn handle(&mut self, _: &mut Context<Self>, (n, r): Self::Msg) { let _ = r.send(2 * n); }
    /// }
    ///
    /// /// Asks a doubler, then answers its own requester with the result plus one.
    /// struct Client { doubler: footlights::Addr<Doubler> }
    /// impl Actor for Client {
    ///     type Msg = (u64, ReplyTo<u64>);
    ///     fn handle(&mut self, ctx: &mut Context<Self>, (n, answer): Self::Msg) {
    ///         let reply: Reply<u64> = self.doubler.ask(|r| (n, r)).expect("doubler alive");
    ///         ctx.then(reply, move |_client, _ctx, doubled| {
    ///             let _ = answer.send(doubled.unwrap_or(0) + 1);
    ///         });
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let doubler = system.spawn(Doubler);
    /// let client = system.spawn(Client { doubler });
    /// assert_eq!(client.ask(|r| (20, r))?.wait()?, 41);
    /// # Ok(()) }
    /// ```
    pub fn then<R: Send + 'static>(
        &self,
        reply: Reply<R>,
        k: impl FnOnce(&mut A, &mut Context<'_, A>, Result<R, Canceled>) + Send + 'static,
    ) {
        let me = self.addr();
        reply.on_complete(Box::new(move |outcome| {
            // If the actor stopped meanwhile, the continuation is dropped with its outcome:
            // there is no state left to continue with.
            let _ = me.call(Box::new(move |actor, ctx| k(actor, ctx, outcome)));
        }));
    }
}

impl<A: Actor> Context<'_, A> {
    /// Runs `hook` with a context made of `turn`, and hands the stop flag back.
    #[inline]
    fn around<'t>(turn: &mut Turn<'t, Node<A>>, hook: impl FnOnce(&mut Context<'t, A>)) {
        let mut ctx = Context {
            me: turn.me,
            halt: turn.halt,
        };
        hook(&mut ctx);
        turn.halt = ctx.halt;
    }
}

/// Every actor is a behaviour the cell can run, bound to this runtime's types.
impl<A: Actor> Behaviour for A {
    type Msg = A::Msg;
    type Call = Call<A>;
    type Node = Node<A>;
    type Env = Counted<Shared>;
    const VISIT: Visit = runtime::kill_for_shutdown::<A>;

    fn node_of(cell: &ActorCell<A>) -> *const () {
        Node::<A>::around(cell).cast()
    }

    #[inline]
    fn started(&mut self, turn: &mut Turn<'_, Node<A>>) {
        Context::around(turn, |ctx| Actor::started(self, ctx));
    }

    #[inline]
    fn handle(&mut self, turn: &mut Turn<'_, Node<A>>, msg: A::Msg) {
        Context::around(turn, |ctx| Actor::handle(self, ctx, msg));
    }

    #[inline]
    fn call(&mut self, turn: &mut Turn<'_, Node<A>>, call: Call<A>) {
        Context::around(turn, |ctx| call(self, ctx));
    }

    fn poll(&mut self, turn: &mut Turn<'_, Node<A>>, slot: u32) -> bool {
        let mut ran = false;
        Context::around(turn, |ctx| ran = futures::poll(self, ctx, slot));
        ran
    }

    #[inline]
    fn stopped(&mut self, turn: &mut Turn<'_, Node<A>>) {
        Context::around(turn, |ctx| Actor::stopped(self, ctx));
    }

    fn resume(me: Arc<Node<A>>) {
        runtime::resume(me);
    }
}
