//! bang on ractor: many senders flood one receiver.
//!
//! The receiver and every sender are ractor actors. Once all senders are spawned, main
//! casts each a `Start`; a sender then casts `messages` `Hit`s to the receiver, one `Done`
//! after them, and stops. Mailboxes are FIFO per sender, so a sender's `Done` arrives
//! after all its hits. The receiver counts hits; when it has a `Done` from every sender
//! it answers its count on the `RpcReplyPort` it was started with.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of the receiver.
pub enum ReceiverMsg {
    /// One message of the flood.
    Hit,
    /// A sender has sent all its messages.
    Done,
}

/// Messages of a sender.
pub enum SenderMsg {
    /// Send the flood.
    Start,
}

/// The receiver's behaviour.
struct Receiver;

/// The receiver's state.
struct ReceiverState {
    hits: u64,
    senders_left: u64,
    reply: Option<RpcReplyPort<u64>>,
}

impl Actor for Receiver {
    type Msg = ReceiverMsg;
    type State = ReceiverState;
    type Arguments = (u64, RpcReplyPort<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<ReceiverMsg>,
        (senders, reply): Self::Arguments,
    ) -> Result<ReceiverState, ActorProcessingErr> {
        Ok(ReceiverState {
            hits: 0,
            senders_left: senders,
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ReceiverMsg>,
        message: ReceiverMsg,
        state: &mut ReceiverState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ReceiverMsg::Hit => state.hits += 1,
            ReceiverMsg::Done => {
                state.senders_left -= 1;
                if state.senders_left == 0 {
                    if let Some(reply) = state.reply.take() {
                        let _ = reply.send(state.hits);
                    }
                    myself.stop(None);
                }
            }
        }
        Ok(())
    }
}

/// A sender's behaviour.
struct Sender;

impl Actor for Sender {
    type Msg = SenderMsg;
    type State = (u64, ActorRef<ReceiverMsg>);
    type Arguments = (u64, ActorRef<ReceiverMsg>);

    async fn pre_start(
        &self,
        _myself: ActorRef<SenderMsg>,
        args: Self::Arguments,
    ) -> Result<Self::State, ActorProcessingErr> {
        Ok(args)
    }

    async fn handle(
        &self,
        myself: ActorRef<SenderMsg>,
        SenderMsg::Start: SenderMsg,
        (messages, receiver): &mut Self::State,
    ) -> Result<(), ActorProcessingErr> {
        for _ in 0..*messages {
            cast!(receiver, ReceiverMsg::Hit).expect("receiver stopped");
        }
        cast!(receiver, ReceiverMsg::Done).expect("receiver stopped");
        myself.stop(None);
        Ok(())
    }
}

/// `senders` senders each send `messages` messages; the check is the receiver's count.
pub async fn run(senders: u64, messages: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    let (receiver, _) = Actor::spawn(None, Receiver, (senders, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the receiver: {e}"))?;
    let mut all = Vec::with_capacity(senders as usize);
    for i in 0..senders {
        let (sender, _) = Actor::spawn(None, Sender, (messages, receiver.clone()))
            .await
            .map_err(|e| format!("cannot spawn sender {i}: {e}"))?;
        all.push(sender);
    }
    for sender in &all {
        cast!(sender, SenderMsg::Start).map_err(|e| format!("starting a sender: {e}"))?;
    }
    let hits = answer
        .await
        .map_err(|_| "the receiver stopped before every sender was done")?;
    Ok(Outcome::new(hits))
}
