//! skynet: a tree of actors that sum their leaf numbers (creation and replies, wide fan-out).
//!
//! # On footlights
//!
//! A [`Node`] actor stands for the numbers `num .. num + size`. It is spawned holding the
//! [`ReplyTo`] its parent waits on and does its work in [`Actor::started`]:
//!
//! * with `size = 1` it answers `num` and stops;
//! * otherwise it spawns `div` children for the numbers `num + k * size / div` (`k = 0 ..
//!   div - 1`), each `size / div` wide and holding the answering half of a fresh reply pair,
//!   and continues on every waiting half with [`Context::then`]. Each child's answer runs
//!   later as a turn of the node, which adds it up; when all `div` are in, the node answers
//!   its parent with the sum and stops.
//!
//! The root, spawned by the main thread, covers `0 .. size` and answers the reply the main
//! thread waits on, so the check is the sum that arrives at the root (`size` is a power of
//! `div`, which the contract checks, so every division is exact). A child that fails drops
//! its reply unanswered; its parent then stops and drops its own, up to the main thread.
//!
//! The actor has no messages of its own ([`Infallible`]): it only runs its start and its
//! continuations.

use std::convert::Infallible;

use footlights::reply::pair;
use footlights::{Actor, Canceled, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// One node of the tree: the numbers `num .. num + size`.
pub struct Node {
    num: u64,
    size: u64,
    div: u64,
    /// The parent's reply; taken when answered.
    parent: Option<ReplyTo<u64>>,
    /// The children's answers so far.
    sum: u64,
    /// Children that have not answered yet.
    waiting: u64,
}

impl Node {
    /// The node for `num .. num + size`, splitting `div` ways, answering through `parent`.
    pub fn new(num: u64, size: u64, div: u64, parent: ReplyTo<u64>) -> Node {
        Node {
            num,
            size,
            div,
            parent: Some(parent),
            sum: 0,
            waiting: 0,
        }
    }

    /// Answers the parent and stops.
    fn answer(&mut self, ctx: &mut Context<Self>, value: u64) {
        if let Some(parent) = self.parent.take() {
            let _ = parent.send(value);
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
            // Stopping drops our parent's reply unanswered: the failure travels up.
            Err(Canceled) => ctx.stop(),
        }
    }
}

impl Actor for Node {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.size == 1 {
            return self.answer(ctx, self.num);
        }
        let width = self.size / self.div;
        for k in 0..self.div {
            let (parent, reply) = pair();
            ctx.spawn(Node::new(self.num + k * width, width, self.div, parent));
            self.waiting += 1;
            ctx.then(reply, Node::child_answered);
        }
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Runs skynet with `size` and `div` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (size, div) = (inv.get("size"), inv.get("div"));
    let (parent, reply) = pair();
    drop(system.spawn(Node::new(0, size, div, parent)));
    let sum = run::await_answer(system, reply, "the sum at the root")?;
    Ok(Outcome::new(sum))
}
