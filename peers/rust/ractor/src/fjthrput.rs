//! fjthrput on ractor: one sender, `actors` receivers, a little work per message.
//!
//! Main is the sender. It spawns the collector and the receivers, then casts, for each `i`
//! below `messages` and within that for every receiver `r` in order, `Work(r*messages + i)`
//! to receiver `r`, and finally `End` to every receiver. A receiver counts each `Work`
//! and adds `step(v)` to its digest; on `End` (after all its work: mailboxes are FIFO per
//! sender) it casts its count and digest to the collector and stops. The check is
//! `HANDLED:DIGEST`, the collector's two totals.

use peer_kernels::work::step;
use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of a receiver.
pub enum ReceiverMsg {
    /// One message to handle, carrying `v`.
    Work(u64),
    /// No more work: report.
    End,
}

/// A receiver's behaviour.
struct Receiver;

/// A receiver's state.
struct ReceiverState {
    handled: u64,
    digest: u64,
    collector: ActorRef<CollectorMsg>,
}

impl Actor for Receiver {
    type Msg = ReceiverMsg;
    type State = ReceiverState;
    type Arguments = ActorRef<CollectorMsg>;

    async fn pre_start(
        &self,
        _myself: ActorRef<ReceiverMsg>,
        collector: ActorRef<CollectorMsg>,
    ) -> Result<ReceiverState, ActorProcessingErr> {
        Ok(ReceiverState {
            handled: 0,
            digest: 0,
            collector,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ReceiverMsg>,
        message: ReceiverMsg,
        state: &mut ReceiverState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ReceiverMsg::Work(v) => {
                state.handled += 1;
                state.digest = state.digest.wrapping_add(step(v));
            }
            ReceiverMsg::End => {
                cast!(
                    state.collector,
                    CollectorMsg::Report(state.handled, state.digest)
                )
                .expect("collector stopped");
                myself.stop(None);
            }
        }
        Ok(())
    }
}

/// Sends `messages` messages to each of `actors` receivers; the check is
/// `HANDLED:DIGEST` as the receivers reported them.
pub async fn run(actors: u64, messages: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(actors).await?;
    let mut receivers = Vec::with_capacity(actors as usize);
    for r in 0..actors {
        let (receiver, _) = Actor::spawn(None, Receiver, collector.clone())
            .await
            .map_err(|e| format!("cannot spawn receiver {r}: {e}"))?;
        receivers.push(receiver);
    }
    for i in 0..messages {
        for (r, receiver) in (0u64..).zip(&receivers) {
            cast!(receiver, ReceiverMsg::Work(r * messages + i))
                .map_err(|e| format!("sending to receiver {r}: {e}"))?;
        }
    }
    for receiver in &receivers {
        cast!(receiver, ReceiverMsg::End).map_err(|e| format!("ending a receiver: {e}"))?;
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
