//! Behaviour of the runtime as a user sees it: ordering, delivery, faults, garbage
//! collection, quiescence and scale. None of these tests is timed: each waits for an
//! outcome (with generous timeouts only so that a bug fails instead of hanging).
#![cfg(not(loom))]

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use footlights::{Actor, Addr, Context, ReplyTo, SpawnOptions, System, TrySendError};

mod common;
use common::{PATIENCE, quiet, system};

/// Records, per sender, every sequence number it receives, and checks the order.
#[derive(Default)]
struct Recorder {
    last: HashMap<u32, u64>,
    received: u64,
    out_of_order: u64,
}

enum RecMsg {
    Seq { sender: u32, seq: u64 },
    Report(ReplyTo<(u64, u64)>),
}

impl Actor for Recorder {
    type Msg = RecMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: RecMsg) {
        match msg {
            RecMsg::Seq { sender, seq } => {
                let last = self.last.entry(sender).or_insert(0);
                if seq != *last + 1 {
                    self.out_of_order += 1;
                }
                *last = seq;
                self.received += 1;
            }
            RecMsg::Report(r) => {
                let _ = r.send((self.received, self.out_of_order));
            }
        }
    }
}

/// An actor that, when told, sends `count` numbered messages to each of its targets.
struct Sender {
    id: u32,
    targets: Vec<Addr<Recorder>>,
}

impl Actor for Sender {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, count: u64) {
        for seq in 1..=count {
            for t in &self.targets {
                t.send(RecMsg::Seq {
                    sender: self.id,
                    seq,
                })
                .unwrap_or_else(|_| panic!("recorder stopped"));
            }
        }
    }
}

fn many_to_many(threads: usize, senders: u32, receivers: usize, per_pair: u64) {
    let system = system(threads);
    let recorders: Vec<_> = (0..receivers)
        .map(|_| system.spawn(Recorder::default()))
        .collect();
    let sender_addrs: Vec<_> = (0..senders)
        .map(|id| {
            system.spawn(Sender {
                id,
                targets: recorders.clone(),
            })
        })
        .collect();
    for s in &sender_addrs {
        s.send(per_pair).expect("sender alive");
    }
    quiet(&system);
    for r in &recorders {
        let (received, out_of_order) = r
            .ask(RecMsg::Report)
            .expect("recorder alive")
            .wait_timeout(PATIENCE)
            .expect("report in time")
            .expect("report sent");
        assert_eq!(
            received,
            u64::from(senders) * per_pair,
            "lost or duplicated"
        );
        assert_eq!(out_of_order, 0, "per-pair FIFO broken");
    }
    // The last report's turn may still be finishing: its reply was sent from inside it.
    quiet(&system);
    let m = system.metrics();
    assert_eq!(m.messages_pending(), 0);
}

#[test]
fn per_pair_fifo_and_no_loss_on_one_worker() {
    many_to_many(1, 8, 4, 5_000);
}

#[test]
fn per_pair_fifo_and_no_loss_on_two_workers() {
    many_to_many(2, 8, 4, 5_000);
}

#[test]
fn per_pair_fifo_and_no_loss_on_eight_workers() {
    many_to_many(8, 16, 8, 2_000);
}

#[test]
fn fifo_from_outside_threads() {
    let system = system(2);
    let rec = system.spawn(Recorder::default());
    std::thread::scope(|s| {
        for sender in 0..4u32 {
            let rec = rec.clone();
            s.spawn(move || {
                for seq in 1..=20_000 {
                    rec.send(RecMsg::Seq { sender, seq }).expect("alive");
                }
            });
        }
    });
    let (received, out_of_order) = rec.ask(RecMsg::Report).unwrap().wait().unwrap();
    assert_eq!((received, out_of_order), (80_000, 0));
}

/// Panics on message 0, counts the rest; reports when stopped.
struct Fragile {
    stopped: Arc<AtomicUsize>,
}

impl Actor for Fragile {
    type Msg = u32;
    fn handle(&mut self, _: &mut Context<Self>, n: u32) {
        assert!(n != 0, "told to fail");
    }
    fn stopped(&mut self, _: &mut Context<Self>) {
        self.stopped.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_panic_stops_only_that_actor_and_is_reported() {
    let reports = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let seen = Arc::clone(&reports);
    let system = System::builder()
        .threads(2)
        .on_panic(move |r| seen.lock().push((r.actor, r.message.clone())))
        .build()
        .unwrap();
    let stopped = Arc::new(AtomicUsize::new(0));
    let bad = system.spawn(Fragile {
        stopped: Arc::clone(&stopped),
    });
    let good = system.spawn(Fragile {
        stopped: Arc::clone(&stopped),
    });
    bad.send(0).unwrap();
    quiet(&system);
    assert!(bad.is_stopped());
    assert_eq!(stopped.load(Ordering::SeqCst), 1, "stopped hook ran once");
    let reports = reports.lock().clone();
    assert_eq!(reports.len(), 1);
    assert!(reports[0].0.ends_with("Fragile"));
    assert!(reports[0].1.contains("told to fail"));
    // The other actor goes on.
    for n in 1..=100 {
        good.send(n).unwrap();
    }
    quiet(&system);
    assert_eq!(good.messages_handled(), 100);
    assert!(!good.is_stopped());
}

#[test]
fn a_send_to_a_stopped_actor_returns_the_message() {
    let system = System::builder()
        .threads(1)
        .on_panic(|_| {})
        .build()
        .unwrap();
    let stopped = Arc::new(AtomicUsize::new(0));
    let bad = system.spawn(Fragile { stopped });
    bad.send(0).unwrap();
    quiet(&system);
    let err = bad.send(42).expect_err("the actor has stopped");
    assert_eq!(err.into_inner(), 42);
}

#[test]
fn sends_after_shutdown_return_the_message() {
    let system = system(1);
    let stopped = Arc::new(AtomicUsize::new(0));
    let a = system.spawn(Fragile { stopped });
    quiet(&system);
    let report = system.shutdown();
    assert_eq!(report.pending_messages, 0);
    assert_eq!(a.send(5).expect_err("shut down").into_inner(), 5);
}

/// Stops itself in `started`, once `gate` opens; counts the messages it handles.
struct StopsAtStart {
    gate: std::sync::mpsc::Receiver<()>,
    handled: Arc<AtomicUsize>,
}

impl Actor for StopsAtStart {
    type Msg = u32;
    fn started(&mut self, ctx: &mut Context<Self>) {
        let _ = self.gate.recv();
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, _: u32) {
        self.handled.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn stopping_in_started_handles_no_message() {
    for threads in [1, 2] {
        let system = system(threads);
        let (open, gate) = std::sync::mpsc::channel();
        let handled = Arc::new(AtomicUsize::new(0));
        let a = system.spawn(StopsAtStart {
            gate,
            handled: Arc::clone(&handled),
        });
        // Queued before `started` returns (it waits for the gate).
        a.send(1).expect("the actor has not stopped yet");
        open.send(()).unwrap();
        quiet(&system);
        assert!(a.is_stopped());
        assert_eq!(
            handled.load(Ordering::SeqCst),
            0,
            "no message is handled after a stop in started"
        );
        assert_eq!(
            system.metrics().dead_letters,
            1,
            "the message is a dead letter"
        );
    }
}

/// Answers each ask with 1 until told to stop.
struct Quitter;

enum QuitMsg {
    Ask(ReplyTo<u32>),
    Stop,
}

impl Actor for Quitter {
    type Msg = QuitMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: QuitMsg) {
        match msg {
            QuitMsg::Ask(reply) => {
                let _ = reply.send(1);
            }
            QuitMsg::Stop => ctx.stop(),
        }
    }
}

/// Asks racing the actor's stop, from another thread: each is refused (the message comes
/// back), answered, or canceled (dropped as a dead letter), and none is left waiting
/// while the asker holds a live address. The stop is sent once the first ask is queued,
/// so that one is always answered and the rest race the stop. A stress test of the real
/// send path; the loom model `pushes_racing_a_close_are_never_left_behind` (in
/// `mailbox.rs`) checks the protocol under every interleaving.
#[test]
fn asks_racing_a_stop_are_never_left_waiting() {
    const ROUNDS: u32 = 500;
    let system = system(2);
    let (mut refused, mut answered, mut canceled) = (0u32, 0u32, 0u32);
    for _ in 0..ROUNDS {
        let actor = system.spawn(Quitter);
        let (first_queued, queued) = std::sync::mpsc::channel();
        let asker = {
            let actor = actor.clone();
            std::thread::spawn(move || {
                let mut replies = Vec::new();
                for _ in 0..16 {
                    match actor.ask(QuitMsg::Ask) {
                        Ok(reply) => replies.push(reply),
                        Err(_) => return (replies, true),
                    }
                    let _ = first_queued.send(());
                }
                (replies, false)
            })
        };
        queued.recv().expect("the first ask is queued");
        actor
            .send(QuitMsg::Stop)
            .expect("only this thread stops the actor");
        let (replies, was_refused) = asker.join().unwrap();
        refused += u32::from(was_refused);
        for reply in replies {
            match reply.wait_timeout(PATIENCE) {
                Some(Ok(1)) => answered += 1,
                Some(Ok(other)) => panic!("a wrong answer: {other}"),
                Some(Err(footlights::Canceled)) => canceled += 1,
                None => panic!("an ask was left waiting on a stopped actor"),
            }
        }
        drop(actor);
    }
    quiet(&system);
    assert!(
        answered >= ROUNDS,
        "each first ask was answered ({answered} answered, {refused} refused, {canceled} canceled)"
    );
}

/// Notes its stop in a shared counter; holds the address it is given.
struct Mortal {
    stopped: Arc<AtomicUsize>,
    peer: Option<Addr<Mortal>>,
}

impl Actor for Mortal {
    type Msg = Addr<Mortal>;
    fn handle(&mut self, _: &mut Context<Self>, peer: Addr<Mortal>) {
        self.peer = Some(peer);
    }
    fn stopped(&mut self, _: &mut Context<Self>) {
        self.stopped.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn dropping_every_address_collects_the_actors() {
    for threads in [1, 2] {
        let system = system(threads);
        let stopped = Arc::new(AtomicUsize::new(0));
        let n = 1_000;
        let addrs: Vec<_> = (0..n)
            .map(|_| {
                system.spawn(Mortal {
                    stopped: Arc::clone(&stopped),
                    peer: None,
                })
            })
            .collect();
        // A chain: each holds the next one's address, so collection cascades.
        for w in addrs.windows(2) {
            w[0].send(w[1].clone()).unwrap();
        }
        quiet(&system);
        assert_eq!(system.metrics().live_actors(), n as u64);
        drop(addrs);
        quiet(&system);
        assert_eq!(stopped.load(Ordering::SeqCst), n, "every stopped hook ran");
        assert_eq!(system.metrics().live_actors(), 0, "live count back to zero");
        let report = system.shutdown();
        assert_eq!(report.live_actors, 0);
    }
}

/// Memory is freed: the actor's state is dropped when it is collected.
#[test]
fn a_collected_actor_frees_its_state() {
    struct Holder(#[allow(dead_code)] Arc<()>);
    impl Actor for Holder {
        type Msg = ();
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    }
    let system = system(2);
    let token = Arc::new(());
    let addrs: Vec<_> = (0..100)
        .map(|_| system.spawn(Holder(Arc::clone(&token))))
        .collect();
    quiet(&system);
    assert_eq!(Arc::strong_count(&token), 101);
    drop(addrs);
    quiet(&system);
    assert_eq!(Arc::strong_count(&token), 1);
}

/// A binary tree of actors that sum their leaves by request/reply continuations.
struct TreeNode {
    depth: u32,
}

impl Actor for TreeNode {
    type Msg = ReplyTo<u64>;
    fn handle(&mut self, ctx: &mut Context<Self>, parent: ReplyTo<u64>) {
        if self.depth == 0 {
            let _ = parent.send(1);
            return;
        }
        let left = ctx.spawn(TreeNode {
            depth: self.depth - 1,
        });
        let right = ctx.spawn(TreeNode {
            depth: self.depth - 1,
        });
        let l = left.ask(|r| r).expect("child alive");
        let r = right.ask(|r| r).expect("child alive");
        ctx.then(l, move |_, ctx, a| {
            ctx.then(r, move |_, _, b| {
                let _ = parent.send(a.unwrap_or(0) + b.unwrap_or(0));
            });
        });
    }
}

#[test]
fn quiescence_and_the_same_answer_on_one_and_many_workers() {
    let mut answers = Vec::new();
    for threads in [1, 2, 4] {
        let system = system(threads);
        let root = system.spawn(TreeNode { depth: 12 });
        let sum = root.ask(|r| r).unwrap();
        drop(root);
        let sum = sum.wait_timeout(PATIENCE).expect("in time").expect("sent");
        quiet(&system);
        assert!(system.is_quiescent());
        assert_eq!(
            system.metrics().live_actors(),
            0,
            "the whole tree was collected"
        );
        answers.push(sum);
    }
    assert_eq!(answers, vec![4096, 4096, 4096]);
}

#[test]
fn shutdown_reports_pending_messages() {
    /// Says it is handling a message, then blocks its worker until released, so the rest
    /// stay queued.
    struct Gate {
        entered: Arc<AtomicBool>,
        open: Arc<AtomicBool>,
    }
    impl Actor for Gate {
        type Msg = ();
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {
            self.entered.store(true, Ordering::Release);
            while !self.open.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    let entered = Arc::new(AtomicBool::new(false));
    let open = Arc::new(AtomicBool::new(false));
    let system = System::builder().threads(1).batch(1).build().unwrap();
    // A capacity of 9 lets the releaser below see the kill without adding a message: while
    // the gate holds the first of the 10 messages, 9 are counted in, and a `try_send` finds
    // the mailbox full until the shutdown kills the gate (then it finds it stopped).
    let gate = system.spawn_with(
        Gate {
            entered: Arc::clone(&entered),
            open: Arc::clone(&open),
        },
        SpawnOptions::new().capacity(9),
    );
    for _ in 0..10 {
        gate.send(()).unwrap();
    }
    // Wait until the first message is being handled (not merely a first turn, which may
    // have run `started` alone), then shut down while the worker is stuck in it; another
    // thread releases it once the shutdown has killed the gate.
    let deadline = std::time::Instant::now() + PATIENCE;
    while !entered.load(Ordering::Acquire) {
        assert!(std::time::Instant::now() < deadline, "the gate never ran");
        std::thread::yield_now();
    }
    let releaser = {
        let gate = gate.clone();
        std::thread::spawn(move || {
            loop {
                match gate.try_send(()) {
                    Err(TrySendError::Full(())) => std::thread::yield_now(),
                    Err(TrySendError::Stopped(())) => break,
                    Ok(()) => panic!("the stuck gate made room"),
                }
            }
            open.store(true, Ordering::Release);
        })
    };
    let report = system.shutdown();
    releaser.join().unwrap();
    assert_eq!(gate.messages_handled(), 1, "batch 1: one message per turn");
    assert_eq!(report.pending_messages, 9, "pending = sent - handled");
}

/// Counts a ping and stops, for the scale test.
struct Pinged {
    answered: Arc<AtomicU64>,
}

impl Actor for Pinged {
    type Msg = ();
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        self.answered.fetch_add(1, Ordering::Relaxed);
        ctx.stop();
    }
}

#[test]
fn half_a_million_actors_spawned_and_all_answered() {
    let system = system(2);
    let answered = Arc::new(AtomicU64::new(0));
    let n = 500_000;
    let addrs: Vec<_> = (0..n)
        .map(|_| {
            system.spawn(Pinged {
                answered: Arc::clone(&answered),
            })
        })
        .collect();
    for a in &addrs {
        a.send(()).unwrap();
    }
    quiet(&system);
    assert_eq!(answered.load(Ordering::Relaxed), n);
    drop(addrs);
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0);
}

#[test]
fn an_idle_runtime_parks_its_workers() {
    let system = system(2);
    let stopped = Arc::new(AtomicUsize::new(0));
    let a = system.spawn(Fragile { stopped });
    for n in 1..=1000 {
        a.send(n).unwrap();
    }
    quiet(&system);
    // Give the workers time to finish searching and park, then check they stay put.
    let parked = |s: &System| s.metrics().workers.iter().all(|w| w.parks > 0);
    let deadline = std::time::Instant::now() + PATIENCE;
    while !parked(&system) {
        assert!(std::time::Instant::now() < deadline, "workers never parked");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(20));
    let before = system.metrics();
    std::thread::sleep(Duration::from_millis(200));
    let after = system.metrics();
    let turns = |m: &footlights::Metrics| m.workers.iter().map(|w| w.turns).sum::<u64>();
    assert_eq!(turns(&before), turns(&after), "no work while idle");
    let parks = |m: &footlights::Metrics| m.workers.iter().map(|w| w.parks).sum::<u64>();
    assert_eq!(
        parks(&before),
        parks(&after),
        "an idle worker stays parked instead of waking up"
    );
}

#[test]
fn counters_are_readable_from_the_system() {
    let system = system(2);
    let rec = system.spawn(Recorder::default());
    for seq in 1..=500 {
        rec.send(RecMsg::Seq { sender: 0, seq }).unwrap();
    }
    quiet(&system);
    assert_eq!(rec.messages_handled(), 500);
    let m = system.metrics();
    assert_eq!(m.messages_handled(), 500);
    assert_eq!(m.external_messages_sent, 500);
    assert!(
        m.workers.iter().map(|w| w.turns).sum::<u64>() >= 5,
        "batches of 100"
    );
}

#[test]
fn a_zero_thread_count_is_a_clear_error() {
    let err = System::builder()
        .threads(0)
        .build()
        .expect_err("zero threads");
    assert!(err.to_string().contains("threads(0)"));
}

#[test]
fn a_zero_cpu_count_is_a_clear_error() {
    let err = System::builder().cpus(0).build().expect_err("zero CPUs");
    assert!(err.to_string().contains("cpus(0)"), "{err}");
}

#[test]
fn replies_can_be_awaited_as_futures() {
    struct Echo;
    impl Actor for Echo {
        type Msg = (u32, ReplyTo<u32>);
        fn handle(&mut self, _: &mut Context<Self>, (n, r): Self::Msg) {
            let _ = r.send(n + 1);
        }
    }
    let system = system(1);
    let echo = system.spawn(Echo);
    let reply = echo.ask(|r| (1, r)).unwrap();
    // A minimal executor: poll with a waker that unparks this thread.
    let waker = std::task::Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = std::task::Context::from_waker(&waker);
    let mut reply = std::pin::pin!(reply);
    let value = loop {
        match std::future::Future::poll(reply.as_mut(), &mut cx) {
            std::task::Poll::Ready(v) => break v,
            std::task::Poll::Pending => std::thread::park_timeout(Duration::from_millis(100)),
        }
    };
    assert_eq!(value, Ok(2));
}

struct ThreadWaker(std::thread::Thread);

impl std::task::Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

#[test]
fn a_dropped_reply_to_cancels_the_reply() {
    struct Forgetful;
    impl Actor for Forgetful {
        type Msg = ReplyTo<u32>;
        fn handle(&mut self, _: &mut Context<Self>, _r: ReplyTo<u32>) {}
    }
    let system = system(1);
    let f = system.spawn(Forgetful);
    assert_eq!(
        f.ask(|r| r).unwrap().wait_timeout(PATIENCE),
        Some(Err(footlights::Canceled))
    );
}

/// A node of a small tree whose children answer with plain messages and then drop their
/// parent's address: the answer and the last address going away race with the parent's
/// turn ending. Garbage collection must never stop the parent before it has read them.
struct Summer {
    depth: u32,
    waiting: u32,
    sum: u64,
    parent: Option<Result<Addr<Summer>, ReplyTo<u64>>>,
}

impl Summer {
    fn new(depth: u32, parent: Result<Addr<Summer>, ReplyTo<u64>>) -> Self {
        Summer {
            depth,
            waiting: 0,
            sum: 0,
            parent: Some(parent),
        }
    }

    fn answer(&mut self, ctx: &mut Context<Self>, value: u64) {
        match self.parent.take() {
            Some(Ok(parent)) => drop(parent.send(value)),
            Some(Err(main)) => drop(main.send(value)),
            None => {}
        }
        ctx.stop();
    }
}

impl Actor for Summer {
    type Msg = u64;
    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.depth == 0 {
            return self.answer(ctx, 1);
        }
        for _ in 0..2 {
            ctx.spawn(Summer::new(self.depth - 1, Ok(ctx.addr())));
            self.waiting += 1;
        }
    }
    fn handle(&mut self, ctx: &mut Context<Self>, value: u64) {
        self.sum += value;
        self.waiting -= 1;
        if self.waiting == 0 {
            let sum = self.sum;
            self.answer(ctx, sum);
        }
    }
}

#[test]
fn the_last_address_dropped_after_a_send_never_loses_the_message() {
    let system = system(2);
    for round in 0..3_000 {
        let (main, answer) = footlights::reply::pair();
        // The root's own address is dropped at once: only its children hold one.
        drop(system.spawn(Summer::new(3, Err(main))));
        let sum = answer
            .wait_timeout(PATIENCE)
            .expect("answer in time")
            .unwrap_or_else(|_| panic!("round {round}: a node was collected too early"));
        assert_eq!(sum, 8);
    }
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0);
    assert_eq!(system.metrics().dead_letters, 0);
}

/// Collects answers that arrive as messages through `Context::reply_to`.
struct Asker {
    got: Vec<Result<u32, footlights::Canceled>>,
    report: Option<ReplyTo<Vec<Result<u32, footlights::Canceled>>>>,
}

enum AskerMsg {
    /// Make `n` reply handles and give them to `holder`.
    Make(u32, std::sync::mpsc::Sender<ReplyTo<u32>>),
    Answer(Result<u32, footlights::Canceled>),
    Report(ReplyTo<Vec<Result<u32, footlights::Canceled>>>),
    Stop,
}

impl Actor for Asker {
    type Msg = AskerMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: AskerMsg) {
        match msg {
            AskerMsg::Make(n, holder) => {
                for _ in 0..n {
                    let _ = holder.send(ctx.reply_to(AskerMsg::Answer));
                }
            }
            AskerMsg::Answer(a) => {
                self.got.push(a);
                if self.got.len() == 3 {
                    if let Some(r) = self.report.take() {
                        let _ = r.send(std::mem::take(&mut self.got));
                    }
                }
            }
            AskerMsg::Report(r) => self.report = Some(r),
            AskerMsg::Stop => ctx.stop(),
        }
    }
}

#[test]
fn reply_to_delivers_answers_and_cancellations_as_messages() {
    let system = system(2);
    let asker = system.spawn(Asker {
        got: Vec::new(),
        report: None,
    });
    let (tx, rx) = std::sync::mpsc::channel();
    asker.send(AskerMsg::Make(4, tx)).unwrap();
    let report = asker.ask(AskerMsg::Report).unwrap();
    let handles: Vec<ReplyTo<u32>> = rx.iter().take(4).collect();
    let mut handles = handles.into_iter();
    handles.next().unwrap().send(7).unwrap();
    drop(handles.next().unwrap()); // canceled: arrives as Err(Canceled)
    handles.next().unwrap().send(9).unwrap();
    let got = report.wait_timeout(PATIENCE).expect("in time").unwrap();
    assert_eq!(got, vec![Ok(7), Err(footlights::Canceled), Ok(9)]);
    // Once the asker has stopped, the last handle gives its value back.
    asker.send(AskerMsg::Stop).unwrap();
    quiet(&system);
    assert_eq!(handles.next().unwrap().send(11), Err(11));
}

/// Counts the tokens made and dropped: a message leaked by a shutdown is never dropped.
struct Ledger {
    made: AtomicUsize,
    dropped: AtomicUsize,
    states_dropped: AtomicUsize,
}

struct Token(Arc<Ledger>);

impl Token {
    fn new(ledger: &Arc<Ledger>) -> Token {
        ledger.made.fetch_add(1, Ordering::SeqCst);
        Token(Arc::clone(ledger))
    }
}

impl Drop for Token {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Passes every ball it gets on to its peer, as a new token, for ever.
struct Bouncer {
    peer: Option<Addr<Bouncer>>,
    ledger: Arc<Ledger>,
}

enum Bounce {
    Peer(Addr<Bouncer>),
    Ball(Token),
}

impl Actor for Bouncer {
    type Msg = Bounce;
    fn handle(&mut self, _: &mut Context<Self>, msg: Bounce) {
        match msg {
            Bounce::Peer(peer) => self.peer = Some(peer),
            Bounce::Ball(token) => {
                drop(token);
                if let Some(peer) = &self.peer {
                    // Refused only once the peer has stopped; then the token comes back
                    // and is dropped here.
                    let _ = peer.send(Bounce::Ball(Token::new(&self.ledger)));
                }
            }
        }
    }
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        self.ledger.states_dropped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Handlers that send to each other without pause while the system shuts down (a send
/// from a worker is refused by a stopped actor, not by the shutdown's flag: see
/// `Scheduled::send`). None of their messages may be lost track of: every token made is
/// dropped, and so is every actor's state, once the shutdown has returned.
#[test]
fn handlers_sending_through_a_shutdown_leak_nothing() {
    for threads in [1, 2] {
        for round in 0..20 {
            let ledger = Arc::new(Ledger {
                made: AtomicUsize::new(0),
                dropped: AtomicUsize::new(0),
                states_dropped: AtomicUsize::new(0),
            });
            let system = system(threads);
            let ring: Vec<_> = (0..4)
                .map(|_| {
                    system.spawn(Bouncer {
                        peer: None,
                        ledger: Arc::clone(&ledger),
                    })
                })
                .collect();
            common::link_ring(&ring, Bounce::Peer);
            for b in &ring {
                for _ in 0..2 {
                    b.send(Bounce::Ball(Token::new(&ledger))).unwrap();
                }
            }
            // Shut down while the balls fly (a few thousand bounces in).
            let deadline = std::time::Instant::now() + PATIENCE;
            while ledger.made.load(Ordering::SeqCst) < 2_000 + round * 100 {
                assert!(std::time::Instant::now() < deadline, "the balls do not fly");
                std::thread::yield_now();
            }
            drop(ring);
            system.shutdown();
            let made = ledger.made.load(Ordering::SeqCst);
            assert_eq!(
                ledger.dropped.load(Ordering::SeqCst),
                made,
                "{threads} threads, round {round}: tokens made and not dropped"
            );
            assert_eq!(
                ledger.states_dropped.load(Ordering::SeqCst),
                4,
                "{threads} threads, round {round}: actors not freed"
            );
        }
    }
}
