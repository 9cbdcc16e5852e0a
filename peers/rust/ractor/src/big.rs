//! big on ractor: workers ping random neighbours and wait for each pong.
//!
//! Every worker is a ractor actor. Main spawns them all, then casts each one its
//! neighbourhood (an `Arc` of the `ActorRef`s of its `hood` workers, shared by the whole
//! neighbourhood, and its own position in it), and only then `Start`: mailboxes are FIFO
//! per sender, so no ping can reach a worker before it knows its neighbours. A worker
//! pings a uniformly random other member (itself if alone), naming its own position so
//! the pinged worker can cast the `Pong` back, and pings again on each pong until it has
//! `pings` pongs. Then it casts its pong count to the sink, and keeps answering pings.
//! The sink adds the reports and, when every worker has reported, sends the total to main
//! through the `RpcReplyPort` it was started with.

use std::sync::Arc;

use peer_kernels::rng::SplitMix64;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of a worker.
pub enum WorkerMsg {
    /// The worker's neighbourhood, and its own position in it.
    Hood(Arc<[ActorRef<WorkerMsg>]>, usize),
    /// Start pinging.
    Start,
    /// A ping from the neighbour at this position.
    Ping(usize),
    /// The answer to this worker's ping.
    Pong,
}

/// Messages of the sink.
pub enum SinkMsg {
    /// A worker is done, having received this many pongs.
    Done(u64),
}

/// A worker's behaviour.
struct Worker;

/// A worker's state.
struct WorkerState {
    hood: Arc<[ActorRef<WorkerMsg>]>,
    me: usize,
    rng: SplitMix64,
    pings: u64,
    pongs: u64,
    sink: ActorRef<SinkMsg>,
}

impl WorkerState {
    fn ping(&mut self) {
        let others = self.hood.len() as u64 - 1;
        let target = if others == 0 {
            self.me
        } else {
            let pick = self.rng.below(others) as usize;
            if pick >= self.me { pick + 1 } else { pick }
        };
        cast!(self.hood[target], WorkerMsg::Ping(self.me)).expect("neighbour stopped");
    }

    fn report(&self) {
        cast!(self.sink, SinkMsg::Done(self.pongs)).expect("sink stopped");
    }
}

impl Actor for Worker {
    type Msg = WorkerMsg;
    type State = WorkerState;
    type Arguments = (u64, u64, ActorRef<SinkMsg>);

    async fn pre_start(
        &self,
        _myself: ActorRef<WorkerMsg>,
        (index, pings, sink): Self::Arguments,
    ) -> Result<WorkerState, ActorProcessingErr> {
        Ok(WorkerState {
            hood: Arc::new([]),
            me: 0,
            rng: SplitMix64::new(index),
            pings,
            pongs: 0,
            sink,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<WorkerMsg>,
        message: WorkerMsg,
        state: &mut WorkerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            WorkerMsg::Hood(hood, me) => {
                state.hood = hood;
                state.me = me;
            }
            WorkerMsg::Start if state.pings == 0 => state.report(),
            WorkerMsg::Start => state.ping(),
            WorkerMsg::Ping(from) => {
                cast!(state.hood[from], WorkerMsg::Pong).expect("neighbour stopped");
            }
            WorkerMsg::Pong => {
                state.pongs += 1;
                if state.pongs == state.pings {
                    state.report();
                } else {
                    state.ping();
                }
            }
        }
        Ok(())
    }
}

/// The sink's behaviour.
struct Sink;

/// The sink's state.
struct SinkState {
    waiting_for: u64,
    pongs: u64,
    reply: Option<RpcReplyPort<u64>>,
}

impl Actor for Sink {
    type Msg = SinkMsg;
    type State = SinkState;
    type Arguments = (u64, RpcReplyPort<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<SinkMsg>,
        (workers, reply): Self::Arguments,
    ) -> Result<SinkState, ActorProcessingErr> {
        Ok(SinkState {
            waiting_for: workers,
            pongs: 0,
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<SinkMsg>,
        SinkMsg::Done(pongs): SinkMsg,
        state: &mut SinkState,
    ) -> Result<(), ActorProcessingErr> {
        state.pongs += pongs;
        state.waiting_for -= 1;
        if state.waiting_for == 0 {
            if let Some(reply) = state.reply.take() {
                let _ = reply.send(state.pongs);
            }
            myself.stop(None);
        }
        Ok(())
    }
}

/// Runs `workers` workers in neighbourhoods of `hood`, each until it has `pings` pongs;
/// the check is the total the sink gathered.
pub async fn run(workers: u64, pings: u64, hood: u64) -> Result<Outcome, String> {
    let (reply, total) = ractor::concurrency::oneshot();
    let (sink, _) = Actor::spawn(None, Sink, (workers, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the sink: {e}"))?;
    let mut all = Vec::with_capacity(workers as usize);
    for index in 0..workers {
        let (worker, _) = Actor::spawn(None, Worker, (index, pings, sink.clone()))
            .await
            .map_err(|e| format!("cannot spawn worker {index}: {e}"))?;
        all.push(worker);
    }
    for members in all.chunks(hood as usize) {
        let members: Arc<[ActorRef<WorkerMsg>]> = members.into();
        for (me, worker) in members.iter().enumerate() {
            cast!(worker, WorkerMsg::Hood(members.clone(), me))
                .map_err(|e| format!("introducing neighbours: {e}"))?;
        }
    }
    for worker in &all {
        cast!(worker, WorkerMsg::Start).map_err(|e| format!("starting a worker: {e}"))?;
    }
    let pongs = total
        .await
        .map_err(|_| "the sink stopped before every worker reported")?;
    Ok(Outcome::new(pongs))
}
