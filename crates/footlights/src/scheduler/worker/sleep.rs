//! Parking a pool worker: announcing it and looking once more (the protocol of
//! [`super::super::park`]), dozing as the watcher ([`super::super::watch`]), waking and
//! starting a new pace epoch, and giving work back when the governor says so.

use super::super::governor::watcher;
use super::Worker;
use crate::metrics::bump;

impl Worker {
    /// Parks until woken, unless work turned up meanwhile; if it parked, whether it woke
    /// to rescue work stranded behind another worker's long turn ([`crate::scheduler::watch`]).
    pub(super) fn park(&self) -> Option<bool> {
        let sched = &self.sched;
        let index = self.pool_index.expect("only pool workers park here");
        sched.sleepers.announce(index);
        if sched.has_pool_work() || !self.stage.inbox.is_empty() || sched.is_shutdown() {
            sched.sleepers.cancel(index);
            return None;
        }
        // Parking ends a hold: the worker left awake need not show it can run alone.
        sched.policy.wake.release();
        sched.quiescence.worker_idle();
        Some(self.sleep(index))
    }

    /// Sleeps until woken, as worker `index` of the sleepers' list (which it has joined),
    /// then starts a new pace epoch; `true` if it woke to rescue stranded work.
    pub(super) fn sleep(&self, index: usize) -> bool {
        bump(&self.stats().parks);
        self.parking(true);
        let rescue = self.doze(index);
        self.parking(false);
        self.set_grouping(self.paced && self.sched.policy.yardstick.grouping());
        self.declined.set(false);
        self.flood.reset();
        // A stale token from an earlier wake-up can end the park early; make sure we are off
        // the list either way.
        self.sched.sleepers.cancel(index);
        self.restart_pace();
        if self.paced {
            // Its company may have changed while it slept (it may have parked alone, or
            // wake alone for work from outside): it looks now, not at its next look, which
            // comes only every `ALONE_LOOK_EVERY` picks while it keeps FIFO order.
            self.refresh_alone();
        }
        rescue
    }

    /// The park itself (see [`crate::scheduler::watch`]): until a waker takes this worker off the
    /// sleepers' list (or the system shuts down). While it is the watcher, it parks for a
    /// tick at a time and looks at the other workers after each; `true` if it left to
    /// rescue work stranded behind a long turn. A park that ends while this worker is still
    /// on the list (a nudge, a stale token) is not a wake-up: it parks again.
    pub(super) fn doze(&self, index: usize) -> bool {
        if self.sightings.is_empty() {
            // A lone worker, or not work stealing: nobody to watch, nothing to steal.
            self.parker.park();
            return false;
        }
        let sleepers = &self.sched.sleepers;
        let mut tick = None;
        let rescue = loop {
            if tick.is_none() && self.sched.watch.claim(index) {
                self.sightings.forget();
                self.sched.watch.deepen(false);
                tick = Some(watcher::first_period());
            }
            match tick {
                Some(tick) => self.parker.park_timeout(tick),
                None => self.parker.park(),
            }
            if self.sched.is_shutdown() || !sleepers.on_list(index) {
                break false;
            }
            let Some(last) = tick else {
                continue;
            };
            if watcher::is_deep(last) {
                // Nudged out of a long sleep (or at its end): what it saw is old, and a
                // worker just woken would look busy for all that time.
                self.sightings.forget();
            }
            let look = self.watch_once(index);
            if look.stranded {
                sleepers.cancel(index);
                break true;
            }
            let next = watcher::next_period(last, sleepers.all_parked(), look.long_turns);
            self.sched.watch.deepen(watcher::is_deep(next));
            tick = Some(next);
        };
        super::super::watch::leave_doze(&self.sched, index);
        rescue
    }

    /// Gives this worker's work back and parks, because a flood or a declined group steal
    /// said that the awake workers together are not faster than one
    /// ([`crate::scheduler::park`], "Giving back"), or because another worker's keeping
    /// turn asked for its work ([`super::keep`]); `true` if it parked. What it holds goes
    /// to the injector first, where the workers still awake look at least every 61 picks,
    /// and backlog wake-ups are held until one of them has run an epoch of its pace alone
    /// ([`crate::scheduler::governor::pace`]). It does not park if it holds pinned work (looked at again
    /// after it yields, since another thread may push some meanwhile), or if nobody else
    /// is awake (see [`crate::scheduler::park`], "Giving back").
    pub(super) fn give_back(&self) -> bool {
        let sched = &self.sched;
        let index = self.pool_index.expect("only pool workers park here");
        let asked = self.asked_to_give_back.replace(false);
        if self.solo {
            return false;
        }
        if self.keeps_fifo() {
            self.publish();
        }
        if let Some(task) = self.next.take() {
            if self.next_pinned.get() {
                self.local.borrow_mut().push_back(task);
            } else {
                self.queue.push(task);
            }
        }
        if !self.local.borrow().is_empty() || !self.stage.inbox.is_empty() {
            return false;
        }
        // The deque goes to the injector before this worker yields: a worker that parks
        // after the yield then finds it there in its last look. Moved after the yield, a
        // task would be in neither place for that look (popped, not yet pushed), and both
        // workers could sleep on it. If the yield fails, this worker takes it back.
        while let Some(task) = self.queue.pop() {
            sched.injector.push(task);
        }
        while let Some(task) = self.nursery.pop() {
            sched.injector.push(task);
        }
        if !sched.sleepers.announce_yield(index) {
            return false;
        }
        // Nobody else looks at this stage's inbox: a push made before the yield, whose
        // waker saw nobody parked, is seen here (see `super::park`, "Giving back").
        if !self.stage.inbox.is_empty() {
            sched.sleepers.cancel(index);
            return false;
        }
        sched.policy.wake.hold();
        bump(&self.stats().yields);
        if asked {
            bump(&self.stats().yields_to_keeping);
        }
        self.sleep(index);
        true
    }

    /// Starts a new pace epoch (after parking).
    pub(super) fn restart_pace(&self) {
        if self.paced {
            self.pace.restart(self.stats(), self.sched.sleepers.awake());
        }
    }
}
