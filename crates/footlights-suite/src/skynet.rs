//! skynet: a tree of actors that sum their leaf numbers (creation and answers, wide fan-out).
//!
//! # On footlights
//!
//! A [`Node`] actor stands for the numbers `num .. num + size`. It is spawned knowing its
//! [`Parent`] and does its work in [`Actor::started`]:
//!
//! * with `size = 1` it answers `num` and stops;
//! * otherwise it spawns `div` children for the numbers `num + k * size / div` (`k = 0 ..
//!   div - 1`), each `size / div` wide, giving each its own address as their parent. A
//!   child's answer arrives as a message (the sum of its numbers); when all `div` are in,
//!   the node answers its parent with their sum and stops.
//!
//! The root, spawned by the main thread, covers `0 .. size` and answers the reply the main
//! thread waits on, so the check is the sum that arrives at the root (`size` is a power of
//! `div`, which the contract checks, so every division is exact).

use footlights::{Actor, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::parent::Parent;
use crate::run;

/// One node of the tree: the numbers `num .. num + size`.
pub struct Node {
    num: u64,
    size: u64,
    div: u64,
    /// Taken when the node answers.
    parent: Option<Parent<Node>>,
    /// The children's answers so far.
    sum: u64,
    /// Children that have not answered yet.
    waiting: u64,
}

impl Node {
    /// The node for `num .. num + size`, splitting `div` ways, answering `parent`.
    pub fn new(num: u64, size: u64, div: u64, parent: Parent<Node>) -> Node {
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
            parent.answer(value);
        }
        ctx.stop();
    }
}

impl Actor for Node {
    /// A child's sum.
    type Msg = u64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.size == 1 {
            return self.answer(ctx, self.num);
        }
        let width = self.size / self.div;
        for k in 0..self.div {
            let child = Node::new(
                self.num + k * width,
                width,
                self.div,
                Parent::Node(ctx.addr()),
            );
            ctx.spawn(child);
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

/// Runs skynet with `size` and `div` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (size, div) = (inv.get("size"), inv.get("div"));
    let (main, reply) = footlights::reply::pair();
    drop(system.spawn(Node::new(0, size, div, Parent::Main(main))));
    let sum = run::await_answer(system, reply, "the sum at the root")?;
    Ok(Outcome::new(sum))
}
