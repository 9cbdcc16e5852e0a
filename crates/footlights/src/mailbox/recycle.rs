//! A worker's spare mailbox nodes: a node freed by a pop on a worker thread is kept there
//! for the next push from that thread, instead of going back to the allocator.
//!
//! # The algorithm
//!
//! Every message travels in a heap node ([`super::Mailbox::push`] allocates it, the pop
//! that moves the tail past it frees it), so a hop between two actors on one worker is an
//! allocation and a free: about 80 instructions of mimalloc's, a fifth of a hop. But on a
//! worker the free and the next allocation of the same size come a few instructions apart
//! (a turn frees the node its tail moved past after each handler, and the next handler
//! sends), so the node just freed can simply be handed to the next push.
//!
//! * **Where the spares live.** In a [`Spares`] that a worker thread installs for as long
//!   as its loop runs ([`Spares::install`]); a thread-local pointer to it, with a constant
//!   initialiser and no destructor, is one load from the thread's block. A thread without
//!   spares of its own (a thread outside the runtime, such as a program's main thread
//!   sending the first messages) points at a static set whose classes are empty and full
//!   at once, so it goes to the allocator
//!   after the same load and test as a worker whose class is empty (or full), with no
//!   test of its own. When the worker's loop ends, the guard points the thread back there
//!   and frees the spares.
//! * **Size classes.** Spares are kept by node size, one free list per multiple of eight
//!   bytes up to [`LARGEST`], for nodes whose alignment is eight (a node holds an atomic
//!   pointer, so it is at least that; a message aligned to more goes to the allocator).
//!   A node is allocated and freed with its own exact layout, so a spare taken by a push of
//!   another message type of the same size has the layout it was allocated with, as the
//!   allocator requires when it is finally freed.
//! * **Bounded.** A class keeps at most [`KEEP`] spares; a free beyond that goes to the
//!   allocator. A burst of pops therefore keeps no more than a few kilobytes a worker, and
//!   a worker that only consumes (its senders are elsewhere) pays one compare per free once
//!   its class is full.
//! * **Across threads.** A node may be allocated on one thread and kept by another (the
//!   consumer's); it is reused there, or freed there through the allocator, which takes
//!   frees from any thread.
//! * **Renewal.** A node kept by the consumer's thread stays in that thread's circulation
//!   for as long as messages keep coming: freed by a pop, handed to the next push, freed
//!   again. A node leaves it only when its class is full at a free, which a steady
//!   exchange almost never makes happen. So nodes that crossed between two workers while a
//!   program started (before its groups settled on one worker each) went round on the
//!   other worker for the whole run, and the allocator hands out neighbouring nodes (two
//!   or more to a cache line) to one thread at a time: the two workers' nodes then shared
//!   cache lines, and every message written on one core took the line from the other.
//!   Big on two workers ran at half speed for it, with every neighbourhood on one worker
//!   (`docs/experiments/2026-11-27-big-slow-mode.md`). So a pool worker of several *drains* its
//!   spares now and then ([`set_draining`], from its pace, [`crate::scheduler`]): for one pace
//!   epoch, every free goes to the allocator (the node goes back to the thread that allocated it)
//!   and every push, once the spares are used up, takes a fresh node from this thread's own memory,
//!   which renews most of what circulates. The free and the allocation paths are unchanged:
//!   draining only makes every class look full.
//!
//! Under loom the mailbox allocates with `Box` as before: the spares are one thread's
//! private lists, with nothing for a model to interleave.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::ptr;

/// The largest node kept, in bytes.
const LARGEST: usize = 128;
/// One class per multiple of eight bytes up to [`LARGEST`].
const CLASSES: usize = LARGEST / 8;
/// The most spares a class keeps.
const KEEP: u32 = 64;

/// A spare node: its first word links it to the next spare of its class.
struct Spare {
    next: *mut Spare,
}

/// One size class: a stack of spares.
struct Class {
    top: Cell<*mut Spare>,
    len: Cell<u32>,
}

/// A worker thread's spare nodes; see the module documentation.
pub(crate) struct Spares {
    classes: [Class; CLASSES],
}

/// What a thread that keeps no spares points at: no spare in any class, and every class
/// full, so that neither [`alloc()`] nor [`free`] ever writes to it, and neither needs a
/// test for a thread without spares of its own.
struct NoSpares(Spares);

// SAFETY: never written (see above): every access is a read of a `Cell` whose value never
// changes.
unsafe impl Sync for NoSpares {}

static NONE: NoSpares = NoSpares(Spares {
    classes: [const {
        Class {
            top: Cell::new(ptr::null_mut()),
            len: Cell::new(KEEP),
        }
    }; CLASSES],
});

thread_local! {
    /// The spares of the worker running on this thread, or [`NONE`]'s.
    static SPARES: Cell<*const Spares> = const { Cell::new(&NONE.0) };
    /// Whether the thread drains its spares (see the module documentation, "Renewal"):
    /// every class's `len` is then [`KEEP`] more than the spares it holds.
    static DRAINING: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread keeps spares of its own.
fn installed() -> bool {
    !ptr::eq(SPARES.get(), &NONE.0)
}

/// The size class of nodes of `layout`, if they are kept.
const fn class_of(layout: Layout) -> Option<usize> {
    if layout.align() == 8 && layout.size() <= LARGEST && layout.size() % 8 == 0 {
        Some(layout.size() / 8 - 1)
    } else {
        None
    }
}

/// The layout of the nodes of `class`.
fn layout_of(class: usize) -> Layout {
    // Sizes are positive multiples of the alignment.
    Layout::from_size_align((class + 1) * 8, 8).expect("a valid node layout")
}

/// The calling thread's class `class`.
///
/// # Safety
/// The reference must not be kept past the caller's return (the installed spares go when
/// their guard does).
#[inline(always)]
unsafe fn class(class: usize) -> &'static Class {
    // SAFETY: the pointer is `NONE`'s spares or the installed `Spares` of this thread,
    // alive until its guard takes the pointer back (see `Spares::install`), which the
    // caller's use cannot outlast.
    unsafe { &(*SPARES.get()).classes[class] }
}

/// Uninitialised memory for one `N`: a spare of its size if this thread keeps one, else
/// the allocator's.
#[inline(always)]
pub(crate) fn alloc<N>() -> *mut N {
    if let Some(class) = const { class_of(Layout::new::<N>()) } {
        // SAFETY: used in this call only.
        let class = unsafe { self::class(class) };
        let top = class.top.get();
        if !top.is_null() {
            // SAFETY: a spare on the list is a free node of this class's layout, whose
            // first word links the next spare (`NONE` has none).
            class.top.set(unsafe { (*top).next });
            class.len.set(class.len.get() - 1);
            return top.cast();
        }
    }
    let layout = Layout::new::<N>();
    // SAFETY: `N` is a node, never zero-sized (it holds a pointer).
    let p = unsafe { alloc::alloc(layout) };
    if p.is_null() {
        alloc::handle_alloc_error(layout);
    }
    p.cast()
}

/// Gives back the memory of an `N` from [`alloc()`]: kept as a spare if this thread keeps
/// spares and its class has room, else freed.
///
/// # Safety
/// `p` came from [`alloc::<N>()`](alloc()) (on any thread), its contents are dropped or moved out,
/// and nothing uses it any more.
#[inline(always)]
pub(crate) unsafe fn free<N>(p: *mut N) {
    if let Some(class) = const { class_of(Layout::new::<N>()) } {
        // SAFETY: used in this call only.
        let class = unsafe { self::class(class) };
        let len = class.len.get();
        if len < KEEP {
            // (Every class of `NONE` is full.)
            let spare = p.cast::<Spare>();
            let next = class.top.get();
            // SAFETY: the caller gives the node up; its first word becomes the link.
            unsafe { spare.write(Spare { next }) };
            class.top.set(spare);
            class.len.set(len + 1);
            return;
        }
    }
    // SAFETY: allocated by `alloc::<N>` with this layout (a spare of `N`'s class has it too).
    unsafe { alloc::dealloc(p.cast(), Layout::new::<N>()) };
}

/// Starts (`true`) or ends draining the calling thread's spares (see the module
/// documentation, "Renewal"): while it drains, every free goes to the allocator, and
/// allocations take the spares left, then the allocator's memory. Nothing on a thread
/// without spares of its own.
#[cold]
#[inline(never)]
pub(crate) fn set_draining(on: bool) {
    if !installed() {
        return;
    }
    // SAFETY: the installed spares of this thread, used in this call only (see `class`).
    let spares = unsafe { &*SPARES.get() };
    if DRAINING.replace(on) == on {
        return;
    }
    for class in &spares.classes {
        // A class that looks full keeps nothing; `alloc` still takes what it holds, and
        // counts down from `KEEP` more than that.
        let len = class.len.get();
        class.len.set(if on { len + KEEP } else { len - KEEP });
    }
}

/// While alive, the calling thread keeps spare nodes (see [`Spares::install`]).
pub(crate) struct Installed {
    spares: Option<Box<Spares>>,
}

impl Spares {
    /// Makes the calling thread keep spare nodes until the guard is dropped, which frees
    /// them. A thread that keeps spares already goes on with those (the guard does
    /// nothing).
    pub(crate) fn install() -> Installed {
        if installed() {
            return Installed { spares: None };
        }
        let spares = Box::new(Spares {
            classes: std::array::from_fn(|_| Class {
                top: Cell::new(ptr::null_mut()),
                len: Cell::new(0),
            }),
        });
        DRAINING.set(false);
        SPARES.set(&*spares);
        Installed {
            spares: Some(spares),
        }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let Some(spares) = self.spares.take() else {
            return;
        };
        SPARES.set(&NONE.0);
        for (class, list) in spares.classes.iter().enumerate() {
            let mut top = list.top.get();
            while !top.is_null() {
                // SAFETY: a spare on the list, given up by `free`, allocated with its
                // class's layout; nothing else reaches it now that the pointer is back.
                let next = unsafe { (*top).next };
                // SAFETY: as above.
                unsafe { alloc::dealloc(top.cast(), layout_of(class)) };
                top = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Node40([u64; 5]);

    #[test]
    fn a_freed_node_is_the_next_one_handed_out_and_the_class_is_bounded() {
        let guard = Spares::install();
        let a = alloc::<Node40>();
        // SAFETY: from `alloc`, nothing in it to drop.
        unsafe { free(a) };
        assert_eq!(alloc::<Node40>(), a, "the spare goes to the next push");
        let many: Vec<_> = (0..KEEP + 8).map(|_| alloc::<Node40>()).collect();
        for &p in &many {
            // SAFETY: as above.
            unsafe { free(p) };
        }
        // SAFETY: the installed spares, read on their own thread.
        let len = unsafe { &(*SPARES.get()).classes[class_of(Layout::new::<Node40>()).unwrap()] }
            .len
            .get();
        assert_eq!(len, KEEP, "a class keeps at most KEEP spares");
        // SAFETY: as above.
        unsafe { free(a) };
        drop(guard);
        assert!(!installed(), "the guard takes the spares back");
    }

    #[test]
    fn a_draining_thread_frees_to_the_allocator_and_keeps_its_count() {
        let guard = Spares::install();
        let class = || {
            // SAFETY: the installed spares, read on their own thread.
            unsafe { &(*SPARES.get()).classes[class_of(Layout::new::<Node40>()).unwrap()] }
        };
        let a = alloc::<Node40>();
        let b = alloc::<Node40>();
        // SAFETY: from `alloc`, nothing in them to drop.
        unsafe { free(a) };
        assert_eq!(class().len.get(), 1);
        set_draining(true);
        set_draining(true);
        // SAFETY: as above.
        unsafe { free(b) };
        assert_eq!(
            class().top.get(),
            a.cast(),
            "a draining class keeps nothing"
        );
        assert_eq!(alloc::<Node40>(), a, "but hands out what it holds");
        assert!(class().top.get().is_null());
        set_draining(false);
        assert_eq!(class().len.get(), 0, "the count of spares is right again");
        let c = alloc::<Node40>();
        // SAFETY: as above.
        unsafe { free(c) };
        assert_eq!(class().len.get(), 1, "and the class keeps spares again");
        // SAFETY: as above.
        unsafe { free(a) };
        drop(guard);
        set_draining(true);
        assert!(!installed(), "a thread without spares has nothing to drain");
    }

    #[test]
    fn a_thread_without_spares_uses_the_allocator() {
        assert!(!installed());
        let a = alloc::<Node40>();
        // SAFETY: from `alloc`, nothing in it to drop.
        unsafe { free(a) };
        assert!(!installed());
        let none = &NONE.0.classes[class_of(Layout::new::<Node40>()).unwrap()];
        assert!(
            none.top.get().is_null() && none.len.get() == KEEP,
            "NONE stays as it was"
        );
    }

    #[test]
    fn only_eight_aligned_nodes_up_to_the_largest_are_kept() {
        assert_eq!(class_of(Layout::new::<[u64; 1]>()), Some(0));
        assert_eq!(class_of(Layout::new::<[u64; 16]>()), Some(CLASSES - 1));
        assert_eq!(class_of(Layout::new::<[u64; 17]>()), None);
        assert_eq!(class_of(Layout::new::<u128>()), None);
        assert_eq!(class_of(Layout::new::<u32>()), None);
    }
}
