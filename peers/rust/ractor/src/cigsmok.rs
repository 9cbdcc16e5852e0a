//! cigsmok on ractor: cigarette smokers, with one arbiter choosing a smoker each round.
//!
//! Main spawns the collector, the arbiter and `smokers` smokers (each knowing the arbiter,
//! the collector and its number), then casts the arbiter `Start` with the smokers'
//! `ActorRef`s. The arbiter draws from its generator (seeded with 0), in each round in
//! order, `s = below(smokers)` and `t = below(1000)`, casts smoker `s` `Smoke` with the
//! round and `t`, and waits for `Started` before the next round. A smoker told to smoke
//! casts `Started` at once, then smokes: it counts the smoke and adds `work(round, t)` to
//! its digest. After the last round the arbiter casts every smoker `Stop` and stops; each
//! smoker casts `(id+1)*count` and its digest to the collector. The check is
//! `WEIGHTED:DIGEST`, the collector's totals.

use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of the arbiter.
pub enum ArbiterMsg {
    /// The smokers, by number: begin the rounds.
    Start(Vec<ActorRef<SmokerMsg>>),
    /// The chosen smoker has started smoking.
    Started,
}

/// Messages of a smoker.
pub enum SmokerMsg {
    /// Smoke, in this round, for this long.
    Smoke(u64, u64),
    /// The rounds are over: report.
    Stop,
}

/// The arbiter's behaviour.
struct Arbiter;

/// The arbiter's state.
struct ArbiterState {
    rounds: u64,
    round: u64,
    rng: SplitMix64,
    smokers: Vec<ActorRef<SmokerMsg>>,
}

impl ArbiterState {
    fn next_round(&mut self, myself: &ActorRef<ArbiterMsg>) {
        if self.round < self.rounds {
            let smoker = self.rng.below_mod(self.smokers.len() as u64) as usize;
            let time = self.rng.below_mod(1000);
            cast!(self.smokers[smoker], SmokerMsg::Smoke(self.round, time))
                .expect("smoker stopped");
        } else {
            for smoker in &self.smokers {
                cast!(smoker, SmokerMsg::Stop).expect("smoker stopped");
            }
            myself.stop(None);
        }
    }
}

impl Actor for Arbiter {
    type Msg = ArbiterMsg;
    type State = ArbiterState;
    type Arguments = u64;

    async fn pre_start(
        &self,
        _myself: ActorRef<ArbiterMsg>,
        rounds: u64,
    ) -> Result<ArbiterState, ActorProcessingErr> {
        Ok(ArbiterState {
            rounds,
            round: 0,
            rng: SplitMix64::new(0),
            smokers: Vec::new(),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ArbiterMsg>,
        message: ArbiterMsg,
        state: &mut ArbiterState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ArbiterMsg::Start(smokers) => state.smokers = smokers,
            ArbiterMsg::Started => state.round += 1,
        }
        state.next_round(&myself);
        Ok(())
    }
}

/// A smoker's behaviour.
struct Smoker;

/// A smoker's state.
struct SmokerState {
    id: u64,
    smoked: u64,
    digest: u64,
    arbiter: ActorRef<ArbiterMsg>,
    collector: ActorRef<CollectorMsg>,
}

impl Actor for Smoker {
    type Msg = SmokerMsg;
    type State = SmokerState;
    type Arguments = SmokerState;

    async fn pre_start(
        &self,
        _myself: ActorRef<SmokerMsg>,
        state: SmokerState,
    ) -> Result<SmokerState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<SmokerMsg>,
        message: SmokerMsg,
        state: &mut SmokerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            SmokerMsg::Smoke(round, time) => {
                cast!(state.arbiter, ArbiterMsg::Started).expect("arbiter stopped");
                state.smoked += 1;
                state.digest = state.digest.wrapping_add(work(round, time));
            }
            SmokerMsg::Stop => {
                let weighted = (state.id + 1).wrapping_mul(state.smoked);
                cast!(
                    state.collector,
                    CollectorMsg::Report(weighted, state.digest)
                )
                .expect("collector stopped");
                myself.stop(None);
            }
        }
        Ok(())
    }
}

/// Runs `rounds` rounds among `smokers` smokers; the check is `WEIGHTED:DIGEST` as the
/// smokers reported them.
pub async fn run(rounds: u64, smokers: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(smokers).await?;
    let (arbiter, _) = Actor::spawn(None, Arbiter, rounds)
        .await
        .map_err(|e| format!("cannot spawn the arbiter: {e}"))?;
    let mut all = Vec::with_capacity(smokers as usize);
    for id in 0..smokers {
        let state = SmokerState {
            id,
            smoked: 0,
            digest: 0,
            arbiter: arbiter.clone(),
            collector: collector.clone(),
        };
        let (smoker, _) = Actor::spawn(None, Smoker, state)
            .await
            .map_err(|e| format!("cannot spawn smoker {id}: {e}"))?;
        all.push(smoker);
    }
    cast!(arbiter, ArbiterMsg::Start(all)).map_err(|e| format!("starting the arbiter: {e}"))?;
    let (weighted, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{weighted}:{digest}")))
}
