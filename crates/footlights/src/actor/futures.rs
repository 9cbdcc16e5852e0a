//! Futures inside an actor: [`Context::run_future`] and [`Context::pipe_future`], the
//! actor's table of pending futures, and their wakers.
//!
//! # The algorithm
//!
//! A future started by a handler goes into a slot of the actor's table, paired with the
//! continuation that gets its output; the table lives in the consumer's part of the cell's
//! extras, so only the actor's own turns touch it. Each slot has one waker, whose wake-up
//! pushes a poll signal naming the slot through the actor's mailbox (the cell's `polling`
//! module has the protocol): the future is polled in one of the actor's turns, on a
//! footlights worker, and when it is ready its continuation runs right there with
//! `&mut self`, like a handler. The first poll is a wake-up pushed when the future starts,
//! so a handler that starts a future returns before it is polled.
//!
//! The future owns what it uses (it is `'static`), so the actor's state is never shared
//! across an `.await`: whatever the continuation needs of the state, it gets from the
//! `&mut self` it is given, and whatever the future needs, it takes by value (and may give
//! back in its output). Between two polls the actor handles other messages as usual.
//!
//! With the `tokio` feature, each poll runs inside the system's tokio runtime context
//! (`Builder::tokio`, `System::tokio`), so futures that need tokio's reactor
//! (`tokio::net`, `tokio::time`, tokio-based clients) work: the reactor's thread wakes
//! them, and they are still polled on footlights' workers.
//!
//! A pending future keeps its actor alive (its waker holds an address); when the actor
//! stops, its pending futures are dropped, which cancels them.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context as TaskContext, Poll, Wake, Waker};

use super::{Actor, Addr, Context};
use crate::runtime;

/// A future and the continuation that gets its output, type-erased.
trait Job<A: Actor>: Send {
    /// Polls the future; if it is ready, runs the continuation with the actor's state.
    fn poll_run(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        actor: &mut A,
        ctx: &mut Context<'_, A>,
    ) -> Poll<()>;
}

/// The one [`Job`]: a future `F`, then `K` with its output.
struct Then<F, K> {
    future: F,
    then: Option<K>,
}

impl<A, F, K> Job<A> for Then<F, K>
where
    A: Actor,
    F: Future + Send,
    K: FnOnce(&mut A, &mut Context<'_, A>, F::Output) + Send,
{
    fn poll_run(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        actor: &mut A,
        ctx: &mut Context<'_, A>,
    ) -> Poll<()> {
        // SAFETY: `future` is pinned structurally and `then` is not: `future` is never
        // moved out of a pinned `Then` (only `then` is taken), and `Then` has no `Drop`
        // impl that could move it.
        let this = unsafe { self.get_unchecked_mut() };
        // SAFETY: as above; `this` is pinned, so its `future` field is too.
        let future = unsafe { Pin::new_unchecked(&mut this.future) };
        let output = std::task::ready!(future.poll(cx));
        let then = this.then.take().expect("a future completes once");
        then(actor, ctx, output);
        Poll::Ready(())
    }
}

/// A slot's waker: pushes a poll signal for the slot, once until the next poll.
struct Wakeup<A: Actor> {
    /// The actor, kept alive while the future can be woken.
    addr: Addr<A>,
    slot: u32,
    /// A poll signal is on its way (set by a wake-up, cleared by the poll).
    queued: AtomicBool,
}

impl<A: Actor> Wake for Wakeup<A> {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Acquire-release: the poll's clearing swap reads this write, so what the waking
        // thread did before waking is visible to that poll.
        if !self.queued.swap(true, Ordering::AcqRel) {
            runtime::wake_future(self.addr.node(), self.slot);
        }
    }
}

/// A pending future in its slot.
struct Pending<A: Actor> {
    job: Pin<Box<dyn Job<A>>>,
    wakeup: Arc<Wakeup<A>>,
}

/// An actor's pending futures, by slot.
struct Futures<A: Actor> {
    /// `None`: free, or taken out while its future is polled.
    slots: Vec<Option<Pending<A>>>,
    free: Vec<u32>,
    /// Futures started and not yet completed.
    pending: usize,
}

impl<A: Actor> Futures<A> {
    /// A slot for a new future.
    fn vacant(&mut self) -> u32 {
        if let Some(slot) = self.free.pop() {
            return slot;
        }
        self.slots.push(None);
        u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 pending futures")
    }
}

/// The actor's table of futures, made the first time.
fn table<'c, A: Actor>(ctx: &'c mut Context<'_, A>) -> &'c mut Futures<A> {
    // SAFETY: a context exists only inside a hook of this actor, run by its consumer, and
    // the reference returned is used and dropped before anything else reaches the extras
    // (it borrows `ctx`).
    let own = unsafe { ctx.me.cell().own_extras() };
    own.futures
        .get_or_insert_with(|| {
            Box::new(Futures::<A> {
                slots: Vec::new(),
                free: Vec::new(),
                pending: 0,
            })
        })
        .downcast_mut()
        .expect("an actor's futures are of its own type")
}

/// The turn's poll of the future in `slot`: see the module documentation. `true` if it
/// completed and its continuation ran.
pub(crate) fn poll<A: Actor>(actor: &mut A, ctx: &mut Context<'_, A>, slot: u32) -> bool {
    let Some(mut pending) = table(ctx)
        .slots
        .get_mut(slot as usize)
        .and_then(Option::take)
    else {
        return false; // a stale wake-up
    };
    // Not counted while out of its slot: a continuation does not count its own future.
    table(ctx).pending -= 1;
    // Cleared before the poll, so that a wake-up from here on pushes a new signal.
    pending.wakeup.queued.swap(false, Ordering::AcqRel);
    let waker = Waker::from(Arc::clone(&pending.wakeup));
    let mut cx = TaskContext::from_waker(&waker);
    #[cfg(feature = "tokio")]
    let _reactor = ctx.me.cell().env().reactor.enter();
    match pending.job.as_mut().poll_run(&mut cx, actor, ctx) {
        Poll::Pending => {
            let table = table(ctx);
            table.slots[slot as usize] = Some(pending);
            table.pending += 1;
            false
        }
        Poll::Ready(()) => {
            table(ctx).free.push(slot);
            true
        }
    }
}

impl<A: Actor> Context<'_, A> {
    /// Runs `future` without blocking a worker, then `then` with its output and the
    /// actor's state, in a turn of this actor, like a message.
    ///
    /// The future is polled on footlights' own workers, in this actor's turns: its waker
    /// schedules the actor, and the actor's turns stay one at a time. It must own what it
    /// uses (`'static`): the state is never shared across an `.await`; `then` gets it as
    /// `&mut self` once the future is ready. Meanwhile the actor handles its messages as
    /// usual. A pending future keeps the actor alive; when the actor stops, its pending
    /// futures are dropped (canceled). A panic in the future or in `then` stops the actor,
    /// as one in a handler does. With the `tokio` feature, the future may use tokio's
    /// reactor (`tokio::net`, `tokio::time`; see `Builder::tokio`).
    ///
    /// ```
    /// use footlights::{Actor, Addr, Canceled, Context, ReplyTo, System};
    ///
    /// struct Square;
    /// impl Actor for Square {
    ///     type Msg = (u64, ReplyTo<u64>);
    ///     fn handle(&mut self, _: &mut Context<Self>, (n, r): Self::Msg) { let _ = r.send(n * n); }
    /// }
    ///
    /// /// Sums the squares of what it is sent, asking `square` for each in an async block.
    /// struct Summer { square: Addr<Square>, sum: u64 }
    /// enum Msg { Add(u64, u64), Sum(ReplyTo<u64>) }
    /// impl Actor for Summer {
    ///     type Msg = Msg;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
    ///         match msg {
    ///             Msg::Add(a, b) => {
    ///                 // The future owns what it needs: two replies to await.
    ///                 let ra = self.square.ask(|r| (a, r)).expect("square runs");
    ///                 let rb = self.square.ask(|r| (b, r)).expect("square runs");
    ///                 let both = async move { Ok::<_, Canceled>(ra.await? + rb.await?) };
    ///                 ctx.run_future(both, |me, _ctx, sum| me.sum += sum.expect("answered"));
    ///             }
    ///             Msg::Sum(r) => { let _ = r.send(self.sum); }
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let square = system.spawn(Square);
    /// let summer = system.spawn(Summer { square, sum: 0 });
    /// summer.send(Msg::Add(3, 4))?;
    /// system.wait_quiescent(); // the squares are asked and answered inside the runtime
    /// assert_eq!(summer.ask(Msg::Sum)?.wait()?, 25);
    /// # Ok(()) }
    /// ```
    pub fn run_future<F>(
        &mut self,
        future: F,
        then: impl FnOnce(&mut A, &mut Context<'_, A>, F::Output) + Send + 'static,
    ) where
        F: Future + Send + 'static,
    {
        let addr = self.addr();
        let table = table(self);
        let slot = table.vacant();
        let wakeup = Arc::new(Wakeup {
            addr,
            slot,
            queued: AtomicBool::new(true),
        });
        table.slots[slot as usize] = Some(Pending {
            job: Box::pin(Then {
                future,
                then: Some(then),
            }),
            wakeup,
        });
        table.pending += 1;
        // The first poll, in a later step of this turn (or a later turn).
        runtime::wake_future(self.me, slot);
    }

    /// Runs `future` without blocking a worker, and hands its output to this actor's
    /// handler as the message `wrap` makes of it, in a turn of this actor. As
    /// [`Context::run_future`] otherwise.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    ///
    /// /// Counts the words of texts it fetches from somewhere slow.
    /// struct Counter { words: usize, asker: Option<ReplyTo<usize>> }
    /// enum Msg { Count(String, ReplyTo<usize>), Fetched(String) }
    ///
    /// async fn fetch(name: String) -> String {
    ///     format!("the text called {name}") // stands for real I/O
    /// }
    ///
    /// impl Actor for Counter {
    ///     type Msg = Msg;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
    ///         match msg {
    ///             Msg::Count(name, asker) => {
    ///                 self.asker = Some(asker);
    ///                 ctx.pipe_future(fetch(name), Msg::Fetched);
    ///             }
    ///             Msg::Fetched(text) => {
    ///                 self.words += text.split_whitespace().count();
    ///                 let _ = self.asker.take().expect("asked").send(self.words);
    ///             }
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let counter = system.spawn(Counter { words: 0, asker: None });
    /// let words = counter.ask(|r| Msg::Count("intro".into(), r))?.wait()?;
    /// assert_eq!(words, 4);
    /// # Ok(()) }
    /// ```
    pub fn pipe_future<F>(
        &mut self,
        future: F,
        wrap: impl FnOnce(F::Output) -> A::Msg + Send + 'static,
    ) where
        F: Future + Send + 'static,
    {
        self.run_future(future, move |actor, ctx, output| {
            actor.handle(ctx, wrap(output));
        });
    }

    /// How many futures this actor started ([`Context::run_future`],
    /// [`Context::pipe_future`]) that have not completed yet (in a continuation, its own
    /// future has).
    pub fn futures_pending(&mut self) -> usize {
        // SAFETY: as in `table`; the reference is dropped at once.
        let own = unsafe { self.me.cell().own_extras_if_any() };
        own.and_then(|o| o.futures.as_mut())
            .and_then(|f| f.downcast_ref::<Futures<A>>())
            .map_or(0, |f| f.pending)
    }
}
