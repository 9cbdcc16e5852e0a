//! The per-worker counters that say where a worker's time goes (issue 15, point 1):
//! phases, searches, steals, wake-ups and hand-offs that crossed threads. They are
//! checked by what must be true of them, never by how long anything took.

use std::time::Duration;

use footlights::{Actor, Addr, Context, Metrics, Placement, ReplyTo, System, reply};

/// Generous: only a guard against a hang.
const PATIENCE: Duration = Duration::from_secs(60);

struct Node {
    next: Option<Addr<Node>>,
}

enum Msg {
    Link(Addr<Node>),
    Token(u64, ReplyTo<()>),
}

impl Actor for Node {
    type Msg = Msg;
    fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Link(next) => self.next = Some(next),
            Msg::Token(0, done) => {
                let _ = done.send(());
            }
            Msg::Token(t, done) => {
                let _ = self
                    .next
                    .as_ref()
                    .expect("linked")
                    .send(Msg::Token(t - 1, done));
            }
        }
    }
}

/// Passes a token `hops` times round a ring of `size` actors, from outside.
fn ring(system: &System, size: usize, hops: u64) -> Vec<Addr<Node>> {
    let nodes: Vec<_> = (0..size)
        .map(|_| system.spawn(Node { next: None }))
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        n.send(Msg::Link(nodes[(i + 1) % size].clone())).unwrap();
    }
    let (done, finished) = reply::pair();
    nodes[0].send(Msg::Token(hops, done)).unwrap();
    finished.wait_timeout(PATIENCE).expect("ring done").unwrap();
    assert!(system.wait_quiescent_timeout(PATIENCE));
    nodes
}

fn all(m: &Metrics) -> footlights::WorkerMetrics {
    m.all_threads()
}

#[test]
fn a_lone_worker_never_steals_wakes_anybody_or_hands_off_across_threads() {
    let system = System::builder().threads(1).build().unwrap();
    let _nodes = ring(&system, 50, 10_000);
    let w = all(&system.metrics());
    assert!(w.messages_handled >= 10_000);
    assert_eq!(w.steals, 0);
    assert_eq!(w.tasks_stolen, 0);
    assert_eq!(w.wakes, 0, "there is nobody to wake");
    assert_eq!(w.crossed_handoffs(), 0);
}

/// Forwards what it gets to a receiver pinned to another stage.
struct Producer {
    to: Addr<Sink>,
}

impl Actor for Producer {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, n: u64) {
        let _ = self.to.send(n);
    }
}

struct Sink;

impl Actor for Sink {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, _: u64) {}
}

#[test]
fn pushes_to_another_stage_count_as_crossed_hand_offs() {
    let system = System::builder().threads(2).build().unwrap();
    let sink = system.spawn_placed(Sink, Placement::Stage(1));
    let producer = system.spawn_placed(Producer { to: sink }, Placement::Stage(0));
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let before = system.metrics().workers[0].tasks_pushed_out;
    for n in 0..10 {
        // The sink is idle (the system is quiescent): the producer's send on stage 0
        // wakes it, which pushes it onto stage 1's inbox.
        producer.send(n).unwrap();
        assert!(system.wait_quiescent_timeout(PATIENCE));
    }
    let m = system.metrics();
    assert_eq!(m.workers[0].tasks_pushed_out - before, 10);
    assert_eq!(
        m.workers[0].tasks_stolen, 0,
        "pinned actors are never stolen"
    );
    assert_eq!(
        m.workers[0].crossed_handoffs(),
        m.workers[0].tasks_pushed_out
    );
    assert_eq!(m.workers[1].messages_handled, 10);
}

#[test]
fn every_worker_accounts_for_its_time_and_the_table_has_a_line_each() {
    // Both workers start and may run pool work, whatever the machine's CPUs.
    let system = System::builder().threads(2).cpus(2).build().unwrap();
    let _nodes = ring(&system, 100, 20_000);
    // Wait (a hang guard, not a timing) until every worker has parked at least once: by
    // then it has run, searched in vain and parked, so each phase has been accounted.
    let deadline = std::time::Instant::now() + PATIENCE;
    while !system.metrics().workers.iter().all(|w| w.parks > 0) {
        assert!(std::time::Instant::now() < deadline, "workers never parked");
        std::thread::sleep(Duration::from_millis(5));
    }
    let m = system.metrics();
    for w in &m.workers {
        assert!(
            w.searches >= 1 && w.searches_failed >= 1,
            "searched before parking"
        );
        assert!(w.searches_failed <= w.searches);
        assert!(w.running + w.searching > Duration::ZERO);
        assert!(w.waking <= w.running || w.wakes == 0);
        assert!(
            w.tasks_stolen >= w.steals,
            "a steal moves at least one task"
        );
    }
    let table = m.to_string();
    assert_eq!(table.lines().count(), 1 + m.workers.len());
    assert!(table.lines().next().unwrap().contains("searching"));
}

/// A token passed round a ring is a chain of hand-offs with nothing behind it: on two
/// workers it stays on the worker that took it, wakes nobody and is never stolen, however
/// long the chain (longer than the next slot's streak limit).
#[test]
fn a_chain_of_hand_offs_wakes_nobody_and_stays_on_its_worker() {
    let system = System::builder().threads(2).build().unwrap();
    let nodes = ring(&system, 50, 10); // set up, linked, quiescent
    let before = system.metrics();
    let (done, finished) = reply::pair();
    nodes[0].send(Msg::Token(50_000, done)).unwrap();
    finished.wait_timeout(PATIENCE).expect("ring done").unwrap();
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let after = system.metrics();
    let sum = |m: &Metrics, f: fn(&footlights::WorkerMetrics) -> u64| -> u64 {
        m.workers.iter().map(f).sum()
    };
    assert_eq!(
        sum(&after, |w| w.wakes),
        sum(&before, |w| w.wakes),
        "no wake-up"
    );
    assert_eq!(
        sum(&after, |w| w.tasks_stolen),
        sum(&before, |w| w.tasks_stolen),
        "no steal"
    );
    let handled: Vec<u64> = after
        .workers
        .iter()
        .zip(&before.workers)
        .map(|(a, b)| a.messages_handled - b.messages_handled)
        .collect();
    assert!(
        handled.contains(&50_001),
        "one worker handled every hop: {handled:?}"
    );
}
