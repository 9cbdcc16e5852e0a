//! Replies: a one-shot slot that a handler fills and a requester waits on.
//!
//! [`crate::Addr::ask`] makes a pair: the [`ReplyTo`] travels inside the request message, and
//! the [`Reply`] stays with the requester. The requester can:
//!
//! * block on it from outside the runtime ([`Reply::wait`], [`Reply::wait_timeout`]);
//! * `.await` it (it is a [`Future`]);
//! * inside a handler, continue on it without blocking the worker
//!   ([`crate::Context::then`]): the continuation is delivered to the actor as a message
//!   when the value arrives, so it runs with the actor's state like any handler.
//!
//! A `ReplyTo` dropped without an answer (say its actor stopped) cancels the reply, so
//! nobody waits forever. The slot is a small state machine under a mutex; a reply is one
//! uncontended lock and unlock on each side.
//!
//! An actor that wants its answers as ordinary messages asks for a [`ReplyTo`] from
//! [`crate::Context::reply_to`] instead: sending on it pushes the message straight into
//! the actor's mailbox, with no slot, no lock and no continuation. Code that answers does
//! not need to know which kind it holds.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::Duration;

#[cfg(not(any(loom, shuttle)))]
use parking_lot::Condvar;

use crate::sync::Mutex;

type Continuation<T> = Box<dyn FnOnce(Result<T, Canceled>) + Send>;

enum State<T> {
    Pending,
    Waiting(Waker),
    Continue(Continuation<T>),
    Ready(T),
    Canceled,
    /// The value was taken, or the `Reply` was dropped.
    Done,
}

struct Slot<T> {
    state: Mutex<State<T>>,
    /// Wakes a thread blocked in [`Reply::wait`] (the models poll instead).
    #[cfg(not(any(loom, shuttle)))]
    ready: Condvar,
}

/// The answering half of a request: send the reply with [`ReplyTo::send`].
pub struct ReplyTo<T> {
    target: Option<Target<T>>,
}

/// Delivers an outcome as a message to an actor; gives a value back if the actor had
/// already stopped.
pub(crate) type Deliver<T> = Box<dyn FnOnce(Result<T, Canceled>) -> Result<(), T> + Send>;

enum Target<T> {
    /// A slot a [`Reply`] waits on.
    Slot(Arc<Slot<T>>),
    /// An actor's mailbox ([`crate::Context::reply_to`]).
    Actor(Deliver<T>),
}

/// The waiting half of a request.
///
/// ```
/// let (reply_to, reply) = footlights::reply::pair::<u32>();
/// std::thread::spawn(move || { let _ = reply_to.send(7); });
/// assert_eq!(reply.wait(), Ok(7));
/// ```
#[must_use = "a reply does nothing unless waited on, awaited, or continued with Context::then"]
pub struct Reply<T> {
    slot: Arc<Slot<T>>,
}

/// The reply will never come: its [`ReplyTo`] was dropped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canceled;

impl fmt::Display for Canceled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reply was canceled: the replier dropped it without answering")
    }
}

impl std::error::Error for Canceled {}

/// A connected [`ReplyTo`] and [`Reply`]. [`crate::Addr::ask`] is the usual way to get one.
pub fn pair<T>() -> (ReplyTo<T>, Reply<T>) {
    let slot = Arc::new(Slot {
        state: Mutex::new(State::Pending),
        #[cfg(not(any(loom, shuttle)))]
        ready: Condvar::new(),
    });
    (
        ReplyTo {
            target: Some(Target::Slot(Arc::clone(&slot))),
        },
        Reply { slot },
    )
}

impl<T> Slot<T> {
    fn complete(&self, outcome: Result<T, Canceled>) -> Result<(), T> {
        let mut state = self.state.lock();
        match std::mem::replace(&mut *state, State::Done) {
            State::Pending => {
                *state = ready_state(outcome);
                #[cfg(not(any(loom, shuttle)))]
                self.ready.notify_all();
            }
            State::Waiting(waker) => {
                *state = ready_state(outcome);
                drop(state);
                waker.wake();
            }
            State::Continue(k) => {
                drop(state);
                k(outcome);
            }
            State::Done => {
                // The requester is gone: hand the value back.
                return outcome.map_or(Ok(()), Err);
            }
            State::Ready(_) | State::Canceled => unreachable!("a reply completes once"),
        }
        Ok(())
    }
}

fn ready_state<T>(outcome: Result<T, Canceled>) -> State<T> {
    match outcome {
        Ok(v) => State::Ready(v),
        Err(Canceled) => State::Canceled,
    }
}

impl<T> ReplyTo<T> {
    /// A `ReplyTo` that delivers to an actor (see [`crate::Context::reply_to`]).
    pub(crate) fn to_actor(deliver: Deliver<T>) -> Self {
        ReplyTo {
            target: Some(Target::Actor(deliver)),
        }
    }

    /// Sends the reply. Gives the value back if nobody will receive it: the requester
    /// dropped its [`Reply`], or the requesting actor has stopped.
    pub fn send(mut self, value: T) -> Result<(), T> {
        match self.target.take().expect("a ReplyTo is sent once") {
            Target::Slot(slot) => slot.complete(Ok(value)),
            Target::Actor(deliver) => deliver(Ok(value)),
        }
    }
}

impl<T> Drop for ReplyTo<T> {
    fn drop(&mut self) {
        match self.target.take() {
            Some(Target::Slot(slot)) => {
                let _ = slot.complete(Err(Canceled));
            }
            Some(Target::Actor(deliver)) => {
                let _ = deliver(Err(Canceled));
            }
            None => {}
        }
    }
}

impl<T> fmt::Debug for ReplyTo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ReplyTo")
    }
}

impl<T> fmt::Debug for Reply<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reply")
    }
}

impl<T> Reply<T> {
    /// Blocks the calling thread until the reply arrives. Do not call this inside a
    /// handler (it would block a worker); use [`crate::Context::then`] there.
    pub fn wait(self) -> Result<T, Canceled> {
        self.wait_until(None)
            .expect("an untimed wait ends with an outcome")
    }

    /// Like [`Reply::wait`], but gives up after `timeout` (`None`).
    pub fn wait_timeout(self, timeout: Duration) -> Option<Result<T, Canceled>> {
        self.wait_until(Some(std::time::Instant::now() + timeout))
    }

    #[cfg(not(any(loom, shuttle)))]
    fn wait_until(self, deadline: Option<std::time::Instant>) -> Option<Result<T, Canceled>> {
        let mut state = self.slot.state.raw().lock();
        loop {
            match std::mem::replace(&mut *state, State::Done) {
                State::Ready(v) => return Some(Ok(v)),
                State::Canceled => return Some(Err(Canceled)),
                other => *state = other,
            }
            match deadline {
                None => self.slot.ready.wait(&mut state),
                Some(d) => {
                    if self.slot.ready.wait_until(&mut state, d).timed_out() {
                        return match std::mem::replace(&mut *state, State::Done) {
                            State::Ready(v) => Some(Ok(v)),
                            State::Canceled => Some(Err(Canceled)),
                            other => {
                                *state = other;
                                None
                            }
                        };
                    }
                }
            }
        }
    }

    /// The models' wait: polls the slot, letting the checker run the other threads in
    /// between (a deadline is one more look).
    #[cfg(any(loom, shuttle))]
    fn wait_until(self, deadline: Option<std::time::Instant>) -> Option<Result<T, Canceled>> {
        loop {
            {
                let mut state = self.slot.state.lock();
                match std::mem::replace(&mut *state, State::Done) {
                    State::Ready(v) => return Some(Ok(v)),
                    State::Canceled => return Some(Err(Canceled)),
                    other => *state = other,
                }
            }
            if deadline.is_some() {
                return None;
            }
            crate::sync::yield_now();
        }
    }

    /// Calls `k` with the outcome when it arrives (at once if it already has), on the
    /// thread that completes the reply.
    pub(crate) fn on_complete(self, k: Continuation<T>) {
        let mut state = self.slot.state.lock();
        match std::mem::replace(&mut *state, State::Done) {
            State::Ready(v) => {
                drop(state);
                k(Ok(v));
            }
            State::Canceled => {
                drop(state);
                k(Err(Canceled));
            }
            // `Drop for Reply` leaves a `Continue` state alone: the continuation owns the
            // slot's outcome from now on.
            State::Pending | State::Waiting(_) => *state = State::Continue(k),
            State::Continue(_) | State::Done => unreachable!("a reply is consumed once"),
        }
    }
}

impl<T> Drop for Reply<T> {
    fn drop(&mut self) {
        let mut state = self.slot.state.lock();
        if matches!(*state, State::Pending | State::Waiting(_)) {
            *state = State::Done;
        }
    }
}

impl<T> Future for Reply<T> {
    type Output = Result<T, Canceled>;

    fn poll(self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        let mut state = self.slot.state.lock();
        match std::mem::replace(&mut *state, State::Done) {
            State::Ready(v) => Poll::Ready(Ok(v)),
            State::Canceled => Poll::Ready(Err(Canceled)),
            State::Pending | State::Waiting(_) => {
                *state = State::Waiting(cx.waker().clone());
                Poll::Pending
            }
            State::Continue(_) | State::Done => Poll::Ready(Err(Canceled)),
        }
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use shuttle::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use shuttle::thread;

    /// A waker that notes it was woken.
    struct Flag(AtomicBool);

    impl std::task::Wake for Flag {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// Awaits `reply` as an executor would: polls, and after a `Pending` polls again only
    /// once the waker it gave was woken (a lost wake-up leaves it spinning until shuttle's
    /// bound on a run's steps fails it).
    fn poll_until_ready(mut reply: Reply<u32>) -> Result<u32, Canceled> {
        let flag = Arc::new(Flag(AtomicBool::new(false)));
        let waker = Waker::from(Arc::clone(&flag));
        let mut cx = std::task::Context::from_waker(&waker);
        loop {
            if let Poll::Ready(outcome) = Pin::new(&mut reply).poll(&mut cx) {
                return outcome;
            }
            while !flag.0.swap(false, Ordering::SeqCst) {
                thread::yield_now();
            }
        }
    }

    /// The answer (or its cancel) races the asker continuing on the reply, waiting on it,
    /// awaiting it as a future, or dropping it: a continuation runs exactly once, a wait
    /// and a future get the outcome (a future's waker is woken), and a value the asker
    /// takes never comes back to the answerer too.
    #[test]
    fn an_answer_racing_the_asker_ends_once() {
        crate::sync::explore("an_answer_racing_the_asker_ends_once", || {
            for asker in 0..4 {
                for answers in [true, false] {
                    let (reply_to, reply) = pair::<u32>();
                    let answerer = thread::spawn(move || {
                        if answers {
                            reply_to.send(7).err()
                        } else {
                            drop(reply_to);
                            None
                        }
                    });
                    let ran = Arc::new(AtomicUsize::new(0));
                    let taken = match asker {
                        0 => {
                            let ran = Arc::clone(&ran);
                            reply.on_complete(Box::new(move |outcome| {
                                assert_eq!(outcome.is_ok(), answers);
                                ran.fetch_add(1, Ordering::SeqCst);
                            }));
                            true
                        }
                        1 => {
                            assert_eq!(reply.wait().is_ok(), answers);
                            true
                        }
                        2 => {
                            assert_eq!(poll_until_ready(reply).is_ok(), answers);
                            true
                        }
                        _ => {
                            drop(reply);
                            false
                        }
                    };
                    let back = answerer.join().unwrap();
                    if asker == 0 {
                        assert_eq!(ran.load(Ordering::SeqCst), 1, "the continuation ran once");
                    }
                    if taken {
                        assert!(back.is_none(), "a value taken by the asker came back too");
                    }
                }
            }
        });
    }
}
