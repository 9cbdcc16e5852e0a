//! The handle a timer's setter keeps: cancel it, ask whether it is pending, or make it a
//! guard that cancels when dropped.
//!
//! # Dropping a handle does not cancel
//!
//! Most timers are set and forgotten: a tick an actor sends itself, a reminder to look
//! again later. If dropping the handle cancelled, `ctx.send_after(d, Tick);` (the handle
//! dropped at once) would do nothing, a quiet mistake that compiles. So a handle is only
//! a way to cancel, and dropping it leaves the timer be, as dropping tokio's `JoinHandle`
//! or actix's `SpawnHandle` does. Code that wants the timer tied to a scope (a timeout
//! that must not outlive the request it guards) says so with [`TimerHandle::guard`]: the
//! [`TimerGuard`] cancels when dropped, so a timer held in an actor's state ends with
//! the state.
//!
//! A pending timer never outlives its target's life: a timer whose actor has stopped
//! is dropped when it fires (a periodic one ends), and every timer is dropped when its
//! system shuts down.

use std::fmt;

use super::service::TimerRef;

/// Cancels a timer set by [`crate::Context::send_after`], [`crate::Addr::send_interval`]
/// and the like. Dropping it does **not** cancel the timer (see [`TimerHandle::guard`]
/// for a handle that does). Cheap to clone; `Send + Sync`.
///
/// ```
/// use footlights::{Actor, Context, System};
/// use std::time::Duration;
///
/// struct Alarm;
/// impl Actor for Alarm {
///     type Msg = &'static str;
///     fn handle(&mut self, _: &mut Context<Self>, msg: &'static str) {
///         panic!("the alarm was cancelled, yet it rang: {msg}");
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// let alarm = system.spawn(Alarm);
/// let timer = alarm.send_after(Duration::from_secs(3600), "wake up");
/// assert!(timer.is_pending());
/// assert!(timer.cancel(), "cancelled before it fired");
/// assert!(!timer.is_pending());
/// assert!(!timer.cancel(), "a timer is cancelled once");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct TimerHandle {
    timer: TimerRef,
}

impl TimerHandle {
    pub(crate) fn new(timer: TimerRef) -> Self {
        TimerHandle { timer }
    }

    /// Cancels the timer. Returns `true` if this call stopped it: a one-shot timer will
    /// not fire, a periodic one fires no more (a firing already under way on the timer
    /// thread finishes). Returns `false` if the timer had already fired, ended or been
    /// cancelled, or its system has shut down. Cancelling and firing never both happen.
    pub fn cancel(&self) -> bool {
        self.timer.cancel()
    }

    /// Whether the timer may still fire: a one-shot timer that has neither fired nor been
    /// cancelled, a periodic timer that has not ended.
    pub fn is_pending(&self) -> bool {
        self.timer.is_pending()
    }

    /// A guard that cancels the timer when dropped: keep it in an actor's state, say,
    /// and the timer ends with the actor.
    ///
    /// ```
    /// use footlights::{Actor, Context, System, TimerGuard};
    /// use std::time::Duration;
    ///
    /// /// Asks itself to look again every second, for as long as it lives.
    /// struct Watcher { again: Option<TimerGuard> }
    /// struct Look;
    /// impl Actor for Watcher {
    ///     type Msg = Look;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         let again = ctx.send_interval(Duration::from_secs(1), || Look);
    ///         self.again = Some(again.guard());
    ///     }
    ///     fn handle(&mut self, _: &mut Context<Self>, Look: Look) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let watcher = system.spawn(Watcher { again: None });
    /// watcher.stop(); // its state is dropped, and with it the guard: the interval ends
    /// # Ok(()) }
    /// ```
    pub fn guard(self) -> TimerGuard {
        TimerGuard { handle: Some(self) }
    }
}

impl fmt::Debug for TimerHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimerHandle")
            .field("pending", &self.is_pending())
            .finish()
    }
}

/// A [`TimerHandle`] that cancels its timer when dropped; see [`TimerHandle::guard`].
///
/// ```
/// use footlights::{Actor, Context, System};
/// use std::time::Duration;
///
/// struct Quiet;
/// impl Actor for Quiet {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// let quiet = system.spawn(Quiet);
/// {
///     let _timeout = quiet.send_after(Duration::from_secs(60), ()).guard();
///     assert_eq!(system.pending_timers(), 1);
/// } // dropped here: cancelled
/// assert_eq!(system.pending_timers(), 0);
/// let kept = quiet.send_after(Duration::from_secs(60), ()).guard().into_handle();
/// assert!(kept.is_pending(), "into_handle lets the timer go on");
/// # Ok(()) }
/// ```
#[must_use = "dropping a TimerGuard cancels its timer at once"]
pub struct TimerGuard {
    /// `None` only once [`TimerGuard::into_handle`] has taken it.
    handle: Option<TimerHandle>,
}

impl TimerGuard {
    /// The handle, to cancel early or ask whether the timer is pending.
    pub fn handle(&self) -> &TimerHandle {
        self.handle
            .as_ref()
            .expect("a guard keeps its handle until into_handle")
    }

    /// Gives the handle back without cancelling: the timer goes on.
    pub fn into_handle(mut self) -> TimerHandle {
        self.handle
            .take()
            .expect("a guard keeps its handle until into_handle")
    }
}

impl Drop for TimerGuard {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.cancel();
        }
    }
}

impl fmt::Debug for TimerGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimerGuard")
            .field("pending", &self.handle().is_pending())
            .finish()
    }
}
