//! Sending with backpressure from outside the runtime: an async send that waits while the
//! receiver's bounded mailbox is full, and a blocking one for plain threads.
//!
//! # The algorithm
//!
//! Both try to deliver the way [`Addr::try_send`] does. When the mailbox is full, they
//! register a [`Waker`] with the mailbox's capacity and look once more
//! ([`crate::mailbox::capacity`]): either the second look finds room, and they try again
//! at once, or the actor's turn wakes them when the mailbox has drained to half its
//! capacity (or the actor stops). A woken sender tries again; if another sender took the
//! room first, it registers again. Every waiter is woken at the low-water mark, so a
//! sender that gave up (an async send dropped while waiting) can never swallow a wake-up
//! meant for another.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Wake, Waker};

use super::{Actor, Addr, SendError};
use crate::cell::Refused;
use crate::mailbox::capacity::{self, Until};
use crate::runtime;

/// The future of [`Addr::send_async`]: ready once the message is delivered, or the actor
/// has stopped (the message then comes back in the error).
#[must_use = "a send does nothing unless awaited"]
pub struct Sending<'a, A: Actor> {
    addr: &'a Addr<A>,
    msg: Option<A::Msg>,
    /// Its key among the mailbox's waiters, once it has waited: a send dropped while it
    /// waits takes its waker out of the mailbox's list.
    waiting: Option<u64>,
}

impl<A: Actor> Addr<A> {
    /// Sends `msg`, waiting while the actor's bounded mailbox is full; for async code
    /// outside the runtime (a tokio task, say). Fails, giving `msg` back, if the actor has
    /// stopped. To an unbounded mailbox it never waits.
    ///
    /// ```
    /// use footlights::{Actor, Context, SpawnOptions, System};
    ///
    /// struct Sink { got: u64 }
    /// impl Actor for Sink {
    ///     type Msg = u64;
    ///     fn handle(&mut self, _: &mut Context<Self>, n: u64) { self.got += n; }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let sink = system.spawn_with(Sink { got: 0 }, SpawnOptions::new().capacity(8));
    /// // Any executor will do.
    /// tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    ///     for n in 0..1000 {
    ///         sink.send_async(n).await.expect("the sink runs");
    ///     }
    /// });
    /// system.wait_quiescent();
    /// assert_eq!(sink.messages_handled(), 1000);
    /// # Ok(()) }
    /// ```
    pub fn send_async(&self, msg: A::Msg) -> Sending<'_, A> {
        Sending {
            addr: self,
            msg: Some(msg),
            waiting: None,
        }
    }

    /// Sends `msg`, blocking the calling thread while the actor's bounded mailbox is full.
    /// Fails, giving `msg` back, if the actor has stopped. Call it from a plain thread,
    /// never from a handler (it would block a worker: use [`crate::Context::send`] there)
    /// nor from async code (use [`Addr::send_async`]).
    ///
    /// ```
    /// use footlights::{Actor, Context, SpawnOptions, System};
    ///
    /// struct Sink;
    /// impl Actor for Sink {
    ///     type Msg = u64;
    ///     fn handle(&mut self, _: &mut Context<Self>, _: u64) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let sink = system.spawn_with(Sink, SpawnOptions::new().capacity(8));
    /// for n in 0..1000 {
    ///     sink.send_blocking(n)?;
    /// }
    /// system.wait_quiescent();
    /// assert_eq!(sink.messages_handled(), 1000);
    /// # Ok(()) }
    /// ```
    pub fn send_blocking(&self, msg: A::Msg) -> Result<(), SendError<A::Msg>> {
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut msg = msg;
        loop {
            match self.deliver_or_wait(msg, &waker, None) {
                Attempt::Done(result) => return result,
                Attempt::Wait(back) => {
                    msg = back;
                    std::thread::park();
                }
            }
        }
    }

    /// Tries to deliver `msg`; if the mailbox is full, registers `waker` and gives the
    /// message back, unless room appeared meanwhile (then it tries again).
    /// `key`: where a waiter that may give up keeps its own key among the mailbox's
    /// waiters (made the first time it waits; see `Capacity::wait_as`).
    fn deliver_or_wait(
        &self,
        msg: A::Msg,
        waker: &Waker,
        key: Option<&mut Option<u64>>,
    ) -> Attempt<A::Msg> {
        let mut key = key;
        let mut msg = msg;
        loop {
            match runtime::try_deliver(self.node(), msg) {
                Ok(()) => return Attempt::Done(Ok(())),
                Err(Refused::Stopped(back)) => return Attempt::Done(Err(SendError(back))),
                Err(Refused::Full(back)) => {
                    let capacity = self.node().cell().capacity();
                    let capacity = capacity.expect("only a bounded mailbox is ever full");
                    let waits = match key.as_deref_mut() {
                        Some(key) => {
                            let key = *key.get_or_insert_with(capacity::waiter_key);
                            capacity.wait_as(key, waker, Until::Room)
                        }
                        None => capacity.wait(waker, Until::Room),
                    };
                    if waits {
                        return Attempt::Wait(back);
                    }
                    msg = back;
                }
            }
        }
    }
}

/// How an attempt to send went.
enum Attempt<M> {
    /// Delivered, or refused for good (the actor stopped).
    Done(Result<(), SendError<M>>),
    /// The mailbox is full; the waker will be woken. The message is back.
    Wait(M),
}

// Nothing in a `Sending` is ever pinned: the message is moved in and out by value.
impl<A: Actor> Unpin for Sending<'_, A> {}

impl<A: Actor> Future for Sending<'_, A> {
    type Output = Result<(), SendError<A::Msg>>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let msg = this
            .msg
            .take()
            .expect("a send is not polled after it completed");
        match this
            .addr
            .deliver_or_wait(msg, cx.waker(), Some(&mut this.waiting))
        {
            Attempt::Done(result) => {
                this.give_up();
                Poll::Ready(result)
            }
            Attempt::Wait(back) => {
                this.msg = Some(back);
                Poll::Pending
            }
        }
    }
}

impl<A: Actor> Sending<'_, A> {
    /// Takes this send's waker out of the mailbox's waiters, if it ever waited.
    fn give_up(&mut self) {
        if let Some(key) = self.waiting.take() {
            if let Some(capacity) = self.addr.node().cell().capacity() {
                capacity.forget(key);
            }
        }
    }
}

impl<A: Actor> Drop for Sending<'_, A> {
    fn drop(&mut self) {
        self.give_up();
    }
}

/// Wakes a thread blocked in [`Addr::send_blocking`].
struct Unpark(std::thread::Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}
