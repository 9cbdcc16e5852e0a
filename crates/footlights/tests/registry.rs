//! Names, as a user sees them: a name is registered once per system, looked up with its
//! actor's type checked (the wrong type is an error, not a panic), keeps its actor
//! reachable, and goes when its actor stops, however it stops, even when the stop races
//! the registration. No test here is timed: each waits for an outcome.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};

use footlights::{Actor, Context, LookupError, Placement, RegisterError, ReplyTo};

mod common;
use common::{block, quiet, system, system_quiet_on_panic};

/// Answers how many times it was asked; stops on `Stop`, panics on `Panic`.
struct Service {
    asked: u64,
    /// Dropped with the actor: a test sees the state freed.
    _alive: Option<Arc<()>>,
}

enum Msg {
    Ask(ReplyTo<u64>),
    Stop,
    Panic,
}

impl Actor for Service {
    type Msg = Msg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Ask(reply) => {
                self.asked += 1;
                let _ = reply.send(self.asked);
            }
            Msg::Stop => ctx.stop(),
            Msg::Panic => panic!("asked to panic"),
        }
    }
}

fn service() -> Service {
    Service {
        asked: 0,
        _alive: None,
    }
}

/// A service whose state holds a clone of `alive`, so a test sees when it is freed.
fn watched(alive: &Arc<()>) -> Service {
    Service {
        asked: 0,
        _alive: Some(Arc::clone(alive)),
    }
}

struct Other;
impl Actor for Other {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

#[test]
fn a_name_is_looked_up_with_its_type() {
    let system = system(2);
    let svc = system.spawn(service());
    system.register("svc", &svc).expect("free");
    let found = system.lookup::<Service>("svc").expect("registered");
    assert_eq!(found, svc, "the same actor");
    assert_eq!(found.ask(Msg::Ask).unwrap().wait().unwrap(), 1);

    match system.lookup::<Other>("svc") {
        Err(LookupError::WrongType {
            name,
            expected,
            found,
        }) => {
            assert_eq!(name, "svc");
            assert!(expected.ends_with("Other"), "{expected}");
            assert!(found.ends_with("Service"), "{found}");
        }
        other => panic!("expected WrongType, got {other:?}"),
    }
    assert_eq!(
        system.lookup::<Service>("nobody"),
        Err(LookupError::NotFound {
            name: "nobody".into()
        })
    );
}

#[test]
fn a_taken_name_is_an_error_and_the_holder_keeps_it() {
    let system = system(1);
    let first = system.spawn(service());
    let second = system.spawn(Other);
    system.register("x", &first).expect("free");
    let err = system.register("x", &second).unwrap_err();
    assert!(
        matches!(&err, RegisterError::Taken { name, actor } if name == "x" && actor.ends_with("Service")),
        "{err:?}"
    );
    assert!(err.to_string().contains("\"x\""), "{err}");
    assert!(
        matches!(
            system.register("x", &first),
            Err(RegisterError::Taken { .. })
        ),
        "the same actor twice under one name"
    );
    assert_eq!(system.lookup::<Service>("x").unwrap(), first);
}

/// A way to stop an actor.
type Stop = fn(&footlights::Addr<Service>);

#[test]
fn the_name_goes_when_the_actor_stops_however_it_stops() {
    let system = system_quiet_on_panic(2);
    let ways: [(&str, Stop); 4] = [
        ("handler stop", |a| a.send(Msg::Stop).unwrap()),
        ("addr stop", |a| a.stop()),
        ("kill", |a| a.kill()),
        ("panic", |a| a.send(Msg::Panic).unwrap()),
    ];
    for (way, stop) in ways {
        let svc = system.spawn(service());
        system.register("svc", &svc).expect(way);
        system.register(format!("also {way}"), &svc).expect(way);
        stop(&svc);
        quiet(&system);
        assert!(svc.is_stopped(), "{way}");
        assert!(
            matches!(
                system.lookup::<Service>("svc"),
                Err(LookupError::NotFound { .. })
            ),
            "{way}: the name went with the actor"
        );
        assert!(system.names().is_empty(), "{way}: {:?}", system.names());
        // The name is free for a successor.
        let next = system.spawn(service());
        system.register("svc", &next).expect(way);
        assert!(system.unregister("svc"), "{way}");
    }
}

#[test]
fn a_name_keeps_its_actor_reachable_until_it_is_taken_out() {
    let system = system(2);
    let alive = Arc::new(());
    let svc = system.spawn(watched(&alive));
    system.register("svc", &svc).unwrap();
    drop(svc);
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 1, "named: not collected");
    let svc = system.lookup::<Service>("svc").unwrap();
    assert_eq!(svc.ask(Msg::Ask).unwrap().wait().unwrap(), 1);
    drop(svc);

    assert!(system.unregister("svc"));
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0, "collected once unnamed");
    assert_eq!(Arc::strong_count(&alive), 1, "and its state freed");
}

#[test]
fn a_stopped_actor_cannot_be_named() {
    let system = system(1);
    let svc = system.spawn(service());
    svc.stop();
    assert!(matches!(
        system.register("late", &svc),
        Err(RegisterError::Stopped { .. })
    ));
    quiet(&system);
    assert!(matches!(
        system.register("later", &svc),
        Err(RegisterError::Stopped { .. })
    ));
    assert!(system.names().is_empty());
}

/// Registers itself under a name when it starts, and hands it to a successor when it
/// stops.
struct Leader {
    generation: u32,
    started: Arc<AtomicU64>,
}

impl Actor for Leader {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.register("leader").expect("the name is free");
        self.started.fetch_add(1, Ordering::SeqCst);
    }
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        ctx.stop();
    }
    fn stopped(&mut self, ctx: &mut Context<Self>) {
        if self.generation < 3 {
            drop(ctx.spawn(Leader {
                generation: self.generation + 1,
                started: Arc::clone(&self.started),
            }));
        }
    }
}

#[test]
fn a_stopped_hook_can_hand_its_name_to_a_successor() {
    let system = system(2);
    let started = Arc::new(AtomicU64::new(0));
    drop(system.spawn(Leader {
        generation: 0,
        started: Arc::clone(&started),
    }));
    for generation in 0..=3 {
        quiet(&system);
        assert_eq!(started.load(Ordering::SeqCst), generation + 1);
        let leader = system.lookup::<Leader>("leader").expect("a leader");
        leader.send(()).unwrap();
    }
    quiet(&system);
    assert!(system.lookup::<Leader>("leader").is_err());
    assert_eq!(system.metrics().live_actors(), 0);
}

#[test]
fn registrations_racing_stops_leave_no_name_behind() {
    let system = system(2);
    let rounds = 2000;
    let barrier = Barrier::new(2);
    let addrs: Vec<_> = (0..rounds).map(|_| system.spawn(service())).collect();
    let (registered, refused) = std::thread::scope(|s| {
        let registrar = s.spawn(|| {
            barrier.wait();
            let mut registered = 0;
            let mut refused = 0;
            for (i, addr) in addrs.iter().enumerate() {
                match system.register(format!("n{i}"), addr) {
                    Ok(()) => registered += 1,
                    Err(RegisterError::Stopped { .. }) => refused += 1,
                    Err(e) => panic!("{e}"),
                }
            }
            (registered, refused)
        });
        barrier.wait();
        for addr in &addrs {
            addr.kill();
        }
        registrar.join().unwrap()
    });
    assert_eq!(registered + refused, rounds);
    quiet(&system);
    assert!(addrs.iter().all(|a| a.is_stopped()));
    assert_eq!(
        system.names(),
        Vec::<String>::new(),
        "{registered} registered, {refused} refused; every actor stopped"
    );
}

#[test]
fn each_system_has_its_own_names() {
    let one = system(1);
    let two = system(1);
    one.register("svc", &one.spawn(service())).unwrap();
    two.register("svc", &two.spawn(Other)).unwrap();
    assert!(one.lookup::<Service>("svc").is_ok());
    assert!(two.lookup::<Other>("svc").is_ok());
}

#[test]
fn shutdown_stops_named_actors_and_frees_them() {
    let system = system(2);
    let alive = Arc::new(());
    let svc = system.spawn(watched(&alive));
    system.register("svc", &svc).unwrap();
    drop(svc);
    // Another, busy when the shutdown begins, with a message still queued.
    let (blocker, open) = block(&system, Placement::Default);
    system.register("busy", &blocker).unwrap();
    blocker.send(()).unwrap();
    drop(blocker);
    // Let it go soon; the outcome is the same whether the shutdown began before or after
    // (a shutdown waits for a running handler).
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        drop(open);
    });
    let report = system.shutdown();
    assert_eq!(report.live_actors, 0);
    assert_eq!(
        Arc::strong_count(&alive),
        1,
        "no name kept an actor (or the system) alive"
    );
    releaser.join().unwrap();
}
