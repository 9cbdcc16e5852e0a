//! fibtree on actix: one actor per call of the naive Fibonacci recursion.
//!
//! A node is an actix actor started (round-robin over the arbiters) with its `n` and its
//! parent: another node's `Addr`, or for the root a tokio oneshot back to main. The work
//! starts in `Actor::started`: a node with `n <= 2` sends its answer at once
//! (fib(0) = 0, fib(1) = fib(2) = 1) and stops; any other starts two children for `n - 1`
//! and `n - 2`, handing them its own address as their parent. Each child `do_send`s its
//! `Sum` up; the node adds the two, passes the total to its own parent and stops.
//!
//! actix stops an actor as soon as no `Addr` to it is left, even when a message to it is
//! still on its way from another arbiter; a node whose last child has just sent its `Sum`
//! and dropped the parent's address could stop before reading it. So a node holds its own
//! address from the moment it starts children until it has answered.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// Where a node sends its result.
enum Parent {
    /// The parent node.
    Node(Addr<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the call tree.
struct Node {
    n: u64,
    parent: Option<Parent>,
    pending: u32,
    sum: u64,
    /// The node's own address, held while replies are due (see the module doc).
    myself: Option<Addr<Node>>,
}

impl Node {
    fn new(n: u64, parent: Parent) -> Node {
        Node {
            n,
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
        if self.n <= 2 {
            self.sum = u64::from(self.n > 0);
            self.finish(ctx);
            return;
        }
        for child in [self.n - 1, self.n - 2] {
            let parent = ctx.address();
            arbiters::start(move |_| Node::new(child, Parent::Node(parent)));
        }
        self.pending = 2;
        self.myself = Some(ctx.address());
    }
}

/// A child's result.
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

/// Computes fib(`n`) with a tree of actors.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    arbiters::start(move |_| Node::new(n, Parent::Main(main)));
    let fib = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(fib))
}
