//! The keeping turn ([`Rule::Keep`](crate::scheduler::governor::Rule::Keep)): the worker's
//! side of a turn that floods actors busy on another worker
//! ([`crate::scheduler::governor::flood`], "Within one turn").
//!
//! The flood count gives its verdict at one cross push of the running turn
//! ([`Worker::keep_turn`]). From then until the turn ends:
//!
//! 1. the worker keeps FIFO order, whoever else is awake (even with
//!    [`Rule::Fifo`](crate::scheduler::governor::Rule::Fifo) off): what the turn wakes waits
//!    in its private FIFO, where nobody steals it and nobody is woken for it
//!    (`queue_privately` tests the keeping only where it would publish), and the worker
//!    counts no more cross pushes (`pushed_queued` counts none in FIFO order);
//! 2. the worker that last used up a batch of the receiver of that push (its home's
//!    `busy_on`) is asked, through a request on its stage, to give its work back: at its
//!    next look at its company it moves its deque and nursery to the injector and parks,
//!    as a flood's give-back does ([`crate::scheduler::park`], "Giving back"), so the
//!    receivers it ran stop taking the pushes' cache lines across. What it gave back is
//!    anybody's to take, the watcher's rescue included, so nothing waits behind the
//!    keeping turn but what that turn woke itself. (Given to the keeping worker's own
//!    inbox instead, out of the watcher's reach, the receivers could not be taken across
//!    again during a long turn, but other work could wait behind that turn for as long as
//!    it ran; the two took the same time on fjthrput,
//!    `docs/experiments/2026-12-01-fjthrput-sender.md`.) What a worker spawns during the
//!    turn still goes to its nursery and may wake a sleeper, as any spawn does.
//!
//! The count of picks is moved on at the verdict, so the first pick after the turn is a
//! look at its company, which ends the keeping ([`Worker::end_keeping`]): a request not yet
//! taken is withdrawn, and the worker goes back to the order its company calls for,
//! publishing and waking as a FIFO of that length would have.
//!
//! What it costs a program that does not flood: one compare on the path of a cross push
//! (the flood count's), one test of a flag where the worker in FIFO order looks at its
//! company, and one load of its stage's request where a worker of several does. What it
//! does not cover: what a keeping turn wakes waits for that turn to end, as what a worker
//! alone for now queues privately does; a keeping turn that then blocks holds it, and the
//! watcher does not see it (`scheduler::watch`, "What it does not cover").

use super::super::home::Home;
use super::Worker;
use crate::metrics::bump;

use super::super::governor::tunables::ABSORB_EVERY;

/// A keeping turn under way: the pool worker it asked to give its work back, if any.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keeping {
    asked: Option<usize>,
}

impl Worker {
    /// The running turn floods actors busy on another worker, one of them `home`'s: keeps
    /// what the rest of the turn wakes, and asks that actor's worker to give its work back
    /// (see the module documentation).
    #[cold]
    #[inline(never)]
    pub(super) fn keep_turn(&self, home: &Home) {
        if !self.fifo.get() {
            self.set_fifo(true);
        }
        let me = self.pool_index;
        let asked = home
            .busy_stage()
            .filter(|&k| Some(k) != me && k < self.sched.stages.len())
            .zip(me)
            .map(|(k, me)| {
                self.sched.stages[k].ask_to_give_back(me);
                k
            });
        self.keeping.set(Some(Keeping { asked }));
        bump(&self.stats().keeping_turns);
        self.picks.set(self.picks.get() | (ABSORB_EVERY - 1));
    }

    /// The keeping turn is over (the first look at its company after it): withdraws the
    /// request to give back if it was not taken, and goes back to the order its company
    /// calls for, publishing and waking as a growing FIFO would have.
    #[cold]
    #[inline(never)]
    pub(super) fn end_keeping(&self) {
        let Some(keeping) = self.keeping.take() else {
            return;
        };
        if let (Some(k), Some(me)) = (keeping.asked, self.pool_index) {
            self.sched.stages[k].withdraw_give_back(me);
        }
        self.refresh_alone();
        if self.fifo.get() {
            let len = self.local.borrow().len();
            if self.sched.policy.wake.wakes(len) {
                self.publish();
                self.waking(|| self.sched.notify_one(Some(self.stats())));
            }
        } else if self.backlog_wakes() {
            self.waking(|| self.sched.notify_one(Some(self.stats())));
        }
    }

    /// Whether a turn of this worker keeps what it wakes (see the module documentation).
    #[inline]
    pub(super) fn keeping(&self) -> bool {
        self.keeping.get().is_some()
    }
}
