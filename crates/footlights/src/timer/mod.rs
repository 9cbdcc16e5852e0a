//! Timers: one service per system that sends messages later, once or periodically.
//!
//! The API is on actors' addresses and contexts ([`crate::Addr::send_after`],
//! [`crate::Addr::send_interval`], [`crate::Context::send_after`],
//! [`crate::Context::send_interval`], [`crate::Context::run_later`],
//! [`crate::Context::run_interval`], and the ask timeout
//! [`crate::Context::then_timeout`]); each returns a [`TimerHandle`] that cancels.
//! Dropping a handle does **not** cancel: most timers are set and forgotten, and a
//! `ctx.send_after(d, Tick);` that did nothing because its handle was dropped would be a
//! quiet mistake. [`TimerHandle::guard`] makes a [`TimerGuard`], which does cancel when
//! dropped (a timer tied to an actor's state, say).
//!
//! # How it works
//!
//! Every timer of a system waits in one *hierarchical timing wheel* (`wheel.rs`): eleven
//! levels of 64 slots, a slot of level `L` spanning `64^L` ticks of a millisecond
//! ([`RESOLUTION`]). A timer sits at the level of the highest six-bit digit in which its
//! deadline differs from the wheel's current tick, so inserting and cancelling are O(1)
//! (a doubly linked list per slot, in a slab), a timer moves down at most once per level
//! before it fires, and the next tick worth waking for is one bit scan per level away.
//! A binary heap would cost O(log n) per insert and expiry and, without an index per
//! timer, would keep a cancelled timer (and the message it holds) until its deadline;
//! timeouts are mostly cancelled (the answer came in time), which favours the wheel.
//!
//! One thread per system (`service.rs`), started by the system's first timer, sleeps on
//! a condition variable until the wheel's next occupied tick, fires what is due by
//! sending each timer's message through its actor's address (as any thread outside the
//! runtime sends), and sleeps again; setting a timer earlier than that tick wakes it to
//! sleep less. So an idle system with pending timers uses no CPU until the next one is
//! due. A thread of its own, rather than workers that drive the wheel when they park,
//! keeps the scheduler's loop and parking protocol exactly as they are (an actor that
//! sets no timer pays nothing, a system that sets none has no timer thread), and fires on
//! time however long the workers' turns are; the cost is one more wake-up per firing on
//! an idle system (`docs/experiments/2026-11-23-timers.md` has the lateness measured under load).
//!
//! Cancelling and firing both take the wheel's lock, so exactly one of them wins: a
//! cancel that returns `true` means the message will not be sent (a periodic timer: no
//! firing after the one under way, if any). Timers fire no earlier than their deadline;
//! a timer whose actor has stopped is dropped with its message, and a system's shutdown
//! drops every pending timer.
//!
//! This layer knows nothing of actors: a timer's action is a closure, and the actor
//! layer (`actor/timers.rs`) makes the closures that send an actor its message or race a
//! reply against a timeout.

pub(crate) mod handle;
pub(crate) mod service;
pub(crate) mod wheel;

pub use handle::{TimerGuard, TimerHandle};
pub use service::RESOLUTION;
pub(crate) use service::TimerService;
