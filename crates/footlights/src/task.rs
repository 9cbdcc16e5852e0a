//! The contract between the scheduler and the actors it runs: two small traits, so that
//! neither side imports the other.
//!
//! This is the shape of tokio's `runtime/task` and its `Schedule` trait. The scheduler
//! ([`crate::scheduler`]) keeps each actor in an entry of its own (the actor's *home*:
//! where it is scheduled next) around the actor's cell, and drives the cell through
//! [`Run`]: run one turn, stop, try to go idle. The cell ([`crate::cell`]) implements
//! `Run`, and while a turn runs it calls back into the worker through [`Schedule`]. Both
//! traits are generic, not trait objects: each actor type's turn is compiled against the
//! one worker type, so the calls cost what direct calls cost (a hop stays at its
//! instruction count; `docs/experiments/2026-11-22-runtime-micro-benchmarks.md`).
//!
//! How a turn ended ([`TurnEnd`]) is the cell's decision; what happens to the actor next
//! (back to a run queue, idle, or stopped, and on which queue) is the scheduler's.

use std::num::NonZeroUsize;
use std::sync::Arc;

/// What a running turn asks of the worker that runs it.
pub(crate) trait Schedule {
    /// The most envelopes one turn takes from the mailbox before it yields its worker
    /// (never zero, so that the turn's countdown needs no lower bound).
    fn batch(&self) -> NonZeroUsize;

    /// The turn goes on after a message: anything that message scheduled must not wait
    /// behind this turn where no other worker can take it (the worker's next slot).
    fn turn_goes_on(&self);

    /// The pool stage this worker is, if it is one (a dedicated stage is not): the cell
    /// enters a new actor in the shard of its system's census this thread owns.
    fn pool_stage(&self) -> Option<usize>;
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TurnEnd {
    /// The actor must stop: it asked to, a handler panicked, or nothing can reach it any
    /// more. The scheduler calls [`Run::stop`] next.
    Stop,
    /// The actor is muted: a yielding send found a full mailbox. The scheduler calls
    /// [`Run::wait`] next.
    Wait,
    /// The batch was used up, or a handler yielded: the actor may have more to do and goes
    /// back in a run queue, at its back.
    Yield,
    /// The mailbox looked empty: the scheduler tries [`Run::mark_idle`].
    Empty,
}

/// What one turn did.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnReport {
    /// How the turn ended.
    pub(crate) end: TurnEnd,
    /// Messages handled (signals do not count).
    pub(crate) handled: u64,
}

/// What the scheduler needs of an actor's cell. `N` is the scheduler's entry that holds
/// the cell: the turn hands it to the actor's hooks, which make addresses from it.
pub(crate) trait Run<N>: Send + Sync + 'static {
    /// Runs one turn on `worker`. Only the worker holding the actor's single scheduling
    /// right calls this (the mailbox's idle bit guarantees there is one).
    fn turn<S: Schedule>(&self, me: &Arc<N>, worker: &S) -> TurnReport;

    /// Stops the actor after a turn that ended with [`TurnEnd::Stop`]: later sends fail,
    /// its `stopped` hook runs, its state and queued messages are dropped, and its mailbox
    /// is closed, so that nothing sent later can wait in it. The actor is never scheduled
    /// again. Returns `false` if, instead, the actor was restarted in place (a supervised
    /// actor, see [`crate::supervision`]): it goes on, and must be run again.
    fn stop(&self, me: &Arc<N>) -> bool;

    /// Marks the actor idle if its mailbox is empty; `false` if a push is halfway through
    /// and the actor must stay scheduled.
    ///
    /// # Safety
    /// Only the worker that ran the actor's last turn may call this, once, after that turn
    /// ended with [`TurnEnd::Empty`]. On success the actor may run elsewhere at once (or
    /// be freed), so the caller must not touch it afterwards.
    unsafe fn mark_idle(&self) -> bool;

    /// Whether the actor has stopped.
    fn is_stopped(&self) -> bool;

    /// Hands a muted actor's scheduling right (`me`, the run queue's reference, which the
    /// cell clones) to the mailbox it waits on, which schedules it again once it has
    /// drained; `false` if the actor must go on instead and stay scheduled (requeued).
    ///
    /// # Safety
    /// Only the worker that ran the actor's last turn may call this, once, after that turn
    /// ended with [`TurnEnd::Wait`]. On `true` the actor may run elsewhere at once, so the
    /// caller must drop its reference without touching the actor.
    unsafe fn wait(&self, me: &Arc<N>) -> bool;

    /// The system shut down while the actor was scheduled, so it will never run again:
    /// closes its mailbox, so that what is queued is dropped (a dropped request cancels
    /// its reply) and later sends are refused. Its hooks do not run.
    ///
    /// # Safety
    /// Only the holder of the actor's scheduling right may call this, once, after the
    /// workers have stopped; it then drops that right.
    unsafe fn discard(&self);
}
