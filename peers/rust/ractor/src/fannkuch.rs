//! fannkuch on ractor: a collector hands index ranges to one worker actor per runtime
//! thread and combines their partial results.
//!
//! The `n!` permutations are cut into ranges (`peer_kernels::fannkuch::task_ranges`).
//! Main spawns the collector (holding the ranges and the `RpcReplyPort` for the answer)
//! and as many workers as the runtime has worker threads, and casts the collector one
//! `Hire` with all of them (one message: hired one at a time, the first worker could do
//! every range before main had spawned the next, and the collector would have stopped
//! before the next `Hire`; `n=3`, six ranges of one permutation, did that at two threads).
//! The collector gives every hired worker one range; a worker runs its
//! range inside its handler (this is the CPU-bound part: tokio runs the workers in
//! parallel) and casts back `Done` with its partial checksum and maximum and its own
//! `ActorRef`; the collector combines it and hands that worker the next range. When no
//! range is left and none is out, it replies `CHECKSUM:MAXFLIPS`.

use std::collections::VecDeque;
use std::ops::Range;

use peer_kernels::fannkuch::{Partial, run_range, task_ranges};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of the collector.
pub enum CollectorMsg {
    /// The workers, ready for ranges.
    Hire(Vec<ActorRef<WorkerMsg>>),
    /// A worker's result for its last range.
    Done(Partial, ActorRef<WorkerMsg>),
}

/// Messages of a worker.
pub enum WorkerMsg {
    /// Run fannkuch-redux over these permutation indices.
    Task(Range<u64>),
}

/// The collector's behaviour.
struct Collector;

/// The collector's state.
struct CollectorState {
    ranges: VecDeque<Range<u64>>,
    out: usize,
    total: Partial,
    reply: Option<RpcReplyPort<Partial>>,
}

impl CollectorState {
    /// Replies with the total and stops `myself` once no range is left and none is out.
    fn finish_if_done(&mut self, myself: &ActorRef<CollectorMsg>) {
        if self.out == 0 && self.ranges.is_empty() {
            if let Some(reply) = self.reply.take() {
                let _ = reply.send(self.total);
            }
            myself.stop(None);
        }
    }

    /// Gives `worker` the next range, or stops it if none is left.
    fn hand_out(&mut self, worker: &ActorRef<WorkerMsg>) {
        match self.ranges.pop_front() {
            Some(range) => {
                cast!(worker, WorkerMsg::Task(range)).expect("worker stopped");
                self.out += 1;
            }
            None => worker.stop(None),
        }
    }
}

impl Actor for Collector {
    type Msg = CollectorMsg;
    type State = CollectorState;
    type Arguments = (Vec<Range<u64>>, RpcReplyPort<Partial>);

    async fn pre_start(
        &self,
        _myself: ActorRef<CollectorMsg>,
        (ranges, reply): Self::Arguments,
    ) -> Result<CollectorState, ActorProcessingErr> {
        Ok(CollectorState {
            ranges: ranges.into(),
            out: 0,
            total: Partial::default(),
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
            CollectorMsg::Hire(workers) => {
                for worker in &workers {
                    state.hand_out(worker);
                }
                state.finish_if_done(&myself);
            }
            CollectorMsg::Done(partial, worker) => {
                state.total = state.total.combine(partial);
                state.out -= 1;
                state.hand_out(&worker);
                state.finish_if_done(&myself);
            }
        }
        Ok(())
    }
}

/// A worker's behaviour.
struct Worker;

impl Actor for Worker {
    type Msg = WorkerMsg;
    type State = (usize, ActorRef<CollectorMsg>);
    type Arguments = (usize, ActorRef<CollectorMsg>);

    async fn pre_start(
        &self,
        _myself: ActorRef<WorkerMsg>,
        args: Self::Arguments,
    ) -> Result<Self::State, ActorProcessingErr> {
        Ok(args)
    }

    async fn handle(
        &self,
        myself: ActorRef<WorkerMsg>,
        WorkerMsg::Task(range): WorkerMsg,
        (n, collector): &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        let partial = run_range(*n, range);
        cast!(collector, CollectorMsg::Done(partial, myself)).expect("collector stopped");
        Ok(())
    }
}

/// Runs fannkuch-redux for `n` over the runtime's worker threads.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let n = n as usize;
    let workers = tokio::runtime::Handle::current().metrics().num_workers();
    let (reply, answer) = ractor::concurrency::oneshot();
    let (collector, _) = Actor::spawn(None, Collector, (task_ranges(n), reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the collector: {e}"))?;
    let mut hired = Vec::with_capacity(workers);
    for i in 0..workers {
        let (worker, _) = Actor::spawn(None, Worker, (n, collector.clone()))
            .await
            .map_err(|e| format!("cannot spawn worker {i}: {e}"))?;
        hired.push(worker);
    }
    cast!(collector, CollectorMsg::Hire(hired)).map_err(|e| format!("hiring: {e}"))?;
    let total = answer
        .await
        .map_err(|_| "the collector stopped before every range was done")?;
    Ok(Outcome::new(total))
}
