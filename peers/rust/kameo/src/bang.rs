//! bang on kameo: many senders flood one receiver.
//!
//! The receiver and every sender are kameo actors. Main spawns them all and `ask`s the
//! receiver to `Run` with the senders; it keeps the reply for later (`DelegatedReply`)
//! and tells each sender `Start`. A sender then tells the receiver `messages` `Hit`s and
//! one `Done`, and stops. A mailbox is FIFO per sender, so a sender's `Done` arrives after
//! all its hits. The receiver counts the hits, and when every sender is done it replies
//! its count.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use suite_contract::Outcome;

/// The receiver.
#[derive(Actor)]
struct Receiver {
    hits: u64,
    senders_left: usize,
    reply: Option<ReplySender<u64>>,
}

/// Start these senders; reply the count when all are done.
struct Run(Vec<ActorRef<Sender>>);

/// One message of the flood.
struct Hit;

/// A sender has sent all its messages.
struct Done;

impl Message<Run> for Receiver {
    type Reply = DelegatedReply<u64>;

    async fn handle(
        &mut self,
        Run(senders): Run,
        ctx: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        self.senders_left = senders.len();
        for sender in &senders {
            sender.tell(Start).await.expect("sender stopped");
        }
        delegated
    }
}

impl Message<Hit> for Receiver {
    type Reply = ();

    async fn handle(&mut self, _: Hit, _ctx: &mut Context<Self, ()>) {
        self.hits += 1;
    }
}

impl Message<Done> for Receiver {
    type Reply = ();

    async fn handle(&mut self, _: Done, ctx: &mut Context<Self, ()>) {
        self.senders_left -= 1;
        if self.senders_left == 0 {
            if let Some(reply) = self.reply.take() {
                reply.send(self.hits);
            }
            ctx.stop();
        }
    }
}

/// A sender.
#[derive(Actor)]
struct Sender {
    messages: u64,
    receiver: ActorRef<Receiver>,
}

/// Send the flood.
struct Start;

impl Message<Start> for Sender {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        for _ in 0..self.messages {
            self.receiver.tell(Hit).await.expect("receiver stopped");
        }
        self.receiver.tell(Done).await.expect("receiver stopped");
        ctx.stop();
    }
}

/// `senders` senders each send `messages` messages; the check is the receiver's count.
pub async fn run(senders: u64, messages: u64) -> Result<Outcome, String> {
    let receiver = Receiver {
        hits: 0,
        senders_left: 0,
        reply: None,
    };
    let receiver = Receiver::spawn_with_mailbox(receiver, mailbox::unbounded());
    let all: Vec<ActorRef<Sender>> = (0..senders)
        .map(|_| {
            let sender = Sender {
                messages,
                receiver: receiver.clone(),
            };
            Sender::spawn_with_mailbox(sender, mailbox::unbounded())
        })
        .collect();
    let hits = receiver
        .ask(Run(all))
        .await
        .map_err(|e| format!("the receiver did not answer: {e}"))?;
    Ok(Outcome::new(hits))
}
