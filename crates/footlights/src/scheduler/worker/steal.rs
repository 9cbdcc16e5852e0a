//! Searching and stealing: the injector, then other workers' nurseries and deques from a
//! random victim, by halves, or by whole groups once the system labels them
//! ([`super::super::group`]); and the short search before parking.

use std::ptr;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::sync::deque::Steal;

use super::super::governor::labels;
use super::super::governor::tunables::{LONG_TURN, SATURATED_TURNS, SEARCH_ROUNDS};
use super::super::{SchedulerKind, Task};
use super::Worker;
use crate::metrics::{bump, bump_by};

impl Worker {
    /// Takes from the injector, or steals from another worker's deque (work stealing only),
    /// starting at a random victim.
    pub(super) fn steal(&self) -> Option<Task> {
        if let Some(task) = self.take_injected() {
            return Some(task);
        }
        let stealers = &self.sched.stealers;
        let n = stealers.len();
        if n < 2 || self.kind != SchedulerKind::Steal {
            return None;
        }
        let index = self.pool_index.unwrap_or(usize::MAX);
        let start = self.rng.below(n as u64) as usize;
        // Nobody else awake: nobody to pull a group back, so half a deque is no tug of war.
        let by_groups = labels::by_groups(self.grouping.get(), || self.sched.sleepers.awake());
        let mut retry = true;
        while retry {
            retry = false;
            for k in 0..n {
                let victim = (start + k) % n;
                if victim == index {
                    continue;
                }
                // The oldest spawns first: in a tree of spawns, the largest subtrees.
                for (from, into) in [
                    (&stealers[victim].nursery, &self.nursery),
                    (&stealers[victim].deque, &self.queue),
                ] {
                    if from.is_empty() {
                        // Two loads; a steal pins an epoch (a fence) before it finds that.
                        continue;
                    }
                    let deque = ptr::eq(from, &stealers[victim].deque);
                    if deque && self.declined.get() {
                        continue;
                    }
                    if deque && by_groups {
                        match self.steal_groups(victim) {
                            Some(task) => return Some(task),
                            None => continue,
                        }
                    }
                    let before = into.len();
                    match from.steal_batch_and_pop(into) {
                        Steal::Success(task) => {
                            bump(&self.stats().steals);
                            if self.paced {
                                self.note_stolen(&task, index);
                            }
                            let moved = into.len().saturating_sub(before) as u64 + 1;
                            bump_by(&self.stats().stolen, moved);
                            self.arrived(&task);
                            return Some(task);
                        }
                        Steal::Retry => retry = true,
                        Steal::Empty => {}
                    }
                }
            }
        }
        None
    }

    /// Counts a steal back: the first task of a steal is an actor this worker stole before
    /// (and nobody stole from it since), so it went back to the victim's worker in the
    /// meantime, woken there (see [`crate::scheduler::governor::pace`], "Steals back, and the labels"). Then marks the task as
    /// stolen by this worker.
    #[cold]
    pub(super) fn note_stolen(&self, task: &Task, index: usize) {
        let home = task.home();
        if home.last_stage() == Some(index) {
            bump(&self.stats().stolen_back);
        }
        home.ran_on(index);
    }

    /// Steals whole groups from worker `victim`'s deque, or declines (see
    /// [`crate::scheduler::group`]); the first task kept, if any. Counted as one steal.
    #[cold]
    #[inline(never)]
    pub(super) fn steal_groups(&self, victim: usize) -> Option<Task> {
        let from = &self.sched.stealers[victim].deque;
        let most = labels::steal_most(from.len());
        let mut taken: Vec<Task> = Vec::with_capacity(most);
        while taken.len() < most {
            match from.steal() {
                Steal::Success(task) => taken.push(task),
                Steal::Empty => break,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
        if taken.is_empty() {
            return None;
        }
        let label = |task: &Task| task.home().group.label();
        let seen: Vec<u64> = taken.iter().map(label).collect();
        let split = labels::split(&seen);
        // One group, whose worker is busy with long turns: half of it, the oldest half, as a
        // steal without labels would take (see `super::group`, "Long turns").
        let halves = labels::halves(split.is_none(), || self.saturated(victim));
        let keep = split.unwrap_or_default();
        let half = taken.len().div_ceil(2);
        let stats = self.stats();
        let mut first = None;
        let mut kept = 0u64;
        for (i, task) in taken.into_iter().enumerate() {
            let take = if halves {
                i < half
            } else {
                keep.binary_search(&label(&task)).is_ok()
            };
            if take {
                kept += 1;
                self.arrived(&task);
                if first.is_none() {
                    first = Some(task);
                } else {
                    self.queue.push(task);
                }
            } else {
                self.sched.push_stage(victim, task, Some(stats));
            }
        }
        if first.is_some() {
            bump(&stats.steals);
            bump_by(&stats.stolen, kept);
        } else {
            self.declined.set(true);
        }
        first
    }

    /// Whether worker `victim`, whose one group this worker would decline to split, is
    /// *saturated with long turns* (see [`crate::scheduler::group`], "Long turns"): in [`LONG_TURN`],
    /// it neither runs [`SATURATED_TURNS`] turns nor runs out of work (a search, or
    /// parking). Watches its counters until one or the other is known, so the watch is
    /// short where the decline stands: a worker running a chatty group's short turns
    /// (chameneos, big) runs two within microseconds, or, if this worker holds all it had,
    /// searches.
    #[cold]
    #[inline(never)]
    pub(super) fn saturated(&self, victim: usize) -> bool {
        let stats = &self.sched.stages[victim].stats;
        let turns = stats.turns.load(Ordering::Relaxed);
        let searches = stats.searches.load(Ordering::Relaxed);
        let start = Instant::now();
        loop {
            std::hint::spin_loop();
            if stats.turns.load(Ordering::Relaxed).wrapping_sub(turns) >= SATURATED_TURNS
                || stats.searches.load(Ordering::Relaxed) != searches
                || self.sched.sleepers.awake() < 2
            {
                return false;
            }
            if start.elapsed() >= LONG_TURN || self.sched.is_shutdown() {
                return true;
            }
        }
    }

    /// Looks for work for a short while before parking: a hand-off from a busy worker
    /// usually arrives within microseconds, and parking and waking cost more than that.
    /// Between looks it spins, or, on a process that may run on one CPU, yields the CPU
    /// ([`search_yields`]).
    pub(super) fn search(&self) -> Option<Task> {
        for round in 0..SEARCH_ROUNDS {
            if let Some(task) = self.stage.take().or_else(|| self.steal()) {
                return Some(task);
            }
            if self.sched.is_shutdown() {
                return None;
            }
            if self.sched.search_yields {
                std::thread::yield_now();
            } else {
                for _ in 0..(1u32 << round) {
                    std::hint::spin_loop();
                }
            }
        }
        None
    }
}

/// Whether a searching worker yields its CPU between looks, rather than spinning, on a
/// process that may run on `cpus` CPUs: on one CPU the thread that would hand it work
/// (a thread outside the pool, spawning or sending) cannot run while it spins.
pub(crate) fn search_yields(cpus: usize) -> bool {
    cpus == 1
}
