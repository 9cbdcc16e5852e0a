//! What an actor keeps only once it uses a feature that needs it.
//!
//! Most actors have an unbounded mailbox, never wait on a full one, run no future and
//! are neither watched nor supervised, so the state those features need lives in one box
//! behind one pointer of the cell, null for every other actor: such an actor pays one
//! word for all of them. (Sends and turns learn that an actor's mailbox is bounded from a
//! bit of its lifecycle word, which they read anyway, not from this pointer.)
//!
//! * The box is made at spawn for an actor with a bounded mailbox (it holds the mailbox's
//!   [`Capacity`], which senders read), and otherwise the first time something needs it:
//!   the actor's consumer (muting, futures) or any thread that ties to the actor (a
//!   monitor, a link, a restart: [`super::ties`]). Whoever makes it publishes it with a
//!   compare-and-swap from null, and drops its own box if another got there first. The
//!   pointer changes once at most, and the box lives as long as the cell, so whoever
//!   loaded a non-null pointer may use the box through it.
//! * The ties ([`Ties`]) are behind their own lock, for any thread. Their pointer is read
//!   and set sequentially consistently (the ties module says why).
//! * The rest ([`Own`]) is the consumer's alone, like the actor's state: only the worker
//!   running or ending the actor's turn touches it, never across a call into a hook, so
//!   no two references to it exist at once.

use std::any::Any;
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::Arc;

use super::ties::Ties;
use super::{ActorCell, Behaviour};
use crate::mailbox::capacity::Capacity;
use crate::sync::{AtomicPtr, Ordering};

/// An actor's occasional state, for an actor whose messages are `M` and whose state is
/// `S`; see the module documentation.
pub(crate) struct Extras<M, S> {
    /// A bounded mailbox's count; set at spawn, read by senders.
    capacity: Option<Arc<Capacity>>,
    /// The consumer's part.
    own: UnsafeCell<Own>,
    /// Its monitors, links and restart.
    ties: Ties<M, S>,
}

impl<M, S> Extras<M, S> {
    fn boxed(capacity: Option<Arc<Capacity>>) -> *mut Extras<M, S> {
        Box::into_raw(Box::new(Extras {
            capacity,
            own: UnsafeCell::new(Own::default()),
            ties: Ties::new(),
        }))
    }
}

/// The part of an actor's occasional state only its consumer touches.
#[derive(Default)]
pub(crate) struct Own {
    /// The full mailbox a yielding send of this turn found first ([`super::mute`]).
    pub(crate) muted_on: Option<Arc<Capacity>>,
    /// The actor's futures ([`super::polling`]), kept by the actor layer, which alone
    /// knows their type; dropped when the actor stops.
    pub(crate) futures: Option<Box<dyn Any + Send>>,
}

/// The cell's pointer to its [`Extras`]: null until needed.
pub(crate) struct ExtrasPtr<M, S>(AtomicPtr<Extras<M, S>>);

impl<M, S> ExtrasPtr<M, S> {
    /// The pointer for a new cell: a box with a capacity of `limit` messages if the
    /// mailbox is bounded, else null.
    #[inline]
    pub(crate) fn new(limit: Option<usize>) -> ExtrasPtr<M, S> {
        let extras = match limit {
            None => ptr::null_mut(),
            Some(limit) => Extras::boxed(Some(Arc::new(Capacity::new(limit)))),
        };
        ExtrasPtr(AtomicPtr::new(extras))
    }

    /// The box, if there is one, loaded with `order`.
    #[inline]
    pub(super) fn get(&self, order: Ordering) -> Option<&Extras<M, S>> {
        // SAFETY: a non-null pointer is a box that lives as long as `self` (see the module
        // documentation); its `own` part is the consumer's, its ties behind a lock.
        unsafe { self.0.load(order).as_ref() }
    }

    /// The box, made now if there is none.
    #[cold]
    #[inline(never)]
    fn make(&self) -> &Extras<M, S> {
        let fresh = Extras::boxed(None);
        let made = match self.0.compare_exchange(
            ptr::null_mut(),
            fresh,
            Ordering::SeqCst,
            Ordering::SeqCst,
        ) {
            Ok(_) => fresh,
            Err(theirs) => {
                // SAFETY: ours was never shared.
                drop(unsafe { Box::from_raw(fresh) });
                theirs
            }
        };
        // SAFETY: published (by us or another), it lives as long as `self`.
        unsafe { &*made }
    }

    /// The box, made the first time; sequentially consistent (see the module
    /// documentation).
    fn get_or_make(&self) -> &Extras<M, S> {
        match self.get(Ordering::SeqCst) {
            Some(extras) => extras,
            None => self.make(),
        }
    }
}

impl<M, S> Extras<M, S> {
    /// The actor's ties.
    fn ties(&self) -> &Ties<M, S> {
        &self.ties
    }
}

impl<M, S> Drop for ExtrasPtr<M, S> {
    fn drop(&mut self) {
        // A plain load (`&mut self`: nobody else holds the cell); loom's pointers have no
        // `get_mut`.
        let extras = self.0.load(Ordering::Relaxed);
        if !extras.is_null() {
            // SAFETY: made by `Box::into_raw` (here or in `own`), and nobody else holds the
            // cell any more.
            drop(unsafe { Box::from_raw(extras) });
        }
    }
}

impl<B: Behaviour> ActorCell<B> {
    /// The actor's ties, if it has any (if its box of occasional state was made).
    #[inline]
    pub(crate) fn ties_if_any(&self) -> Option<&Ties<B::Msg, B>> {
        // SeqCst: the ties module says why (`super::ties`).
        self.extras.get(Ordering::SeqCst).map(Extras::ties)
    }

    /// The actor's ties, made the first time (with the box of occasional state they live
    /// in).
    pub(crate) fn ties(&self) -> &Ties<B::Msg, B> {
        self.extras.get_or_make().ties()
    }

    /// The bounded mailbox's capacity, if the actor was spawned with one.
    #[inline]
    pub(crate) fn capacity(&self) -> Option<&Capacity> {
        self.extras
            .get(Ordering::Acquire)
            .and_then(|e| e.capacity.as_deref())
    }

    /// The bounded mailbox's capacity, shared, if the actor was spawned with one.
    pub(crate) fn capacity_shared(&self) -> Option<Arc<Capacity>> {
        self.extras
            .get(Ordering::Acquire)
            .and_then(|e| e.capacity.clone())
    }

    /// The consumer's part of the actor's occasional state, made the first time.
    ///
    /// # Safety
    /// Only the actor's consumer may call this, and no other reference returned by it or
    /// by [`ActorCell::own_extras_if_any`] may be alive.
    #[allow(clippy::mut_from_ref)] // the consumer's exclusive access, as for the state
    pub(crate) unsafe fn own_extras(&self) -> &mut Own {
        let extras = self.extras.get_or_make();
        // SAFETY: the caller is the consumer and holds no other reference into `own`.
        unsafe { &mut *extras.own.get() }
    }

    /// The consumer's part of the actor's occasional state, if it has any.
    ///
    /// # Safety
    /// As for [`ActorCell::own_extras`].
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn own_extras_if_any(&self) -> Option<&mut Own> {
        // SAFETY: as above.
        self.extras
            .get(Ordering::Acquire)
            .map(|e| unsafe { &mut *e.own.get() })
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use loom::sync::Arc;
    use loom::thread;

    /// Two threads need an actor's box at once (two watchers of an actor that had none):
    /// one compare-and-swap publishes a box, and both get that one, through which each
    /// registers in the same ties; the loser's own box is freed.
    #[test]
    fn two_threads_making_the_box_get_the_same_one() {
        loom::model(|| {
            let extras = Arc::new(ExtrasPtr::<(), ()>::new(None));
            let other = {
                let extras = Arc::clone(&extras);
                thread::spawn(move || ptr::from_ref(extras.get_or_make()) as usize)
            };
            let mine = ptr::from_ref(extras.get_or_make()) as usize;
            let theirs = other.join().unwrap();
            assert_eq!(mine, theirs, "two boxes were published");
            let now = extras
                .get(Ordering::SeqCst)
                .map(|e| ptr::from_ref(e) as usize);
            assert_eq!(
                now,
                Some(mine),
                "the pointer changed after it was published"
            );
        });
    }
}
