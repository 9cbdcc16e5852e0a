//! Timers: messages later and periodically, cancelling, continuations later, the ask
//! timeout, and what happens to timers of stopped actors and shut-down systems.
//!
//! No test sleeps to synchronise or asserts a wall-clock bound: a timer is checked to fire
//! no earlier than its deadline, and "did not fire" is checked against a later timer of
//! the same system, which the one timer thread fires after every earlier tick's (so when
//! the later one's message is handled, an earlier one's would have been). Waits end on
//! an outcome, with a generous hang guard (`common::PATIENCE`).

mod common;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{PATIENCE, system};
use footlights::{Actor, Addr, AskError, Canceled, Context, Reply, ReplyTo, System};

/// Waits for a reply, failing the test instead of hanging.
fn wait<T>(reply: Reply<T>) -> Result<T, Canceled> {
    reply
        .wait_timeout(PATIENCE)
        .expect("the reply came before the hang guard")
}

/// Waits until `system` has no pending timer.
fn no_timers_left(system: &System) {
    let start = Instant::now();
    while system.pending_timers() > 0 {
        assert!(start.elapsed() < PATIENCE, "timers still pending");
        std::thread::yield_now();
    }
}

/// Waits until every actor of `system` has been collected: a timer drops its address
/// just after it fires, which may be after the system was last quiescent.
fn all_collected(system: &System) {
    let start = Instant::now();
    loop {
        common::quiet(system);
        if system.metrics().live_actors() == 0 {
            return;
        }
        assert!(start.elapsed() < PATIENCE, "actors still live");
        std::thread::yield_now();
    }
}

/// Records what it receives, and reports it when told to.
#[derive(Default)]
struct Recorder {
    got: Vec<u64>,
    at: Vec<Instant>,
}

enum Rec {
    Got(u64),
    Report(ReplyTo<(Vec<u64>, Vec<Instant>)>),
}

impl Actor for Recorder {
    type Msg = Rec;
    fn handle(&mut self, _: &mut Context<Self>, msg: Rec) {
        match msg {
            Rec::Got(n) => {
                self.got.push(n);
                self.at.push(Instant::now());
            }
            Rec::Report(r) => {
                let _ = r.send((std::mem::take(&mut self.got), std::mem::take(&mut self.at)));
            }
        }
    }
}

/// What `recorder` received, once a timer set now for `after` has fired: every timer of
/// the system due before that has fired by then.
fn report_after(recorder: &Addr<Recorder>, after: Duration) -> (Vec<u64>, Vec<Instant>) {
    let (report, got) = footlights::reply::pair();
    recorder.send_after(after, Rec::Report(report));
    wait(got).expect("the recorder reports")
}

#[test]
fn send_after_fires_no_earlier_than_its_deadline() {
    for threads in [1, 2] {
        let system = system(threads);
        let recorder = system.spawn(Recorder::default());
        let delays = [1u64, 2, 5, 10, 20, 64, 65, 100, 130];
        let mut deadlines = Vec::new();
        for (i, ms) in delays.iter().enumerate() {
            deadlines.push(Instant::now() + Duration::from_millis(*ms));
            recorder.send_after(Duration::from_millis(*ms), Rec::Got(i as u64));
        }
        let (got, at) = report_after(&recorder, Duration::from_millis(200));
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..delays.len() as u64).collect::<Vec<_>>(),
            "each once"
        );
        for (i, when) in got.iter().zip(&at) {
            assert!(
                *when >= deadlines[*i as usize],
                "timer {i} ({} ms) fired early",
                delays[*i as usize]
            );
        }
        assert_eq!(system.pending_timers(), 0);
    }
}

#[test]
fn a_zero_delay_sends_at_once() {
    let system = system(1);
    let recorder = system.spawn(Recorder::default());
    let timer = recorder.send_after(Duration::ZERO, Rec::Got(7));
    assert!(!timer.is_pending(), "already sent");
    assert!(!timer.cancel(), "too late to cancel");
    let (got, _) = wait(recorder.ask(Rec::Report).expect("runs")).expect("reports");
    assert_eq!(got, vec![7], "sent before the report was asked for");
}

#[test]
fn a_cancelled_timer_never_fires() {
    let system = system(2);
    let recorder = system.spawn(Recorder::default());
    let kept = recorder.send_after(Duration::from_millis(5), Rec::Got(1));
    // Due well after the cancel below, even if the test thread loses its CPU for a while
    // on a loaded machine (at 5 ms it could fire first, and the cancel would rightly fail),
    // and well before the report, which the one timer thread fires after it.
    let cancelled = recorder.send_after(Duration::from_millis(200), Rec::Got(2));
    assert!(cancelled.cancel(), "cancelled before it fired");
    assert!(!cancelled.cancel(), "cancelled once");
    let (got, _) = report_after(&recorder, Duration::from_millis(300));
    assert_eq!(got, vec![1]);
    assert!(!kept.is_pending());
    assert!(!kept.cancel(), "a fired timer cannot be cancelled");
    assert_eq!(system.pending_timers(), 0);
}

#[test]
fn dropping_the_handle_does_not_cancel_but_a_guard_does() {
    let system = system(1);
    let recorder = system.spawn(Recorder::default());
    drop(recorder.send_after(Duration::from_millis(2), Rec::Got(1)));
    let guard = recorder
        .send_after(Duration::from_millis(2), Rec::Got(2))
        .guard();
    assert!(guard.handle().is_pending());
    drop(guard);
    let released = recorder
        .send_after(Duration::from_millis(2), Rec::Got(3))
        .guard()
        .into_handle();
    assert!(released.is_pending(), "into_handle does not cancel");
    let (mut got, _) = report_after(&recorder, Duration::from_millis(20));
    got.sort_unstable();
    assert_eq!(got, vec![1, 3]);
}

/// Cancels race firings: every timer's message arrives exactly when its cancel came too
/// late (returned `false`), and never twice.
#[test]
fn cancelling_and_firing_never_both_happen() {
    let system = system(2);
    let recorder = system.spawn(Recorder::default());
    let handles: Vec<_> = (0..4000u64)
        .map(|i| recorder.send_after(Duration::from_micros(i % 3000), Rec::Got(i)))
        .collect();
    // Cancel from two threads at once, in an order that crosses the firing order.
    let handles = Arc::new(handles);
    let cancellers: Vec<_> = (0..2)
        .map(|t| {
            let handles = Arc::clone(&handles);
            std::thread::spawn(move || {
                let mut won = Vec::new();
                for (i, h) in handles.iter().enumerate().rev() {
                    if i % 2 == t && i % 3 != 0 && h.cancel() {
                        won.push(i as u64);
                    }
                }
                won
            })
        })
        .collect();
    let cancelled: HashSet<u64> = cancellers
        .into_iter()
        .flat_map(|c| c.join().expect("a canceller runs"))
        .collect();
    let (got, _) = report_after(&recorder, Duration::from_millis(20));
    let delivered: HashSet<u64> = got.iter().copied().collect();
    assert_eq!(delivered.len(), got.len(), "no timer fired twice");
    for i in 0..4000u64 {
        assert!(
            delivered.contains(&i) != cancelled.contains(&i),
            "timer {i}: delivered {}, cancelled {}",
            delivered.contains(&i),
            cancelled.contains(&i)
        );
    }
    assert_eq!(system.pending_timers(), 0);
}

#[test]
fn an_interval_fires_at_its_rate_until_cancelled() {
    let system = system(2);
    let recorder = system.spawn(Recorder::default());
    let made = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let every = {
        let made = Arc::clone(&made);
        recorder.send_interval(Duration::from_millis(1), move || {
            Rec::Got(made.fetch_add(1, Ordering::SeqCst) + 1)
        })
    };
    while made.load(Ordering::SeqCst) < 5 {
        assert!(
            start.elapsed() < PATIENCE,
            "the interval never fired 5 times"
        );
        std::thread::yield_now();
    }
    assert!(every.is_pending());
    assert!(every.cancel(), "the interval was running");
    let at_cancel = made.load(Ordering::SeqCst);
    let (got, at) = report_after(&recorder, Duration::from_millis(10));
    let total = made.load(Ordering::SeqCst);
    assert!(
        total <= at_cancel + 1,
        "at most the firing under way when the cancel came: {total} after {at_cancel}"
    );
    assert_eq!(
        got,
        (1..=total).collect::<Vec<_>>(),
        "each firing, in order"
    );
    for (n, when) in got.iter().zip(&at) {
        assert!(
            *when >= start + Duration::from_millis(*n),
            "firing {n} came before {n} periods had passed"
        );
    }
    assert!(!every.is_pending());
    assert_eq!(system.pending_timers(), 0);
}

/// Answers requests; stops when told to.
struct Echo;
enum EchoMsg {
    Ping(ReplyTo<()>),
    Stop,
}
impl Actor for Echo {
    type Msg = EchoMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: EchoMsg) {
        match msg {
            EchoMsg::Ping(r) => {
                let _ = r.send(());
            }
            EchoMsg::Stop => ctx.stop(),
        }
    }
}

#[test]
fn timers_to_a_stopped_actor_are_dropped() {
    let system = system(2);
    let echo = system.spawn(Echo);
    let (ping, pong) = footlights::reply::pair();
    echo.send_after(Duration::from_millis(10), EchoMsg::Ping(ping));
    let every = echo.send_interval(Duration::from_millis(1), || EchoMsg::Stop);
    assert_eq!(
        wait(pong),
        Err(Canceled),
        "the ping was dropped, unanswered, when its timer found the actor stopped"
    );
    assert!(echo.is_stopped());
    no_timers_left(&system);
    assert!(!every.is_pending(), "the interval ended with its actor");
    assert!(!every.cancel());
}

#[test]
fn a_pending_timer_keeps_its_actor_alive() {
    let system = system(1);
    let echo = system.spawn(Echo);
    let (ping, pong) = footlights::reply::pair();
    echo.send_after(Duration::from_millis(10), EchoMsg::Ping(ping));
    drop(echo);
    system.wait_quiescent();
    assert_eq!(wait(pong), Ok(()), "the actor was alive to answer");
    all_collected(&system);
}

#[test]
fn shutdown_drops_pending_timers() {
    let system = system(2);
    let echo = system.spawn(Echo);
    let (ping, pong) = footlights::reply::pair();
    let timer = echo.send_after(Duration::from_secs(3600), EchoMsg::Ping(ping));
    let every = echo.send_interval(Duration::from_secs(3600), || EchoMsg::Stop);
    assert_eq!(system.pending_timers(), 2);
    let report = system.shutdown();
    assert_eq!(report.live_actors, 0);
    assert_eq!(wait(pong), Err(Canceled), "the pending message was dropped");
    assert!(!timer.is_pending() && !every.is_pending());
    assert!(!timer.cancel());
}

#[test]
fn timers_set_after_shutdown_are_dropped() {
    let system = system(1);
    let echo = system.spawn(Echo);
    let inside = echo.clone();
    system.shutdown();
    let (ping, pong) = footlights::reply::pair();
    let timer = inside.send_after(Duration::from_millis(1), EchoMsg::Ping(ping));
    assert!(!timer.is_pending());
    assert_eq!(wait(pong), Err(Canceled));
}

/// Runs continuations later and periodically, counting in its own state.
struct Later {
    beats: u64,
    done: Option<ReplyTo<(u64, bool)>>,
    later_ran: bool,
}

impl Actor for Later {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_later(Duration::from_millis(3), |me, _| me.later_ran = true);
        ctx.run_interval(Duration::from_millis(1), |me, ctx| {
            me.beats += 1;
            if me.beats == 10 {
                let _ = me.done.take().map(|d| d.send((me.beats, me.later_ran)));
                ctx.stop();
            }
        });
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

#[test]
fn continuations_run_later_and_periodically_with_the_state() {
    let system = system(2);
    let (done, beats) = footlights::reply::pair();
    drop(system.spawn(Later {
        beats: 0,
        done: Some(done),
        later_ran: false,
    }));
    let (beats, later_ran) = wait(beats).expect("ten beats");
    assert_eq!(beats, 10);
    // The 10th beat is due at least 10 ms after the start, the later call 3 ms after it.
    assert!(later_ran, "the later call came before the tenth beat");
    no_timers_left(&system);
    all_collected(&system);
}

/// Answers after a delay of its own, without blocking its worker.
struct SlowEcho {
    delay: Duration,
}
impl Actor for SlowEcho {
    type Msg = ReplyTo<u64>;
    fn handle(&mut self, ctx: &mut Context<Self>, r: ReplyTo<u64>) {
        ctx.run_later(self.delay, move |_, _| {
            let _ = r.send(42);
        });
    }
}

/// Asks a slow echo with a timeout, and reports the outcome.
struct Asker {
    echo: Addr<SlowEcho>,
    timeout: Duration,
}
impl Actor for Asker {
    type Msg = ReplyTo<Result<u64, AskError>>;
    fn handle(&mut self, ctx: &mut Context<Self>, report: Self::Msg) {
        let reply = self.echo.ask(|r| r).expect("the echo runs");
        ctx.then_timeout(reply, self.timeout, move |_, _, outcome| {
            let _ = report.send(outcome);
        });
    }
}

#[test]
fn an_ask_with_a_timeout_gets_the_reply_or_timed_out_without_blocking() {
    // One worker: if waiting blocked it, the echo could never answer.
    let system = system(1);
    let fast = system.spawn(SlowEcho {
        delay: Duration::from_millis(1),
    });
    let asker = system.spawn(Asker {
        echo: fast,
        timeout: Duration::from_secs(3600),
    });
    assert_eq!(wait(asker.ask(|r| r).expect("runs")), Ok(Ok(42)));
    // The reply came first and cancelled the hour-long timer.
    no_timers_left(&system);

    let slow = system.spawn(SlowEcho {
        delay: Duration::from_secs(3600),
    });
    let asker = system.spawn(Asker {
        echo: slow,
        timeout: Duration::from_millis(5),
    });
    let start = Instant::now();
    assert_eq!(
        wait(asker.ask(|r| r).expect("runs")),
        Ok(Err(AskError::TimedOut))
    );
    assert!(
        start.elapsed() >= Duration::from_millis(5),
        "not before the timeout"
    );
}

/// Drops every request unanswered.
struct Dropper;
impl Actor for Dropper {
    type Msg = ReplyTo<u64>;
    fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<u64>) {
        drop(r);
    }
}

#[test]
fn an_ask_with_a_timeout_reports_a_canceled_reply() {
    let system = system(1);
    let dropper = system.spawn(Dropper);
    let (report, outcome) = footlights::reply::pair();

    struct Once {
        dropper: Addr<Dropper>,
    }
    impl Actor for Once {
        type Msg = ReplyTo<Result<u64, AskError>>;
        fn handle(&mut self, ctx: &mut Context<Self>, report: Self::Msg) {
            let reply = self.dropper.ask(|r| r).expect("the dropper runs");
            ctx.then_timeout(reply, Duration::from_secs(3600), move |_, _, o| {
                let _ = report.send(o);
            });
        }
    }
    system.spawn(Once { dropper }).send(report).expect("runs");
    assert_eq!(wait(outcome), Ok(Err(AskError::Canceled)));
    no_timers_left(&system);
}

/// Many actors each set many timers at once; all arrive, none early, none twice.
#[test]
fn many_timers_from_many_actors() {
    struct Sleeper {
        left: u64,
        seen: Arc<AtomicU64>,
        done: Option<ReplyTo<()>>,
    }
    impl Actor for Sleeper {
        type Msg = Instant;
        fn started(&mut self, ctx: &mut Context<Self>) {
            for i in 0..self.left {
                let delay = Duration::from_micros(100 * (i % 50));
                ctx.send_after(delay, Instant::now() + delay);
            }
        }
        fn handle(&mut self, ctx: &mut Context<Self>, deadline: Instant) {
            assert!(Instant::now() >= deadline, "fired early");
            self.seen.fetch_add(1, Ordering::Relaxed);
            self.left -= 1;
            if self.left == 0 {
                let _ = self.done.take().map(|d| d.send(()));
                ctx.stop();
            }
        }
    }
    let system = system(2);
    let seen = Arc::new(AtomicU64::new(0));
    let replies: Vec<_> = (0..200)
        .map(|_| {
            let (done, reply) = footlights::reply::pair();
            drop(system.spawn(Sleeper {
                left: 50,
                seen: Arc::clone(&seen),
                done: Some(done),
            }));
            reply
        })
        .collect();
    for r in replies {
        assert_eq!(wait(r), Ok(()), "every sleeper got its 50 timers");
    }
    assert_eq!(seen.load(Ordering::Relaxed), 200 * 50);
    no_timers_left(&system);
}
