//! The census: every live actor of a system, so that a shutdown can reach the ones
//! nobody is sending to.
//!
//! # Why a census
//!
//! An idle actor is referenced only by its addresses, wherever the program keeps them; the
//! scheduler never sees it until a message arrives. A shutdown that must run the `stopped`
//! hook of every live actor therefore needs a list of them. Spawning is on the hot path
//! (a spawn costs about as much as a few messages), so entering the list must cost no
//! locked instruction, and leaving it at most one.
//!
//! # The algorithm
//!
//! The census is a set of *slots* in pages of 4 KiB, allocated in chunks that never
//! move. Each pool worker owns one *shard* of chunks and is the only thread that hands
//! out its slots, so entering is a few plain stores: take a free slot (the head of the
//! worker's free list, or else the next never-used slot of its newest chunk), write the
//! entry's operations, then its pointer. Threads that are not pool workers share one more
//! shard under a lock. Leaving is done by whoever stops the actor, on any thread: a
//! compare-and-swap of the slot's pointer back to null, then a plain store marking the
//! slot's page *dirty* (the first slot of each page is its header; the page is found by
//! masking the slot's address). The owner does not hear about it; when it has no free
//! slot left, it scans the dirty pages of its chunks (clearing their marks) for null
//! slots and links them into its free list (through their otherwise unused operations
//! word), and adds a zeroed chunk as large as all the others if fewer than a quarter of
//! its slots were found free. So a scan costs a constant number of slot reads per entry,
//! amortised, and nothing at all while no actor stops.
//!
//! A sweep (the shutdown) walks every chunk and must act on each live entry without the
//! entry being freed under it. It *tags* the slot's pointer with a compare-and-swap
//! before using the entry, and untags it after. A leaving actor's compare-and-swap expects
//! the untagged pointer, so while the sweep holds the tag it waits; and an actor leaves
//! the census before it can be freed (its stop clears the slot while the stopping worker
//! still holds the actor's scheduling reference). So a tagged entry is alive until it is
//! untagged. A sweep whose compare-and-swap fails skips that slot: the entry left, or was
//! replaced by a newer one, which a later sweep finds.
//!
//! The loom model at the bottom of this file checks a sweep racing an actor leaving and
//! its slot being handed out again (`RUSTFLAGS="--cfg loom"`).

use std::cell::UnsafeCell;
use std::ptr;

use parking_lot::Mutex;

use crate::sync::{AtomicPtr, Ordering, backoff};

/// The bytes of a page: a header slot and the slots it keeps the dirty mark of.
const PAGE_BYTES: usize = 4096;
/// Slots in a page, header included (a few under loom, which tracks every atomic).
#[cfg(not(loom))]
const PAGE_SLOTS: usize = PAGE_BYTES / std::mem::size_of::<Slot>();
#[cfg(loom)]
const PAGE_SLOTS: usize = 3;
/// Pages in a shard's first chunk.
const FIRST_CHUNK: usize = 1;
/// The low bit of a slot's pointer: a sweep is using the entry.
const TAG: usize = 1;

/// What a sweep does with one live entry: called with the entry's pointer, which is alive
/// for the call. Returns whether it acted on it.
pub(crate) type Visit = unsafe fn(*const ()) -> bool;

/// One place in the census.
struct Slot {
    /// The entry (an actor's node), tagged while a sweep uses it; null when free.
    entry: AtomicPtr<()>,
    /// What a sweep does with the entry: a [`Visit`], written before `entry`.
    visit: AtomicPtr<()>,
}

impl Slot {
    #[cfg(loom)]
    fn free() -> Slot {
        Slot {
            entry: AtomicPtr::new(ptr::null_mut()),
            visit: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// The header of the page this slot is in.
    fn header(&self) -> &Slot {
        let header = ptr::from_ref(self).map_addr(|a| a & !(PAGE_BYTES - 1));
        // SAFETY: every slot is in a page, aligned to its size (see `Page`), whose first
        // slot is its header.
        unsafe { &*header }
    }
}

/// A page of slots: the first is its header, whose `entry` is non-null while the page is
/// dirty (a slot was freed since its owner last scanned it).
#[repr(C, align(4096))]
struct Page {
    slots: [Slot; PAGE_SLOTS],
}

#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Page>() == PAGE_BYTES);

impl Page {
    /// The slots that hold entries (all but the header).
    fn entries(&self) -> &[Slot] {
        &self.slots[1..]
    }
}

/// Where an entry sits in the census: what it needs to leave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seat(*const Slot);

// SAFETY: a seat is an address in a chunk that lives as long as the census, and the only
// access through it is atomic.
unsafe impl Send for Seat {}
// SAFETY: as above.
unsafe impl Sync for Seat {}

impl Seat {
    /// The seat as a plain pointer, to keep in an atomic.
    pub(crate) fn as_ptr(self) -> *const () {
        self.0.cast()
    }

    /// The seat [`Seat::as_ptr`] gave.
    pub(crate) fn from_ptr(p: *const ()) -> Seat {
        Seat(p.cast())
    }
}

/// A set of chunks, and the free slots its owner knows of.
struct Shard {
    /// Every chunk, in the order they were added. Locked by the owner only to add one, and
    /// by a sweep to walk them; slots are reached through their addresses otherwise.
    chunks: Mutex<Vec<Box<[Page]>>>,
    /// Where the owner finds free slots; touched only by the shard's owner.
    free: UnsafeCell<Free>,
}

/// The free slots a shard's owner knows of.
struct Free {
    /// The first of a list of free slots linked through their `visit` word; null at the end.
    list: *const Slot,
    /// The next never-used slot of the newest chunk, and the end of that chunk.
    fresh: *const Slot,
    end: *const Slot,
}

// SAFETY: `free` is touched only by the shard's owner (see `Census::enter`); everything
// else is behind a lock or atomic.
unsafe impl Sync for Shard {}
// SAFETY: as above; the raw pointers in `free` point into `chunks`, owned by the shard.
unsafe impl Send for Shard {}

impl Shard {
    fn new() -> Shard {
        Shard {
            chunks: Mutex::new(Vec::new()),
            free: UnsafeCell::new(Free {
                list: ptr::null(),
                fresh: ptr::null(),
                end: ptr::null(),
            }),
        }
    }

    /// A free slot.
    ///
    /// # Safety
    /// Only the shard's owner may call this.
    #[inline]
    unsafe fn take(&self) -> *const Slot {
        // SAFETY: the caller owns the free list.
        let free = unsafe { &mut *self.free.get() };
        if free.list.is_null() && free.fresh.addr() >= free.end.addr() {
            self.refill(free);
        }
        if free.list.is_null() {
            let slot = free.fresh;
            // SAFETY: `slot` is below `end`, so the next slot is in the chunk or its end.
            let mut next = unsafe { slot.add(1) };
            if next.addr() % PAGE_BYTES == 0 && next != free.end {
                // The next page's header is not handed out.
                // SAFETY: the next page is in the chunk: it is not its end.
                next = unsafe { next.add(1) };
            }
            free.fresh = next;
            return slot;
        }
        let slot = free.list;
        // SAFETY: a listed slot is free: only its owner (the caller) touches it.
        free.list = unsafe { (*slot).visit.load(Ordering::Relaxed) }
            .cast_const()
            .cast();
        slot
    }

    /// Lists the slots freed since the last scan; adds a chunk if they are too few. Called
    /// with no free slot left (the fresh ones too), so every null slot is free to list.
    #[cold]
    #[inline(never)]
    fn refill(&self, free: &mut Free) {
        let mut chunks = self.chunks.lock();
        let (mut pages, mut found) = (0, 0);
        for page in chunks.iter().flat_map(|chunk| chunk.iter()) {
            pages += 1;
            // The owner's swap, so that a slot freed during the scan marks the page again.
            if page.slots[0]
                .entry
                .swap(ptr::null_mut(), Ordering::Acquire)
                .is_null()
            {
                continue;
            }
            // A null slot stays null until its owner (the caller) hands it out again.
            for slot in page
                .entries()
                .iter()
                .filter(|s| s.entry.load(Ordering::Acquire).is_null())
            {
                slot.visit
                    .store(free.list.cast_mut().cast(), Ordering::Relaxed);
                free.list = slot;
                found += 1;
            }
        }
        if found * 4 < (pages * (PAGE_SLOTS - 1)).max(1) {
            let chunk = zeroed_chunk(pages.max(FIRST_CHUNK));
            let range = chunk.as_ptr_range();
            // SAFETY: the first page's first entry slot is in the chunk.
            free.fresh = unsafe { &raw const (*range.start).slots[1] };
            free.end = range.end.cast();
            chunks.push(chunk);
        }
    }
}

/// A chunk of `n` pages of free slots, from zeroed memory (a free slot and a clean header
/// are all zeroes, so the pages are not even touched until used).
#[cfg(not(loom))]
fn zeroed_chunk(n: usize) -> Box<[Page]> {
    let layout = std::alloc::Layout::array::<Page>(n).expect("a chunk fits in memory");
    // SAFETY: `layout` has a non-zero size (`n` is at least `FIRST_CHUNK`).
    let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Page>();
    if p.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    // SAFETY: `p` is a fresh allocation of `n` pages from the global allocator with the
    // layout `Box` uses for `[Page]`, and all-zero bits are a valid page (null atomic
    // pointers).
    unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(p, n)) }
}

/// Loom's atomics must be constructed.
#[cfg(loom)]
fn zeroed_chunk(n: usize) -> Box<[Page]> {
    (0..n)
        .map(|_| Page {
            slots: std::array::from_fn(|_| Slot::free()),
        })
        .collect()
}

/// Every live actor of one system; see the module documentation.
pub(crate) struct Census {
    /// One shard per pool worker, handed out only by that worker's thread.
    workers: Box<[Shard]>,
    /// The shard of every other thread, handed out under `shared_owner`.
    shared: Shard,
    shared_owner: Mutex<()>,
}

impl Census {
    /// A census with one shard per pool worker (`workers` of them) and one shared shard.
    pub(crate) fn new(workers: usize) -> Census {
        Census {
            workers: (0..workers).map(|_| Shard::new()).collect(),
            shared: Shard::new(),
            shared_owner: Mutex::new(()),
        }
    }

    /// Enters `entry`, which a sweep visits with `visit`, and returns its seat. `worker` is
    /// the calling thread's pool worker index, if it is one of this system's pool workers.
    ///
    /// # Safety
    /// `worker`, if given, must be the calling thread's own pool index: that thread is the
    /// only one to hand out the slots of its shard. `entry` must stay valid until it has
    /// left ([`Census::leave`]), and `visit` must be safe to call with it until then.
    #[inline]
    pub(crate) unsafe fn enter(
        &self,
        worker: Option<usize>,
        entry: *const (),
        visit: Visit,
    ) -> Seat {
        let slot = match worker.and_then(|k| self.workers.get(k)) {
            // SAFETY: the caller is worker `k`, the shard's owner.
            Some(shard) => unsafe { shard.take() },
            None => self.take_shared(),
        };
        // SAFETY: a slot lives as long as the census; a free slot is written only by the
        // owner that took it.
        let s = unsafe { &*slot };
        s.visit.store(visit as *mut (), Ordering::Relaxed);
        // Release: a sweep that sees the entry sees its `visit`.
        s.entry.store(entry.cast_mut(), Ordering::Release);
        Seat(slot)
    }

    /// A free slot of the shared shard.
    #[cold]
    #[inline(never)]
    fn take_shared(&self) -> *const Slot {
        let _owner = self.shared_owner.lock();
        // SAFETY: the lock makes this thread the shared shard's owner.
        unsafe { self.shared.take() }
    }

    /// Takes `entry` out of its seat. Waits while a sweep is using it.
    pub(crate) fn leave(seat: Seat, entry: *const ()) {
        if seat.0.is_null() {
            return;
        }
        // SAFETY: a seat points into a chunk that outlives every entry in it.
        let slot = unsafe { &*seat.0 };
        let mut step = 0;
        while slot
            .entry
            .compare_exchange(
                entry.cast_mut(),
                ptr::null_mut(),
                Ordering::AcqRel,
                Ordering::Relaxed,
            )
            .is_err()
        {
            // A sweep holds the tag for the few instructions of one visit.
            backoff(&mut step);
        }
        // Any non-null pointer marks the page dirty for its owner's next scan.
        slot.header()
            .entry
            .store(ptr::NonNull::dangling().as_ptr(), Ordering::Release);
    }

    /// Takes the entry out of its seat when no sweep can be running any more (the system
    /// has shut down): for an actor freed without having stopped.
    pub(crate) fn vacate(seat: Seat) {
        if !seat.0.is_null() {
            // SAFETY: as for `leave`.
            unsafe { &*seat.0 }
                .entry
                .store(ptr::null_mut(), Ordering::Release);
        }
    }

    /// Visits every live entry once; returns how many visits acted (returned `true`).
    pub(crate) fn sweep(&self) -> usize {
        let mut acted = 0;
        for shard in self.workers.iter().chain(std::iter::once(&self.shared)) {
            let chunks = shard.chunks.lock();
            for slot in chunks.iter().flat_map(|c| c.iter()).flat_map(Page::entries) {
                acted += usize::from(visit(slot));
            }
        }
        acted
    }

    /// Live entries right now (a snapshot).
    pub(crate) fn live(&self) -> usize {
        self.workers
            .iter()
            .chain(std::iter::once(&self.shared))
            .map(|shard| {
                let chunks = shard.chunks.lock();
                chunks
                    .iter()
                    .flat_map(|c| c.iter())
                    .flat_map(Page::entries)
                    .filter(|s| !s.entry.load(Ordering::Acquire).is_null())
                    .count()
            })
            .sum()
    }
}

/// Visits one slot's entry if it is live; see the module documentation.
fn visit(slot: &Slot) -> bool {
    let entry = slot.entry.load(Ordering::Acquire);
    if entry.is_null() || entry.addr() & TAG != 0 {
        return false;
    }
    let tagged = entry.map_addr(|a| a | TAG);
    if slot
        .entry
        .compare_exchange(entry, tagged, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return false;
    }
    let f = slot.visit.load(Ordering::Relaxed);
    // SAFETY: `visit` holds a `Visit` written before the entry (and the acquire above
    // sees it); only `Census::enter` writes it.
    let f: Visit = unsafe { std::mem::transmute::<*mut (), Visit>(f) };
    // SAFETY: the tag keeps the entry from leaving, and so from being freed, until it is
    // taken off below; `enter`'s caller promised `visit` is safe with it until then.
    let acted = unsafe { f(entry) };
    // Only the holder of the tag changes a tagged slot.
    slot.entry.store(entry, Ordering::Release);
    acted
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    static VISITS: AtomicUsize = AtomicUsize::new(0);

    unsafe fn count(_: *const ()) -> bool {
        VISITS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        true
    }

    #[test]
    fn entries_are_visited_until_they_leave_and_slots_are_reused() {
        let census = Census::new(1);
        let entries: Vec<Box<u64>> = (0..1000).map(Box::new).collect();
        let ptrs: Vec<*const ()> = entries.iter().map(|e| ptr::from_ref(&**e).cast()).collect();
        // SAFETY: this thread plays worker 0; the entries outlive their seats.
        let seats: Vec<Seat> = ptrs
            .iter()
            .map(|&p| unsafe { census.enter(Some(0), p, count) })
            .collect();
        assert_eq!(census.live(), 1000);
        assert_eq!(census.sweep(), 1000);
        for (seat, p) in seats.iter().zip(&ptrs).skip(1) {
            Census::leave(*seat, *p);
        }
        assert_eq!(census.live(), 1);
        assert_eq!(census.sweep(), 1);
        let chunks = census.workers[0].chunks.lock().len();
        // SAFETY: as above.
        for &p in &ptrs[1..] {
            let _ = unsafe { census.enter(Some(0), p, count) };
        }
        assert_eq!(
            census.workers[0].chunks.lock().len(),
            chunks,
            "freed slots are found and used again"
        );
        // Entering and leaving over and over reuses the freed slots.
        for _ in 0..100_000 {
            // SAFETY: as above.
            let seat = unsafe { census.enter(Some(0), ptrs[0], count) };
            Census::leave(seat, ptrs[0]);
        }
        assert!(
            census.workers[0].chunks.lock().len() <= chunks + 1,
            "a quarter of the slots free is enough"
        );
        // The shared shard, from a thread that is no pool worker.
        // SAFETY: the entry outlives the census.
        let seat = unsafe { census.enter(None, ptrs[0], count) };
        assert_eq!(census.live(), 1001);
        Census::leave(seat, ptrs[0]);
        assert_eq!(census.live(), 1000);
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicBool, Ordering as LoomOrdering};
    use loom::thread;

    /// The entry of the model: whether it has been freed.
    struct Entry {
        freed: AtomicBool,
    }

    unsafe fn check_alive(entry: *const ()) -> bool {
        // SAFETY: the census keeps a visited entry alive (what this model checks).
        let entry = unsafe { &*entry.cast::<Entry>() };
        assert!(
            !entry.freed.load(LoomOrdering::SeqCst),
            "a sweep used an entry that had left"
        );
        true
    }

    /// A sweep racing the entry's actor leaving the census (and then "freeing" the
    /// entry): the sweep never uses a freed entry, and the leave always completes.
    #[test]
    fn a_sweep_racing_a_leave() {
        loom::model(|| {
            let census = Arc::new(Census::new(1));
            let entry = Arc::new(Entry {
                freed: AtomicBool::new(false),
            });
            let p = Arc::as_ptr(&entry).cast::<()>();
            // SAFETY: this thread plays worker 0; the entry outlives its seat.
            let seat = unsafe { census.enter(Some(0), p, check_alive) };
            let sweeper = {
                let census = Arc::clone(&census);
                thread::spawn(move || census.sweep())
            };
            Census::leave(seat, p);
            entry.freed.store(true, LoomOrdering::SeqCst);
            let acted = sweeper.join().unwrap();
            assert!(acted <= 1);
            assert_eq!(census.live(), 0);
        });
    }
}
