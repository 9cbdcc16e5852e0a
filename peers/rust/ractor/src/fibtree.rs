//! fibtree on ractor: one actor per call of the naive Fibonacci recursion.
//!
//! A node is a ractor actor started with its `n` and its parent: another node's
//! `ActorRef`, or for the root the `RpcReplyPort` main waits on. In `post_start` a node
//! with `n <= 2` answers at once (fib(0) = 0, fib(1) = fib(2) = 1); any other spawns two
//! children for `n - 1` and `n - 2`, naming itself as their parent, and returns to its
//! mailbox. Each child casts its `Sum` up; the node adds the two, passes the total to its
//! own parent and stops. The answer is the root's total.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of a node.
pub enum NodeMsg {
    /// A child's result.
    Sum(u64),
}

/// Where a node sends its result.
pub enum Parent {
    /// The parent node.
    Node(ActorRef<NodeMsg>),
    /// Main, for the root.
    Main(RpcReplyPort<u64>),
}

impl Parent {
    fn send(self, sum: u64) {
        match self {
            Parent::Node(node) => cast!(node, NodeMsg::Sum(sum)).expect("parent node stopped"),
            Parent::Main(port) => {
                let _ = port.send(sum);
            }
        }
    }
}

/// A node's behaviour.
struct Node;

/// A node's state.
struct NodeState {
    n: u64,
    parent: Option<Parent>,
    pending: u32,
    sum: u64,
}

impl NodeState {
    fn finish(&mut self, myself: &ActorRef<NodeMsg>) {
        if let Some(parent) = self.parent.take() {
            parent.send(self.sum);
        }
        myself.stop(None);
    }
}

impl Actor for Node {
    type Msg = NodeMsg;
    type State = NodeState;
    type Arguments = (u64, Parent);

    async fn pre_start(
        &self,
        _myself: ActorRef<NodeMsg>,
        (n, parent): Self::Arguments,
    ) -> Result<NodeState, ActorProcessingErr> {
        Ok(NodeState {
            n,
            parent: Some(parent),
            pending: 0,
            sum: 0,
        })
    }

    async fn post_start(
        &self,
        myself: ActorRef<NodeMsg>,
        state: &mut NodeState,
    ) -> Result<(), ActorProcessingErr> {
        if state.n <= 2 {
            state.sum = u64::from(state.n > 0);
            state.finish(&myself);
            return Ok(());
        }
        for child in [state.n - 1, state.n - 2] {
            Actor::spawn(None, Node, (child, Parent::Node(myself.clone())))
                .await
                .expect("cannot spawn a fibtree node");
        }
        state.pending = 2;
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<NodeMsg>,
        NodeMsg::Sum(sum): NodeMsg,
        state: &mut NodeState,
    ) -> Result<(), ActorProcessingErr> {
        state.sum += sum;
        state.pending -= 1;
        if state.pending == 0 {
            state.finish(&myself);
        }
        Ok(())
    }
}

/// Computes fib(`n`) with a tree of actors.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    Actor::spawn(None, Node, (n, Parent::Main(reply.into())))
        .await
        .map_err(|e| format!("cannot spawn the root: {e}"))?;
    let fib = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(fib))
}
