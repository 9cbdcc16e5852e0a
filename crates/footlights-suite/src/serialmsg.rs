//! serialmsg: messages proxied through one dispatcher (BenchErl's serialmsg).
//!
//! # On footlights
//!
//! `pairs` [`Generator`]/[`Receiver`] pairs, one [`Dispatcher`] and one [`Tally`]. The
//! dispatcher holds the receivers' addresses, and a message names its receiver by index,
//! so forwarding costs no address clone. Each generator, as soon as it has started, sends
//! `messages` [`Envelope`]s addressed to its receiver through the dispatcher, then one
//! closing envelope, and stops. The dispatcher forwards every envelope to the receiver it
//! names. A receiver counts the messages it gets; on the closing envelope (which comes
//! last, since messages from one sender arrive in the order sent, through the dispatcher
//! as well) it reports its count to the tally and stops. The tally answers the main thread
//! with the sum once every receiver has reported; that sum is the check.

use std::convert::Infallible;

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// What a receiver gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// One message, with its sequence number.
    Message(u64),
    /// The generator has sent everything.
    Close,
}

/// A payload and the index of the receiver it is for.
pub struct Envelope {
    /// The receiver's index.
    to: u32,
    /// What it gets.
    payload: Payload,
}

/// Sends its messages through the dispatcher, once.
pub struct Generator {
    to: u32,
    messages: u64,
    dispatcher: Addr<Dispatcher>,
}

impl Actor for Generator {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        let to = self.to;
        for seq in 0..self.messages {
            let payload = Payload::Message(seq);
            let _ = self.dispatcher.send(Envelope { to, payload });
        }
        let _ = self.dispatcher.send(Envelope {
            to,
            payload: Payload::Close,
        });
        ctx.stop();
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Forwards each envelope's payload to the receiver it names.
pub struct Dispatcher {
    receivers: Vec<Addr<Receiver>>,
}

impl Actor for Dispatcher {
    type Msg = Envelope;

    fn handle(&mut self, _ctx: &mut Context<Self>, Envelope { to, payload }: Envelope) {
        if let Some(receiver) = self.receivers.get(to as usize) {
            let _ = receiver.send(payload);
        }
    }
}

/// Counts the messages for it.
pub struct Receiver {
    received: u64,
    tally: Addr<Tally>,
}

impl Actor for Receiver {
    type Msg = Payload;

    fn handle(&mut self, ctx: &mut Context<Self>, payload: Payload) {
        match payload {
            Payload::Message(_) => self.received += 1,
            Payload::Close => {
                let _ = self.tally.send(self.received);
                ctx.stop();
            }
        }
    }
}

/// Adds up the receivers' counts.
pub struct Tally {
    missing: u64,
    delivered: u64,
    answer: Option<ReplyTo<u64>>,
}

impl Actor for Tally {
    /// A receiver's count.
    type Msg = u64;

    fn handle(&mut self, ctx: &mut Context<Self>, received: u64) {
        self.delivered += received;
        self.missing -= 1;
        if self.missing == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.delivered);
            }
            ctx.stop();
        }
    }
}

/// Runs serialmsg with `pairs` and `messages` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let pairs = inv.get("pairs");
    let messages = inv.get("messages");
    let (answer, delivered) = footlights::reply::pair();
    let tally = system.spawn(Tally {
        missing: pairs,
        delivered: 0,
        answer: Some(answer),
    });
    let receivers = (0..pairs)
        .map(|_| {
            system.spawn(Receiver {
                received: 0,
                tally: tally.clone(),
            })
        })
        .collect();
    drop(tally);
    let dispatcher = system.spawn(Dispatcher { receivers });
    for to in 0..pairs {
        system.spawn(Generator {
            to: to as u32,
            messages,
            dispatcher: dispatcher.clone(),
        });
    }
    drop(dispatcher);
    let delivered = run::await_answer(system, delivered, "the receivers' total")?;
    Ok(Outcome::new(delivered))
}
