//! What the scheduler holds of an actor: an entry with the actor's home around its cell,
//! and the type-erased task that run queues carry.
//!
//! # Who owns the actor while it is scheduled or idle
//!
//! An entry ([`Scheduled`]) is reference counted. Besides the references its addresses
//! hold, exactly one belongs to its scheduling state: while the actor is scheduled it is
//! the run-queue entry (the [`Task`] a worker runs); while it is idle, the idle state
//! itself holds it (a worker going idle keeps it with `Arc::into_raw`). The push that finds
//! the actor idle takes that same reference over as its task
//! ([`Scheduled::take_idle_reference`]). So scheduling and going idle cost no reference-
//! count traffic at all: a hop is the mailbox's swap and mark-idle exchange. A worker
//! never touches the entry after marking it idle, since another worker may already run
//! it, or stop and free it.
//!
//! # A turn, from the scheduler's side
//!
//! The worker runs the cell's turn ([`crate::task::Run::turn`]), counts what it handled,
//! reports the turn to the observer if it was sampled or watched, and then acts on how the
//! turn ended: back in a run queue where the home says, idle, stopped (the cell stops,
//! the home leaves its dedicated stage, and the stop and the descheduling are counted), or
//! waiting (a muted actor: the cell hands a reference to the mailbox it waits on, which
//! schedules it again; the descheduling is counted, like going idle).
//!
//! # Turns in place
//!
//! The pick loop ([`Worker::pick`]) hands a task to [`Runnable::run_turns`] with the
//! task's own pointer ([`InPlace`]). After the turn, the entry picks what runs next itself,
//! exactly as the loop would (the shutdown test, then the same pick with its cadences), and
//! if the worker is not noted and the pick is an actor of its own type (its vtable is the
//! one the call came through), counts that turn and runs it right there, in the same
//! frame, without returning to the loop and its dynamic call. Any other pick (another
//! type, or on a noted worker, whose turns the loop wraps for the observer) returns to
//! the loop uncounted, which counts and runs it as before; so does nothing found, or a
//! shutdown. The picks and their order are the loop's; only who makes the call differs.
//! A token ring on one worker goes round in place from hop to hop.
//!
//! # A send, from the scheduler's side
//!
//! A sender pushes onto the cell's mailbox (the cell decides whether the push is allowed)
//! and then tells the entry ([`Scheduled::sent_by`]): the worker it runs on counts the send,
//! notes it for the sampler, and if the push woke the actor, schedules it where its home
//! says, or, for an inline actor sent to from a handler, runs its turn right there.

use std::any::{Any, TypeId};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Scheduler;
use super::home::{Home, Site};
use super::worker::{Worker, current};
use crate::metrics::{WorkerStats, bump, bump_by};
use crate::task::{Run, TurnEnd};

/// Something a worker can run for one turn: an actor's entry, type-erased.
pub(crate) trait Runnable: Any + Send + Sync + 'static {
    /// Runs one turn on `worker`. The task either reschedules itself through the worker,
    /// goes idle or stops; dropping `self` releases the run queue's reference.
    fn run_turn(self: Arc<Self>, worker: &Worker) {
        let picked = self.run_turns(worker, None);
        debug_assert!(picked.is_none(), "a single turn picks nothing");
    }

    /// Runs one turn on `worker`, as [`Runnable::run_turn`] does. `in_place`: the turn is
    /// one of the pick loop's, which counted it; then this also picks what runs next as
    /// the loop does ([`Worker::pick`]), and an actor's entry goes on in place with each
    /// pick of its own type (see "Turns in place" in the module documentation). Returns
    /// the first pick it did not run (its turn not counted yet); `None` when the pick
    /// found nothing or the system shut down, and always when not `in_place`.
    fn run_turns(self: Arc<Self>, worker: &Worker, in_place: Option<InPlace>) -> Option<Task>;

    /// Where the actor is scheduled next.
    fn home(&self) -> &Home;

    /// Whether the actor has stopped.
    fn is_stopped(&self) -> bool;

    /// Closes the mailbox of an actor left scheduled when its system shut down (see
    /// [`crate::task::Run::discard`]).
    ///
    /// # Safety
    /// Only the holder of the actor's scheduling right (this task, in a run queue) may
    /// call this, once, after the workers have stopped; it then drops the task.
    unsafe fn discard(&self);
}

/// A scheduled actor in a run queue.
pub(crate) type Task = Arc<dyn Runnable>;

/// A turn of the pick loop ([`Runnable::run_turns`]), called through `.0`: the task's own
/// pointer, whose vtable tells the picks of its type (see `Scheduled::of_task`).
#[derive(Clone, Copy)]
pub(crate) struct InPlace(pub(crate) NonNull<dyn Runnable>);

/// An actor as the scheduler holds it: its home, and its cell `C`.
pub(crate) struct Scheduled<C> {
    home: Home,
    cell: C,
}

impl<C> Scheduled<C> {
    /// An entry for `cell`, homed at `home`.
    pub(crate) fn new(home: Home, cell: C) -> Self {
        Scheduled { home, cell }
    }

    /// Where the actor is scheduled next.
    #[inline]
    pub(crate) fn home(&self) -> &Home {
        &self.home
    }

    /// The actor's cell.
    #[inline]
    pub(crate) fn cell(&self) -> &C {
        &self.cell
    }

    /// The address of the entry whose cell is at `cell` (the cell's address less the
    /// cell's offset in an entry): to compare with an entry's address, not to follow.
    pub(crate) fn around(cell: &C) -> *const Self {
        std::ptr::from_ref(cell)
            .wrapping_byte_sub(std::mem::offset_of!(Self, cell))
            .cast()
    }
}

impl<C: Run<Scheduled<C>>> Scheduled<C> {
    /// This entry as a type-erased task (a new reference).
    pub(crate) fn task(self: &Arc<Self>) -> Task {
        Arc::clone(self) as Task
    }

    /// The reference the idle state owns, as a task to schedule.
    ///
    /// # Safety
    /// Only the party whose push found the actor idle may call this, once.
    #[inline]
    unsafe fn take_idle_reference(self: &Arc<Self>) -> Task {
        // SAFETY: the idle state owns one strong reference, kept by `go_idle` with
        // `Arc::into_raw` (or, at spawn, never needed: a new actor starts scheduled). The
        // caller's push cleared the idle bit, so it alone takes that reference over;
        // `Arc::as_ptr` is the pointer `into_raw` returned.
        let entry: Arc<Self> = unsafe { Arc::from_raw(Arc::as_ptr(self)) };
        entry
    }

    /// Sends to the actor: `push` pushes `msg` onto its mailbox, and `woke` tells from
    /// what it returned whether the push found the actor idle; then the send is counted,
    /// noted for the sampler, and the actor scheduled if it woke (or, an inline actor sent
    /// to from a handler, run right here). Refused with `shut` instead, before the push,
    /// if `sched` has shut down, unless the sender is one of `sched`'s workers.
    ///
    /// A send from a worker is not tested for shutdown: a shutdown stops every actor it
    /// can before it sets the flag tested here (`System::shutdown`), and an actor that has
    /// stopped refuses the push; for the others, the worker itself tests at its next pick
    /// and at its end discards what its queues hold, and the system drains the shared
    /// queues once every worker has stopped. So a handler's send made as the system shuts down is taken and then
    /// dropped, as one made an instant before would have been; and a send between actors
    /// saves the test (five instructions of a ring hop). The worker is looked up first,
    /// and each kind of sender has its own path (the other thread's out of line), so that
    /// no flag carries the answer across the push.
    ///
    /// # Safety
    /// `woke` must say what the push said: `true` only if it found the actor idle, which
    /// hands the caller the idle state's reference.
    #[inline(always)]
    pub(crate) unsafe fn send<M, W, E>(
        self: &Arc<Self>,
        sched: &Arc<Scheduler>,
        msg: M,
        push: impl FnOnce(M) -> Result<W, E>,
        woke: impl FnOnce(&W) -> bool,
        shut: impl FnOnce(M) -> E,
    ) -> Result<W, E> {
        // SAFETY: the worker, if any, outlives this call (see `current`).
        if let Some(w) = unsafe { current(sched).as_ref() } {
            let pushed = push(msg)?;
            // SAFETY: `woke` says what the push said (the caller's promise).
            unsafe { self.sent_by(w, woke(&pushed)) };
            return Ok(pushed);
        }
        // SAFETY: the caller's promise, passed on.
        unsafe { self.send_from_outside(sched, msg, push, woke, shut) }
    }

    /// [`Scheduled::send`] from a thread that is not one of `sched`'s workers.
    ///
    /// # Safety
    /// As for [`Scheduled::send`].
    #[inline(never)]
    unsafe fn send_from_outside<M, W, E>(
        self: &Arc<Self>,
        sched: &Arc<Scheduler>,
        msg: M,
        push: impl FnOnce(M) -> Result<W, E>,
        woke: impl FnOnce(&W) -> bool,
        shut: impl FnOnce(M) -> E,
    ) -> Result<W, E> {
        if sched.is_shutdown() {
            return Err(shut(msg));
        }
        let pushed = push(msg)?;
        let woke = woke(&pushed);
        sched.external.sent.fetch_add(1, Ordering::Relaxed);
        if woke {
            let site = self.home.target();
            // SAFETY: the caller's push found the actor idle.
            sched.schedule_external(unsafe { self.take_idle_reference() }, site);
        }
        Ok(pushed)
    }

    /// A message was pushed onto the actor's mailbox by the worker `w`: counts it, notes
    /// it for the sampler, and if the push woke the actor, schedules it (or, an inline
    /// actor, runs its turn right here).
    ///
    /// # Safety
    /// `woke` must be what the push said: `true` only if it found the actor idle, which
    /// hands the caller the idle state's reference.
    #[inline(always)]
    unsafe fn sent_by(self: &Arc<Self>, w: &Worker, woke: bool) {
        if w.sampling() {
            let cross = self.home.last_stage() != w.pool_index();
            w.note_send(|| self.task(), Arc::as_ptr(self).cast(), cross);
        }
        if woke {
            // The send and the scheduling, on one counter (see
            // `WorkerStats::sent_waking`).
            bump(&w.stats().sent_waking);
            // SAFETY: the caller's push found the actor idle.
            let task = unsafe { self.take_idle_reference() };
            if self.home.targets_pool() {
                // The common case first: one test of the home word.
                w.schedule_counted(task, Site::Pool);
                return;
            }
            let site = self.home.target();
            if site == Site::Inline && w.can_inline() {
                w.run_inline_counted(task);
            } else {
                w.schedule_counted(task, site);
            }
        } else {
            bump(&w.stats().sent);
            // A cross push, if the actor is busy elsewhere (see `super::flood`).
            w.pushed_queued(&self.home);
        }
    }

    /// A signal (not a message) pushed by a thread of `sched` woke the actor: schedules it.
    ///
    /// # Safety
    /// Only the party whose push found the actor idle may call this, once.
    pub(crate) unsafe fn woken(self: &Arc<Self>, sched: &Arc<Scheduler>) {
        let site = self.home.target();
        // SAFETY: the caller's push found the actor idle.
        sched.schedule(unsafe { self.take_idle_reference() }, site);
    }

    /// One turn on `worker`: the cell's turn, its counts and its report to the observer,
    /// and then what its end calls for.
    #[inline(always)]
    fn turn_once(self: Arc<Self>, worker: &Worker) {
        let report = self.cell.turn(&self, worker);
        // Both counts of an idle turn's end on one load of where they are. The handled
        // count is added even when it is 0: cheaper than a test on every turn.
        let stats = worker.stats();
        bump_by(&stats.handled, report.handled);
        if worker.observed() {
            worker.turn_ending(|| self.task(), report.handled);
        }
        // The common end with a test of its own, the others out of line (together, the
        // compiler made them a jump table, which every turn went through).
        if report.end == TurnEnd::Empty {
            self.go_idle(worker, stats);
        } else {
            self.end_turn(report.end, worker);
        }
    }

    /// `task` as an entry of this type if its vtable is `vtable`'s, the vtable through
    /// which this type's [`Runnable::run_turns`] was called; else back as it was.
    ///
    /// One comparison of two addresses. It is exact in one direction, which is the one
    /// that matters: `vtable` is a vtable of `Self`, and a vtable is made for one type,
    /// since it holds that type's `Any::type_id` (a supertrait of [`Runnable`]), a
    /// function returning a constant of its own for every type, so that no two types'
    /// vtables are identical and none can be merged. A type may have several vtables
    /// (one per unit of code generation that made one): a task of this type made with
    /// another just returns to the pick loop, whose call runs it.
    #[inline(always)]
    fn of_task(task: Task, vtable: NonNull<dyn Runnable>) -> Result<Arc<Self>, Task> {
        let data = Arc::as_ptr(&task);
        if !std::ptr::eq(data, vtable.as_ptr().with_addr(data.addr())) {
            return Err(task);
        }
        // The task's own type (a method of its vtable: `Runnable: Any`), not the `Arc`'s;
        // written without the cast to `dyn Any`, which needs Rust 1.86.
        debug_assert_eq!((*task).type_id(), TypeId::of::<Self>());
        // SAFETY: the task's value is a `Self` (above), so the data pointer of the
        // `Arc<dyn Runnable>` points at a `Self` inside an `Arc` allocation made for one;
        // the reference it owned passes to the `Arc<Self>`.
        Ok(unsafe { Arc::from_raw(Arc::into_raw(task).cast::<Self>()) })
    }

    /// Ends a turn that did not end with [`TurnEnd::Empty`]: stops the actor, leaves it
    /// waiting, or puts it back in a run queue.
    #[inline(never)]
    fn end_turn(self: Arc<Self>, end: TurnEnd, worker: &Worker) {
        match end {
            TurnEnd::Stop => self.stop(worker),
            TurnEnd::Wait => self.go_wait(worker),
            TurnEnd::Yield => {
                if let Some(k) = worker.flood_stage() {
                    // Busy here: senders on other workers now count their pushes as cross
                    // pushes (see `super::flood`).
                    self.home.busy_on(k);
                }
                let site = self.home.target();
                worker.requeue(self, site);
            }
            TurnEnd::Empty => self.go_idle(worker, worker.stats()),
        }
    }

    /// Ends a turn whose mailbox looked empty: go idle, or stay scheduled if a push is
    /// halfway through.
    #[inline]
    fn go_idle(self: Arc<Self>, worker: &Worker, stats: &WorkerStats) {
        let entry = Arc::into_raw(self);
        // SAFETY: the reference behind `entry` is still ours, and this worker ran the last
        // turn, so it is the mailbox's only consumer.
        if unsafe { (*entry).cell.mark_idle() } {
            // The reference now belongs to the idle state. Another worker may already be
            // running the actor, or have freed it: `entry` is not touched again.
            bump(&stats.descheduled);
        } else {
            // SAFETY: not idle, so the reference is still ours: back into an Arc.
            let entry = unsafe { Arc::from_raw(entry) };
            let site = entry.home.target();
            worker.requeue(entry, site);
        }
    }

    /// Ends a turn whose actor is muted: it waits, off every run queue, for the mailbox it
    /// is muted on to drain, or goes on if that mailbox has drained already.
    #[cold]
    fn go_wait(self: Arc<Self>, worker: &Worker) {
        // SAFETY: this worker ran the last turn, which ended with `Wait`.
        if unsafe { self.cell.wait(&self) } {
            // The waiting holds its own reference; another worker may already run the
            // actor. Ours goes, untouched.
            drop(self);
            worker.deschedule();
        } else {
            let site = self.home.target();
            worker.requeue(self, site);
        }
    }

    /// Stops the actor on this worker, which ran its last turn: the cell stops, the home
    /// leaves its dedicated stage (even one a racing move is putting it on right now), and
    /// the actor leaves the scheduled state for good.
    fn stop(self: Arc<Self>, worker: &Worker) {
        if !self.cell.stop(&self) {
            // Restarted in place: it runs again, as after a used-up batch.
            let site = self.home.target();
            worker.requeue(self, site);
            return;
        }
        self.home.close();
        bump(&worker.stats().stopped);
        worker.deschedule();
    }
}

impl<C: Run<Scheduled<C>>> Runnable for Scheduled<C> {
    /// Out of line, so that the single turn ([`Runnable::run_turn`]) and the pick loop's
    /// share one copy of the turn: with two, the compiler stopped inlining the cell's turn.
    #[inline(never)]
    fn run_turns(self: Arc<Self>, worker: &Worker, in_place: Option<InPlace>) -> Option<Task> {
        let mut entry = self;
        loop {
            entry.turn_once(worker);
            let InPlace(vtable) = in_place?;
            let task = worker.pick()?;
            if !worker.runs_in_place() {
                return Some(task);
            }
            entry = match Self::of_task(task, vtable) {
                Ok(entry) => entry,
                Err(task) => return Some(task),
            };
            worker.count_turn();
        }
    }

    fn home(&self) -> &Home {
        &self.home
    }

    fn is_stopped(&self) -> bool {
        self.cell.is_stopped()
    }

    unsafe fn discard(&self) {
        // SAFETY: the caller holds the scheduling right, as `Run::discard` requires.
        unsafe { self.cell.discard() }
    }
}
