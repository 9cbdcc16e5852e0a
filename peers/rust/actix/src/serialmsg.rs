//! serialmsg on actix: generators send to their receivers through one dispatcher.
//!
//! Generators, receivers, the dispatcher and a sink (holding the channel for the
//! answer) are actix actors, all on main's arbiter: every message passes through the one
//! dispatcher, and generators or receivers on other arbiters only made it slower or
//! costlier at two arbiters (peers/README.md). Once all are started,
//! main `do_send`s each generator `Start`; it sends the dispatcher `messages` `Deliver`s,
//! each carrying its receiver's `Addr` and a `Data` payload, then one carrying `End`, and
//! stops. The dispatcher sends each payload on to the addressed receiver. A mailbox is
//! FIFO per sender and all of one generator's traffic goes through the one dispatcher, so
//! `End` reaches a receiver after all its data. A receiver counts data and on `End` sends
//! its count to the sink, which sends the total to main once every receiver has reported.
//! Main holds the receivers' addresses until then: actix stops an actor once no `Addr` to
//! it is left, even with messages on their way, and a generator drops its receiver's
//! address when it stops.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// What a generator sends its receiver.
#[derive(Message)]
#[rtype(result = "()")]
enum Payload {
    /// One message.
    Data,
    /// The generator has sent everything.
    End,
}

/// The dispatcher.
struct Dispatcher;

impl Actor for Dispatcher {
    type Context = Context<Self>;
}

/// Forward `payload` to `to`.
#[derive(Message)]
#[rtype(result = "()")]
struct Deliver {
    to: Addr<Receiver>,
    payload: Payload,
}

impl Handler<Deliver> for Dispatcher {
    type Result = ();

    fn handle(&mut self, Deliver { to, payload }: Deliver, _ctx: &mut Context<Self>) {
        to.do_send(payload);
    }
}

/// A receiver.
struct Receiver {
    count: u64,
    sink: Addr<Sink>,
}

impl Actor for Receiver {
    type Context = Context<Self>;
}

impl Handler<Payload> for Receiver {
    type Result = ();

    fn handle(&mut self, payload: Payload, ctx: &mut Context<Self>) {
        match payload {
            Payload::Data => self.count += 1,
            Payload::End => {
                self.sink.do_send(Received(self.count));
                ctx.stop();
            }
        }
    }
}

/// A generator.
struct Generator {
    messages: u64,
    receiver: Addr<Receiver>,
    dispatcher: Addr<Dispatcher>,
}

impl Actor for Generator {
    type Context = Context<Self>;
}

/// Send all messages.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

impl Handler<Start> for Generator {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        for _ in 0..self.messages {
            self.dispatcher.do_send(Deliver {
                to: self.receiver.clone(),
                payload: Payload::Data,
            });
        }
        self.dispatcher.do_send(Deliver {
            to: self.receiver.clone(),
            payload: Payload::End,
        });
        ctx.stop();
    }
}

/// The sink.
struct Sink {
    receivers_left: u64,
    total: u64,
    answer: Option<oneshot::Sender<u64>>,
}

impl Actor for Sink {
    type Context = Context<Self>;
}

/// A receiver's final count.
#[derive(Message)]
#[rtype(result = "()")]
struct Received(u64);

impl Handler<Received> for Sink {
    type Result = ();

    fn handle(&mut self, Received(count): Received, ctx: &mut Context<Self>) {
        self.total += count;
        self.receivers_left -= 1;
        if self.receivers_left == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.total);
            }
            ctx.stop();
        }
    }
}

/// `pairs` generators each send `messages` messages through the dispatcher; the check
/// is the total the receivers counted.
pub async fn run(pairs: u64, messages: u64) -> Result<Outcome, String> {
    let (answer, total) = oneshot::channel();
    let sink = Sink {
        receivers_left: pairs,
        total: 0,
        answer: Some(answer),
    }
    .start();
    let dispatcher = Dispatcher.start();
    let receivers: Vec<Addr<Receiver>> = (0..pairs)
        .map(|_| {
            let sink = sink.clone();
            Receiver { count: 0, sink }.start()
        })
        .collect();
    let generators: Vec<Addr<Generator>> = receivers
        .iter()
        .map(|receiver| {
            let (receiver, dispatcher) = (receiver.clone(), dispatcher.clone());
            Generator {
                messages,
                receiver,
                dispatcher,
            }
            .start()
        })
        .collect();
    for generator in &generators {
        generator.do_send(Start);
    }
    let total = total
        .await
        .map_err(|_| "the sink stopped before every receiver reported")?;
    let outcome = Outcome::new(total);
    drop(receivers);
    Ok(outcome)
}
