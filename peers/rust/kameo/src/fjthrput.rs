//! fjthrput on kameo: one sender, `actors` receivers, a little work per message.
//!
//! Main is the sender. It spawns the collector and the receivers, then tells, for each `i`
//! below `messages` and within that for every receiver `r` in order, `Work(r*messages + i)`
//! to receiver `r`, and finally `End` to every receiver. A receiver counts each `Work`
//! and adds `step(v)` to its digest; on `End` (after all its work: mailboxes are FIFO per
//! sender) it tells its count and digest to the collector and stops. The check is
//! `HANDLED:DIGEST`, the collector's two totals.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::work::step;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// A receiver.
#[derive(Actor)]
struct Receiver {
    handled: u64,
    digest: u64,
    collector: ActorRef<Collector>,
}

/// One message to handle, carrying `v`.
struct Work(u64);

/// No more work: report.
struct End;

impl Message<Work> for Receiver {
    type Reply = ();

    async fn handle(&mut self, Work(v): Work, _ctx: &mut Context<Self, ()>) {
        self.handled += 1;
        self.digest = self.digest.wrapping_add(step(v));
    }
}

impl Message<End> for Receiver {
    type Reply = ();

    async fn handle(&mut self, _: End, ctx: &mut Context<Self, ()>) {
        self.collector
            .tell(Report(self.handled, self.digest))
            .await
            .expect("collector stopped");
        ctx.stop();
    }
}

/// Sends `messages` messages to each of `actors` receivers; the check is
/// `HANDLED:DIGEST` as the receivers reported them.
pub async fn run(actors: u64, messages: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(actors);
    let receivers: Vec<ActorRef<Receiver>> = (0..actors)
        .map(|_| {
            let receiver = Receiver {
                handled: 0,
                digest: 0,
                collector: collector.clone(),
            };
            Receiver::spawn_with_mailbox(receiver, mailbox::unbounded())
        })
        .collect();
    for i in 0..messages {
        for (r, receiver) in (0u64..).zip(&receivers) {
            receiver
                .tell(Work(r * messages + i))
                .await
                .map_err(|e| format!("sending to receiver {r}: {e}"))?;
        }
    }
    for receiver in &receivers {
        receiver
            .tell(End)
            .await
            .map_err(|e| format!("ending a receiver: {e}"))?;
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
