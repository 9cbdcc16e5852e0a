//! A chatty group on several workers (issue 15, point 2): a hub and its clients, which a
//! worker may run alone in FIFO order while the others sleep, and which a worker gives back
//! before it parks when its steal by groups declines to split the group (`scheduler/group.rs`). Whatever the
//! scheduler decides, every request is answered, nothing is left queued, and a worker
//! that gave its work back counted it as a park. And on two workers, the give-back does
//! happen: a worker gives its work back (a *yield*) in most systems, so a bounded number
//! of fresh systems must show one. Nothing here is timed.

use std::time::Duration;

use footlights::{Actor, Addr, Context, ReplyTo, System, reply};

/// Generous: only a guard against a hang.
const PATIENCE: Duration = Duration::from_secs(120);

/// Answers every request at once (chameneos's meeting place, reduced to its traffic).
struct Hub;

struct Ask(Addr<Client>);

impl Actor for Hub {
    type Msg = Ask;
    fn handle(&mut self, _: &mut Context<Self>, Ask(client): Ask) {
        let _ = client.send(ClientMsg::Answer);
    }
}

/// Asks the hub again each time it is answered, `left` times, then reports.
struct Client {
    hub: Addr<Hub>,
    left: u64,
    answered: u64,
    done: Option<ReplyTo<u64>>,
}

enum ClientMsg {
    Go(Addr<Client>, ReplyTo<u64>),
    Answer,
}

impl Actor for Client {
    type Msg = ClientMsg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: ClientMsg) {
        match msg {
            ClientMsg::Go(me, done) => {
                self.done = Some(done);
                let _ = self.hub.send(Ask(me));
            }
            ClientMsg::Answer => {
                self.answered += 1;
                self.left -= 1;
                if self.left == 0 {
                    if let Some(done) = self.done.take() {
                        let _ = done.send(self.answered);
                    }
                    ctx.stop();
                } else {
                    let _ = self.hub.send(Ask(ctx.addr()));
                }
            }
        }
    }
}

/// Runs `clients` clients of one hub, `asks` requests each, on `threads` workers; returns
/// the system to look at.
fn hub_and_clients(threads: usize, clients: usize, asks: u64) -> System {
    let system = System::builder().threads(threads).build().unwrap();
    let hub = system.spawn(Hub);
    let mut replies = Vec::new();
    for _ in 0..clients {
        let client = system.spawn(Client {
            hub: hub.clone(),
            left: asks,
            answered: 0,
            done: None,
        });
        let (done, answered) = reply::pair();
        client.send(ClientMsg::Go(client.clone(), done)).unwrap();
        replies.push(answered);
    }
    for answered in replies {
        let n = answered
            .wait_timeout(PATIENCE)
            .expect("a client was answered")
            .unwrap();
        assert_eq!(n, asks, "every request is answered once");
    }
    assert!(system.wait_quiescent_timeout(PATIENCE));
    system
}

/// Nothing is left pending, and every give-back was counted as a park.
fn settled(system: System) {
    let m = system.metrics();
    assert_eq!(m.messages_pending(), 0);
    for w in &m.workers {
        assert!(w.yields <= w.parks, "a give-back is a park: {w:?}");
    }
    system.shutdown();
}

/// Fresh systems tried until one gives its work back.
const ATTEMPTS: usize = 40;

#[test]
fn a_hub_and_its_clients_finish_on_two_workers_and_give_back() {
    // Whether a worker gives back depends on its steals back (they start the labels,
    // `scheduler/governor/pace.rs`) and then on whether a steal finds the group whole, so on
    // how the operating system runs the two workers. A system
    // whose second worker stays asleep (the hub's backlog taught the wake threshold not to
    // wake it) has nothing to give back; one whose two workers share the group does. In a
    // release build about one system in five gives back (15 runs of this test on a 2-core
    // machine, 2026-11-28: 15 give-backs in 79 systems), so 40 systems all without one
    // happen about once in 5,000 runs; with one CPU to run them on, the test cannot tell.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut yields = Vec::new();
    for _ in 0..ATTEMPTS {
        let system = hub_and_clients(2, 70, 20_000);
        yields.push(system.metrics().all_threads().yields);
        settled(system);
        if cpus < 2 || yields.iter().sum::<u64>() > 0 {
            break;
        }
    }
    eprintln!("give-backs per system: {yields:?}");
    assert!(
        cpus < 2 || yields.iter().sum::<u64>() > 0,
        "no worker gave its work back in {ATTEMPTS} systems: {yields:?}"
    );
}

#[test]
fn a_hub_and_its_clients_finish_on_more_workers_than_cores() {
    for threads in [3, 8] {
        settled(hub_and_clients(threads, 40, 2_000));
    }
}

#[test]
fn repeated_short_programs_on_two_workers_never_strand_work() {
    // Many small runs: each starts with a fresh pace (no epoch alone yet), so the workers
    // go through waking, parking and FIFO order many times over.
    for _ in 0..50 {
        settled(hub_and_clients(2, 8, 300));
    }
}
