//! counting on kameo: a producer sends increments to a counter, then asks for the value.
//!
//! Both are kameo actors. Main `ask`s the producer to `Run`; the producer tells the
//! counter `count` `Increment`s and then `ask`s it for its value, awaiting the reply
//! inside its handler (a mailbox is FIFO per sender, so the question is answered after
//! every increment is counted), and replies that value to main.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;

/// The counter.
#[derive(Actor)]
struct Counter {
    value: u64,
}

/// Add one.
struct Increment;

/// Reply the current value.
struct Get;

impl Message<Increment> for Counter {
    type Reply = ();

    async fn handle(&mut self, _: Increment, _ctx: &mut Context<Self, ()>) {
        self.value += 1;
    }
}

impl Message<Get> for Counter {
    type Reply = u64;

    async fn handle(&mut self, _: Get, _ctx: &mut Context<Self, u64>) -> u64 {
        self.value
    }
}

/// The producer.
#[derive(Actor)]
struct Producer {
    count: u64,
    counter: ActorRef<Counter>,
}

/// Send the increments, ask for the value and reply it.
struct Run;

impl Message<Run> for Producer {
    type Reply = u64;

    async fn handle(&mut self, _: Run, _ctx: &mut Context<Self, u64>) -> u64 {
        for _ in 0..self.count {
            self.counter.tell(Increment).await.expect("counter stopped");
        }
        self.counter.ask(Get).await.expect("counter did not answer")
    }
}

/// Counts `count` increments; the check is the value the counter answers.
pub async fn run(count: u64) -> Result<Outcome, String> {
    let counter = Counter::spawn_with_mailbox(Counter { value: 0 }, mailbox::unbounded());
    let producer = Producer { count, counter };
    let producer = Producer::spawn_with_mailbox(producer, mailbox::unbounded());
    let value = producer
        .ask(Run)
        .await
        .map_err(|e| format!("the producer did not answer: {e}"))?;
    Ok(Outcome::new(value))
}
