//! The actor cell: an actor's state, mailbox and lifecycle, and the turn that runs it.
//!
//! # What the cell knows
//!
//! The cell sits just above the mailbox. It knows the mailbox ([`crate::mailbox`]) and
//! the scheduling contract ([`crate::task`]), and nothing above them: not the scheduler's
//! queues, not placement, not the system. It runs any [`Behaviour`] (the public
//! [`crate::Actor`] trait is bound to it one layer up, in the actor module) and keeps an
//! opaque *environment* ([`Env`]) for the two things it reports upwards: panics and dead
//! letters. The scheduler holds the cell inside its own entry and drives it through
//! [`crate::task::Run`].
//!
//! # The life of an actor
//!
//! * **Spawned** scheduled: its first turn enters it in its system's census
//!   ([`crate::census`]) and runs `started`.
//! * **Delivering** ([`ActorCell::deliver`]): a push onto the mailbox, which tells the sender
//!   whether the actor was idle (the sender then schedules it) or closed (the message comes
//!   back). An actor that stops, or has stopped, refuses before pushing ([`lifecycle`]).
//!   An actor spawned with a capacity also counts its messages
//!   ([`crate::mailbox::capacity`]): [`ActorCell::try_deliver`] refuses a message when the
//!   mailbox is full, and [`ActorCell::deliver_yielding`] delivers it and says whether the
//!   sender must be muted ([`mute`]).
//! * **Turns** ([`turn`]): `started` once, then up to a batch of envelopes.
//! * **Garbage collection** ([`addresses`]): the last address dropped sends a signal
//!   through the mailbox, and the actor stops if, when its turn reaches the signal, no
//!   address has existed since.
//! * **Stopped from outside** ([`lifecycle`]): gracefully, by a signal queued behind the
//!   messages already sent, or at once, by a flag its turns test (a kill).
//! * **Muted** ([`mute`]): a handler's yielding send found a full mailbox; the turn ends
//!   and the actor waits, neither idle nor queued, until that mailbox has drained.
//! * **Running futures** ([`polling`]): a future the actor started is polled in its
//!   turns, when its waker pushes a poll signal; its continuation runs with the state.
//! * **Stopping** ([`stop`]): marked stopped, out of the census, `stopped` hook (if
//!   `started` ran), state and queued messages dropped, and the mailbox closed, so no
//!   message can wait in it for good; then its monitors and links are told why
//!   ([`exit`], [`ties`]).
//!
//! What travels in the mailbox, and where the kinds of envelope still to come (system
//! signals, timers, futures) go: [`envelope`].

pub(crate) mod addresses;
pub(crate) mod behaviour;
pub(crate) mod envelope;
pub(crate) mod exit;
pub(crate) mod extras;
pub(crate) mod lifecycle;
pub(crate) mod mute;
pub(crate) mod named;
pub(crate) mod polling;
pub(crate) mod restart;
pub(crate) mod stop;
pub(crate) mod ties;
pub(crate) mod turn;

use std::cell::UnsafeCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use crate::census::{Census, Kind, Seat};
use crate::mailbox::capacity::Capacity;
use crate::mailbox::{Mailbox, Push};
use crate::task::{Run, Schedule, TurnReport};
use addresses::Addresses;
pub(crate) use behaviour::{Behaviour, Env, Halt, Turn};
pub(crate) use envelope::{Envelope, Signal};
use exit::Exit;
pub use exit::{ActorId, Down, ExitReason};
use extras::ExtrasPtr;
use lifecycle::{KILLED, Life, Phase, STOPPED, STOPPING};
pub use stop::PanicReport;

/// What the mailbox of a cell running `B` carries.
pub(crate) type Letter<B> = Envelope<<B as Behaviour>::Msg, <B as Behaviour>::Call>;

/// An actor's cell: shared by its addresses, its run-queue entries and its turn.
pub(crate) struct ActorCell<B: Behaviour> {
    mailbox: Mailbox<Letter<B>>,
    addresses: Addresses,
    /// The flags other threads set to stop it ([`lifecycle`]).
    life: Life,
    handled: AtomicU64,
    /// The actor's state, touched only inside its turns.
    state: UnsafeCell<Phase<B>>,
    /// Why the turn that ended with a stop stopped it: written by that turn, read by the
    /// stop that follows on the same worker (the consumer's, like `state`).
    exit: UnsafeCell<Exit>,
    /// Where it sits in its system's census: a `Seat`'s slot, written by the first turn
    /// (and by the first turn after each restart) and cleared when the actor leaves; null
    /// while it is not in the census. The consumer's, like `state` (and `drop`'s).
    seat: AtomicPtr<()>,
    /// What the actor keeps only once it needs it: a bounded mailbox's capacity, its
    /// monitors and links ([`ties`]) among it ([`extras`]); null for most actors.
    extras: ExtrasPtr<B::Msg, B>,
    env: B::Env,
}

/// Whether a push found the actor idle (the sender must schedule it), as
/// [`ActorCell::deliver`] returns it.
///
/// A whole word, not a `bool`, on purpose: `Result<Woke, Letter<B>>` keeps the flag inside
/// the letter's bytes (in the niche of the letter's first word, the flag in the second). A
/// one-byte flag there makes the compiler split every copy of the letter at an odd offset:
/// the 15 bytes after the flag move as two overlapping 8-byte halves, and a load that
/// spans two such stores cannot be forwarded from the store buffer, so it waits for them
/// to reach the cache, on every send (see docs/experiments/2026-11-27-ring-hop-instructions.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub(crate) enum Woke {
    /// The actor was already scheduled.
    No,
    /// The actor was idle: the caller holds the right, and the duty, to schedule it.
    Yes,
}

impl Woke {
    /// Whether the push woke the actor.
    #[inline]
    pub(crate) fn yes(self) -> bool {
        self == Woke::Yes
    }
}

/// Why a message was refused.
pub(crate) enum Refused<M> {
    /// The bounded mailbox is full.
    Full(M),
    /// The actor has stopped.
    Stopped(M),
}

// SAFETY: `state`, `exit` and the consumer's part of `extras` are only touched inside a
// turn (or the stop that follows one, or the scheduler's call that ends a turn), and the
// mailbox's idle bit guarantees that at most one worker runs a turn of a given actor at a
// time (the one that scheduled it, or the one that took it from a run queue); the hand-off
// between turns is synchronised by the mailbox's acquire/release operations and the run
// queues. Everything else is atomic or `Sync`. `B: Send` because the state moves between
// worker threads.
unsafe impl<B: Behaviour> Sync for ActorCell<B> {}

impl<B: Behaviour> ActorCell<B> {
    /// A cell for `actor` with one address, and a bounded mailbox of `capacity` messages
    /// if there is one. Call [`ActorCell::init`] once it has reached its final address.
    pub(crate) fn new(actor: B, env: B::Env, capacity: Option<usize>) -> Self {
        ActorCell {
            mailbox: Mailbox::new(),
            addresses: Addresses::new(),
            life: Life::new(capacity.is_some()),
            handled: AtomicU64::new(0),
            state: UnsafeCell::new(Phase::Unstarted(actor)),
            exit: UnsafeCell::new(Exit::Normal),
            seat: AtomicPtr::new(std::ptr::null_mut()),
            extras: ExtrasPtr::new(capacity),
            env,
        }
    }

    /// Readies the mailbox. The actor starts scheduled: its first turn runs `started`
    /// (and enters the actor in its system's census).
    ///
    /// # Safety
    /// Call exactly once, after the cell has reached the address it keeps for life and
    /// before it is shared.
    pub(crate) unsafe fn init(&self) {
        // SAFETY: the caller's guarantee is the mailbox's.
        unsafe { self.mailbox.init(false) };
    }

    /// Enters the actor of node `me` in its system's census, from its first turn on a
    /// worker that is pool stage `stage` (if it is one); see [`crate::census`].
    #[inline]
    fn enter_census(&self, me: &Arc<B::Node>, stage: Option<usize>) {
        // SAFETY: the worker running the first turn is pool stage `stage` (the scheduler
        // says). The node is what `B::VISIT` visits, and it leaves the census when it
        // stops, before it can be freed (or, freed unstopped after shutdown, when no sweep
        // runs).
        let seat = unsafe {
            self.env
                .census()
                .enter(stage, Arc::as_ptr(me).cast(), Kind::of::<B>(B::VISIT))
        };
        self.seat.store(seat.as_ptr().cast_mut(), Ordering::Relaxed);
    }

    /// The census seat the first turn noted (none if it never ran, or left since).
    fn seat(&self) -> Seat {
        Seat::from_ptr(self.seat.load(Ordering::Relaxed))
    }

    /// Takes the actor of node `me` out of its system's census (waiting while a shutdown's
    /// sweep visits it), and forgets its seat. A restart leaves until the next turn enters
    /// again ([`restart`]); if the actor is killed before that turn, its stop has no seat
    /// to leave, rather than the old one, which is free or another actor's by then.
    fn leave_census(&self, me: &Arc<B::Node>) {
        Census::leave(self.seat(), Arc::as_ptr(me).cast());
        self.seat.store(std::ptr::null_mut(), Ordering::Relaxed);
    }

    /// What the cell keeps of its system.
    pub(crate) fn env(&self) -> &B::Env {
        &self.env
    }

    /// Pushes `letter` unless the actor has stopped. `Ok(true)` if the push found the actor
    /// idle: the caller now holds the right, and the duty, to schedule it (the entry's idle
    /// reference). `Ok(false)` if it was scheduled already. `Err` gives the letter back: the
    /// actor has stopped, or stopped while the letter was on its way (the mailbox was
    /// closed). A message to a bounded mailbox is counted, past the capacity if it is full.
    #[inline(always)]
    pub(crate) fn deliver(&self, letter: Letter<B>) -> Result<Woke, Letter<B>> {
        // One load and one test for both, as a refusal alone cost before.
        if self.life.refuses_or_bounded() {
            return self.deliver_refused_or_counted(letter);
        }
        self.push(letter)
    }

    /// [`ActorCell::deliver`] to an actor that refuses it, or has a bounded mailbox: a
    /// message is counted into it whatever its count, before it is pushed (see the
    /// capacity module). Kept out of the common path.
    #[cold]
    #[inline(never)]
    fn deliver_refused_or_counted(&self, letter: Letter<B>) -> Result<Woke, Letter<B>> {
        if self.life.refuses() {
            return Err(letter);
        }
        if let (Envelope::Msg(_), Some(capacity)) = (&letter, self.capacity()) {
            capacity.acquire_past();
        }
        self.push(letter)
    }

    /// Delivers a message unless the actor stops or its bounded mailbox is full; `Ok` as
    /// for [`ActorCell::deliver`].
    pub(crate) fn try_deliver(&self, msg: B::Msg) -> Result<bool, Refused<B::Msg>> {
        if self.life.refuses() {
            return Err(Refused::Stopped(msg));
        }
        let Some(capacity) = self.capacity() else {
            return self
                .push(Envelope::Msg(msg))
                .map(Woke::yes)
                .map_err(|letter| Refused::Stopped(unwrap_msg(letter)));
        };
        if !capacity.try_acquire() {
            return Err(Refused::Full(msg));
        }
        self.push(Envelope::Msg(msg))
            .map(Woke::yes)
            .map_err(|letter| Refused::Stopped(unwrap_msg(letter)))
    }

    /// Delivers a message as [`ActorCell::deliver`] does, and if the bounded mailbox was
    /// already full, also returns its capacity: the sender is muted on it ([`mute`]).
    pub(crate) fn deliver_yielding(
        &self,
        msg: B::Msg,
    ) -> Result<(bool, Option<Arc<Capacity>>), B::Msg> {
        if self.life.refuses() {
            return Err(msg);
        }
        let Some(capacity) = self.capacity() else {
            return self
                .push(Envelope::Msg(msg))
                .map(|woke| (woke.yes(), None))
                .map_err(unwrap_msg);
        };
        // Counted before the push, so that the turn never uncounts a message not yet
        // counted (see the capacity module).
        let full = capacity.acquire_past();
        let woke = self.push(Envelope::Msg(msg)).map_err(unwrap_msg)?.yes();
        Ok((woke, full.then(|| self.capacity_shared()).flatten()))
    }

    /// Pushes `letter` whatever the lifecycle flags say; as [`ActorCell::deliver`].
    #[inline(always)]
    fn push(&self, letter: Letter<B>) -> Result<Woke, Letter<B>> {
        match self.mailbox.push(letter) {
            Push::Queued => Ok(Woke::No),
            Push::Woke => Ok(Woke::Yes),
            Push::Closed => Err(self.take_back()),
        }
    }

    /// Pushes a signal whatever the lifecycle flags say. `true` if it woke the actor: the
    /// caller must schedule it, as for [`ActorCell::deliver`]. A signal to a stopped actor
    /// is dropped.
    fn push_signal(&self, signal: Signal) -> bool {
        self.push(Envelope::Signal(signal)).is_ok_and(Woke::yes)
    }

    /// Asks the actor to stop after the messages already sent ([`crate::Addr::stop`]):
    /// refuses later sends and queues a `Stop` signal. `true` if the signal woke the actor
    /// (the caller must schedule it). Does nothing if it stops already.
    pub(crate) fn request_stop(&self) -> bool {
        if self.life.set(STOPPING) & (STOPPING | KILLED | STOPPED) != 0 {
            return false;
        }
        self.push_signal(Signal::Stop)
    }

    /// Stops the actor before it handles anything more, for `reason` (a plain kill's is
    /// [`ExitReason::Killed`]); see [`ActorCell::kill`].
    pub(crate) fn kill_for(&self, reason: ExitReason) -> Option<bool> {
        if reason != ExitReason::Killed {
            self.note_killed_for(reason);
        }
        self.kill()
    }

    /// Stops the actor before it handles anything more ([`crate::Addr::kill`]): refuses
    /// later sends, sets the flag its turns test, and pushes a `Wake` signal to wake it if
    /// it is idle. `Some(woke)` if this call killed it (`woke`: the caller must schedule
    /// it); `None` if it was killed, or stopped, already.
    pub(crate) fn kill(&self) -> Option<bool> {
        if self.life.set(KILLED) & (KILLED | STOPPED) != 0 {
            return None;
        }
        Some(self.push_signal(Signal::Wake))
    }

    /// After a push found the mailbox closed: takes the pushed letter back, and drops
    /// (counting them as dead letters) any that other senders queued behind it.
    #[cold]
    #[inline(never)]
    fn take_back(&self) -> Letter<B> {
        let mut dead = 0;
        // SAFETY: the push that returned `Closed` made this caller the mailbox's consumer,
        // and this is the call right after it.
        let own = unsafe { self.mailbox.take_back(|letter| dead += letter.counts()) };
        self.count_dead_letters(dead);
        if let (Envelope::Msg(_), Some(capacity)) = (&own, self.capacity()) {
            // Every message pushed to a bounded mailbox was counted in.
            capacity.release();
        }
        own
    }

    /// Counts a new address (one exists already: the one cloned, or the running actor's).
    pub(crate) fn add_addr(&self) {
        self.addresses.add();
    }

    /// Called when an address is dropped; the last one sends the collect signal. `true`
    /// if that signal woke the actor: the caller must schedule it, as for
    /// [`ActorCell::deliver`].
    pub(crate) fn release_addr(&self) -> bool {
        let Some(generation) = self.addresses.release() else {
            return false;
        };
        if self.life.has(STOPPED) {
            return false;
        }
        self.push_signal(Signal::Collect(generation))
    }

    /// Counts `n` messages dropped unhandled.
    pub(crate) fn count_dead_letters(&self, n: u64) {
        if n > 0 {
            self.env.dead_letters(n);
        }
    }

    /// Whether the actor has stopped for good.
    pub(crate) fn is_stopped(&self) -> bool {
        self.life.has(STOPPED)
    }

    /// Whether sends are refused: the actor stops, or has stopped.
    pub(crate) fn refuses(&self) -> bool {
        self.life.refuses()
    }

    /// Which actor this is (the address of its node, `me`).
    pub(crate) fn id_of(me: &Arc<B::Node>) -> ActorId {
        ActorId(Arc::as_ptr(me).addr())
    }

    /// Messages handled so far.
    pub(crate) fn messages_handled(&self) -> u64 {
        self.handled.load(Ordering::Relaxed)
    }
}

impl<B: Behaviour> Run<B::Node> for ActorCell<B> {
    #[inline]
    fn turn<S: Schedule>(&self, me: &Arc<B::Node>, worker: &S) -> TurnReport {
        self.run_turn(me, worker)
    }

    fn stop(&self, me: &Arc<B::Node>) -> bool {
        if self.ties_if_any().is_some() && self.restart(me) {
            // Restarted in place (supervised): the next turn runs the new `started`.
            return false;
        }
        self.stop_now(me);
        true
    }

    #[inline]
    unsafe fn mark_idle(&self) -> bool {
        // SAFETY: the caller ran the last turn, so it is the mailbox's only consumer.
        unsafe { self.mailbox.mark_idle() }
    }

    fn is_stopped(&self) -> bool {
        self.life.has(STOPPED)
    }

    unsafe fn wait(&self, me: &Arc<B::Node>) -> bool {
        // SAFETY: the caller ran the last turn, so it is the only consumer.
        unsafe { self.wait_muted(me) }
    }

    unsafe fn discard(&self) {
        // SAFETY: the caller holds the scheduling right, so it is the only consumer.
        unsafe { self.discard_unstopped() }
    }
}

/// The message inside a letter that went out as a message.
fn unwrap_msg<M, C>(letter: Envelope<M, C>) -> M {
    match letter {
        Envelope::Msg(msg) => msg,
        Envelope::Call(_) | Envelope::Signal(_) => unreachable!("a message comes back as it went"),
    }
}

impl<B: Behaviour> Drop for ActorCell<B> {
    fn drop(&mut self) {
        if !self.life.has(STOPPED) {
            // Freed after its system shut down, without having stopped: no sweep can run.
            // A leave forgets the seat, so it is this actor's or null; and the vacate
            // takes the slot only if it holds this actor, so that a stale seat, were there
            // one, could not take another actor out of the census.
            Census::vacate(self.seat(), B::node_of(self));
        }
        // Messages queued at shutdown (a stopped actor's mailbox is empty and closed).
        let mut dead = 0;
        // SAFETY: `&mut self`: no producer or consumer is left.
        while let Some(letter) = unsafe { self.mailbox.pop() } {
            dead += self.drop_dead(letter);
        }
        self.count_dead_letters(dead);
    }
}
