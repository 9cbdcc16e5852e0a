//! The collector the Savina benchmarks' actors report to on ractor.
//!
//! Receivers, workers, consumers, smokers and series each end by casting one `Report` of
//! two numbers (a count and a digest, say). The collector adds the reports up, wrapping
//! like every number in the checks, and once the expected number has arrived it sends the
//! two totals through the `RpcReplyPort` it was spawned with and stops. Main awaits the
//! matching receiver.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use tokio::sync::oneshot;

/// Messages of the collector.
pub enum CollectorMsg {
    /// One actor's two numbers.
    Report(u64, u64),
}

/// The collector's behaviour.
struct Collector;

/// The collector's state.
struct CollectorState {
    waiting_for: u64,
    totals: (u64, u64),
    reply: Option<RpcReplyPort<(u64, u64)>>,
}

impl CollectorState {
    fn answer_if_complete(&mut self, myself: &ActorRef<CollectorMsg>) {
        if self.waiting_for == 0
            && let Some(reply) = self.reply.take()
        {
            let _ = reply.send(self.totals);
            myself.stop(None);
        }
    }
}

impl Actor for Collector {
    type Msg = CollectorMsg;
    type State = CollectorState;
    type Arguments = (u64, RpcReplyPort<(u64, u64)>);

    async fn pre_start(
        &self,
        _myself: ActorRef<CollectorMsg>,
        (reports, reply): Self::Arguments,
    ) -> Result<CollectorState, ActorProcessingErr> {
        Ok(CollectorState {
            waiting_for: reports,
            totals: (0, 0),
            reply: Some(reply),
        })
    }

    async fn post_start(
        &self,
        myself: ActorRef<CollectorMsg>,
        state: &mut CollectorState,
    ) -> Result<(), ActorProcessingErr> {
        state.answer_if_complete(&myself);
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<CollectorMsg>,
        CollectorMsg::Report(a, b): CollectorMsg,
        state: &mut CollectorState,
    ) -> Result<(), ActorProcessingErr> {
        state.totals.0 = state.totals.0.wrapping_add(a);
        state.totals.1 = state.totals.1.wrapping_add(b);
        state.waiting_for -= 1;
        state.answer_if_complete(&myself);
        Ok(())
    }
}

/// The totals, once every report is in.
pub struct Totals(oneshot::Receiver<(u64, u64)>);

impl Totals {
    /// Waits for the two totals.
    pub async fn wait(self) -> Result<(u64, u64), String> {
        self.0
            .await
            .map_err(|_| "the collector stopped before every report arrived".to_string())
    }
}

/// Spawns a collector that expects `reports` reports.
pub async fn spawn(reports: u64) -> Result<(ActorRef<CollectorMsg>, Totals), String> {
    let (reply, totals) = oneshot::channel();
    let (collector, _) = Actor::spawn(None, Collector, (reports, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the collector: {e}"))?;
    Ok((collector, Totals(totals)))
}
