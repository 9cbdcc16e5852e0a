//! The `tracing` and `metrics` features, as a user sees them: the runtime's events reach
//! the installed `tracing` subscriber (spawns, stops with their reasons, kills, restarts,
//! panics, supervisors' decisions, dead letters, timers), and `System::publish_metrics`
//! hands the runtime's counters, and a named bounded actor's mailbox depth, to the
//! installed `metrics` recorder.

mod common;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
use footlights::{Actor, Context, SpawnOptions, System};
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt};
use tracing_subscriber::{Layer, Registry};

/// One event as the test saw it: its message and its fields, as text.
#[derive(Clone, Debug, Default)]
struct Seen {
    message: String,
    fields: Vec<(String, String)>,
}

impl Seen {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Visit for Seen {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        if field.name() == "message" {
            self.message = text;
        } else {
            self.fields.push((field.name().to_owned(), text));
        }
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message = value.to_owned();
        } else {
            self.fields
                .push((field.name().to_owned(), value.to_owned()));
        }
    }
}

/// Keeps every event of the target `footlights`.
struct Keep(Arc<Mutex<Vec<Seen>>>);

impl<S: tracing::Subscriber> Layer<S> for Keep {
    fn on_event(&self, event: &tracing::Event<'_>, _: LayerContext<'_, S>) {
        if event.metadata().target() == "footlights" {
            let mut seen = Seen::default();
            event.record(&mut seen);
            self.0.lock().unwrap().push(seen);
        }
    }
}

/// The events seen so far (the subscriber is the process's global one: the runtime's
/// threads emit them).
fn events() -> Arc<Mutex<Vec<Seen>>> {
    static EVENTS: OnceLock<Arc<Mutex<Vec<Seen>>>> = OnceLock::new();
    EVENTS
        .get_or_init(|| {
            let events = Arc::new(Mutex::new(Vec::new()));
            let subscriber = Registry::default().with(Keep(Arc::clone(&events)));
            tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
            events
        })
        .clone()
}

/// Panics on the message 0, counts the others.
struct Fragile;
impl Actor for Fragile {
    type Msg = u32;
    fn handle(&mut self, _: &mut Context<Self>, n: u32) {
        assert!(n != 0, "told to fail");
    }
}

struct Idle;
impl Actor for Idle {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

#[test]
fn the_runtimes_events_reach_the_subscriber() {
    let events = events();
    let system = System::builder()
        .threads(2)
        .cpus(2)
        .on_panic(|_| {})
        .build()
        .expect("a system");
    let idle = system.spawn(Idle);
    let supervisor = Supervisor::spawn(
        &system,
        Strategy::OneForOne,
        Intensity::new(3, Duration::from_secs(5)),
    );
    let fragile = supervisor.child(Restart::Permanent, || Fragile);
    fragile.send(0).expect("alive"); // panics, and is restarted
    fragile.send(1).expect("alive"); // handled by the new instance
    let timer = idle.send_after(Duration::from_millis(1), ());
    let killed = system.spawn(Idle);
    killed.kill();
    system.wait_quiescent();
    let deadline = std::time::Instant::now() + common::PATIENCE;
    while system.pending_timers() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the timer never fired"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    system.wait_quiescent();
    drop(timer);
    let _ = killed.send(()); // a dead letter? no: refused at the send, given back
    system.shutdown();

    let seen = events.lock().unwrap().clone();
    let with = |message: &str| seen.iter().filter(|e| e.message == message).count();
    assert!(with("spawned") >= 4, "spawns: {seen:?}");
    let panicked = seen
        .iter()
        .find(|e| e.message == "panicked")
        .unwrap_or_else(|| panic!("no panic event in {seen:?}"));
    assert_eq!(panicked.field("during"), Some("handle"));
    assert!(
        panicked
            .field("panic")
            .is_some_and(|m| m.contains("told to fail"))
    );
    assert!(with("restarted") >= 1, "{seen:?}");
    assert!(
        seen.iter()
            .any(|e| e.message == "supervisor" && e.field("decision") == Some("restart")),
        "{seen:?}"
    );
    assert!(
        seen.iter()
            .any(|e| e.message == "stopped" && e.field("reason") == Some("killed")),
        "{seen:?}"
    );
    assert!(with("timer fired") >= 1, "{seen:?}");
    assert!(
        seen.iter()
            .filter(|e| e.message == "spawned")
            .any(|e| e.field("actor").is_some_and(|a| a.contains("Fragile"))),
        "{seen:?}"
    );
}

/// Holds every message it gets until told to let go, so that its mailbox fills.
struct Slow(Arc<std::sync::Barrier>);
impl Actor for Slow {
    type Msg = u32;
    fn handle(&mut self, _: &mut Context<Self>, n: u32) {
        if n == 0 {
            self.0.wait();
        }
    }
}

#[test]
fn publish_metrics_hands_the_counters_to_the_recorder() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let system = common::system(2);
    let gate = Arc::new(std::sync::Barrier::new(2));
    let slow = system.spawn_with(Slow(Arc::clone(&gate)), SpawnOptions::new().capacity(16));
    system.register("slow", &slow).expect("a free name");
    slow.send(0).expect("room"); // blocks the actor's turn until the gate opens
    for n in 1..=5 {
        slow.send(n).expect("room");
    }
    let depth_while_blocked = metrics::with_local_recorder(&recorder, || {
        system.publish_metrics();
        gauge(
            &snapshotter.snapshot().into_vec(),
            "footlights_mailbox_depth",
        )
    });
    gate.wait();
    system.wait_quiescent();
    let expected = system.metrics();
    metrics::with_local_recorder(&recorder, || system.publish_metrics());
    let values = snapshotter.snapshot().into_vec();
    let counter = |name: &str| {
        values
            .iter()
            .find(|(key, _, _, _)| key.key().name() == name)
            .map(|(_, _, _, value)| match value {
                DebugValue::Counter(n) => *n,
                other => panic!("{name} is {other:?}"),
            })
            .unwrap_or_else(|| panic!("{name} not published"))
    };
    assert_eq!(
        counter("footlights_messages_handled_total"),
        expected.messages_handled()
    );
    assert_eq!(
        counter("footlights_messages_sent_total"),
        expected.messages_sent()
    );
    assert_eq!(
        counter("footlights_turns_total"),
        expected.all_threads().turns
    );
    assert_eq!(
        counter("footlights_parks_total"),
        expected.all_threads().parks
    );
    assert_eq!(expected.messages_handled(), 6);
    // Six were sent; the first is being handled (a bounded mailbox counts a message
    // until its turn has taken it), the others wait behind it.
    assert!(
        (5.0..=6.0).contains(&depth_while_blocked.expect("a depth")),
        "{depth_while_blocked:?}"
    );
}

fn gauge(
    values: &[(
        metrics_util::CompositeKey,
        Option<metrics::Unit>,
        Option<metrics::SharedString>,
        DebugValue,
    )],
    name: &str,
) -> Option<f64> {
    values
        .iter()
        .find(|(key, _, _, _)| key.key().name() == name)
        .map(|(_, _, _, v)| match v {
            DebugValue::Gauge(g) => g.into_inner(),
            other => panic!("{name} is {other:?}"),
        })
}
