//! The census: every live actor of a system, so that a shutdown can reach the ones
//! nobody is sending to.
//!
//! # Why a census
//!
//! An idle actor is referenced only by its addresses, wherever the program keeps them; the
//! scheduler never sees it until a message arrives. A shutdown that must run the `stopped`
//! hook of every live actor therefore needs a list of them. Spawning is on the hot path
//! (a spawn costs about as much as a few messages), so entering the list must cost no
//! locked instruction, and leaving it at most one; and every actor pays for its entry in
//! memory, so an entry is one word.
//!
//! # The algorithm
//!
//! The census is a set of *slots*, one word each (the actor's node pointer, or null), in
//! pages of 4 KiB that never move. A page holds actors of one type only: its header says
//! what a sweep does with its entries (a [`Visit`], the one function that knows the type)
//! and whether a slot was freed since its owner last scanned it (*dirty*). A type is
//! told apart by its [`Kind`]: its `TypeId`, not its visit's address, because a function's
//! address is not unique (an optimised build may give one function several copies, each
//! with an address of its own, and one type would then get several lanes).
//!
//! Each pool worker owns one *shard* of pages and is the only thread that hands out its
//! slots, so entering is a few plain loads and stores, inlined into the actor's first
//! turn: the *lane* of the actor's type is nearly always the one used last (the shard
//! keeps it apart, the *hot* lane, so no search is needed); take a free slot from it (the
//! head of its free list, or else the next never-used slot of the page it is handing
//! out, a bump of a pointer), and write the node pointer. Anything else (another type's
//! lane, the next page, a scan) is out of line. Threads that
//! are not pool workers share one more shard under a lock. Leaving is done by whoever
//! stops the actor, on any thread: a compare-and-swap of the slot back to null, then a
//! plain store marking its page dirty (the page is found by masking the slot's address).
//! The owner does not hear about it; when a lane has no free slot left, the owner scans the
//! lane's dirty pages (clearing their marks) for null slots and links them into the lane's
//! free list (a listed slot holds the next one, tagged [`FREE`]), and adds zeroed pages as
//! many as the lane has if fewer than a quarter of its slots were found free. So a scan
//! costs a constant number of slot reads per entry, amortised, and nothing at all while
//! no actor stops.
//!
//! A sweep (the shutdown) walks every page and must act on each live entry without the
//! entry being freed under it. It *tags* the slot with a compare-and-swap before using the
//! entry, and untags it after. A leaving actor's compare-and-swap expects the untagged
//! pointer, so while the sweep holds the tag it waits; and an actor leaves the census
//! before it can be freed (its stop clears the slot while the stopping worker still holds
//! the actor's scheduling reference). So a tagged entry is alive until it is untagged. A
//! sweep whose compare-and-swap fails skips that slot: the entry left, or was replaced by
//! a newer one, which a later sweep finds.
//!
//! A leave waits only for the tag on its own entry. A leave whose entry is not in the slot
//! at all (the slot is null, listed, or holds another entry) has nothing to wait for:
//! nothing will ever put the entry back, so it leaves the slot alone and returns. The cell
//! forgets its seat when it leaves, so this is not expected (an actor restarted in place
//! leaves, and is stopped before its next turn enters it again, with no seat: see
//! [`crate::cell`]), but a stale seat must not make a stop spin for ever, nor take
//! another entry out of the census. An actor freed without having stopped (after its
//! system shut down) *vacates* its seat with the same compare-and-swap, so a stale seat
//! there cannot empty another actor's slot either.
//!
//! The loom models at the bottom of this file check a sweep racing an actor leaving, and
//! a leave or a vacate from a stale seat racing a sweep of the entry now in it
//! (`RUSTFLAGS="--cfg loom"`).

use std::any::TypeId;
use std::cell::UnsafeCell;
use std::ptr;

use parking_lot::Mutex;

use crate::sync::{AtomicPtr, Ordering, backoff};

/// The bytes of a page, and its alignment: a slot's page is its address masked.
const PAGE_BYTES: usize = 4096;
/// Slots in a page: what is left of it after the header (a few under loom, which tracks
/// every atomic).
#[cfg(not(loom))]
const PAGE_SLOTS: usize =
    (PAGE_BYTES - std::mem::size_of::<Header>()) / std::mem::size_of::<Slot>();
#[cfg(loom)]
const PAGE_SLOTS: usize = 2;
/// The low bit of a slot: a sweep is using the entry.
const TAG: usize = 1;
/// The next bit: the slot is on its lane's free list, and the rest is the next free slot.
const FREE: usize = 2;

/// What a sweep does with one live entry: called with the entry's pointer, which is alive
/// for the call. Returns whether it acted on it.
pub(crate) type Visit = unsafe fn(*const ()) -> bool;

/// An actor type, as the census tells types apart: its `TypeId`, and what a sweep does
/// with an entry of it.
#[derive(Clone, Copy)]
pub(crate) struct Kind {
    id: TypeId,
    visit: Visit,
}

impl Kind {
    /// The kind of entries of type `T`, which a sweep visits with `visit`.
    #[inline]
    pub(crate) fn of<T: 'static>(visit: Visit) -> Kind {
        Kind {
            id: TypeId::of::<T>(),
            visit,
        }
    }
}

/// One place in the census: the entry (an actor's node), tagged while a sweep uses it;
/// null when free; a link tagged [`FREE`] while on its lane's free list.
type Slot = AtomicPtr<()>;

/// What a page says of its slots.
#[repr(C)]
struct Header {
    /// Non-null while a slot was freed since the owner last scanned the page.
    dirty: AtomicPtr<()>,
    /// What a sweep does with the page's entries: a [`Visit`].
    visit: AtomicPtr<()>,
}

/// A page of slots, all for actors of one type.
#[repr(C, align(4096))]
struct Page {
    header: Header,
    slots: [Slot; PAGE_SLOTS],
}

#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Page>() == PAGE_BYTES);

/// The page a slot is in.
///
/// # Safety
/// `slot` must be a slot of a live page.
unsafe fn page_of<'a>(slot: *const Slot) -> &'a Page {
    // SAFETY: pages are aligned to their size, so masking a slot's address gives its
    // page, live as the caller vouches.
    unsafe { &*slot.map_addr(|a| a & !(PAGE_BYTES - 1)).cast::<Page>() }
}

/// Where an entry sits in the census: what it needs to leave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seat(*const Slot);

// SAFETY: a seat is an address in a page that lives as long as the census, and the only
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

/// The slots of one actor type in one shard.
struct Lane {
    /// The lane's type, and what a sweep does with its entries.
    kind: Kind,
    /// The first free slot, null at the end; see [`FREE`].
    list: *const Slot,
    /// The next never-used slot of the page being handed out, and the end of that page's
    /// slots (equal when it is used up).
    next: *const Slot,
    limit: *const Slot,
    /// The lane's never-used pages after that one: from `fresh` to `end`.
    fresh: *const Page,
    end: *const Page,
    /// Every page of the lane, for its scans.
    pages: Vec<*const Page>,
}

impl Lane {
    fn new(kind: Kind) -> Lane {
        Lane {
            kind,
            list: ptr::null(),
            next: ptr::null(),
            limit: ptr::null(),
            fresh: ptr::null(),
            end: ptr::null(),
            pages: Vec::new(),
        }
    }

    /// A free slot from the free list or the page being handed out, if there is one.
    #[inline]
    fn take_ready(&mut self) -> Option<*const Slot> {
        if !self.list.is_null() {
            let slot = self.list;
            // SAFETY: a listed slot is free: only the lane's owner (the caller) touches it.
            let link = unsafe { &*slot }.load(Ordering::Relaxed);
            self.list = link.map_addr(|a| a & !FREE).cast_const().cast();
            Some(slot)
        } else if self.next != self.limit {
            let slot = self.next;
            // SAFETY: `next` is before `limit`, in the same page.
            self.next = unsafe { slot.add(1) };
            Some(slot)
        } else {
            None
        }
    }
}

/// The visit of a lane that has no slots yet: never called.
unsafe fn no_visit(_: *const ()) -> bool {
    false
}

/// The type of the lane a shard starts with, which no entry has.
struct NoEntry;

/// What only a shard's owner touches: its lanes.
struct Lanes {
    /// The lane used last, where nearly every entry goes.
    hot: Lane,
    /// The others.
    cold: Vec<Lane>,
}

/// A set of pages, and the lanes its owner hands out their slots from.
struct Shard {
    /// Every chunk of pages, in the order they were added. Locked by the owner only to
    /// add one, and by a sweep to walk them; slots are reached through their addresses
    /// otherwise.
    chunks: Mutex<Vec<Box<[Page]>>>,
    /// Touched only by the shard's owner.
    lanes: UnsafeCell<Lanes>,
}

// SAFETY: `lanes` is touched only by the shard's owner (see `Census::enter`); everything
// else is behind a lock or atomic.
unsafe impl Sync for Shard {}
// SAFETY: as above; the raw pointers in `lanes` point into `chunks`, owned by the shard.
unsafe impl Send for Shard {}

impl Shard {
    fn new() -> Shard {
        Shard {
            chunks: Mutex::new(Vec::new()),
            lanes: UnsafeCell::new(Lanes {
                hot: Lane::new(Kind::of::<NoEntry>(no_visit)),
                cold: Vec::new(),
            }),
        }
    }

    /// A free slot for an entry of `kind`.
    ///
    /// # Safety
    /// Only the shard's owner may call this.
    #[inline]
    unsafe fn take(&self, kind: Kind) -> *const Slot {
        // SAFETY: the caller owns the lanes.
        let lanes = unsafe { &mut *self.lanes.get() };
        if lanes.hot.kind.id == kind.id {
            if let Some(slot) = lanes.hot.take_ready() {
                return slot;
            }
        }
        self.take_slow(lanes, kind)
    }

    /// A free slot when the hot lane is another type's or has none ready: makes the lane
    /// of `kind` the hot one, and moves to its next fresh page, or scans it for slots
    /// freed since, or adds pages.
    #[cold]
    #[inline(never)]
    fn take_slow(&self, lanes: &mut Lanes, kind: Kind) -> *const Slot {
        if lanes.hot.kind.id != kind.id {
            let at = match lanes.cold.iter().position(|l| l.kind.id == kind.id) {
                Some(at) => at,
                None => {
                    lanes.cold.push(Lane::new(kind));
                    lanes.cold.len() - 1
                }
            };
            std::mem::swap(&mut lanes.hot, &mut lanes.cold[at]);
            if lanes.cold[at].pages.is_empty() {
                // The placeholder lane the shard started with.
                lanes.cold.swap_remove(at);
            }
        }
        let lane = &mut lanes.hot;
        loop {
            if let Some(slot) = lane.take_ready() {
                return slot;
            }
            if lane.fresh != lane.end {
                // SAFETY: `fresh` is a page of the lane's newest chunk, before its end.
                let page = unsafe { &*lane.fresh };
                lane.next = page.slots.as_ptr();
                // SAFETY: one past the page's last slot.
                lane.limit = unsafe { lane.next.add(PAGE_SLOTS) };
                // SAFETY: the next page of the chunk, or its end.
                lane.fresh = unsafe { lane.fresh.add(1) };
            } else {
                self.refill(lane);
            }
        }
    }

    /// Lists the lane's slots freed since its last scan; adds pages if they are too few.
    /// Called with no free slot left in the lane (fresh ones included), so every null slot
    /// of its pages is free to list.
    #[cold]
    #[inline(never)]
    fn refill(&self, lane: &mut Lane) {
        let mut found = 0;
        for &page in &lane.pages {
            // SAFETY: the lane's pages live as long as the shard.
            let page = unsafe { &*page };
            // The owner's swap, so that a slot freed during the scan marks the page again.
            if page
                .header
                .dirty
                .swap(ptr::null_mut(), Ordering::Acquire)
                .is_null()
            {
                continue;
            }
            // A null slot stays null until its owner (the caller) hands it out again.
            for slot in page.slots.iter() {
                if slot.load(Ordering::Acquire).is_null() {
                    slot.store(
                        lane.list.cast_mut().cast::<()>().map_addr(|a| a | FREE),
                        Ordering::Relaxed,
                    );
                    lane.list = slot;
                    found += 1;
                }
            }
        }
        if found * 4 < (lane.pages.len() * PAGE_SLOTS).max(1) {
            let chunk = zeroed_chunk(lane.pages.len().max(1));
            for page in chunk.iter() {
                page.header
                    .visit
                    .store(lane.kind.visit as *mut (), Ordering::Relaxed);
                lane.pages.push(page);
            }
            let range = chunk.as_ptr_range();
            (lane.fresh, lane.end) = (range.start, range.end);
            self.chunks.lock().push(chunk);
        }
    }
}

/// A chunk of `n` pages of free slots, from zeroed memory (free slots and a clean header
/// are all zeroes).
#[cfg(not(loom))]
fn zeroed_chunk(n: usize) -> Box<[Page]> {
    let layout = std::alloc::Layout::array::<Page>(n).expect("a chunk fits in memory");
    // SAFETY: `layout` has a non-zero size (`n` is at least 1).
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
    let null = || AtomicPtr::new(ptr::null_mut());
    (0..n)
        .map(|_| Page {
            header: Header {
                dirty: null(),
                visit: null(),
            },
            slots: std::array::from_fn(|_| null()),
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

    /// Enters `entry`, of `kind`, and returns its seat. `worker` is
    /// the calling thread's pool worker index, if it is one of this system's pool workers.
    ///
    /// # Safety
    /// `worker`, if given, must be the calling thread's own pool index: that thread is the
    /// only one to hand out the slots of its shard. `entry` must stay valid until it has
    /// left ([`Census::leave`]), and `kind`'s visit must be safe to call with it until then.
    #[inline]
    pub(crate) unsafe fn enter(&self, worker: Option<usize>, entry: *const (), kind: Kind) -> Seat {
        let slot = match worker.and_then(|k| self.workers.get(k)) {
            // SAFETY: the caller is worker `k`, the shard's owner.
            Some(shard) => unsafe { shard.take(kind) },
            None => self.take_shared(kind),
        };
        // Release: a sweep that sees the entry sees its page's `visit`.
        // SAFETY: a slot lives as long as the census; a free slot is written only by the
        // owner that took it.
        unsafe { &*slot }.store(entry.cast_mut(), Ordering::Release);
        Seat(slot)
    }

    /// A free slot of the shared shard.
    #[cold]
    #[inline(never)]
    fn take_shared(&self, kind: Kind) -> *const Slot {
        let _owner = self.shared_owner.lock();
        // SAFETY: the lock makes this thread the shared shard's owner.
        unsafe { self.shared.take(kind) }
    }

    /// Takes `entry` out of its seat. Waits while a sweep is using it, and only then: an
    /// entry that is not in the seat (it left already) is left out, and the slot alone.
    pub(crate) fn leave(seat: Seat, entry: *const ()) {
        if seat.0.is_null() {
            return;
        }
        // SAFETY: a seat points into a page that outlives every entry in it.
        let slot = unsafe { &*seat.0 };
        let tagged = entry.cast_mut().map_addr(|a| a | TAG);
        let mut step = 0;
        while let Err(now) = slot.compare_exchange(
            entry.cast_mut(),
            ptr::null_mut(),
            Ordering::AcqRel,
            Ordering::Relaxed,
        ) {
            if now != tagged {
                // Not the entry: the slot is free, or another entry's. Nothing would ever
                // put this entry back, so waiting for it would be waiting for ever.
                return;
            }
            // A sweep holds the tag for the few instructions of one visit.
            backoff(&mut step);
        }
        // Any non-null pointer marks the page dirty for its owner's next scan.
        // SAFETY: as above.
        unsafe { page_of(seat.0) }
            .header
            .dirty
            .store(ptr::NonNull::dangling().as_ptr(), Ordering::Release);
    }

    /// Takes `entry` out of its seat for an actor freed without having stopped (after its
    /// system shut down, when no sweep runs any more). The same compare-and-swap as
    /// [`Census::leave`], and for the same reason: a seat that is stale by then (the slot
    /// free, or another actor's) must not take another entry out of the census. (Were a
    /// sweep still running, it would wait for the tag, as a leave does.)
    pub(crate) fn vacate(seat: Seat, entry: *const ()) {
        Census::leave(seat, entry);
    }

    /// Visits every live entry once; returns how many visits acted (returned `true`).
    pub(crate) fn sweep(&self) -> usize {
        let mut acted = 0;
        for shard in self.workers.iter().chain(std::iter::once(&self.shared)) {
            let chunks = shard.chunks.lock();
            for page in chunks.iter().flat_map(|c| c.iter()) {
                let f = page.header.visit.load(Ordering::Relaxed);
                // SAFETY: a page's `visit` is a `Visit`, written before any of its
                // entries (whose release store the acquire in `visit_slot` sees).
                let f: Visit = unsafe { std::mem::transmute::<*mut (), Visit>(f) };
                for slot in page.slots.iter() {
                    acted += usize::from(visit_slot(slot, f));
                }
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
                    .flat_map(|p| p.slots.iter())
                    .filter(|s| {
                        let entry = s.load(Ordering::Acquire);
                        !entry.is_null() && entry.addr() & FREE == 0
                    })
                    .count()
            })
            .sum()
    }
}

/// Visits one slot's entry with `f` if it is live; see the module documentation.
fn visit_slot(slot: &Slot, f: Visit) -> bool {
    let entry = slot.load(Ordering::Acquire);
    if entry.is_null() || entry.addr() & (TAG | FREE) != 0 {
        return false;
    }
    let tagged = entry.map_addr(|a| a | TAG);
    if slot
        .compare_exchange(entry, tagged, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return false;
    }
    // SAFETY: the tag keeps the entry from leaving, and so from being freed, until it is
    // taken off below; `enter`'s caller promised `f` is safe with it until then.
    let acted = unsafe { f(entry) };
    // Only the holder of the tag changes a tagged slot.
    slot.store(entry, Ordering::Release);
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

    unsafe fn count_too(_: *const ()) -> bool {
        VISITS.fetch_add(2, std::sync::atomic::Ordering::SeqCst);
        false
    }

    /// The two entry types of the tests.
    struct Counted;
    struct CountedToo;

    fn counted() -> Kind {
        Kind::of::<Counted>(count)
    }

    #[test]
    fn entries_are_visited_until_they_leave_and_slots_are_reused() {
        let census = Census::new(1);
        let entries: Vec<Box<u64>> = (0..1000).map(Box::new).collect();
        let ptrs: Vec<*const ()> = entries.iter().map(|e| ptr::from_ref(&**e).cast()).collect();
        // SAFETY: this thread plays worker 0; the entries outlive their seats.
        let seats: Vec<Seat> = ptrs
            .iter()
            .map(|&p| unsafe { census.enter(Some(0), p, counted()) })
            .collect();
        assert_eq!(census.live(), 1000);
        assert_eq!(census.sweep(), 1000);
        for (seat, p) in seats.iter().zip(&ptrs).skip(1) {
            Census::leave(*seat, *p);
        }
        assert_eq!(census.live(), 1);
        assert_eq!(census.sweep(), 1);
        let chunks = census.workers[0].chunks.lock().len();
        // A second actor type gets pages of its own.
        // SAFETY: as above.
        let other = unsafe { census.enter(Some(0), ptrs[0], Kind::of::<CountedToo>(count_too)) };
        assert_eq!(census.workers[0].chunks.lock().len(), chunks + 1);
        Census::leave(other, ptrs[0]);
        let chunks = chunks + 1;
        // SAFETY: as above.
        for &p in &ptrs[1..] {
            let _ = unsafe { census.enter(Some(0), p, counted()) };
        }
        assert_eq!(
            census.workers[0].chunks.lock().len(),
            chunks,
            "freed slots are found and used again"
        );
        // Entering and leaving over and over reuses the freed slots.
        for _ in 0..100_000 {
            // SAFETY: as above.
            let seat = unsafe { census.enter(Some(0), ptrs[0], counted()) };
            Census::leave(seat, ptrs[0]);
        }
        assert!(
            census.workers[0].chunks.lock().len() <= chunks + 1,
            "a quarter of the slots free is enough"
        );
        // The shared shard, from a thread that is no pool worker.
        // SAFETY: the entry outlives the census.
        let seat = unsafe { census.enter(None, ptrs[0], counted()) };
        assert_eq!(census.live(), 1001);
        Census::leave(seat, ptrs[0]);
        assert_eq!(census.live(), 1000);
    }
    /// Another function with the same body, as an optimised build may make of one visit.
    unsafe fn count_copy(_: *const ()) -> bool {
        VISITS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        true
    }

    #[test]
    fn a_type_has_one_lane_whatever_its_visit_address() {
        let census = Census::new(1);
        let entries: Vec<Box<u64>> = (0..2).map(Box::new).collect();
        let p = |i: usize| ptr::from_ref(&*entries[i]).cast::<()>();
        // SAFETY: this thread plays worker 0; the entries outlive their seats.
        let first = unsafe { census.enter(Some(0), p(0), counted()) };
        let chunks = census.workers[0].chunks.lock().len();
        // SAFETY: as above.
        let second = unsafe { census.enter(Some(0), p(1), Kind::of::<Counted>(count_copy)) };
        assert_eq!(
            census.workers[0].chunks.lock().len(),
            chunks,
            "the same type, with its visit at another address, shares the lane's page"
        );
        assert_eq!(census.live(), 2);
        Census::leave(first, p(0));
        Census::leave(second, p(1));
        assert_eq!(census.live(), 0);
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
        a_current_seat_racing_a_sweep(Census::leave);
    }

    /// The same with an actor freed unstopped, which vacates its own, current seat.
    #[test]
    fn a_vacate_racing_a_sweep() {
        a_current_seat_racing_a_sweep(Census::vacate);
    }

    /// The model of the two tests above: `take_out` is a leave or a vacate.
    fn a_current_seat_racing_a_sweep(take_out: fn(Seat, *const ())) {
        loom::model(move || {
            let census = Arc::new(Census::new(1));
            let entry = Arc::new(Entry {
                freed: AtomicBool::new(false),
            });
            let p = Arc::as_ptr(&entry).cast::<()>();
            // SAFETY: this thread plays worker 0; the entry outlives its seat.
            let seat = unsafe { census.enter(Some(0), p, Kind::of::<Entry>(check_alive)) };
            let sweeper = {
                let census = Arc::clone(&census);
                thread::spawn(move || census.sweep())
            };
            take_out(seat, p);
            entry.freed.store(true, LoomOrdering::SeqCst);
            let acted = sweeper.join().unwrap();
            assert!(acted <= 1);
            assert_eq!(census.live(), 0);
        });
    }

    /// An actor restarted in place leaves the census, and its slot goes to another entry;
    /// then the actor is stopped before its next turn entered it again, and leaves from its
    /// old seat, racing a sweep. The stale leave returns (it used to wait for ever for its
    /// entry to come back), and leaves the other entry in the census.
    #[test]
    fn a_stale_leave_racing_a_sweep() {
        a_stale_seat_racing_a_sweep(Census::leave);
    }

    /// The same with the actor freed unstopped, which vacates its stale seat: it leaves
    /// the other entry in the census (a plain store of null used to empty its slot).
    /// (A vacate comes after the shutdown, when no sweep runs; the model races one all the
    /// same, which a compare-and-swap makes harmless.)
    #[test]
    fn a_stale_vacate_racing_a_sweep() {
        a_stale_seat_racing_a_sweep(Census::vacate);
    }

    /// The model of the two tests above: `take_out` is a leave or a vacate.
    fn a_stale_seat_racing_a_sweep(take_out: fn(Seat, *const ())) {
        loom::model(move || {
            let census = Arc::new(Census::new(1));
            let entries: Vec<Arc<Entry>> = (0..3)
                .map(|_| {
                    Arc::new(Entry {
                        freed: AtomicBool::new(false),
                    })
                })
                .collect();
            let p = |i: usize| Arc::as_ptr(&entries[i]).cast::<()>();
            let kind = Kind::of::<Entry>(check_alive);
            // SAFETY: this thread plays worker 0; the entries outlive their seats.
            let (restarted, other) = unsafe {
                (
                    census.enter(Some(0), p(0), kind),
                    census.enter(Some(0), p(1), kind),
                )
            };
            // The restart: out of the census until the next turn.
            Census::leave(restarted, p(0));
            // The page is full, so this entry gets the slot the restarted one left.
            // SAFETY: as above.
            let reused = unsafe { census.enter(Some(0), p(2), kind) };
            assert_eq!(
                reused.as_ptr(),
                restarted.as_ptr(),
                "the model reuses the slot"
            );
            let sweeper = {
                let census = Arc::clone(&census);
                thread::spawn(move || census.sweep())
            };
            // The stop (or the free) of the restarted actor, before its next turn.
            take_out(restarted, p(0));
            entries[0].freed.store(true, LoomOrdering::SeqCst);
            let acted = sweeper.join().unwrap();
            assert_eq!(acted, 2, "the sweep visits the two entries in the census");
            assert_eq!(census.live(), 2, "the stale seat took nothing out");
            Census::leave(other, p(1));
            Census::leave(reused, p(2));
            assert_eq!(census.live(), 0);
        });
    }
}
