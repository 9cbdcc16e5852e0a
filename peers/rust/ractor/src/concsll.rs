//! concsll on ractor: `workers` clients send inserts, lookups and size queries to one
//! sorted-list actor and wait for each answer.
//!
//! The list is a ractor actor over `peer_kernels::sorted_list` (searched from the front,
//! as Savina's linked list is); every operation is a `call!`. Main spawns it, the
//! collector and the workers, then casts every worker `Start`. Worker `w` draws each
//! operation from its own generator (seeded with `w`): `r = below(100)`; a size query if
//! `r < size_pct`, else an insert if `r < size_pct + write_pct`, else a lookup, the last
//! two of `v = below(1024)*workers + w`. It awaits each answer inside its handler before
//! the next, counts its answers and its lookups answered true, casts both to the collector
//! and stops. When the collector has every report, main `call!`s the list for its length
//! and contents. The check is `ANSWERS:SIZE:CONTENTS:HITS`.

use peer_kernels::rng::SplitMix64;
use peer_kernels::sorted_list::SortedList;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of the list.
pub enum ListMsg {
    /// Answer the length.
    Size(RpcReplyPort<u64>),
    /// Insert the value and answer when done.
    Insert(u64, RpcReplyPort<()>),
    /// Answer whether the value is in the list.
    Contains(u64, RpcReplyPort<bool>),
    /// Answer the length and the contents' digest.
    Summary(RpcReplyPort<(u64, u64)>),
}

/// The list's behaviour.
struct List;

impl Actor for List {
    type Msg = ListMsg;
    type State = SortedList;
    type Arguments = ();

    async fn pre_start(
        &self,
        _myself: ActorRef<ListMsg>,
        (): (),
    ) -> Result<SortedList, ActorProcessingErr> {
        Ok(SortedList::new())
    }

    async fn handle(
        &self,
        _myself: ActorRef<ListMsg>,
        message: ListMsg,
        list: &mut SortedList,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ListMsg::Size(reply) => {
                let _ = reply.send(list.len());
            }
            ListMsg::Insert(value, reply) => {
                list.insert(value);
                let _ = reply.send(());
            }
            ListMsg::Contains(value, reply) => {
                let _ = reply.send(list.contains(value));
            }
            ListMsg::Summary(reply) => {
                let _ = reply.send((list.len(), list.contents()));
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
    workers: u64,
    messages: u64,
    write_pct: u64,
    size_pct: u64,
    list: ActorRef<ListMsg>,
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
        let (mut answers, mut hits) = (0u64, 0u64);
        for _ in 0..state.messages {
            let r = rng.below_mod(100);
            if r < state.size_pct {
                call!(state.list, ListMsg::Size).expect("the list did not answer");
            } else {
                let value = rng.below_mod(1024) * state.workers + state.id;
                if r < state.size_pct + state.write_pct {
                    call!(state.list, ListMsg::Insert, value).expect("the list did not answer");
                } else if call!(state.list, ListMsg::Contains, value)
                    .expect("the list did not answer")
                {
                    hits += 1;
                }
            }
            answers += 1;
        }
        cast!(state.collector, CollectorMsg::Report(answers, hits)).expect("collector stopped");
        myself.stop(None);
        Ok(())
    }
}

/// Runs `workers` workers of `messages` operations each, `write_pct` percent inserts and
/// `size_pct` percent size queries; the check is `ANSWERS:SIZE:CONTENTS:HITS`.
pub async fn run(
    workers: u64,
    messages: u64,
    write_pct: u64,
    size_pct: u64,
) -> Result<Outcome, String> {
    let (list, _) = Actor::spawn(None, List, ())
        .await
        .map_err(|e| format!("cannot spawn the list: {e}"))?;
    let (collector, totals) = collector::spawn(workers).await?;
    let mut all = Vec::with_capacity(workers as usize);
    for id in 0..workers {
        let state = WorkerState {
            id,
            workers,
            messages,
            write_pct,
            size_pct,
            list: list.clone(),
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
    let (answers, hits) = totals.wait().await?;
    let (size, contents) =
        call!(list, ListMsg::Summary).map_err(|e| format!("the list did not answer: {e}"))?;
    let outcome = Outcome::new(format!("{answers}:{size}:{contents}:{hits}"));
    list.stop(None);
    Ok(outcome)
}
