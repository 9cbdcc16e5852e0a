//! counting on actix: a producer sends increments to a counter, then asks for the value.
//!
//! Both are actix actors. The counter is on main's arbiter and the producer on the next one
//! (the same one when there is only one): a producer and a consumer are a pipeline, and on
//! two arbiters the counter counts while the increments are still being sent, instead of
//! after the producer has queued them all (measured faster, and with a third of the
//! memory, peers/README.md). Main
//! `send(Run).await`s the producer; the producer `do_send`s `count` `Increment`s to the
//! counter and answers with a `ResponseFuture` that `send(Get).await`s the counter (a
//! mailbox is FIFO per sender, so `Get` is answered after every increment is counted).
//! The value the counter answers is the check.

use actix::prelude::*;
use suite_contract::Outcome;

use crate::arbiters;

/// The counter.
struct Counter {
    value: u64,
}

impl Actor for Counter {
    type Context = Context<Self>;
}

/// Add one.
#[derive(Message)]
#[rtype(result = "()")]
struct Increment;

/// Answer the current value.
#[derive(Message)]
#[rtype(result = "u64")]
struct Get;

impl Handler<Increment> for Counter {
    type Result = ();

    fn handle(&mut self, _: Increment, _ctx: &mut Context<Self>) {
        self.value += 1;
    }
}

impl Handler<Get> for Counter {
    type Result = u64;

    fn handle(&mut self, _: Get, _ctx: &mut Context<Self>) -> u64 {
        self.value
    }
}

/// The producer.
struct Producer {
    count: u64,
    counter: Addr<Counter>,
}

impl Actor for Producer {
    type Context = Context<Self>;
}

/// Send the increments, then answer the counter's value.
#[derive(Message)]
#[rtype(result = "Result<u64, MailboxError>")]
struct Run;

impl Handler<Run> for Producer {
    type Result = ResponseFuture<Result<u64, MailboxError>>;

    fn handle(&mut self, _: Run, _ctx: &mut Context<Self>) -> Self::Result {
        for _ in 0..self.count {
            self.counter.do_send(Increment);
        }
        let counter = self.counter.clone();
        Box::pin(async move { counter.send(Get).await })
    }
}

/// Counts `count` increments; the check is the value the counter answers.
pub async fn run(count: u64) -> Result<Outcome, String> {
    let counter = Counter { value: 0 }.start();
    let producer = arbiters::start_on(1, move |_| Producer { count, counter });
    let value = producer
        .send(Run)
        .await
        .map_err(|e| format!("the producer did not answer: {e}"))?
        .map_err(|e| format!("the counter did not answer: {e}"))?;
    Ok(Outcome::new(value))
}
