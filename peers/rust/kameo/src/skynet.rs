//! skynet on kameo: a tree of actors that sum their leaf numbers.
//!
//! A node is a kameo actor spawned with `(num, size)` and its parent (a node's
//! `ActorRef`, or a tokio oneshot back to main for the root). In `on_start` a node of
//! size 1 sends `num` at once; a larger one spawns `div` children
//! `(num + k * size / div, size / div)`, handing them its own `ActorRef` as their parent.
//! It adds the `Sum`s they tell it, and when all `div` are in passes the total up and
//! stops. Sizes are powers of `div`, so the tree is complete with leaves `0..size`.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::error::Infallible;
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// Where a node sends its sum.
enum Parent {
    /// The parent node.
    Node(ActorRef<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// What a node is spawned with.
struct Subtree {
    num: u64,
    size: u64,
    div: u64,
    parent: Parent,
}

/// A node of the tree.
struct Node {
    parent: Option<Parent>,
    pending: u64,
    sum: u64,
}

impl Node {
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

impl Actor for Node {
    type Args = Subtree;
    type Error = Infallible;

    async fn on_start(tree: Subtree, myself: ActorRef<Node>) -> Result<Node, Infallible> {
        let mut node = Node {
            parent: Some(tree.parent),
            pending: 0,
            sum: 0,
        };
        if tree.size == 1 {
            node.sum = tree.num;
            node.finish().await;
        } else {
            let size = tree.size / tree.div;
            for k in 0..tree.div {
                let child = Subtree {
                    num: tree.num + k * size,
                    size,
                    div: tree.div,
                    parent: Parent::Node(myself.clone()),
                };
                Node::spawn_with_mailbox(child, mailbox::unbounded());
            }
            node.pending = tree.div;
        }
        Ok(node)
    }
}

/// A child's sum.
struct Sum(u64);

impl Message<Sum> for Node {
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

/// Sums the leaves `0..size` of a `div`-ary tree of actors.
pub async fn run(size: u64, div: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    let root = Subtree {
        num: 0,
        size,
        div,
        parent: Parent::Main(main),
    };
    Node::spawn_with_mailbox(root, mailbox::unbounded());
    let sum = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(sum))
}
