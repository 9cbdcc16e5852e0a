//! Bounded mailboxes and backpressure, as a user sees them: `try_send` gives the message
//! back when the mailbox is full, an async or blocking send waits for room, a handler's
//! yielding send mutes its actor until the receiver has drained, and none of it loses,
//! duplicates or reorders a message, or deadlocks, on one worker or several. None of these
//! tests is timed: each waits for an outcome (generous timeouts only turn a hang into a
//! failure).
#![cfg(not(loom))]

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use footlights::{
    Actor, Addr, Context, Placement, ReplyTo, SchedulerKind, SpawnOptions, System, TrySendError,
};

mod common;
use common::{PATIENCE, block, quiet, system};

fn bounded(capacity: usize) -> SpawnOptions {
    SpawnOptions::new().capacity(capacity)
}

/// Holds the only worker of `system` until the returned sender is used (or dropped), so
/// that what is sent meanwhile to other actors stays in their mailboxes.
fn close_gate(system: &System) -> mpsc::Sender<()> {
    block(system, Placement::Default).1
}

/// Counts what it receives, per sender, and checks each sender's order.
#[derive(Default)]
struct Recorder {
    next: HashMap<u32, u64>,
    received: u64,
    out_of_order: u64,
}

enum Rec {
    Seq(u32, u64),
    Report(ReplyTo<(u64, u64)>),
}

impl Actor for Recorder {
    type Msg = Rec;
    fn handle(&mut self, _: &mut Context<Self>, msg: Rec) {
        match msg {
            Rec::Seq(sender, seq) => {
                let next = self.next.entry(sender).or_insert(0);
                if seq != *next {
                    self.out_of_order += 1;
                }
                *next = seq + 1;
                self.received += 1;
            }
            Rec::Report(r) => {
                let _ = r.send((self.received, self.out_of_order));
            }
        }
    }
}

fn report(recorder: &Addr<Recorder>) -> (u64, u64) {
    recorder
        .ask(Rec::Report)
        .expect("the recorder runs")
        .wait_timeout(PATIENCE)
        .expect("a report")
        .expect("answered")
}

#[test]
fn try_send_gives_the_message_back_when_the_mailbox_is_full() {
    let system = system(1);
    let recorder = system.spawn_with(Recorder::default(), bounded(4));
    assert_eq!(recorder.capacity(), Some(4));
    let open = close_gate(&system);
    for seq in 0..4 {
        recorder
            .try_send(Rec::Seq(0, seq))
            .unwrap_or_else(|_| panic!("room for message {seq}"));
    }
    match recorder.try_send(Rec::Seq(0, 4)) {
        Err(TrySendError::Full(Rec::Seq(0, 4))) => {}
        Err(e) => panic!("the fifth message came back as {e:?}, not Full"),
        Ok(()) => panic!("a full mailbox took a fifth message"),
    }
    // `send` never refuses for lack of room: it delivers past the capacity.
    recorder
        .send(Rec::Seq(0, 4))
        .expect("delivered past the capacity");
    open.send(()).expect("the gate waits");
    assert_eq!(report(&recorder), (5, 0));
    // Drained: room again.
    recorder
        .try_send(Rec::Seq(0, 5))
        .expect("room after the turn");
    assert_eq!(report(&recorder), (6, 0));
    quiet(&system);
    assert_eq!(system.metrics().messages_pending(), 0);
}

#[test]
fn try_send_to_a_stopped_actor_says_stopped() {
    struct Quitter;
    impl Actor for Quitter {
        type Msg = ();
        fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
            ctx.stop();
        }
    }
    let system = system(2);
    let quitter = system.spawn_with(Quitter, bounded(2));
    quitter.send(()).expect("runs");
    quiet(&system);
    match quitter.try_send(()) {
        Err(e @ TrySendError::Stopped(())) => assert!(!e.is_full()),
        other => panic!("a send to a stopped actor gave {other:?}"),
    }
}

#[test]
#[should_panic(expected = "capacity of at least 1")]
fn a_capacity_of_zero_is_refused() {
    let _ = SpawnOptions::new().capacity(0);
}

/// Sends `count` numbered messages to a recorder from a thread with `try_send`, retrying
/// when the mailbox is full: every message arrives once, in order.
#[test]
fn senders_that_retry_lose_nothing_and_keep_order() {
    for threads in [1, 2] {
        let system = system(threads);
        let recorder = system.spawn_with(Recorder::default(), bounded(8));
        let senders: Vec<_> = (0..4u32)
            .map(|id| {
                let recorder = recorder.clone();
                std::thread::spawn(move || {
                    let mut full = 0u64;
                    for seq in 0..20_000 {
                        let mut msg = Rec::Seq(id, seq);
                        loop {
                            match recorder.try_send(msg) {
                                Ok(()) => break,
                                Err(TrySendError::Full(back)) => {
                                    full += 1;
                                    msg = back;
                                    std::thread::yield_now();
                                }
                                Err(TrySendError::Stopped(_)) => panic!("the recorder stopped"),
                            }
                        }
                    }
                    full
                })
            })
            .collect();
        for s in senders {
            s.join().expect("a sender");
        }
        assert_eq!(report(&recorder), (80_000, 0), "on {threads} workers");
    }
}

#[test]
fn async_senders_wait_for_room_and_lose_nothing() {
    for threads in [1, 2] {
        let system = system(threads);
        let recorder = system.spawn_with(Recorder::default(), bounded(16));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async {
            let tasks: Vec<_> = (0..8u32)
                .map(|id| {
                    let recorder = recorder.clone();
                    tokio::spawn(async move {
                        for seq in 0..5_000 {
                            recorder
                                .send_async(Rec::Seq(id, seq))
                                .await
                                .unwrap_or_else(|_| panic!("the recorder stopped"));
                        }
                    })
                })
                .collect();
            for t in tasks {
                t.await.expect("a sender task");
            }
        });
        assert_eq!(report(&recorder), (40_000, 0), "on {threads} workers");
    }
}

#[test]
fn blocking_senders_wait_for_room_and_lose_nothing() {
    let system = system(2);
    let recorder = system.spawn_with(Recorder::default(), bounded(4));
    let senders: Vec<_> = (0..3u32)
        .map(|id| {
            let recorder = recorder.clone();
            std::thread::spawn(move || {
                for seq in 0..10_000 {
                    recorder
                        .send_blocking(Rec::Seq(id, seq))
                        .unwrap_or_else(|_| panic!("the recorder stopped"));
                }
            })
        })
        .collect();
    for s in senders {
        s.join().expect("a sender");
    }
    assert_eq!(report(&recorder), (30_000, 0));
}

/// A consumer that records how far behind its producer it is: `sent` is what the producer
/// has delivered so far, so `sent - received` when a message is handled counts that message
/// and every one queued behind it. A yielding producer stops at its first send past the
/// capacity, so the mailbox holds at most the capacity plus one, and the worst lag is the
/// capacity plus two (those and the message being handled).
struct Lagging {
    sent: Arc<AtomicU64>,
    received: u64,
    worst: u64,
    out_of_order: u64,
}

impl Lagging {
    /// A consumer of the producer whose deliveries `sent` counts.
    fn behind(sent: &Arc<AtomicU64>) -> Self {
        Lagging {
            sent: Arc::clone(sent),
            received: 0,
            worst: 0,
            out_of_order: 0,
        }
    }
}

enum Lag {
    Item(u64),
    Report(ReplyTo<(u64, u64, u64)>),
}

impl Actor for Lagging {
    type Msg = Lag;
    fn handle(&mut self, _: &mut Context<Self>, msg: Lag) {
        match msg {
            Lag::Item(n) => {
                let behind = self.sent.load(Ordering::SeqCst) - self.received;
                self.worst = self.worst.max(behind);
                if n != self.received {
                    self.out_of_order += 1;
                }
                self.received += 1;
            }
            Lag::Report(r) => {
                let _ = r.send((self.received, self.worst, self.out_of_order));
            }
        }
    }
}

/// Sends `total` items as fast as the consumer lets it: a loop of yielding sends that
/// stops when muted and goes on in its next message.
struct Producer {
    to: Addr<Lagging>,
    sent: Arc<AtomicU64>,
    next: u64,
    total: u64,
    done: Option<ReplyTo<()>>,
}

struct More;

impl Actor for Producer {
    type Msg = More;
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.handle(ctx, More);
    }
    fn handle(&mut self, ctx: &mut Context<Self>, More: More) {
        while self.next < self.total && !ctx.is_muted() {
            ctx.send(&self.to, Lag::Item(self.next))
                .unwrap_or_else(|_| panic!("the consumer stopped"));
            self.sent.fetch_add(1, Ordering::SeqCst);
            self.next += 1;
        }
        if self.next < self.total {
            ctx.addr().send(More).expect("a producer reaches itself");
        } else if let Some(done) = self.done.take() {
            let _ = done.send(());
            ctx.stop();
        }
    }
}

fn produce(
    system: &System,
    consumer: SpawnOptions,
    producer: SpawnOptions,
    total: u64,
) -> (u64, u64, u64) {
    let sent = Arc::new(AtomicU64::new(0));
    let to = system.spawn_with(Lagging::behind(&sent), consumer);
    let (done, finished) = footlights::reply::pair();
    drop(system.spawn_with(
        Producer {
            to: to.clone(),
            sent,
            next: 0,
            total,
            done: Some(done),
        },
        producer,
    ));
    finished
        .wait_timeout(PATIENCE)
        .expect("the producer finished (no deadlock)")
        .expect("answered");
    to.ask(Lag::Report)
        .expect("the consumer runs")
        .wait_timeout(PATIENCE)
        .expect("a report")
        .expect("answered")
}

#[test]
fn a_yielding_producer_runs_at_its_consumers_pace_on_one_worker() {
    let system = system(1);
    let (received, worst, out_of_order) =
        produce(&system, bounded(16), SpawnOptions::new(), 100_000);
    assert_eq!((received, out_of_order), (100_000, 0));
    assert!(
        worst <= 16 + 2,
        "the consumer fell {worst} messages behind a capacity of 16"
    );
    quiet(&system);
    assert_eq!(system.metrics().messages_pending(), 0);
    assert_eq!(
        system.metrics().live_actors(),
        0,
        "the producer stopped, and the consumer was collected"
    );
}

#[test]
fn a_yielding_producer_stays_within_the_bound_under_every_scheduler() {
    for kind in [
        SchedulerKind::Steal,
        SchedulerKind::Share,
        SchedulerKind::Stages,
    ] {
        for threads in [1, 2] {
            let system = System::builder()
                .threads(threads)
                .scheduler(kind)
                .build()
                .expect("a system");
            let (received, worst, out_of_order) =
                produce(&system, bounded(8), SpawnOptions::new(), 50_000);
            assert_eq!((received, out_of_order), (50_000, 0), "{kind:?} x{threads}");
            assert!(
                worst <= 8 + 2,
                "{kind:?} x{threads}: {worst} behind a capacity of 8"
            );
        }
    }
}

#[test]
fn muting_works_for_inline_and_dedicated_actors() {
    let system = system(2);
    let placements = [
        (Placement::Inline, Placement::Default),
        (Placement::Default, Placement::Inline),
        (Placement::Dedicated, Placement::Default),
        (Placement::Default, Placement::Dedicated),
        (Placement::Stage(0), Placement::Stage(0)),
    ];
    for (consumer, producer) in placements {
        let label = format!("{consumer:?} <- {producer:?}");
        let (received, worst, out_of_order) = produce(
            &system,
            bounded(4).placement(consumer),
            SpawnOptions::new().placement(producer),
            20_000,
        );
        assert_eq!((received, out_of_order), (20_000, 0), "{label}");
        assert!(worst <= 4 + 2, "{label}: {worst} behind a capacity of 4");
    }
}

/// Two bounded actors that answer every message with several to the other, through
/// yielding sends, fill each other's mailboxes: muting must not make them wait on each
/// other for ever, and every message is handled.
#[test]
fn actors_that_fill_each_others_mailboxes_do_not_deadlock() {
    struct Echo {
        other: Option<Addr<Echo>>,
        handled: Arc<AtomicU64>,
    }
    enum EchoMsg {
        Meet(Addr<Echo>),
        Ball(u32),
    }
    impl Actor for Echo {
        type Msg = EchoMsg;
        fn handle(&mut self, ctx: &mut Context<Self>, msg: EchoMsg) {
            match msg {
                EchoMsg::Meet(other) => self.other = Some(other),
                EchoMsg::Ball(0) => {
                    self.handled.fetch_add(1, Ordering::SeqCst);
                }
                EchoMsg::Ball(ttl) => {
                    self.handled.fetch_add(1, Ordering::SeqCst);
                    let other = self.other.clone().expect("met");
                    for _ in 0..3 {
                        ctx.send(&other, EchoMsg::Ball(ttl - 1))
                            .expect("the other runs");
                    }
                }
            }
        }
    }
    let ttl = 8u32;
    let expected: u64 = (0..=ttl).map(|k| 3u64.pow(k)).sum();
    for threads in [1, 2] {
        let system = system(threads);
        let handled = Arc::new(AtomicU64::new(0));
        let a = system.spawn_with(
            Echo {
                other: None,
                handled: Arc::clone(&handled),
            },
            bounded(2),
        );
        let b = system.spawn_with(
            Echo {
                other: None,
                handled: Arc::clone(&handled),
            },
            bounded(2),
        );
        a.send(EchoMsg::Meet(b.clone())).expect("a runs");
        b.send(EchoMsg::Meet(a.clone())).expect("b runs");
        a.send(EchoMsg::Ball(ttl)).expect("a runs");
        // A deadlock leaves muted actors waiting, which does not count as busy: so the
        // check is the count, once the system looks quiet.
        quiet(&system);
        assert_eq!(
            handled.load(Ordering::SeqCst),
            expected,
            "on {threads} workers, messages were left behind muted actors"
        );
    }
}

#[test]
fn a_yielding_send_to_itself_never_mutes() {
    struct Countdown {
        done: Option<ReplyTo<()>>,
    }
    impl Actor for Countdown {
        type Msg = u32;
        fn handle(&mut self, ctx: &mut Context<Self>, n: u32) {
            if n == 0 {
                if let Some(done) = self.done.take() {
                    let _ = done.send(());
                }
                return ctx.stop();
            }
            let me = ctx.addr();
            // Two per message into a mailbox of one: always past the capacity.
            ctx.send(&me, n - 1).expect("runs");
            assert!(!ctx.is_muted(), "muted on its own mailbox");
        }
    }
    let system = system(1);
    let (done, finished) = footlights::reply::pair();
    let c = system.spawn_with(Countdown { done: Some(done) }, bounded(1));
    c.send(1000).expect("runs");
    finished
        .wait_timeout(PATIENCE)
        .expect("counted down")
        .expect("answered");
}

#[test]
fn a_sender_waiting_for_room_learns_that_the_actor_stopped() {
    struct StopOnFirst;
    impl Actor for StopOnFirst {
        type Msg = u32;
        fn handle(&mut self, ctx: &mut Context<Self>, _: u32) {
            ctx.stop();
        }
    }
    let system = system(1);
    let actor = system.spawn_with(StopOnFirst, bounded(1));
    let open = close_gate(&system);
    actor.try_send(0).expect("room for one");
    let waiting = {
        let actor = actor.clone();
        std::thread::spawn(move || actor.send_blocking(1))
    };
    // The waiting sender cannot get in until the actor runs; let it run: it stops on its
    // first message, which wakes the waiter, whose message then comes back.
    open.send(()).expect("the gate waits");
    let outcome = waiting.join().expect("the waiting sender");
    quiet(&system);
    match outcome {
        Err(e) => assert_eq!(e.into_inner(), 1),
        // The turn's release woke it before the stop, and it got in as the second message:
        // then the stop dropped it as a dead letter. Either way it was not left waiting.
        Ok(()) => assert_eq!(system.metrics().dead_letters, 1),
    }
}

/// A muted actor keeps its own messages in order and handles them once it is resumed; the
/// messages that arrived meanwhile are not lost.
#[test]
fn messages_to_a_muted_actor_wait_in_order() {
    let system = system(2);
    let recorder = system.spawn(Recorder::default());
    let sent = Arc::new(AtomicU64::new(0));
    let slow = system.spawn_with(Lagging::behind(&sent), bounded(2));
    /// Forwards numbered messages to the recorder, and floods `slow` first.
    struct Relay {
        slow: Addr<Lagging>,
        to: Addr<Recorder>,
        sent: Arc<AtomicU64>,
        flooded: u64,
    }
    impl Actor for Relay {
        type Msg = u64;
        fn handle(&mut self, ctx: &mut Context<Self>, seq: u64) {
            for _ in 0..3 {
                ctx.send(&self.slow, Lag::Item(self.flooded)).expect("runs");
                self.sent.fetch_add(1, Ordering::SeqCst);
                self.flooded += 1;
            }
            self.to.send(Rec::Seq(7, seq)).expect("runs");
        }
    }
    let relay = system.spawn(Relay {
        slow: slow.clone(),
        to: recorder.clone(),
        sent,
        flooded: 0,
    });
    for seq in 0..2_000 {
        relay.send(seq).expect("the relay runs");
    }
    quiet(&system);
    assert_eq!(report(&recorder), (2_000, 0));
    let (received, _, out_of_order) = slow
        .ask(Lag::Report)
        .expect("runs")
        .wait_timeout(PATIENCE)
        .expect("a report")
        .expect("answered");
    assert_eq!((received, out_of_order), (6_000, 0));
}
