//! counting: one producer, one counter actor, then one query (Savina's counting actor).
//!
//! # On footlights
//!
//! A [`Producer`] and a [`Counter`]. As soon as it has started, the producer sends `count`
//! [`Msg::Increment`] messages to the counter, as fast as it can, then asks it for its
//! value ([`Msg::Get`], through [`ask`](footlights::Addr::ask)). Messages from one sender
//! arrive in the order sent, so the query is handled after every increment. The producer
//! continues on the reply with [`Context::then`] and passes the value on to the main
//! thread; that value, counted by the counter one message at a time, is the check.
//!
//! The producer does not wait for the counter while it sends, so on one worker thread the
//! counter's mailbox holds up to `count` messages before the counter runs.

use std::convert::Infallible;

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// What the counter receives.
pub enum Msg {
    /// Add one.
    Increment,
    /// Answer the count so far.
    Get(ReplyTo<u64>),
}

/// Counts increments.
pub struct Counter {
    count: u64,
}

impl Actor for Counter {
    type Msg = Msg;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Increment => self.count += 1,
            Msg::Get(reply) => {
                let _ = reply.send(self.count);
            }
        }
    }
}

/// Sends the increments, then the query.
pub struct Producer {
    count: u64,
    counter: Addr<Counter>,
    answer: Option<ReplyTo<u64>>,
}

impl Actor for Producer {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        for _ in 0..self.count {
            let _ = self.counter.send(Msg::Increment);
        }
        let Ok(reply) = self.counter.ask(Msg::Get) else {
            // The counter is gone: stopping drops the run's reply unanswered.
            return ctx.stop();
        };
        let answer = self.answer.take();
        ctx.then(reply, move |_producer, ctx, value| {
            if let (Some(answer), Ok(value)) = (answer, value) {
                let _ = answer.send(value);
            }
            ctx.stop();
        });
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Runs counting with `count` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (answer, value) = footlights::reply::pair();
    let counter = system.spawn(Counter { count: 0 });
    drop(system.spawn(Producer {
        count: inv.get("count"),
        counter,
        answer: Some(answer),
    }));
    let value = run::await_answer(system, value, "the counter's value")?;
    Ok(Outcome::new(value))
}
