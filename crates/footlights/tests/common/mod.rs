//! What the integration tests share: how long to wait before a hang becomes a failure, a
//! system, waiting for quiescence, an actor that holds the worker it runs on, and a hub with
//! its clients ([`hub`]).
#![allow(dead_code)] // each test file uses its own part of this

use std::sync::mpsc;
use std::time::Duration;

use footlights::{Actor, Addr, Context, Placement, System};

pub mod hub;

/// How long a test waits for an outcome before it fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Links `nodes` into a ring: each is sent `link` with the next one's address, the last
/// with the first's.
pub fn link_ring<A: Actor>(nodes: &[Addr<A>], link: impl Fn(Addr<A>) -> A::Msg) {
    for (i, node) in nodes.iter().enumerate() {
        let next = nodes[(i + 1) % nodes.len()].clone();
        assert!(
            node.send(link(next)).is_ok(),
            "ring node {i} refused its link"
        );
    }
}

/// A system of `threads` workers, everything else from the environment and defaults,
/// but for the CPUs it counts on: as many as its workers, so that every worker may run
/// pool work at once whatever machine the tests run on (tests hold workers with
/// [`Blocker`] and expect the others to go on; on a machine with fewer CPUs than workers
/// the runtime would otherwise keep the extra workers for pinned work, see
/// `Builder::cpus`).
pub fn system(threads: usize) -> System {
    System::builder()
        .threads(threads)
        .cpus(threads)
        .build()
        .expect("a system starts")
}

/// A system of `threads` workers whose panic hook prints nothing: for tests that make
/// handlers panic on purpose.
pub fn system_quiet_on_panic(threads: usize) -> System {
    System::builder()
        .threads(threads)
        .cpus(threads)
        .on_panic(|_| {})
        .build()
        .expect("a system starts")
}

/// Waits until `system` is quiescent, or fails the test.
pub fn quiet(system: &System) {
    assert!(
        system.wait_quiescent_timeout(PATIENCE),
        "the system did not become quiescent"
    );
}

/// Blocks in its handler until the test lets it go.
pub struct Blocker {
    pub gate: mpsc::Receiver<()>,
    pub entered: mpsc::Sender<()>,
}

impl Actor for Blocker {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {
        let _ = self.entered.send(());
        let _ = self.gate.recv_timeout(PATIENCE);
    }
}

/// Spawns a [`Blocker`] where `placement` says and waits until it holds its worker;
/// returns it, and the sender that lets it go (dropping the sender does too).
pub fn block(system: &System, placement: Placement) -> (Addr<Blocker>, mpsc::Sender<()>) {
    let (open, gate) = mpsc::channel();
    let (entered, inside) = mpsc::channel();
    let blocker = system.spawn_placed(Blocker { gate, entered }, placement);
    blocker.send(()).expect("the blocker runs");
    inside
        .recv_timeout(PATIENCE)
        .expect("the blocker holds its worker");
    (blocker, open)
}

/// Waits until `system` has `live` actors, or fails the test. For actors whose last
/// address a thread outside the runtime may still hold for a moment after quiescence
/// (a reactor's thread waking a future that has just completed drops its waker, an
/// address, only after the wake-up), so that quiescence alone does not settle the count.
pub fn until_live(system: &System, live: u64) {
    let deadline = std::time::Instant::now() + PATIENCE;
    while system.metrics().live_actors() != live {
        assert!(
            std::time::Instant::now() < deadline,
            "{} live actors, not {live}",
            system.metrics().live_actors()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}
