//! bang on actix: many senders flood one receiver.
//!
//! The receiver (holding the channel for the answer) and every sender are actix actors,
//! all on main's arbiter: every message goes to the one receiver, and senders on other
//! arbiters only made each send a cross-thread wake-up of the receiver's arbiter (measured
//! slower at two arbiters, peers/README.md). Once all are started, main `do_send`s each
//! sender `Start`; a sender then sends the receiver `messages` `Hit`s and one `Done`, and
//! stops. A mailbox is FIFO per sender, so a sender's `Done` arrives after all its hits.
//! The receiver counts hits, and when every sender is done it sends its count to main.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// The receiver.
struct Receiver {
    hits: u64,
    senders_left: u64,
    answer: Option<oneshot::Sender<u64>>,
}

impl Actor for Receiver {
    type Context = Context<Self>;
}

/// One message of the flood.
#[derive(Message)]
#[rtype(result = "()")]
struct Hit;

/// A sender has sent all its messages.
#[derive(Message)]
#[rtype(result = "()")]
struct Done;

impl Handler<Hit> for Receiver {
    type Result = ();

    fn handle(&mut self, _: Hit, _ctx: &mut Context<Self>) {
        self.hits += 1;
    }
}

impl Handler<Done> for Receiver {
    type Result = ();

    fn handle(&mut self, _: Done, ctx: &mut Context<Self>) {
        self.senders_left -= 1;
        if self.senders_left == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.hits);
            }
            ctx.stop();
        }
    }
}

/// A sender.
struct Sender {
    messages: u64,
    receiver: Addr<Receiver>,
}

impl Actor for Sender {
    type Context = Context<Self>;
}

/// Send the flood.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

impl Handler<Start> for Sender {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        for _ in 0..self.messages {
            self.receiver.do_send(Hit);
        }
        self.receiver.do_send(Done);
        ctx.stop();
    }
}

/// `senders` senders each send `messages` messages; the check is the receiver's count.
pub async fn run(senders: u64, messages: u64) -> Result<Outcome, String> {
    let (answer, hits) = oneshot::channel();
    let receiver = Receiver {
        hits: 0,
        senders_left: senders,
        answer: Some(answer),
    }
    .start();
    let all: Vec<Addr<Sender>> = (0..senders)
        .map(|_| {
            let receiver = receiver.clone();
            Sender { messages, receiver }.start()
        })
        .collect();
    for sender in &all {
        sender.do_send(Start);
    }
    let hits = hits
        .await
        .map_err(|_| "the receiver stopped before every sender was done")?;
    Ok(Outcome::new(hits))
}
