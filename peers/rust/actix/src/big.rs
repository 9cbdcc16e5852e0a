//! big on actix: workers ping random neighbours and wait for each pong.
//!
//! Every worker is an actix actor. Neighbourhoods are independent of each other, and the
//! members of one ping each other all the time, so neighbourhood `h` lives on arbiter
//! `h mod k` (at the quick parameters, one neighbourhood of 500: all on main's arbiter).
//! Main starts the sink (holding the channel for the answer, on main's arbiter) and the
//! workers, `do_send`s each worker its
//! neighbourhood (an `Arc` of the `Addr`s of its `hood` workers, shared by the
//! neighbourhood, and its own position in it), and only then `Start`: a mailbox is FIFO
//! per sender, so no ping can reach a worker before it knows its neighbours. A worker
//! pings a uniformly random other member (itself if alone), naming its own position so
//! the pinged worker can send the `Pong` back, and pings again on each pong until it has
//! `pings` pongs. Then it sends its pong count to the sink, and keeps answering pings. The
//! sink adds the reports and sends the total to main once every worker has reported.

use std::sync::Arc;

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// A worker.
struct Worker {
    hood: Arc<[Addr<Worker>]>,
    me: usize,
    rng: SplitMix64,
    pings: u64,
    pongs: u64,
    sink: Addr<Sink>,
}

impl Worker {
    fn ping(&mut self) {
        let others = self.hood.len() as u64 - 1;
        let target = if others == 0 {
            self.me
        } else {
            let pick = self.rng.below(others) as usize;
            if pick >= self.me { pick + 1 } else { pick }
        };
        self.hood[target].do_send(Ping(self.me));
    }

    fn report(&self) {
        self.sink.do_send(Done(self.pongs));
    }
}

impl Actor for Worker {
    type Context = Context<Self>;
}

/// The worker's neighbourhood, and its own position in it.
#[derive(Message)]
#[rtype(result = "()")]
struct Hood(Arc<[Addr<Worker>]>, usize);

/// Start pinging.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

/// A ping from the neighbour at this position.
#[derive(Message)]
#[rtype(result = "()")]
struct Ping(usize);

/// The answer to this worker's ping.
#[derive(Message)]
#[rtype(result = "()")]
struct Pong;

impl Handler<Hood> for Worker {
    type Result = ();

    fn handle(&mut self, Hood(hood, me): Hood, _ctx: &mut Context<Self>) {
        self.hood = hood;
        self.me = me;
    }
}

impl Handler<Start> for Worker {
    type Result = ();

    fn handle(&mut self, _: Start, _ctx: &mut Context<Self>) {
        if self.pings == 0 {
            self.report();
        } else {
            self.ping();
        }
    }
}

impl Handler<Ping> for Worker {
    type Result = ();

    fn handle(&mut self, Ping(from): Ping, _ctx: &mut Context<Self>) {
        self.hood[from].do_send(Pong);
    }
}

impl Handler<Pong> for Worker {
    type Result = ();

    fn handle(&mut self, _: Pong, _ctx: &mut Context<Self>) {
        self.pongs += 1;
        if self.pongs == self.pings {
            self.report();
        } else {
            self.ping();
        }
    }
}

/// The sink.
struct Sink {
    waiting_for: u64,
    pongs: u64,
    answer: Option<oneshot::Sender<u64>>,
}

impl Actor for Sink {
    type Context = Context<Self>;
}

/// A worker is done, having received this many pongs.
#[derive(Message)]
#[rtype(result = "()")]
struct Done(u64);

impl Handler<Done> for Sink {
    type Result = ();

    fn handle(&mut self, Done(pongs): Done, ctx: &mut Context<Self>) {
        self.pongs += pongs;
        self.waiting_for -= 1;
        if self.waiting_for == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.pongs);
            }
            ctx.stop();
        }
    }
}

/// Runs `workers` workers in neighbourhoods of `hood`, each until it has `pings` pongs;
/// the check is the total the sink gathered.
pub async fn run(workers: u64, pings: u64, hood: u64) -> Result<Outcome, String> {
    let (answer, total) = oneshot::channel();
    let sink = Sink {
        waiting_for: workers,
        pongs: 0,
        answer: Some(answer),
    }
    .start();
    let all: Vec<Addr<Worker>> = (0..workers)
        .map(|index| {
            let sink = sink.clone();
            arbiters::start_on((index / hood) as usize, move |_| Worker {
                hood: Arc::new([]),
                me: 0,
                rng: SplitMix64::new(index),
                pings,
                pongs: 0,
                sink,
            })
        })
        .collect();
    for members in all.chunks(hood as usize) {
        let members: Arc<[Addr<Worker>]> = members.into();
        for (me, worker) in members.iter().enumerate() {
            worker.do_send(Hood(members.clone(), me));
        }
    }
    for worker in &all {
        worker.do_send(Start);
    }
    let pongs = total
        .await
        .map_err(|_| "the sink stopped before every worker reported")?;
    Ok(Outcome::new(pongs))
}
