//! How an observer (automatic placement) watches the workers, without the plain path
//! paying for it.
//!
//! # The interface
//!
//! The scheduler does not know what automatic placement ([`crate::auto`]) learns or what
//! it does with it. It offers a narrow interface instead: a system built with an
//! [`Observer`] asks it, on each worker's own thread before the worker's first turn, for
//! that worker's [`Recorder`], and tells the recorder what the worker sees on the turns
//! it samples. Decisions come back down as plain data the scheduler reads anyway: an
//! actor's home word ([`super::home`]) and a stage's queue order ([`super::stage`]).
//!
//! # What it costs
//!
//! The scheduler decides *which* turns are recorded, with a [`Sampler`] of its own: about
//! one turn in [`Observer::period`], with jitter (half to one and a half periods), so that
//! a ring of actors is not sampled at the same member every time. Without an observer
//! (placement `manual`, the default) a worker pays one flag test per turn. With one, an
//! unsampled turn costs a counter decrement and a flag test, and the recorder is called
//! only for a sampled turn (its start, its sends, the time it spends waking other
//! threads, its end) or for the end of a turn an observer asked to see
//! ([`super::stage::Stage::set_watched`]: a turn that was still running when the observer
//! looked twice).

use std::cell::Cell;
use std::sync::Arc;

use super::Task;
use super::stage::Stage;
use crate::rng::XorShift;

/// Watches the workers of one system; see the module documentation.
pub(crate) trait Observer: Send + Sync {
    /// About one turn in this many is sampled on each worker.
    fn period(&self) -> u32;

    /// A worker starts on `stage`. Called on the worker's own thread, before its first
    /// turn; returns what records that worker's sampled turns.
    fn worker_started(&self, stage: &Arc<Stage>) -> Box<dyn Recorder>;
}

/// Records one worker's sampled and watched turns. Called only on that worker's thread.
pub(crate) trait Recorder {
    /// A sampled turn begins.
    fn sample_begins(&self);

    /// The sampled turn sent a message to the actor at `to_ptr`; `to` makes a reference to
    /// it, if the recorder keeps one. `cross`: the receiver last ran on another stage.
    fn sent(&self, to: &dyn Fn() -> Task, to_ptr: *const (), cross: bool);

    /// Runs `wake` (which wakes another thread) in a sampled turn: its time is the cost
    /// of a cross-thread hand-off, not the handler's.
    fn waking(&self, wake: &mut dyn FnMut());

    /// Runs `turn`, the turn of an inline actor that the sampled turn's send runs in
    /// place, as a sampled turn of its own: its time and its sends are the inline
    /// actor's (reported by its own [`Recorder::turn_ended`]), and the sampled turn's
    /// time leaves it out, as it leaves out a wake's. The sampled turn's record goes on
    /// after it.
    fn inline_turn(&self, turn: &mut dyn FnMut());

    /// A sampled or watched turn ended, having handled `handled` messages; `turns` is the
    /// stage's turn count (this turn included), and `sampled` says whether it was sampled.
    /// `actor` makes a reference to the actor.
    fn turn_ended(&self, actor: &dyn Fn() -> Task, handled: u64, turns: u64, sampled: bool);
}

/// A worker's choice of which turns to record, and its recorder.
///
/// `repr(C)`, the two fields a turn and a send test first: the worker keeps its sampler
/// among its hot fields (see `super::worker::Worker`).
#[repr(C)]
pub(crate) struct Sampler {
    recorder: Option<Box<dyn Recorder>>,
    sampling: Cell<bool>,
    period: u32,
    countdown: Cell<u32>,
    rng: XorShift,
}

impl Sampler {
    /// A sampler for the worker of `stage`; `seed` varies the jitter per worker. Call on
    /// the worker's thread.
    pub(crate) fn new(observer: Option<&Arc<dyn Observer>>, stage: &Arc<Stage>, seed: u64) -> Self {
        let period = observer.map_or(1, |o| o.period().max(1));
        Sampler {
            recorder: observer.map(|o| o.worker_started(stage)),
            period,
            countdown: Cell::new(period),
            rng: XorShift::new(0x9E37_79B9 ^ seed),
            sampling: Cell::new(false),
        }
    }

    /// Whether this system is observed at all.
    #[inline]
    pub(crate) fn enabled(&self) -> bool {
        self.recorder.is_some()
    }

    /// Whether the running turn is sampled.
    #[inline]
    pub(crate) fn sampling(&self) -> bool {
        self.sampling.get()
    }

    /// The recorder (only while enabled).
    pub(crate) fn recorder(&self) -> Option<&dyn Recorder> {
        self.recorder.as_deref()
    }

    /// Called before every turn while enabled: samples about one turn in a period.
    #[inline]
    pub(crate) fn turn_starting(&self) {
        let left = self.countdown.get();
        if left > 1 {
            self.countdown.set(left - 1);
            return;
        }
        self.begin_sample();
    }

    #[cold]
    #[inline(never)]
    fn begin_sample(&self) {
        // The period varies between 1/2 and 3/2 of the observer's.
        let jitter = self.period / 2 + self.rng.below(u64::from(self.period)) as u32;
        self.countdown.set(jitter.max(1));
        self.sampling.set(true);
        if let Some(recorder) = &self.recorder {
            recorder.sample_begins();
        }
    }

    /// Called after every turn while enabled.
    #[inline]
    pub(crate) fn turn_finished(&self) {
        self.sampling.set(false);
    }
}
