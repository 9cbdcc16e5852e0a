//! Futures inside actors, as a user sees them: a future started by a handler is polled on
//! footlights' workers, its output comes back as a continuation with the actor's state or
//! as a message, its waker schedules the actor from any thread, the actor's turns stay one
//! at a time, a pending future keeps its actor alive, and stopping the actor cancels its
//! futures. None of these tests is timed: each waits for an outcome (generous timeouts
//! only turn a hang into a failure).
#![cfg(not(loom))]

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::task::{Context as TaskContext, Poll};

use footlights::reply::{self, Reply, ReplyTo};
use footlights::{Actor, Addr, Canceled, Context, System};

mod common;
use common::{PATIENCE, quiet, system};

/// Answers with twice what it is sent.
struct Doubler;
impl Actor for Doubler {
    type Msg = (u64, ReplyTo<u64>);
    fn handle(&mut self, _: &mut Context<Self>, (n, r): Self::Msg) {
        let _ = r.send(2 * n);
    }
}

/// Starts a future per request and adds up the outputs in continuations, checking that
/// no two of its hooks ever run at once.
struct Adder {
    doubler: Addr<Doubler>,
    sum: u64,
    completed: u64,
    inside: Arc<AtomicBool>,
    overlaps: Arc<AtomicU64>,
}

enum AdderMsg {
    /// Ask the doubler for `2n` inside a future, and add it.
    Add(u64),
    /// Answer the sum and the futures completed, once `expect` have completed.
    Report(ReplyTo<(u64, u64, usize)>),
}

impl Adder {
    fn enter(&self) {
        if self.inside.swap(true, Ordering::SeqCst) {
            self.overlaps.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn leave(&self) {
        self.inside.store(false, Ordering::SeqCst);
    }
}

impl Actor for Adder {
    type Msg = AdderMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: AdderMsg) {
        self.enter();
        match msg {
            AdderMsg::Add(n) => {
                let reply = self.doubler.ask(|r| (n, r)).expect("the doubler runs");
                ctx.run_future(reply, |me: &mut Adder, _, doubled| {
                    me.enter();
                    me.sum += doubled.expect("answered");
                    me.completed += 1;
                    me.leave();
                });
            }
            AdderMsg::Report(r) => {
                let _ = r.send((self.sum, self.completed, ctx.futures_pending()));
            }
        }
        self.leave();
    }
}

#[test]
fn outputs_come_back_as_continuations_with_the_state_on_one_worker_and_several() {
    for threads in [1, 2, 4] {
        let system = system(threads);
        let doubler = system.spawn(Doubler);
        let (inside, overlaps) = (Arc::default(), Arc::new(AtomicU64::new(0)));
        let adder = system.spawn(Adder {
            doubler,
            sum: 0,
            completed: 0,
            inside,
            overlaps: Arc::clone(&overlaps),
        });
        for n in 1..=1000 {
            adder.send(AdderMsg::Add(n)).expect("the adder runs");
        }
        quiet(&system);
        let (sum, completed, pending) = adder
            .ask(AdderMsg::Report)
            .expect("the adder runs")
            .wait()
            .expect("answered");
        assert_eq!(completed, 1000, "{threads} threads");
        assert_eq!(sum, 1000 * 1001, "{threads} threads");
        assert_eq!(pending, 0, "{threads} threads");
        assert_eq!(overlaps.load(Ordering::SeqCst), 0, "turns one at a time");
        quiet(&system); // the report's turn has ended, and counted what it handled
        assert_eq!(adder.messages_handled(), 1001 + 1000, "continuations count");
    }
}

/// Gets its outputs as messages.
struct Piper {
    got: Vec<u64>,
    done: Option<ReplyTo<Vec<u64>>>,
    expect: usize,
}

enum PiperMsg {
    Start(Vec<Reply<u64>>),
    Got(Result<u64, Canceled>),
}

impl Actor for Piper {
    type Msg = PiperMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: PiperMsg) {
        match msg {
            PiperMsg::Start(replies) => {
                for reply in replies {
                    ctx.pipe_future(reply, PiperMsg::Got);
                }
            }
            PiperMsg::Got(n) => {
                self.got.push(n.unwrap_or(u64::MAX));
                if self.got.len() == self.expect {
                    let _ = self
                        .done
                        .take()
                        .expect("once")
                        .send(std::mem::take(&mut self.got));
                }
            }
        }
    }
}

#[test]
fn outputs_come_back_as_messages_woken_from_plain_threads() {
    let system = system(1);
    let (done, all) = reply::pair();
    let (senders, replies): (Vec<_>, Vec<_>) = (0..64).map(|_| reply::pair::<u64>()).unzip();
    let piper = system.spawn(Piper {
        got: Vec::new(),
        done: Some(done),
        expect: 64,
    });
    piper
        .send(PiperMsg::Start(replies))
        .expect("the piper runs");
    // Let the actor go idle with every future pending, then wake them from other threads.
    quiet(&system);
    let threads: Vec<_> = senders
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            std::thread::spawn(move || {
                if i % 8 == 7 {
                    drop(s); // canceled: the future's output says so
                } else {
                    let _ = s.send(i as u64);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a sender thread");
    }
    let mut got = all
        .wait_timeout(PATIENCE)
        .expect("in time")
        .expect("answered");
    got.sort_unstable();
    let mut want: Vec<u64> = (0..64)
        .map(|i| if i % 8 == 7 { u64::MAX } else { i })
        .collect();
    want.sort_unstable();
    assert_eq!(got, want);
}

/// A future that wakes itself `wakes` times on its first poll, then is ready on the next,
/// with how many times it was polled.
struct WakesMany {
    wakes: u32,
    polls: u32,
}

impl Future for WakesMany {
    type Output = u32;
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<u32> {
        self.polls += 1;
        if self.polls == 1 {
            for _ in 0..self.wakes {
                cx.waker().wake_by_ref();
            }
            return Poll::Pending;
        }
        Poll::Ready(self.polls)
    }
}

/// Starts one [`WakesMany`] and reports its poll count.
struct Once(Option<ReplyTo<u32>>);
impl Actor for Once {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_future(
            WakesMany {
                wakes: 100,
                polls: 0,
            },
            |me: &mut Once, ctx, polls| {
                let _ = me.0.take().expect("once").send(polls);
                ctx.stop();
            },
        );
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

#[test]
fn a_future_woken_many_times_before_its_turn_is_polled_once() {
    let system = system(1);
    let (answer, polls) = reply::pair();
    drop(system.spawn(Once(Some(answer))));
    assert_eq!(polls.wait_timeout(PATIENCE), Some(Ok(2)));
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0);
}

/// Sets its flag when dropped.
struct Guard(Arc<AtomicBool>);
impl Drop for Guard {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Waits on a reply inside a future that holds a guard; stops on `Stop`.
struct Waiter {
    reply: Option<Reply<u64>>,
    guard: Option<Guard>,
    got: Option<mpsc::Sender<u64>>,
}

impl Actor for Waiter {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        let (reply, guard) = (self.reply.take().expect("a reply"), self.guard.take());
        ctx.run_future(
            async move {
                let _guard = guard;
                reply.await
            },
            |me: &mut Waiter, ctx, n| {
                let _ = me.got.take().expect("once").send(n.expect("answered"));
                ctx.stop();
            },
        );
    }
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        ctx.stop();
    }
}

#[test]
fn a_pending_future_keeps_its_actor_alive_until_it_completes() {
    let system = system(2);
    let (reply_to, reply) = reply::pair();
    let dropped = Arc::new(AtomicBool::new(false));
    let (got, answer) = mpsc::channel();
    drop(system.spawn(Waiter {
        reply: Some(reply),
        guard: Some(Guard(Arc::clone(&dropped))),
        got: Some(got),
    }));
    // No address is left, but the future can still be woken.
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 1);
    assert!(!dropped.load(Ordering::SeqCst));
    reply_to.send(7).expect("the future waits");
    assert_eq!(answer.recv_timeout(PATIENCE), Ok(7));
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0);
    assert!(dropped.load(Ordering::SeqCst));
}

#[test]
fn stopping_an_actor_cancels_its_pending_futures() {
    let system = system(1);
    let (reply_to, reply) = reply::pair::<u64>();
    let dropped = Arc::new(AtomicBool::new(false));
    let (got, answer) = mpsc::channel();
    let waiter = system.spawn(Waiter {
        reply: Some(reply),
        guard: Some(Guard(Arc::clone(&dropped))),
        got: Some(got),
    });
    quiet(&system);
    assert!(!dropped.load(Ordering::SeqCst));
    waiter.send(()).expect("the waiter runs"); // it stops
    quiet(&system);
    assert!(waiter.is_stopped());
    assert!(dropped.load(Ordering::SeqCst), "the future was dropped");
    assert_eq!(
        reply_to.send(1),
        Err(1),
        "nobody waits for the reply any more"
    );
    assert!(answer.try_recv().is_err(), "the continuation never ran");
    drop(waiter);
    assert_eq!(system.metrics().live_actors(), 0);
}

/// Starts a future that panics.
struct Panicky;
impl Actor for Panicky {
    type Msg = ();
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        ctx.run_future(
            async { panic!("the future failed") },
            |_: &mut Panicky, _, ()| {},
        );
    }
}

#[test]
fn a_panicking_future_stops_its_actor_and_is_reported() {
    let (reports, reported) = mpsc::channel();
    let reports = std::sync::Mutex::new(reports);
    let system = System::builder()
        .threads(1)
        .on_panic(move |r| {
            let _ = reports.lock().expect("a lock").send(r.message.clone());
        })
        .build()
        .expect("a system starts");
    let panicky = system.spawn(Panicky);
    panicky.send(()).expect("it runs");
    quiet(&system);
    assert!(panicky.is_stopped());
    assert_eq!(
        reported.recv_timeout(PATIENCE).as_deref(),
        Ok("the future failed")
    );
}

/// Runs a chain of futures, each started by the previous one's continuation, reusing
/// slots, with many in flight at once.
struct Chains {
    left: u64,
    done: u64,
    finished: Option<ReplyTo<u64>>,
}

impl Chains {
    fn step(ctx: &mut Context<Self>) {
        ctx.run_future(std::future::ready(1u64), |me: &mut Chains, ctx, one| {
            me.done += one;
            if me.left > 0 {
                me.left -= 1;
                Chains::step(ctx);
            } else if ctx.futures_pending() == 0 {
                let _ = me.finished.take().expect("once").send(me.done);
            }
        });
    }
}

impl Actor for Chains {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        for _ in 0..100 {
            Chains::step(ctx);
        }
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

#[test]
fn futures_started_by_continuations_reuse_slots() {
    let system = system(2);
    let (finished, done) = reply::pair();
    drop(system.spawn(Chains {
        left: 10_000,
        done: 0,
        finished: Some(finished),
    }));
    assert_eq!(done.wait_timeout(PATIENCE), Some(Ok(10_100)));
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0);
}
