//! skynet on actix: a tree of actors that sum their leaf numbers.
//!
//! A node is an actix actor started (round-robin over the arbiters) with `(num, size)`
//! and its parent (a node's `Addr`, or a tokio oneshot back to main for the root). In
//! `Actor::started` a node of size 1 sends `num` and stops; a larger one starts `div`
//! children `(num + k * size / div, size / div)`, handing them its own address as their
//! parent. It adds the `Sum`s they send, and when all `div` are in passes the total up
//! and stops. Sizes are powers of `div`, so the tree is complete with leaves `0..size`.
//!
//! actix stops an actor as soon as no `Addr` to it is left, even when a message to it is
//! still on its way from another arbiter; a node whose last child has just sent its `Sum`
//! and dropped the parent's address could stop before reading it. So a node holds its own
//! address from the moment it starts children until it has answered.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// Where a node sends its sum.
enum Parent {
    /// The parent node.
    Node(Addr<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the tree.
struct Node {
    num: u64,
    size: u64,
    div: u64,
    parent: Option<Parent>,
    pending: u64,
    sum: u64,
    /// The node's own address, held while replies are due (see the module doc).
    myself: Option<Addr<Node>>,
}

impl Node {
    fn new(num: u64, size: u64, div: u64, parent: Parent) -> Node {
        Node {
            num,
            size,
            div,
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
        if self.size == 1 {
            self.sum = self.num;
            self.finish(ctx);
            return;
        }
        let (size, div) = (self.size / self.div, self.div);
        for k in 0..div {
            let (num, parent) = (self.num + k * size, ctx.address());
            arbiters::start(move |_| Node::new(num, size, div, Parent::Node(parent)));
        }
        self.pending = div;
        self.myself = Some(ctx.address());
    }
}

/// A child's sum.
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

/// Sums the leaves `0..size` of a `div`-ary tree of actors.
pub async fn run(size: u64, div: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    arbiters::start(move |_| Node::new(0, size, div, Parent::Main(main)));
    let sum = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(sum))
}
