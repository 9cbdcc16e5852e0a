//! Whether a worker's company pays: messages handled per millisecond, alone and together.
//!
//! The wake threshold ([`crate::scheduler::park`]) learns from woken workers that run out of work.
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
//!   the injector and parks, [`crate::scheduler::park`], "Giving back") and the wake
//!   threshold doubles. If it is at least 1.5 times the solo rate, the company pays and the
//!   wake threshold halves.
//! * anything else (a worker woke or parked during the epoch, or it handled fewer than
//!   [`MIN_MESSAGES`] messages: long computations) decides nothing.
//!
//! Until a solo rate is known (no worker has yet been alone for a whole epoch), nothing
//! is decided. Making one worker sleep to measure the other was tried (a *probe*, once per
//! system or backing off from every millisecond): it cost trees of spawns (skynet,
//! spreading) a core for each probe, more than it saved
//! (`docs/experiments/2026-11-23-pace-one-worker-against-two.md`).
//!
//! While a worker that gave its work back is asleep, the worker left awake would normally
//! wake it again as soon as its deque holds as many tasks as the wake threshold, before it
//! has measured anything alone. So giving back *holds* backlog wake-ups
//! ([`super::wake::WakeThreshold::hold`]) until the next solo rate is measured, or a
//! worker runs out of work and parks. Work from outside the runtime and pinned work wake
//! sleepers as always, and a worker that does not wake anybody runs its backlog itself, so
//! holding wake-ups can delay work but never strand it.
//!
//! A wrong verdict costs one epoch on one worker: the solo rate measured after a give-back
//! is fresh, so a program whose messages got more expensive (a new phase) is judged again
//! against its own new pace the next time the worker is woken.
//!
//! **Steals back, and the labels.** Until a solo rate is known, one sign still says that
//! company does not pay: *steals back*. A worker marks the first task of each steal with
//! its own index (in the home's `ran_on` word); a later steal whose first task already
//! carries it takes back an actor this worker stole before, which its partners have since
//! woken on the victim's worker: a *tug of war*. Groups of actors that message each other,
//! split over two workers, do that all the time (chameneos in its slow mode: three
//! quarters of its steals; big's neighbourhoods: about half), trees of spawns never (a
//! subtree does not talk to its siblings). So while no solo rate is known, a worker keeps
//! a *tally* of its steals and steals back, and the first [`GROUP_STEALS_BACK`] steals back
//! that make an eighth of the tally's steals make the system *label groups*, so that a
//! worker that steals takes over whole groups instead of half a deque
//! ([`crate::scheduler::group`]): the split the pace then judges is one that can pay
//! (separate groups, one worker each), and a group that cannot be split is left to one
//! worker, the other declining at its next steal. A tally is a proportion of steals, not a
//! rate in time: it lasts until [`TALLY_STEALS`] steals without enough steals back, however
//! long that takes (big at 1,000 workers in one neighbourhood steals about once in 20
//! epochs, a fifth of them steals back). Trees of spawns, which never steal back, never
//! label.
//!
//! Until 2026-11-28 a tally that kept finding steals back also made the worker give its
//! work back (the *tug* rule: four tallies in a row of at least 16 steals back). Under the
//! default governor it never acted: the labels start at the first four steals back, and a
//! steal by groups is not counted as a steal back, so the tallies after it run dry. It was
//! removed (`docs/scaling.md`, "What each rule is worth"); without the labels, a give-back
//! was followed by wake-ups that split the actors at random again
//! (`docs/experiments/2026-11-27-whole-groups.md`).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Policy;
use super::rules::Rule;
#[cfg(not(loom))]
use super::tunables::RENEW_EPOCHS;
use super::tunables::{
    COMPANY_PAYS_AT, EPOCH_TICKS, GIVE_BACK_BELOW, GROUP_STEALS_BACK, LABEL_ALONE_EPOCHS,
    MIN_MESSAGES, STEALS_BACK_SHARE, TALLY_STEALS,
};
#[cfg(not(loom))]
use crate::mailbox::recycle;
use crate::metrics::WorkerStats;

/// What the workers of one system know about their pace: the solo rate, and whether
/// steals back were ever seen (the labels).
pub(crate) struct Yardstick {
    /// Messages a millisecond one worker alone handled in its last whole epoch; 0 if never.
    solo: AtomicU64,
    /// Whether some worker's tally found steals back: from then on, the workers label
    /// the groups their actors form and a woken worker steals whole groups
    /// ([`crate::scheduler::group`]).
    grouping: AtomicBool,
}

impl Yardstick {
    pub(crate) fn new() -> Yardstick {
        Yardstick {
            solo: AtomicU64::new(0),
            grouping: AtomicBool::new(false),
        }
    }

    /// Whether the workers label groups and steal them whole (see `grouping`).
    #[inline]
    pub(crate) fn grouping(&self) -> bool {
        self.grouping.load(Ordering::Relaxed)
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
    /// The worker's counts of steals and steals back when the current tally began.
    steals: Cell<u64>,
    stolen_back: Cell<u64>,
    /// Epochs in a row this worker was the only one awake (at both ends).
    alone_epochs: Cell<u32>,
    /// Epochs ended, to drain the spare mailbox nodes one in [`RENEW_EPOCHS`].
    epochs: Cell<u32>,
}

impl Pace {
    pub(crate) fn new() -> Pace {
        Pace {
            began: Cell::new(Instant::now()),
            handled: Cell::new(0),
            alone: Cell::new(false),
            ticks: Cell::new(0),
            steals: Cell::new(0),
            stolen_back: Cell::new(0),
            alone_epochs: Cell::new(0),
            epochs: Cell::new(0),
        }
    }

    /// Starts a new epoch now (after the worker woke): time asleep is no part of a rate.
    pub(crate) fn restart(&self, stats: &WorkerStats, awake: usize) {
        self.began.set(Instant::now());
        self.handled.set(stats.handled.load(Ordering::Relaxed));
        self.alone.set(awake == 1);
        self.ticks.set(0);
        self.alone_epochs.set(0);
        self.restart_tally(stats);
    }

    /// Starts a new tally of steals and steals back.
    fn restart_tally(&self, stats: &WorkerStats) {
        self.steals.set(stats.steals.load(Ordering::Relaxed));
        self.stolen_back
            .set(stats.stolen_back.load(Ordering::Relaxed));
    }

    /// Counts one tick; at the end of an epoch, judges it (see the module
    /// documentation). `stats` are the worker's counters (messages handled, steals);
    /// `awake` counts the workers awake now (read only at an epoch's end).
    #[inline]
    pub(crate) fn tick(
        &self,
        stats: &WorkerStats,
        policy: &Policy,
        awake: impl Fn() -> usize,
    ) -> Verdict {
        let ticks = self.ticks.get() + 1;
        if ticks < EPOCH_TICKS {
            self.ticks.set(ticks);
            return Verdict::Stay;
        }
        self.ticks.set(0);
        self.end_epoch(stats, policy, awake())
    }

    /// Ends an epoch with `awake` workers awake: the verdict of [`Rule::Pace`] for a rate
    /// (the measurements are made either way), and the tally of steals for
    /// [`Rule::Labels`].
    #[cold]
    #[inline(never)]
    pub(crate) fn end_epoch(&self, stats: &WorkerStats, policy: &Policy, awake: usize) -> Verdict {
        self.end_epoch_at(Instant::now(), stats, policy, awake)
    }

    /// [`Pace::end_epoch`] at `now` (tests script the clock).
    fn end_epoch_at(
        &self,
        now: Instant,
        stats: &WorkerStats,
        policy: &Policy,
        awake: usize,
    ) -> Verdict {
        // Spare mailbox nodes that came from another worker would otherwise go round here
        // for ever, sharing cache lines with that worker's (see `crate::mailbox::recycle`,
        // "Renewal"): one epoch in `RENEW_EPOCHS`, they go back to the allocator.
        let epochs = self.epochs.get().wrapping_add(1);
        self.epochs.set(epochs);
        // (Under loom the mailbox keeps no spares.)
        #[cfg(not(loom))]
        recycle::set_draining(epochs % RENEW_EPOCHS == 0);
        let handled = stats.handled.load(Ordering::Relaxed);
        let epoch = Epoch {
            was_alone: self.alone.replace(awake == 1),
            awake,
            messages: handled.saturating_sub(self.handled.replace(handled)),
            took: now.saturating_duration_since(self.began.replace(now)),
        };
        if epoch.was_alone && awake == 1 {
            self.alone_epochs
                .set(self.alone_epochs.get().saturating_add(1));
        } else {
            self.alone_epochs.set(0);
        }
        let yardstick = &policy.yardstick;
        let solo = yardstick.solo.load(Ordering::Relaxed);
        let paces = policy.rules.has(Rule::Pace);
        match epoch.judge(solo) {
            Judgement::Solo(rate) => {
                yardstick.solo.store(rate, Ordering::Relaxed);
                policy.wake.release();
                Verdict::Stay
            }
            Judgement::GiveBack if paces => Verdict::GiveBack,
            Judgement::GiveBack => Verdict::Stay,
            Judgement::CompanyPays => {
                if paces {
                    policy.wake.company_pays();
                }
                self.restart_tally(stats);
                Verdict::Stay
            }
            // Without a solo rate, steals back are the only sign that company does not pay.
            Judgement::Nothing if solo == 0 => {
                self.tally(stats, policy);
                Verdict::Stay
            }
            Judgement::Nothing => Verdict::Stay,
        }
    }

    /// Whether this worker labels groups now (see [`crate::scheduler::group`]): while the system
    /// does, unless it has been the only worker awake for [`LABEL_ALONE_EPOCHS`] epochs.
    ///
    /// Labelling costs every turn a look at its actor's label (a line of the home the turn
    /// does not otherwise read): big at one neighbourhood, left to one worker after a
    /// give-back, ran 8 to 10% slower than on one thread for it alone. Alone, nobody
    /// steals groups; the labels wait as they are (by then, a few rounds of messages have
    /// merged them) until another worker is awake, when labelling starts again at once.
    #[inline(never)]
    pub(crate) fn labels(&self, policy: &Policy, awake: impl Fn() -> usize) -> bool {
        policy.yardstick.grouping() && (self.alone_epochs.get() < LABEL_ALONE_EPOCHS || awake() > 1)
    }

    /// Reads the tally of steals (see the module documentation, "Steals back, and the
    /// labels"): enough steals back start the labels; a tally of [`TALLY_STEALS`] steals
    /// without them starts a new one.
    fn tally(&self, stats: &WorkerStats, policy: &Policy) {
        let steals = stats
            .steals
            .load(Ordering::Relaxed)
            .saturating_sub(self.steals.get());
        let back = stats
            .stolen_back
            .load(Ordering::Relaxed)
            .saturating_sub(self.stolen_back.get());
        if starts_labels(steals, back) {
            if policy.rules.has(Rule::Labels) {
                let grouping = &policy.yardstick.grouping;
                if !grouping.load(Ordering::Relaxed) {
                    grouping.store(true, Ordering::Relaxed);
                }
            }
            self.restart_tally(stats);
        } else if steals >= TALLY_STEALS {
            self.restart_tally(stats);
        }
    }
}

/// Whether `steals`, of which `back` were steals back, make the system label groups.
fn starts_labels(steals: u64, back: u64) -> bool {
    back >= GROUP_STEALS_BACK && back.saturating_mul(STEALS_BACK_SHARE) >= steals
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
                let (below, of) = GIVE_BACK_BELOW;
                let (pays, at) = COMPANY_PAYS_AT;
                if together.saturating_mul(of) < solo.saturating_mul(below) {
                    Judgement::GiveBack
                } else if together.saturating_mul(at) >= solo.saturating_mul(pays) {
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
    use crate::metrics::bump_by;
    use crate::scheduler::governor::Governor;

    /// A worker's pace and counters, with a scripted clock.
    struct Script {
        pace: Pace,
        stats: WorkerStats,
        policy: Policy,
        now: Instant,
    }

    impl Script {
        fn new(rules: Governor, awake: usize) -> Script {
            let script = Script {
                pace: Pace::new(),
                stats: WorkerStats::default(),
                policy: Policy::new(rules),
                now: Instant::now(),
            };
            script.pace.restart(&script.stats, awake);
            script.pace.began.set(script.now);
            script
        }

        /// An epoch of `micros` in which the worker handled `messages`, stole `steals`
        /// times of which `back` were steals back, ending with `awake` workers awake.
        fn epoch(
            &mut self,
            micros: u64,
            messages: u64,
            (steals, back): (u64, u64),
            awake: usize,
        ) -> Verdict {
            bump_by(&self.stats.handled, messages);
            bump_by(&self.stats.steals, steals);
            bump_by(&self.stats.stolen_back, back);
            self.now += Duration::from_micros(micros);
            self.pace
                .end_epoch_at(self.now, &self.stats, &self.policy, awake)
        }
    }

    #[test]
    fn the_pace_gives_back_when_company_does_not_pay_unless_the_rule_is_off() {
        for (rules, gives_back) in [
            (Governor::adaptive(), true),
            (Governor::adaptive().without(Rule::Pace), false),
            (Governor::plain().with(Rule::Pace), true),
        ] {
            let mut s = Script::new(rules, 1);
            // Alone: 1,000 messages in 50 µs, the solo rate.
            assert_eq!(s.epoch(50, 1000, (0, 0), 1), Verdict::Stay);
            assert_eq!(s.policy.yardstick.solo.load(Ordering::Relaxed), 20_000);
            // Somebody woke: an epoch that straddles says nothing.
            assert_eq!(s.epoch(50, 1000, (0, 0), 2), Verdict::Stay);
            // Together at 4,000 each, 8,000 against 20,000 alone.
            let verdict = s.epoch(250, 1000, (0, 0), 2);
            assert_eq!(verdict == Verdict::GiveBack, gives_back, "{rules}");
        }
    }

    #[test]
    fn company_that_pays_lowers_the_wake_threshold_unless_the_pace_is_off() {
        for (rules, after) in [
            (Governor::adaptive(), 4),
            (Governor::adaptive().without(Rule::Pace), 8),
        ] {
            let mut s = Script::new(rules, 1);
            s.policy.wake.learned(8);
            s.epoch(50, 1000, (0, 0), 1);
            s.epoch(50, 1000, (0, 0), 2);
            // 18,000 each, 36,000 together.
            assert_eq!(s.epoch(100, 1800, (0, 0), 2), Verdict::Stay);
            assert_eq!(s.policy.wake.backlog(), after, "{rules}");
        }
    }

    #[test]
    fn a_solo_rate_releases_held_wake_ups() {
        let mut s = Script::new(Governor::adaptive(), 1);
        s.policy.wake.learned(2);
        s.policy.wake.hold();
        assert!(!s.policy.wake.wakes(1000));
        s.epoch(50, 1000, (0, 0), 1);
        assert_eq!(s.policy.wake.backlog(), 4);
    }

    #[test]
    fn steals_back_never_give_back_without_a_solo_rate() {
        // No solo rate: half the steals take back an actor stolen before, epoch after
        // epoch. That starts the labels (below); it never makes a worker give back.
        for rules in [
            Governor::adaptive(),
            Governor::adaptive().without(Rule::Labels),
        ] {
            let mut s = Script::new(rules, 2);
            for _ in 0..64 {
                assert_eq!(s.epoch(1000, 10, (32, 16), 2), Verdict::Stay, "{rules}");
            }
        }
    }

    #[test]
    fn trees_of_spawns_never_label() {
        let mut s = Script::new(Governor::adaptive(), 2);
        for _ in 0..64 {
            assert_eq!(s.epoch(1000, 10, (100, 0), 2), Verdict::Stay);
        }
        assert!(!s.policy.yardstick.grouping());
    }

    #[test]
    fn a_tally_of_many_steals_without_steals_back_starts_afresh() {
        // Just under the tally's length: the steals back that come next are measured
        // against every steal so far, and four among 285 are too few.
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(1000, 10, (TALLY_STEALS - 1, 0), 2);
        s.epoch(1000, 10, (30, GROUP_STEALS_BACK), 2);
        assert!(!s.policy.yardstick.grouping());
        // A whole tally without steals back is forgotten: the same steals back then
        // start the labels.
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(1000, 10, (TALLY_STEALS, 0), 2);
        s.epoch(1000, 10, (30, GROUP_STEALS_BACK), 2);
        assert!(s.policy.yardstick.grouping());
    }

    #[test]
    fn steals_back_start_the_labels_unless_the_rule_is_off() {
        for (rules, labels) in [
            (Governor::adaptive(), true),
            (Governor::adaptive().without(Rule::Labels), false),
            (Governor::plain().with(Rule::Labels), true),
        ] {
            let mut s = Script::new(rules, 2);
            s.epoch(1000, 10, (8, GROUP_STEALS_BACK), 2);
            assert_eq!(s.policy.yardstick.grouping(), labels, "{rules}");
            assert_eq!(s.pace.labels(&s.policy, || 2), labels, "{rules}");
        }
    }

    #[test]
    fn a_worker_alone_long_enough_stops_reading_labels() {
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(1000, 10, (8, GROUP_STEALS_BACK), 2);
        // The other worker parks during this epoch: it is not alone at both ends.
        s.epoch(1000, 10, (0, 0), 1);
        for _ in 0..LABEL_ALONE_EPOCHS {
            assert!(s.pace.labels(&s.policy, || 1));
            s.epoch(1000, 10, (0, 0), 1);
        }
        assert!(!s.pace.labels(&s.policy, || 1), "alone for an age");
        assert!(
            s.pace.labels(&s.policy, || 2),
            "somebody woke: labels at once"
        );
    }

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
    fn a_few_steals_back_start_the_labels() {
        // Chameneos: a few steals back among few steals label groups.
        assert!(starts_labels(20, 4));
        // An eighth is enough (big's neighbourhoods: a fifth to a half).
        assert!(starts_labels(128, 16));
        assert!(!starts_labels(129, 16));
        assert!(starts_labels(32, 4));
        // Fewer than an eighth, or too few steals back, do not.
        assert!(!starts_labels(33, 4));
        assert!(!starts_labels(3, 3));
        // Trees never steal back.
        assert!(!starts_labels(10_000, 0));
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
