//! The actor tree that fibtree, skynet and spreading share on kameo.
//!
//! A node is a kameo actor spawned with its [`Shape`] and its parent: another node's
//! `ActorRef`, or for the root the oneshot main waits on. In `on_start` a leaf answers its
//! value at once; any other node spawns its children, naming itself as their parent. Each
//! child `tell`s its `Sum` up; when every child has answered, the node passes the total to
//! its own parent and stops. Nobody keeps a node's `ActorRef` but its children, so kameo
//! also ends a leaf as soon as it has answered. The three benchmarks differ only in their
//! shape: what a leaf is worth and which children a node has.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::error::Infallible;
use kameo::mailbox;
use kameo::message::{Context, Message};
use tokio::sync::oneshot;

/// What varies between the tree benchmarks.
pub trait Shape: Send + Sync + Sized + 'static {
    /// The value of a leaf, or `None` for a node with children.
    fn leaf(&self) -> Option<u64>;
    /// The children of a node that is not a leaf.
    fn children(&self) -> impl Iterator<Item = Self> + Send;
}

/// Where a node sends its total.
enum Parent<S: Shape> {
    /// The parent node.
    Node(ActorRef<Node<S>>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the tree.
struct Node<S: Shape> {
    parent: Option<Parent<S>>,
    pending: u32,
    sum: u64,
}

impl<S: Shape> Node<S> {
    async fn finish(&mut self) {
        match self.parent.take() {
            Some(Parent::Node(parent)) => {
                parent
                    .tell(Sum(self.sum))
                    .await
                    .expect("parent node stopped");
            }
            Some(Parent::Main(main)) => {
                let _ = main.send(self.sum);
            }
            None => {}
        }
    }
}

impl<S: Shape> Actor for Node<S> {
    type Args = (S, Parent<S>);
    type Error = Infallible;

    async fn on_start(
        (shape, parent): Self::Args,
        myself: ActorRef<Node<S>>,
    ) -> Result<Node<S>, Infallible> {
        let mut node = Node {
            parent: Some(parent),
            pending: 0,
            sum: 0,
        };
        if let Some(value) = shape.leaf() {
            node.sum = value;
            node.finish().await;
        } else {
            for child in shape.children() {
                let args = (child, Parent::Node(myself.clone()));
                Node::spawn_with_mailbox(args, mailbox::unbounded());
                node.pending += 1;
            }
        }
        Ok(node)
    }
}

/// A child's total.
struct Sum(u64);

impl<S: Shape> Message<Sum> for Node<S> {
    type Reply = ();

    async fn handle(&mut self, Sum(sum): Sum, ctx: &mut Context<Self, ()>) {
        self.sum += sum;
        self.pending -= 1;
        if self.pending == 0 {
            self.finish().await;
            ctx.stop();
        }
    }
}

/// Grows a tree from `root` and returns the total that reaches main.
pub async fn total<S: Shape>(root: S) -> Result<u64, String> {
    let (main, answer) = oneshot::channel();
    Node::spawn_with_mailbox((root, Parent::Main(main)), mailbox::unbounded());
    answer
        .await
        .map_err(|_| "the root stopped without answering".to_string())
}
