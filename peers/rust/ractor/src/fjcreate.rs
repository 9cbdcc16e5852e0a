//! fjcreate on ractor: `actors` actors created flat, one message each, each ends.
//!
//! Main spawns worker `k` and at once casts it `Go(k)`, for `k` from 0, without waiting
//! for anything in between. A worker casts `step(k)` to the collector (with a count of
//! one) and stops. The check is `HANDLED:DIGEST`, the collector's two totals.

use peer_kernels::work::step;
use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of a worker.
pub enum WorkerMsg {
    /// The one message, carrying the worker's number.
    Go(u64),
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
    ) -> Result<ActorRef<CollectorMsg>, ActorProcessingErr> {
        Ok(collector)
    }

    async fn handle(
        &self,
        myself: ActorRef<WorkerMsg>,
        WorkerMsg::Go(k): WorkerMsg,
        collector: &mut ActorRef<CollectorMsg>,
    ) -> Result<(), ActorProcessingErr> {
        cast!(collector, CollectorMsg::Report(1, step(k))).expect("collector stopped");
        myself.stop(None);
        Ok(())
    }
}

/// Creates `actors` workers, one message each; the check is `HANDLED:DIGEST` as they
/// reported them.
pub async fn run(actors: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(actors).await?;
    for k in 0..actors {
        let (worker, _) = Actor::spawn(None, Worker, collector.clone())
            .await
            .map_err(|e| format!("cannot spawn worker {k}: {e}"))?;
        cast!(worker, WorkerMsg::Go(k)).map_err(|e| format!("sending to worker {k}: {e}"))?;
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
