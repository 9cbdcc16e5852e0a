//! Where a task comes from: the next slot (at most
//! [`NEXT_SLOT_STREAK`] in a row), the
//! worker's own queues in turns, the injector, and the cadences that look at the inbox,
//! the injector and the oldest spawn first (see the module documentation of [`super`]).
//! Every [`ABSORB_EVERY`] picks the worker also hands the governor its cadence point:
//! the pace's tick, the labels, whether it is alone ([`super::super::governor`]); a pool
//! worker of several that is alone for now (FIFO order), only every [`ALONE_LOOK_EVERY`]
//! picks while waking does not pay and nothing waits in its inbox or the injector.

use crate::sync::deque::Steal;

use super::super::governor::tunables::{
    ABSORB_EVERY, ALONE_LOOK_EVERY, INJECTOR_EVERY, NEXT_SLOT_STREAK, NURSERY_EVERY_MASK,
    NURSERY_PICK, PACE_EVERY, PINNED_EVERY_MASK,
};
use super::super::{SchedulerKind, Task};
use super::Worker;

impl Worker {
    /// The oldest task pinned to this stage: what this worker queued, then the inbox.
    #[inline]
    pub(super) fn take_own(&self) -> Option<Task> {
        let local = self.local.borrow_mut().pop_front();
        local.or_else(|| self.stage.take())
    }

    /// The next task to run, or `None` when this worker's own queues hold nothing (or a
    /// flood said to give the work back).
    ///
    /// The common picks, in line (a pick at no cadence point: the next slot in FIFO
    /// order, or the next slot within its streak), so that a turn that goes on in place
    /// ([`super::super::scheduled::Runnable::run_turns`]) picks as cheaply as the pick
    /// loop; every other pick is [`Worker::pick_at`]'s, out of line.
    #[inline(always)]
    pub(super) fn next_task(&self) -> Option<Task> {
        let picks = self.picks.get().wrapping_add(1);
        self.picks.set(picks);
        if picks % ABSORB_EVERY != 0 {
            if self.keeps_fifo() {
                // As `pick_at` does, with no look due at the nursery or the injector.
                if let Some(task) = self.next.take() {
                    return Some(task);
                }
                return self.take_in_order();
            }
            let streak = self.streak.get();
            if picks % INJECTOR_EVERY != 0 && streak < NEXT_SLOT_STREAK {
                if let Some(task) = self.next.take() {
                    self.streak.set(streak + 1);
                    return Some(task);
                }
            }
        }
        self.pick_at(picks)
    }

    /// The pick numbered `picks` (already counted), in full: the cadences, then the
    /// queues in their turns.
    #[inline(never)]
    fn pick_at(&self, picks: u32) -> Option<Task> {
        if picks % ABSORB_EVERY == 0 {
            if self.solo {
                self.refresh_order();
            } else if self.paced {
                if self.keeps_fifo() && self.keeping() {
                    // The first look after a keeping turn (see `super::keep`).
                    self.end_keeping();
                }
                if self.keeps_fifo()
                    && picks % ALONE_LOOK_EVERY != 0
                    && self.sched.policy.wake.backlog() > 1
                    && self.stage.inbox.is_empty()
                    && self.sched.injector.is_empty()
                {
                    // Alone for now, and nothing from other threads waits: the look is one
                    // in [`ALONE_LOOK_EVERY`] picks. No flood is counted meanwhile
                    // (`pushed_queued`), so none is due. Work in its inbox or the injector
                    // (from outside, or given back) is still looked at every
                    // [`ABSORB_EVERY`] picks, and so is everything once waking pays again
                    // (the watcher saw long turns: the threshold is back to 1), which
                    // leaves FIFO order.
                    if let Some(task) = self.next.take() {
                        return Some(task);
                    }
                    return self.take_in_order();
                }
                if self.give_back_due.get() {
                    // A cross flood said so (see `governor::flood`): the loop gives back.
                    return None;
                }
                if self.stage.take_give_back_request() {
                    // Another worker's keeping turn asked (see `super::keep`): the loop
                    // gives back.
                    self.asked_to_give_back.set(true);
                    self.give_back_due.set(true);
                    return None;
                }
                if picks % PACE_EVERY == 0 {
                    let (sleepers, policy) = (&self.sched.sleepers, &self.sched.policy);
                    self.pace.tick(self.stats(), policy, || sleepers.awake());
                    let grouping = self.pace.labels(policy, || sleepers.awake());
                    if grouping != self.grouping.get() {
                        self.set_grouping(grouping);
                    }
                }
                self.refresh_alone();
            }
            if self.kind == SchedulerKind::Stages || self.keeps_fifo() {
                self.absorb_external();
            }
        }
        if self.keeps_fifo() {
            // A lone worker spawns into no nursery (nobody could steal from it) and has
            // just queued what the injector held (`absorb_external`): only a worker alone
            // for now has anything to look at here.
            debug_assert!(!self.solo || self.nursery.is_empty());
            if picks % ABSORB_EVERY == 0 && !self.solo {
                if let Some(task) = self.take_oldest_spawned().or_else(|| self.take_injected()) {
                    // A worker alone for now looks at its nursery and the injector last:
                    // this bounds how long a spawn, or work from outside, waits behind a
                    // busy FIFO.
                    return Some(task);
                }
            }
            // Oldest first: the next slot is filled only when the FIFO is empty. The slot's
            // task returns on its own: through the chain below, it was kept on the stack
            // and tested once a link.
            if let Some(task) = self.next.take() {
                return Some(task);
            }
            return self.take_in_order();
        }
        if picks % INJECTOR_EVERY == 0 {
            if let Some(task) = self.stage.take().or_else(|| self.take_injected()) {
                // The hand-off in the next slot would wait behind this turn from outside,
                // which may be long: where other workers may steal it (`super::watch`).
                self.flush_next();
                return Some(task);
            }
            if let Some(task) = self.take_oldest_spawned() {
                return Some(task);
            }
        }
        if let Some(task) = self.next.take() {
            let streak = self.streak.get();
            if streak < NEXT_SLOT_STREAK {
                self.streak.set(streak + 1);
                return Some(task);
            }
            if self.queue.is_empty() && self.local.borrow().is_empty() && self.nursery.is_empty() {
                // Nothing waits behind the chain (no spawn either): it goes on here, and
                // nobody is woken for a task this worker would run next anyway.
                self.streak.set(0);
                return Some(task);
            }
            self.spill(task, self.next_pinned.get());
        }
        self.streak.set(0);
        if picks & NURSERY_EVERY_MASK == NURSERY_PICK {
            // The nursery first, so that neither pinned work nor the deque starves it.
            self.take_spawned()
                .or_else(|| self.take_own())
                .or_else(|| self.queue.pop())
                .or_else(|| self.take_injected())
        } else if picks & PINNED_EVERY_MASK == 0 {
            if let Some(task) = self.take_own() {
                return Some(task);
            }
            self.take_spawned()
                .or_else(|| self.queue.pop())
                .or_else(|| self.take_injected())
        } else {
            self.queue
                .pop()
                .or_else(|| self.take_spawned())
                .or_else(|| self.take_own())
                .or_else(|| self.take_injected())
        }
    }

    /// FIFO order's pick after an empty next slot: the private FIFO, then (empty but for a
    /// steal's batch, two loads to find it empty) the deque, the nursery, the inbox and
    /// the injector.
    #[inline(never)]
    fn take_in_order(&self) -> Option<Task> {
        let own = self.local.borrow_mut().pop_front();
        own.or_else(|| self.queue.pop())
            .or_else(|| self.take_spawned())
            .or_else(|| self.stage.take())
            .or_else(|| self.take_injected())
    }

    /// The newest actor this worker spawned that has not run yet (see the module
    /// documentation, "Spawns"). Two loads when the nursery is empty (always, but on a pool
    /// worker of several that spawns); the pop itself, with its fence, stays out of line.
    #[inline]
    pub(super) fn take_spawned(&self) -> Option<Task> {
        if self.nursery.is_empty() {
            return None;
        }
        self.pop_spawned()
    }

    #[inline(never)]
    pub(super) fn pop_spawned(&self) -> Option<Task> {
        self.nursery.pop()
    }

    /// The oldest actor this worker spawned that has not run yet, taken from the end
    /// thieves take from: newest first alone would let a worker that keeps spawning
    /// leave its first spawns waiting for ever, so every [`INJECTOR_EVERY`] picks (every
    /// [`ABSORB_EVERY`] while it keeps FIFO order, every [`ALONE_LOOK_EVERY`] while it is
    /// alone for now and nothing from other threads waits) the oldest goes first.
    pub(super) fn take_oldest_spawned(&self) -> Option<Task> {
        if self.nursery.is_empty() {
            return None;
        }
        let own = &self.sched.stealers[self.pool_index?].nursery;
        loop {
            match own.steal() {
                Steal::Success(task) => return Some(task),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Reads the order automatic placement chose for this lone worker. Entering FIFO order,
    /// it moves what hand-off order left in its deque (batches from the injector) to the
    /// back of its FIFO, where FIFO order looks.
    pub(super) fn refresh_order(&self) {
        let fifo = self.fifo_rule && self.stage.keeps_fifo();
        if fifo == self.fifo.get() {
            // As almost always: nothing to change.
            return;
        }
        if fifo {
            let mut local = self.local.borrow_mut();
            while let Some(task) = self.queue.pop() {
                local.push_back(task);
            }
        }
        self.set_fifo(fifo);
    }

    /// A stage worker, or a lone worker in FIFO order, queues what other threads scheduled
    /// (its inbox; the injector, which only a lone stealing worker uses) behind what it
    /// scheduled itself, within [`ABSORB_EVERY`] picks. (A pool worker of several alone
    /// for now takes the injector's tasks one at a time instead, every [`ABSORB_EVERY`]
    /// picks: in its private FIFO they would wait behind a turn that blocks, where no
    /// other worker sees them; in the injector every worker does, see `super::watch`.) Otherwise a pair of actors
    /// handing work back and forth would keep the private FIFO busy, and the rest would be
    /// looked at only every [`INJECTOR_EVERY`] picks: chameneos's first creatures met
    /// dozens of times before the main thread's last creature started (on one stage, the
    /// counts fell steadily from 5,857 for the first creature to 5,659 for the last).
    #[inline]
    pub(super) fn absorb_external(&self) {
        // Two loads when nothing arrived, which is almost always.
        let injector = &self.sched.injector;
        if self.stage.inbox.is_empty() && injector.is_empty() {
            return;
        }
        let mut local = self.local.borrow_mut();
        while let Some(task) = self.stage.take() {
            local.push_back(task);
        }
        while self.solo && !injector.is_empty() {
            match injector.steal() {
                Steal::Success(task) => {
                    self.arrived(&task);
                    local.push_back(task);
                }
                Steal::Empty => break,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Notes, for the sampler, that `task` now runs on this worker. Tasks change workers
    /// only when taken from the injector or stolen, so that is the only place this is
    /// needed (spawns record their spawner's stage).
    #[inline]
    pub(super) fn arrived(&self, task: &Task) {
        if let (true, Some(k)) = (self.sampler.enabled(), self.pool_index) {
            task.home().ran_on(k);
        }
    }

    pub(super) fn take_injected(&self) -> Option<Task> {
        let injector = &self.sched.injector;
        if injector.is_empty() {
            // As for a stage's inbox (`Stage::take`): no fence to find nothing.
            return None;
        }
        loop {
            let stolen = match self.kind {
                // One at a time in FIFO order: a batch would wait in the deque, where FIFO
                // order does not look.
                SchedulerKind::Steal if self.keeps_fifo() => injector.steal(),
                SchedulerKind::Steal => injector.steal_batch_and_pop(&self.queue),
                SchedulerKind::Share => injector.steal(),
                SchedulerKind::Stages => return None,
            };
            match stolen {
                Steal::Success(task) => {
                    self.arrived(&task);
                    return Some(task);
                }
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }
}
