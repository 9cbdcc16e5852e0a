//! fibtree on kameo: one actor per call of the naive Fibonacci recursion.
//!
//! A node is a kameo actor spawned with its `n` and its parent: another node's `ActorRef`,
//! or for the root a tokio oneshot back to main. The work starts in `on_start`: a node
//! with `n <= 2` sends its answer at once (fib(0) = 0, fib(1) = fib(2) = 1); any other
//! spawns two children for `n - 1` and `n - 2`, handing them its own `ActorRef` as their
//! parent. Each child tells its `Sum` up; the node adds the two, passes the total to its
//! own parent and stops. No one keeps a node's `ActorRef` but its children, so kameo also
//! ends every node once its subtree has answered.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::error::Infallible;
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// Where a node sends its result.
enum Parent {
    /// The parent node.
    Node(ActorRef<Node>),
    /// Main, for the root.
    Main(oneshot::Sender<u64>),
}

/// A node of the call tree.
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

    async fn on_start((n, parent): Self::Args, myself: ActorRef<Node>) -> Result<Node, Infallible> {
        let mut node = Node {
            parent: Some(parent),
            pending: 0,
            sum: 0,
        };
        if n <= 2 {
            node.sum = u64::from(n > 0);
            node.finish().await;
        } else {
            for child in [n - 1, n - 2] {
                let args = (child, Parent::Node(myself.clone()));
                Node::spawn_with_mailbox(args, mailbox::unbounded());
            }
            node.pending = 2;
        }
        Ok(node)
    }
}

/// A child's result.
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

/// Computes fib(`n`) with a tree of actors.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let (main, answer) = oneshot::channel();
    Node::spawn_with_mailbox((n, Parent::Main(main)), mailbox::unbounded());
    let fib = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(fib))
}
