//! A worker's pace: its epochs of picks, whether it ran them alone, and its tally of
//! steals back, which starts the labels.
//!
//! Every pool worker of a work-stealing system with more than one worker keeps a
//! [`Pace`]: it counts a tick every [`PACE_EVERY`](super::tunables::PACE_EVERY) picks (where it already looks whether
//! other threads scheduled anything, so no turn pays for it), and every [`EPOCH_TICKS`]
//! ticks it ends an *epoch*, about a thousand turns. An epoch ends with three looks:
//!
//! * **Alone**: whether the worker was the only one awake (not parked) at both ends, and
//!   handled at least [`MIN_MESSAGES`] messages. Such an epoch releases held wake-ups
//!   ([`super::wake::WakeThreshold::release`]): a worker that gave its work back (a
//!   flood, [`super::flood`], or a declined group steal, [`crate::scheduler::group`])
//!   holds backlog wake-ups, so that the worker left awake does not wake it again at
//!   once; once that worker has run a whole epoch alone, backlogs wake sleepers again.
//!   Work from outside the runtime and pinned work wake sleepers as always, and a worker
//!   that does not wake anybody runs its backlog itself, so holding wake-ups can delay
//!   work but never strand it; a worker that parks releases them too.
//! * **Steals back**, in every epoch that was not alone, for the whole life of the
//!   system. A worker marks the first task of each steal with its own index (in the
//!   home's `ran_on` word); a later steal whose first task already carries it takes back
//!   an actor this worker stole before, which its partners have since woken on the
//!   victim's worker: a *tug of war*. Groups of actors that message each other, split
//!   over two workers, do that all the time (chameneos in its slow mode: three quarters
//!   of its steals; big's neighbourhoods: about half), trees of spawns never (a subtree
//!   does not talk to its siblings). So a worker keeps a *tally* of its steals and steals
//!   back, and the first [`GROUP_STEALS_BACK`] steals back that make an eighth of the
//!   tally's steals make the system *label groups* ([`crate::scheduler::group`]): a
//!   worker that steals takes over whole groups instead of half a deque, and a group that
//!   cannot be split is left to one worker, the other declining at its next steal and
//!   giving its work back. A tally is a proportion of steals, not a rate in time: it
//!   lasts until [`TALLY_STEALS`] steals without enough steals back, however long that
//!   takes (big at 1,000 workers in one neighbourhood steals about once in 20 epochs, a
//!   fifth of them steals back). Until 2026-11-29 the tally stopped for good once any
//!   worker had run an epoch alone (a rest of the `pace` rule below, which measured the
//!   solo rate in that epoch and judged company by it from then on). With that rule gone,
//!   nothing looked for a tug of war any more in a program that began with a phase one
//!   worker ran alone: a hub with 700 clients after a ping-pong pair took 1,127 ms
//!   (median of 15) against 204 ms on a fresh system (`docs/scaling.md`, "A tug of war in
//!   a later phase"). So the labels may now start at any point in a system's life, and
//!   stay on (the switch is one-way, as it always was).
//! * **Renewal**: one epoch in [`RENEW_EPOCHS`] the worker returns its spare mailbox
//!   nodes ([`crate::mailbox::recycle`]).
//!
//! **What the pace no longer decides.** Until 2026-11-28 an epoch also measured the
//! worker's rate, messages a millisecond: alone, the *solo rate*; together, `n` workers'
//! rates against it. Below 1.25 times the solo rate the worker gave its work back (the
//! `pace` rule), at 1.5 times or more the wake threshold halved; and while no solo rate was
//! known, four tallies in a row of at least 16 steals back made it give back too (the
//! `tug` rule). Neither paid on the whole suite: switched off alone, no benchmark of the
//! twenty-two was faster by a resolved 3% at quick or seed sizes, at 2 threads or 8, and
//! the `pace` rule cost bndbuffer at 8 threads 15% (`docs/scaling.md`, "What each rule is
//! worth"). The tug's give-back never acted under the default governor at all: the labels
//! start on the first four steals back, and a steal by groups is not a steal back, so the
//! tallies after it run dry. What the two were added for, two workers slower together
//! than one on a chatty group, the labels now do (`docs/experiments/2026-11-27-whole-groups.md`).
//! So an epoch reads no clock.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Policy;
use super::rules::Rule;
#[cfg(not(loom))]
use super::tunables::RENEW_EPOCHS;
use super::tunables::{
    EPOCH_TICKS, GROUP_STEALS_BACK, LABEL_ALONE_EPOCHS, MIN_MESSAGES, STEALS_BACK_SHARE,
    TALLY_STEALS,
};
#[cfg(not(loom))]
use crate::mailbox::recycle;
use crate::metrics::WorkerStats;

/// What the workers of one system know from their epochs: whether steals back were ever
/// seen (the labels).
pub(crate) struct Yardstick {
    /// Whether some worker's tally found steals back: from then on, the workers label
    /// the groups their actors form and a woken worker steals whole groups
    /// ([`crate::scheduler::group`]).
    grouping: AtomicBool,
}

impl Yardstick {
    pub(crate) fn new() -> Yardstick {
        Yardstick {
            grouping: AtomicBool::new(false),
        }
    }

    /// Whether the workers label groups and steal them whole (see `grouping`).
    #[inline]
    pub(crate) fn grouping(&self) -> bool {
        self.grouping.load(Ordering::Relaxed)
    }
}

/// One worker's current epoch (only that worker touches it).
pub(crate) struct Pace {
    /// The worker's count of messages handled when the epoch began.
    handled: Cell<u64>,
    /// Whether it was the only worker awake when the epoch began.
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
            handled: Cell::new(0),
            alone: Cell::new(false),
            ticks: Cell::new(0),
            steals: Cell::new(0),
            stolen_back: Cell::new(0),
            alone_epochs: Cell::new(0),
            epochs: Cell::new(0),
        }
    }

    /// Starts a new epoch now (after the worker woke): time asleep is no part of one.
    pub(crate) fn restart(&self, stats: &WorkerStats, awake: usize) {
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

    /// Counts one tick; at the end of an epoch, looks at it (see the module
    /// documentation). `stats` are the worker's counters (messages handled, steals);
    /// `awake` counts the workers awake now (read only at an epoch's end).
    #[inline]
    pub(crate) fn tick(&self, stats: &WorkerStats, policy: &Policy, awake: impl Fn() -> usize) {
        let ticks = self.ticks.get() + 1;
        if ticks < EPOCH_TICKS {
            self.ticks.set(ticks);
            return;
        }
        self.ticks.set(0);
        self.end_epoch(stats, policy, awake());
    }

    /// Ends an epoch with `awake` workers awake.
    #[cold]
    #[inline(never)]
    pub(crate) fn end_epoch(&self, stats: &WorkerStats, policy: &Policy, awake: usize) {
        // Spare mailbox nodes that came from another worker would otherwise go round here
        // for ever, sharing cache lines with that worker's (see `crate::mailbox::recycle`,
        // "Renewal"): one epoch in `RENEW_EPOCHS`, they go back to the allocator.
        let epochs = self.epochs.get().wrapping_add(1);
        self.epochs.set(epochs);
        // (Under loom the mailbox keeps no spares.)
        #[cfg(not(loom))]
        recycle::set_draining(epochs % RENEW_EPOCHS == 0);
        let handled = stats.handled.load(Ordering::Relaxed);
        let messages = handled.saturating_sub(self.handled.replace(handled));
        let alone = self.alone.replace(awake == 1) && awake == 1;
        if alone {
            self.alone_epochs
                .set(self.alone_epochs.get().saturating_add(1));
        } else {
            self.alone_epochs.set(0);
        }
        if alone && messages >= MIN_MESSAGES {
            policy.wake.release();
        } else {
            self.tally(stats, policy);
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

    /// Reads the tally of steals (see the module documentation, "Steals back"): enough
    /// steals back start the labels; a tally of [`TALLY_STEALS`] steals without them
    /// starts a new one.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bump_by;
    use crate::scheduler::governor::Governor;

    /// A worker's pace and counters.
    struct Script {
        pace: Pace,
        stats: WorkerStats,
        policy: Policy,
    }

    impl Script {
        fn new(rules: Governor, awake: usize) -> Script {
            let script = Script {
                pace: Pace::new(),
                stats: WorkerStats::default(),
                policy: Policy::new(rules),
            };
            script.pace.restart(&script.stats, awake);
            script
        }

        /// An epoch in which the worker handled `messages`, stole `steals` times of which
        /// `back` were steals back, ending with `awake` workers awake.
        fn epoch(&mut self, messages: u64, (steals, back): (u64, u64), awake: usize) {
            bump_by(&self.stats.handled, messages);
            bump_by(&self.stats.steals, steals);
            bump_by(&self.stats.stolen_back, back);
            self.pace.end_epoch(&self.stats, &self.policy, awake);
        }
    }

    #[test]
    fn an_epoch_alone_releases_held_wake_ups() {
        let mut s = Script::new(Governor::adaptive(), 1);
        s.policy.wake.learned(2);
        s.policy.wake.hold();
        assert!(!s.policy.wake.wakes(1000));
        // Too few messages: a long computation says nothing.
        s.epoch(MIN_MESSAGES - 1, (0, 0), 1);
        assert!(!s.policy.wake.wakes(1000));
        s.epoch(1000, (0, 0), 1);
        assert_eq!(s.policy.wake.backlog(), 4);
    }

    #[test]
    fn an_epoch_that_a_worker_woke_or_parked_in_is_not_alone() {
        for (began, ended) in [(1, 2), (2, 1), (2, 2)] {
            let mut s = Script::new(Governor::adaptive(), began);
            s.policy.wake.learned(2);
            s.policy.wake.hold();
            s.epoch(1000, (0, 0), ended);
            assert!(!s.policy.wake.wakes(1000), "{began} to {ended}");
        }
    }

    #[test]
    fn steals_back_start_the_labels_unless_the_rule_is_off() {
        for (rules, labels) in [
            (Governor::adaptive(), true),
            (Governor::adaptive().without(Rule::Labels), false),
            (Governor::plain().with(Rule::Labels), true),
        ] {
            let mut s = Script::new(rules, 2);
            s.epoch(10, (8, GROUP_STEALS_BACK), 2);
            assert_eq!(s.policy.yardstick.grouping(), labels, "{rules}");
            assert_eq!(s.pace.labels(&s.policy, || 2), labels, "{rules}");
        }
    }

    #[test]
    fn steals_back_after_epochs_alone_still_start_the_labels() {
        // A first phase run alone for many epochs, then a tug of war: a program's later
        // phase is watched as its first is.
        let mut s = Script::new(Governor::adaptive(), 1);
        for _ in 0..100 {
            s.epoch(1000, (0, 0), 1);
        }
        s.epoch(1000, (0, 0), 2);
        assert!(!s.policy.yardstick.grouping());
        s.epoch(10, (8, GROUP_STEALS_BACK), 2);
        assert!(s.policy.yardstick.grouping());
    }

    #[test]
    fn an_epoch_alone_leaves_its_steals_to_the_next_tally() {
        // An epoch alone does not read the tally; its steals stay counted in it, and the
        // next epoch in company reads them.
        let mut s = Script::new(Governor::adaptive(), 1);
        s.epoch(1000, (8, GROUP_STEALS_BACK), 1);
        assert!(!s.policy.yardstick.grouping());
        s.epoch(10, (0, 0), 2);
        assert!(s.policy.yardstick.grouping());
    }

    #[test]
    fn trees_of_spawns_never_label() {
        let mut s = Script::new(Governor::adaptive(), 2);
        for _ in 0..64 {
            s.epoch(10, (100, 0), 2);
        }
        assert!(!s.policy.yardstick.grouping());
    }

    #[test]
    fn a_tally_of_many_steals_without_steals_back_starts_afresh() {
        // Just under the tally's length: the steals back that come next are measured
        // against every steal so far, and four among 285 are too few.
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(10, (TALLY_STEALS - 1, 0), 2);
        s.epoch(10, (30, GROUP_STEALS_BACK), 2);
        assert!(!s.policy.yardstick.grouping());
        // A whole tally without steals back is forgotten: the same steals back then
        // start the labels.
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(10, (TALLY_STEALS, 0), 2);
        s.epoch(10, (30, GROUP_STEALS_BACK), 2);
        assert!(s.policy.yardstick.grouping());
    }

    #[test]
    fn a_worker_alone_long_enough_stops_reading_labels() {
        let mut s = Script::new(Governor::adaptive(), 2);
        s.epoch(10, (8, GROUP_STEALS_BACK), 2);
        // The other worker parks during this epoch: it is not alone at both ends.
        s.epoch(10, (0, 0), 1);
        for _ in 0..LABEL_ALONE_EPOCHS {
            assert!(s.pace.labels(&s.policy, || 1));
            s.epoch(10, (0, 0), 1);
        }
        assert!(!s.pace.labels(&s.policy, || 1), "alone for an age");
        assert!(
            s.pace.labels(&s.policy, || 2),
            "somebody woke: labels at once"
        );
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
}
