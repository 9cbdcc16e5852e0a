//! The actor cell: an actor's state, mailbox and lifecycle, and the turn that runs it.
//!
//! # A turn
//!
//! A worker that takes a scheduled actor runs one turn: `started` on the first turn, then up
//! to `batch` messages, one at a time. Then, whichever applies first:
//!
//! 1. A handler panicked or called [`crate::Context::stop`]: the actor stops.
//! 2. The batch was used up: it may have more, so it goes to the back of the run queue.
//! 3. The mailbox was empty and no address is left: nothing can ever reach it again, so it
//!    stops (garbage collection).
//! 4. Otherwise it tries to mark its mailbox idle. That fails only if a push is halfway
//!    through, and then the actor stays scheduled and goes to the back of the queue.
//!
//! # Garbage collection
//!
//! The cell counts its [`crate::Addr`]s. The address dropped last tries to claim the actor if
//! it is idle ([`crate::mailbox::Mailbox::try_claim`]) and schedules it, so that its next turn
//! finds rule 3. If the actor was busy, the worker running it finds rule 3 at the end of
//! its turn instead. The one race (the last address goes while the turn is ending) is closed
//! by the worker checking the count again after it marks the mailbox idle: both sides
//! publish first and look second, all four operations `SeqCst`, so in their single total
//! order at least one of them sees the other, and the claim lets only one of them schedule.
//!
//! # Stopping
//!
//! A stopping actor is marked stopped (new sends fail and give the message back), runs its
//! `stopped` hook, and drops its state. A message that slipped in between a sender's check
//! and the mark still schedules the actor, whose turn then drops it as a dead letter; it is
//! counted in [`crate::Metrics::dead_letters`], never lost without trace.

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::mailbox::Mailbox;
use crate::metrics::bump;
use crate::scheduler::worker::Worker;
use crate::scheduler::{Runnable, Task};
use crate::system::{PanicReport, Shared};
use crate::{Actor, Addr, Context};

/// A continuation run with the actor's state, like a message (see [`Context::then`]).
pub(crate) type Call<A> = Box<dyn for<'c> FnOnce(&mut A, &mut Context<'c, A>) + Send>;

/// What a mailbox carries.
pub(crate) enum Envelope<A: Actor> {
    Msg(A::Msg),
    Call(Call<A>),
}

struct State<A> {
    actor: Option<A>,
    started: bool,
}

/// An actor's home: shared by its addresses, its run-queue entries and its turn.
pub(crate) struct ActorCell<A: Actor> {
    mailbox: Mailbox<Envelope<A>>,
    addrs: AtomicUsize,
    stopped: AtomicBool,
    handled: AtomicU64,
    state: UnsafeCell<State<A>>,
    pub(crate) shared: Arc<Shared>,
}

// SAFETY: `state` is only touched inside a turn, and the mailbox's idle bit guarantees that
// at most one worker runs a turn of a given actor at a time (the one that scheduled it, or
// the one that took it from a run queue); the hand-off between turns is synchronised by the
// mailbox's acquire/release operations and the run queues. Everything else is atomic or
// `Sync`. `A: Send` because the state moves between worker threads.
unsafe impl<A: Actor> Sync for ActorCell<A> {}

impl<A: Actor> ActorCell<A> {
    /// Creates a scheduled actor with one address, counted as spawned, and schedules it.
    pub(crate) fn spawn(shared: &Arc<Shared>, actor: A) -> Addr<A> {
        let cell = Arc::new(ActorCell {
            mailbox: Mailbox::new(),
            addrs: AtomicUsize::new(1),
            stopped: AtomicBool::new(false),
            handled: AtomicU64::new(0),
            state: UnsafeCell::new(State {
                actor: Some(actor),
                started: false,
            }),
            shared: Arc::clone(shared),
        });
        // SAFETY: the mailbox is inside the Arc, at its final address, and nobody else has
        // seen the cell yet. It starts scheduled: the first turn runs `started`.
        unsafe { cell.mailbox.init(false) };
        let task: Task = cell.clone();
        shared.spawned_and_schedule(task);
        Addr::from_counted(cell)
    }

    /// Delivers an envelope unless the actor has stopped (then it comes back).
    pub(crate) fn deliver(self: &Arc<Self>, envelope: Envelope<A>) -> Result<(), Envelope<A>> {
        if self.stopped.load(Ordering::Acquire) || self.shared.sched.is_shutdown() {
            return Err(envelope);
        }
        let was_idle = self.mailbox.push(envelope);
        self.shared
            .sent_and_maybe_schedule(was_idle, || self.clone());
        Ok(())
    }

    pub(crate) fn add_addr(&self) {
        self.addrs.fetch_add(1, Ordering::Relaxed);
    }

    /// Called when an address is dropped; the last one lets the actor be collected.
    pub(crate) fn release_addr(self: &Arc<Self>) {
        if self.addrs.fetch_sub(1, Ordering::SeqCst) == 1
            && !self.stopped.load(Ordering::Acquire)
            && self.mailbox.try_claim()
        {
            self.shared.schedule(self.clone());
        }
    }

    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    pub(crate) fn messages_handled(&self) -> u64 {
        self.handled.load(Ordering::Relaxed)
    }

    fn report_panic(&self, payload: &(dyn Any + Send), during: &'static str) {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        (self.shared.on_panic)(&PanicReport {
            actor: std::any::type_name::<A>(),
            during,
            message,
        });
    }

    /// Stops the actor on this worker: mark, hook, drop state, drain, go idle.
    fn stop(self: Arc<Self>, state: &mut State<A>, worker: &Worker) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Some(mut actor) = state.actor.take() {
            let mut ctx = Context::new(&self, true);
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                actor.stopped(&mut ctx);
                drop(actor);
            }));
            if let Err(payload) = outcome {
                self.report_panic(&*payload, "stopped");
            }
        }
        bump(&worker.stats().stopped);
        self.drain_and_idle(worker);
    }

    /// Drops whatever is in a stopped actor's mailbox as dead letters, then marks it idle.
    fn drain_and_idle(self: Arc<Self>, worker: &Worker) {
        loop {
            let mut dead = 0;
            // SAFETY: this worker runs the actor's turn, so it is the only consumer.
            while let Some(envelope) = unsafe { self.mailbox.pop() } {
                drop(envelope);
                dead += 1;
            }
            if dead > 0 {
                self.shared.dead_letters.fetch_add(dead, Ordering::Relaxed);
            }
            // SAFETY: as above.
            if unsafe { self.mailbox.mark_idle() } {
                worker.deschedule();
                return;
            }
            std::hint::spin_loop();
        }
    }

    /// Ends a turn whose mailbox looked empty: go idle, or stay scheduled if a push is
    /// halfway through.
    fn go_idle(self: Arc<Self>, worker: &Worker) {
        // SAFETY: this worker runs the actor's turn, so it is the only consumer.
        if !unsafe { self.mailbox.mark_idle() } {
            worker.requeue(self);
            return;
        }
        worker.deschedule();
        // Close the race with the last address going away as we went idle (module docs).
        if self.addrs.load(Ordering::SeqCst) == 0 && self.mailbox.try_claim() {
            worker.schedule(self);
        }
    }
}

impl<A: Actor> Runnable for ActorCell<A> {
    fn run_turn(self: Arc<Self>, worker: &Worker) {
        if self.stopped.load(Ordering::Acquire) {
            // Late messages for a stopped actor.
            self.drain_and_idle(worker);
            return;
        }
        // SAFETY: this worker holds the actor's single scheduling right (see the `Sync`
        // impl), so no other reference to the state exists during the turn.
        let state = unsafe { &mut *self.state.get() };
        let batch = worker.batch();
        let mut ctx = Context::new(&self, false);
        let mut handled = 0usize;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let actor = state.actor.as_mut().expect("a running actor has its state");
            if !state.started {
                state.started = true;
                actor.started(&mut ctx);
            }
            // SAFETY (both pops): this worker is the only consumer, as above.
            let mut next = unsafe { self.mailbox.pop() };
            while let Some(envelope) = next.take() {
                handled += 1;
                match envelope {
                    Envelope::Msg(msg) => actor.handle(&mut ctx, msg),
                    Envelope::Call(call) => call(actor, &mut ctx),
                }
                if handled >= batch || ctx.stopping {
                    return true;
                }
                // SAFETY: the only consumer, as above.
                next = unsafe { self.mailbox.pop() };
                if next.is_some() {
                    // The turn goes on: a hand-off made by this message must not wait in
                    // the next slot behind it, where no other worker can take it.
                    worker.flush_next();
                }
            }
            false
        }));
        let stopping = ctx.stopping;
        let n = handled as u64;
        worker.count_handled(n);
        self.handled
            .store(self.handled.load(Ordering::Relaxed) + n, Ordering::Relaxed);
        match outcome {
            Err(payload) => {
                self.report_panic(&*payload, "handle");
                self.stop(state, worker);
            }
            Ok(_) if stopping => self.stop(state, worker),
            Ok(true) => worker.requeue(self),
            Ok(false) if self.addrs.load(Ordering::SeqCst) == 0 => self.stop(state, worker),
            Ok(false) => self.go_idle(worker),
        }
    }
}
