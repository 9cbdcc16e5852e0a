//! fibtree: one actor per call of the naive Fibonacci recursion (creation and request/reply).
//!
//! # On footlights
//!
//! A [`Fib`] actor stands for one call `fib(n)`. It is spawned knowing its caller (its
//! [`Parent`]) and does its work in [`Actor::started`], so no request message is needed:
//!
//! * for `n <= 2` it answers at once (`fib(0) = 0`, `fib(1) = fib(2) = 1`) and stops;
//! * otherwise it spawns the calls for `n - 1` and `n - 2`, giving each its own address as
//!   their caller. Each child's answer arrives as a message (its value); when both are in,
//!   the actor answers its own caller with the sum and stops.
//!
//! The root is spawned by the main thread with the reply the main thread waits on, so the
//! check is the sum that arrives at the root.

use footlights::{Actor, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::parent::Parent;
use crate::run;

/// One call `fib(n)`.
pub struct Fib {
    n: u64,
    /// Taken when the call answers.
    caller: Option<Parent<Fib>>,
    /// The children's answers so far.
    sum: u64,
    /// Children that have not answered yet.
    waiting: u8,
}

impl Fib {
    /// The call `fib(n)`, answering `caller`.
    pub fn new(n: u64, caller: Parent<Fib>) -> Fib {
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
            caller.answer(value);
        }
        ctx.stop();
    }
}

impl Actor for Fib {
    /// A child call's value.
    type Msg = u64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.n <= 2 {
            let value = u64::from(self.n > 0);
            return self.answer(ctx, value);
        }
        for n in [self.n - 1, self.n - 2] {
            ctx.spawn(Fib::new(n, Parent::Node(ctx.addr())));
            self.waiting += 1;
        }
    }

    fn handle(&mut self, ctx: &mut Context<Self>, value: u64) {
        self.sum += value;
        self.waiting -= 1;
        if self.waiting == 0 {
            self.answer(ctx, self.sum);
        }
    }
}

/// Runs fibtree with `n` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (main, reply) = footlights::reply::pair();
    drop(system.spawn(Fib::new(inv.get("n"), Parent::Main(main))));
    let value = run::await_answer(system, reply, "the sum at the root")?;
    Ok(Outcome::new(value))
}
