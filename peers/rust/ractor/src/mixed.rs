//! mixed on ractor: rings of short-lived actors pass tokens while workers factorise.
//!
//! Four kinds of ractor actor. Each of the `rings` masters owns one worker; every
//! repetition it casts the worker `Calc`, spawns `ring_size - 1` fresh chain actors in a
//! ring behind itself (spawned back to front, so each is started knowing its successor
//! and the last one points at the master), and casts `token` to the first. A chain actor
//! forwards every token unchanged and stops after forwarding 0. The master sends `t - 1`
//! round again for each `t > 0` it gets back, and on 0 (the whole chain has ended) starts
//! the next repetition, or after the last one tells the collector it is done.
//!
//! A worker factorises 28350160440309881 by trial division inside its handler (the CPU
//! work this benchmark mixes in; it occupies one runtime thread meanwhile) and casts the
//! factors to the one shared collector, which counts the factorisations it can verify.
//! The run ends when the collector has a result for every repetition and every master is
//! done; the check is the number of verified factorisations.

use peer_kernels::factor::{TARGET, factorise, is_verified};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of the collector.
pub enum CollectorMsg {
    /// A worker's factorisation.
    Factors(Vec<u64>),
    /// A master finished all its repetitions.
    MasterDone,
}

/// Messages of a worker.
pub enum WorkerMsg {
    /// Factorise the number and send the factors to the collector.
    Calc,
}

/// Messages of a master.
pub enum MasterMsg {
    /// Begin the first repetition.
    Start,
    /// The token came back round the ring.
    Token(u64),
}

/// Messages of a chain actor.
pub enum ChainMsg {
    /// A token to forward.
    Token(u64),
}

/// A chain actor's successor: another chain actor, or the ring's master.
pub enum Next {
    /// The next chain actor.
    Chain(ActorRef<ChainMsg>),
    /// The master that closes the ring.
    Master(ActorRef<MasterMsg>),
}

/// The collector's behaviour.
struct Collector;

/// The collector's state.
struct CollectorState {
    results_left: u64,
    masters_left: u64,
    verified: u64,
    reply: Option<RpcReplyPort<u64>>,
}

impl Actor for Collector {
    type Msg = CollectorMsg;
    type State = CollectorState;
    type Arguments = (u64, u64, RpcReplyPort<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<CollectorMsg>,
        (rings, reps, reply): Self::Arguments,
    ) -> Result<CollectorState, ActorProcessingErr> {
        Ok(CollectorState {
            results_left: rings * reps,
            masters_left: rings,
            verified: 0,
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<CollectorMsg>,
        message: CollectorMsg,
        state: &mut CollectorState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            CollectorMsg::Factors(factors) => {
                state.results_left -= 1;
                if is_verified(&factors) {
                    state.verified += 1;
                }
            }
            CollectorMsg::MasterDone => state.masters_left -= 1,
        }
        if state.results_left == 0 && state.masters_left == 0 {
            if let Some(reply) = state.reply.take() {
                let _ = reply.send(state.verified);
            }
            myself.stop(None);
        }
        Ok(())
    }
}

/// A worker's behaviour.
struct Worker;

impl Actor for Worker {
    type Msg = WorkerMsg;
    type State = ActorRef<CollectorMsg>;
    type Arguments = ActorRef<CollectorMsg>;

    async fn pre_start(
        &self,
        _myself: ActorRef<WorkerMsg>,
        collector: ActorRef<CollectorMsg>,
    ) -> Result<Self::State, ActorProcessingErr> {
        Ok(collector)
    }

    async fn handle(
        &self,
        _myself: ActorRef<WorkerMsg>,
        WorkerMsg::Calc: WorkerMsg,
        collector: &mut ActorRef<CollectorMsg>,
    ) -> Result<(), ActorProcessingErr> {
        let factors = factorise(TARGET);
        cast!(collector, CollectorMsg::Factors(factors)).expect("collector stopped");
        Ok(())
    }
}

/// A chain actor's behaviour.
struct Chain;

impl Actor for Chain {
    type Msg = ChainMsg;
    type State = Next;
    type Arguments = Next;

    async fn pre_start(
        &self,
        _myself: ActorRef<ChainMsg>,
        next: Next,
    ) -> Result<Next, ActorProcessingErr> {
        Ok(next)
    }

    async fn handle(
        &self,
        myself: ActorRef<ChainMsg>,
        ChainMsg::Token(token): ChainMsg,
        next: &mut Next,
    ) -> Result<(), ActorProcessingErr> {
        match next {
            Next::Chain(chain) => {
                cast!(chain, ChainMsg::Token(token)).expect("next chain actor stopped")
            }
            Next::Master(master) => {
                cast!(master, MasterMsg::Token(token)).expect("ring master stopped")
            }
        }
        if token == 0 {
            myself.stop(None);
        }
        Ok(())
    }
}

/// A master's behaviour.
struct Master;

/// A master's state.
struct MasterState {
    ring_size: u64,
    token: u64,
    reps_left: u64,
    worker: ActorRef<WorkerMsg>,
    collector: ActorRef<CollectorMsg>,
    first: Option<ActorRef<ChainMsg>>,
}

impl MasterState {
    /// One repetition's start: the calc request, a fresh ring, the token.
    async fn start_repetition(&mut self, myself: &ActorRef<MasterMsg>) {
        cast!(self.worker, WorkerMsg::Calc).expect("worker stopped");
        let mut next = Next::Master(myself.clone());
        for _ in 1..self.ring_size {
            let (chain, _) = Actor::spawn(None, Chain, next)
                .await
                .expect("cannot spawn a chain actor");
            next = Next::Chain(chain);
        }
        let Next::Chain(first) = next else {
            unreachable!("ring_size >= 2 makes at least one chain actor")
        };
        cast!(first, ChainMsg::Token(self.token)).expect("chain actor stopped");
        self.first = Some(first);
    }
}

impl Actor for Master {
    type Msg = MasterMsg;
    type State = MasterState;
    type Arguments = MasterState;

    async fn pre_start(
        &self,
        _myself: ActorRef<MasterMsg>,
        state: MasterState,
    ) -> Result<MasterState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<MasterMsg>,
        message: MasterMsg,
        state: &mut MasterState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            MasterMsg::Start => state.start_repetition(&myself).await,
            MasterMsg::Token(0) => {
                state.first = None;
                state.reps_left -= 1;
                if state.reps_left > 0 {
                    state.start_repetition(&myself).await;
                } else {
                    cast!(state.collector, CollectorMsg::MasterDone).expect("collector stopped");
                }
            }
            MasterMsg::Token(token) => {
                let first = state.first.as_ref().expect("token outside a repetition");
                cast!(first, ChainMsg::Token(token - 1)).expect("chain actor stopped");
            }
        }
        Ok(())
    }
}

/// Runs `rings` masters for `reps` repetitions each; the check is the number of verified
/// factorisations at the collector.
pub async fn run(rings: u64, ring_size: u64, token: u64, reps: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    let (collector, _) = Actor::spawn(None, Collector, (rings, reps, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the collector: {e}"))?;
    for ring in 0..rings {
        let (worker, _) = Actor::spawn(None, Worker, collector.clone())
            .await
            .map_err(|e| format!("cannot spawn worker {ring}: {e}"))?;
        let master_state = MasterState {
            ring_size,
            token,
            reps_left: reps,
            worker,
            collector: collector.clone(),
            first: None,
        };
        let (master, _) = Actor::spawn(None, Master, master_state)
            .await
            .map_err(|e| format!("cannot spawn master {ring}: {e}"))?;
        cast!(master, MasterMsg::Start).map_err(|e| format!("starting master {ring}: {e}"))?;
    }
    let verified = answer
        .await
        .map_err(|_| "the collector stopped before every result was in")?;
    Ok(Outcome::new(verified))
}
