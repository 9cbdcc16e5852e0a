//! concdict on ractor: `workers` clients send reads and writes to one dictionary actor and
//! wait for each answer.
//!
//! The dictionary is a ractor actor over a `HashMap`; every operation is a `call!`, whose
//! `RpcReplyPort` carries the answer back. Main spawns it, the collector and the workers,
//! then casts every worker `Start`. Worker `w` draws each operation from its own generator
//! (seeded with `w`): `r = below(100)`, `key = w*1024 + below(1024)`, and for a write
//! (`r < write_pct`) `value = next() >> 32`. It `call!`s the dictionary and awaits the
//! answer inside its handler before drawing the next, counts its answers and adds up the
//! answers to its reads, casts both to the collector and stops. When the collector has
//! every report, main `call!`s the dictionary for its size and contents (the sum of
//! `(key+1)*value`). The check is `ANSWERS:SIZE:CONTENTS:READSUM`.

use std::collections::HashMap;

use peer_kernels::rng::SplitMix64;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of the dictionary.
pub enum DictMsg {
    /// Store `key -> value` and answer `value`.
    Write(u64, u64, RpcReplyPort<u64>),
    /// Answer the key's value, or 0 if it has none.
    Read(u64, RpcReplyPort<u64>),
    /// Answer the size and the contents' digest.
    Summary(RpcReplyPort<(u64, u64)>),
}

/// The dictionary's behaviour.
struct Dictionary;

impl Actor for Dictionary {
    type Msg = DictMsg;
    type State = HashMap<u64, u64>;
    type Arguments = ();

    async fn pre_start(
        &self,
        _myself: ActorRef<DictMsg>,
        (): (),
    ) -> Result<HashMap<u64, u64>, ActorProcessingErr> {
        Ok(HashMap::new())
    }

    async fn handle(
        &self,
        _myself: ActorRef<DictMsg>,
        message: DictMsg,
        map: &mut HashMap<u64, u64>,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            DictMsg::Write(key, value, reply) => {
                map.insert(key, value);
                let _ = reply.send(value);
            }
            DictMsg::Read(key, reply) => {
                let _ = reply.send(map.get(&key).copied().unwrap_or(0));
            }
            DictMsg::Summary(reply) => {
                let contents = map.iter().fold(0u64, |sum, (&key, &value)| {
                    sum.wrapping_add(key.wrapping_add(1).wrapping_mul(value))
                });
                let _ = reply.send((map.len() as u64, contents));
            }
        }
        Ok(())
    }
}

/// Messages of a worker.
pub enum WorkerMsg {
    /// Do all the operations, then report.
    Start,
}

/// A worker's behaviour.
struct Worker;

/// A worker's state.
struct WorkerState {
    id: u64,
    messages: u64,
    write_pct: u64,
    dictionary: ActorRef<DictMsg>,
    collector: ActorRef<CollectorMsg>,
}

impl Actor for Worker {
    type Msg = WorkerMsg;
    type State = WorkerState;
    type Arguments = WorkerState;

    async fn pre_start(
        &self,
        _myself: ActorRef<WorkerMsg>,
        state: WorkerState,
    ) -> Result<WorkerState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<WorkerMsg>,
        WorkerMsg::Start: WorkerMsg,
        state: &mut WorkerState,
    ) -> Result<(), ActorProcessingErr> {
        let mut rng = SplitMix64::new(state.id);
        let (mut answers, mut read_sum) = (0u64, 0u64);
        for _ in 0..state.messages {
            let r = rng.below_mod(100);
            let key = state.id * 1024 + rng.below_mod(1024);
            if r < state.write_pct {
                let value = rng.next_u64() >> 32;
                call!(state.dictionary, DictMsg::Write, key, value)
                    .expect("the dictionary did not answer");
            } else {
                let value = call!(state.dictionary, DictMsg::Read, key)
                    .expect("the dictionary did not answer");
                read_sum = read_sum.wrapping_add(value);
            }
            answers += 1;
        }
        cast!(state.collector, CollectorMsg::Report(answers, read_sum)).expect("collector stopped");
        myself.stop(None);
        Ok(())
    }
}

/// Runs `workers` workers of `messages` operations each, `write_pct` percent writes; the
/// check is `ANSWERS:SIZE:CONTENTS:READSUM`.
pub async fn run(workers: u64, messages: u64, write_pct: u64) -> Result<Outcome, String> {
    let (dictionary, _) = Actor::spawn(None, Dictionary, ())
        .await
        .map_err(|e| format!("cannot spawn the dictionary: {e}"))?;
    let (collector, totals) = collector::spawn(workers).await?;
    let mut all = Vec::with_capacity(workers as usize);
    for id in 0..workers {
        let state = WorkerState {
            id,
            messages,
            write_pct,
            dictionary: dictionary.clone(),
            collector: collector.clone(),
        };
        let (worker, _) = Actor::spawn(None, Worker, state)
            .await
            .map_err(|e| format!("cannot spawn worker {id}: {e}"))?;
        all.push(worker);
    }
    for worker in &all {
        cast!(worker, WorkerMsg::Start).map_err(|e| format!("starting a worker: {e}"))?;
    }
    let (answers, read_sum) = totals.wait().await?;
    let (size, contents) = call!(dictionary, DictMsg::Summary)
        .map_err(|e| format!("the dictionary did not answer: {e}"))?;
    let outcome = Outcome::new(format!("{answers}:{size}:{contents}:{read_sum}"));
    dictionary.stop(None);
    Ok(outcome)
}
