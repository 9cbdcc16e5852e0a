//! The atomics the lock-free parts are built from, swapped for loom's under `--cfg loom`.
//!
//! The model-checked protocols import from here: the mailbox ([`crate::mailbox`]: push,
//! pop, mark-idle and close), a bounded mailbox's capacity accounting and its waiting
//! senders (the mailbox's `capacity` module), the address count and generation of garbage
//! collection (the cell's `addresses` module), the home word's stop-versus-move
//! protocol (the scheduler's `home` module), and the parked and searching workers' counts
//! that decide whether a waker wakes anybody (the scheduler's `park` module). Under loom every
//! atomic access and every access to the consumer-owned cell becomes a point where loom can
//! interleave threads, which is what lets `RUSTFLAGS="--cfg loom" cargo test` explore every
//! schedule of a push racing a pop and a mark-idle.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence,
};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence,
};

/// A mutex: parking_lot's, or loom's under `--cfg loom` (whose lock cannot be poisoned
/// either, since a model that panics ends).
pub(crate) struct Mutex<T>(
    #[cfg(loom)] loom::sync::Mutex<T>,
    #[cfg(not(loom))] parking_lot::Mutex<T>,
);

impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Self {
        #[cfg(loom)]
        return Self(loom::sync::Mutex::new(value));
        #[cfg(not(loom))]
        Self(parking_lot::Mutex::new(value))
    }

    /// Locks the mutex until the guard is dropped.
    pub(crate) fn lock(&self) -> impl std::ops::DerefMut<Target = T> + '_ {
        #[cfg(loom)]
        return self
            .0
            .lock()
            .expect("a loom model stops at its first panic");
        #[cfg(not(loom))]
        self.0.lock()
    }
}

/// Waits a little for another thread to finish a step it has begun (a push between its
/// swap and its link): spins at first, then yields the processor, in case that thread
/// was preempted. `step` counts the calls of one wait, starting at 0.
pub(crate) fn backoff(step: &mut u32) {
    #[cfg(loom)]
    {
        let _ = step;
        loom::thread::yield_now();
    }
    #[cfg(not(loom))]
    {
        if *step < 6 {
            for _ in 0..(1u32 << *step) {
                std::hint::spin_loop();
            }
        } else {
            std::thread::yield_now();
        }
        *step += 1;
    }
}

/// A cell whose contents only one thread (the mailbox's consumer) touches at a time.
///
/// It exposes raw pointers through closures, the shape loom's `UnsafeCell` needs for its
/// access tracking; the std version compiles down to a plain pointer.
#[derive(Debug)]
pub(crate) struct ConsumerCell<T>(
    #[cfg(loom)] loom::cell::UnsafeCell<T>,
    #[cfg(not(loom))] std::cell::UnsafeCell<T>,
);

impl<T> ConsumerCell<T> {
    pub(crate) fn new(value: T) -> Self {
        #[cfg(loom)]
        return Self(loom::cell::UnsafeCell::new(value));
        #[cfg(not(loom))]
        Self(std::cell::UnsafeCell::new(value))
    }

    /// Reads through a shared pointer to the contents.
    pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        #[cfg(loom)]
        return self.0.with(f);
        #[cfg(not(loom))]
        f(self.0.get())
    }

    /// Writes through a unique pointer to the contents.
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        #[cfg(loom)]
        return self.0.with_mut(f);
        #[cfg(not(loom))]
        f(self.0.get())
    }
}
