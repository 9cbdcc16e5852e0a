//! The actor cell: an actor's state, mailbox and lifecycle, and the turn that runs it.
//!
//! # A turn
//!
//! A worker that takes a scheduled actor runs one turn: `started` on the first turn, then up
//! to `batch` messages, one at a time. Then, whichever applies first:
//!
//! 1. A handler panicked or called [`crate::Context::stop`]: the actor stops (a stop in
//!    `started` comes before the first message).
//! 2. The batch was used up: it may have more, so it goes to the back of the run queue.
//! 3. The mailbox was empty and no address is left: nothing can ever reach it again, so it
//!    stops (garbage collection).
//! 4. Otherwise it tries to mark its mailbox idle. That fails only if a push is halfway
//!    through, and then the actor stays scheduled and goes to the back of the queue.
//!
//! # Who owns the actor while it is scheduled or idle
//!
//! The cell is reference counted. Besides its addresses, exactly one reference belongs to
//! its scheduling state: while the actor is scheduled it is the run-queue entry (the task a
//! worker runs); while it is idle, the idle state itself holds it (a worker going idle keeps
//! it with `Arc::into_raw`). The push that finds the actor idle takes that same reference
//! over as its task ([`ActorCell::take_idle_reference`]). So scheduling and going idle cost
//! no reference-count traffic at all: a hop is the mailbox's swap and mark-idle exchange.
//! A worker never touches the cell after marking it idle, since another worker may already
//! run it, or stop and free it.
//!
//! # Garbage collection
//!
//! The cell counts its [`crate::Addr`]s, in one atomic word with a *generation*: how many
//! times the count has fallen to zero. The address dropped last pushes a `Collect` signal,
//! carrying the new generation, through the mailbox. Going through the mailbox is what makes
//! it exact: the push either finds the actor idle (and schedules it, like any message) or
//! finds it scheduled (and its worker will pop the signal), so it cannot be missed; and
//! every message sent before that address went away is ahead of it in the queue. A handler
//! may make a new address ([`crate::Context::addr`], or a pending [`crate::Context::then`])
//! after the count fell to zero; its messages may then sit behind the signal. So the actor
//! stops only if, when its turn reaches the signal, the count is zero *and* the generation
//! is still the signal's: no address has existed since, so every message ever sent to it has
//! been handled, and nothing can reach it again.
//!
//! # Stopping
//!
//! A stopping actor is marked stopped (later sends fail and give the message back), runs
//! its `stopped` hook, drops its state, and closes its mailbox ([`Mailbox::close`]): the
//! queued messages are dropped and counted in [`crate::Metrics::dead_letters`], and the
//! mailbox is marked closed. It then leaves the scheduled state for good. A send that
//! checked the mark just before the stop and pushes afterwards finds the mailbox closed
//! and takes its message back, or, if another such send got there first, has it dropped
//! as a dead letter at once. So no message waits in the mailbox of a stopped actor (a
//! dropped request cancels its reply, so an untimed `ask(..).wait()` cannot hang on it).

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::mailbox::{Mailbox, Push};
use crate::metrics::bump;
use crate::placement::{self, Home, Placement, Site};
use crate::scheduler::worker::{self, Worker};
use crate::scheduler::{Runnable, Task};
use crate::system::{PanicReport, Shared};
use crate::{Actor, Addr, Context};

/// A continuation run with the actor's state, like a message (see [`Context::then`]).
pub(crate) type Call<A> = Box<dyn for<'c> FnOnce(&mut A, &mut Context<'c, A>) + Send>;

/// What a mailbox carries.
pub(crate) enum Envelope<A: Actor> {
    Msg(A::Msg),
    Call(Call<A>),
    /// The last address was dropped, making this generation (see the module documentation).
    Collect(u32),
}

/// The address count's bits in `ActorCell::addrs`.
const ADDR_COUNT: u64 = 0xFFFF_FFFF;
/// One generation in `ActorCell::addrs`.
const GENERATION: u64 = 1 << 32;

struct State<A> {
    actor: Option<A>,
    started: bool,
}

/// An actor's home: shared by its addresses, its run-queue entries and its turn.
pub(crate) struct ActorCell<A: Actor> {
    mailbox: Mailbox<Envelope<A>>,
    /// Live addresses (low 32 bits) and the generation (high 32 bits); see the module docs.
    addrs: AtomicU64,
    stopped: AtomicBool,
    handled: AtomicU64,
    /// Where the actor is scheduled next ([`crate::placement`]).
    home: Home,
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
    /// Creates a scheduled actor with one address, counted as spawned, and schedules it
    /// where `placement` says.
    pub(crate) fn spawn(shared: &Arc<Shared>, actor: A, placement: &Placement) -> Addr<A> {
        let (resolved, movable) = placement::resolve(shared, placement);
        let cell = Arc::new(ActorCell {
            mailbox: Mailbox::new(),
            addrs: AtomicU64::new(1),
            stopped: AtomicBool::new(false),
            handled: AtomicU64::new(0),
            home: Home::new(resolved, movable),
            state: UnsafeCell::new(State {
                actor: Some(actor),
                started: false,
            }),
            shared: Arc::clone(shared),
        });
        // SAFETY: the mailbox is inside the Arc, at its final address, and nobody else has
        // seen the cell yet. It starts scheduled: the first turn runs `started`.
        unsafe { cell.mailbox.init(false) };
        let site = cell.home.target();
        if shared.sched.mode != crate::PlacementMode::Manual {
            // Where it will run first, for the sampler (see `Worker::arrived`).
            let here = match site {
                Site::Stage(k) => Some(k),
                _ => worker::with_current(shared, |w| w.and_then(Worker::pool_index)),
            };
            if let Some(k) = here {
                cell.home.ran_on(k);
            }
        }
        let task: Task = cell.clone();
        shared.spawned_and_schedule(task, site);
        Addr::from_counted(cell)
    }

    /// Delivers an envelope unless the actor has stopped (then it comes back). If the push
    /// found the actor idle, this sender schedules it, or (an inline actor, sent to from a
    /// handler) runs its turn right here.
    pub(crate) fn deliver(self: &Arc<Self>, envelope: Envelope<A>) -> Result<(), Envelope<A>> {
        if self.stopped.load(Ordering::Acquire) || self.shared.sched.is_shutdown() {
            return Err(envelope);
        }
        let was_idle = match self.mailbox.push(envelope) {
            Push::Queued => false,
            Push::Woke => true,
            Push::Closed => return Err(self.take_back()),
        };
        worker::with_current(&self.shared, |w| match w {
            Some(w) => {
                bump(&w.stats().sent);
                if w.probe.sampling() {
                    let cross = self.home.last_stage() != w.pool_index();
                    w.probe
                        .note_send(|| self.task(), Arc::as_ptr(self).cast(), cross);
                }
                if was_idle {
                    let site = self.home.target();
                    // SAFETY: this push found the actor idle.
                    let task = unsafe { self.take_idle_reference() };
                    if site == Site::Inline && w.can_inline() {
                        w.run_inline(task);
                    } else {
                        w.schedule(task, site);
                    }
                }
            }
            None => {
                let sched = &self.shared.sched;
                sched.external.sent.fetch_add(1, Ordering::Relaxed);
                if was_idle {
                    let site = self.home.target();
                    // SAFETY: this push found the actor idle.
                    sched.schedule_external(unsafe { self.take_idle_reference() }, site);
                }
            }
        });
        Ok(())
    }

    /// After a push found the mailbox closed: takes the pushed envelope back, and drops
    /// (counting them as dead letters) any that other senders queued behind it.
    #[cold]
    #[inline(never)]
    fn take_back(&self) -> Envelope<A> {
        let mut dead = 0;
        // SAFETY: the push that returned `Closed` made this caller the mailbox's consumer,
        // and this is the call right after it.
        let own = unsafe {
            self.mailbox.take_back(|envelope| {
                if !matches!(envelope, Envelope::Collect(_)) {
                    dead += 1;
                }
            })
        };
        if dead > 0 {
            self.shared.dead_letters.fetch_add(dead, Ordering::Relaxed);
        }
        own
    }

    /// This cell as a type-erased task (a new reference).
    pub(crate) fn task(self: &Arc<Self>) -> Task {
        Arc::clone(self) as Task
    }

    /// The reference the idle state owns, as a task to schedule.
    ///
    /// # Safety
    /// Only the party whose push found the actor idle may call this, once.
    unsafe fn take_idle_reference(self: &Arc<Self>) -> Task {
        // SAFETY: the idle state owns one strong reference, kept by `go_idle` with
        // `Arc::into_raw` (or, at spawn, never needed: a new actor starts scheduled). The
        // caller's push cleared the idle bit, so it alone takes that reference over;
        // `Arc::as_ptr` is the pointer `into_raw` returned.
        let cell: Arc<Self> = unsafe { Arc::from_raw(Arc::as_ptr(self)) };
        cell
    }

    pub(crate) fn add_addr(&self) {
        // An address exists already (the one cloned, or the running actor's own cell), so
        // the count is not zero and the generation is untouched.
        self.addrs.fetch_add(1, Ordering::Relaxed);
    }

    /// Called when an address is dropped; the last one sends the collect signal.
    pub(crate) fn release_addr(self: &Arc<Self>) {
        let mut current = self.addrs.load(Ordering::Relaxed);
        let generation = loop {
            let last = current & ADDR_COUNT == 1;
            let next = if last {
                (current & !ADDR_COUNT).wrapping_add(GENERATION)
            } else {
                current - 1
            };
            match self.addrs.compare_exchange_weak(
                current,
                next,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) if last => break (next >> 32) as u32,
                Ok(_) => return,
                Err(seen) => current = seen,
            }
        };
        if self.stopped.load(Ordering::Acquire) {
            return;
        }
        match self.mailbox.push(Envelope::Collect(generation)) {
            Push::Woke => {
                let site = self.home.target();
                // SAFETY: this push found the actor idle.
                self.shared
                    .schedule(unsafe { self.take_idle_reference() }, site);
            }
            Push::Queued => {}
            Push::Closed => drop(self.take_back()),
        }
    }

    /// Whether a `Collect` signal of `generation` finds the actor unreachable for good.
    fn unreachable_since(&self, generation: u32) -> bool {
        let word = self.addrs.load(Ordering::Acquire);
        word & ADDR_COUNT == 0 && (word >> 32) as u32 == generation
    }

    pub(crate) fn count_dead_letter(&self) {
        self.shared.dead_letters.fetch_add(1, Ordering::Relaxed);
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

    /// Stops the actor on this worker: mark, hook, drop state, close the mailbox (dropping
    /// what is queued), and leave the scheduled state for good.
    fn stop(self: Arc<Self>, state: &mut State<A>, worker: &Worker) {
        self.stopped.store(true, Ordering::Release);
        // Leaves a dedicated stage, even one a racing move is putting it on right now.
        self.home.close();
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
        let mut dead = 0;
        // SAFETY: this worker runs the actor's turn, so it is the only consumer; closing
        // gives that role up.
        unsafe {
            self.mailbox.close(|envelope| {
                if !matches!(envelope, Envelope::Collect(_)) {
                    dead += 1;
                }
            })
        };
        if dead > 0 {
            self.shared.dead_letters.fetch_add(dead, Ordering::Relaxed);
        }
        worker.deschedule();
    }

    /// Drops every queued envelope; returns how many were messages (not signals).
    ///
    /// # Safety
    /// The caller must be the mailbox's only consumer.
    unsafe fn drain(&self) -> u64 {
        let mut dead = 0;
        // SAFETY: the caller is the only consumer.
        while let Some(envelope) = unsafe { self.mailbox.pop() } {
            if !matches!(envelope, Envelope::Collect(_)) {
                dead += 1;
            }
        }
        dead
    }

    /// Ends a turn whose mailbox looked empty: go idle, or stay scheduled if a push is
    /// halfway through.
    fn go_idle(self: Arc<Self>, worker: &Worker) {
        let cell = Arc::into_raw(self);
        // SAFETY: the reference behind `cell` is still ours, and this worker is the
        // mailbox's only consumer.
        if unsafe { (*cell).mailbox.mark_idle() } {
            // The reference now belongs to the idle state. Another worker may already be
            // running the actor, or have freed it: `cell` is not touched again.
            worker.deschedule();
        } else {
            // SAFETY: not idle, so the reference is still ours: back into an Arc.
            let cell = unsafe { Arc::from_raw(cell) };
            let site = cell.home.target();
            worker.requeue(cell, site);
        }
    }
}

impl<A: Actor> Drop for ActorCell<A> {
    fn drop(&mut self) {
        // Messages queued at shutdown (a stopped actor's mailbox is empty and closed).
        // SAFETY: `&mut self`: no producer or consumer is left.
        let dead = unsafe { self.drain() };
        if dead > 0 {
            self.shared.dead_letters.fetch_add(dead, Ordering::Relaxed);
        }
    }
}

impl<A: Actor> Runnable for ActorCell<A> {
    fn home(&self) -> &Home {
        &self.home
    }

    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    fn relocate(&self, placement: &Placement, movable: bool) {
        if self.stopped.load(Ordering::Acquire) {
            return;
        }
        let (resolved, movable_by_default) = placement::resolve(&self.shared, placement);
        let movable = if matches!(placement, Placement::Default) {
            movable_by_default
        } else {
            movable
        };
        // A move onto a dedicated stage that races with a stop is undone by one side or
        // the other (see `placement::Residency`).
        self.home.set_resolved(resolved, movable);
    }

    fn run_turn(self: Arc<Self>, worker: &Worker) {
        debug_assert!(
            !self.stopped.load(Ordering::Relaxed),
            "a stopped actor is never scheduled again"
        );
        // SAFETY: this worker holds the actor's single scheduling right (see the `Sync`
        // impl), so no other reference to the state exists during the turn.
        let state = unsafe { &mut *self.state.get() };
        let batch = worker.batch();
        let mut ctx = Context::new(&self, false);
        // Envelopes taken (bounded by the batch), and of those, messages handled.
        let (mut taken, mut handled) = (0usize, 0u64);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let actor = state.actor.as_mut().expect("a running actor has its state");
            if !state.started {
                state.started = true;
                actor.started(&mut ctx);
                if ctx.stopping {
                    // Stopped in `started`: before the first message.
                    return true;
                }
            }
            // SAFETY (both pops): this worker is the only consumer, as above.
            let mut next = unsafe { self.mailbox.pop() };
            while let Some(envelope) = next.take() {
                taken += 1;
                match envelope {
                    Envelope::Msg(msg) => {
                        handled += 1;
                        actor.handle(&mut ctx, msg);
                    }
                    Envelope::Call(call) => {
                        handled += 1;
                        call(actor, &mut ctx);
                    }
                    Envelope::Collect(generation) => {
                        if self.unreachable_since(generation) {
                            // Nobody can reach the actor any more.
                            ctx.stopping = true;
                        }
                    }
                }
                if taken >= batch || ctx.stopping {
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
        worker.count_handled(handled);
        if worker.probe.enabled() {
            worker.turn_ending(|| self.task(), handled);
        }
        self.handled.store(
            self.handled.load(Ordering::Relaxed) + handled,
            Ordering::Relaxed,
        );
        match outcome {
            Err(payload) => {
                self.report_panic(&*payload, "handle");
                self.stop(state, worker);
            }
            Ok(_) if stopping => self.stop(state, worker),
            Ok(true) => {
                let site = self.home.target();
                worker.requeue(self, site);
            }
            Ok(false) => self.go_idle(worker),
        }
    }
}
