//! spreading: a binary tree of actors counting its leaves (actor creation).
//!
//! # On footlights
//!
//! A [`Node`] actor at depth `d` is spawned holding the [`ReplyTo`] its parent waits on and
//! does its work in [`Actor::started`]:
//!
//! * with `d = 0` (a leaf) it answers 1 and stops;
//! * otherwise it spawns two children at depth `d - 1`, each holding the answering half of
//!   a fresh reply pair, and continues on both waiting halves with [`Context::then`]. Each
//!   child's answer runs later as a turn of the node; when both are in, the node answers its
//!   parent with their sum and stops.
//!
//! The root, spawned by the main thread at depth `depth`, answers the reply the main thread
//! waits on, so the check is the count of leaves that arrives at the root. A child that
//! fails drops its reply unanswered; its parent then stops and drops its own, up to the
//! main thread.
//!
//! The actor has no messages of its own ([`Infallible`]): it only runs its start and its
//! continuations.

use std::convert::Infallible;

use footlights::reply::pair;
use footlights::{Actor, Canceled, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// One node of the tree.
pub struct Node {
    depth: u64,
    /// The parent's reply; taken when answered.
    parent: Option<ReplyTo<u64>>,
    /// Leaves counted by the children so far.
    leaves: u64,
    /// Children that have not answered yet.
    waiting: u8,
}

impl Node {
    /// A node at `depth`, answering through `parent`.
    pub fn new(depth: u64, parent: ReplyTo<u64>) -> Node {
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
            let _ = parent.send(leaves);
        }
        ctx.stop();
    }

    /// One child's answer.
    fn child_answered(&mut self, ctx: &mut Context<Self>, answer: Result<u64, Canceled>) {
        match answer {
            Ok(leaves) => {
                self.leaves += leaves;
                self.waiting -= 1;
                if self.waiting == 0 {
                    self.answer(ctx, self.leaves);
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
        if self.depth == 0 {
            return self.answer(ctx, 1);
        }
        for _ in 0..2 {
            let (parent, reply) = pair();
            ctx.spawn(Node::new(self.depth - 1, parent));
            self.waiting += 1;
            ctx.then(reply, Node::child_answered);
        }
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Runs spreading with `depth` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (parent, reply) = pair();
    drop(system.spawn(Node::new(inv.get("depth"), parent)));
    let leaves = run::await_answer(system, reply, "the count at the root")?;
    Ok(Outcome::new(leaves))
}
