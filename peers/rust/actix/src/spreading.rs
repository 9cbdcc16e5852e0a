//! spreading on actix: a binary tree of actors counts its leaves.
//!
//! A node is an actix actor started (round-robin over the arbiters) with its depth `d`
//! and its parent (a node's `Addr`, or a tokio oneshot back to main for the root). In
//! `Actor::started` a node with `d = 0` sends 1 and stops; any other starts two children
//! with `d - 1`, handing them its own address as their parent. It adds the two `Sum`s
//! they send, passes the total up and stops, so the root answers `2^depth`.
//!
//! actix stops an actor as soon as no `Addr` to it is left, even when a message to it is
//! still on its way from another arbiter; a node whose last child has just sent its `Sum`
//! and dropped the parent's address could stop before reading it. So a node holds its own
//! address from the moment it starts children until it has answered.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// Where a node sends its count.
enum Parent {
    /// The parent node.
    Node(Addr<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the tree.
struct Node {
    depth: u64,
    parent: Option<Parent>,
    pending: u32,
    sum: u64,
    /// The node's own address, held while replies are due (see the module doc).
    myself: Option<Addr<Node>>,
}

impl Node {
    fn new(depth: u64, parent: Parent) -> Node {
        Node {
            depth,
            parent: Some(parent),
            pending: 0,
            sum: 0,
            myself: None,
        }
    }

    fn finish(&mut self, ctx: &mut Context<Self>) {
        match self.parent.take() {
            Some(Parent::Node(parent)) => parent.do_send(Sum(self.sum)),
            Some(Parent::Main(main)) => {
                let _ = main.send(self.sum);
            }
            None => {}
        }
        self.myself = None;
        ctx.stop();
    }
}

impl Actor for Node {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.depth == 0 {
            self.sum = 1;
            self.finish(ctx);
            return;
        }
        for _ in 0..2 {
            let (depth, parent) = (self.depth - 1, ctx.address());
            arbiters::start(move |_| Node::new(depth, Parent::Node(parent)));
        }
        self.pending = 2;
        self.myself = Some(ctx.address());
    }
}

/// A child's leaf count.
#[derive(Message)]
#[rtype(result = "()")]
struct Sum(u64);

impl Handler<Sum> for Node {
    type Result = ();

    fn handle(&mut self, Sum(sum): Sum, ctx: &mut Context<Self>) {
        self.sum += sum;
        self.pending -= 1;
        if self.pending == 0 {
            self.finish(ctx);
        }
    }
}

/// Counts the leaves of a binary tree of actors of depth `depth`.
pub async fn run(depth: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    arbiters::start(move |_| Node::new(depth, Parent::Main(main)));
    let leaves = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(leaves))
}
