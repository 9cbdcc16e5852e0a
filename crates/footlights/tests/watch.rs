//! Monitors and links: who is told when an actor stops, with which reason, and what a
//! link does to the actor on its other end. None of these tests is timed: each waits for
//! an outcome, with generous timeouts only so that a bug fails instead of hanging.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use footlights::{Actor, ActorId, Addr, Context, Down, ExitReason, ReplyTo, System};
use parking_lot::Mutex;

mod common;
use common::{PATIENCE, quiet, system_quiet_on_panic as system};

fn down_of<A: Actor>(addr: &Addr<A>) -> Down {
    addr.when_stopped()
        .wait_timeout(PATIENCE)
        .expect("the actor stopped")
        .expect("a reason")
}

/// Does what it is told.
struct Subject;

enum Order {
    Stop,
    Panic(&'static str),
}

impl Actor for Subject {
    type Msg = Order;
    fn handle(&mut self, ctx: &mut Context<Self>, order: Order) {
        match order {
            Order::Stop => ctx.stop(),
            Order::Panic(message) => panic!("{message}"),
        }
    }
}

/// Records every `Down` it receives; watches or links on request.
#[derive(Default)]
struct Watcher {
    seen: Arc<Mutex<Vec<Down>>>,
    monitors: Vec<footlights::Monitor>,
    trap: bool,
}

enum Watch {
    Monitor(Addr<Subject>),
    MonitorTwice(Addr<Subject>),
    Demonitor(ReplyTo<Vec<bool>>),
    Link(Addr<Subject>),
    LinkWatcher(Addr<Watcher>),
    Unlink(Addr<Subject>),
    Down(Down),
    Stop,
}

impl Actor for Watcher {
    type Msg = Watch;
    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.trap {
            ctx.trap_exits(Watch::Down);
        }
    }
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Watch) {
        match msg {
            Watch::Monitor(a) => self.monitors.push(ctx.monitor(&a, Watch::Down)),
            Watch::MonitorTwice(a) => {
                self.monitors.push(ctx.monitor(&a, Watch::Down));
                self.monitors.push(ctx.monitor(&a, Watch::Down));
            }
            Watch::Demonitor(reply) => {
                let all = self.monitors.drain(..).map(|m| ctx.demonitor(m)).collect();
                let _ = reply.send(all);
            }
            Watch::Link(a) => ctx.link(&a),
            Watch::LinkWatcher(a) => ctx.link(&a),
            Watch::Unlink(a) => ctx.unlink(&a),
            Watch::Down(down) => self.seen.lock().push(down),
            Watch::Stop => ctx.stop(),
        }
    }
}

fn watcher(system: &System, trap: bool) -> (Addr<Watcher>, Arc<Mutex<Vec<Down>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let w = system.spawn(Watcher {
        seen: Arc::clone(&seen),
        monitors: Vec::new(),
        trap,
    });
    (w, seen)
}

#[test]
fn a_monitor_is_told_every_reason() {
    for threads in [1, 2] {
        let system = system(threads);
        let (w, seen) = watcher(&system, false);
        let subjects: Vec<Addr<Subject>> = (0..5).map(|_| system.spawn(Subject)).collect();
        for s in &subjects {
            w.send(Watch::Monitor(s.clone())).unwrap();
        }
        quiet(&system);
        subjects[0].send(Order::Stop).unwrap();
        subjects[1].stop();
        subjects[2].send(Order::Panic("boom")).unwrap();
        subjects[3].kill();
        let ids: Vec<ActorId> = subjects.iter().map(Addr::id).collect();
        // The last one is collected: nothing can reach it once its addresses are gone.
        drop(subjects);
        quiet(&system);
        let mut got: Vec<(usize, ExitReason)> = seen
            .lock()
            .iter()
            .map(|d| {
                (
                    ids.iter().position(|i| *i == d.actor).unwrap(),
                    d.reason.clone(),
                )
            })
            .collect();
        got.sort_by_key(|(i, _)| *i);
        assert_eq!(
            got,
            vec![
                (0, ExitReason::Normal),
                (1, ExitReason::Stopped),
                (2, ExitReason::Panicked("boom".into())),
                (3, ExitReason::Killed),
                (4, ExitReason::Normal),
            ]
        );
        assert_eq!(system.metrics().dead_letters, 0);
    }
}

#[test]
fn a_monitor_on_a_stopped_actor_is_told_at_once() {
    let system = system(2);
    let subjects: Vec<Addr<Subject>> = (0..4).map(|_| system.spawn(Subject)).collect();
    subjects[0].send(Order::Stop).unwrap();
    subjects[1].stop();
    subjects[2].send(Order::Panic("late")).unwrap();
    subjects[3].kill();
    quiet(&system);
    let (w, seen) = watcher(&system, false);
    for s in &subjects {
        w.send(Watch::Monitor(s.clone())).unwrap();
    }
    quiet(&system);
    let reasons: Vec<ExitReason> = seen.lock().iter().map(|d| d.reason.clone()).collect();
    assert_eq!(
        reasons,
        vec![
            ExitReason::Normal,
            ExitReason::Stopped,
            ExitReason::Panicked("late".into()),
            ExitReason::Killed,
        ]
    );
    // And from outside the runtime.
    assert_eq!(
        down_of(&subjects[2]).reason,
        ExitReason::Panicked("late".into())
    );
}

#[test]
fn a_monitor_taken_out_tells_nothing() {
    let system = system(2);
    let (w, seen) = watcher(&system, false);
    let s = system.spawn(Subject);
    w.send(Watch::MonitorTwice(s.clone())).unwrap();
    let taken = w.ask(Watch::Demonitor).unwrap().wait().unwrap();
    assert_eq!(taken, vec![true, true], "neither had told yet");
    s.send(Order::Stop).unwrap();
    quiet(&system);
    assert!(seen.lock().is_empty());
    // Taking out a monitor that has told already says so.
    let s = system.spawn(Subject);
    w.send(Watch::Monitor(s.clone())).unwrap();
    s.send(Order::Stop).unwrap();
    quiet(&system);
    assert_eq!(seen.lock().len(), 1);
    let taken = w.ask(Watch::Demonitor).unwrap().wait().unwrap();
    assert_eq!(taken, vec![false]);
}

#[test]
fn a_watcher_that_stops_first_takes_its_monitors_out() {
    let system = system(2);
    let (w, _) = watcher(&system, false);
    let s = system.spawn(Subject);
    w.send(Watch::Monitor(s.clone())).unwrap();
    w.send(Watch::Stop).unwrap();
    quiet(&system);
    assert!(w.is_stopped());
    s.send(Order::Stop).unwrap();
    quiet(&system);
    // Had the monitor stayed, its message to the stopped watcher would be a dead letter.
    assert_eq!(system.metrics().dead_letters, 0);
}

/// A monitor keeps its watcher alive like an address: nobody holds the watcher, yet it
/// is there to be told.
#[test]
fn a_monitor_keeps_its_watcher_alive() {
    let system = system(2);
    let (w, seen) = watcher(&system, false);
    let s = system.spawn(Subject);
    w.send(Watch::Monitor(s.clone())).unwrap();
    let watcher_down = w.when_stopped();
    drop(w);
    quiet(&system);
    assert_eq!(
        system.metrics().live_actors(),
        2,
        "the watcher was not collected"
    );
    s.send(Order::Stop).unwrap();
    // Told, the watcher has nothing left that can reach it: now it is collected.
    let down = watcher_down
        .wait_timeout(PATIENCE)
        .expect("collected")
        .unwrap();
    assert_eq!(down.reason, ExitReason::Normal);
    assert_eq!(seen.lock().len(), 1);
}

#[test]
fn an_abnormal_exit_stops_linked_actors_with_the_same_reason() {
    for threads in [1, 2] {
        let system = system(threads);
        // a - b - c, and c panics.
        let (a, a_seen) = watcher(&system, false);
        let (b, b_seen) = watcher(&system, false);
        let c = system.spawn(Subject);
        a.send(Watch::LinkWatcher(b.clone())).unwrap();
        b.send(Watch::Link(c.clone())).unwrap();
        quiet(&system);
        let (a_down, b_down) = (a.when_stopped(), b.when_stopped());
        c.send(Order::Panic("chain")).unwrap();
        let reason = ExitReason::Panicked("chain".into());
        assert_eq!(
            b_down.wait_timeout(PATIENCE).unwrap().unwrap().reason,
            reason
        );
        assert_eq!(
            a_down.wait_timeout(PATIENCE).unwrap().unwrap().reason,
            reason
        );
        assert!(a_seen.lock().is_empty() && b_seen.lock().is_empty());
    }
}

#[test]
fn a_normal_exit_does_not_pass_along_a_link() {
    let system = system(2);
    let (a, _) = watcher(&system, false);
    let s = system.spawn(Subject);
    a.send(Watch::Link(s.clone())).unwrap();
    s.send(Order::Stop).unwrap();
    quiet(&system);
    assert!(s.is_stopped());
    assert!(!a.is_stopped());
    // Nor does unlinking leave anything behind: a later failure does not reach `a`.
    let s = system.spawn(Subject);
    a.send(Watch::Link(s.clone())).unwrap();
    a.send(Watch::Unlink(s.clone())).unwrap();
    quiet(&system);
    s.send(Order::Panic("alone")).unwrap();
    quiet(&system);
    assert!(s.is_stopped());
    assert!(!a.is_stopped());
}

#[test]
fn an_actor_that_traps_exits_is_told_instead() {
    let system = system(2);
    let (keeper, seen) = watcher(&system, true);
    let subjects: Vec<Addr<Subject>> = (0..3).map(|_| system.spawn(Subject)).collect();
    for s in &subjects {
        keeper.send(Watch::Link(s.clone())).unwrap();
    }
    quiet(&system);
    subjects[0].send(Order::Panic("trapped")).unwrap();
    subjects[1].send(Order::Stop).unwrap();
    subjects[2].kill();
    quiet(&system);
    assert!(!keeper.is_stopped());
    let mut reasons: Vec<String> = seen.lock().iter().map(|d| d.reason.to_string()).collect();
    reasons.sort();
    assert_eq!(reasons, vec!["killed", "normal", "panicked: trapped"]);
    // The link was two-way: the keeper's own failure stops the actors it is linked to.
    let s = system.spawn(Subject);
    keeper.send(Watch::Link(s.clone())).unwrap();
    quiet(&system);
    keeper.kill();
    assert_eq!(down_of(&s).reason, ExitReason::Killed);
}

#[test]
fn linking_to_a_stopped_actor_acts_at_once() {
    let system = system(2);
    let s = system.spawn(Subject);
    s.send(Order::Panic("gone")).unwrap();
    quiet(&system);
    let (a, _) = watcher(&system, false);
    a.send(Watch::Link(s.clone())).unwrap();
    assert_eq!(down_of(&a).reason, ExitReason::Panicked("gone".into()));
    let s = system.spawn(Subject);
    s.send(Order::Stop).unwrap();
    quiet(&system);
    let (b, _) = watcher(&system, false);
    b.send(Watch::Link(s)).unwrap();
    quiet(&system);
    assert!(!b.is_stopped(), "a normal exit does not pass along");
}

/// Many watchers register while the watched actor stops: each is told exactly once,
/// whether its monitor went in before the stop or found the actor stopped.
#[test]
fn monitors_racing_a_stop_are_each_told_once() {
    let system = system(2);
    let told = Arc::new(AtomicUsize::new(0));
    for _ in 0..200 {
        let s = system.spawn(Subject);
        let watchers: Vec<_> = (0..10).map(|_| watcher(&system, false)).collect();
        for (w, _) in &watchers {
            w.send(Watch::Monitor(s.clone())).unwrap();
        }
        s.send(Order::Stop).unwrap();
        let outside: Vec<_> = (0..3).map(|_| s.when_stopped()).collect();
        quiet(&system);
        for (_, seen) in &watchers {
            assert_eq!(seen.lock().len(), 1);
            told.fetch_add(1, Ordering::Relaxed);
        }
        for o in outside {
            assert_eq!(
                o.wait_timeout(PATIENCE).unwrap().unwrap().reason,
                ExitReason::Normal
            );
        }
    }
    assert_eq!(told.load(Ordering::Relaxed), 2000);
}

#[test]
fn a_shutdown_tells_no_watcher_and_stops_linked_actors() {
    let system = system(2);
    let (a, seen) = watcher(&system, true);
    let (b, _) = watcher(&system, false);
    let s = system.spawn(Subject);
    a.send(Watch::Monitor(s.clone())).unwrap();
    a.send(Watch::LinkWatcher(b.clone())).unwrap();
    // A linked pair that nobody holds: kept alive by the link alone.
    let (c, _) = watcher(&system, false);
    let (d, _) = watcher(&system, false);
    c.send(Watch::LinkWatcher(d.clone())).unwrap();
    drop((c, d));
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 5);
    let report = system.shutdown();
    assert_eq!(report.stopped_actors, 5);
    assert_eq!(report.live_actors, 0);
    assert!(seen.lock().is_empty(), "watchers are not told at shutdown");
    assert!(a.is_stopped() && b.is_stopped() && s.is_stopped());
}
