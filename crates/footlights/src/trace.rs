//! The runtime's events, for the `tracing` cargo feature.
//!
//! Each function here is one kind of event, called where it happens: a spawn, a stop (and
//! why), a kill, a restart, a panic, a supervisor's decision, dead letters, a timer that
//! fires. With the feature, each emits a [`tracing`](https://docs.rs/tracing) event under
//! the target `footlights`, with the actor's type and identity as fields, at a level that
//! says how often it happens and how much it matters:
//!
//! | event | level | fields |
//! |---|---|---|
//! | `spawned` | TRACE | `actor` (its type), `id` |
//! | `stopped` | TRACE (normal, stopped) or DEBUG (killed, panicked) | `actor`, `id`, `reason` |
//! | `restarted` | INFO | `actor`, `id` |
//! | `panicked` | ERROR | `actor`, `during` (the hook: `handle`, `started`, ...), `panic` (its message) |
//! | `supervisor` | INFO (restart) or WARN (escalate, give up) | `decision`, `child` |
//! | `dead letters` | DEBUG | `count` |
//! | `timer fired` | TRACE | `repeating` |
//!
//! `id` is the actor's identity for its lifetime (the address of its cell in memory, as
//! a number), the same in every event about it; it may be reused after the actor is gone.
//!
//! Without the feature every function is empty and inlined, so the calls compile to
//! nothing: the runtime's hot paths are the same instructions with or without these
//! calls (`docs/observability.md` has the measurements). With the feature but no
//! subscriber interested in an event, `tracing` tests one cached flag per call site.

/// An actor was spawned.
#[inline(always)]
pub(crate) fn spawned(actor: &'static str, id: usize) {
    #[cfg(feature = "tracing")]
    tracing::trace!(target: "footlights", actor, id, "spawned");
    #[cfg(not(feature = "tracing"))]
    let _ = (actor, id);
}

/// An actor stopped, for `reason` (`normal`, `stopped`, `killed` or `panicked`).
#[inline(always)]
pub(crate) fn stopped(actor: &'static str, id: usize, reason: &'static str) {
    #[cfg(feature = "tracing")]
    if matches!(reason, "killed" | "panicked") {
        tracing::debug!(target: "footlights", actor, id, reason, "stopped");
    } else {
        tracing::trace!(target: "footlights", actor, id, reason, "stopped");
    }
    #[cfg(not(feature = "tracing"))]
    let _ = (actor, id, reason);
}

/// A supervised actor was restarted: a fresh instance behind the same address.
#[inline(always)]
pub(crate) fn restarted(actor: &'static str, id: usize) {
    #[cfg(feature = "tracing")]
    tracing::info!(target: "footlights", actor, id, "restarted");
    #[cfg(not(feature = "tracing"))]
    let _ = (actor, id);
}

/// A hook of an actor (or a closure the runtime ran for it) panicked.
#[inline(always)]
pub(crate) fn panicked(actor: &'static str, during: &'static str, message: &str) {
    #[cfg(feature = "tracing")]
    tracing::error!(target: "footlights", actor, during, panic = message, "panicked");
    #[cfg(not(feature = "tracing"))]
    let _ = (actor, during, message);
}

/// What a supervisor decided about a failed child.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Decision {
    /// It restarts the child and the siblings its strategy names.
    Restart,
    /// Its intensity refused: the question goes to its own supervisor.
    Escalate,
    /// Nobody restarts: the supervisor gives up and stops.
    GiveUp,
}

/// A supervisor's decision about its child `child` (the child's key in its group).
#[inline(always)]
pub(crate) fn supervisor(decision: Decision, child: u64) {
    #[cfg(feature = "tracing")]
    match decision {
        Decision::Restart => {
            tracing::info!(target: "footlights", decision = "restart", child, "supervisor")
        }
        Decision::Escalate => {
            tracing::warn!(target: "footlights", decision = "escalate", child, "supervisor")
        }
        Decision::GiveUp => {
            tracing::warn!(target: "footlights", decision = "give up", child, "supervisor")
        }
    }
    #[cfg(not(feature = "tracing"))]
    let _ = (decision, child);
}

/// Messages that could not be delivered (their actor had stopped) were dropped.
#[inline(always)]
pub(crate) fn dead_letters(count: u64) {
    #[cfg(feature = "tracing")]
    tracing::debug!(target: "footlights", count, "dead letters");
    #[cfg(not(feature = "tracing"))]
    let _ = count;
}

/// A timer fired (its action ran on the timer thread).
#[inline(always)]
pub(crate) fn timer_fired(repeating: bool) {
    #[cfg(feature = "tracing")]
    tracing::trace!(target: "footlights", repeating, "timer fired");
    #[cfg(not(feature = "tracing"))]
    let _ = repeating;
}
