//! Where a task goes: the worker's next slot, its deque, its nursery, its private FIFO
//! (pinned work, and FIFO order), or another worker's inbox or the injector (see the
//! module documentation of [`super`] for the orders and why). Together with
//! [`super::pick`], the worker's local queues.

use std::collections::VecDeque;
use std::sync::Arc;

use super::super::governor::flood::Verdict;
use super::super::governor::tunables::ABSORB_EVERY;
#[cfg(doc)]
use super::super::governor::tunables::ALONE_LOOK_EVERY;
use super::super::home::Home;
use super::super::{SchedulerKind, Site, Task};
use super::{
    FIFO, GROUPING, PLAIN, POOL_IN_ORDER, POOL_IN_ORDER_SHARED, POOL_NEXT, POOL_OTHER, Worker,
};
use crate::metrics::bump;

impl Worker {
    /// Schedules `task`, whose home said `site`, from this worker (a fresh scheduling:
    /// counted, and eligible for the next slot).
    #[inline(always)]
    pub(crate) fn schedule(&self, task: Task, site: Site) {
        bump(&self.stats().scheduled);
        self.schedule_counted(task, site);
    }

    /// Schedules `task` as [`Worker::schedule`] does, whose scheduling the caller has
    /// counted already (a send that woke its actor: `WorkerStats::sent_waking`).
    #[inline(always)]
    pub(crate) fn schedule_counted(&self, task: Task, site: Site) {
        self.place(task, site, true);
    }

    /// Schedules the actor `task` just spawned from this worker, whose home said `site`
    /// (counted as [`Worker::schedule`] counts). A pool actor spawned on a pool worker of
    /// several goes on top of the nursery (see the module documentation, "Spawns"), and
    /// wakes a sleeper once the nursery is as long as the wake threshold.
    #[inline]
    pub(crate) fn spawned(&self, task: Task, site: Site) {
        if site == Site::Pool && self.nursery_spawns {
            bump(&self.stats().scheduled);
            self.nursery.push(task);
            if self.nursery_wakes() {
                self.waking(|| self.sched.notify_one(Some(self.stats())));
            }
            return;
        }
        self.schedule(task, site);
    }

    /// Puts a still-scheduled task back where its home says (its turn ended with work
    /// left, or with a push halfway through).
    #[inline]
    pub(crate) fn requeue(&self, task: Task, site: Site) {
        self.place(task, site, false);
    }

    #[inline(always)]
    pub(super) fn place(&self, task: Task, site: Site, fresh: bool) {
        if site == Site::Pool && fresh {
            // The common cases, kept short: a hand-off under work stealing, chosen by one
            // byte (see `pool_hand_off`).
            match self.pool_hand_off.get() {
                POOL_IN_ORDER => return self.hand_off_in_order(task, true),
                POOL_NEXT => return self.set_next(task, false),
                POOL_IN_ORDER_SHARED => return self.hand_off_in_order(task, false),
                _ => {}
            }
            if self.steal_pool {
                self.hand_off(task, self.solo);
                return;
            }
        }
        self.place_elsewhere(task, site, fresh);
    }

    /// A fresh scheduling from this worker: the next slot, unless this is a lone worker
    /// that automatic placement told to keep plain FIFO order; then the next slot takes a
    /// task only when nothing else waits (so it is always the oldest task, and a ring's
    /// hand-off still skips the queue).
    #[inline(always)]
    pub(super) fn hand_off(&self, task: Task, pinned: bool) {
        match self.hand_off_mode.get() {
            PLAIN => self.set_next(task, pinned),
            FIFO => self.hand_off_in_order(task, pinned),
            _ => self.hand_off_grouping(task, pinned),
        }
    }

    /// A hand-off in FIFO order (see the module documentation). Inlined into the send: out
    /// of line, its call, return and argument moves were a tenth of its cost.
    #[inline(always)]
    pub(super) fn hand_off_in_order(&self, task: Task, pinned: bool) {
        if self.has_next() || !self.local_is_empty() {
            self.queue_privately(task);
        } else {
            self.set_next(task, pinned);
        }
    }

    /// Whether the private FIFO is empty, read without a borrow of the `RefCell`: the FIFO
    /// hand-off's test, on every send that wakes an actor on a lone worker. A borrow's
    /// flag test has a panic path, for which the caller kept the task in an unwind slot
    /// on its stack: with both gone, `hand_off_in_order` is a leaf without a frame (21
    /// instructions a ring hop to 9).
    #[inline(always)]
    pub(super) fn local_is_empty(&self) -> bool {
        debug_assert!(self.local.try_borrow_mut().is_ok());
        // SAFETY: `local` is this thread's (a `Worker` is not `Sync`), and no `RefMut` of
        // it is alive while a handler sends: every `borrow_mut` in this file ends within
        // the method that takes it, and none of them runs a turn meanwhile.
        unsafe { (*self.local.as_ptr()).is_empty() }
    }

    /// A hand-off while the system labels groups: the woken actor takes the running
    /// actor's label if that is smaller (see [`crate::scheduler::group`]).
    #[inline(never)]
    pub(super) fn hand_off_grouping(&self, task: Task, pinned: bool) {
        task.home().group.woken_by(self.running_label.get());
        if self.keeps_fifo() {
            self.hand_off_in_order(task, pinned);
        } else {
            self.set_next(task, pinned);
        }
    }

    /// Keeps FIFO order or not (see the module documentation).
    pub(super) fn set_fifo(&self, fifo: bool) {
        self.fifo.set(fifo);
        self.set_hand_off_mode();
    }

    pub(super) fn set_hand_off_mode(&self) {
        let mode = if self.grouping.get() {
            GROUPING
        } else if self.fifo.get() {
            FIFO
        } else {
            PLAIN
        };
        self.hand_off_mode.set(mode);
        let pool = match (self.steal_pool, self.solo, mode) {
            (true, true, FIFO) => POOL_IN_ORDER,
            (true, false, PLAIN) => POOL_NEXT,
            (true, false, FIFO) => POOL_IN_ORDER_SHARED,
            _ => POOL_OTHER,
        };
        self.pool_hand_off.set(pool);
    }

    /// Labels groups or not (see [`crate::scheduler::group`]). The only place `grouping`
    /// changes, so it also keeps `noted` (the sampler never changes).
    pub(super) fn set_grouping(&self, grouping: bool) {
        self.grouping.set(grouping);
        self.noted
            .set(self.sampler.enabled() || (self.paced && grouping));
        self.set_hand_off_mode();
    }

    /// Queues `task` at the back of the private FIFO (FIFO order). A worker that is alone
    /// only for now publishes the FIFO to its deque and wakes a sleeper once the FIFO is
    /// as long as the wake threshold (see the module documentation).
    #[inline(never)]
    pub(super) fn queue_privately(&self, task: Task) {
        let mut local = self.local.borrow_mut();
        local.push_back(task);
        if self.paced && self.sched.policy.wake.wakes(local.len()) && self.keeping.get().is_none() {
            drop(local);
            self.publish();
            self.waking(|| self.sched.notify_one(Some(self.stats())));
        }
    }

    /// Leaves FIFO order (this worker is no longer alone, or is about to wake somebody):
    /// the pool tasks in its private FIFO move to its deque, in order, where others can
    /// steal them; tasks pinned to this stage stay.
    #[cold]
    pub(super) fn publish(&self) {
        self.set_fifo(false);
        let mut local = self.local.borrow_mut();
        let here = self.pool_index;
        let mut pinned = VecDeque::new();
        for task in local.drain(..) {
            if matches!(task.home().target(), Site::Stage(k) if Some(k) == here) {
                pinned.push_back(task);
            } else {
                self.queue.push(task);
            }
        }
        *local = pinned;
    }

    /// A pool worker of several looks whether every other worker is parked (every
    /// [`ABSORB_EVERY`] picks; once alone, every [`ALONE_LOOK_EVERY`] while waking does not
    /// pay and nothing from other threads waits, and when it wakes from a park). Alone, it keeps FIFO order in its private FIFO, as a lone
    /// worker does (no atomic operation per task, and a hub's requests pile up and are
    /// served many a turn); when somebody else is awake again, it publishes the FIFO.
    pub(super) fn refresh_alone(&self) {
        // The governor decides ([`Policy::alone_for_now`](super::super::governor::Policy)).
        let alone = self.sched.policy.alone_for_now(self.sched.sleepers.awake());
        if alone == self.fifo.get() {
            return;
        }
        if alone {
            // What waits in the deque goes behind the next slot, in order.
            let mut local = self.local.borrow_mut();
            while let Some(task) = self.queue.pop() {
                local.push_back(task);
            }
            self.set_fifo(true);
        } else {
            self.publish();
        }
    }

    /// Whether this worker keeps FIFO order: a lone worker told to (as of its last look at
    /// the stage's flag, every [`ABSORB_EVERY`] picks), or a pool worker of several alone
    /// for now (as of its last look at its company, [`Worker::refresh_alone`]).
    #[inline]
    pub(super) fn keeps_fifo(&self) -> bool {
        self.fifo.get()
    }

    /// Puts `task` in the next slot; what was there spills to where it belongs.
    #[inline(always)]
    pub(super) fn set_next(&self, task: Task, pinned: bool) {
        let was_pinned = self.next_pinned.replace(pinned);
        if let Some(previous) = self.next.replace(Some(task)) {
            self.spill(previous, was_pinned);
        }
    }

    /// Queues a task that leaves the next slot: pinned work to the private FIFO, pool work
    /// to the deque, where idle workers can steal it.
    #[inline(never)]
    pub(super) fn spill(&self, task: Task, pinned: bool) {
        if pinned {
            self.local.borrow_mut().push_back(task);
        } else {
            self.queue.push(task);
            if self.backlog_wakes() {
                self.waking(|| self.sched.notify_one(Some(self.stats())));
            }
        }
    }

    /// Whether this worker's deque holds enough to wake a sleeper for (see
    /// [`crate::scheduler::park`], "Waking only when it pays").
    #[inline]
    pub(super) fn backlog_wakes(&self) -> bool {
        self.sched.policy.wake.wakes(self.queue.len())
    }

    /// Whether this worker's nursery holds enough to wake a sleeper for (as
    /// [`Worker::backlog_wakes`]).
    #[inline]
    pub(super) fn nursery_wakes(&self) -> bool {
        self.sched.policy.wake.wakes(self.nursery.len())
    }

    /// Runs `wake`, which may wake another thread. A sampled turn does not count the time
    /// as its own: it is the cost of a cross-thread hand-off, which co-locating the two
    /// actors would save, not work the actor needs a core for.
    #[inline]
    pub(super) fn waking(&self, wake: impl FnOnce()) {
        match self.sampler.recorder() {
            Some(recorder) if self.sampler.sampling() => {
                let mut wake = Some(wake);
                recorder.waking(&mut || {
                    if let Some(wake) = wake.take() {
                        wake();
                    }
                });
            }
            _ => wake(),
        }
    }

    #[inline(never)]
    pub(super) fn place_elsewhere(&self, task: Task, site: Site, fresh: bool) {
        match site {
            Site::Pool | Site::Inline => self.place_in_pool(task, fresh),
            // Under work stealing, work pinned here takes the same next slot as pool work
            // (so a group pinned to one stage runs as it would on one worker).
            Site::Stage(k) if Some(k) == self.pool_index && fresh && self.steal_pool => {
                self.hand_off(task, true);
            }
            Site::Stage(k) if Some(k) == self.pool_index => self.local.borrow_mut().push_back(task),
            Site::Stage(k) => {
                bump(&self.stats().pushed_out);
                self.waking(|| self.sched.push_stage(k, task, Some(self.stats())));
            }
            Site::Dedicated => {
                // The push happens under the home's lock, inside the cell: keep the cell
                // alive until the lock is released, whoever runs the task meanwhile.
                let keep = Arc::clone(&task);
                let mut pushed = Ok(());
                self.waking(|| pushed = keep.home().push_dedicated(task));
                match pushed {
                    Ok(()) => bump(&self.stats().pushed_out),
                    Err(task) => self.place_in_pool(task, fresh),
                }
            }
        }
    }

    #[inline]
    pub(super) fn place_in_pool(&self, task: Task, fresh: bool) {
        let sched = &self.sched;
        match (self.kind, self.pool_index) {
            (SchedulerKind::Steal, Some(_)) if fresh => self.hand_off(task, self.solo),
            (SchedulerKind::Steal, Some(_)) if self.solo => self.local.borrow_mut().push_back(task),
            (SchedulerKind::Steal, Some(_)) if self.keeps_fifo() => self.queue_privately(task),
            (SchedulerKind::Steal, Some(_)) => {
                self.queue.push(task);
                if (self.queue.len() > 1 || self.has_next()) && self.backlog_wakes() {
                    self.waking(|| sched.notify_one(Some(self.stats())));
                }
            }
            (SchedulerKind::Stages, Some(_)) => self.local.borrow_mut().push_back(task),
            (SchedulerKind::Stages, None) => {
                bump(&self.stats().pushed_out);
                self.waking(|| sched.push_stage(sched.next_stage(), task, Some(self.stats())));
            }
            (SchedulerKind::Steal | SchedulerKind::Share, _) => {
                bump(&self.stats().pushed_out);
                self.waking(|| sched.push_shared(task, Some(self.stats())));
            }
        }
    }

    /// Moves the task in the next slot, if any, to the deque where other workers can steal
    /// it. Called when the running actor's turn goes on after a message.
    pub(crate) fn flush_next(&self) {
        if self.keeps_fifo() {
            // Nobody can steal, and the next slot holds the oldest task: moving it to the
            // back would let the tasks scheduled after it overtake it.
            return;
        }
        if let Some(task) = self.next.take() {
            self.spill(task, self.next_pinned.get());
        }
    }

    pub(super) fn has_next(&self) -> bool {
        let next = self.next.take();
        let occupied = next.is_some();
        self.next.set(next);
        occupied
    }

    /// A send from this worker's turn pushed onto the mailbox of an actor already
    /// scheduled, whose home is `home`: counts a cross push if the actor is busy on
    /// another worker ([`crate::scheduler::governor::flood`]) and carries out the count's
    /// verdict (a give-back, or a keeping turn: [`super::keep`]), unless this worker keeps
    /// FIFO order (it is alone, or its turn keeps already).
    #[inline(always)]
    pub(crate) fn pushed_queued(&self, home: &Home) {
        let Some(k) = self.flood_stage else {
            return;
        };
        if self.keeps_fifo() {
            // Alone for now: as of its last look every other worker was parked, so no
            // actor is busy elsewhere (a mark left by a worker that has parked since would
            // count pushes that flood nobody). A worker that wakes meanwhile is seen at the
            // next look (at most `ALONE_LOOK_EVERY` picks), and counting resumes then.
            return;
        }
        if home.busy_elsewhere(k) {
            match self.flood.pushed(self.stats()) {
                Verdict::Nothing => {}
                Verdict::GiveBack => {
                    // Seen by the next pick: the count of picks is moved on so that it
                    // looks at its company (a pick in [`ABSORB_EVERY`]), which sends the
                    // loop to give the work back, and no other pick has to test for it.
                    self.give_back_due.set(true);
                    self.picks.set(self.picks.get() | (ABSORB_EVERY - 1));
                }
                Verdict::Keep => self.keep_turn(home),
            }
        }
    }
}
