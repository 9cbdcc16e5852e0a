//! cigsmok on kameo: cigarette smokers, with one arbiter choosing a smoker each round.
//!
//! Main spawns the collector, the arbiter and `smokers` smokers (each knowing the arbiter,
//! the collector and its number), then tells the arbiter `Start` with the smokers'
//! `ActorRef`s. The arbiter draws from its generator (seeded with 0), in each round in
//! order, `s = below(smokers)` and `t = below(1000)`, tells smoker `s` `Smoke` with the
//! round and `t`, and waits for `Started` before the next round. A smoker told to smoke
//! tells `Started` at once, then smokes: it counts the smoke and adds `work(round, t)` to
//! its digest. After the last round the arbiter tells every smoker `Stop` and stops; each
//! smoker tells `(id+1)*count` and its digest to the collector. The check is
//! `WEIGHTED:DIGEST`, the collector's totals.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The arbiter.
#[derive(Actor)]
struct Arbiter {
    rounds: u64,
    round: u64,
    rng: SplitMix64,
    smokers: Vec<ActorRef<Smoker>>,
}

impl Arbiter {
    /// Starts the next round, or stops the smokers after the last; whether it stopped them.
    async fn next_round(&mut self) -> bool {
        if self.round < self.rounds {
            let smoker = self.rng.below_mod(self.smokers.len() as u64) as usize;
            let time = self.rng.below_mod(1000);
            self.smokers[smoker]
                .tell(Smoke(self.round, time))
                .await
                .expect("smoker stopped");
            false
        } else {
            for smoker in &self.smokers {
                smoker.tell(Stop).await.expect("smoker stopped");
            }
            true
        }
    }
}

/// The smokers, by number: begin the rounds.
struct Start(Vec<ActorRef<Smoker>>);

/// The chosen smoker has started smoking.
struct Started;

impl Message<Start> for Arbiter {
    type Reply = ();

    async fn handle(&mut self, Start(smokers): Start, ctx: &mut Context<Self, ()>) {
        self.smokers = smokers;
        if self.next_round().await {
            ctx.stop();
        }
    }
}

impl Message<Started> for Arbiter {
    type Reply = ();

    async fn handle(&mut self, _: Started, ctx: &mut Context<Self, ()>) {
        self.round += 1;
        if self.next_round().await {
            ctx.stop();
        }
    }
}

/// A smoker.
#[derive(Actor)]
struct Smoker {
    id: u64,
    smoked: u64,
    digest: u64,
    arbiter: ActorRef<Arbiter>,
    collector: ActorRef<Collector>,
}

/// Smoke, in this round, for this long.
struct Smoke(u64, u64);

/// The rounds are over: report.
struct Stop;

impl Message<Smoke> for Smoker {
    type Reply = ();

    async fn handle(&mut self, Smoke(round, time): Smoke, _ctx: &mut Context<Self, ()>) {
        self.arbiter.tell(Started).await.expect("arbiter stopped");
        self.smoked += 1;
        self.digest = self.digest.wrapping_add(work(round, time));
    }
}

impl Message<Stop> for Smoker {
    type Reply = ();

    async fn handle(&mut self, _: Stop, ctx: &mut Context<Self, ()>) {
        let weighted = (self.id + 1).wrapping_mul(self.smoked);
        self.collector
            .tell(Report(weighted, self.digest))
            .await
            .expect("collector stopped");
        ctx.stop();
    }
}

/// Runs `rounds` rounds among `smokers` smokers; the check is `WEIGHTED:DIGEST` as the
/// smokers reported them.
pub async fn run(rounds: u64, smokers: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(smokers);
    let arbiter = Arbiter {
        rounds,
        round: 0,
        rng: SplitMix64::new(0),
        smokers: Vec::new(),
    };
    let arbiter = Arbiter::spawn_with_mailbox(arbiter, mailbox::unbounded());
    let all = (0..smokers)
        .map(|id| {
            let smoker = Smoker {
                id,
                smoked: 0,
                digest: 0,
                arbiter: arbiter.clone(),
                collector: collector.clone(),
            };
            Smoker::spawn_with_mailbox(smoker, mailbox::unbounded())
        })
        .collect();
    arbiter
        .tell(Start(all))
        .await
        .map_err(|e| format!("starting the arbiter: {e}"))?;
    let (weighted, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{weighted}:{digest}")))
}
