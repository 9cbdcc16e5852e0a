//! The actor tree that fibtree, skynet and spreading share on actix.
//!
//! A node is an actix actor started with its [`Shape`] and its parent: another node's
//! `Addr`, or for the root a tokio oneshot back to main. In `Actor::started` a leaf sends
//! its value and stops; any other node starts its children, handing them its own address
//! as their parent. It adds the `Sum`s they send, passes the total up and stops. The three
//! benchmarks differ only in their shape: what a leaf is worth and which children a node
//! has.
//!
//! Where the nodes run: subtrees are independent work, so the top of the tree is spread
//! over the arbiters and the rest stays put. The root starts on main's arbiter; while a
//! level of the tree has fewer than [`SUBTREES_PER_ARBITER`] nodes per arbiter, its nodes
//! start their children round-robin over the arbiters; below that, every node starts its
//! children on its own arbiter with `Actor::create`, so parent and child talk without
//! crossing threads. skynet (`div=10`) spreads the root's ten children, spreading and
//! fibtree (two children each) the top three levels; on one arbiter nothing moves.
//!
//! actix stops an actor as soon as no `Addr` to it is left, even when a message to it is
//! still on its way from another arbiter; a node whose last child has just sent its `Sum`
//! and dropped the parent's address could stop before reading it. So a node holds its own
//! address from the moment it starts children until it has answered.

use actix::prelude::*;
use tokio::sync::oneshot;

use crate::arbiters;

/// Subtrees per arbiter to spread the top of the tree into before nodes start their
/// children on their own arbiter.
const SUBTREES_PER_ARBITER: usize = 4;

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
    /// How many nodes the tree has at this node's depth, while the tree is being spread
    /// over the arbiters (see the module doc).
    width: usize,
    /// The node's own address, held while replies are due (see the module doc).
    myself: Option<Addr<Node<S>>>,
}

impl<S: Shape> Node<S> {
    fn new(shape: S, parent: Parent<S>, width: usize) -> Node<S> {
        Node {
            shape,
            parent: Some(parent),
            pending: 0,
            sum: 0,
            width,
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
        let children: Vec<S> = self.shape.children().collect();
        let spread = arbiters::count() > 1 && self.width < SUBTREES_PER_ARBITER * arbiters::count();
        let width = self.width * children.len();
        for child in children {
            let parent = ctx.address();
            let node =
                move |_: &mut Context<Node<S>>| Node::new(child, Parent::Node(parent), width);
            if spread {
                arbiters::start_next(node);
            } else {
                Node::create(node);
            }
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
    Node::new(root, Parent::Main(main), 1).start();
    answer
        .await
        .map_err(|_| "the root stopped without answering".to_string())
}
