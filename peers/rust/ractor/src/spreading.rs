//! spreading on ractor: a binary tree of actors counts its leaves.
//!
//! A node is a ractor actor started with its depth `d` and its parent (a node's
//! `ActorRef`, or main's `RpcReplyPort` for the root). In `post_start` a node with
//! `d = 0` answers 1; any other spawns two children with `d - 1`, naming itself as their
//! parent. It adds the two `Sum`s they cast up, passes the total to its parent and stops,
//! so the root answers the number of leaves, `2^depth`.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of a node.
pub enum NodeMsg {
    /// A child's leaf count.
    Sum(u64),
}

/// Where a node sends its count.
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
    depth: u64,
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
        (depth, parent): Self::Arguments,
    ) -> Result<NodeState, ActorProcessingErr> {
        Ok(NodeState {
            depth,
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
        if state.depth == 0 {
            state.sum = 1;
            state.finish(&myself);
            return Ok(());
        }
        for _ in 0..2 {
            Actor::spawn(None, Node, (state.depth - 1, Parent::Node(myself.clone())))
                .await
                .expect("cannot spawn a spreading node");
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

/// Counts the leaves of a binary tree of actors of depth `depth`.
pub async fn run(depth: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    Actor::spawn(None, Node, (depth, Parent::Main(reply.into())))
        .await
        .map_err(|e| format!("cannot spawn the root: {e}"))?;
    let leaves = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(leaves))
}
