//! serialmsg on kameo: generators send to their receivers through one dispatcher.
//!
//! Generators, receivers, the dispatcher and a sink are kameo actors. Main spawns them
//! and `ask`s the sink to `Run` with the generators; the sink keeps the reply for later
//! (`DelegatedReply`) and tells each generator `Start`. A generator tells the dispatcher
//! `messages` `Deliver`s, each carrying its receiver's `ActorRef` and a `Data` payload,
//! then one carrying `End`, and stops. The dispatcher tells each payload to the addressed
//! receiver. A mailbox is FIFO per sender and all of one generator's traffic goes through
//! the one dispatcher, so `End` reaches a receiver after all its data. A receiver counts
//! data and on `End` tells the sink its count; when every receiver has reported, the sink
//! replies the total.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use suite_contract::Outcome;

/// What a generator sends its receiver.
enum Payload {
    /// One message.
    Data,
    /// The generator has sent everything.
    End,
}

/// The dispatcher.
#[derive(Actor)]
struct Dispatcher;

/// Forward `payload` to `to`.
struct Deliver {
    to: ActorRef<Receiver>,
    payload: Payload,
}

impl Message<Deliver> for Dispatcher {
    type Reply = ();

    async fn handle(&mut self, Deliver { to, payload }: Deliver, _ctx: &mut Context<Self, ()>) {
        to.tell(payload).await.expect("receiver stopped");
    }
}

/// A receiver.
#[derive(Actor)]
struct Receiver {
    count: u64,
    sink: ActorRef<Sink>,
}

impl Message<Payload> for Receiver {
    type Reply = ();

    async fn handle(&mut self, payload: Payload, ctx: &mut Context<Self, ()>) {
        match payload {
            Payload::Data => self.count += 1,
            Payload::End => {
                self.sink
                    .tell(Received(self.count))
                    .await
                    .expect("sink stopped");
                ctx.stop();
            }
        }
    }
}

/// A generator.
#[derive(Actor)]
struct Generator {
    messages: u64,
    receiver: ActorRef<Receiver>,
    dispatcher: ActorRef<Dispatcher>,
}

/// Send all messages.
struct Start;

impl Message<Start> for Generator {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        for _ in 0..self.messages {
            let deliver = Deliver {
                to: self.receiver.clone(),
                payload: Payload::Data,
            };
            self.dispatcher
                .tell(deliver)
                .await
                .expect("dispatcher stopped");
        }
        let end = Deliver {
            to: self.receiver.clone(),
            payload: Payload::End,
        };
        self.dispatcher.tell(end).await.expect("dispatcher stopped");
        ctx.stop();
    }
}

/// The sink.
#[derive(Actor)]
struct Sink {
    receivers_left: usize,
    total: u64,
    reply: Option<ReplySender<u64>>,
}

/// Start these generators; reply the total when every receiver has reported.
struct Run(Vec<ActorRef<Generator>>);

/// A receiver's final count.
struct Received(u64);

impl Message<Run> for Sink {
    type Reply = DelegatedReply<u64>;

    async fn handle(
        &mut self,
        Run(generators): Run,
        ctx: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        self.receivers_left = generators.len();
        for generator in &generators {
            generator.tell(Start).await.expect("generator stopped");
        }
        delegated
    }
}

impl Message<Received> for Sink {
    type Reply = ();

    async fn handle(&mut self, Received(count): Received, ctx: &mut Context<Self, ()>) {
        self.total += count;
        self.receivers_left -= 1;
        if self.receivers_left == 0 {
            if let Some(reply) = self.reply.take() {
                reply.send(self.total);
            }
            ctx.stop();
        }
    }
}

/// `pairs` generators each send `messages` messages through the dispatcher; the check
/// is the total the receivers counted.
pub async fn run(pairs: u64, messages: u64) -> Result<Outcome, String> {
    let sink = Sink {
        receivers_left: 0,
        total: 0,
        reply: None,
    };
    let sink = Sink::spawn_with_mailbox(sink, mailbox::unbounded());
    let dispatcher = Dispatcher::spawn_with_mailbox(Dispatcher, mailbox::unbounded());
    let generators: Vec<ActorRef<Generator>> = (0..pairs)
        .map(|_| {
            let receiver = Receiver {
                count: 0,
                sink: sink.clone(),
            };
            let generator = Generator {
                messages,
                receiver: Receiver::spawn_with_mailbox(receiver, mailbox::unbounded()),
                dispatcher: dispatcher.clone(),
            };
            Generator::spawn_with_mailbox(generator, mailbox::unbounded())
        })
        .collect();
    let total = sink
        .ask(Run(generators))
        .await
        .map_err(|e| format!("the sink did not answer: {e}"))?;
    Ok(Outcome::new(total))
}
