//! The watcher's timing: how long the parked worker that watches sleeps between looks
//! ([`crate::scheduler::watch`] is the mechanism: the role and what a look sees).
//!
//! While another worker is awake the watcher looks every [`WATCH_EVERY`]: a task behind a
//! long turn waits about that long at most. While every worker is parked the period
//! doubles at each look up to [`WATCH_IDLE_MOST`], so an idle system wakes one thread
//! about once a second. Whether anybody watches at all is [`super::Rule::Watcher`].

use std::time::Duration;

use super::tunables::{WATCH_EVERY, WATCH_IDLE_MOST};

/// The period of a watch that begins.
pub(crate) const fn first_period() -> Duration {
    WATCH_EVERY
}

/// The period after a look that found nothing stranded, the last period having been
/// `last`, with every worker parked or not.
pub(crate) fn next_period(last: Duration, all_parked: bool) -> Duration {
    if all_parked {
        (last * 2).min(WATCH_IDLE_MOST)
    } else {
        WATCH_EVERY
    }
}

/// Whether a period of `period` is a long (deep) sleep: a worker that wakes meanwhile
/// nudges the watcher back to [`WATCH_EVERY`], and what the watcher saw before it is old.
pub(crate) fn is_deep(period: Duration) -> bool {
    period > WATCH_EVERY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_period_doubles_while_everybody_sleeps_and_resets_when_somebody_wakes() {
        let mut period = first_period();
        assert_eq!(period, WATCH_EVERY);
        assert!(!is_deep(period));
        period = next_period(period, true);
        assert_eq!(period, WATCH_EVERY * 2);
        assert!(is_deep(period));
        for _ in 0..20 {
            period = next_period(period, true);
        }
        assert_eq!(period, WATCH_IDLE_MOST, "never longer than the most");
        assert_eq!(next_period(period, false), WATCH_EVERY);
    }
}
