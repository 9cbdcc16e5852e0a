//! The context a handler runs in: its own address, spawning, stopping, and continuing on
//! replies; and the binding of every [`Actor`] to the cell's [`Behaviour`].
//!
//! The cell runs behaviours, whose hooks get a [`Turn`]: the running actor's node and its
//! stop flag. A [`Context`] is that turn seen through the public API; the binding at the
//! bottom of this file copies the turn into a context for each hook and the stop flag back
//! out, which compiles to nothing once inlined.

use std::sync::Arc;

use super::{Actor, Addr};
use crate::cell::{Behaviour, Turn};
use crate::placement::Placement;
use crate::reply::{Canceled, Reply, ReplyTo};
use crate::runtime::{Node, Shared};

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
    me: &'a Arc<Node<A>>,
    stopping: bool,
}

impl<'a, A: Actor> Context<'a, A> {
    /// The system this actor runs on.
    fn shared(&self) -> &Arc<Shared> {
        self.me.cell().env()
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

    /// Stops this actor after the current message: its `stopped` hook runs, its state is
    /// dropped, and later sends to it fail.
    pub fn stop(&mut self) {
        self.stopping = true;
    }

    /// Whether [`Context::stop`] was called (or the actor is stopping).
    pub fn is_stopping(&self) -> bool {
        self.stopping
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
            stopping: turn.stopping,
        };
        hook(&mut ctx);
        turn.stopping = ctx.stopping;
    }
}

/// Every actor is a behaviour the cell can run, bound to this runtime's types.
impl<A: Actor> Behaviour for A {
    type Msg = A::Msg;
    type Call = Call<A>;
    type Node = Node<A>;
    type Env = Arc<Shared>;

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

    #[inline]
    fn stopped(&mut self, turn: &mut Turn<'_, Node<A>>) {
        Context::around(turn, |ctx| Actor::stopped(self, ctx));
    }
}
