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
//!   forward and frees the old tail (a turn frees it once its handler has run:
//!   [`Mailbox::take`]). Nodes come from the thread's spares, if it keeps any, and go back
//!   to them ([`recycle`]).
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
//! * **Closing.** A stopping actor must not leave a message behind: a sender that pushed
//!   just as the actor stopped would otherwise wait for an answer forever. So the last
//!   consumer *closes* the mailbox ([`Mailbox::close`]): it drains it and, with the same
//!   compare-and-swap as mark-idle, sets both the idle bit and a second bit, `CLOSED`. A
//!   closed mailbox is idle for good: the one push that finds both bits set becomes its
//!   consumer, but instead of scheduling the actor it takes its own message back (it is the
//!   first one after the tail), drops whatever other pushes queued meanwhile, and closes the
//!   mailbox again ([`Mailbox::take_back`]). Pushes that find the bits clear behind it
//!   report success, and their messages are dropped as dead letters within that same
//!   call, never left waiting. A push therefore either reaches a consumer that runs the
//!   actor, or comes back to its sender, or is dropped right away; and the running path
//!   pays one more bit test, on the push that found the actor idle.
//!
//! * **Capacity.** A bounded mailbox counts its messages beside this list, in
//!   [`capacity`]; the list itself is the same for every actor.
//!
//! * **A turn's cursor.** A turn takes its messages through a [`Cursor`], which keeps the
//!   tail in a local and stores it once, when the turn ends: `tail` shares a cache line
//!   with `head`, and a store per message would take that line from the producers' core.
//!   Only the consumer reads `tail`, and it does so (mark-idle, close) after the store.
//!
//! The loom models at the bottom of this file check push, pop (through a turn's cursor)
//! and mark-idle, the idle-to-scheduled hand-off, and pushes racing a close, under every
//! interleaving (`RUSTFLAGS="--cfg loom"`).

pub(crate) mod capacity;
#[cfg(not(loom))]
pub(crate) mod recycle;

use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use crate::sync::{AtomicPtr, ConsumerCell, Ordering, backoff};

/// The low bit of `head`: set while the actor is idle (not scheduled, nothing to do).
const IDLE: usize = 1;
/// The next bit of `head`: set, always with [`IDLE`], once the mailbox is closed.
const CLOSED: usize = 2;

/// What a push found, and so what its caller must do. Its values are the tag bits of the
/// head the push replaced (`CLOSED` is only ever set with `IDLE`), so that telling them
/// apart is a test of those bits, not a computed enum tested again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub(crate) enum Push {
    /// The actor was already scheduled: nothing more to do.
    Queued = 0,
    /// The actor was idle: the caller now holds the right, and the duty, to schedule it.
    Woke = IDLE,
    /// The mailbox was closed: the caller is now its consumer and must call
    /// [`Mailbox::take_back`], which gives the message back.
    Closed = IDLE | CLOSED,
}

impl Push {
    /// What a push that replaced a head with address (and tags) `prev` found.
    #[inline(always)]
    fn of_tag(prev: usize) -> Push {
        if prev & CLOSED != 0 {
            // Closed only ever with idle.
            Push::Closed
        } else if prev & IDLE != 0 {
            Push::Woke
        } else {
            Push::Queued
        }
    }
}

/// A pushed message. `next` comes first (`repr(C)`), so that the stub, which is only
/// that field, can be reached through the same pointers ([`next_of`]).
#[repr(C)]
struct Node<T> {
    next: AtomicPtr<Node<T>>,
    /// Initialised for every node a producer pushes, until the consumer moves it out.
    value: MaybeUninit<T>,
}

/// The first tail: a node's `next` without its value, which a stub never has (so an
/// actor's mailbox is a word plus its two pointers, whatever its messages weigh).
#[repr(C)]
struct Stub<T> {
    next: AtomicPtr<Node<T>>,
}

/// The `next` of the node or stub at `p`.
///
/// # Safety
/// `p` must point to a live node or stub.
unsafe fn next_of<'a, T>(p: *mut Node<T>) -> &'a AtomicPtr<Node<T>> {
    // SAFETY: `next` is the first field of both `Node` and `Stub` (both `repr(C)`), so a
    // pointer to either is a pointer to it; the caller vouches that it is live.
    unsafe { &*p.cast::<AtomicPtr<Node<T>>>() }
}

/// A node the consumer's tail has moved past (its value was taken when it was popped, and
/// no producer reaches it any more), or null for the stub: freed when dropped.
pub(crate) struct Spent<T>(*mut Node<T>);

impl<T> Drop for Spent<T> {
    #[inline(always)]
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: `take` makes a `Spent` only of a node from `new_node` that the tail
            // has moved past: its value was moved out when it was popped, and no producer
            // can reach it any more (head moved past it). Nothing else frees it.
            unsafe { free_node(self.0) };
        }
    }
}

/// A lock-free MPSC queue with an idle bit; see the module documentation.
pub(crate) struct Mailbox<T> {
    /// The newest node, tagged with [`IDLE`] while the actor is idle. Producers swap it.
    head: AtomicPtr<Node<T>>,
    /// The consumer's node, whose value is gone; `tail.next` is the next message.
    tail: ConsumerCell<*mut Node<T>>,
    /// The first tail. It lives inside the mailbox, so an actor that never received a
    /// message costs no allocation for its queue.
    stub: Stub<T>,
}

// SAFETY: the mailbox moves `T` values between threads (so `T: Send` is required) and
// never hands out references to them; the consumer-only parts are only touched by the one
// consumer the scheduling protocol allows (see `pop`'s contract).
unsafe impl<T: Send> Send for Mailbox<T> {}
// SAFETY: as above: shared access is pushes (atomic) and the consumer's exclusive access.
unsafe impl<T: Send> Sync for Mailbox<T> {}

fn tagged<T>(p: *mut Node<T>, tag: usize) -> *mut Node<T> {
    p.map_addr(|a| a | tag)
}

fn untagged<T>(p: *mut Node<T>) -> *mut Node<T> {
    p.map_addr(|a| a & !(IDLE | CLOSED))
}

#[cfg(test)]
fn is_tagged<T>(p: *mut Node<T>) -> bool {
    p.addr() & IDLE != 0
}

/// A new node holding `value`, its `next` null: a spare node of the thread's if it keeps
/// one ([`recycle`]), else the allocator's.
#[inline(always)]
fn new_node<T>(value: T) -> *mut Node<T> {
    let node = Node {
        next: AtomicPtr::new(ptr::null_mut()),
        value: MaybeUninit::new(value),
    };
    #[cfg(not(loom))]
    {
        let p = recycle::alloc::<Node<T>>();
        // SAFETY: `alloc` returns memory for one `Node<T>`, unused by anybody else.
        unsafe { p.write(node) };
        p
    }
    #[cfg(loom)]
    Box::into_raw(Box::new(node))
}

/// Frees a node from [`new_node`] whose value has been moved out.
///
/// # Safety
/// `p` came from [`new_node`], its value is gone, and nobody reaches it any more.
#[inline(always)]
unsafe fn free_node<T>(p: *mut Node<T>) {
    #[cfg(not(loom))]
    // SAFETY: from `recycle::alloc` (through `new_node`); `next` needs no drop and the
    // value is gone, as the caller says.
    unsafe {
        recycle::free(p)
    };
    #[cfg(loom)]
    // SAFETY: from `Box::into_raw` in `new_node`; the value is `MaybeUninit`, not dropped.
    drop(unsafe { Box::from_raw(p) });
}

impl<T> Mailbox<T> {
    /// An unusable mailbox: call [`Mailbox::init`] once it is at its final address.
    pub(crate) fn new() -> Self {
        Mailbox {
            head: AtomicPtr::new(ptr::null_mut()),
            tail: ConsumerCell::new(ptr::null_mut()),
            stub: Stub {
                next: AtomicPtr::new(ptr::null_mut()),
            },
        }
    }

    fn stub_ptr(&self) -> *mut Node<T> {
        // Only `next`, an atomic, is ever accessed through this pointer ([`next_of`]).
        ptr::from_ref(&self.stub).cast::<Node<T>>().cast_mut()
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
        let head = if idle { tagged(stub, IDLE) } else { stub };
        self.head.store(head, Ordering::Release);
    }

    /// Enqueues `value`, and says what the push found: see [`Push`].
    #[inline(always)]
    pub(crate) fn push(&self, value: T) -> Push {
        let node = new_node(value);
        let prev = self.head.swap(node, Ordering::AcqRel);
        // SAFETY: `prev` is live: the consumer frees a node only after moving `tail` past it,
        // which needs `prev.next`, and that is null until the store below.
        unsafe { next_of(untagged(prev)).store(node, Ordering::Release) };
        Push::of_tag(prev.addr())
    }

    /// Takes the oldest message, if one is fully linked.
    ///
    /// # Safety
    /// Only the single consumer may call this: the worker that currently runs the actor
    /// (the scheduling protocol guarantees there is at most one), or the owner of `&mut self`.
    #[inline]
    pub(crate) unsafe fn pop(&self) -> Option<T> {
        // SAFETY: the caller's guarantee is `take`'s. The spent node goes right away.
        unsafe { self.take() }.map(|(value, _spent)| value)
    }

    /// Takes the oldest message, if one is fully linked, with the node the tail has just
    /// moved past, which is freed when that is dropped. A turn drops it after the handler:
    /// the message's bytes are read first and go straight to the handler, with no call in
    /// between that they would have to be kept across, and the freed node is there for
    /// the next turn's sends ([`recycle`]).
    ///
    /// # Safety
    /// As for [`Mailbox::pop`].
    #[inline(always)]
    pub(crate) unsafe fn take(&self) -> Option<(T, Spent<T>)> {
        // SAFETY: the caller is the only consumer, so nobody else touches `tail`.
        let tail = self.tail.with(|t| unsafe { *t });
        // SAFETY: `tail` is the stub or a node this consumer has not freed yet.
        let next = unsafe { next_of(tail).load(Ordering::Acquire) };
        if next.is_null() {
            return None;
        }
        // SAFETY: as above, `tail` is ours alone.
        self.tail.with_mut(|t| unsafe { *t = next });
        // SAFETY: `next` was pushed with an initialised value that nobody has moved out yet;
        // it becomes the new tail, whose value counts as gone from now on.
        let value = unsafe { (*next).value.assume_init_read() };
        // The stub is part of the mailbox, not a node to free.
        let spent = if tail == self.stub_ptr() {
            ptr::null_mut()
        } else {
            tail
        };
        Some((value, Spent(spent)))
    }

    /// The consumer's tail, to take from for a whole turn without writing `tail` after
    /// every message (see [`Cursor`]); stored back by [`Cursor::finish`].
    ///
    /// # Safety
    /// Only the single consumer may call this, as for [`Mailbox::pop`], and while the
    /// cursor lives it must use no other consumer method (`take`, `pop`, `is_empty`,
    /// `mark_idle`, `close`): `tail` is stale until the cursor is finished. A turn that
    /// panics must still finish it (the turn keeps it outside its `catch_unwind`), or the
    /// next pop would take the panicked message's node again.
    #[inline(always)]
    pub(crate) unsafe fn cursor(&self) -> Cursor<'_, T> {
        // SAFETY: the caller is the only consumer, so nobody else touches `tail`.
        let at = self.tail.with(|t| unsafe { *t });
        Cursor { mailbox: self, at }
    }

    /// Whether no message is linked after the tail: what the next [`Mailbox::pop`] would
    /// find, without taking it (a turn asks its [`Cursor`]; tests ask here). A push between its swap and its link looks empty too.
    ///
    /// # Safety
    /// Only the single consumer may call this, as for [`Mailbox::pop`].
    #[cfg(all(test, not(loom)))]
    pub(crate) unsafe fn is_empty(&self) -> bool {
        // SAFETY: the caller is the only consumer, so nobody else touches `tail`.
        let tail = self.tail.with(|t| unsafe { *t });
        // SAFETY: `tail` is the stub or a node this consumer has not freed yet.
        unsafe { next_of(tail) }.load(Ordering::Acquire).is_null()
    }

    /// Marks the actor idle if the mailbox is empty. Returns `false` if a push has begun
    /// since the last `pop` returned `None`: the actor must stay scheduled.
    ///
    /// # Safety
    /// Only the single consumer may call this, as for [`Mailbox::pop`].
    #[inline]
    pub(crate) unsafe fn mark_idle(&self) -> bool {
        // SAFETY: the caller is the only consumer.
        unsafe { self.mark(IDLE) }
    }

    /// Sets `tag` on `head` if nothing has been pushed since the tail.
    ///
    /// # Safety
    /// Only the single consumer may call this.
    unsafe fn mark(&self, tag: usize) -> bool {
        // SAFETY: consumer only.
        let tail = self.tail.with(|t| unsafe { *t });
        self.head
            .compare_exchange(tail, tagged(tail, tag), Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// Closes the mailbox for good: hands every queued message to `dead`, then marks the
    /// mailbox closed (see the module documentation). A push that is halfway through is
    /// waited for, so nothing is left behind. The caller gives up its consumer role.
    ///
    /// # Safety
    /// Only the single consumer may call this, as for [`Mailbox::pop`].
    pub(crate) unsafe fn close(&self, mut dead: impl FnMut(T)) {
        let mut step = 0;
        loop {
            // SAFETY: the caller is the only consumer.
            while let Some(value) = unsafe { self.pop() } {
                dead(value);
            }
            // SAFETY: as above.
            if unsafe { self.mark(IDLE | CLOSED) } {
                return;
            }
            // A push is between its swap and its link; its message comes next.
            backoff(&mut step);
        }
    }

    /// Takes back the message of a push that returned [`Push::Closed`], hands whatever
    /// other pushes queued behind it to `dead`, and closes the mailbox again.
    ///
    /// # Safety
    /// Only the caller whose push returned [`Push::Closed`] may call this, once, right
    /// after that push: the push made it the consumer.
    #[cold]
    pub(crate) unsafe fn take_back(&self, dead: impl FnMut(T)) -> T {
        // SAFETY: the push made the caller the consumer. The close it found succeeded when
        // head was the tail, so the caller's node, linked to that tail by its own push
        // before it returned, is the first one after it.
        let own = unsafe { self.pop() }.expect("a push that found the mailbox closed is next");
        // SAFETY: still the only consumer.
        unsafe { self.close(dead) };
        own
    }

    /// Whether the actor is idle right now (a snapshot, for tests and metrics).
    #[cfg(test)]
    pub(crate) fn is_idle(&self) -> bool {
        is_tagged(self.head.load(Ordering::Acquire))
    }

    /// Whether the mailbox is closed right now (a snapshot, for tests).
    #[cfg(test)]
    pub(crate) fn is_closed(&self) -> bool {
        self.head.load(Ordering::Acquire).addr() & CLOSED != 0
    }
}

/// The consumer's place in a [`Mailbox`] for the length of a turn ([`Mailbox::cursor`]).
///
/// The consumer owns `tail`, but `tail` sits on the cache line of `head`, which every
/// producer swaps. A pop that writes `tail` takes that line back from the producers' core,
/// so a message sent across cores moved it twice. The cursor keeps the tail in a local
/// and writes it once, when it is finished (after the turn, also after a caught panic), before
/// the consumer's `mark_idle` or `close` reads it. Producers never read `tail`, so the
/// protocol is unchanged: only the consumer's own later reads need the store, and the
/// finish comes before them. It is finished by a call, not a `Drop`: a drop inside the
/// turn's loop adds an unwind path there, which cost chameneos 2% (see
/// `docs/experiments/2026-11-27-tail-cursor.md`).
pub(crate) struct Cursor<'a, T> {
    mailbox: &'a Mailbox<T>,
    /// The tail as it stands: the stub or a node whose value is gone.
    at: *mut Node<T>,
}

/// A message a [`Cursor`] has just moved past, still in its node, with the node the
/// cursor left ([`Cursor::take_node`]).
pub(crate) struct Taken<T> {
    /// The new tail, whose value is this message's.
    node: NonNull<Node<T>>,
    spent: Spent<T>,
}

impl<T> Taken<T> {
    /// The message, and the node the cursor left (freed when that is dropped).
    #[inline(always)]
    pub(crate) fn into_parts(self) -> (T, Spent<T>) {
        // SAFETY: as in `Mailbox::take`: the node holds a value nobody has moved out yet
        // (`take_node` made this `Taken` of it as the cursor moved onto it, and `self` is
        // consumed here), and as the new tail its value counts as gone from now on.
        let value = unsafe { (*self.node.as_ptr()).value.assume_init_read() };
        (value, self.spent)
    }
}

impl<T> Taken<T> {
    /// The message where it lies in its node, and the node the cursor left (freed when
    /// that is dropped): so that the caller reads only what it needs of the message. The
    /// value counts as gone from now on, as for [`Taken::into_parts`]: the caller moves
    /// out of it at most once, before the cursor moves on (the node is the new tail,
    /// freed only once the cursor has moved past it).
    #[inline(always)]
    pub(crate) fn in_place(self) -> (NonNull<T>, Spent<T>) {
        // SAFETY: `node` is a live node of this mailbox (see `take_node`): the place of
        // its value is in bounds. A `MaybeUninit<T>` has the layout of a `T`.
        let value = unsafe { &raw mut (*self.node.as_ptr()).value }.cast::<T>();
        // SAFETY: a field of a non-null node is not null.
        (unsafe { NonNull::new_unchecked(value) }, self.spent)
    }
}

impl<T> Cursor<'_, T> {
    /// As [`Mailbox::take`], from the cursor.
    #[inline(always)]
    pub(crate) fn take(&mut self) -> Option<(T, Spent<T>)> {
        self.take_node().map(Taken::into_parts)
    }

    /// As [`Cursor::take`], with the message still in its node. Whether there is one is
    /// then the node's null test alone: an `Option<(T, Spent<T>)>` may keep its `None` in
    /// a spare value of `T`'s own tag, which the caller then tests again, after the
    /// message is read (an envelope's tag, on every message of a turn).
    #[inline(always)]
    pub(crate) fn take_node(&mut self) -> Option<Taken<T>> {
        let tail = self.at;
        // SAFETY: `tail` is the stub or a node this consumer has not freed yet (a node is
        // freed only through the `Spent` made of it once the cursor moved past it).
        let next = NonNull::new(unsafe { next_of(tail).load(Ordering::Acquire) })?;
        self.at = next.as_ptr();
        let spent = if tail == self.mailbox.stub_ptr() {
            ptr::null_mut()
        } else {
            tail
        };
        Some(Taken {
            node: next,
            spent: Spent(spent),
        })
    }

    /// As [`Mailbox::pop`], from the cursor.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        self.take().map(|(value, _spent)| value)
    }

    /// Whether no message follows the cursor (what the mailbox's own `is_empty`, kept for
    /// tests, says from its tail).
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        // SAFETY: `at` is the stub or a node this consumer has not freed yet.
        unsafe { next_of(self.at) }
            .load(Ordering::Acquire)
            .is_null()
    }
}

impl<T> Cursor<'_, T> {
    /// Stores the tail back. Call it before any other consumer method (also after a
    /// panic caught while the cursor was in use): until then `tail` is stale.
    #[inline(always)]
    pub(crate) fn finish(self) {
        let at = self.at;
        // SAFETY: the cursor's holder is the only consumer (see `Mailbox::cursor`).
        self.mailbox.tail.with_mut(|t| unsafe { *t = at });
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
            unsafe { free_node(tail) };
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
        assert_eq!(m.push(1), Push::Woke, "first push finds the actor idle");
        assert_eq!(m.push(2), Push::Queued, "second push finds it scheduled");
        // SAFETY: single-threaded test: we are the consumer.
        unsafe {
            assert!(!m.is_empty());
            assert_eq!(m.pop(), Some(1));
            assert!(!m.mark_idle(), "not empty yet");
            assert!(!m.is_empty(), "a peek does not take");
            assert_eq!(m.pop(), Some(2));
            assert!(m.is_empty());
            assert_eq!(m.pop(), None);
            assert!(m.mark_idle());
        }
        assert!(m.is_idle());
        assert_eq!(m.push(3), Push::Woke);
    }

    #[test]
    fn a_push_to_a_closed_mailbox_gets_its_message_back() {
        let m = boxed(false);
        m.push(1);
        m.push(2);
        let mut dead = Vec::new();
        // SAFETY: single-threaded test: we are the consumer, and give that role up here.
        unsafe { m.close(|v| dead.push(v)) };
        assert_eq!(dead, vec![1, 2], "closing drains what was queued");
        assert!(m.is_idle() && m.is_closed());
        assert_eq!(m.push(3), Push::Closed);
        // SAFETY: the push above returned `Closed`: this thread is the consumer again.
        let own = unsafe { m.take_back(|v| dead.push(v)) };
        assert_eq!(own, 3, "the sender gets its own message back");
        assert!(m.is_closed(), "and the mailbox is closed again");
        assert_eq!(m.push(4), Push::Closed);
        // SAFETY: as above.
        assert_eq!(unsafe { m.take_back(|v| dead.push(v)) }, 4);
        assert_eq!(dead, vec![1, 2]);
    }

    #[test]
    fn a_cursor_stores_the_tail_when_finished() {
        let m = boxed(false);
        for v in 1..=3 {
            m.push(v);
        }
        // SAFETY: single-threaded test: we are the consumer, and use only the cursor
        // while it lives.
        let mut cursor = unsafe { m.cursor() };
        assert_eq!(cursor.pop(), Some(1));
        assert!(!cursor.is_empty());
        assert_eq!(cursor.take().map(|(v, _spent)| v), Some(2));
        cursor.finish();
        // SAFETY: as above; the cursor is finished.
        unsafe {
            assert!(!m.mark_idle(), "one message is left");
            assert_eq!(
                m.pop(),
                Some(3),
                "the mailbox goes on where the cursor stopped"
            );
            assert!(m.is_empty());
            assert!(m.mark_idle(), "empty once the cursor's tail is stored");
        }
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
                            if m.push(p * 10 + i) == Push::Woke {
                                woke += 1;
                            }
                        }
                        woke
                    })
                })
                .collect();
            let mut seen = Vec::new();
            // One consumer turn, as the turn's loop takes it: through a cursor, which
            // stores the tail only when finished; peek, and take what the peek saw, freeing
            // the spent node only after the next peek; then finish the cursor and try to go
            // idle. A peek that sees a message guarantees the pop.
            // SAFETY: this thread is the only consumer, and uses only the cursor until it
            // is finished.
            let mut cursor = unsafe { m.cursor() };
            while !cursor.is_empty() {
                let (v, spent) = cursor.take().expect("a message the peek saw is there");
                seen.push(v);
                let _ = cursor.is_empty();
                drop(spent);
            }
            cursor.finish();
            // SAFETY: as above; the cursor has stored the tail.
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
                    // A turn, through a cursor as the runtime's turn takes it.
                    // SAFETY: the hand-off protocol makes this party the only consumer.
                    let mut cursor = unsafe { m.cursor() };
                    while cursor.pop().is_some() {
                        handled.fetch_add(1, Ordering::Relaxed);
                    }
                    cursor.finish();
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
                        if m.push(i) == Push::Woke {
                            run_until_idle(&m, &running, &handled);
                        }
                    })
                })
                .collect();
            if m.push(2) == Push::Woke {
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

    /// A stop racing two senders: the consumer drains and closes the mailbox while two
    /// producers push. Whatever the interleaving, every message is either handled by the
    /// consumer before the close, or given back to its own sender, or dropped as a dead
    /// letter by the push that found the mailbox closed (never left behind in a mailbox
    /// nobody consumes), exactly once; and the closed mailbox ends empty and closed.
    /// Without the close (a stop that only drains, as before issue 13), loom finds the
    /// schedule where a message pushed after the drain stays in the mailbox for good.
    #[test]
    fn pushes_racing_a_close_are_never_left_behind() {
        loom::model(|| {
            let m = shared(false);
            let dead = Arc::new(AtomicUsize::new(0));
            let producers: Vec<_> = (0..2)
                .map(|p| {
                    let (m, dead) = (Arc::clone(&m), Arc::clone(&dead));
                    thread::spawn(move || match m.push(p) {
                        Push::Queued | Push::Woke => None,
                        Push::Closed => {
                            // SAFETY: this push found the mailbox closed: we are its consumer.
                            let own = unsafe {
                                m.take_back(|_| {
                                    dead.fetch_add(1, Ordering::Relaxed);
                                })
                            };
                            assert_eq!(own, p, "the first push after a close is next");
                            Some(own)
                        }
                    })
                })
                .collect();
            // The consumer's last turn (through a cursor, as the runtime's turn takes it):
            // handle what is there, then stop and close.
            let mut handled = 0;
            // SAFETY: this thread is the consumer until it closes the mailbox, and uses only
            // the cursor until it is finished.
            let mut cursor = unsafe { m.cursor() };
            while cursor.pop().is_some() {
                handled += 1;
            }
            cursor.finish();
            // SAFETY: as above; closing gives the consumer role up.
            unsafe {
                m.close(|_| {
                    dead.fetch_add(1, Ordering::Relaxed);
                })
            };
            let returned = producers
                .into_iter()
                .filter_map(|h| h.join().unwrap())
                .count();
            assert_eq!(
                handled + returned + dead.load(Ordering::Relaxed),
                2,
                "every message handled, returned or dropped, once"
            );
            assert!(m.is_closed(), "the mailbox ends closed");
            // Nobody consumes a closed mailbox: nothing may be left in it.
            // SAFETY: every other thread has ended; this is the only access.
            assert!(unsafe { m.pop() }.is_none(), "a message was left behind");
        });
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use shuttle::sync::atomic::AtomicUsize;
    use shuttle::thread;
    use std::sync::Arc;

    /// Three producers of three messages each race a consumer that takes a few, then
    /// stops and closes: every message is handled, dropped by the close, or given back to
    /// its producer, exactly once (bigger than the loom model can explore).
    #[test]
    fn pushes_racing_a_close_end_exactly_once() {
        crate::sync::explore("pushes_racing_a_close_end_exactly_once", || {
            let m = Arc::new(Mailbox::new());
            // SAFETY: final address inside the Arc, not shared yet.
            unsafe { m.init(false) };
            let dead = Arc::new(AtomicUsize::new(0));
            let producers: Vec<_> = (0..3)
                .map(|p| {
                    let (m, dead) = (Arc::clone(&m), Arc::clone(&dead));
                    thread::spawn(move || {
                        let mut back = 0;
                        for i in 0..3 {
                            if m.push(p * 10 + i) == Push::Closed {
                                // SAFETY: this push found the mailbox closed: we are its
                                // consumer for the take-back.
                                let _own = unsafe {
                                    m.take_back(|_| {
                                        dead.fetch_add(1, Ordering::Relaxed);
                                    })
                                };
                                back += 1;
                            }
                        }
                        back
                    })
                })
                .collect();
            let mut handled = 0;
            // SAFETY: this thread is the consumer until it closes the mailbox.
            for _ in 0..4 {
                if unsafe { m.pop() }.is_some() {
                    handled += 1;
                }
            }
            // SAFETY: as above; closing gives the consumer role up.
            unsafe {
                m.close(|_| {
                    dead.fetch_add(1, Ordering::Relaxed);
                })
            };
            let back: usize = producers.into_iter().map(|h| h.join().unwrap()).sum();
            let dead = dead.load(Ordering::Relaxed);
            assert_eq!(handled + dead + back, 9, "every message ends exactly once");
        });
    }
}
