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
//! a ring of actors is not sampled at the same member every time. An observer may also
//! ask a stage for a sample soon ([`Stage::ask_for_sample`]): where turns are long, a
//! count of turns comes round too rarely to say what they cost, and a sample asked for by
//! time does. The worker then samples one of its next turns, drawn at random from about
//! as many as it ran since the request before ([`Sampler::sample_soon`]). Such a sample is
//! *timed*, and the count goes on after it where it was. Without an observer
//! (placement `manual`, the default) a worker pays one flag test per turn. With one, an
//! unsampled turn costs a counter decrement and a flag test, and the recorder is called
//! only for a sampled turn (its start, its sends, the time it spends waking other
//! threads, its end) or for the end of a turn an observer asked to see
//! ([`super::stage::Stage::set_watched`]: a turn the observer found running when it looked,
//! which it glimpses, or found running at two looks, which it watches as a long turn).

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
    /// A sampled turn begins; `timed` if the observer asked for it
    /// ([`Stage::ask_for_sample`]) rather than the count chose it.
    fn sample_begins(&self, timed: bool);

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

    /// A turn ended that was sampled or watched, or at whose end the worker took the
    /// observer's request for a sample soon (then it may be neither), having handled
    /// `handled` messages; `turns` is the stage's turn count (this turn included),
    /// `inline` is the count this turn began at if it is an inline turn (run inside
    /// another turn), and `sampled` says whether it was sampled. `actor` makes a reference
    /// to the actor.
    fn turn_ended(
        &self,
        actor: &dyn Fn() -> Task,
        handled: u64,
        turns: u64,
        inline: Option<u64>,
        sampled: bool,
    );

    /// An inline turn that began at the stage's turn count `first` is over, the count is
    /// `turns` now, and the stage is watched. A watch on the count just before `first` is
    /// the enclosing turn's (the inline turn's end left it alone): it now counts from
    /// `turns`, so that the enclosing turn's end still finds it its own. (A watch on the
    /// enclosing turn always holds that count: the one the turn was at when the watch went
    /// on, or the one an earlier inline turn's end moved it to. An older one belongs
    /// further out, and is moved at that turn's own inline end: moved here, the enclosing
    /// inline turn would take it; or it was left over by a turn that ended while the
    /// watch went on, and the turn now running must not take it.)
    fn inline_turn_over(&self, first: u64, turns: u64);
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
    /// While a sample the observer asked for waits: the turns the count will have left
    /// after it (else 0).
    interrupted: Cell<u32>,
    /// The stage's turn count at the observer's last request or the last sampled turn's
    /// end, whichever came later.
    window_start: Cell<u64>,
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
            interrupted: Cell::new(0),
            window_start: Cell::new(0),
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

    /// Samples one of the next turns too, as the observer asked
    /// ([`Stage::take_sample_request`]); `turns` is the stage's turn count now. The turn
    /// is drawn at random from as many turns as the stage ran since the last request or
    /// the last sample, whichever came later (at most a period): the observer asks about
    /// once a round, and only where no turn came round by count in that round, so that is
    /// about one turn in a round's worth, every turn as likely as any other. (Sampling the very next turn
    /// would favour the turns that follow long ones, since a request mostly arrives
    /// during a long turn: while a turn that used up its batch still yielded, behind each
    /// message of an inline leaf handled with a batch of one came an empty turn of the
    /// leaf, and every sample asked for was of that.) The
    /// count goes on afterwards where it was, so the turns chosen by count stay one in a
    /// period, and the observer can tell the two kinds apart.
    #[cold]
    pub(crate) fn sample_soon(&self, turns: u64) {
        let since = turns.saturating_sub(self.window_start.replace(turns));
        self.sample_within(since);
    }

    /// A sampled turn ended with the stage's turn count at `turns`: the window of the
    /// next sample asked for starts there.
    #[cold]
    pub(crate) fn sample_ended(&self, turns: u64) {
        self.window_start.set(turns);
    }

    /// Samples one of the next `turns` turns (at least one, at most a period), drawn at
    /// random, unless the count comes first or a sample asked for still waits.
    fn sample_within(&self, turns: u64) {
        if self.interrupted.get() != 0 {
            return;
        }
        let within = turns.clamp(1, u64::from(self.period));
        let at = 1 + self.rng.below(within) as u32;
        let left = self.countdown.get();
        if at < left {
            self.interrupted.set(left - at);
            self.countdown.set(at);
        }
    }

    #[cold]
    #[inline(never)]
    fn begin_sample(&self) {
        // The turns the count had left when the observer's request cut in.
        let left = self.interrupted.replace(0);
        let timed = left > 0;
        if timed {
            self.countdown.set(left);
        } else {
            // The period varies between 1/2 and 3/2 of the observer's.
            let jitter = self.period / 2 + self.rng.below(u64::from(self.period)) as u32;
            self.countdown.set(jitter.max(1));
        }
        self.sampling.set(true);
        if let Some(recorder) = &self.recorder {
            recorder.sample_begins(timed);
        }
    }

    /// Called after every turn while enabled.
    #[inline]
    pub(crate) fn turn_finished(&self) {
        self.sampling.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    /// An observer whose recorders log, for each sampled turn, whether it was timed.
    struct Log(Arc<Mutex<Vec<bool>>>);

    impl Observer for Log {
        fn period(&self) -> u32 {
            64
        }

        fn worker_started(&self, _: &Arc<Stage>) -> Box<dyn Recorder> {
            Box::new(Log(Arc::clone(&self.0)))
        }
    }

    impl Recorder for Log {
        fn sample_begins(&self, timed: bool) {
            self.0.lock().push(timed);
        }
        fn sent(&self, _: &dyn Fn() -> Task, _: *const (), _: bool) {}
        fn waking(&self, wake: &mut dyn FnMut()) {
            wake();
        }
        fn inline_turn(&self, turn: &mut dyn FnMut()) {
            turn();
        }
        fn turn_ended(&self, _: &dyn Fn() -> Task, _: u64, _: u64, _: Option<u64>, _: bool) {}
        fn inline_turn_over(&self, _: u64, _: u64) {}
    }

    /// A sampler with `seed`, and the log of its samples.
    fn sampler(seed: u64) -> (Sampler, Arc<Mutex<Vec<bool>>>) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let observer: Arc<dyn Observer> = Arc::new(Log(Arc::clone(&log)));
        let parker = crate::sync::Parker::new();
        let stage = Arc::new(Stage::new(parker.unparker().clone(), 0));
        (Sampler::new(Some(&observer), &stage, seed), log)
    }

    /// Runs `turns` turns; returns the ones sampled (numbered from `first`) and whether
    /// each was timed.
    fn run(sampler: &Sampler, log: &Mutex<Vec<bool>>, first: u64, turns: u64) -> Vec<(u64, bool)> {
        let mut sampled = Vec::new();
        for turn in first..first + turns {
            sampler.turn_starting();
            if sampler.sampling() {
                sampled.push((turn, *log.lock().last().expect("a sample was logged")));
            }
            sampler.turn_finished();
        }
        sampled
    }

    #[test]
    fn a_sample_asked_for_comes_within_its_window_and_the_count_goes_on() {
        let mut positions = [0u32; 16];
        for seed in 0..400 {
            let (counted, counted_log) = sampler(seed);
            let (asked, asked_log) = sampler(seed);
            let before = run(&counted, &counted_log, 0, 100);
            assert_eq!(
                before,
                run(&asked, &asked_log, 0, 100),
                "the same seed, the same count"
            );
            asked.sample_within(16);
            let counted_after = run(&counted, &counted_log, 100, 200);
            let asked_after = run(&asked, &asked_log, 100, 200);
            let next_by_count = counted_after[0].0;
            let timed: Vec<_> = asked_after.iter().filter(|(_, timed)| *timed).collect();
            if let Some(&&(turn, _)) = timed.first() {
                assert_eq!(timed.len(), 1, "one sample asked for, one taken");
                assert!((100..116).contains(&turn), "within the window: turn {turn}");
                assert!(
                    turn < next_by_count,
                    "only where the count does not come first"
                );
                positions[(turn - 100) as usize] += 1;
                // The count goes on where it was: its next sample is on the same turn.
                let counted_next = asked_after.iter().find(|(_, timed)| !*timed);
                assert_eq!(counted_next.map(|s| s.0), Some(next_by_count));
            } else {
                assert!(
                    next_by_count < 116,
                    "not taken only where the count came first"
                );
            }
        }
        // Every turn of the window is as likely as any other (400 draws, 16 turns: about
        // 25 each; far from none).
        assert!(
            positions.iter().all(|&n| n >= 5),
            "the turn asked for is drawn over the whole window: {positions:?}"
        );
    }

    #[test]
    fn a_stage_passes_a_request_for_a_sample_on_once_and_keeps_its_watch() {
        let parker = crate::sync::Parker::new();
        let stage = Stage::new(parker.unparker().clone(), 0);
        assert!(!stage.wants_turn_end());
        stage.set_watched(true);
        stage.ask_for_sample();
        assert!(stage.wants_turn_end());
        assert!(stage.take_sample_request());
        assert!(!stage.take_sample_request(), "taken once");
        assert!(stage.is_watched(), "the watch stays");
        stage.set_watched(false);
        assert!(!stage.wants_turn_end());
        // And the other way round: a watch withdrawn leaves a request standing.
        stage.ask_for_sample();
        stage.set_watched(true);
        stage.set_watched(false);
        assert!(stage.wants_turn_end());
        assert!(stage.take_sample_request());
    }

    #[test]
    fn the_window_of_a_sample_asked_for_starts_at_the_last_sample_or_request() {
        for seed in 0..200 {
            let (sampler, log) = sampler(seed);
            // The count's first sample, and its end on turn `last`.
            let first = run(&sampler, &log, 0, 200);
            let last = first[0].0;
            let next_by_count = first.get(1).map_or(u64::MAX, |s| s.0);
            let (sampler, log) = self::sampler(seed);
            run(&sampler, &log, 0, last + 1);
            sampler.sample_ended(last + 1);
            // Ten turns later the observer asks: the sample comes within ten turns, not
            // within a period.
            run(&sampler, &log, last + 1, 10);
            sampler.sample_soon(last + 11);
            let after = run(&sampler, &log, last + 11, 10);
            let timed = after.iter().any(|&(_, timed)| timed);
            assert!(
                timed || next_by_count < last + 21,
                "seed {seed}: a sample asked for within 10 turns: {after:?}"
            );
        }
    }
}
