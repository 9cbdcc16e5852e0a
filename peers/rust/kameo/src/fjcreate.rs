//! fjcreate on kameo: `actors` actors created flat, one message each, each ends.
//!
//! Main spawns worker `k` and at once tells it `Go(k)`, for `k` from 0, without waiting
//! for anything in between. A worker tells the collector `step(k)` (with a count of one)
//! and stops. The check is `HANDLED:DIGEST`, the collector's two totals.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::work::step;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// A worker.
#[derive(Actor)]
struct Worker {
    collector: ActorRef<Collector>,
}

/// The one message, carrying the worker's number.
struct Go(u64);

impl Message<Go> for Worker {
    type Reply = ();

    async fn handle(&mut self, Go(k): Go, ctx: &mut Context<Self, ()>) {
        self.collector
            .tell(Report(1, step(k)))
            .await
            .expect("collector stopped");
        ctx.stop();
    }
}

/// Creates `actors` workers, one message each; the check is `HANDLED:DIGEST` as they
/// reported them.
pub async fn run(actors: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(actors);
    for k in 0..actors {
        let worker = Worker {
            collector: collector.clone(),
        };
        let worker = Worker::spawn_with_mailbox(worker, mailbox::unbounded());
        worker
            .tell(Go(k))
            .await
            .map_err(|e| format!("sending to worker {k}: {e}"))?;
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
