//! A turn: what a worker does with an actor it took from a run queue.
//!
//! # The algorithm
//!
//! The worker holding the actor's scheduling right runs `started` on the first turn and
//! then takes up to a batch of envelopes from the mailbox, one at a time: a message goes
//! to the handler, a continuation runs with the actor's state, a signal is the runtime's
//! (see [`super::envelope`]); a poll signal polls one of the actor's futures, and runs its
//! continuation, counted as a message handled, if it is ready ([`super::polling`]). The turn ends, whichever applies first, with:
//!
//! 1. [`TurnEnd::Stop`]: a hook panicked, asked to stop ([`crate::Context::stop`]), a
//!    collect signal found the actor unreachable, a stop signal was reached
//!    ([`crate::Addr::stop`]), or the actor was killed ([`crate::Addr::kill`]). Asking to
//!    stop in `started` stops the actor before its first envelope; a kill is seen when the
//!    turn begins and, if it has a second envelope to take, before each one after the
//!    first ([`super::lifecycle`]), so no message is handled once the kill is seen.
//! 2. [`TurnEnd::Wait`]: a hook's yielding send found a full mailbox; the actor is muted
//!    ([`super::mute`]).
//! 3. [`TurnEnd::Yield`]: the batch was used up with envelopes left, or a hook yielded
//!    ([`crate::Context::yield_now`]) with more envelopes waiting; the actor has more to do.
//! 4. [`TurnEnd::Empty`]: the mailbox looked empty.
//!
//! The scheduler acts on the end: it stops the actor ([`super::stop`]), hands it to the
//! mailbox it waits on, puts it back at the end of a run queue (Encore and Pony's fairness
//! rule), or tries to mark its mailbox idle (which fails only if a push is halfway
//! through; then it stays scheduled). One byte of the turn ([`Halt`]) says whether it goes
//! on after a hook, so stopping, muting and yielding cost one test per envelope together.
//!
//! A bounded mailbox's message is uncounted ([`crate::mailbox::capacity`]) as soon as it
//! is popped, before the handler runs. The turn takes one of two loops, chosen by the
//! lifecycle word it reads when it begins anyway ([`super::lifecycle`]), so the loop of an
//! unbounded actor has no test for it.
//!
//! Between two envelopes of one turn the worker is told the turn goes on
//! ([`Schedule::turn_goes_on`]), so that an actor this turn scheduled does not wait
//! behind it in the worker's next slot, where no other worker can take it.

use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::exit::Exit;
use super::lifecycle::{KILLED, Phase};
use super::{ActorCell, Behaviour, Envelope, Halt, Letter, Signal, Turn};
use crate::mailbox::Cursor;
use crate::task::{Schedule, TurnEnd, TurnReport};

impl<B: Behaviour> ActorCell<B> {
    /// Runs one turn on `worker`; see the module documentation.
    #[inline]
    pub(super) fn run_turn<S: Schedule>(&self, me: &Arc<B::Node>, worker: &S) -> TurnReport {
        debug_assert!(
            !self.is_stopped(),
            "a stopped actor is never scheduled again"
        );
        // SAFETY: the caller holds the actor's single scheduling right (see the `Sync`
        // impl), so no other reference to the state exists during the turn.
        let state = unsafe { &mut *self.state.get() };
        let batch = worker.batch().get();
        let mut turn = Turn {
            me,
            halt: Halt::Go,
            exit: Exit::Normal,
        };
        // Envelopes taken (bounded by the batch), and of those, messages handled.
        let (mut taken, mut handled) = (0usize, 0u64);
        // The tail stays in this frame for the turn and is stored once, after it (also
        // after a panic), not on the producers' cache line after every message.
        // SAFETY: the only consumer, as above; nothing else consumes during the turn
        // (mark-idle, close and wait come after it, once the cursor is finished).
        let mut mailbox = unsafe { self.mailbox.cursor() };
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let flags = self.life.at_turn();
            if flags == 0 {
                return self.take_envelopes::<S, false>(
                    &mut mailbox,
                    state,
                    &mut turn,
                    worker,
                    batch,
                    (&mut taken, &mut handled),
                );
            }
            if flags & KILLED != 0 {
                // Killed: nothing more is handled.
                turn.exit = Exit::Killed;
                return TurnEnd::Stop;
            }
            self.take_envelopes::<S, true>(
                &mut mailbox,
                state,
                &mut turn,
                worker,
                batch,
                (&mut taken, &mut handled),
            )
        }));
        mailbox.finish();
        self.handled.store(
            self.handled.load(Ordering::Relaxed) + handled,
            Ordering::Relaxed,
        );
        let end = match outcome {
            Ok(end) => end,
            Err(payload) => {
                let message = self.report_panic(&*payload, "handle");
                self.note_panic(&message);
                turn.exit = Exit::Panicked;
                TurnEnd::Stop
            }
        };
        if end == TurnEnd::Stop {
            // SAFETY: the consumer's, like the state; the stop that follows reads it.
            unsafe { *self.exit.get() = turn.exit };
        }
        TurnReport { end, handled }
    }

    /// The turn's body: `started` if it has not run, then up to `batch` envelopes, counted
    /// in `taken` and (messages) `handled`. `BOUNDED`: the mailbox is bounded, and each
    /// message taken is uncounted.
    #[inline]
    fn take_envelopes<S: Schedule, const BOUNDED: bool>(
        &self,
        mailbox: &mut Cursor<'_, Letter<B>>,
        state: &mut Phase<B>,
        turn: &mut Turn<'_, B::Node>,
        worker: &S,
        batch: usize,
        (taken, handled): (&mut usize, &mut u64),
    ) -> TurnEnd {
        let actor = match state {
            Phase::Running(actor) => actor,
            _ => match self.start(state, turn, worker.pool_stage()) {
                Ok(actor) => actor,
                Err(end) => return end,
            },
        };
        loop {
            // The node the tail moved past is freed after the handler (see `take`).
            let Some(next) = mailbox.take_node() else {
                return TurnEnd::Empty;
            };
            let (envelope, _spent) = next.in_place();
            *taken += 1;
            // The envelope's tag is read in its node, and only the payload is moved out,
            // once: read whole first, the message was copied to the stack and again for
            // the handler's call.
            // SAFETY: `in_place` hands over a value nobody has moved out, which counts as
            // gone from now on: each arm moves its payload out exactly once (a signal is
            // `Copy`), and nothing reads the node's value again.
            // A message first, on a test of its own: in one match with the other arms, the
            // compiler decoded the variant from the message's niche in full before testing it.
            if let Envelope::Msg(msg) = unsafe { envelope.as_ref() } {
                // SAFETY: the one move out of this envelope (above).
                let msg = unsafe { ptr::read(msg) };
                *handled += 1;
                if BOUNDED {
                    if let Some(capacity) = self.capacity() {
                        capacity.release();
                    }
                }
                actor.handle(turn, msg);
            } else {
                // SAFETY: as above; `other_envelope` moves the payload out once.
                let (counted, halt, exit) =
                    unsafe { self.other_envelope(actor, turn.me, envelope) };
                *handled += counted;
                (turn.halt, turn.exit) = (halt, exit);
            }
            if turn.halt != Halt::Go {
                return turn.halt.end_after_envelope(mailbox.is_empty());
            }
            // Peeked at, not taken, so that no envelope is held across the loop (whose
            // drop glue would run on every hop). A push between its swap and its link
            // looks empty: then marking the actor idle fails, and it stays scheduled.
            // Before the batch's test, so that a batch used up by its last message ends
            // the turn as empty: yielding then ran one more turn that handled nothing
            // (with a batch of one, every message's turn had an empty turn behind it).
            if mailbox.is_empty() {
                return TurnEnd::Empty;
            }
            if *taken >= batch {
                return TurnEnd::Yield;
            }
            worker.turn_goes_on();
            if self.life.needs_attention() {
                // Killed while the turn ran: the next envelope is not handled.
                if let Some(next) = mailbox.pop() {
                    // Its drop may panic: reported as the stop's, the kill still wins.
                    let dead = self.drop_dead(next);
                    self.count_dead_letters(dead);
                }
                turn.exit = Exit::Killed;
                return TurnEnd::Stop;
            }
        }
    }

    /// The first turn: enters the actor in its system's census (on the shard of `stage`,
    /// the worker's pool stage, if it is one), runs `started` and makes the actor
    /// running. `Err` if the turn must end there (the hook asked to stop, or the actor was
    /// killed meanwhile).
    #[inline]
    fn start<'s>(
        &self,
        state: &'s mut Phase<B>,
        turn: &mut Turn<'_, B::Node>,
        stage: Option<usize>,
    ) -> Result<&'s mut B, TurnEnd> {
        self.enter_census(turn.me, stage);
        let actor = match std::mem::replace(state, Phase::Gone) {
            Phase::Unstarted(actor) | Phase::Running(actor) => actor,
            Phase::Gone => unreachable!("a running actor has its state"),
        };
        *state = Phase::Running(actor);
        let Phase::Running(actor) = state else {
            unreachable!("just set")
        };
        actor.started(turn);
        if self.life.needs_attention() {
            if turn.halt != Halt::Stop {
                // Killed while `started` ran (a stop it asked for itself wins).
                turn.exit = Exit::Killed;
            }
            return Err(TurnEnd::Stop);
        }
        if turn.halt != Halt::Go {
            return Err(turn.halt.end());
        }
        Ok(actor)
    }

    /// Takes an envelope that is not a message (a continuation or a signal) out of its
    /// node and acts on it in a turn of its own (the caller's turn goes on: `Halt::Go`,
    /// `Exit::Normal`); returns the messages it counts as handled, and that turn's halt and
    /// exit. Out of line, so that the turn's loop tests for a message alone; and without
    /// a reference to the caller's turn, which would keep it in memory for the message's
    /// path too.
    ///
    /// # Safety
    /// `envelope` is an envelope nobody has moved out of, and nobody reads after this.
    #[inline(never)]
    unsafe fn other_envelope(
        &self,
        actor: &mut B,
        me: &Arc<B::Node>,
        envelope: NonNull<Letter<B>>,
    ) -> (u64, Halt, Exit) {
        let mut turn = Turn {
            me,
            halt: Halt::Go,
            exit: Exit::Normal,
        };
        // Matched where it lies, each payload moved out once: a copy of the whole envelope
        // first cost as much as a signal's handling.
        // SAFETY: the caller's promise: nobody has moved out of it, nobody reads it after.
        let counted = match unsafe { envelope.as_ref() } {
            Envelope::Msg(_) => unreachable!("a message is handled in the turn's loop"),
            Envelope::Call(call) => {
                // SAFETY: the one move out of this envelope.
                actor.call(&mut turn, unsafe { ptr::read(call) });
                1
            }
            Envelope::Signal(Signal::Poll(slot)) => u64::from(actor.poll(&mut turn, *slot)),
            Envelope::Signal(signal) => {
                self.signal(*signal, &mut turn);
                0
            }
        };
        (counted, turn.halt, turn.exit)
    }

    /// Acts on a signal from the runtime.
    fn signal(&self, signal: Signal, turn: &mut Turn<'_, B::Node>) {
        match signal {
            Signal::Collect(generation) => {
                if self.addresses.unreachable_since(generation) {
                    // Nobody can reach the actor any more.
                    turn.halt = Halt::Stop;
                }
            }
            // The messages sent before `Addr::stop` have been handled.
            Signal::Stop => {
                turn.halt = Halt::Stop;
                turn.exit = Exit::Stopped;
            }
            // Pushed after a flag was set (a kill): act on it.
            Signal::Wake => {
                if self.life.needs_attention() {
                    turn.halt = Halt::Stop;
                    turn.exit = Exit::Killed;
                }
            }
            // Taken by the loop, which has the actor's state.
            Signal::Poll(_) => unreachable!("polled in the turn's loop"),
        }
    }
}

impl Halt {
    /// How a turn that does not go on after an envelope ends: as [`Halt::end`], but a
    /// yield with nothing left in the mailbox (`empty`) ends it as empty.
    ///
    /// This and [`Halt::end`] are out of line: inlined, their arms took registers from the
    /// turn's loop, and a threadring hop cost 257.0 instructions against 253.0 before
    /// [`Halt::Yield`] existed; out of line, 255.7 (callgrind, 2026-11-28, the difference
    /// of `footlights-suite threadring hops=200000` and `hops=100000` at one thread).
    /// It takes whether the mailbox is empty, not the mailbox's cursor: a reference to the
    /// cursor, passed to a call, kept it in memory for the whole loop, where the compiler
    /// stored it again on every envelope (four instructions a ring hop, in some builds).
    #[cold]
    #[inline(never)]
    fn end_after_envelope(self, empty: bool) -> TurnEnd {
        if self == Halt::Yield && empty {
            // Nothing to go to the back of the queue with.
            return TurnEnd::Empty;
        }
        self.end()
    }

    /// How a turn that does not go on ends.
    #[cold]
    #[inline(never)]
    fn end(self) -> TurnEnd {
        match self {
            Halt::Stop => TurnEnd::Stop,
            Halt::Mute => TurnEnd::Wait,
            Halt::Yield => TurnEnd::Yield,
            Halt::Go => unreachable!("the turn goes on"),
        }
    }
}
