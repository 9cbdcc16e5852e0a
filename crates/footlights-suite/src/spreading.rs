//! spreading: a binary tree of actors counting its leaves (actor creation).
//!
//! # On footlights
//!
//! A [`Node`] actor at depth `d` is spawned knowing its [`Parent`] and does its work in
//! [`Actor::started`]:
//!
//! * with `d = 0` (a leaf) it answers 1 and stops;
//! * otherwise it spawns two children at depth `d - 1`, giving each its own address as
//!   their parent. A child's answer arrives as a message (the number of leaves under it);
//!   when both are in, the node answers its parent with their sum and stops.
//!
//! The root, spawned by the main thread at depth `depth`, answers the reply the main thread
//! waits on, so the check is the count of leaves that arrives at the root. A node that
//! stops without answering (it cannot, short of a panic, which ends the process) would
//! leave the main thread with a system gone quiet and no answer: a run error.

use footlights::{Actor, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::parent::Parent;
use crate::run;

/// One node of the tree.
pub struct Node {
    depth: u64,
    /// Taken when the node answers.
    parent: Option<Parent<Node>>,
    /// Leaves counted by the children so far.
    leaves: u64,
    /// Children that have not answered yet.
    waiting: u8,
}

impl Node {
    /// A node at `depth`, answering `parent`.
    pub fn new(depth: u64, parent: Parent<Node>) -> Node {
        Node {
            depth,
            parent: Some(parent),
            leaves: 0,
            waiting: 0,
        }
    }

    /// Answers the parent and stops.
    fn answer(&mut self, ctx: &mut Context<Self>, leaves: u64) {
        if let Some(parent) = self.parent.take() {
            parent.answer(leaves);
        }
        ctx.stop();
    }
}

impl Actor for Node {
    /// A child's count of leaves.
    type Msg = u64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.depth == 0 {
            return self.answer(ctx, 1);
        }
        for _ in 0..2 {
            ctx.spawn(Node::new(self.depth - 1, Parent::Node(ctx.addr())));
            self.waiting += 1;
        }
    }

    fn handle(&mut self, ctx: &mut Context<Self>, leaves: u64) {
        self.leaves += leaves;
        self.waiting -= 1;
        if self.waiting == 0 {
            self.answer(ctx, self.leaves);
        }
    }
}

/// Runs spreading with `depth` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (main, reply) = footlights::reply::pair();
    drop(system.spawn(Node::new(inv.get("depth"), Parent::Main(main))));
    let leaves = run::await_answer(system, reply, "the count at the root")?;
    Ok(Outcome::new(leaves))
}
