//! cigsmok on actix: cigarette smokers, with one arbiter choosing a smoker each round.
//!
//! Each round is one message from the arbiter and one back, so every actor lives on main's
//! arbiter (as in chameneos). Main starts the collector, the arbiter and `smokers` smokers
//! (each knowing the arbiter, the collector and its number), then sends the arbiter
//! `Start` with the smokers' addresses. The arbiter draws from its generator (seeded with
//! 0), in each round in order, `s = below(smokers)` and `t = below(1000)`, sends smoker
//! `s` `Smoke` with the round and `t`, and waits for `Started` before the next round. A
//! smoker told to smoke sends `Started` at once, then smokes: it counts the smoke and adds
//! `work(round, t)` to its digest. After the last round the arbiter sends every smoker
//! `Stop` and stops; each smoker sends `(id+1)*count` and its digest to the collector. The
//! check is `WEIGHTED:DIGEST`, the collector's totals.

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The arbiter.
struct Arbiter {
    rounds: u64,
    round: u64,
    rng: SplitMix64,
    smokers: Vec<Addr<Smoker>>,
}

impl Arbiter {
    fn next_round(&mut self, ctx: &mut Context<Self>) {
        if self.round < self.rounds {
            let smoker = self.rng.below_mod(self.smokers.len() as u64) as usize;
            let time = self.rng.below_mod(1000);
            self.smokers[smoker].do_send(Smoke(self.round, time));
        } else {
            for smoker in &self.smokers {
                smoker.do_send(Stop);
            }
            ctx.stop();
        }
    }
}

impl Actor for Arbiter {
    type Context = Context<Self>;
}

/// The smokers, by number: begin the rounds.
#[derive(Message)]
#[rtype(result = "()")]
struct Start(Vec<Addr<Smoker>>);

/// The chosen smoker has started smoking.
#[derive(Message)]
#[rtype(result = "()")]
struct Started;

impl Handler<Start> for Arbiter {
    type Result = ();

    fn handle(&mut self, Start(smokers): Start, ctx: &mut Context<Self>) {
        self.smokers = smokers;
        self.next_round(ctx);
    }
}

impl Handler<Started> for Arbiter {
    type Result = ();

    fn handle(&mut self, _: Started, ctx: &mut Context<Self>) {
        self.round += 1;
        self.next_round(ctx);
    }
}

/// A smoker.
struct Smoker {
    id: u64,
    smoked: u64,
    digest: u64,
    arbiter: Addr<Arbiter>,
    collector: Addr<Collector>,
}

impl Actor for Smoker {
    type Context = Context<Self>;
}

/// Smoke, in this round, for this long.
#[derive(Message)]
#[rtype(result = "()")]
struct Smoke(u64, u64);

/// The rounds are over: report.
#[derive(Message)]
#[rtype(result = "()")]
struct Stop;

impl Handler<Smoke> for Smoker {
    type Result = ();

    fn handle(&mut self, Smoke(round, time): Smoke, _ctx: &mut Context<Self>) {
        self.arbiter.do_send(Started);
        self.smoked += 1;
        self.digest = self.digest.wrapping_add(work(round, time));
    }
}

impl Handler<Stop> for Smoker {
    type Result = ();

    fn handle(&mut self, _: Stop, ctx: &mut Context<Self>) {
        let weighted = (self.id + 1).wrapping_mul(self.smoked);
        self.collector.do_send(Report(weighted, self.digest));
        ctx.stop();
    }
}

/// Runs `rounds` rounds among `smokers` smokers; the check is `WEIGHTED:DIGEST` as the
/// smokers reported them.
pub async fn run(rounds: u64, smokers: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::start(smokers);
    let arbiter = Arbiter {
        rounds,
        round: 0,
        rng: SplitMix64::new(0),
        smokers: Vec::new(),
    }
    .start();
    let all = (0..smokers)
        .map(|id| {
            Smoker {
                id,
                smoked: 0,
                digest: 0,
                arbiter: arbiter.clone(),
                collector: collector.clone(),
            }
            .start()
        })
        .collect();
    arbiter.do_send(Start(all));
    let (weighted, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{weighted}:{digest}")))
}
