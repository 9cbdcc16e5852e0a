//! spreading on kameo: a binary tree of actors counts its leaves.
//!
//! A node is a kameo actor spawned with its depth `d` and its parent (a node's
//! `ActorRef`, or a tokio oneshot back to main for the root). In `on_start` a node with
//! `d = 0` sends 1 at once; any other spawns two children with `d - 1`, handing them its
//! own `ActorRef` as their parent. It adds the two `Sum`s they tell it, passes the total
//! up and stops, so the root answers the number of leaves, `2^depth`.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::error::Infallible;
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// Where a node sends its count.
enum Parent {
    /// The parent node.
    Node(ActorRef<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the tree.
struct Node {
    parent: Option<Parent>,
    pending: u32,
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
    type Args = (u64, Parent);
    type Error = Infallible;

    async fn on_start(
        (depth, parent): Self::Args,
        myself: ActorRef<Node>,
    ) -> Result<Node, Infallible> {
        let mut node = Node {
            parent: Some(parent),
            pending: 0,
            sum: 0,
        };
        if depth == 0 {
            node.sum = 1;
            node.finish().await;
        } else {
            for _ in 0..2 {
                let args = (depth - 1, Parent::Node(myself.clone()));
                Node::spawn_with_mailbox(args, mailbox::unbounded());
            }
            node.pending = 2;
        }
        Ok(node)
    }
}

/// A child's leaf count.
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

/// Counts the leaves of a binary tree of actors of depth `depth`.
pub async fn run(depth: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    Node::spawn_with_mailbox((depth, Parent::Main(main)), mailbox::unbounded());
    let leaves = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(leaves))
}
