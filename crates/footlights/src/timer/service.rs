//! The timer service: one per system, one thread, one wheel.
//!
//! # What runs where
//!
//! Every timer of a system waits in one [`Wheel`] under one mutex. One thread, started by
//! the first timer a system sets (a system that sets none has no such thread), sleeps on
//! a condition variable until the wheel's next tick, fires what is due, and sleeps again.
//! Whoever sets a timer due before the tick the thread sleeps until wakes it, so that it
//! sleeps until the new, earlier tick. With nothing due, the thread is blocked in the
//! kernel: an idle system with pending timers uses no CPU until the next one is due,
//! however many are pending.
//!
//! Firing a timer runs its action on this thread, outside the lock: an actor's timer
//! sends its message through the actor's address, as any thread outside the runtime
//! would (it joins the shared injector and wakes a worker if one is parked). An action
//! that panics ends its own timer (a periodic one is not put back) and no other. The wheel's
//! lock is held only to insert, cancel, and hand out what is due.
//!
//! # Why a thread of its own
//!
//! The alternative is to let the workers drive the wheel: the last worker to park sleeps
//! until the next deadline instead of for good, and a busy worker looks at the clock
//! between turns. That saves one thread and, on an idle system, one wake-up per timer
//! (the timer thread's, before the worker's). It costs every worker a clock read, or at
//! least a load, in its loop, whether or not the system has timers; it ties firing to
//! turns ending (a handler that runs for a second delays every timer of a system whose
//! workers are all busy); and it adds a second reason to wake to the parking protocol
//! (`scheduler/park.rs`), whose no-lost-wake-up argument would have to cover "an earlier
//! deadline was set while the driver slept". A thread of its own keeps the scheduler and
//! the per-message path exactly as they are (an actor that uses no timers pays nothing,
//! and a system that uses none has no timer thread), fires on time whatever the workers
//! are doing, and a message it sends waits only for a worker to take it. The cost is one
//! thread per system that uses timers, and one more wake-up per fire on an idle system:
//! `docs/experiments/2026-11-23-timers.md` has the lateness this gives.
//!
//! # Cancelling against firing
//!
//! Both happen under the wheel's lock, so exactly one of them takes a one-shot timer's
//! action: the thread removes a due timer from the wheel before it fires it (a cancel
//! after that finds nothing and returns `false`), and a cancel removes a pending timer (the
//! thread never sees it). A periodic timer stays in the wheel while it fires, its action
//! lent to the thread: a cancel then marks it, and the thread, taking the lock again to
//! put the action back, drops it instead. So after a cancel that returned `true`, a
//! one-shot timer never fires, and a periodic one fires no more (beyond a firing already
//! under way when the cancel came). Actions are dropped outside the lock, since dropping a
//! message may cancel other timers.
//!
//! # Time
//!
//! A tick is a millisecond ([`RESOLUTION`]) since the service was made. A deadline is
//! rounded up to its tick, and the thread fires a tick's timers once the clock has passed
//! the tick's start, so a timer never fires before its deadline, and is late by the
//! rounding (under a millisecond) plus the wake-up. A periodic timer keeps its own
//! deadlines in nanoseconds, one period apart, so its rate does not drift with the
//! rounding; a firing missed by more than a period is skipped, not made up in a burst.

// The models fire by hand, and only their tests do: the thread's parts go unused there.
#![cfg_attr(any(loom, shuttle), allow(dead_code))]

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[cfg(not(any(loom, shuttle)))]
use parking_lot::{Condvar, MutexGuard};

use crate::sync::Mutex;

use super::wheel::{Key, Wheel};

/// The length of a tick: timers fire at most this much after their deadline, plus the
/// time it takes to wake a thread.
pub const RESOLUTION: Duration = Duration::from_millis(1);
const NANOS_PER_TICK: u64 = 1_000_000;

/// What a one-shot timer does when it fires.
pub(crate) type Once = Box<dyn FnOnce() + Send>;
/// What a periodic timer does each time it fires; `false` ends it (its target is gone).
pub(crate) type Every = Box<dyn FnMut() -> bool + Send>;

/// A timer in the wheel.
struct Timer {
    kind: Kind,
    /// A cancel came while the thread was firing it (periodic timers only).
    cancelled: bool,
}

enum Kind {
    /// `None` while the thread fires it (it has left the wheel by then).
    Once(Option<Once>),
    /// `action` is `None` while the thread fires it. `due` is the deadline in nanoseconds
    /// since the service's origin.
    Every {
        period: u64,
        due: u64,
        action: Option<Every>,
    },
}

/// What the thread took out of the wheel to fire.
enum Firing {
    Once(Once),
    Every(Key, Every),
}

/// The service's shared part: what the thread and the handles reach.
pub(crate) struct Inner {
    origin: Instant,
    state: Mutex<State>,
    /// Wakes the thread (the models have no thread: they fire by hand).
    #[cfg(not(any(loom, shuttle)))]
    wake: Condvar,
}

struct State {
    wheel: Wheel<Timer>,
    /// The tick the thread sleeps until (`u64::MAX`: until woken); `None` while it is
    /// awake (or not started), when it will look at the wheel before it sleeps again.
    sleeping_until: Option<u64>,
    started: bool,
    shut: bool,
}

/// A system's timer service; see the module documentation.
pub(crate) struct TimerService {
    inner: Arc<Inner>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// A timer's name outside the wheel: the service (weakly: a handle does not keep a
/// system's timers alive) and the wheel's key.
#[derive(Clone, Debug)]
pub(crate) struct TimerRef {
    inner: Weak<Inner>,
    key: Option<Key>,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TimerService")
    }
}

impl TimerService {
    /// A service with no timers and no thread yet.
    pub(crate) fn new() -> Self {
        TimerService {
            inner: Arc::new(Inner {
                origin: Instant::now(),
                state: Mutex::new(State {
                    wheel: Wheel::new(),
                    sleeping_until: None,
                    started: false,
                    shut: false,
                }),
                #[cfg(not(any(loom, shuttle)))]
                wake: Condvar::new(),
            }),
            thread: Mutex::new(None),
        }
    }

    /// Runs `action` once, `delay` from now (at once on this thread if `delay` is zero).
    /// After [`TimerService::shut_down`], drops it instead.
    pub(crate) fn once(&self, delay: Duration, action: Once) -> TimerRef {
        if delay.is_zero() {
            action();
            return self.gone();
        }
        let due = self.inner.nanos_at(delay);
        self.insert(ticks_up(due), Kind::Once(Some(action)))
    }

    /// Runs `action` every `period` (at least [`RESOLUTION`]), the first time one period
    /// from now, until it returns `false` or is cancelled. After
    /// [`TimerService::shut_down`], drops it instead.
    pub(crate) fn every(&self, period: Duration, action: Every) -> TimerRef {
        let period = period.max(RESOLUTION);
        let period = u64::try_from(period.as_nanos()).unwrap_or(u64::MAX);
        let due = self.inner.nanos_at(Duration::from_nanos(period));
        self.insert(
            ticks_up(due),
            Kind::Every {
                period,
                due,
                action: Some(action),
            },
        )
    }

    fn insert(&self, tick: u64, kind: Kind) -> TimerRef {
        let mut state = self.inner.state.lock();
        if state.shut {
            drop(state);
            drop(kind);
            return self.gone();
        }
        let key = state.wheel.insert(
            tick,
            Timer {
                kind,
                cancelled: false,
            },
        );
        let start = !state.started;
        state.started = true;
        if state.sleeping_until.is_some_and(|t| tick < t) {
            // The thread sleeps past this timer: it looks again, and sleeps less.
            state.sleeping_until = None;
            #[cfg(not(any(loom, shuttle)))]
            self.inner.wake.notify_one();
        }
        drop(state);
        if start {
            self.start_thread();
        }
        TimerRef {
            inner: Arc::downgrade(&self.inner),
            key: Some(key),
        }
    }

    /// A reference to no timer (one that already fired, or was dropped).
    fn gone(&self) -> TimerRef {
        TimerRef {
            inner: Arc::downgrade(&self.inner),
            key: None,
        }
    }

    /// The models drive the service by hand ([`Inner::fire_due`]): no thread.
    #[cfg(any(loom, shuttle))]
    fn start_thread(&self) {}

    #[cfg(not(any(loom, shuttle)))]
    #[cold]
    fn start_thread(&self) {
        let inner = Arc::clone(&self.inner);
        let thread = std::thread::Builder::new()
            .name("footlights-timers".to_owned())
            .spawn(move || inner.run())
            // Like the workers: a system whose threads cannot start cannot keep its
            // promises; this happens only when the process is out of threads or memory.
            .expect("the timer thread starts");
        *self.thread.lock() = Some(thread);
    }

    /// How many timers are pending (or firing).
    pub(crate) fn pending(&self) -> usize {
        self.inner.state.lock().wheel.len()
    }

    /// Drops every pending timer and stops the thread; timers set afterwards are dropped.
    /// Call from outside the timer thread.
    pub(crate) fn shut_down(&self) {
        let old = {
            let mut state = self.inner.state.lock();
            state.shut = true;
            #[cfg(not(any(loom, shuttle)))]
            self.inner.wake.notify_one();
            std::mem::replace(&mut state.wheel, Wheel::new())
        };
        // The actions hold actors' addresses and messages: drop them outside the lock.
        drop(old);
        if let Some(thread) = self.thread.lock().take() {
            if thread.thread().id() != std::thread::current().id() {
                // The thread never panics: the actions catch their own panics, and
                // `fire` catches any that escapes.
                let _ = thread.join();
            }
        }
    }
}

impl Drop for TimerService {
    fn drop(&mut self) {
        self.shut_down();
    }
}

impl Inner {
    /// Nanoseconds from the origin to `delay` from now (saturating: far enough is never).
    fn nanos_at(&self, delay: Duration) -> u64 {
        let since = self.origin.elapsed().saturating_add(delay);
        u64::try_from(since.as_nanos()).unwrap_or(u64::MAX)
    }

    /// The tick the clock is in.
    #[cfg(not(any(loom, shuttle)))]
    fn now_tick(&self) -> u64 {
        let since = u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX);
        since / NANOS_PER_TICK
    }

    /// The timer thread: fire what is due, sleep until the next tick, repeat.
    #[cfg(not(any(loom, shuttle)))]
    fn run(self: Arc<Self>) {
        let mut state = self.state.raw().lock();
        while !state.shut {
            let now = self.now_tick();
            let firing = take_all_due(&mut state.wheel, now);
            if !firing.is_empty() {
                MutexGuard::unlocked(&mut state, || self.fire(firing));
                continue;
            }
            let next = state.wheel.next_tick().unwrap_or(u64::MAX);
            state.sleeping_until = Some(next);
            if next == u64::MAX {
                self.wake.wait(&mut state);
            } else {
                let at = self
                    .origin
                    .checked_add(Duration::from_nanos(next.saturating_mul(NANOS_PER_TICK)));
                match at {
                    Some(at) => {
                        self.wake.wait_until(&mut state, at);
                    }
                    None => self.wake.wait(&mut state),
                }
            }
            state.sleeping_until = None;
        }
    }

    /// One step of the thread, for the models: takes out and fires what is due at tick
    /// `now`.
    #[cfg(any(loom, shuttle))]
    pub(crate) fn fire_due(&self, now: u64) {
        let firing = {
            let mut state = self.state.lock();
            take_all_due(&mut state.wheel, now)
        };
        self.fire(firing);
    }

    /// Fires what the thread took out of the wheel, with no lock held, then puts the
    /// periodic timers that go on back in (under the lock again).
    fn fire(&self, firing: Vec<Firing>) {
        let mut again = Vec::new();
        for f in firing {
            // An action catches and reports the panics of the user code it runs
            // (`crate::actor::timers`); one that escapes all the same ends that timer
            // and no other: the thread serves every timer of the system.
            match f {
                Firing::Once(action) => {
                    crate::trace::timer_fired(false);
                    let _ = panic::catch_unwind(AssertUnwindSafe(action));
                }
                Firing::Every(key, mut action) => {
                    crate::trace::timer_fired(true);
                    let go_on = panic::catch_unwind(AssertUnwindSafe(&mut action));
                    again.push((key, action, go_on.unwrap_or(false)));
                }
            }
        }
        if again.is_empty() {
            return;
        }
        let now = u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let mut ended = Vec::new();
        {
            let mut state = self.state.lock();
            for (key, action, go_on) in again {
                let Some(timer) = state.wheel.get_mut(key) else {
                    // Shut down meanwhile (the wheel was replaced).
                    ended.push(action);
                    continue;
                };
                let Kind::Every {
                    period,
                    due,
                    action: slot,
                } = &mut timer.kind
                else {
                    unreachable!("a periodic timer stays periodic");
                };
                if !go_on || timer.cancelled {
                    ended.push(action);
                    state.wheel.remove(key);
                    continue;
                }
                // The next deadline one period on, skipping any the thread missed.
                let behind = now.saturating_sub(*due);
                *due = due.saturating_add(period.saturating_mul(behind / *period + 1));
                *slot = Some(action);
                let tick = ticks_up(*due);
                state.wheel.reinsert(key, tick);
            }
        }
        // Actions hold addresses and messages: dropped with no lock held.
        drop(ended);
    }
}

/// Takes every timer due at or before tick `now` out of the wheel (see [`take_due`]).
fn take_all_due(wheel: &mut Wheel<Timer>, now: u64) -> Vec<Firing> {
    let mut firing = Vec::new();
    while let Some(key) = wheel.poll(now) {
        firing.push(take_due(wheel, key));
    }
    firing
}

/// Takes a due timer's action out of the wheel: a one-shot timer leaves it, a periodic one
/// stays (unlinked) with its action lent out.
fn take_due(wheel: &mut Wheel<Timer>, key: Key) -> Firing {
    let timer = wheel
        .get_mut(key)
        .expect("a timer handed out is in the wheel");
    match &mut timer.kind {
        Kind::Once(_) => match wheel.remove(key).map(|t| t.kind) {
            Some(Kind::Once(Some(action))) => Firing::Once(action),
            _ => unreachable!("a one-shot timer in the wheel has its action"),
        },
        Kind::Every { action, .. } => Firing::Every(
            key,
            action
                .take()
                .expect("a pending periodic timer has its action"),
        ),
    }
}

/// The tick a deadline in nanoseconds falls due in: rounded up, so never early.
fn ticks_up(nanos: u64) -> u64 {
    nanos.div_ceil(NANOS_PER_TICK)
}

impl TimerRef {
    /// Cancels the timer: `true` if this call stopped it from firing (a one-shot timer
    /// that had not fired; a periodic timer that had not ended, which then fires no more).
    pub(crate) fn cancel(&self) -> bool {
        let (Some(key), Some(inner)) = (self.key, self.inner.upgrade()) else {
            return false;
        };
        let mut state = inner.state.lock();
        let Some(timer) = state.wheel.get_mut(key) else {
            return false;
        };
        if timer.cancelled {
            return false;
        }
        if let Kind::Every { action: None, .. } = timer.kind {
            // Firing right now: the thread drops it when it takes the lock again.
            timer.cancelled = true;
            return true;
        }
        let removed = state.wheel.remove(key);
        drop(state);
        drop(removed);
        true
    }

    /// Whether the timer is still pending: it may still fire.
    pub(crate) fn is_pending(&self) -> bool {
        let (Some(key), Some(inner)) = (self.key, self.inner.upgrade()) else {
            return false;
        };
        let state = inner.state.lock();
        state.wheel.get(key).is_some_and(|t| !t.cancelled)
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use shuttle::sync::atomic::{AtomicUsize, Ordering};
    use shuttle::thread;

    /// Far enough past every timer set here: all are due.
    const LATER: u64 = 1_000_000;

    /// A cancel racing the thread firing a one-shot timer and a periodic one: exactly
    /// one of them takes the one-shot timer's action, and a periodic timer whose cancel
    /// returned `true` fires no more (beyond the firing under way).
    #[test]
    fn a_cancel_racing_the_firing_takes_the_timer_once() {
        crate::sync::explore("a_cancel_racing_the_firing_takes_the_timer_once", || {
            let service = TimerService::new();
            let (once, every) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
            let one = {
                let once = Arc::clone(&once);
                service.once(
                    Duration::from_millis(1),
                    Box::new(move || {
                        once.fetch_add(1, Ordering::SeqCst);
                    }),
                )
            };
            let periodic = {
                let every = Arc::clone(&every);
                service.every(
                    Duration::from_millis(1),
                    Box::new(move || {
                        every.fetch_add(1, Ordering::SeqCst);
                        true
                    }),
                )
            };
            let inner = Arc::clone(&service.inner);
            let firing = thread::spawn(move || {
                inner.fire_due(LATER);
                inner.fire_due(2 * LATER);
            });
            let cancelled_once = one.cancel();
            let cancelled_every = periodic.cancel();
            let fired_at_cancel = every.load(Ordering::SeqCst);
            firing.join().unwrap();
            assert_eq!(
                once.load(Ordering::SeqCst) + usize::from(cancelled_once),
                1,
                "a one-shot timer fired and was cancelled, or neither"
            );
            assert!(cancelled_every, "a running periodic timer is cancelled");
            service.inner.fire_due(3 * LATER);
            assert!(
                every.load(Ordering::SeqCst) <= fired_at_cancel + 1,
                "a cancelled periodic timer fired on"
            );
            assert_eq!(service.pending(), 0, "nothing is left in the wheel");
        });
    }

    /// Counts the drops of what a timer's action holds (an actor's address, a message).
    struct Held(Arc<AtomicUsize>);

    impl Drop for Held {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// A shutdown races the thread firing a periodic timer (its action lent out) and a
    /// one-shot one, while a third timer is set: every action is dropped exactly once
    /// (the periodic one by the thread, which finds the wheel replaced, instead of being
    /// put back), a timer set after the shutdown is dropped at once, and nothing stays
    /// in the wheel.
    #[test]
    fn a_shutdown_racing_a_firing_drops_every_timer_once() {
        crate::sync::explore("a_shutdown_racing_a_firing_drops_every_timer_once", || {
            let service = Arc::new(TimerService::new());
            let dropped = Arc::new(AtomicUsize::new(0));
            let fired = Arc::new(AtomicUsize::new(0));
            let periodic = {
                let (held, fired) = (Held(Arc::clone(&dropped)), Arc::clone(&fired));
                service.every(
                    Duration::from_millis(1),
                    Box::new(move || {
                        let _ = &held;
                        fired.fetch_add(1, Ordering::SeqCst);
                        true
                    }),
                )
            };
            let once = {
                let (held, fired) = (Held(Arc::clone(&dropped)), Arc::clone(&fired));
                service.once(
                    Duration::from_millis(1),
                    Box::new(move || {
                        drop(held);
                        fired.fetch_add(1, Ordering::SeqCst);
                    }),
                )
            };
            let inner = Arc::clone(&service.inner);
            let firing = thread::spawn(move || inner.fire_due(LATER));
            let setter = {
                let (service, held) = (Arc::clone(&service), Held(Arc::clone(&dropped)));
                thread::spawn(move || {
                    service.once(Duration::from_millis(1), Box::new(move || drop(held)))
                })
            };
            service.shut_down();
            firing.join().unwrap();
            let late = setter.join().unwrap();
            assert_eq!(
                dropped.load(Ordering::SeqCst),
                3,
                "every action dropped once"
            );
            assert_eq!(service.pending(), 0, "nothing is left in the wheel");
            assert!(!periodic.is_pending() && !once.is_pending() && !late.is_pending());
            assert!(
                fired.load(Ordering::SeqCst) <= 2,
                "each timer fired at most once"
            );
        });
    }
}
