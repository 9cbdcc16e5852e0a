//! The actor's mailbox: a lock-free multi-producer, single-consumer queue whose push also
//! tells the sender whether the actor was idle.
//!
//! # The algorithm
//!
//! This is an intrusive linked queue in the style of Dmitry Vyukov's MPSC queue, with the
//! actor's scheduling state folded into it the way Pony's `messageq` does:
//!
//! * Producers own `head`, the most recently pushed node. A push is one atomic `swap` of
//!   `head` to the new node, then a store that links the previous head to it. No lock, no
//!   retry loop: a push always completes in two atomic operations.
//! * The consumer owns `tail`, a node whose value has already been taken (at first the
//!   `stub` embedded in the mailbox). `tail.next` is the next message. Popping moves `tail`
//!   forward and frees the old tail.
//! * **The invariant that makes scheduling exact:** the low bit of `head` is the *idle* bit.
//!   It is set only by the consumer, and only with a compare-and-swap that succeeds when
//!   `head == tail`, i.e. when the queue is empty and no push has begun since the consumer
//!   last looked ([`Mailbox::mark_idle`]). Every push swaps in an untagged pointer, so it
//!   clears the bit, and the swap returns the old value: the one push that finds the bit set
//!   learns that the actor was idle and must be scheduled. Every other push finds the bit
//!   clear and knows somebody else already scheduled the actor. So exactly one party
//!   schedules an actor, and an actor with messages is never left idle.
//! * Between a producer's swap and its link, the queue looks empty to the consumer even
//!   though `head != tail`. `pop` then returns `None` and `mark_idle` fails; the consumer
//!   keeps the actor scheduled and tries again on its next turn. Nothing is lost.
//!
//! Memory ordering: the swap is `AcqRel` so that a producer that finds the idle bit set
//! synchronises with the consumer's releasing `mark_idle`; together with the run queue's own
//! synchronisation, everything the last turn wrote to the actor's state happens-before the
//! next turn, whichever worker runs it. The link store is `Release` and the consumer's load of
//! `next` is `Acquire`, so a message's contents are visible before it is popped.
//!
//! The loom models at the bottom of this file check push, pop and mark-idle, and the
//! idle-to-scheduled hand-off, under every interleaving (`RUSTFLAGS="--cfg loom"`).

use std::mem::MaybeUninit;
use std::ptr;

use crate::sync::{AtomicPtr, ConsumerCell, Ordering};

/// The low bit of `head`: set while the actor is idle (not scheduled, nothing to do).
const IDLE: usize = 1;

struct Node<T> {
    next: AtomicPtr<Node<T>>,
    /// Initialised for every node a producer pushes, until the consumer moves it out.
    /// Never initialised for the stub.
    value: MaybeUninit<T>,
}

/// A lock-free MPSC queue with an idle bit; see the module documentation.
pub(crate) struct Mailbox<T> {
    /// The newest node, tagged with [`IDLE`] while the actor is idle. Producers swap it.
    head: AtomicPtr<Node<T>>,
    /// The consumer's node, whose value is gone; `tail.next` is the next message.
    tail: ConsumerCell<*mut Node<T>>,
    /// The first tail. It lives inside the mailbox, so an actor that never received a
    /// message costs no allocation for its queue.
    stub: Node<T>,
}

// SAFETY: the mailbox moves `T` values between threads (so `T: Send` is required) and
// never hands out references to them; the consumer-only parts are only touched by the one
// consumer the scheduling protocol allows (see `pop`'s contract).
unsafe impl<T: Send> Send for Mailbox<T> {}
// SAFETY: as above: shared access is pushes (atomic) and the consumer's exclusive access.
unsafe impl<T: Send> Sync for Mailbox<T> {}

fn tagged<T>(p: *mut Node<T>) -> *mut Node<T> {
    p.map_addr(|a| a | IDLE)
}

fn untagged<T>(p: *mut Node<T>) -> *mut Node<T> {
    p.map_addr(|a| a & !IDLE)
}

fn is_tagged<T>(p: *mut Node<T>) -> bool {
    p.addr() & IDLE != 0
}

impl<T> Mailbox<T> {
    /// An unusable mailbox: call [`Mailbox::init`] once it is at its final address.
    pub(crate) fn new() -> Self {
        Mailbox {
            head: AtomicPtr::new(ptr::null_mut()),
            tail: ConsumerCell::new(ptr::null_mut()),
            stub: Node {
                next: AtomicPtr::new(ptr::null_mut()),
                value: MaybeUninit::uninit(),
            },
        }
    }

    fn stub_ptr(&self) -> *mut Node<T> {
        // Only `next`, an atomic, is ever accessed through this pointer.
        ptr::from_ref(&self.stub).cast_mut()
    }

    /// Points head and tail at the embedded stub. `idle` is the initial scheduling state.
    ///
    /// # Safety
    /// Call exactly once, after the mailbox has reached the address it keeps for life (it
    /// points into itself) and before any other method is called or the mailbox is shared.
    pub(crate) unsafe fn init(&self, idle: bool) {
        let stub = self.stub_ptr();
        // SAFETY: the caller guarantees nobody else can see the mailbox yet.
        self.tail.with_mut(|t| unsafe { *t = stub });
        let head = if idle { tagged(stub) } else { stub };
        self.head.store(head, Ordering::Release);
    }

    /// Enqueues `value`. Returns `true` if the actor was idle: the caller now holds the
    /// right, and the duty, to schedule it.
    pub(crate) fn push(&self, value: T) -> bool {
        let node = Box::into_raw(Box::new(Node {
            next: AtomicPtr::new(ptr::null_mut()),
            value: MaybeUninit::new(value),
        }));
        let prev = self.head.swap(node, Ordering::AcqRel);
        let was_idle = is_tagged(prev);
        // SAFETY: `prev` is live: the consumer frees a node only after moving `tail` past it,
        // which needs `prev.next`, and that is null until the store below.
        unsafe { (*untagged(prev)).next.store(node, Ordering::Release) };
        was_idle
    }

    /// Takes the oldest message, if one is fully linked.
    ///
    /// # Safety
    /// Only the single consumer may call this: the worker that currently runs the actor
    /// (the scheduling protocol guarantees there is at most one), or the owner of `&mut self`.
    pub(crate) unsafe fn pop(&self) -> Option<T> {
        // SAFETY: the caller is the only consumer, so nobody else touches `tail`.
        let tail = self.tail.with(|t| unsafe { *t });
        // SAFETY: `tail` is the stub or a node this consumer has not freed yet.
        let next = unsafe { (*tail).next.load(Ordering::Acquire) };
        if next.is_null() {
            return None;
        }
        // SAFETY: as above, `tail` is ours alone.
        self.tail.with_mut(|t| unsafe { *t = next });
        // SAFETY: `next` was pushed with an initialised value that nobody has moved out yet;
        // it becomes the new tail, whose value counts as gone from now on.
        let value = unsafe { (*next).value.assume_init_read() };
        if tail != self.stub_ptr() {
            // SAFETY: `tail` came from `Box::into_raw` in `push`, its value was moved out when
            // it was popped, and no producer can reach it any more (head moved past it).
            drop(unsafe { Box::from_raw(tail) });
        }
        Some(value)
    }

    /// Marks the actor idle if the mailbox is empty. Returns `false` if a push has begun
    /// since the last `pop` returned `None`: the actor must stay scheduled.
    ///
    /// # Safety
    /// Only the single consumer may call this, as for [`Mailbox::pop`].
    pub(crate) unsafe fn mark_idle(&self) -> bool {
        // SAFETY: consumer only.
        let tail = self.tail.with(|t| unsafe { *t });
        self.head
            .compare_exchange(tail, tagged(tail), Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// Whether the actor is idle right now (a snapshot, for tests and metrics).
    #[cfg(test)]
    pub(crate) fn is_idle(&self) -> bool {
        is_tagged(self.head.load(Ordering::Acquire))
    }
}

impl<T> Drop for Mailbox<T> {
    fn drop(&mut self) {
        // SAFETY: `&mut self` means no producer or consumer is active, so every push has
        // linked its node and we are the only consumer.
        let initialised = self.tail.with(|t| unsafe { !(*t).is_null() });
        if !initialised {
            return;
        }
        // SAFETY: as above.
        while unsafe { self.pop() }.is_some() {}
        // SAFETY: as above.
        let tail = self.tail.with(|t| unsafe { *t });
        if tail != self.stub_ptr() {
            // SAFETY: a heap node from `push` whose value was moved out by `pop`.
            drop(unsafe { Box::from_raw(tail) });
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn boxed(idle: bool) -> Box<Mailbox<u32>> {
        let m = Box::new(Mailbox::new());
        // SAFETY: the box gives the mailbox its final address; nobody else sees it yet.
        unsafe { m.init(idle) };
        m
    }

    #[test]
    fn fifo_and_idle_bit() {
        let m = boxed(true);
        assert!(m.is_idle());
        assert!(m.push(1), "first push finds the actor idle");
        assert!(!m.push(2), "second push finds it scheduled");
        // SAFETY: single-threaded test: we are the consumer.
        unsafe {
            assert_eq!(m.pop(), Some(1));
            assert!(!m.mark_idle(), "not empty yet");
            assert_eq!(m.pop(), Some(2));
            assert_eq!(m.pop(), None);
            assert!(m.mark_idle());
        }
        assert!(m.is_idle());
        assert!(m.push(3));
    }

    #[test]
    fn drop_frees_unconsumed_messages() {
        let counter = Arc::new(());
        let m = Box::new(Mailbox::new());
        // SAFETY: final address, not shared.
        unsafe { m.init(true) };
        for _ in 0..10 {
            m.push(Arc::clone(&counter));
        }
        // SAFETY: single-threaded consumer.
        drop(unsafe { m.pop() });
        drop(m);
        assert_eq!(Arc::strong_count(&counter), 1);
    }

    #[test]
    fn many_producers_one_consumer() {
        let m = Arc::new(Mailbox::new());
        // SAFETY: inside the Arc at its final address, not yet shared.
        unsafe { m.init(true) };
        let producers = 4;
        let per = 10_000u32;
        let handles: Vec<_> = (0..producers)
            .map(|p| {
                let m = Arc::clone(&m);
                std::thread::spawn(move || {
                    for i in 0..per {
                        m.push(p * per + i);
                    }
                })
            })
            .collect();
        let mut last = vec![None::<u32>; producers as usize];
        let mut got = 0;
        while got < producers * per {
            // SAFETY: this thread is the only consumer.
            if let Some(v) = unsafe { m.pop() } {
                let p = (v / per) as usize;
                assert!(last[p].is_none_or(|l| l < v), "per-producer FIFO");
                last[p] = Some(v);
                got += 1;
            }
        }
        for h in handles {
            h.join().unwrap();
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicBool, AtomicUsize};
    use loom::thread;

    fn shared(idle: bool) -> Arc<Mailbox<usize>> {
        let m = Arc::new(Mailbox::new());
        // SAFETY: final address inside the Arc, not shared yet.
        unsafe { m.init(idle) };
        m
    }

    /// Push, pop and mark-idle: a consumer that drains and marks idle races two producers.
    /// Every message is popped exactly once, in per-producer order, and if the consumer
    /// managed to mark the mailbox idle, some later push reported the idle actor.
    #[test]
    fn push_pop_mark_idle() {
        loom::model(|| {
            let m = shared(false);
            let producers: Vec<_> = (0..2)
                .map(|p| {
                    let m = Arc::clone(&m);
                    thread::spawn(move || {
                        let mut woke = 0;
                        for i in 0..2 {
                            if m.push(p * 10 + i) {
                                woke += 1;
                            }
                        }
                        woke
                    })
                })
                .collect();
            let mut seen = Vec::new();
            // One consumer turn: drain what is linked, then try to go idle.
            // SAFETY: this thread is the only consumer.
            while let Some(v) = unsafe { m.pop() } {
                seen.push(v);
            }
            // SAFETY: as above.
            let went_idle = unsafe { m.mark_idle() };
            let drained_before_idle = seen.len();
            let woke: usize = producers.into_iter().map(|h| h.join().unwrap()).sum();
            // After joining, everything is linked: drain the rest.
            // SAFETY: as above.
            while let Some(v) = unsafe { m.pop() } {
                seen.push(v);
            }
            assert!(woke <= 1, "at most one push can find the actor idle");
            if went_idle && drained_before_idle < 4 {
                assert_eq!(woke, 1, "messages after mark-idle must wake the actor");
            }
            let mut sorted = seen.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![0, 1, 10, 11]);
            for p in [0, 10] {
                let order: Vec<_> = seen.iter().filter(|v| **v / 10 * 10 == p).collect();
                assert!(order.windows(2).all(|w| w[0] < w[1]), "per-producer FIFO");
            }
        });
    }

    /// The idle-to-scheduled hand-off: whoever learns from its push that the actor was idle
    /// runs turns until it can mark the mailbox idle. At most one party runs the actor at a
    /// time, and no message is left behind an idle actor.
    #[test]
    fn idle_to_scheduled_hand_off() {
        loom::model(|| {
            let m = shared(true);
            let running = Arc::new(AtomicBool::new(false));
            let handled = Arc::new(AtomicUsize::new(0));

            fn run_until_idle(m: &Mailbox<usize>, running: &AtomicBool, handled: &AtomicUsize) {
                loop {
                    assert!(
                        !running.swap(true, Ordering::AcqRel),
                        "two parties ran the actor at once"
                    );
                    // SAFETY: the hand-off protocol makes this party the only consumer.
                    while unsafe { m.pop() }.is_some() {
                        handled.fetch_add(1, Ordering::Relaxed);
                    }
                    running.store(false, Ordering::Release);
                    // SAFETY: still the only consumer until mark_idle succeeds.
                    if unsafe { m.mark_idle() } {
                        return;
                    }
                    // A push is between its swap and its link. The runtime requeues the actor
                    // here; the model lets the producer run.
                    thread::yield_now();
                }
            }

            let threads: Vec<_> = (0..2)
                .map(|i| {
                    let (m, running, handled) =
                        (Arc::clone(&m), Arc::clone(&running), Arc::clone(&handled));
                    thread::spawn(move || {
                        if m.push(i) {
                            run_until_idle(&m, &running, &handled);
                        }
                    })
                })
                .collect();
            if m.push(2) {
                run_until_idle(&m, &running, &handled);
            }
            for t in threads {
                t.join().unwrap();
            }
            assert!(
                m.is_idle(),
                "every party that scheduled the actor left it idle"
            );
            assert_eq!(handled.load(Ordering::Relaxed), 3, "no message left behind");
        });
    }
}
