//! The watcher's look: reads every other worker's counters and deque ends, and says
//! whether work waits behind a long turn ([`super::super::watch`]).

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::super::watch::{Counts, Look};
use super::Worker;

impl Worker {
    /// One look of the watcher at the other workers: whether one of them runs long turns,
    /// and whether one such holds stealable work behind them.
    #[cold]
    pub(super) fn watch_once(&self, index: usize) -> Look {
        let sched = &self.sched;
        let now = Instant::now();
        let look = sched.sleepers.with_parked(|parked| {
            self.sightings.look(
                index,
                now,
                |k| {
                    let stats = &sched.stages[k].stats;
                    Counts {
                        turns: stats.turns.load(Ordering::Relaxed),
                        idle: stats
                            .searches
                            .load(Ordering::Relaxed)
                            .wrapping_add(stats.parks.load(Ordering::Relaxed)),
                        parked: parked.contains(&k),
                    }
                },
                |k| !sched.stealers[k].deque.is_empty() || !sched.stealers[k].nursery.is_empty(),
                !sched.injector.is_empty(),
            )
        });
        if look.long_turns {
            sched.policy.wake.long_turn_seen();
        }
        look
    }
}
