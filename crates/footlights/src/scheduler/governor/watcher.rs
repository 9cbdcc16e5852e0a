//! The watcher's timing: how long the parked worker that watches sleeps between looks
//! ([`crate::scheduler::watch`] is the mechanism: the role and what a look sees).
//!
//! A watch begins looking every [`WATCH_EVERY`]. Each look that sees no worker running
//! long turns doubles the period: up to [`WATCH_BUSY_MOST`] while another worker is awake,
//! up to [`WATCH_IDLE_MOST`] while every worker is parked. A look that sees long turns
//! brings it back to [`WATCH_EVERY`], so that the work behind them is found within a tick
//! or two, and is rescued if any is stranded. So a system whose turns are short (almost
//! every program) is looked at every few milliseconds rather than every millisecond, and an
//! idle one about once a second.
//!
//! A sleep longer than [`WATCH_BUSY_MOST`] is *deep*: a worker that wakes meanwhile nudges
//! the watcher ([`crate::scheduler::watch`], "Who watches"), whose period is then
//! [`WATCH_BUSY_MOST`] (the doubling from a deep period, bounded while somebody is awake),
//! and what it saw before the deep sleep is forgotten (a worker just woken would look busy
//! for all that time). Before the period adapted while workers were awake (up to
//! 2026-11-28), it was [`WATCH_EVERY`] whenever anybody was awake, and a worker's wake-up
//! after any sleep longer than that nudged the watcher: a service handling 100 messages a
//! second spent a third of its CPU on the watcher (`docs/scaling.md`, "The watcher's
//! period"). Whether anybody watches at all is [`super::Rule::Watcher`].

use std::time::Duration;

use super::tunables::{WATCH_BUSY_MOST, WATCH_EVERY, WATCH_IDLE_MOST};

/// The period of a watch that begins.
pub(crate) const fn first_period() -> Duration {
    WATCH_EVERY
}

/// The period after a look that found nothing stranded, the last period having been
/// `last`, with every worker parked or not, and some worker seen running long turns or
/// not.
pub(crate) fn next_period(last: Duration, all_parked: bool, long_turns: bool) -> Duration {
    if long_turns {
        WATCH_EVERY
    } else if all_parked {
        (last * 2).min(WATCH_IDLE_MOST)
    } else {
        (last * 2).min(WATCH_BUSY_MOST)
    }
}

/// Whether a period of `period` is a deep sleep: a worker that wakes meanwhile nudges the
/// watcher, and what the watcher saw before it is old.
pub(crate) fn is_deep(period: Duration) -> bool {
    period > WATCH_BUSY_MOST
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_period_doubles_while_everybody_sleeps_up_to_the_idle_bound() {
        let mut period = first_period();
        assert_eq!(period, WATCH_EVERY);
        for _ in 0..20 {
            period = next_period(period, true, false);
        }
        assert_eq!(period, WATCH_IDLE_MOST, "never longer than the most");
        assert!(is_deep(period));
    }

    #[test]
    fn with_somebody_awake_it_backs_off_to_the_busy_bound_while_turns_are_short() {
        let mut period = first_period();
        let mut looks = 0;
        while period < WATCH_BUSY_MOST {
            period = next_period(period, false, false);
            looks += 1;
            assert!(!is_deep(period), "no nudge while somebody is awake");
        }
        assert_eq!(period, WATCH_BUSY_MOST);
        assert!(looks >= 2, "it backs off step by step");
        assert_eq!(next_period(period, false, false), WATCH_BUSY_MOST);
        // A nudge out of a deep sleep: the busy bound, not a tick.
        assert_eq!(next_period(WATCH_IDLE_MOST, false, false), WATCH_BUSY_MOST);
    }

    #[test]
    fn long_turns_bring_it_back_to_a_tick() {
        assert_eq!(next_period(WATCH_BUSY_MOST, false, true), WATCH_EVERY);
        assert_eq!(next_period(WATCH_IDLE_MOST, true, true), WATCH_EVERY);
    }
}
