//! The actor tree that fibtree, skynet and spreading share on actix.
//!
//! A node is an actix actor started (round-robin over the arbiters) with its [`Shape`]
//! and its parent: another node's `Addr`, or for the root a tokio oneshot back to main. In
//! `Actor::started` a leaf sends its value and stops; any other node starts its children,
//! handing them its own address as their parent. It adds the `Sum`s they send, passes the
//! total up and stops. The three benchmarks differ only in their shape: what a leaf is
//! worth and which children a node has.
//!
//! actix stops an actor as soon as no `Addr` to it is left, even when a message to it is
//! still on its way from another arbiter; a node whose last child has just sent its `Sum`
//! and dropped the parent's address could stop before reading it. So a node holds its own
//! address from the moment it starts children until it has answered.

use actix::prelude::*;
use tokio::sync::oneshot;

use crate::arbiters;

/// What varies between the tree benchmarks.
pub trait Shape: Send + Unpin + Sized + 'static {
    /// The value of a leaf, or `None` for a node with children.
    fn leaf(&self) -> Option<u64>;
    /// The children of a node that is not a leaf.
    fn children(&self) -> impl Iterator<Item = Self> + Send;
}

/// Where a node sends its total.
enum Parent<S: Shape> {
    /// The parent node.
    Node(Addr<Node<S>>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the tree.
struct Node<S: Shape> {
    shape: S,
    parent: Option<Parent<S>>,
    pending: u32,
    sum: u64,
    /// The node's own address, held while replies are due (see the module doc).
    myself: Option<Addr<Node<S>>>,
}

impl<S: Shape> Node<S> {
    fn new(shape: S, parent: Parent<S>) -> Node<S> {
        Node {
            shape,
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

impl<S: Shape> Actor for Node<S> {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        if let Some(value) = self.shape.leaf() {
            self.sum = value;
            self.finish(ctx);
            return;
        }
        for child in self.shape.children() {
            let parent = ctx.address();
            arbiters::start(move |_| Node::new(child, Parent::Node(parent)));
            self.pending += 1;
        }
        self.myself = Some(ctx.address());
    }
}

/// A child's total.
#[derive(Message)]
#[rtype(result = "()")]
struct Sum(u64);

impl<S: Shape> Handler<Sum> for Node<S> {
    type Result = ();

    fn handle(&mut self, Sum(sum): Sum, ctx: &mut Context<Self>) {
        self.sum += sum;
        self.pending -= 1;
        if self.pending == 0 {
            self.finish(ctx);
        }
    }
}

/// Grows a tree from `root` and returns the total that reaches main.
pub async fn total<S: Shape>(root: S) -> Result<u64, String> {
    let (main, answer) = oneshot::channel();
    arbiters::start(move |_| Node::new(root, Parent::Main(main)));
    answer
        .await
        .map_err(|_| "the root stopped without answering".to_string())
}
