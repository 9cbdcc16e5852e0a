//! Whether a worker's company pays: messages handled per millisecond, alone and together.
//!
//! The wake threshold ([`super::park`]) learns from woken workers that run out of work.
//! Some groups of actors never let a worker run out: chameneos's meeting place and its
//! creatures, split across two workers, keep both next slots fed (the place runs wherever
//! the last creature that found it idle ran, and its replies schedule creatures there), so
//! both workers stay busy, every actor moves between caches, and the two together handle
//! fewer messages a millisecond than one worker alone. No queue length shows this; the
//! pace does.
//!
//! So every pool worker of a work-stealing system with more than one worker keeps a
//! [`Pace`]: it counts a tick every 64 picks (where it already looks whether other threads
//! scheduled anything, so no turn pays for it), and every [`EPOCH_TICKS`] ticks it reads
//! the clock and its count of messages handled, and ends an *epoch*. What it does with the epoch's rate (messages per millisecond) depends on how
//! many workers were awake (not parked) at both ends of it:
//!
//! * **alone** at both ends: the rate is the *solo rate*, what one worker achieves on this
//!   program now. It is kept in the system's [`Yardstick`] for the others to compare with.
//! * **together** at both ends, `n` workers awake: `n` times its own rate estimates what
//!   the awake workers achieve together. If that is below 1.25 times the solo rate, the
//!   company does not pay: the worker *gives its work back* (it hands its queued tasks to
//!   the injector and parks, [`super::park`], "Giving back") and the wake
//!   threshold doubles. If it is at least 1.5 times the solo rate, the company pays and the
//!   wake threshold halves.
//! * anything else (a worker woke or parked during the epoch, or it handled fewer than
//!   [`MIN_MESSAGES`] messages: long computations) decides nothing.
//!
//! Until a solo rate is known (no worker has yet been alone for a whole epoch), nothing
//! is decided. Making one worker sleep to measure the other was tried (a *probe*, once per
//! system or backing off from every millisecond): it cost trees of spawns (skynet,
//! spreading) a core for each probe, more than it saved (`docs/performance.md`).
//!
//! While a worker that gave its work back is asleep, the worker left awake would normally
//! wake it again as soon as its deque holds as many tasks as the wake threshold, before it
//! has measured anything alone. So giving back *holds* backlog wake-ups
//! ([`super::park::Sleepers::hold_wakes`]) until the next solo rate is measured, or a
//! worker runs out of work and parks. Work from outside the runtime and pinned work wake
//! sleepers as always, and a worker that does not wake anybody runs its backlog itself, so
//! holding wake-ups can delay work but never strand it.
//!
//! A wrong verdict costs one epoch on one worker: the solo rate measured after a give-back
//! is fresh, so a program whose messages got more expensive (a new phase) is judged again
//! against its own new pace the next time the worker is woken.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::park::Sleepers;

/// Ticks (every 64 picks) per epoch: an epoch is about a thousand turns.
pub(crate) const EPOCH_TICKS: u32 = 16;
/// Fewer messages than this in an epoch decide nothing (the rate would be noise).
pub(crate) const MIN_MESSAGES: u64 = 256;
/// What the workers of one system know about their pace: the solo rate.
pub(crate) struct Yardstick {
    /// Messages a millisecond one worker alone handled in its last whole epoch; 0 if never.
    solo: AtomicU64,
}

impl Yardstick {
    pub(crate) fn new() -> Yardstick {
        Yardstick {
            solo: AtomicU64::new(0),
        }
    }
}

/// What an epoch says a worker should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Go on as before.
    Stay,
    /// Give the work back and park: together, the awake workers are not faster than one.
    GiveBack,
}

/// One worker's current epoch (only that worker touches it).
pub(crate) struct Pace {
    began: Cell<Instant>,
    handled: Cell<u64>,
    alone: Cell<bool>,
    ticks: Cell<u32>,
}

impl Pace {
    pub(crate) fn new() -> Pace {
        Pace {
            began: Cell::new(Instant::now()),
            handled: Cell::new(0),
            alone: Cell::new(false),
            ticks: Cell::new(0),
        }
    }

    /// Starts a new epoch now (after the worker woke): time asleep is no part of a rate.
    pub(crate) fn restart(&self, handled: u64, awake: usize) {
        self.began.set(Instant::now());
        self.handled.set(handled);
        self.alone.set(awake == 1);
        self.ticks.set(0);
    }

    /// Counts one tick; at the end of an epoch, judges it (see the module
    /// documentation). `handled` is the worker's count of messages handled so far.
    #[inline]
    pub(crate) fn tick(&self, handled: &AtomicU64, sleepers: &Sleepers) -> Verdict {
        let ticks = self.ticks.get() + 1;
        if ticks < EPOCH_TICKS {
            self.ticks.set(ticks);
            return Verdict::Stay;
        }
        self.ticks.set(0);
        self.end_epoch(handled.load(Ordering::Relaxed), sleepers)
    }

    #[cold]
    #[inline(never)]
    fn end_epoch(&self, handled: u64, sleepers: &Sleepers) -> Verdict {
        let now = Instant::now();
        let awake = sleepers.awake();
        let epoch = Epoch {
            was_alone: self.alone.replace(awake == 1),
            awake,
            messages: handled.saturating_sub(self.handled.replace(handled)),
            took: now.saturating_duration_since(self.began.replace(now)),
        };
        let yardstick = sleepers.yardstick();
        match epoch.judge(yardstick.solo.load(Ordering::Relaxed)) {
            Judgement::Solo(rate) => {
                yardstick.solo.store(rate, Ordering::Relaxed);
                sleepers.release_wakes();
                Verdict::Stay
            }
            Judgement::GiveBack => Verdict::GiveBack,
            Judgement::CompanyPays => {
                sleepers.company_pays();
                Verdict::Stay
            }
            Judgement::Nothing => Verdict::Stay,
        }
    }
}

/// One worker's epoch, as it ended.
#[derive(Clone, Copy, Debug)]
struct Epoch {
    /// Whether it was the only worker awake when the epoch began.
    was_alone: bool,
    /// Workers awake when it ended.
    awake: usize,
    /// Messages it handled.
    messages: u64,
    took: Duration,
}

/// What an epoch says, given the solo rate known so far (0 if none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judgement {
    /// Alone throughout: this is the solo rate now (messages a millisecond).
    Solo(u64),
    /// Together, and not faster than 1.25 times one worker alone.
    GiveBack,
    /// Together, and at least 1.5 times as fast as one worker alone.
    CompanyPays,
    /// Too few messages, or the workers awake changed.
    Nothing,
}

impl Epoch {
    fn judge(&self, solo: u64) -> Judgement {
        if self.messages < MIN_MESSAGES || self.took.is_zero() {
            return Judgement::Nothing;
        }
        let rate = u64::try_from(u128::from(self.messages) * 1_000_000 / self.took.as_nanos())
            .unwrap_or(u64::MAX)
            .max(1);
        match (self.was_alone, self.awake) {
            (true, 1) => Judgement::Solo(rate),
            (false, n) if n > 1 && solo > 0 => {
                let together = rate.saturating_mul(n as u64);
                if together.saturating_mul(4) < solo.saturating_mul(5) {
                    Judgement::GiveBack
                } else if together.saturating_mul(2) >= solo.saturating_mul(3) {
                    Judgement::CompanyPays
                } else {
                    Judgement::Nothing
                }
            }
            _ => Judgement::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epoch(was_alone: bool, awake: usize, messages: u64, micros: u64) -> Epoch {
        Epoch {
            was_alone,
            awake,
            messages,
            took: Duration::from_micros(micros),
        }
    }

    #[test]
    fn an_epoch_alone_measures_the_solo_rate() {
        // 1,000 messages in 50 µs: 20,000 a millisecond.
        assert_eq!(epoch(true, 1, 1000, 50).judge(0), Judgement::Solo(20_000));
        assert_eq!(epoch(true, 1, 1000, 50).judge(5), Judgement::Solo(20_000));
    }

    #[test]
    fn two_workers_slower_together_than_one_alone_give_back() {
        // Each handles 4,000 a millisecond: 8,000 together against 20,000 alone.
        assert_eq!(
            epoch(false, 2, 1000, 250).judge(20_000),
            Judgement::GiveBack
        );
        // 24,000 together: not 1.25 times 20,000.
        assert_eq!(
            epoch(false, 2, 1200, 100).judge(20_000),
            Judgement::GiveBack
        );
    }

    #[test]
    fn workers_that_scale_keep_each_other_company() {
        // 18,000 each, 36,000 together against 20,000 alone.
        assert_eq!(
            epoch(false, 2, 1800, 100).judge(20_000),
            Judgement::CompanyPays
        );
        // Eight time-sliced workers at 5,000 each: 40,000 together.
        assert_eq!(
            epoch(false, 8, 500, 100).judge(20_000),
            Judgement::CompanyPays
        );
        // Between 1.25 and 1.5 times: nothing changes.
        assert_eq!(epoch(false, 2, 1400, 100).judge(20_000), Judgement::Nothing);
    }

    #[test]
    fn mixed_or_thin_epochs_decide_nothing() {
        // A worker woke or parked during the epoch.
        assert_eq!(epoch(true, 2, 1000, 50).judge(20_000), Judgement::Nothing);
        assert_eq!(epoch(false, 1, 1000, 50).judge(20_000), Judgement::Nothing);
        // Long computations: a few messages say nothing about the pace.
        assert_eq!(
            epoch(false, 2, 10, 50_000).judge(20_000),
            Judgement::Nothing
        );
        // No solo rate yet.
        assert_eq!(epoch(false, 2, 1000, 50).judge(0), Judgement::Nothing);
    }
}
