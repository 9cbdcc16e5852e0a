//! big on kameo: workers ping random neighbours and wait for each pong.
//!
//! Every worker is a kameo actor. Main spawns them, tells each its neighbourhood (an
//! `Arc` of the `ActorRef`s of its `hood` workers, shared by the neighbourhood, and its
//! own position in it), then `ask`s the sink to `Run` the benchmark. The sink keeps the
//! reply for later (`DelegatedReply`) and tells every worker `Start`; mailboxes are FIFO
//! per sender and main's `Hood` messages went first, so no ping reaches a worker before it
//! knows its neighbours. A worker pings a uniformly random other member (itself if alone),
//! naming its own position so the pinged worker can tell the `Pong` back, and pings again
//! on each pong until it has `pings` pongs; then it tells the sink its pong count, and
//! keeps answering pings. When every worker has reported, the sink replies the total.

use std::sync::Arc;

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;

/// A worker.
#[derive(Actor)]
struct Worker {
    hood: Arc<[ActorRef<Worker>]>,
    me: usize,
    rng: SplitMix64,
    pings: u64,
    pongs: u64,
    sink: ActorRef<Sink>,
}

impl Worker {
    async fn ping(&mut self) {
        let others = self.hood.len() as u64 - 1;
        let target = if others == 0 {
            self.me
        } else {
            let pick = self.rng.below(others) as usize;
            if pick >= self.me { pick + 1 } else { pick }
        };
        self.hood[target]
            .tell(Ping(self.me))
            .await
            .expect("neighbour stopped");
    }

    async fn report(&self) {
        self.sink
            .tell(Done(self.pongs))
            .await
            .expect("sink stopped");
    }
}

/// The worker's neighbourhood, and its own position in it.
struct Hood(Arc<[ActorRef<Worker>]>, usize);

/// Start pinging.
struct Start;

/// A ping from the neighbour at this position.
struct Ping(usize);

/// The answer to this worker's ping.
struct Pong;

impl Message<Hood> for Worker {
    type Reply = ();

    async fn handle(&mut self, Hood(hood, me): Hood, _ctx: &mut Context<Self, ()>) {
        self.hood = hood;
        self.me = me;
    }
}

impl Message<Start> for Worker {
    type Reply = ();

    async fn handle(&mut self, _: Start, _ctx: &mut Context<Self, ()>) {
        if self.pings == 0 {
            self.report().await;
        } else {
            self.ping().await;
        }
    }
}

impl Message<Ping> for Worker {
    type Reply = ();

    async fn handle(&mut self, Ping(from): Ping, _ctx: &mut Context<Self, ()>) {
        self.hood[from].tell(Pong).await.expect("neighbour stopped");
    }
}

impl Message<Pong> for Worker {
    type Reply = ();

    async fn handle(&mut self, _: Pong, _ctx: &mut Context<Self, ()>) {
        self.pongs += 1;
        if self.pongs == self.pings {
            self.report().await;
        } else {
            self.ping().await;
        }
    }
}

/// The sink.
#[derive(Actor)]
struct Sink {
    waiting_for: usize,
    pongs: u64,
    reply: Option<ReplySender<u64>>,
}

/// Start every worker; reply the total pongs when all have reported.
struct Run(Vec<ActorRef<Worker>>);

/// A worker is done, having received this many pongs.
struct Done(u64);

impl Message<Run> for Sink {
    type Reply = DelegatedReply<u64>;

    async fn handle(
        &mut self,
        Run(workers): Run,
        ctx: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        self.waiting_for = workers.len();
        for worker in &workers {
            worker.tell(Start).await.expect("worker stopped");
        }
        delegated
    }
}

impl Message<Done> for Sink {
    type Reply = ();

    async fn handle(&mut self, Done(pongs): Done, _ctx: &mut Context<Self, ()>) {
        self.pongs += pongs;
        self.waiting_for -= 1;
        if self.waiting_for == 0
            && let Some(reply) = self.reply.take()
        {
            reply.send(self.pongs);
        }
    }
}

/// Runs `workers` workers in neighbourhoods of `hood`, each until it has `pings` pongs;
/// the check is the total the sink gathered.
pub async fn run(workers: u64, pings: u64, hood: u64) -> Result<Outcome, String> {
    let sink = Sink {
        waiting_for: 0,
        pongs: 0,
        reply: None,
    };
    let sink = Sink::spawn_with_mailbox(sink, mailbox::unbounded());
    let all: Vec<ActorRef<Worker>> = (0..workers)
        .map(|index| {
            let worker = Worker {
                hood: Arc::new([]),
                me: 0,
                rng: SplitMix64::new(index),
                pings,
                pongs: 0,
                sink: sink.clone(),
            };
            Worker::spawn_with_mailbox(worker, mailbox::unbounded())
        })
        .collect();
    for members in all.chunks(hood as usize) {
        let members: Arc<[ActorRef<Worker>]> = members.into();
        for (me, worker) in members.iter().enumerate() {
            worker
                .tell(Hood(members.clone(), me))
                .await
                .map_err(|e| format!("introducing neighbours: {e}"))?;
        }
    }
    let pongs = sink
        .ask(Run(all))
        .await
        .map_err(|e| format!("the sink did not answer: {e}"))?;
    Ok(Outcome::new(pongs))
}
