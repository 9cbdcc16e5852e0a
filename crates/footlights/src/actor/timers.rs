//! Timers as actors use them: a message later or periodically, a continuation later, and
//! a reply awaited with a timeout, none of which blocks a worker.
//!
//! Each is a closure given to the system's one timer service ([`crate::timer`]): when it
//! fires, the timer thread sends the message (or delivers the continuation) through the
//! actor's address, so it arrives in the mailbox in order with everything else, and the
//! actor handles it in a turn like any message. What a timer holds (the address, the
//! message) lives in the service's wheel until it fires or is cancelled, so an actor that
//! sets no timer carries nothing for them.
//!
//! * A pending timer holds an address of its actor, so it keeps the actor alive, as a
//!   pending reply does ([`Context::then`]): a periodic timer until it is cancelled or
//!   the actor stops.
//! * A timer that fires after its actor has stopped is dropped with its message (a
//!   request in it cancels its reply), and a periodic timer ends there.
//! * Timers fire no earlier than their deadline, and within a tick
//!   ([`crate::timer::RESOLUTION`], a millisecond) plus a wake-up after it when a worker
//!   is free; `docs/experiments/2026-11-23-timers.md` has the lateness measured under load. Two
//!   timers' messages come in no promised order, even with the same deadline.
//!
//! * A timer's action runs user code on the timer thread: the message maker of
//!   [`Addr::send_interval`], and the `Drop` of a message or continuation a stopped actor
//!   refused. A panic there is caught and reported through the system's panic hook
//!   ([`crate::Builder::on_panic`], during `"a timer"`, naming the timer's actor), and
//!   that timer ends; the actor is not stopped (its handler did not panic) and every
//!   other timer goes on.
//!
//! The ask timeout ([`Context::then_timeout`]) races the reply against a one-shot timer
//! under a small lock: whichever comes first takes the continuation and delivers it, and
//! a reply that comes first cancels the timer, so a timeout that was not needed is gone
//! from the wheel at once.

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::context::Call;
use super::{Actor, Addr, Context};
use crate::reply::{Canceled, Reply};
use crate::timer::{TimerHandle, TimerService};

/// Why a reply awaited with [`Context::then_timeout`] did not come.
///
/// ```
/// use footlights::{AskError, Canceled};
///
/// assert_eq!(AskError::from(Canceled), AskError::Canceled);
/// assert_eq!(AskError::TimedOut.to_string(), "the reply did not come before the timeout");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskError {
    /// The replier dropped the request without answering (see [`Canceled`]).
    Canceled,
    /// The timeout passed first; a reply that comes later is dropped.
    TimedOut,
}

impl From<Canceled> for AskError {
    fn from(Canceled: Canceled) -> Self {
        AskError::Canceled
    }
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AskError::Canceled => {
                "the reply was canceled: the replier dropped it without answering"
            }
            AskError::TimedOut => "the reply did not come before the timeout",
        })
    }
}

impl std::error::Error for AskError {}

/// Runs the user code of a timer of the actor of `to`: `None` if it panicked, which is
/// reported as a panic of that actor during `"a timer"` (module documentation).
fn guarded<A: Actor, T>(to: &Addr<A>, action: impl FnOnce() -> T) -> Option<T> {
    match panic::catch_unwind(AssertUnwindSafe(action)) {
        Ok(out) => Some(out),
        Err(payload) => {
            to.node().cell().report_panic(&*payload, "a timer");
            None
        }
    }
}

impl<A: Actor> Addr<A> {
    /// The timer service of the actor's system.
    fn timers(&self) -> &TimerService {
        &self.node().cell().env().timers
    }

    /// Sends `msg` to the actor after `delay`, from the system's timer service; works from
    /// anywhere. Returns a handle that cancels it (dropping the handle does not). A zero
    /// delay sends at once. If the actor has stopped when the timer fires, `msg` is
    /// dropped. The pending timer keeps the actor alive, like an address.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::{Duration, Instant};
    ///
    /// struct Bell { rang: Option<ReplyTo<Instant>> }
    /// impl Actor for Bell {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {
    ///         let _ = self.rang.take().map(|r| r.send(Instant::now()));
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let (rang, at) = footlights::reply::pair();
    /// let bell = system.spawn(Bell { rang: Some(rang) });
    /// let deadline = Instant::now() + Duration::from_millis(20);
    /// bell.send_after(Duration::from_millis(20), ());
    /// assert!(at.wait()? >= deadline, "never early");
    /// # Ok(()) }
    /// ```
    pub fn send_after(&self, delay: Duration, msg: A::Msg) -> TimerHandle {
        let to = self.clone();
        TimerHandle::new(self.timers().once(
            delay,
            Box::new(move || {
                // A stopped actor's message is dropped (module documentation).
                guarded(&to, || drop(to.send(msg)));
            }),
        ))
    }

    /// Sends the actor a message made by `make` every `period` (at least
    /// [`crate::timer::RESOLUTION`]), the first one a period from now, until the handle
    /// cancels it or the actor stops. A firing the timer thread missed by a whole period
    /// is skipped, not made up in a burst. The timer keeps the actor alive until then,
    /// like an address.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// /// Counts ticks, and says when it has seen three.
    /// struct Metronome { ticks: u32, done: Option<ReplyTo<u32>> }
    /// struct Tick;
    /// impl Actor for Metronome {
    ///     type Msg = Tick;
    ///     fn handle(&mut self, _: &mut Context<Self>, Tick: Tick) {
    ///         self.ticks += 1;
    ///         if self.ticks == 3 {
    ///             let _ = self.done.take().map(|d| d.send(self.ticks));
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let (done, three) = footlights::reply::pair();
    /// let metronome = system.spawn(Metronome { ticks: 0, done: Some(done) });
    /// let every = metronome.send_interval(Duration::from_millis(5), || Tick);
    /// assert_eq!(three.wait()?, 3);
    /// assert!(every.cancel(), "it was still running");
    /// # Ok(()) }
    /// ```
    pub fn send_interval(
        &self,
        period: Duration,
        mut make: impl FnMut() -> A::Msg + Send + 'static,
    ) -> TimerHandle {
        let to = self.clone();
        TimerHandle::new(self.timers().every(
            period,
            Box::new(move || guarded(&to, || to.send(make()).is_ok()).unwrap_or(false)),
        ))
    }

    /// Delivers a continuation to the actor after `delay`; see [`Context::run_later`].
    fn call_after(&self, delay: Duration, call: Call<A>) -> TimerHandle {
        let to = self.clone();
        TimerHandle::new(self.timers().once(
            delay,
            Box::new(move || {
                guarded(&to, || drop(to.call(call)));
            }),
        ))
    }
}

impl<A: Actor> Context<'_, A> {
    /// Sends this actor `msg` after `delay` (actix's `notify_later`, Erlang's
    /// `erlang:send_after(Delay, self(), Msg)`); see [`Addr::send_after`], which sends
    /// to any actor. Dropping the handle does not cancel the timer.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// /// Answers a request only after a pause, without holding its worker meanwhile.
    /// struct Slow;
    /// enum Msg { Ask(ReplyTo<&'static str>), Answer(ReplyTo<&'static str>) }
    /// impl Actor for Slow {
    ///     type Msg = Msg;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
    ///         match msg {
    ///             Msg::Ask(r) => { ctx.send_after(Duration::from_millis(10), Msg::Answer(r)); }
    ///             Msg::Answer(r) => { let _ = r.send("done"); }
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let slow = system.spawn(Slow);
    /// assert_eq!(slow.ask(Msg::Ask)?.wait()?, "done");
    /// # Ok(()) }
    /// ```
    pub fn send_after(&self, delay: Duration, msg: A::Msg) -> TimerHandle {
        self.addr().send_after(delay, msg)
    }

    /// Sends this actor a message made by `make` every `period`, until cancelled or the
    /// actor stops (actix's `run_interval` with a message, ractor's `send_interval`); see
    /// [`Addr::send_interval`].
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System, TimerHandle};
    /// use std::time::Duration;
    ///
    /// /// Polls every few milliseconds; stops polling after the fifth.
    /// struct Poller { polls: u32, every: Option<TimerHandle>, done: Option<ReplyTo<u32>> }
    /// struct Poll;
    /// impl Actor for Poller {
    ///     type Msg = Poll;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         self.every = Some(ctx.send_interval(Duration::from_millis(2), || Poll));
    ///     }
    ///     fn handle(&mut self, _: &mut Context<Self>, Poll: Poll) {
    ///         self.polls += 1;
    ///         if self.polls == 5 {
    ///             self.every.take().expect("polling").cancel();
    ///             let _ = self.done.take().map(|d| d.send(self.polls));
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let (done, polls) = footlights::reply::pair();
    /// drop(system.spawn(Poller { polls: 0, every: None, done: Some(done) }));
    /// assert_eq!(polls.wait()?, 5);
    /// # Ok(()) }
    /// ```
    pub fn send_interval(
        &self,
        period: Duration,
        make: impl FnMut() -> A::Msg + Send + 'static,
    ) -> TimerHandle {
        self.addr().send_interval(period, make)
    }

    /// Runs `k` with this actor's state after `delay`, as a turn like a message (actix's
    /// `run_later`). If the actor has stopped by then, `k` is dropped.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// struct Lamp { on: bool, report: Option<ReplyTo<bool>> }
    /// impl Actor for Lamp {
    ///     type Msg = ();
    ///     fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
    ///         self.on = true;
    ///         // Switches itself off a little later.
    ///         ctx.run_later(Duration::from_millis(5), |lamp, _ctx| {
    ///             lamp.on = false;
    ///             let _ = lamp.report.take().map(|r| r.send(lamp.on));
    ///         });
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let (report, on) = footlights::reply::pair();
    /// system.spawn(Lamp { on: false, report: Some(report) }).send(())?;
    /// assert_eq!(on.wait()?, false);
    /// # Ok(()) }
    /// ```
    pub fn run_later(
        &self,
        delay: Duration,
        k: impl FnOnce(&mut A, &mut Context<'_, A>) + Send + 'static,
    ) -> TimerHandle {
        self.addr().call_after(delay, Box::new(k))
    }

    /// Runs `k` with this actor's state every `period`, as a turn like a message, until
    /// cancelled or the actor stops (actix's `run_interval`). Timing as for
    /// [`Addr::send_interval`].
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// struct Heart { beats: u32, done: Option<ReplyTo<u32>> }
    /// impl Actor for Heart {
    ///     type Msg = ();
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         ctx.run_interval(Duration::from_millis(2), |heart, ctx| {
    ///             heart.beats += 1;
    ///             if heart.beats == 3 {
    ///                 let _ = heart.done.take().map(|d| d.send(heart.beats));
    ///                 ctx.stop(); // which ends the interval too
    ///             }
    ///         });
    ///     }
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let (done, beats) = footlights::reply::pair();
    /// drop(system.spawn(Heart { beats: 0, done: Some(done) }));
    /// assert_eq!(beats.wait()?, 3);
    /// # Ok(()) }
    /// ```
    pub fn run_interval(
        &self,
        period: Duration,
        k: impl FnMut(&mut A, &mut Context<'_, A>) + Send + 'static,
    ) -> TimerHandle {
        // Only this actor's turns call it, one at a time: the lock is never contended.
        let k = Arc::new(Mutex::new(k));
        let me = self.addr();
        let to = me.clone();
        TimerHandle::new(me.timers().every(
            period,
            Box::new(move || {
                let k = Arc::clone(&k);
                let call: Call<A> = Box::new(move |actor: &mut A, ctx: &mut Context<'_, A>| {
                    (k.lock())(actor, ctx);
                });
                guarded(&to, || to.call(call).is_ok()).unwrap_or(false)
            }),
        ))
    }

    /// Continues with `k` when `reply` completes or `timeout` passes, whichever comes
    /// first, without blocking this worker: `k` runs later as a turn of this actor, with
    /// its state, and gets the value, [`AskError::TimedOut`], or [`AskError::Canceled`]
    /// (the replier dropped the request). A reply that comes after the timeout is
    /// dropped; a reply that comes first cancels the timer. Until one of them comes, the
    /// pending reply and timer keep the actor alive, like [`Context::then`]; after the
    /// timeout, a reply still pending does not.
    ///
    /// ```
    /// use footlights::{Actor, AskError, Context, Reply, ReplyTo, System};
    /// use std::time::Duration;
    ///
    /// /// Never answers (it keeps the requests, so they are not canceled either).
    /// struct Mute { kept: Vec<ReplyTo<u32>> }
    /// impl Actor for Mute {
    ///     type Msg = ReplyTo<u32>;
    ///     fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<u32>) { self.kept.push(r); }
    /// }
    ///
    /// /// Asks the mute actor, waiting at most 10 ms, and reports what happened.
    /// struct Asker { mute: footlights::Addr<Mute> }
    /// impl Actor for Asker {
    ///     type Msg = ReplyTo<Result<u32, AskError>>;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, report: Self::Msg) {
    ///         let reply: Reply<u32> = self.mute.ask(|r| r).expect("the mute actor runs");
    ///         ctx.then_timeout(reply, Duration::from_millis(10), move |_, _, outcome| {
    ///             let _ = report.send(outcome);
    ///         });
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let mute = system.spawn(Mute { kept: Vec::new() });
    /// let asker = system.spawn(Asker { mute });
    /// assert_eq!(asker.ask(|r| r)?.wait()?, Err(AskError::TimedOut));
    /// # Ok(()) }
    /// ```
    pub fn then_timeout<R: Send + 'static>(
        &self,
        reply: Reply<R>,
        timeout: Duration,
        k: impl FnOnce(&mut A, &mut Context<'_, A>, Result<R, AskError>) + Send + 'static,
    ) {
        /// The continuation and an address of this actor, until the reply or the timer
        /// takes them; and the timer, for the reply to cancel. Once one side has taken
        /// them, the other holds nothing of the actor: a reply still pending after the
        /// timeout does not keep the actor alive.
        struct Race<A: Actor, K> {
            k: Option<(K, Addr<A>)>,
            timer: Option<TimerHandle>,
        }
        let race = Arc::new(Mutex::new(Race {
            k: Some((k, self.addr())),
            timer: None,
        }));
        let on_timeout = {
            let race = Arc::clone(&race);
            move || {
                let k = race.lock().k.take();
                if let Some((k, me)) = k {
                    let call: Call<A> = Box::new(move |actor: &mut A, ctx: &mut Context<'_, A>| {
                        k(actor, ctx, Err(AskError::TimedOut));
                    });
                    guarded(&me, || drop(me.call(call)));
                }
            }
        };
        let timer = TimerHandle::new(self.addr().timers().once(timeout, Box::new(on_timeout)));
        race.lock().timer = Some(timer);
        reply.on_complete(Box::new(move |outcome| {
            let (k, timer) = {
                let mut race = race.lock();
                (race.k.take(), race.timer.take())
            };
            if let Some(timer) = timer {
                timer.cancel();
            }
            if let Some((k, me)) = k {
                let call: Call<A> = Box::new(move |actor: &mut A, ctx: &mut Context<'_, A>| {
                    k(actor, ctx, outcome.map_err(AskError::from));
                });
                // If the actor stopped meanwhile, the continuation is dropped with its
                // outcome, as for `Context::then`.
                let _ = me.call(call);
            }
        }));
    }
}
