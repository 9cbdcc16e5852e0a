//! Criterion benchmarks of the runtime's basic costs: a hop round a ring on one worker, a
//! tell between actors on two workers (beside the floor it is held to: a message through
//! an unbounded crossbeam channel between two threads, measured in the same run), a
//! request/reply round trip, and a spawn.
//!
//! Run with `cargo bench -p footlights --bench messaging`. Each benchmark measures many
//! operations per sample (`iter_custom`) and reports time per operation. The figures and
//! the targets they are held to are in `docs/performance.md`.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use footlights::{Actor, Addr, Context, Placement, ReplyTo, System, reply};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PATIENCE: Duration = Duration::from_secs(120);

fn system(threads: usize) -> System {
    System::builder().threads(threads).build().expect("system")
}

// ---- a hop round a ring ------------------------------------------------------------------

struct RingNode {
    next: Option<Addr<RingNode>>,
}

enum Ring {
    Link(Addr<RingNode>),
    Token(u64, ReplyTo<()>),
}

impl Actor for RingNode {
    type Msg = Ring;
    fn handle(&mut self, _: &mut Context<Self>, msg: Ring) {
        match msg {
            Ring::Link(next) => self.next = Some(next),
            Ring::Token(0, done) => {
                let _ = done.send(());
            }
            Ring::Token(n, done) => {
                let next = self.next.as_ref().expect("linked");
                let _ = next.send(Ring::Token(n - 1, done));
            }
        }
    }
}

fn ring_hop(c: &mut Criterion) {
    let system = system(1);
    let nodes: Vec<_> = (0..503)
        .map(|_| system.spawn(RingNode { next: None }))
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        n.send(Ring::Link(nodes[(i + 1) % nodes.len()].clone()))
            .unwrap();
    }
    let mut g = c.benchmark_group("ring");
    g.throughput(Throughput::Elements(1));
    g.bench_function("hop_503_actors_1_worker", |b| {
        b.iter_custom(|iters| {
            let (done, finished) = reply::pair();
            let start = Instant::now();
            nodes[0].send(Ring::Token(iters, done)).unwrap();
            finished
                .wait_timeout(PATIENCE)
                .expect("ring finished")
                .unwrap();
            start.elapsed()
        })
    });
    g.finish();
}

// ---- tell between two workers -------------------------------------------------------------

#[path = "shared/tell.rs"]
mod tell;
use tell::{Producer, Receiver, Recv};

fn tell(c: &mut Criterion) {
    let mut g = c.benchmark_group("tell");
    g.throughput(Throughput::Elements(1));
    // Where the runtime puts them (the receiver may or may not be stolen), and pinned to
    // two stages, so that every message crosses between the workers.
    for (name, receiver_at, producer_at) in [
        ("two_workers", Placement::Default, Placement::Default),
        (
            "two_workers_pinned",
            Placement::Stage(1),
            Placement::Stage(0),
        ),
    ] {
        tell_one(&mut g, name, receiver_at, producer_at);
    }
    crossbeam_channel_two_threads(&mut g);
    g.finish();
}

fn tell_one(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    receiver_at: Placement,
    producer_at: Placement,
) {
    let system = system(2);
    let receiver = system.spawn_placed(
        Receiver {
            left: 0,
            done: None,
        },
        receiver_at,
    );
    let producer = system.spawn_placed(
        Producer {
            to: receiver.clone(),
        },
        producer_at,
    );
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let (done, finished) = reply::pair();
            receiver.send(Recv::Expect(iters, done)).unwrap();
            system.wait_quiescent();
            let start = Instant::now();
            producer.send(iters).unwrap();
            finished.wait_timeout(PATIENCE).expect("all told").unwrap();
            start.elapsed()
        })
    });
}

/// The floor a tell between two workers is held to (issue 15): the same stream of `u64`s
/// from one thread to another through an unbounded crossbeam channel. As in `tell_one`, a
/// producer thread sends `iters` items in a row and the time runs until the receiver
/// thread has taken the last one; both threads live for the whole benchmark, and the
/// receiver blocks in `recv` (parks) whenever the channel is empty.
fn crossbeam_channel_two_threads(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
) {
    let (items, items_out) = crossbeam_channel::unbounded::<u64>();
    let (expect, expect_out) = crossbeam_channel::unbounded::<u64>();
    let (go, go_out) = crossbeam_channel::unbounded::<u64>();
    let (done, finished) = crossbeam_channel::unbounded::<()>();
    let receiver = std::thread::spawn(move || {
        while let Ok(n) = expect_out.recv() {
            for _ in 0..n {
                std::hint::black_box(items_out.recv().expect("the producer lives"));
            }
            done.send(()).expect("the benchmark waits");
        }
    });
    let producer = std::thread::spawn(move || {
        while let Ok(n) = go_out.recv() {
            for i in 0..n {
                items.send(i).expect("the receiver lives");
            }
        }
    });
    g.bench_function("crossbeam_unbounded_two_threads", |b| {
        b.iter_custom(|iters| {
            expect.send(iters).expect("the receiver lives");
            let start = Instant::now();
            go.send(iters).expect("the producer lives");
            finished.recv_timeout(PATIENCE).expect("all items received");
            start.elapsed()
        })
    });
    drop((expect, go));
    producer.join().expect("the producer thread");
    receiver.join().expect("the receiver thread");
}

// ---- request/reply ------------------------------------------------------------------------

struct Ponger;

impl Actor for Ponger {
    type Msg = ReplyTo<u64>;
    fn handle(&mut self, _: &mut Context<Self>, reply: ReplyTo<u64>) {
        let _ = reply.send(1);
    }
}

/// Asks the ponger `n` times in a row, each time continuing on the reply.
struct Pinger {
    ponger: Addr<Ponger>,
}

enum Ping {
    Run(u64, ReplyTo<()>),
}

impl Pinger {
    fn next(&self, ctx: &mut Context<Self>, left: u64, done: ReplyTo<()>) {
        if left == 0 {
            let _ = done.send(());
            return;
        }
        let pong = self.ponger.ask(|r| r).expect("ponger alive");
        ctx.then(pong, move |me, ctx, _| me.next(ctx, left - 1, done));
    }
}

impl Actor for Pinger {
    type Msg = Ping;
    fn handle(&mut self, ctx: &mut Context<Self>, Ping::Run(n, done): Ping) {
        self.next(ctx, n, done);
    }
}

fn request_reply(c: &mut Criterion) {
    let mut g = c.benchmark_group("request_reply");
    g.throughput(Throughput::Elements(1));
    for threads in [1, 2] {
        let system = system(threads);
        let ponger = system.spawn(Ponger);
        let pinger = system.spawn(Pinger { ponger });
        g.bench_function(format!("round_trip_{threads}_workers"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                pinger
                    .ask(|done| Ping::Run(iters, done))
                    .unwrap()
                    .wait_timeout(PATIENCE)
                    .expect("pings done")
                    .unwrap();
                start.elapsed()
            })
        });
    }
    g.finish();
}

// ---- spawn --------------------------------------------------------------------------------

struct Idle;

impl Actor for Idle {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Spawns `n` idle actors from inside a handler and keeps their addresses.
struct Spawner {
    children: Vec<Addr<Idle>>,
}

impl Actor for Spawner {
    type Msg = (u64, ReplyTo<Vec<Addr<Idle>>>);
    fn handle(&mut self, ctx: &mut Context<Self>, (n, done): Self::Msg) {
        self.children.reserve(n as usize);
        for _ in 0..n {
            self.children.push(ctx.spawn(Idle));
        }
        let _ = done.send(std::mem::take(&mut self.children));
    }
}

fn spawn(c: &mut Criterion) {
    let mut g = c.benchmark_group("spawn");
    g.throughput(Throughput::Elements(1));
    let system = system(1);
    let spawner = system.spawn(Spawner {
        children: Vec::new(),
    });
    // Time from the request until every new actor has run its first turn.
    g.bench_function("spawn_and_start_1_worker", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            let children = spawner
                .ask(|done| (iters, done))
                .unwrap()
                .wait_timeout(PATIENCE)
                .expect("spawned")
                .unwrap();
            system.wait_quiescent();
            let elapsed = start.elapsed();
            drop(children);
            system.wait_quiescent();
            elapsed
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    targets = ring_hop, tell, request_reply, spawn
}
criterion_main!(benches);
