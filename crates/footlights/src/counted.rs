//! Counted references to an `Arc` (a system's shared state) whose counts a worker thread
//! takes and gives back in bulk.
//!
//! # Why
//!
//! Every actor cell holds a counted reference to its system's shared state
//! ([`crate::runtime::Shared`]): a spawn increments the `Arc`'s count and the cell's drop
//! decrements it. On one worker that is an atomic operation on a cache line that stays in
//! the core's cache. On two workers that spawn and free actors at the same time (a tree of
//! spawns: skynet, spreading, fibtree), the line moved between the cores on almost every
//! spawn and every free, and two workers running in parallel took twice the CPU time of
//! one for the same tree: the `lock decq` of the cell's drop and the `lock incq` of the
//! spawn took a fifth of the samples, against under a twentieth on one core
//! (`docs/experiments/2026-11-27-trees-second-mode.md`).
//!
//! # The algorithm
//!
//! A worker thread keeps a *stock* of strong counts of one `Arc` ([`Stock::install`], for
//! as long as its loop runs; a thread-local pointer, with a constant initialiser and no
//! destructor, so one load from the thread's block finds it).
//!
//! * [`Counted::new`] on that thread takes a count from the stock: no atomic operation.
//!   When the stock is empty, it takes [`BATCH`] counts at once (`BATCH` increments in a
//!   row, on a line that then stays in this core's cache for all of them).
//! * A [`Counted`] dropped on that thread gives its count to the stock; a stock that grows
//!   past `2 × BATCH` gives `BATCH` counts back (the stock keeps more than `BATCH`, so none
//!   of these decrements can be the last). Both of these bulk steps are out of line: the
//!   common case is a load of the thread-local, two compares and a store.
//! * When the loop ends, the guard gives back the whole stock, one decrement a count; the
//!   last one frees the shared state if nothing else holds it, as a plain `Arc` would.
//!
//! Every count, in a stock or held by a `Counted`, is a strong count of the `Arc`: the
//! shared state lives exactly as long as some count of it does, as with plain clones. The
//! stock changes only which thread makes the atomic operations, and when. A thread without
//! a stock (one outside the runtime, such as a program's main thread), or a `Counted` of
//! another `Arc` than the one the stock holds counts of (a second system), takes and drops
//! its count one at a time, as `Arc::clone` and `drop` do. An empty stock takes up the
//! `Arc` of the next `Counted` made or dropped on its thread.
//!
//! Under loom no thread installs a stock: every count is a plain `Arc` count.

use std::cell::Cell;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::ptr;
use std::sync::Arc;

/// How many counts a worker takes at once, and gives back at once.
pub(crate) const BATCH: usize = 64;

/// A counted reference to the `Arc<T>`: a strong count, taken from this thread's stock if
/// it keeps one (see the module documentation).
pub(crate) struct Counted<T: Send + Sync + 'static>(ManuallyDrop<Arc<T>>);

impl<T: Send + Sync + 'static> Counted<T> {
    /// A new counted reference to `arc`'s value.
    #[inline]
    pub(crate) fn new(arc: &Arc<T>) -> Self {
        let p = Arc::as_ptr(arc);
        if !take(p) {
            // SAFETY: `p` is the value of the live `Arc` borrowed as `arc`.
            unsafe { Arc::increment_strong_count(p) };
        }
        // SAFETY: one strong count of the `Arc` whose value is at `p` is this reference's:
        // moved from this thread's stock by `take`, or made just above. It is given back (to
        // a stock, or to the `Arc`) when the reference is dropped.
        Counted(ManuallyDrop::new(unsafe { Arc::from_raw(p) }))
    }
}

impl<T: Send + Sync + 'static> Deref for Counted<T> {
    type Target = Arc<T>;

    #[inline(always)]
    fn deref(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T: Send + Sync + 'static> Drop for Counted<T> {
    #[inline]
    fn drop(&mut self) {
        if !put(Arc::as_ptr(&self.0)) {
            // SAFETY: the reference's count is dropped once, here; the `Arc` is not used
            // after.
            unsafe { ManuallyDrop::drop(&mut self.0) }
        }
    }
}

/// A worker thread's stock of strong counts of one `Arc`.
pub(crate) struct Stock {
    /// The value of the `Arc` the counts are of (null until the stock takes one up).
    of: Cell<*const ()>,
    /// How many counts the stock holds.
    count: Cell<usize>,
    /// Gives back `n` counts of `of` (the `Arc`'s type is known where the stock took it up).
    give_back: Cell<unsafe fn(*const (), usize)>,
}

thread_local! {
    /// The stock of the worker running on this thread, or null.
    static STOCK: Cell<*const Stock> = const { Cell::new(ptr::null()) };
}

/// Gives back `n` strong counts of the `Arc<T>` whose value is at `p`.
///
/// # Safety
/// The caller holds those `n` counts, and gives them up.
unsafe fn give_back<T>(p: *const (), n: usize) {
    for _ in 0..n {
        // SAFETY: one of the caller's counts of this `Arc`, so at least one is alive.
        unsafe { Arc::decrement_strong_count(p.cast::<T>()) };
    }
}

/// The calling thread's stock, if it keeps one.
#[inline(always)]
fn stock<'a>() -> Option<&'a Stock> {
    // SAFETY: a non-null pointer is the stock its guard installed on this thread, alive
    // until the guard takes the pointer back (see `Installed`), which no caller outlasts:
    // the reference is used within the calling function only.
    unsafe { STOCK.get().as_ref() }
}

/// Takes one count of the `Arc` whose value is at `p` from the calling thread's stock;
/// `false` if the thread keeps no stock, or a stock of another `Arc`. The caller holds a
/// count of that `Arc` (it borrows an `Arc` to it).
#[inline(always)]
fn take<T: Send + Sync + 'static>(p: *const T) -> bool {
    let Some(stock) = stock() else {
        return false;
    };
    let n = stock.count.get();
    if n > 0 && ptr::eq(stock.of.get(), p.cast()) {
        stock.count.set(n - 1);
        return true;
    }
    refill(stock, p)
}

/// Fills an empty stock with [`BATCH`] counts of the `Arc` whose value is at `p`, and takes
/// one of them; `false` if the stock holds counts of another `Arc`.
#[cold]
#[inline(never)]
fn refill<T: Send + Sync + 'static>(stock: &Stock, p: *const T) -> bool {
    if stock.count.get() > 0 {
        return false;
    }
    for _ in 0..BATCH {
        // SAFETY: `p` is the value of a live `Arc` (the caller of `take` holds a count).
        unsafe { Arc::increment_strong_count(p) };
    }
    stock.of.set(p.cast());
    stock.give_back.set(give_back::<T>);
    stock.count.set(BATCH - 1);
    true
}

/// Gives the count of a dropped [`Counted`] of the `Arc` whose value is at `p` to the
/// calling thread's stock; `false` if the thread keeps no stock, or a stock of another
/// `Arc` (the caller then drops the count itself).
#[inline(always)]
fn put<T: Send + Sync + 'static>(p: *const T) -> bool {
    let Some(stock) = stock() else {
        return false;
    };
    let n = stock.count.get();
    if n < 2 * BATCH && ptr::eq(stock.of.get(), p.cast()) {
        stock.count.set(n + 1);
        return true;
    }
    put_more(stock, p)
}

/// [`put`] into a full stock (which gives [`BATCH`] counts back first), or into a stock of
/// another `Arc` (which takes up this one if it is empty).
#[cold]
#[inline(never)]
fn put_more<T: Send + Sync + 'static>(stock: &Stock, p: *const T) -> bool {
    let n = stock.count.get();
    if !ptr::eq(stock.of.get(), p.cast()) {
        if n > 0 {
            return false;
        }
        stock.of.set(p.cast());
        stock.give_back.set(give_back::<T>);
        stock.count.set(1);
        return true;
    }
    // SAFETY: `BATCH` of the stock's counts; with the one put here it keeps
    // `n + 1 - BATCH = BATCH + 1` more, so none of these decrements is the last.
    unsafe { give_back::<T>(p.cast(), BATCH) };
    stock.count.set(n + 1 - BATCH);
    true
}

/// While alive, the calling thread keeps a stock of counts (see [`Stock::install`]).
// Under loom no worker installs a stock (see the module documentation); the unit tests
// still do.
#[cfg_attr(loom, allow(dead_code))]
pub(crate) struct Installed {
    stock: Option<Box<Stock>>,
}

impl Stock {
    /// Makes the calling thread keep a stock of counts until the guard is dropped, which
    /// gives them back. A thread that keeps a stock already goes on with it (the guard
    /// does nothing).
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) fn install() -> Installed {
        if stock().is_some() {
            return Installed { stock: None };
        }
        let stock = Box::new(Stock {
            of: Cell::new(ptr::null()),
            count: Cell::new(0),
            give_back: Cell::new(give_back::<()>),
        });
        STOCK.set(&*stock);
        Installed { stock: Some(stock) }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let Some(stock) = self.stock.take() else {
            return;
        };
        // First: what the last count frees may drop more counts, which then go to their
        // `Arc` directly.
        STOCK.set(ptr::null());
        let n = stock.count.get();
        if n > 0 {
            // SAFETY: the stock's counts of `of`, taken up with this `give_back`, given up
            // here once.
            unsafe { (stock.give_back.get())(stock.of.get(), n) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts its drops.
    struct Value(Arc<std::sync::atomic::AtomicUsize>);

    impl Drop for Value {
        fn drop(&mut self) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    fn value() -> (Arc<Value>, Arc<std::sync::atomic::AtomicUsize>) {
        let drops = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        (Arc::new(Value(Arc::clone(&drops))), drops)
    }

    #[test]
    fn without_a_stock_a_reference_is_a_plain_count() {
        let (arc, _) = value();
        let counted = Counted::new(&arc);
        assert_eq!(Arc::strong_count(&arc), 2);
        assert!(Arc::ptr_eq(&counted, &arc));
        drop(counted);
        assert_eq!(Arc::strong_count(&arc), 1);
    }

    #[test]
    fn a_stock_takes_counts_in_batches_and_keeps_the_value_alive_until_it_gives_them_back() {
        let (arc, drops) = value();
        let guard = Stock::install();
        let first = Counted::new(&arc);
        // The first reference took a batch: one count for it, the rest in stock.
        assert_eq!(Arc::strong_count(&arc), 1 + BATCH);
        let more: Vec<_> = (1..BATCH).map(|_| Counted::new(&arc)).collect();
        assert_eq!(Arc::strong_count(&arc), 1 + BATCH);
        // The stock is empty: the next one takes another batch.
        let one_more = Counted::new(&arc);
        assert_eq!(Arc::strong_count(&arc), 1 + 2 * BATCH);
        drop(more);
        drop(one_more);
        drop(first);
        // Every count went back to the stock; none to the `Arc`.
        assert_eq!(Arc::strong_count(&arc), 1 + 2 * BATCH);
        // The value outlives every other holder while the stock keeps counts of it.
        drop(arc);
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 0);
        drop(guard);
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_stock_gives_a_batch_back_once_it_holds_more_than_two() {
        let (arc, _) = value();
        let _guard = Stock::install();
        let refs: Vec<_> = (0..3 * BATCH).map(|_| Counted::new(&arc)).collect();
        assert_eq!(Arc::strong_count(&arc), 1 + 3 * BATCH);
        drop(refs);
        // 3 batches back in stock: one went back to the `Arc` when the stock passed two.
        assert_eq!(Arc::strong_count(&arc), 1 + 2 * BATCH);
    }

    #[test]
    fn references_dropped_on_another_thread_or_of_another_arc_are_plain_counts() {
        let (a, _) = value();
        let (b, _) = value();
        let _guard = Stock::install();
        let on_a = Counted::new(&a);
        // The stock holds counts of `a`: a reference to `b` is a plain count.
        let on_b = Counted::new(&b);
        assert_eq!(Arc::strong_count(&b), 2);
        drop(on_b);
        assert_eq!(Arc::strong_count(&b), 1);
        // Dropped on a thread without a stock: straight back to the `Arc`.
        std::thread::spawn(move || drop(on_a)).join().unwrap();
        assert_eq!(Arc::strong_count(&a), BATCH);
    }

    #[test]
    fn a_thread_that_only_drops_references_stocks_their_counts() {
        let (arc, drops) = value();
        // Made on a thread without a stock: plain counts.
        let refs: Vec<_> = (0..BATCH).map(|_| Counted::new(&arc)).collect();
        let guard = Stock::install();
        drop(refs);
        // The empty stock took up the `Arc` and keeps the counts.
        assert_eq!(Arc::strong_count(&arc), 1 + BATCH);
        drop(arc);
        drop(guard);
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
