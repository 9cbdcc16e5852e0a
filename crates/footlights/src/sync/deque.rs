//! The scheduler's work-stealing queues: crossbeam-deque's, or, under `--cfg shuttle`, a
//! stand-in with the same interface that the checker can see.
//!
//! crossbeam's deques synchronise through their own atomics and epoch-based memory
//! reclamation, which shuttle does not control: a schedule through them would not replay
//! from its seed. The stand-in keeps each queue in a `VecDeque` under one of shuttle's
//! mutexes, so every push, pop and steal is a point where shuttle chooses the next thread.
//! It keeps what the scheduler relies on:
//!
//! * a [`Worker`] is its owner's (`Send`, not `Sync`): it pushes at the back and pops at
//!   the front (FIFO) or the back (LIFO), as it was made;
//! * a [`Stealer`] (any number, any thread) takes from the front, the oldest task;
//! * an [`Injector`] is a FIFO queue anybody pushes to and steals from;
//! * `steal_batch_and_pop` moves about half of the source (at most 32, as crossbeam does)
//!   into the thief's worker, in the order the source held them, and hands over the first;
//! * a steal may answer [`Steal::Retry`]: the stand-in does when another thread holds the
//!   queue's lock at that moment (where crossbeam would when it loses a race), so the
//!   scheduler's retry paths run under the checker too.
//!
//! Outside the shuttle build these are crossbeam's own types, re-exported. The scheduler's
//! files import this module under crossbeam's name (`use crate::sync::deque::{self as
//! crossbeam_deque, ..}`), so that their paths `crossbeam_deque::Worker` name whichever
//! the build chose.

#[cfg(not(shuttle))]
pub(crate) use crossbeam_deque::{Injector, Steal, Stealer, Worker};

#[cfg(shuttle)]
pub(crate) use stand_in::{Injector, Steal, Stealer, Worker};

#[cfg(shuttle)]
mod stand_in {
    use std::collections::VecDeque;
    use std::marker::PhantomData;
    use std::sync::Arc;

    use shuttle::sync::{Mutex, MutexGuard, TryLockError};

    /// At most this many tasks move in one batch (crossbeam's limit).
    const MAX_BATCH: usize = 32;

    /// A steal's outcome, as crossbeam's.
    #[derive(Debug, PartialEq, Eq)]
    pub(crate) enum Steal<T> {
        Empty,
        Success(T),
        Retry,
    }

    type Queue<T> = Arc<Mutex<VecDeque<T>>>;

    /// Locks `queue` for a thief: `None` (a retry) if another thread holds it.
    fn try_lock<T>(queue: &Mutex<VecDeque<T>>) -> Option<MutexGuard<'_, VecDeque<T>>> {
        match queue.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::WouldBlock) => None,
            Err(TryLockError::Poisoned(_)) => panic!("a model stops at its first panic"),
        }
    }

    fn lock<T>(queue: &Mutex<VecDeque<T>>) -> MutexGuard<'_, VecDeque<T>> {
        queue.lock().expect("a model stops at its first panic")
    }

    /// Moves a batch from `from` (locked) into `into`, and gives the first task.
    fn batch_and_pop<T>(from: &mut VecDeque<T>, into: &Worker<T>) -> Steal<T> {
        let Some(first) = from.pop_front() else {
            return Steal::Empty;
        };
        let more = from.len().div_ceil(2).min(MAX_BATCH - 1);
        let moved: Vec<T> = from.drain(..more).collect();
        let mut own = lock(&into.queue);
        if into.lifo {
            // Popped from the back: the oldest goes last.
            for task in moved.into_iter().rev() {
                own.push_back(task);
            }
        } else {
            own.extend(moved);
        }
        Steal::Success(first)
    }

    /// The owner's end of a deque.
    pub(crate) struct Worker<T> {
        queue: Queue<T>,
        lifo: bool,
        /// Not `Sync`, like crossbeam's: only the owner pushes and pops.
        _owned: PhantomData<std::cell::Cell<()>>,
    }

    impl<T> Worker<T> {
        fn new(lifo: bool) -> Self {
            Worker {
                queue: Arc::new(Mutex::new(VecDeque::new())),
                lifo,
                _owned: PhantomData,
            }
        }

        pub(crate) fn new_fifo() -> Self {
            Worker::new(false)
        }

        pub(crate) fn new_lifo() -> Self {
            Worker::new(true)
        }

        pub(crate) fn stealer(&self) -> Stealer<T> {
            Stealer {
                queue: Arc::clone(&self.queue),
            }
        }

        pub(crate) fn push(&self, task: T) {
            lock(&self.queue).push_back(task);
        }

        pub(crate) fn pop(&self) -> Option<T> {
            let mut queue = lock(&self.queue);
            if self.lifo {
                queue.pop_back()
            } else {
                queue.pop_front()
            }
        }

        pub(crate) fn is_empty(&self) -> bool {
            lock(&self.queue).is_empty()
        }

        pub(crate) fn len(&self) -> usize {
            lock(&self.queue).len()
        }
    }

    /// A thief's end of a deque.
    pub(crate) struct Stealer<T> {
        queue: Queue<T>,
    }

    impl<T> Clone for Stealer<T> {
        fn clone(&self) -> Self {
            Stealer {
                queue: Arc::clone(&self.queue),
            }
        }
    }

    impl<T> Stealer<T> {
        pub(crate) fn steal(&self) -> Steal<T> {
            match try_lock(&self.queue) {
                None => Steal::Retry,
                Some(mut queue) => queue.pop_front().map_or(Steal::Empty, Steal::Success),
            }
        }

        pub(crate) fn steal_batch_and_pop(&self, into: &Worker<T>) -> Steal<T> {
            if Arc::ptr_eq(&self.queue, &into.queue) {
                // Stealing into one's own deque would take its lock twice (the scheduler
                // never does): nothing moves.
                return Steal::Retry;
            }
            match try_lock(&self.queue) {
                None => Steal::Retry,
                Some(mut queue) => batch_and_pop(&mut queue, into),
            }
        }

        pub(crate) fn is_empty(&self) -> bool {
            lock(&self.queue).is_empty()
        }

        pub(crate) fn len(&self) -> usize {
            lock(&self.queue).len()
        }
    }

    /// A queue shared by everybody.
    pub(crate) struct Injector<T> {
        queue: Mutex<VecDeque<T>>,
    }

    impl<T> Default for Injector<T> {
        fn default() -> Self {
            Injector::new()
        }
    }

    impl<T> Injector<T> {
        pub(crate) fn new() -> Self {
            Injector {
                queue: Mutex::new(VecDeque::new()),
            }
        }

        pub(crate) fn push(&self, task: T) {
            lock(&self.queue).push_back(task);
        }

        pub(crate) fn steal(&self) -> Steal<T> {
            match try_lock(&self.queue) {
                None => Steal::Retry,
                Some(mut queue) => queue.pop_front().map_or(Steal::Empty, Steal::Success),
            }
        }

        pub(crate) fn steal_batch_and_pop(&self, into: &Worker<T>) -> Steal<T> {
            match try_lock(&self.queue) {
                None => Steal::Retry,
                Some(mut queue) => batch_and_pop(&mut queue, into),
            }
        }

        pub(crate) fn is_empty(&self) -> bool {
            lock(&self.queue).is_empty()
        }
    }
}
