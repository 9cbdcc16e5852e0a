//! The collector the Savina benchmarks' actors report to on kameo.
//!
//! Receivers, workers, consumers, smokers and series each end by telling one `Report` of
//! two numbers (a count and a digest, say). The collector adds the reports up, wrapping
//! like every number in the checks, and once the expected number has arrived it sends the
//! two totals through the tokio oneshot main waits on, and stops.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use tokio::sync::oneshot;

/// The collector.
#[derive(Actor)]
pub struct Collector {
    waiting_for: u64,
    totals: (u64, u64),
    answer: Option<oneshot::Sender<(u64, u64)>>,
}

impl Collector {
    fn answer_if_complete(&mut self) -> bool {
        if self.waiting_for == 0
            && let Some(answer) = self.answer.take()
        {
            let _ = answer.send(self.totals);
            return true;
        }
        false
    }
}

/// One actor's two numbers.
pub struct Report(pub u64, pub u64);

impl Message<Report> for Collector {
    type Reply = ();

    async fn handle(&mut self, Report(a, b): Report, ctx: &mut Context<Self, ()>) {
        self.totals.0 = self.totals.0.wrapping_add(a);
        self.totals.1 = self.totals.1.wrapping_add(b);
        self.waiting_for -= 1;
        if self.answer_if_complete() {
            ctx.stop();
        }
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
pub fn spawn(reports: u64) -> (ActorRef<Collector>, Totals) {
    let (answer, totals) = oneshot::channel();
    let mut collector = Collector {
        waiting_for: reports,
        totals: (0, 0),
        answer: Some(answer),
    };
    collector.answer_if_complete();
    let collector = Collector::spawn_with_mailbox(collector, mailbox::unbounded());
    (collector, Totals(totals))
}
