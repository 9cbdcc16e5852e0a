//! A bounded mailbox's capacity: how many messages it holds, and who waits for room.
//!
//! # The algorithm
//!
//! The mailbox's list ([`super::Mailbox`]) stays unbounded and lock-free. A bounded mailbox
//! keeps this count beside it; only actors spawned with a capacity have one, so the sends
//! and turns of every other actor never touch it.
//!
//! * `used` counts the messages sent to the actor and not yet taken by its turn. A sender
//!   counts its message *before* pushing it, and the turn uncounts a message right after
//!   popping it ([`Capacity::release`]), so `used` is never less than the number of
//!   messages in the list, and never wraps below zero.
//! * A sender that must not exceed the capacity (`try_send`, an async send) *acquires* a
//!   place ([`Capacity::try_acquire`]): a compare-and-swap from `n` to `n + 1` that fails
//!   once `n` has reached the limit. Such senders never fill the list beyond the limit.
//! * A sender that delivers whatever the count (`send`, a reply, a handler's yielding
//!   send) adds one unconditionally ([`Capacity::acquire_past`]) and learns whether the
//!   mailbox was already full, so that a handler's yielding send can mute its actor.
//! * **Waiting.** A sender that found the mailbox full and wants to wait
//!   ([`Capacity::wait`]) registers a [`Waker`] in a list under a lock, sets the `waiting`
//!   flag, issues a sequentially consistent fence, and then looks at `used` once more.
//!   The turn, after uncounting a message that brings the count down to the *low-water
//!   mark* (half the capacity), issues the same fence and reads the flag, and if it is set
//!   wakes every registered waker. Each side writes one word, fences, and reads the
//!   other's (Dekker's pattern, as in the scheduler's parking): the fences are totally
//!   ordered, so either the waiter's second look sees the count fallen (it does not
//!   wait), or the turn sees the flag (it wakes the waiter). So no waiter sleeps through
//!   the room it waits for. (If the count rose again in between, through another sender,
//!   the waiter waits for the next time it falls to the mark: the turn takes every
//!   message, so it does fall.) The fence costs the turn nothing above the mark.
//! * Waking at the low-water mark, not at the first free place, lets a woken sender send
//!   half a mailbox's worth of messages before it has to wait again, instead of one
//!   message per wake-up. The waker looks at the count once more under the lock, and
//!   wakes nobody if it has risen above the mark since its release: a muted sender that
//!   registered in between would otherwise resume while the mailbox is full, and go past
//!   the capacity twice (the bounded tests caught this on two workers).
//! * **Giving up.** A waiter that may stop waiting before it is woken (a dropped
//!   [`crate::Sending`] future) registers under a key of its own and takes its waker out
//!   when it gives up ([`Capacity::forget`]), so the list holds only live waiters.
//! * **Closing.** A stopping actor closes its capacity ([`Capacity::close`]): every waiter
//!   is woken (its send then finds the actor stopped), and nobody can wait any more.
//!
//! The loom models at the bottom of this file check that acquiring senders never exceed
//! the limit while a turn pops and uncounts, and that a waiter racing the turn's last
//! release, or a close, is always woken or sees the room itself (`RUSTFLAGS="--cfg
//! loom"`).

use std::task::Waker;

use crate::sync::{AtomicBool, AtomicUsize, Mutex, Ordering, fence};

/// What a waiter waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Until {
    /// Room for one more message (a sender that will acquire a place).
    Room,
    /// The mailbox drained to its low-water mark (a muted actor, which will send again
    /// without acquiring).
    Drained,
}

/// Registered waiters, and whether the capacity is closed.
struct Waiters {
    /// Each with its key: [`ANONYMOUS`], or a waiter's own ([`Capacity::wait_as`]).
    wakers: Vec<(u64, Waker)>,
    closed: bool,
}

/// The key of a waiter that never gives up (a muted actor, a blocked thread): registered
/// once per waker ([`Waker::will_wake`]), and taken out only by a wake-up or the close.
const ANONYMOUS: u64 = 0;

/// Keys for waiters that may give up ([`Capacity::wait_as`]).
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A fresh key for [`Capacity::wait_as`]: unique in the process.
pub(crate) fn waiter_key() -> u64 {
    NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A bounded mailbox's count of messages and its waiting senders; see the module
/// documentation.
pub(crate) struct Capacity {
    limit: usize,
    /// Messages counted in and not yet taken (may exceed `limit`: see `acquire_past`).
    used: AtomicUsize,
    /// Whether `waiters` may hold a waker: read by every release below the low-water mark.
    waiting: AtomicBool,
    waiters: Mutex<Waiters>,
}

impl Capacity {
    /// A capacity of `limit` messages (at least one).
    pub(crate) fn new(limit: usize) -> Capacity {
        assert!(
            limit > 0,
            "a bounded mailbox needs a capacity of at least 1"
        );
        Capacity {
            limit,
            used: AtomicUsize::new(0),
            waiting: AtomicBool::new(false),
            waiters: Mutex::new(Waiters {
                wakers: Vec::new(),
                closed: false,
            }),
        }
    }

    /// The most messages acquiring senders put in the mailbox.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Messages counted in and not yet taken: a snapshot, for tests and for the depth the
    /// `metrics` feature publishes.
    #[cfg_attr(not(any(test, feature = "metrics")), allow(dead_code))]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Whether anybody may be waiting for this mailbox to drain. A muted actor reads its
    /// own mailbox's flag right after [`Capacity::wait`] on another's, whose fence orders
    /// the two (the cell's `mute` module), so that two actors never wait on each other.
    pub(crate) fn has_waiters(&self) -> bool {
        self.waiting.load(Ordering::Relaxed)
    }

    /// The count at or below which waiters are woken.
    fn low_water(&self) -> usize {
        self.limit / 2
    }

    /// Counts one message in if that keeps the count within the limit; `false` if the
    /// mailbox is full.
    pub(crate) fn try_acquire(&self) -> bool {
        // Relaxed throughout: the count publishes no data (the mailbox's push does), and
        // the waiting protocol orders its reads with fences.
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            if used >= self.limit {
                return false;
            }
            match self.used.compare_exchange_weak(
                used,
                used + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(seen) => used = seen,
            }
        }
    }

    /// Counts one message in whatever the count; `true` if the mailbox was already full
    /// (the message goes past the limit).
    pub(crate) fn acquire_past(&self) -> bool {
        self.used.fetch_add(1, Ordering::Relaxed) >= self.limit
    }

    /// Counts one message out (the turn took it, or a counted message came back to its
    /// sender), and wakes the waiters if the count has fallen to the low-water mark.
    pub(crate) fn release(&self) {
        let before = self.used.fetch_sub(1, Ordering::Relaxed);
        debug_assert!(before > 0, "a release without an acquire");
        if before - 1 <= self.low_water() {
            // Orders the decrement before the read of the flag; see `wait`.
            fence(Ordering::SeqCst);
            if self.waiting.load(Ordering::Relaxed) {
                self.wake_if_drained();
            }
        }
    }

    /// Registers `waker` to be woken when the mailbox has drained to its low-water mark,
    /// or closes. Returns `true` if the caller must wait for that wake-up, `false` if what
    /// it waits for (`until`) is already there or the capacity is closed: then it goes on
    /// at once, and the waker may still be woken once, spuriously.
    pub(crate) fn wait(&self, waker: &Waker, until: Until) -> bool {
        self.wait_as(ANONYMOUS, waker, until)
    }

    /// [`Capacity::wait`] for a waiter that may give up before it is woken (a
    /// [`crate::Sending`] future dropped while it waits): registered under `key` (from
    /// [`waiter_key`]), replacing what it registered before under that key, so that
    /// [`Capacity::forget`] can take it out. Without that, every such future dropped
    /// while the mailbox stays full would leave its waker (and the task it wakes) in the
    /// list until the next wake-up.
    pub(crate) fn wait_as(&self, key: u64, waker: &Waker, until: Until) -> bool {
        {
            let mut waiters = self.waiters.lock();
            if waiters.closed {
                return false;
            }
            let mine = waiters
                .wakers
                .iter_mut()
                .find(|(k, w)| *k == key && (key != ANONYMOUS || w.will_wake(waker)));
            match mine {
                Some((_, w)) => {
                    if !w.will_wake(waker) {
                        w.clone_from(waker);
                    }
                }
                None => waiters.wakers.push((key, waker.clone())),
            }
            self.waiting.store(true, Ordering::Relaxed);
        }
        // Orders the flag before the second look at the count; see `release`.
        fence(Ordering::SeqCst);
        let used = self.used.load(Ordering::Relaxed);
        match until {
            Until::Room => used >= self.limit,
            Until::Drained => used > self.low_water(),
        }
    }

    /// Takes out the waker registered under `key` ([`Capacity::wait_as`]), if it is still
    /// there: its waiter gave up. The `waiting` flag stays as it is (a release that finds
    /// it set and nobody to wake only takes the lock once).
    pub(crate) fn forget(&self, key: u64) {
        let gone = {
            let mut waiters = self.waiters.lock();
            let at = waiters.wakers.iter().position(|(k, _)| *k == key);
            at.map(|at| waiters.wakers.swap_remove(at))
        };
        // A waker's drop may run code of its executor: outside the lock.
        drop(gone);
    }

    /// Wakes every waiter, and lets no one wait any more: the actor has stopped.
    pub(crate) fn close(&self) {
        let wakers = {
            let mut waiters = self.waiters.lock();
            waiters.closed = true;
            self.waiting.store(false, Ordering::Relaxed);
            std::mem::take(&mut waiters.wakers)
        };
        wakers.into_iter().for_each(|(_, w)| w.wake());
    }

    /// Wakes every waiter, unless the count has risen above the low-water mark again
    /// since the release that decided to wake them: a sender got in meanwhile, and waking
    /// a muted actor now would let it past the capacity once more. The flag stays set, so
    /// the release that next brings the count down to the mark wakes them.
    fn wake_if_drained(&self) {
        let wakers = {
            let mut waiters = self.waiters.lock();
            if self.used.load(Ordering::Relaxed) > self.low_water() {
                return;
            }
            self.waiting.store(false, Ordering::Relaxed);
            std::mem::take(&mut waiters.wakers)
        };
        wakers.into_iter().for_each(|(_, w)| w.wake());
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize as Count;
    use std::task::Wake;

    struct Counting(Count);
    impl Wake for Counting {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counting() -> (Arc<Counting>, Waker) {
        let c = Arc::new(Counting(Count::new(0)));
        (Arc::clone(&c), Waker::from(c))
    }

    #[test]
    fn acquiring_stops_at_the_limit_and_past_goes_beyond() {
        let c = Capacity::new(2);
        assert!(c.try_acquire() && c.try_acquire());
        assert!(!c.try_acquire(), "full at the limit");
        assert!(c.acquire_past(), "a send past the limit learns it was full");
        assert_eq!(c.used(), 3);
        c.release();
        assert!(!c.try_acquire(), "still at the limit");
        c.release();
        assert!(c.try_acquire());
    }

    #[test]
    fn waiters_wake_at_the_low_water_mark() {
        let c = Capacity::new(4);
        for _ in 0..4 {
            assert!(c.try_acquire());
        }
        let (room, room_waker) = counting();
        let (drained, drained_waker) = counting();
        assert!(c.wait(&room_waker, Until::Room));
        assert!(c.wait(&drained_waker, Until::Drained));
        assert!(
            c.wait(&room_waker, Until::Room),
            "registering twice is harmless"
        );
        c.release(); // 3 left: above the mark
        assert_eq!(room.0.load(Ordering::SeqCst), 0);
        assert!(!c.wait(&room_waker, Until::Room), "room for one now");
        c.release(); // 2 left: the mark
        assert_eq!(room.0.load(Ordering::SeqCst), 1, "woken once");
        assert_eq!(drained.0.load(Ordering::SeqCst), 1);
        assert!(!c.wait(&drained_waker, Until::Drained), "drained already");
    }

    #[test]
    fn closing_wakes_every_waiter_and_stops_waiting() {
        let c = Capacity::new(1);
        assert!(c.try_acquire());
        let (w, waker) = counting();
        assert!(c.wait(&waker, Until::Room));
        c.close();
        assert_eq!(w.0.load(Ordering::SeqCst), 1);
        assert!(
            !c.wait(&waker, Until::Room),
            "nobody waits on a closed mailbox"
        );
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use crate::mailbox::Mailbox;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize as Count;
    use loom::thread;
    use std::task::Wake;

    /// A waker that counts its wake-ups.
    struct Flag(Count);
    impl Wake for Flag {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn flag() -> (std::sync::Arc<Flag>, Waker) {
        let f = std::sync::Arc::new(Flag(Count::new(0)));
        (std::sync::Arc::clone(&f), Waker::from(f))
    }

    /// Two senders acquire and push while the actor's turn pops and releases: the list
    /// never holds more than the limit, every acquired message is taken once, and the
    /// count ends at zero.
    #[test]
    fn acquiring_senders_never_exceed_the_limit() {
        loom::model(|| {
            let m = Arc::new(Mailbox::new());
            // SAFETY: final address inside the Arc, not shared yet.
            unsafe { m.init(false) };
            let c = Arc::new(Capacity::new(1));
            let in_list = Arc::new(Count::new(0));
            let senders: Vec<_> = (0..2)
                .map(|i| {
                    let (m, c, in_list) = (Arc::clone(&m), Arc::clone(&c), Arc::clone(&in_list));
                    thread::spawn(move || {
                        if !c.try_acquire() {
                            return 0;
                        }
                        let now = in_list.fetch_add(1, Ordering::SeqCst) + 1;
                        assert!(now <= 1, "the list holds more than the limit");
                        m.push(i);
                        1
                    })
                })
                .collect();
            let mut taken = 0;
            for _ in 0..2 {
                // SAFETY: this thread is the only consumer.
                if unsafe { m.pop() }.is_some() {
                    in_list.fetch_sub(1, Ordering::SeqCst);
                    c.release();
                    taken += 1;
                }
            }
            let sent: usize = senders.into_iter().map(|h| h.join().unwrap()).sum();
            // SAFETY: as above; every push has finished.
            while unsafe { m.pop() }.is_some() {
                c.release();
                taken += 1;
            }
            assert!(sent >= 1, "an empty mailbox refused a message");
            assert_eq!(taken, sent, "every acquired message taken once");
            assert_eq!(c.used(), 0);
        });
    }

    /// Runs `other` on a second thread while this one decides with `wait` whether to
    /// wait; returns that decision and how many times the waker was woken by the end.
    fn race(
        c: &Arc<Capacity>,
        other: impl FnOnce(&Capacity) + Send + 'static,
        wait: impl FnOnce(&Capacity, &Waker) -> bool,
    ) -> (bool, usize) {
        let (woken, waker) = flag();
        let racer = {
            let c = Arc::clone(c);
            thread::spawn(move || other(&c))
        };
        let waits = wait(c, &waker);
        racer.join().unwrap();
        (waits, woken.0.load(Ordering::SeqCst))
    }

    /// A sender finds the mailbox full and waits for room while the turn takes the one
    /// message: either its second look sees the room, or the release wakes it. Never
    /// neither.
    #[test]
    fn a_waiting_sender_is_never_forgotten() {
        loom::model(|| {
            let c = Arc::new(Capacity::new(1));
            assert!(c.try_acquire());
            let mut got_in = false;
            let (waits, woken) = race(&c, Capacity::release, |c, waker| {
                got_in = c.try_acquire();
                !got_in && c.wait(waker, Until::Room)
            });
            if waits {
                assert_eq!(woken, 1, "a lost wake-up");
            } else if !got_in {
                assert!(c.try_acquire(), "it went on, so there is room");
            }
        });
    }

    /// A muted actor (its send went past the limit) waits for the mailbox to drain while
    /// the turn takes two messages: the same guarantee, at the low-water mark.
    #[test]
    fn a_muted_sender_is_never_forgotten() {
        loom::model(|| {
            let c = Arc::new(Capacity::new(2));
            assert!(c.try_acquire() && c.try_acquire());
            assert!(c.acquire_past(), "a yielding send past the limit");
            let turn = |c: &Capacity| {
                c.release();
                c.release();
            };
            let (waits, woken) = race(&c, turn, |c, waker| c.wait(waker, Until::Drained));
            if waits {
                assert_eq!(woken, 1, "a lost wake-up");
            } else {
                assert!(c.used() <= 1, "it went on, so the mailbox drained");
            }
        });
    }

    /// The turn's release decides to wake while a sender raises the count past the limit
    /// again and mutes: the muted sender is not woken while the count is above the
    /// low-water mark (it would go past the capacity twice). Without the second look
    /// under the lock, loom finds the schedule that wakes it at 3 of 2.
    #[test]
    fn a_muted_sender_is_not_woken_above_the_mark() {
        /// A waker that checks the count when it is woken.
        struct Check(std::sync::Arc<Capacity>);
        impl Wake for Check {
            fn wake(self: std::sync::Arc<Self>) {
                assert!(self.0.used() <= 1, "woken above the low-water mark");
            }
        }
        loom::model(|| {
            let c = std::sync::Arc::new(Capacity::new(2));
            assert!(c.try_acquire() && c.try_acquire());
            let waker = Waker::from(std::sync::Arc::new(Check(std::sync::Arc::clone(&c))));
            let turn = {
                let c = std::sync::Arc::clone(&c);
                thread::spawn(move || {
                    c.release();
                    c.release();
                })
            };
            // Two more messages, which go past the limit unless the turn was quick; then
            // wait as a muted sender does.
            c.acquire_past();
            c.acquire_past();
            c.wait(&waker, Until::Drained);
            turn.join().unwrap();
        });
    }

    /// A close racing a waiter: the waiter is woken, or sees the close and does not wait.
    #[test]
    fn a_close_wakes_or_refuses_every_waiter() {
        loom::model(|| {
            let c = Arc::new(Capacity::new(1));
            assert!(c.try_acquire());
            let (waits, woken) = race(&c, Capacity::close, |c, waker| c.wait(waker, Until::Room));
            if waits {
                assert_eq!(woken, 1, "a waiter slept through a close");
            }
        });
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use shuttle::sync::atomic::AtomicBool as Flag;
    use shuttle::thread;
    use std::sync::Arc;
    use std::task::Wake;

    struct Woken(Flag);

    impl Wake for Woken {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// A sender that gives up (a dropped `send_async`) and one that waits race the turn
    /// draining a full mailbox: the one that waits is woken or sees the room itself, and
    /// the one that gave up leaves no waker behind.
    #[test]
    fn a_sender_giving_up_leaves_nothing_and_a_waiting_one_is_woken() {
        crate::sync::explore(
            "a_sender_giving_up_leaves_nothing_and_a_waiting_one_is_woken",
            || {
                let c = Arc::new(Capacity::new(2));
                assert!(c.try_acquire() && c.try_acquire());
                let quitter = {
                    let c = Arc::clone(&c);
                    thread::spawn(move || {
                        let woken = Arc::new(Woken(Flag::new(false)));
                        let key = waiter_key();
                        let _ = c.wait_as(key, &Waker::from(Arc::clone(&woken)), Until::Room);
                        c.forget(key);
                        woken
                    })
                };
                let waiter = {
                    let c = Arc::clone(&c);
                    thread::spawn(move || {
                        let woken = Arc::new(Woken(Flag::new(false)));
                        let key = waiter_key();
                        let waits = c.wait_as(key, &Waker::from(Arc::clone(&woken)), Until::Room);
                        (waits, woken)
                    })
                };
                c.release();
                c.release();
                let quitter = quitter.join().unwrap();
                let (waits, woken) = waiter.join().unwrap();
                // Every thread is done: a waker still counted is one the list kept.
                assert_eq!(
                    Arc::strong_count(&quitter),
                    1,
                    "the waker of a sender that gave up was kept"
                );
                if waits {
                    assert!(
                        woken.0.load(Ordering::SeqCst),
                        "a waiting sender slept through"
                    );
                }
            },
        );
    }
}
