//! The runtime put together: what the workers and actors of one system share, and the
//! few functions that join the layers on the paths every actor takes (spawn, send, and
//! an address going away).
//!
//! The layers below know nothing of each other's types: the cell runs a
//! [`Behaviour`] with an opaque environment, the scheduler runs entries around any cell
//! that implements [`crate::task::Run`], and placement writes home words. This module
//! names the concrete types: an actor's [`Node`] is the scheduler's entry around a cell,
//! and its environment is the system's [`Shared`] state. A send here is the cell's push
//! followed by the scheduler's bookkeeping for it, both inlined into the one function, so
//! the layering costs a hop nothing.
//!
//! Above this module are only the public API (the actor module: `Actor`, `Context`,
//! `Addr`) and [`crate::System`], which builds a [`Shared`] and starts its threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::cell::{ActorCell, Behaviour, Down, Env, ExitReason, Letter, PanicReport, Refused};
use crate::census::Census;
use crate::counted::Counted;
use crate::mailbox::capacity::Capacity;
use crate::placement::{self, Placement, PlacementMode, Policy};
use crate::registry::Registry;
use crate::scheduler::{Home, Scheduled, Scheduler, release_after_shutdown};
use crate::timer::TimerService;

/// The hook a system calls when a handler panics.
pub(crate) type PanicHook = Box<dyn Fn(&PanicReport) + Send + Sync>;

/// What the workers and actor cells of one system share.
pub(crate) struct Shared {
    pub(crate) sched: Arc<Scheduler>,
    /// The policy of actors spawned without a placement.
    pub(crate) policy: Policy,
    /// Whether the runtime samples actors and moves them.
    pub(crate) mode: PlacementMode,
    pub(crate) on_panic: PanicHook,
    pub(crate) dead_letters: AtomicU64,
    /// Every live actor, for the shutdown ([`crate::census`]).
    pub(crate) census: Census,
    /// The system's timers ([`crate::timer`]); its thread starts with the first timer.
    pub(crate) timers: TimerService,
    /// The tokio runtime whose context futures inside actors are polled in.
    #[cfg(feature = "tokio")]
    pub(crate) reactor: crate::reactor::Reactor,
    /// The actors' names ([`crate::registry`]).
    pub(crate) registry: Registry,
    /// Set when the shutdown begins to stop every actor.
    pub(crate) closing: AtomicBool,
}

impl Env for Counted<Shared> {
    fn panicked(&self, report: &PanicReport) {
        crate::trace::panicked(report.actor, report.during, &report.message);
        // The hook is user code, run on a worker (or the timer thread) in the middle of a
        // stop: a panic of its own must not unwind through the runtime. It is dropped
        // (there is nobody left to report it to but standard error, which may be gone).
        let hook = std::panic::AssertUnwindSafe(|| (self.on_panic)(report));
        if std::panic::catch_unwind(hook).is_err() {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "footlights: the panic hook panicked reporting actor {}'s panic",
                report.actor
            );
        }
    }

    fn dead_letters(&self, n: u64) {
        crate::trace::dead_letters(n);
        self.dead_letters.fetch_add(n, Ordering::Relaxed);
    }

    fn forget_names(&self, entry: *const ()) {
        // The addresses are dropped here, after the registry's lock is released.
        drop(self.registry.remove_actor(entry as usize));
    }

    fn closing(&self) -> bool {
        self.closing.load(Ordering::Acquire)
    }

    fn census(&self) -> &Census {
        &self.census
    }
}

/// An actor as the runtime holds it: the scheduler's entry (its home) around its cell.
pub(crate) type Node<B> = Scheduled<ActorCell<B>>;

/// A behaviour bound to this runtime's types: what every [`crate::Actor`] is (the actor
/// module implements [`Behaviour`] for it).
pub(crate) trait Bound: Behaviour<Env = Counted<Shared>, Node = Node<Self>> {}

impl<B: Behaviour<Env = Counted<Shared>, Node = Node<B>>> Bound for B {}

/// Spawns `actor` on the system of `shared`, where `placement` says, with a bounded
/// mailbox of `capacity` messages if there is one, and schedules it. Returns its node,
/// counted as one address.
#[inline]
pub(crate) fn spawn<B: Bound>(
    shared: &Arc<Shared>,
    actor: B,
    placement: &Placement,
    capacity: Option<usize>,
) -> Arc<Node<B>> {
    spawn_prepared(shared, actor, placement, capacity, |_| {})
}

/// Spawns as [`spawn`] does, running `prepare` on the cell before the actor is scheduled
/// (a supervisor installs its restart there: [`crate::supervision`]).
#[inline]
pub(crate) fn spawn_prepared<B: Bound>(
    shared: &Arc<Shared>,
    actor: B,
    placement: &Placement,
    capacity: Option<usize>,
    prepare: impl FnOnce(&ActorCell<B>),
) -> Arc<Node<B>> {
    // First, so that the actor is not copied aside while the count may be fetched.
    let env = Counted::new(shared);
    let (target, movable) = placement::resolve(&shared.sched, shared.policy, placement);
    let node = Arc::new(Scheduled::new(
        Home::new(target, movable),
        ActorCell::new(actor, env, capacity),
    ));
    // SAFETY: the cell is inside the Arc, at its final address, and nobody else has seen
    // it yet. It starts scheduled: the task below is that scheduling.
    unsafe { node.cell().init() };
    prepare(node.cell());
    crate::trace::spawned(
        std::any::type_name::<B>(),
        Arc::as_ptr(&node).cast::<()>() as usize,
    );
    shared.sched.spawned(node.task(), node.home());
    node
}

/// Asks the actor of `node` to stop after the messages already sent to it.
pub(crate) fn stop<B: Bound>(node: &Arc<Node<B>>) {
    if node.cell().request_stop() {
        // SAFETY: the stop signal's push found the actor idle.
        unsafe { node.woken(&node.cell().env().sched) };
    }
}

/// Stops the actor of `node` before it handles anything more. `true` if this call
/// killed it (it was neither killed nor stopped already).
pub(crate) fn kill<B: Bound>(node: &Arc<Node<B>>) -> bool {
    kill_for(node, ExitReason::Killed)
}

/// Kills the actor of `node` (see [`kill`]), for `reason`: what its watchers are told.
pub(crate) fn kill_for<B: Bound>(node: &Arc<Node<B>>, reason: ExitReason) -> bool {
    match node.cell().kill_for(reason) {
        Some(woke) => {
            if woke {
                // SAFETY: the wake signal's push found the actor idle.
                unsafe { node.woken(&node.cell().env().sched) };
            }
            true
        }
        None => false,
    }
}

/// A linked actor stopped (`down` says which and why): the actor of `node` gets it as a
/// message if it traps exits, and otherwise stops too, for the same reason, unless that
/// reason is [`ExitReason::Normal`].
pub(crate) fn exit_signal<B: Bound>(node: &Arc<Node<B>>, down: Down) {
    match node.cell().trapped(down) {
        Ok(msg) => {
            if deliver(node, crate::cell::Envelope::Msg(msg)).is_err() {
                node.cell().count_dead_letters(1);
            }
        }
        Err(down) => {
            if !down.reason.is_normal() {
                kill_for(node, down.reason);
            }
        }
    }
}

/// The census's visit of an actor at shutdown: kills it.
///
/// # Safety
/// `entry` must be the pointer of a live `Arc<Node<B>>` (what the cell enters on its first
/// turn).
pub(crate) unsafe fn kill_for_shutdown<B: Bound>(entry: *const ()) -> bool {
    // SAFETY: the census keeps the node alive during the visit (the caller's promise);
    // the `Arc` is borrowed, never dropped, so its count is untouched.
    let node = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(entry.cast::<Node<B>>()) });
    kill(&node)
}

/// Delivers `letter` to the actor of `node` unless it has stopped or its system has shut
/// down (then the letter comes back; a send from one of the system's own workers is not
/// refused for shutdown, see [`Scheduled::send`]), and schedules the actor if the push
/// woke it.
#[inline(always)]
pub(crate) fn deliver<B: Bound>(node: &Arc<Node<B>>, letter: Letter<B>) -> Result<(), Letter<B>> {
    // `send_with`'s steps, written out so that no `(bool, _)` shares the letter's memory
    // (see `Woke`).
    let sched = &node.cell().env().sched;
    // SAFETY: `Woke::yes` says what the push found.
    let sent = unsafe {
        node.send(
            sched,
            letter,
            |letter| node.cell().deliver(letter),
            |woke| woke.yes(),
            |letter| letter,
        )
    };
    sent.map(drop)
}

/// Delivers `msg` as [`deliver`] does, unless the actor's bounded mailbox is full.
pub(crate) fn try_deliver<B: Bound>(
    node: &Arc<Node<B>>,
    msg: B::Msg,
) -> Result<(), Refused<B::Msg>> {
    send_with(node, msg, Refused::Stopped, |cell, m| {
        cell.try_deliver(m).map(|woke| (woke, ()))
    })
}

/// Delivers `msg` as [`deliver`] does, and returns the actor's capacity if its bounded
/// mailbox was already full (the sender is muted on it).
pub(crate) fn deliver_yielding<B: Bound>(
    node: &Arc<Node<B>>,
    msg: B::Msg,
) -> Result<Option<Arc<Capacity>>, B::Msg> {
    send_with(node, msg, |m| m, ActorCell::deliver_yielding)
}

/// The send path every way of sending shares: refused (`shut`) once the system has shut
/// down (see [`Scheduled::send`]), else pushed by `push`, whose first result says whether the push woke the actor;
/// then the scheduler counts the send and schedules the actor if it woke.
#[inline(always)]
fn send_with<B: Bound, M, T, E>(
    node: &Arc<Node<B>>,
    msg: M,
    shut: impl FnOnce(M) -> E,
    push: impl FnOnce(&ActorCell<B>, M) -> Result<(bool, T), E>,
) -> Result<T, E> {
    let sched = &node.cell().env().sched;
    // SAFETY: the push's first result says whether it found the actor idle.
    let sent = unsafe {
        node.send(
            sched,
            msg,
            |m| push(node.cell(), m),
            |&(woke, _)| woke,
            shut,
        )
    };
    sent.map(|(_, out)| out)
}

/// Wakes the future in `slot` of the actor of `node` ([`crate::cell::polling`]), and
/// schedules the actor if the wake-up found it idle. Does nothing once the system has
/// shut down.
pub(crate) fn wake_future<B: Bound>(node: &Arc<Node<B>>, slot: u32) {
    let sched = &node.cell().env().sched;
    if !sched.is_shutdown() && node.cell().wake_future(slot) {
        // SAFETY: the wake-up's push found the actor idle.
        unsafe { node.woken(sched) };
    }
}

/// Schedules the muted actor whose scheduling right `node` is: the mailbox it waited on
/// has drained (see the cell's `mute` module).
pub(crate) fn resume<B: Bound>(node: Arc<Node<B>>) {
    let sched = Arc::clone(&node.cell().env().sched);
    let site = node.home().target();
    sched.schedule(node, site);
}

/// An address of `node`'s actor was dropped: counts it, and schedules the actor if the
/// collect signal of the last address woke it. After shutdown, frees the node without
/// recursing (see [`release_after_shutdown`]).
pub(crate) fn release<B: Bound>(node: Arc<Node<B>>) {
    let sched = &node.cell().env().sched;
    if node.cell().release_addr() {
        // SAFETY: the collect signal's push found the actor idle.
        unsafe { node.woken(sched) };
    }
    if sched.is_shutdown() {
        release_after_shutdown(node);
    }
}

/// Moves the actor of `node` to `placement` (it takes effect at its next scheduling);
/// `movable` says whether the runtime may move it again.
pub(crate) fn relocate<B: Bound>(node: &Arc<Node<B>>, placement: &Placement, movable: bool) {
    let shared = node.cell().env();
    placement::relocate(&shared.sched, shared.policy, &**node, placement, movable);
}
