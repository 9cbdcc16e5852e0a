//! Muting: a handler whose send found a full mailbox yields its worker until that mailbox
//! has drained.
//!
//! # Why yield, and what it means for a handler
//!
//! A handler cannot suspend, and blocking its worker until the receiver has room would
//! deadlock on one worker (the receiver could never run). So a yielding send
//! ([`crate::Context::send`]) always delivers its message, and if the receiver's bounded
//! mailbox was already full, it *mutes* the sender (Pony's word): the turn ends when the
//! running hook returns, and the actor handles nothing more until the receiver has drained
//! to its low-water mark. Its own messages wait in its mailbox meanwhile, in order. So the
//! receiver holds at most its capacity plus what muted senders sent in the hooks that
//! muted them, a producer that sends one message per hook slows down to its consumer's
//! pace, and on one worker the worker runs the receiver instead of the muted sender.
//!
//! # The algorithm
//!
//! * The yielding send notes the receiver's capacity in the sender's [`super::extras`]
//!   and sets the turn's [`Halt::Mute`]. The turn ends with [`TurnEnd::Wait`].
//! * The scheduler, once it is done with the turn, calls [`crate::task::Run::wait`]. A
//!   muted actor is neither idle (its mailbox's idle bit stays clear, so sends only queue
//!   behind it) nor in a run queue: its scheduling right, the run queue's reference, is
//!   handed to a one-shot [`Resumption`] registered with the receiver's capacity
//!   ([`Capacity::wait`]). When the receiver drains, the capacity wakes the resumption,
//!   which schedules the actor as a push that found it idle would.
//! * If the receiver has drained already by the time the resumption is registered, the
//!   actor goes on instead (the scheduler requeues it) and takes its resumption back. The
//!   take-back and the wake-up race for one slot, and exactly one of them gets the
//!   actor: a resumption both taken back and woken would run the actor twice.
//! * **No cycles.** Two bounded actors muted on each other would wait for ever. So an
//!   actor does not wait while others wait on its own mailbox: after registering (which
//!   sets the receiver's `waiting` flag and then issues a sequentially consistent fence),
//!   it reads its own flag. The fences are totally ordered, so of two actors registering
//!   on each other at least one sees the other and goes on; around a longer cycle, the
//!   one whose fence comes last does. An actor others
//!   wait on is one that must drain, so it keeps running; a pipeline's backpressure still
//!   reaches its head once that actor has drained and mutes in turn.
//! * A yielding send to the sender itself never mutes it.
//! * A muted actor handles nothing, so a kill ([`crate::Addr::kill`]) is seen when it
//!   resumes: when the mailbox it waits on drains, or closes (a shutdown kills that
//!   actor too, which wakes its waiters).
//!
//! The loom models at the bottom of this file check the take-back racing a wake-up, and
//! two actors muting on each other.

use std::sync::Arc;
use std::task::{Wake, Waker};

use super::{ActorCell, Behaviour, Halt};
use crate::mailbox::capacity::{Capacity, Until};
use crate::sync::Mutex;
#[cfg(doc)]
use crate::task::TurnEnd;

/// A muted actor's scheduling right, handed to the mailbox it waits on; woken once, it
/// schedules the actor through `resume`.
pub(crate) struct Resumption<N> {
    node: Mutex<Option<Arc<N>>>,
    resume: fn(Arc<N>),
}

impl<N> Resumption<N> {
    /// A resumption holding `node`, the scheduling right.
    pub(crate) fn new(node: Arc<N>, resume: fn(Arc<N>)) -> Self {
        Resumption {
            node: Mutex::new(Some(node)),
            resume,
        }
    }

    /// Takes the scheduling right back, unless a wake-up used it.
    pub(crate) fn take(&self) -> Option<Arc<N>> {
        self.node.lock().take()
    }
}

impl<N: Send + Sync + 'static> Wake for Resumption<N> {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if let Some(node) = self.take() {
            (self.resume)(node);
        }
    }
}

impl<B: Behaviour> ActorCell<B> {
    /// Mutes the running actor on `capacity`, unless a send of this turn muted it already.
    ///
    /// # Safety
    /// Only the actor's consumer may call this, inside its turn.
    pub(crate) unsafe fn mute_on(&self, capacity: Arc<Capacity>) {
        // SAFETY: the caller is the consumer; no other reference into the extras is alive.
        let own = unsafe { self.own_extras() };
        own.muted_on.get_or_insert(capacity);
    }

    /// Ends a muted actor's turn: hands the scheduling right `me` to the mailbox it is
    /// muted on and returns `true`, or returns `false` if the actor must go on (the
    /// scheduler then requeues it).
    ///
    /// # Safety
    /// Only the worker that ran the actor's last turn may call this, once, after that turn
    /// ended with [`TurnEnd::Wait`]. On `true` the actor may run elsewhere at once, so the
    /// caller must not touch it afterwards.
    pub(super) unsafe fn wait_muted(&self, me: &Arc<B::Node>) -> bool {
        // SAFETY: the caller is the consumer; no other reference into the extras is alive.
        let muted_on = unsafe { self.own_extras_if_any() }.and_then(|own| own.muted_on.take());
        let Some(receiver) = muted_on else {
            return false;
        };
        let resumption = Arc::new(Resumption::new(Arc::clone(me), B::resume));
        let waker = Waker::from(Arc::clone(&resumption));
        let waits = receiver.wait(&waker, Until::Drained)
            && !self.capacity().is_some_and(Capacity::has_waiters);
        if waits {
            return true;
        }
        // Go on, unless a wake-up already scheduled the actor with the right.
        resumption.take().is_none()
    }
}

impl Halt {
    /// Mutes the actor after the running hook (a yielding send found a full mailbox),
    /// unless it is stopping, which wins; a mute wins over a yield (a muted actor must
    /// wait, not go back in a run queue).
    pub(crate) fn mute(&mut self) {
        if matches!(*self, Halt::Go | Halt::Yield) {
            *self = Halt::Mute;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Halt;

    #[test]
    fn a_mute_wins_over_a_yield_and_loses_to_a_stop() {
        for (before, after) in [
            (Halt::Go, Halt::Mute),
            (Halt::Yield, Halt::Mute),
            (Halt::Mute, Halt::Mute),
            (Halt::Stop, Halt::Stop),
        ] {
            let mut halt = before;
            halt.mute();
            assert_eq!(halt, after, "muting {before:?}");
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use loom::sync::atomic::{AtomicUsize, Ordering};
    use loom::thread;

    /// Counts the times a resumption resumed its "actor" (here, a counter).
    fn count_resume(resumed: std::sync::Arc<AtomicUsize>) {
        resumed.fetch_add(1, Ordering::SeqCst);
    }

    /// A wake-up racing the take-back of a resumption: exactly one gets the scheduling
    /// right, so the actor is neither run twice nor lost.
    #[test]
    fn take_back_racing_a_wake_up() {
        loom::model(|| {
            let resumed = std::sync::Arc::new(AtomicUsize::new(0));
            let r = std::sync::Arc::new(Resumption::new(
                std::sync::Arc::clone(&resumed),
                count_resume,
            ));
            let waker = Waker::from(std::sync::Arc::clone(&r));
            let waking = thread::spawn(move || waker.wake());
            let taken_back = r.take().is_some();
            waking.join().unwrap();
            let resumed = resumed.load(Ordering::SeqCst);
            assert_eq!(
                usize::from(taken_back) + resumed,
                1,
                "one owner of the right"
            );
        });
    }

    /// Two bounded actors, each with a message past the other's capacity, register on each
    /// other at once (the deadlock muting must avoid): at least one of them goes on.
    #[test]
    fn two_actors_muted_on_each_other() {
        loom::model(|| {
            let a = loom::sync::Arc::new(Capacity::new(1));
            let b = loom::sync::Arc::new(Capacity::new(1));
            for c in [&a, &b] {
                assert!(c.try_acquire());
                assert!(c.acquire_past());
            }
            let noop = Waker::noop();
            let other = {
                let (a, b) = (loom::sync::Arc::clone(&a), loom::sync::Arc::clone(&b));
                thread::spawn(move || b.wait(noop, Until::Drained) && !a.has_waiters())
            };
            let a_waits = a.wait(noop, Until::Drained) && !b.has_waiters();
            let b_waits = other.join().unwrap();
            assert!(
                !(a_waits && b_waits),
                "two actors wait on each other for ever"
            );
        });
    }
}
