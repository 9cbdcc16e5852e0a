//! Faults a service meets at the worst moment, each shown by a small program against the
//! public API: a panic in a timer's message maker, a panicking panic hook, a message whose
//! `Drop` panics while its actor stops, supervision under the inline policy, a restarted
//! producer that was muted, watchers at shutdown, monitors set in a `stopped` hook, a
//! sibling whose factory panics, `then_timeout` after its timeout, and `send_async`
//! futures dropped while they wait.
//!
//! Each program runs under a watchdog ([`within`]): a hang fails the test instead of
//! hanging the run.
#![cfg(not(loom))]

mod common;

use std::future::Future as _;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::task::{Context as TaskContext, Wake, Waker};
use std::time::Duration;

use common::PATIENCE;
use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
use footlights::{
    Actor, Addr, AskError, Context, Down, ExitReason, PanicReport, Policy, Reply, ReplyTo,
    SpawnOptions, System,
};

/// How long a program may take before the watchdog calls it hung.
const WATCHDOG: Duration = Duration::from_secs(90);

/// How long a program waits for something that must happen (generous: a busy machine).
const SOON: Duration = Duration::from_secs(20);

/// Runs `program` on a thread of its own and fails the test if it has not finished within
/// [`WATCHDOG`] (the thread is left behind; the test binary ends anyway).
fn within(what: &str, program: impl FnOnce() + Send + 'static) {
    let (done, finished) = mpsc::channel();
    let runner = std::thread::spawn(move || {
        program();
        let _ = done.send(());
    });
    match finished.recv_timeout(WATCHDOG) {
        Ok(()) => runner.join().expect("the program ran"),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // The program panicked: pass its panic on.
            if let Err(panic) = runner.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: hung (watchdog)"),
    }
}

/// A system of `threads` workers whose panic reports go to the returned channel.
fn reporting(threads: usize, policy: Policy) -> (System, mpsc::Receiver<(String, String)>) {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let system = System::builder()
        .threads(threads)
        .cpus(threads)
        .policy(policy)
        .on_panic(move |r: &PanicReport| {
            let _ = tx
                .lock()
                .unwrap()
                .send((r.during.to_owned(), r.message.clone()));
        })
        .build()
        .expect("a system starts");
    (system, rx)
}

/// Counts what it is sent and reports each count; replies to asks.
struct Counter {
    seen: u64,
    report: Option<mpsc::Sender<u64>>,
}

enum CounterMsg {
    Tick,
    Get(ReplyTo<u64>),
}

impl Actor for Counter {
    type Msg = CounterMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: CounterMsg) {
        match msg {
            CounterMsg::Tick => {
                self.seen += 1;
                if let Some(r) = &self.report {
                    let _ = r.send(self.seen);
                }
            }
            CounterMsg::Get(r) => {
                let _ = r.send(self.seen);
            }
        }
    }
}

fn counter(system: &System, report: Option<mpsc::Sender<u64>>) -> Addr<Counter> {
    system.spawn(Counter { seen: 0, report })
}

/// Never answers: keeps every request it is sent, so none is canceled either.
struct Mute {
    kept: Vec<ReplyTo<u32>>,
}

impl Actor for Mute {
    type Msg = ReplyTo<u32>;
    fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<u32>) {
        self.kept.push(r);
    }
}

/// Asks what it is given with a timeout and reports the outcome.
struct Asker;

impl Actor for Asker {
    type Msg = (Reply<u32>, mpsc::Sender<Result<u32, AskError>>);
    fn handle(&mut self, ctx: &mut Context<Self>, (reply, report): Self::Msg) {
        ctx.then_timeout(reply, Duration::from_millis(20), move |_, _, outcome| {
            let _ = report.send(outcome);
        });
    }
}

// ---- A panic in a timer's message maker ------------------------------------------------

#[test]
fn a_panicking_timer_is_reported_and_dropped_and_other_timers_keep_firing() {
    within("timer panic", || {
        let (system, panics) = reporting(2, Policy::Task);
        let victim = counter(&system, None);
        let panicking = victim.send_interval(Duration::from_millis(1), || panic!("maker"));
        let (during, message) = panics
            .recv_timeout(SOON)
            .expect("the timer's panic is reported through on_panic");
        assert_eq!((during.as_str(), message.as_str()), ("a timer", "maker"));
        // Another actor's timers, set after the panic, still fire.
        let (ticks, ticked) = mpsc::channel();
        let other = counter(&system, Some(ticks));
        other.send_after(Duration::from_millis(5), CounterMsg::Tick);
        assert_eq!(
            ticked.recv_timeout(SOON),
            Ok(1),
            "a timer set after the panic fires"
        );
        let every = other.send_interval(Duration::from_millis(2), || CounterMsg::Tick);
        for n in 2..=4 {
            assert_eq!(ticked.recv_timeout(SOON), Ok(n));
        }
        every.cancel();
        // The panicking timer was dropped: not pending, and reported once.
        assert!(!panicking.is_pending(), "the panicking timer was dropped");
        assert!(panics.recv_timeout(Duration::from_millis(50)).is_err());
        // An ask can still time out (then_timeout runs on the timer thread).
        let mute = system.spawn(Mute { kept: Vec::new() });
        let asker = system.spawn(Asker);
        let (report, outcome) = mpsc::channel();
        asker
            .send((mute.ask(|r| r).expect("mute runs"), report))
            .expect("asker runs");
        assert_eq!(outcome.recv_timeout(SOON), Ok(Err(AskError::TimedOut)));
        // The victim itself was not stopped: a timer's panic is not its handler's.
        assert_eq!(victim.ask(CounterMsg::Get).unwrap().wait(), Ok(0));
        system.shutdown();
    });
}

// ---- Supervision under the inline policy -----------------------------------------------

/// A supervised child: panics when told to; its `started` panics on the instance
/// `panic_at` (counted from 0), if any.
struct Fragile {
    instance: u32,
    panic_at: Option<u32>,
    started: mpsc::Sender<(&'static str, u32)>,
    stopped: mpsc::Sender<(&'static str, u32)>,
    name: &'static str,
}

impl Actor for Fragile {
    type Msg = bool;
    fn started(&mut self, _: &mut Context<Self>) {
        let _ = self.started.send((self.name, self.instance));
        if self.panic_at == Some(self.instance) {
            panic!("started of instance {}", self.instance);
        }
    }
    fn handle(&mut self, _: &mut Context<Self>, panic: bool) {
        if panic {
            panic!("told to");
        }
    }
    fn stopped(&mut self, _: &mut Context<Self>) {
        let _ = self.stopped.send((self.name, self.instance));
    }
}

type Events = (
    mpsc::Sender<(&'static str, u32)>,
    mpsc::Receiver<(&'static str, u32)>,
);

/// A factory of [`Fragile`] children named `name`.
fn fragile(
    name: &'static str,
    panic_at: Option<u32>,
    started: &Events,
    stopped: &Events,
) -> impl FnMut() -> Fragile + Send + 'static {
    let made = Arc::new(AtomicU32::new(0));
    let (started, stopped) = (started.0.clone(), stopped.0.clone());
    move || Fragile {
        instance: made.fetch_add(1, Ordering::SeqCst),
        panic_at,
        started: started.clone(),
        stopped: stopped.clone(),
        name,
    }
}

#[test]
fn one_for_all_under_the_inline_policy_restarts_and_shuts_down() {
    within("inline one-for-all", || {
        let (system, _panics) = reporting(2, Policy::Inline);
        let (started, stopped) = (mpsc::channel(), mpsc::channel());
        let sup = Supervisor::spawn(
            &system,
            Strategy::OneForAll,
            Intensity::new(10, Duration::from_secs(3600)),
        );
        let a = sup.child(Restart::Permanent, fragile("a", None, &started, &stopped));
        let _b = sup.child(
            Restart::Permanent,
            fragile("b", Some(1), &started, &stopped),
        );
        for _ in 0..2 {
            started
                .1
                .recv_timeout(PATIENCE)
                .expect("both children start");
        }
        a.send(true).expect("a runs");
        assert!(
            system.wait_quiescent_timeout(SOON),
            "quiescent again after the restarts"
        );
        // b's first restart panicked in `started`: it restarted again, a with it.
        let starts: Vec<_> = started.1.try_iter().collect();
        assert!(
            starts.contains(&("b", 1)) && starts.contains(&("b", 2)),
            "{starts:?}"
        );
        system.shutdown();
    });
}

// ---- A panicking panic hook, a message whose Drop panics ---------------------------------

/// Panics on every message.
struct Bomb;

impl Actor for Bomb {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {
        panic!("bomb");
    }
}

/// Answers every ask.
struct Echo;

impl Actor for Echo {
    type Msg = ReplyTo<u32>;
    fn handle(&mut self, _: &mut Context<Self>, r: ReplyTo<u32>) {
        let _ = r.send(7);
    }
}

#[test]
fn a_panicking_panic_hook_kills_no_worker() {
    within("panicking hook", || {
        let system = System::builder()
            .threads(2)
            .cpus(2)
            .on_panic(|_| panic!("the hook itself"))
            .build()
            .unwrap();
        // Twice as many panics as workers: a worker killed by each would leave none.
        for _ in 0..4 {
            let bomb = system.spawn(Bomb);
            let down = bomb.when_stopped();
            bomb.send(()).unwrap();
            let down = down.wait_timeout(SOON);
            assert_eq!(
                down.map(|d| d.map(|d| d.reason)),
                Some(Ok(ExitReason::Panicked("bomb".into()))),
                "the panicking actor stopped"
            );
        }
        assert!(system.wait_quiescent_timeout(SOON));
        let echo = system.spawn(Echo);
        let answer = echo.ask(|r| r).unwrap().wait_timeout(SOON);
        assert_eq!(answer, Some(Ok(7)), "a new actor answers");
        system.shutdown_graceful(Duration::from_secs(1));
    });
}

/// A message whose `Drop` panics (once its flag is set).
struct Grenade(Arc<AtomicUsize>);

impl Drop for Grenade {
    fn drop(&mut self) {
        if self.0.fetch_add(1, Ordering::SeqCst) < 100 && !std::thread::panicking() {
            panic!("a message's drop");
        }
    }
}

/// Blocks on its first message until let go; drops the grenades it is sent.
struct Holder {
    gate: Option<mpsc::Receiver<()>>,
    entered: mpsc::Sender<()>,
}

enum HolderMsg {
    Hold,
    Grenade(#[allow(dead_code)] Grenade),
}

impl Actor for Holder {
    type Msg = HolderMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: HolderMsg) {
        if let HolderMsg::Hold = msg {
            let _ = self.entered.send(());
            if let Some(gate) = self.gate.take() {
                let _ = gate.recv_timeout(PATIENCE);
            }
        }
    }
}

#[test]
fn a_message_whose_drop_panics_while_its_actor_stops_kills_no_worker() {
    within("panicking drop", || {
        let (system, panics) = reporting(2, Policy::Task);
        let dropped = Arc::new(AtomicUsize::new(0));
        for _ in 0..4 {
            let (open, gate) = mpsc::channel();
            let (entered, inside) = mpsc::channel();
            let holder = system.spawn(Holder {
                gate: Some(gate),
                entered,
            });
            holder.send(HolderMsg::Hold).unwrap();
            inside.recv_timeout(PATIENCE).unwrap();
            let down = holder.when_stopped();
            for _ in 0..3 {
                let _ = holder.send(HolderMsg::Grenade(Grenade(Arc::clone(&dropped))));
            }
            holder.kill();
            drop(open);
            let down = down.wait_timeout(SOON);
            assert_eq!(
                down.map(|d| d.map(|d| d.reason)),
                Some(Ok(ExitReason::Killed))
            );
        }
        assert!(system.wait_quiescent_timeout(SOON));
        let reported = panics.try_iter().filter(|(_, m)| m == "a message's drop");
        assert!(reported.count() >= 4, "the drops' panics are reported");
        let echo = system.spawn(Echo);
        let answer = echo.ask(|r| r).unwrap().wait_timeout(SOON);
        assert_eq!(answer, Some(Ok(7)), "a new actor answers");
        system.shutdown_graceful(Duration::from_secs(1));
    });
}

/// With standard error a closed pipe, the default panic hook must not panic: run in a
/// child process of this test binary (the part below, under an environment variable).
#[test]
fn the_default_panic_hook_survives_a_closed_stderr() {
    const CHILD: &str = "FOOTLIGHTS_FAULTS_CLOSED_STDERR";
    if std::env::var_os(CHILD).is_some() {
        let system = System::builder().threads(1).cpus(1).build().unwrap();
        for _ in 0..3 {
            let bomb = system.spawn(Bomb);
            let down = bomb.when_stopped();
            bomb.send(()).unwrap();
            assert!(down.wait_timeout(SOON).is_some());
        }
        let echo = system.spawn(Echo);
        let answer = echo.ask(|r| r).unwrap().wait_timeout(SOON);
        assert_eq!(answer, Some(Ok(7)), "a new actor answers");
        system.shutdown_graceful(Duration::from_secs(1));
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let mut child = std::process::Command::new(exe)
        .args([
            "--exact",
            "the_default_panic_hook_survives_a_closed_stderr",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the pipe's reading end: every write to the child's standard error fails.
    drop(child.stderr.take());
    let deadline = std::time::Instant::now() + WATCHDOG;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the child hung (watchdog)");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "the child failed: {status}");
}

// ---- A restarted producer muted on its old target ----------------------------------------

/// Blocks on its first message until let go, then takes what comes.
struct Sink {
    gate: Option<mpsc::Receiver<()>>,
    /// Told when the first message holds the sink.
    entered: Option<mpsc::Sender<()>>,
    got: u64,
    done: Option<(u64, mpsc::Sender<()>)>,
}

impl Actor for Sink {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, _: u64) {
        if let Some(gate) = self.gate.take() {
            if let Some(entered) = self.entered.take() {
                let _ = entered.send(());
            }
            let _ = gate.recv_timeout(PATIENCE);
        }
        self.got += 1;
        if let Some((n, done)) = &self.done {
            if self.got == *n {
                let _ = done.send(());
            }
        }
    }
}

/// Its first instance fills `a` and panics; later ones send `n` messages to `b`.
struct Producer {
    instance: u32,
    a: Addr<Sink>,
    b: Addr<Sink>,
    n: u64,
}

impl Actor for Producer {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.instance > 0 {
            let me = ctx.addr();
            for _ in 0..self.n {
                let _ = me.send(());
            }
        }
    }
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        if self.instance == 0 {
            // Past a's capacity: this mutes the producer, then it fails.
            for i in 0..8 {
                let _ = ctx.send(&self.a, i);
            }
            assert!(ctx.is_muted());
            panic!("after muting");
        }
        let _ = ctx.send(&self.b, 1);
    }
}

#[test]
fn a_restarted_producer_is_not_muted_on_its_old_target() {
    within("restarted producer", || {
        let (system, _panics) = reporting(2, Policy::Task);
        let (open, gate) = mpsc::channel();
        let a = system.spawn_with(
            Sink {
                gate: Some(gate),
                entered: None,
                got: 0,
                done: None,
            },
            SpawnOptions::new().capacity(4),
        );
        let n = 10_000;
        let (done, finished) = mpsc::channel();
        let b = system.spawn_with(
            Sink {
                gate: None,
                entered: None,
                got: 0,
                done: Some((n, done)),
            },
            SpawnOptions::new().capacity(4),
        );
        let sup = Supervisor::spawn(
            &system,
            Strategy::OneForOne,
            Intensity::new(10, Duration::from_secs(3600)),
        );
        let made = AtomicU32::new(0);
        let producer = sup.child(Restart::Permanent, move || Producer {
            instance: made.fetch_add(1, Ordering::SeqCst),
            a: a.clone(),
            b: b.clone(),
            n,
        });
        producer.send(()).unwrap();
        let got = finished.recv_timeout(SOON);
        // Let a go only now: the new instance must not have waited for it.
        drop(open);
        assert!(
            got.is_ok(),
            "the new instance reached b while a stayed full"
        );
        system.shutdown();
    });
}

// ---- when_stopped at shutdown ------------------------------------------------------------

#[test]
fn when_stopped_says_stopped_after_a_shutdown() {
    within("when_stopped at shutdown", || {
        for graceful in [false, true] {
            let system = common::system(2);
            let echo = system.spawn(Echo);
            let down = echo.when_stopped();
            if graceful {
                system.shutdown_graceful(Duration::from_secs(1));
            } else {
                system.shutdown();
            }
            let down = down.wait_timeout(SOON);
            assert_eq!(
                down.map(|d| d.map(|d| d.reason)),
                Some(Ok(ExitReason::Stopped)),
                "graceful: {graceful}"
            );
        }
    });
}

// ---- A monitor set in a stopped hook -----------------------------------------------------

/// Monitors `target` in its `stopped` hook; its conversion holds `held`.
struct LateWatcher {
    target: Addr<Echo>,
    held: Arc<()>,
}

impl Actor for LateWatcher {
    type Msg = Down;
    fn handle(&mut self, _: &mut Context<Self>, _: Down) {}
    fn stopped(&mut self, ctx: &mut Context<Self>) {
        let held = Arc::clone(&self.held);
        let _ = ctx.monitor(&self.target, move |down| {
            drop(held);
            down
        });
    }
}

#[test]
fn a_monitor_set_in_a_stopped_hook_leaves_no_tie() {
    within("monitor in stopped", || {
        let system = common::system(2);
        let target = system.spawn(Echo);
        let held = Arc::new(());
        let n = 1000;
        for _ in 0..n {
            let watcher = system.spawn(LateWatcher {
                target: target.clone(),
                held: Arc::clone(&held),
            });
            let down = watcher.when_stopped();
            watcher.stop();
            down.wait_timeout(SOON).unwrap().unwrap();
        }
        assert!(system.wait_quiescent_timeout(SOON));
        assert_eq!(
            Arc::strong_count(&held),
            1,
            "the stopped watchers' monitors are left on the live target"
        );
        let dead_before = system.metrics().dead_letters;
        target.stop();
        assert!(system.wait_quiescent_timeout(SOON));
        assert_eq!(system.metrics().dead_letters, dead_before);
        system.shutdown();
    });
}

// ---- A one-for-all sibling whose factory panics ------------------------------------------

/// Panics on its first message; its `stopped` reports its instance.
struct Once {
    instance: u32,
    stopped: mpsc::Sender<(&'static str, u32)>,
    name: &'static str,
}

impl Actor for Once {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {
        panic!("told to");
    }
    fn stopped(&mut self, _: &mut Context<Self>) {
        let _ = self.stopped.send((self.name, self.instance));
    }
}

#[test]
fn a_sibling_whose_factory_panics_stops_once() {
    within("sibling factory panics", || {
        let (system, panics) = reporting(2, Policy::Task);
        let (stopped, stops) = mpsc::channel();
        let sup = Supervisor::spawn(
            &system,
            Strategy::OneForAll,
            Intensity::new(10, Duration::from_secs(3600)),
        );
        let made_a = AtomicU32::new(0);
        let tell = stopped.clone();
        let a = sup.child(Restart::Permanent, move || Once {
            instance: made_a.fetch_add(1, Ordering::SeqCst),
            stopped: tell.clone(),
            name: "a",
        });
        let made_b = AtomicU32::new(0);
        let b = sup.child(Restart::Permanent, move || {
            let instance = made_b.fetch_add(1, Ordering::SeqCst);
            if instance > 0 {
                panic!("b's factory");
            }
            Once {
                instance,
                stopped: stopped.clone(),
                name: "b",
            }
        });
        let b_down = b.when_stopped();
        // Make sure both have started before a fails.
        assert!(system.wait_quiescent_timeout(SOON));
        a.send(()).unwrap();
        let b_down = b_down.wait_timeout(SOON);
        assert!(
            matches!(b_down, Some(Ok(Down { reason, .. })) if reason.is_failure()),
            "b stopped for good, failing"
        );
        assert!(system.wait_quiescent_timeout(SOON));
        let b_stops: Vec<_> = stops.try_iter().filter(|(n, _)| *n == "b").collect();
        assert_eq!(
            b_stops,
            vec![("b", 0)],
            "b's instance 0 stopped exactly once"
        );
        let factory: Vec<_> = panics
            .try_iter()
            .filter(|(_, m)| m == "b's factory")
            .collect();
        assert!(!factory.is_empty(), "the factory's panic is reported");
        assert!(
            factory.iter().all(|(during, _)| during == "a restart"),
            "reported as during a restart: {factory:?}"
        );
        system.shutdown();
    });
}

// ---- then_timeout after its timeout ------------------------------------------------------

/// Asks `mute` with a timeout when told, and reports the outcome.
struct TimedAsker {
    mute: Addr<Mute>,
    report: mpsc::Sender<Result<u32, AskError>>,
}

impl Actor for TimedAsker {
    type Msg = ();
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        let reply = self.mute.ask(|r| r).expect("mute runs");
        let report = self.report.clone();
        ctx.then_timeout(reply, Duration::from_millis(10), move |_, _, outcome| {
            let _ = report.send(outcome);
        });
    }
}

#[test]
fn then_timeout_lets_the_asker_go_after_the_timeout() {
    within("then_timeout keeps the asker", || {
        let system = common::system(2);
        let mute = system.spawn(Mute { kept: Vec::new() });
        let (report, outcome) = mpsc::channel();
        let asker = system.spawn(TimedAsker {
            mute: mute.clone(),
            report,
        });
        asker.send(()).unwrap();
        assert_eq!(outcome.recv_timeout(SOON), Ok(Err(AskError::TimedOut)));
        // The request is still unanswered (the mute actor keeps it): nothing but it should
        // keep the asker, and it should not.
        let down = asker.when_stopped();
        drop(asker);
        let down = down.wait_timeout(SOON);
        assert_eq!(
            down.map(|d| d.map(|d| d.reason)),
            Some(Ok(ExitReason::Normal)),
            "the asker is collected once nothing can reach it"
        );
        system.shutdown();
    });
}

// ---- send_async futures dropped while they wait ------------------------------------------

/// A waker that does nothing: its count tells whether the mailbox still holds it.
struct Nothing;

impl Wake for Nothing {
    fn wake(self: Arc<Self>) {}
}

#[test]
fn dropped_send_async_futures_leave_no_waker_behind() {
    within("send_async wakers", || {
        let system = common::system(2);
        let (open, gate) = mpsc::channel();
        let (entered, inside) = mpsc::channel();
        let sink = system.spawn_with(
            Sink {
                gate: Some(gate),
                entered: Some(entered),
                got: 0,
                done: None,
            },
            SpawnOptions::new().capacity(2),
        );
        // The sink holds its worker on the first message; then fill its mailbox.
        sink.send(0).unwrap();
        inside.recv_timeout(PATIENCE).unwrap();
        while sink.try_send(0).is_ok() {}
        let wakers: Vec<Arc<Nothing>> = (0..1000).map(|_| Arc::new(Nothing)).collect();
        for w in &wakers {
            let waker = Waker::from(Arc::clone(w));
            let mut sending = sink.send_async(1);
            let pending =
                std::pin::Pin::new(&mut sending).poll(&mut TaskContext::from_waker(&waker));
            assert!(pending.is_pending(), "the mailbox is full");
            drop(sending);
        }
        let kept = wakers.iter().filter(|w| Arc::strong_count(w) > 1).count();
        drop(open);
        assert_eq!(kept, 0, "wakers of dropped sends kept by the mailbox");
        system.shutdown();
    });
}
