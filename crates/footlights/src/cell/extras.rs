//! What an actor keeps only once it uses a feature that needs it.
//!
//! Most actors have an unbounded mailbox, never wait on a full one and run no future, so
//! the state those features need lives in one box behind one pointer of the cell, null
//! for every other actor: such an actor pays one word for all of them. (Sends and turns learn that an
//! actor's mailbox is bounded from a bit of its lifecycle word, which they read anyway,
//! not from this pointer.)
//!
//! * The box is made at spawn for an actor with a bounded mailbox (it holds the mailbox's
//!   [`Capacity`], which senders read), and otherwise by the actor's consumer the first
//!   time it needs it, which publishes it with a release store. The pointer changes once
//!   at most, from null, and the box lives as long as the cell, so a sender that loaded
//!   a non-null pointer may read the capacity through it.
//! * The rest ([`Own`]) is the consumer's alone, like the actor's state: only the worker
//!   running or ending the actor's turn touches it, never across a call into a hook, so
//!   no two references to it exist at once.

use std::any::Any;
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::{ActorCell, Behaviour};
use crate::mailbox::capacity::Capacity;

/// An actor's occasional state; see the module documentation.
pub(crate) struct Extras {
    /// A bounded mailbox's count; set at spawn, read by senders.
    capacity: Option<Arc<Capacity>>,
    /// The consumer's part.
    own: UnsafeCell<Own>,
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
pub(crate) struct ExtrasPtr(AtomicPtr<Extras>);

impl ExtrasPtr {
    /// The pointer for a new cell: a box with a capacity of `limit` messages if the
    /// mailbox is bounded, else null.
    pub(crate) fn new(limit: Option<usize>) -> ExtrasPtr {
        let extras = limit.map_or(ptr::null_mut(), |limit| {
            Box::into_raw(Box::new(Extras {
                capacity: Some(Arc::new(Capacity::new(limit))),
                own: UnsafeCell::new(Own::default()),
            }))
        });
        ExtrasPtr(AtomicPtr::new(extras))
    }

    fn get(&self) -> Option<&Extras> {
        // SAFETY: a non-null pointer is a box that lives as long as `self` (see the module
        // documentation), and only its `own` part is ever written.
        unsafe { self.0.load(Ordering::Acquire).as_ref() }
    }
}

impl Drop for ExtrasPtr {
    fn drop(&mut self) {
        let extras = *self.0.get_mut();
        if !extras.is_null() {
            // SAFETY: made by `Box::into_raw` (here or in `own`), and nobody else holds the
            // cell any more.
            drop(unsafe { Box::from_raw(extras) });
        }
    }
}

impl<B: Behaviour> ActorCell<B> {
    /// The bounded mailbox's capacity, if the actor was spawned with one.
    #[inline]
    pub(crate) fn capacity(&self) -> Option<&Capacity> {
        self.extras.get().and_then(|e| e.capacity.as_deref())
    }

    /// The bounded mailbox's capacity, shared, if the actor was spawned with one.
    pub(crate) fn capacity_shared(&self) -> Option<Arc<Capacity>> {
        self.extras.get().and_then(|e| e.capacity.clone())
    }

    /// The consumer's part of the actor's occasional state, made the first time.
    ///
    /// # Safety
    /// Only the actor's consumer may call this, and no other reference returned by it or
    /// by [`ActorCell::own_extras_if_any`] may be alive.
    #[allow(clippy::mut_from_ref)] // the consumer's exclusive access, as for the state
    pub(crate) unsafe fn own_extras(&self) -> &mut Own {
        let extras = match self.extras.get() {
            Some(extras) => extras,
            None => {
                let made = Box::into_raw(Box::new(Extras {
                    capacity: None,
                    own: UnsafeCell::new(Own::default()),
                }));
                // Only the consumer sets the pointer, and it was null.
                self.extras.0.store(made, Ordering::Release);
                // SAFETY: just made, and it lives as long as the cell.
                unsafe { &*made }
            }
        };
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
        self.extras.get().map(|e| unsafe { &mut *e.own.get() })
    }
}
