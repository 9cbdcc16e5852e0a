//! The governor: every adaptive decision of the work-stealing scheduler, apart from the
//! mechanism that carries it out.
//!
//! The mechanism (a worker's queues, searching and stealing, parking, starting threads,
//! the watcher's look) knows how to do things; the governor decides when. Which of its
//! rules apply is a [`Governor`], a set of [`Rule`]s chosen with the builder or
//! `FOOTLIGHTS_GOVERNOR` ([`rules`]).

pub(crate) mod rules;

pub use rules::{Governor, Rule};
pub(crate) mod flood;
pub(crate) mod labels;
pub(crate) mod pace;
pub(crate) mod tunables;
pub(crate) mod wake;
pub(crate) mod watcher;

use pace::Yardstick;
use tunables::SEARCHERS_OF_ACTIVE;
use wake::WakeThreshold;

/// What the governor keeps for a whole system: the rules in effect, the wake threshold,
/// and what the workers' paces share (whether groups are labelled). Each worker keeps its
/// own epoch ([`pace::Pace`]) and flood count ([`flood::Flood`]).
pub(crate) struct Policy {
    /// The rules in effect.
    pub(crate) rules: Governor,
    /// The wake threshold, and every change to it.
    pub(crate) wake: WakeThreshold,
    /// The labels' switch.
    pub(crate) yardstick: Yardstick,
}

impl Policy {
    /// The policy of a system whose governor is `rules`.
    pub(crate) fn new(rules: Governor) -> Policy {
        Policy {
            rules,
            wake: WakeThreshold::new(rules),
            yardstick: Yardstick::new(),
        }
    }
}

impl Policy {
    /// How many of `threads` pool workers may be awake for shared work at once, on a
    /// process that may run on `cpus` CPUs: no more than the CPUs under [`Rule::Cap`]
    /// (the others start only when first woken), else every worker.
    pub(crate) fn active(rules: Governor, threads: usize, cpus: usize) -> usize {
        if rules.has(Rule::Cap) {
            cpus.clamp(1, threads.max(1))
        } else {
            threads
        }
    }

    /// How many workers may search at once when `active` may be awake: half (at least
    /// one), under every governor.
    #[inline]
    pub(crate) fn searchers(active: usize) -> usize {
        (active / SEARCHERS_OF_ACTIVE).max(1)
    }

    /// Whether a pool worker of several, the only one awake (`awake` workers are), should
    /// keep FIFO order in its private queue, as a lone worker does: under [`Rule::Fifo`],
    /// once waking has been found not to pay (the threshold is above 1; else the first
    /// task queued would publish the queue again at once).
    pub(crate) fn alone_for_now(&self, awake: usize) -> bool {
        self.rules.has(Rule::Fifo) && awake == 1 && self.wake.backlog() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_keeps_as_many_awake_as_cpus() {
        let adaptive = Governor::adaptive();
        assert_eq!(Policy::active(adaptive, 8, 2), 2);
        assert_eq!(Policy::active(adaptive, 2, 8), 2);
        assert_eq!(Policy::active(adaptive.without(Rule::Cap), 8, 2), 8);
    }

    #[test]
    fn half_the_active_workers_search() {
        assert_eq!(Policy::searchers(1), 1);
        assert_eq!(Policy::searchers(2), 1);
        assert_eq!(Policy::searchers(8), 4);
    }

    #[test]
    fn a_worker_is_alone_for_now_only_once_waking_does_not_pay() {
        let policy = Policy::new(Governor::adaptive());
        assert!(!policy.alone_for_now(1), "the threshold is 1: waking pays");
        policy.wake.learned(4);
        assert!(policy.alone_for_now(1));
        assert!(!policy.alone_for_now(2), "somebody else is awake");
        let plain = Policy::new(Governor::adaptive().without(Rule::Fifo));
        plain.wake.learned(4);
        assert!(!plain.alone_for_now(1), "the rule is off");
    }
}
