//! The per-worker counters that say where a worker's time goes (issue 15, point 1):
//! phases, searches, steals, wake-ups and hand-offs that crossed threads. They are
//! checked by what must be true of them, never by how long anything took.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use footlights::{Actor, Addr, Context, Metrics, Placement, ReplyTo, System, reply};

mod common;
use common::PATIENCE;

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
    common::link_ring(&nodes, Msg::Link);
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

/// Passes tokens round a ring, recording which token each hop carried.
struct Relay {
    next: Option<Addr<Relay>>,
    log: Arc<Mutex<Vec<u8>>>,
}

enum RelayMsg {
    Link(Addr<Relay>),
    /// Sends each token to its actor, from this handler (so on the worker, in order).
    Launch(Vec<(Addr<Relay>, RelayMsg)>),
    Token(u8, u64, Option<ReplyTo<()>>),
}

impl Actor for Relay {
    type Msg = RelayMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: RelayMsg) {
        match msg {
            RelayMsg::Link(next) => self.next = Some(next),
            RelayMsg::Launch(tokens) => {
                for (to, token) in tokens {
                    let _ = to.send(token);
                }
            }
            RelayMsg::Token(id, left, done) => {
                self.log.lock().unwrap().push(id);
                if left == 0 {
                    if let Some(done) = done {
                        let _ = done.send(());
                    }
                    return;
                }
                let next = self.next.as_ref().expect("linked");
                let _ = next.send(RelayMsg::Token(id, left - 1, done));
            }
        }
    }
}

/// A lone worker runs the turns of a ring of one actor type one after another without
/// going back to its pick loop (a turn goes on in place with the next actor of its type):
/// every one of those turns is counted as the loop counts it, and two tokens still take
/// turns in FIFO order.
#[test]
fn turns_in_place_are_counted_and_keep_fifo_order() {
    let system = System::builder().threads(1).build().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let nodes: Vec<_> = (0..20)
        .map(|_| {
            system.spawn(Relay {
                next: None,
                log: Arc::clone(&log),
            })
        })
        .collect();
    common::link_ring(&nodes, RelayMsg::Link);
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let before = all(&system.metrics());
    let hops = 5_000;
    let (done, finished) = reply::pair();
    // Both tokens leave from one handler on the worker: the first wakes its actor into the
    // next slot, the second queues behind it.
    nodes[0]
        .send(RelayMsg::Launch(vec![
            (nodes[1].clone(), RelayMsg::Token(1, hops, Some(done))),
            (nodes[11].clone(), RelayMsg::Token(2, hops, None)),
        ]))
        .unwrap();
    finished.wait_timeout(PATIENCE).expect("ring done").unwrap();
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let after = all(&system.metrics());
    let handled = after.messages_handled - before.messages_handled;
    assert_eq!(
        handled,
        2 * (hops + 1) + 1,
        "the tokens' hops and the launch"
    );
    // One token per actor at a time: every turn handled one message.
    assert_eq!(after.turns - before.turns, handled);
    let log = log.lock().unwrap();
    assert_eq!(log.len() as u64, handled - 1);
    let expected: Vec<u8> = (0..log.len())
        .map(|k| if k % 2 == 0 { 1 } else { 2 })
        .collect();
    assert!(*log == expected, "the tokens did not alternate: {log:?}");
}

/// A turn whose batch is used up by the mailbox's last message ends as an empty turn
/// would: with a batch of one, a ring's token costs one turn a hop, not a second turn
/// behind each hop that finds nothing to handle.
#[test]
fn a_batch_used_up_by_the_last_message_runs_no_empty_turn_after_it() {
    let system = System::builder().threads(1).batch(1).build().unwrap();
    let nodes: Vec<_> = (0..50).map(|_| system.spawn(Node { next: None })).collect();
    common::link_ring(&nodes, Msg::Link);
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let before = all(&system.metrics());
    let hops = 10_000;
    let (done, finished) = reply::pair();
    nodes[0].send(Msg::Token(hops, done)).unwrap();
    finished.wait_timeout(PATIENCE).expect("ring done").unwrap();
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let after = all(&system.metrics());
    let handled = after.messages_handled - before.messages_handled;
    assert_eq!(handled, hops + 1, "the token's hops");
    assert_eq!(
        after.turns - before.turns,
        handled,
        "one turn a message, none empty"
    );
}
