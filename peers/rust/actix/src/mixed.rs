//! mixed on actix: rings of short-lived actors pass tokens while workers factorise.
//!
//! Four kinds of actix actor. The rings are independent of each other, so ring `r` (its
//! master, its worker and every chain actor the master starts) lives on arbiter `r mod k`,
//! and the collector on main's arbiter; inside a ring no token crosses threads. Each of
//! the `rings` masters owns one worker; every repetition it `do_send`s the worker `Calc`,
//! starts `ring_size - 1` fresh chain actors on its own arbiter in a ring behind itself
//! (started back to
//! front, so each knows its successor from the start and the last one points at the
//! master), and sends `token` to the first. A chain actor forwards every token unchanged
//! and stops after forwarding 0. The master sends `t - 1` round again for each `t > 0` it
//! gets back, and on 0 (the whole chain has ended) starts the next repetition, or after
//! the last one tells the collector it is done. The master keeps the addresses of its
//! ring's chain actors for the repetition: actix stops an actor once no `Addr` to it is
//! left, even with a token on its way, and each chain actor drops its successor's address
//! when it stops after forwarding 0.
//!
//! A worker factorises 28350160440309881 by trial division inside its handler and sends
//! the factors to the one shared collector, which counts the factorisations it can
//! verify. An actix actor cannot leave its arbiter, so while a worker computes, the other
//! actors on that arbiter wait (actix's `SyncArbiter` would run it on extra threads, which
//! `ACTIX_THREADS` does not count, so the workers are ordinary actors). The run ends when
//! the collector has a result for every repetition and every master is done; it sends the
//! number of verified factorisations to main.

use actix::prelude::*;
use peer_kernels::factor::{TARGET, factorise, is_verified};
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// The collector.
struct Collector {
    results_left: u64,
    masters_left: u64,
    verified: u64,
    answer: Option<oneshot::Sender<u64>>,
}

impl Collector {
    fn finish_if_done(&mut self, ctx: &mut Context<Self>) {
        if self.results_left == 0 && self.masters_left == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.verified);
            }
            ctx.stop();
        }
    }
}

impl Actor for Collector {
    type Context = Context<Self>;
}

/// A worker's factorisation.
#[derive(Message)]
#[rtype(result = "()")]
struct Factors(Vec<u64>);

/// A master finished all its repetitions.
#[derive(Message)]
#[rtype(result = "()")]
struct MasterDone;

impl Handler<Factors> for Collector {
    type Result = ();

    fn handle(&mut self, Factors(factors): Factors, ctx: &mut Context<Self>) {
        self.results_left -= 1;
        if is_verified(&factors) {
            self.verified += 1;
        }
        self.finish_if_done(ctx);
    }
}

impl Handler<MasterDone> for Collector {
    type Result = ();

    fn handle(&mut self, _: MasterDone, ctx: &mut Context<Self>) {
        self.masters_left -= 1;
        self.finish_if_done(ctx);
    }
}

/// A worker.
struct Worker {
    collector: Addr<Collector>,
}

impl Actor for Worker {
    type Context = Context<Self>;
}

/// Factorise the number and send the factors to the collector.
#[derive(Message)]
#[rtype(result = "()")]
struct Calc;

impl Handler<Calc> for Worker {
    type Result = ();

    fn handle(&mut self, _: Calc, _ctx: &mut Context<Self>) {
        self.collector.do_send(Factors(factorise(TARGET)));
    }
}

/// A chain actor's successor: another chain actor, or the ring's master.
enum Next {
    Chain(Addr<Chain>),
    Master(Addr<Master>),
}

/// A chain actor.
struct Chain {
    next: Next,
}

impl Actor for Chain {
    type Context = Context<Self>;
}

/// A token going round a ring.
#[derive(Message)]
#[rtype(result = "()")]
struct Token(u64);

impl Handler<Token> for Chain {
    type Result = ();

    fn handle(&mut self, Token(token): Token, ctx: &mut Context<Self>) {
        match &self.next {
            Next::Chain(chain) => chain.do_send(Token(token)),
            Next::Master(master) => master.do_send(Token(token)),
        }
        if token == 0 {
            ctx.stop();
        }
    }
}

/// A master.
struct Master {
    ring_size: u64,
    token: u64,
    reps_left: u64,
    worker: Addr<Worker>,
    collector: Addr<Collector>,
    /// This repetition's chain actors, first to last.
    ring: Vec<Addr<Chain>>,
}

impl Master {
    /// One repetition's start: the calc request, a fresh ring, the token.
    fn start_repetition(&mut self, ctx: &mut Context<Self>) {
        self.worker.do_send(Calc);
        let mut next = Next::Master(ctx.address());
        for _ in 1..self.ring_size {
            let chain = Chain { next }.start();
            self.ring.push(chain.clone());
            next = Next::Chain(chain);
        }
        self.ring.reverse();
        self.ring[0].do_send(Token(self.token));
    }
}

impl Actor for Master {
    type Context = Context<Self>;
}

/// Begin the first repetition.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

impl Handler<Start> for Master {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        self.start_repetition(ctx);
    }
}

impl Handler<Token> for Master {
    type Result = ();

    fn handle(&mut self, Token(token): Token, ctx: &mut Context<Self>) {
        if token > 0 {
            let first = self.ring.first().expect("token outside a repetition");
            first.do_send(Token(token - 1));
            return;
        }
        self.ring.clear();
        self.reps_left -= 1;
        if self.reps_left > 0 {
            self.start_repetition(ctx);
        } else {
            self.collector.do_send(MasterDone);
        }
    }
}

/// Runs `rings` masters for `reps` repetitions each; the check is the number of verified
/// factorisations at the collector.
pub async fn run(rings: u64, ring_size: u64, token: u64, reps: u64) -> Result<Outcome, String> {
    let (answer, verified) = oneshot::channel();
    let collector = Collector {
        results_left: rings * reps,
        masters_left: rings,
        verified: 0,
        answer: Some(answer),
    }
    .start();
    let masters: Vec<Addr<Master>> = (0..rings as usize)
        .map(|ring| {
            let for_worker = collector.clone();
            let worker = arbiters::start_on(ring, move |_| Worker {
                collector: for_worker,
            });
            let collector = collector.clone();
            arbiters::start_on(ring, move |_| Master {
                ring_size,
                token,
                reps_left: reps,
                worker,
                collector,
                ring: Vec::new(),
            })
        })
        .collect();
    for master in &masters {
        master.do_send(Start);
    }
    let verified = verified
        .await
        .map_err(|_| "the collector stopped before every result was in")?;
    Ok(Outcome::new(verified))
}
