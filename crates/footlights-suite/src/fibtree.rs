//! fibtree: one actor per call of the naive Fibonacci recursion (creation and request/reply).
//!
//! # On footlights
//!
//! A [`Fib`] actor stands for one call `fib(n)`. It is spawned holding the
//! [`ReplyTo`] its caller waits on, and does its work in [`Actor::started`], so no request
//! message is needed:
//!
//! * for `n <= 2` it answers at once (`fib(0) = 0`, `fib(1) = fib(2) = 1`) and stops;
//! * otherwise it makes a reply pair for each of `n - 1` and `n - 2`, spawns a child
//!   holding the answering half, and continues on the waiting half with
//!   [`Context::then`]. Nothing blocks: each child's answer arrives later as a turn of
//!   the parent, which adds it up, and when both are in, answers its own caller with the
//!   sum and stops.
//!
//! The root is spawned by the main thread with the reply the main thread waits on, so the
//! check is the sum that arrives at the root. A child that fails drops its reply unanswered;
//! its parent then drops its own, and the cancellation travels up to the main thread.
//!
//! The actor has no messages of its own ([`Infallible`]): it only ever runs its start and
//! its continuations.

use std::convert::Infallible;

use footlights::reply::pair;
use footlights::{Actor, Canceled, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// One call `fib(n)`.
pub struct Fib {
    n: u64,
    /// The caller's reply; taken when answered.
    caller: Option<ReplyTo<u64>>,
    /// The children's answers so far.
    sum: u64,
    /// Children that have not answered yet.
    waiting: u8,
}

impl Fib {
    /// The call `fib(n)`, answering through `caller`.
    pub fn new(n: u64, caller: ReplyTo<u64>) -> Fib {
        Fib {
            n,
            caller: Some(caller),
            sum: 0,
            waiting: 0,
        }
    }

    /// Answers the caller and stops.
    fn answer(&mut self, ctx: &mut Context<Self>, value: u64) {
        if let Some(caller) = self.caller.take() {
            let _ = caller.send(value);
        }
        ctx.stop();
    }

    /// One child's answer.
    fn child_answered(&mut self, ctx: &mut Context<Self>, answer: Result<u64, Canceled>) {
        match answer {
            Ok(value) => {
                self.sum += value;
                self.waiting -= 1;
                if self.waiting == 0 {
                    self.answer(ctx, self.sum);
                }
            }
            // Stopping drops our caller's reply unanswered: the failure travels up.
            Err(Canceled) => ctx.stop(),
        }
    }
}

impl Actor for Fib {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.n <= 2 {
            let value = u64::from(self.n > 0);
            return self.answer(ctx, value);
        }
        for n in [self.n - 1, self.n - 2] {
            let (caller, reply) = pair();
            ctx.spawn(Fib::new(n, caller));
            self.waiting += 1;
            ctx.then(reply, Fib::child_answered);
        }
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Runs fibtree with `n` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (caller, reply) = pair();
    drop(system.spawn(Fib::new(inv.get("n"), caller)));
    let value = run::await_answer(system, reply, "the sum at the root")?;
    Ok(Outcome::new(value))
}
