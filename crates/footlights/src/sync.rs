//! The atomics and locks the concurrent parts are built from, swapped for loom's under
//! `--cfg loom` and for shuttle's under `--cfg shuttle`.
//!
//! The model-checked protocols import from here: the mailbox ([`crate::mailbox`]: push,
//! pop, mark-idle and close), a bounded mailbox's capacity accounting and its waiting
//! senders (the mailbox's `capacity` module), the address count and generation of garbage
//! collection (the cell's `addresses` module), the home word's stop-versus-move
//! protocol (the scheduler's `home` module), the parked and searching workers' counts
//! that decide whether a waker wakes anybody (the scheduler's `park` module), an actor's
//! ties (the cell's `ties` module), a supervisor's group (`crate::supervision`), the
//! reply slot ([`crate::reply`]) and the timer service's wheel ([`crate::timer`]). Under loom every atomic access and every access to the
//! consumer-owned cell becomes a point where loom can interleave threads, which is what
//! lets `RUSTFLAGS="--cfg loom" cargo test` explore every schedule of a push racing a pop
//! and a mark-idle.
//!
//! # Schedules that replay
//!
//! Loom explores every schedule of a small model, which bounds how big a model can be.
//! The shuttle build (`RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib
//! shuttle_models`) runs bigger ones under schedules drawn at random: uniformly at each
//! step, and by PCT (priorities with a few change points, which finds bugs of small
//! depth with a known probability). Every schedule comes from a seed, so a failure prints
//! the seed, and `FOOTLIGHTS_SHUTTLE_SEED=<seed>` runs that one schedule again (`explore`, under `--cfg shuttle`).
//! Shuttle sees only what goes through this module: the models use the runtime's
//! protocols on these atomics and locks, with stand-ins for the parts around them (a
//! plain table for the registry, a counter for a scheduled actor), as the loom models do.
//! The scheduler's work-stealing queues ([`deque`]) and parkers ([`Parker`],
//! [`Unparker`]) come from here too: crossbeam's, or stand-ins on shuttle's locks in the
//! shuttle build, where small soak programs run the runtime's mailboxes on them (the
//! `soak` module; `docs/soak.md` says what runs and what cannot).
//! The crate's other unit tests are not for this build (its atomics and locks panic outside a
//! shuttle execution), which is why the command above names the `shuttle_models` filter.

pub(crate) mod deque;
mod parker;
#[cfg(all(test, shuttle))]
mod soak;

pub(crate) use parker::{Parker, Unparker};

#[cfg(all(loom, shuttle))]
compile_error!("--cfg loom and --cfg shuttle are two different checkers: choose one");

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence,
};
#[cfg(shuttle)]
pub(crate) use shuttle::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence,
};
#[cfg(not(any(loom, shuttle)))]
pub(crate) use std::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence,
};

/// A mutex: parking_lot's, or loom's under `--cfg loom`, or shuttle's under `--cfg
/// shuttle` (whose locks cannot be poisoned either, since a model that panics ends).
pub(crate) struct Mutex<T>(
    #[cfg(loom)] loom::sync::Mutex<T>,
    #[cfg(shuttle)] shuttle::sync::Mutex<T>,
    #[cfg(not(any(loom, shuttle)))] parking_lot::Mutex<T>,
);

impl<T> Mutex<T> {
    pub(crate) fn new(value: T) -> Self {
        #[cfg(loom)]
        return Self(loom::sync::Mutex::new(value));
        #[cfg(shuttle)]
        return Self(shuttle::sync::Mutex::new(value));
        #[cfg(not(any(loom, shuttle)))]
        Self(parking_lot::Mutex::new(value))
    }

    /// Locks the mutex until the guard is dropped.
    pub(crate) fn lock(&self) -> impl std::ops::DerefMut<Target = T> + '_ {
        #[cfg(any(loom, shuttle))]
        return self.0.lock().expect("a model stops at its first panic");
        #[cfg(not(any(loom, shuttle)))]
        self.0.lock()
    }

    /// The parking_lot mutex inside, for a condition variable's wait (which the models
    /// replace by `yield_now` loops).
    #[cfg(not(any(loom, shuttle)))]
    pub(crate) fn raw(&self) -> &parking_lot::Mutex<T> {
        &self.0
    }
}

/// Lets the checker run another thread (a model's stand-in for blocking until woken).
#[cfg(any(loom, shuttle))]
pub(crate) fn yield_now() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(shuttle)]
    shuttle::thread::yield_now();
}

/// Runs `model` under random and PCT schedules, each drawn from a seed; a failing
/// schedule prints its seed, and `FOOTLIGHTS_SHUTTLE_SEED=<seed>` (with `FOOTLIGHTS_SHUTTLE
/// =pct` for a PCT one) runs it alone. `FOOTLIGHTS_SHUTTLE_ITERATIONS` sets how many
/// schedules of each kind (1000 unless set).
#[cfg(all(test, shuttle))]
pub(crate) fn explore(name: &str, model: impl Fn() + Send + Sync + 'static) {
    explore_with(name, "", 1000, model);
}

/// As [`explore`], for a model that takes more than a schedule to name a run: `replay`
/// (environment assignments, each followed by a space) goes before the command a failure
/// prints, and `iterations` is how many schedules of each kind to run unless
/// `FOOTLIGHTS_SHUTTLE_ITERATIONS` says.
#[cfg(all(test, shuttle))]
pub(crate) fn explore_with(
    name: &str,
    replay: &str,
    iterations: usize,
    model: impl Fn() + Send + Sync + 'static,
) {
    use shuttle::scheduler::{PctScheduler, RandomScheduler};
    use shuttle::{Config, Runner};
    let model = std::sync::Arc::new(model);
    let number = |var: &str| {
        std::env::var(var).ok().map(|v| {
            v.parse::<u64>()
                .unwrap_or_else(|_| panic!("{var}={v:?}: not a whole number"))
        })
    };
    let iterations = number("FOOTLIGHTS_SHUTTLE_ITERATIONS").map_or(iterations, |n| n as usize);
    let pct = std::env::var("FOOTLIGHTS_SHUTTLE").is_ok_and(|v| v == "pct");
    let run = |seed: u64, pct: bool, iterations: usize| {
        let m = std::sync::Arc::clone(&model);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if pct {
                Runner::new(
                    PctScheduler::new_from_seed(seed, 3, iterations),
                    Config::new(),
                )
                .run(move || m());
            } else {
                Runner::new(
                    RandomScheduler::new_from_seed(seed, iterations),
                    Config::new(),
                )
                .run(move || m());
            }
        }));
        if let Err(panic) = outcome {
            let kind = if pct { "FOOTLIGHTS_SHUTTLE=pct " } else { "" };
            eprintln!(
                "shuttle model {name} failed; replay: {replay}{kind}FOOTLIGHTS_SHUTTLE_SEED={seed} \
                 FOOTLIGHTS_SHUTTLE_ITERATIONS=1 RUSTFLAGS=\"--cfg shuttle\" \
                 CARGO_TARGET_DIR=target/shuttle cargo test -p footlights --lib --release {name}"
            );
            std::panic::resume_unwind(panic);
        }
    };
    if let Some(seed) = number("FOOTLIGHTS_SHUTTLE_SEED") {
        run(seed, pct, iterations);
        return;
    }
    // One seed per schedule, so that a failure names the one schedule that failed.
    for i in 0..iterations as u64 {
        run(i, false, 1);
        run(i, true, 1);
    }
}

/// Waits a little for another thread to finish a step it has begun (a push between its
/// swap and its link): spins at first, then yields the processor, in case that thread
/// was preempted. `step` counts the calls of one wait, starting at 0.
pub(crate) fn backoff(step: &mut u32) {
    #[cfg(any(loom, shuttle))]
    {
        let _ = step;
        yield_now();
    }
    #[cfg(not(any(loom, shuttle)))]
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
