//! skynet on ractor: a tree of actors that sum their leaf numbers.
//!
//! A node is a ractor actor started with `(num, size)` and its parent (a node's
//! `ActorRef`, or main's `RpcReplyPort` for the root). In `post_start` a node of size 1
//! answers `num` at once; a larger one spawns `div` children
//! `(num + k * size / div, size / div)`, naming itself as their parent, and returns to
//! its mailbox. It adds the `Sum`s its children cast up, and when all `div` are in it
//! passes the total to its parent and stops. Sizes are powers of `div`, so the tree is
//! complete with `size` leaves numbered `0..size`.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of a node.
pub enum NodeMsg {
    /// A child's sum.
    Sum(u64),
}

/// Where a node sends its sum.
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

/// What a node is started with.
pub struct Subtree {
    num: u64,
    size: u64,
    div: u64,
    parent: Parent,
}

/// A node's behaviour.
struct Node;

/// A node's state.
struct NodeState {
    num: u64,
    size: u64,
    div: u64,
    parent: Option<Parent>,
    pending: u64,
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
    type Arguments = Subtree;

    async fn pre_start(
        &self,
        _myself: ActorRef<NodeMsg>,
        tree: Subtree,
    ) -> Result<NodeState, ActorProcessingErr> {
        Ok(NodeState {
            num: tree.num,
            size: tree.size,
            div: tree.div,
            parent: Some(tree.parent),
            pending: 0,
            sum: 0,
        })
    }

    async fn post_start(
        &self,
        myself: ActorRef<NodeMsg>,
        state: &mut NodeState,
    ) -> Result<(), ActorProcessingErr> {
        if state.size == 1 {
            state.sum = state.num;
            state.finish(&myself);
            return Ok(());
        }
        let size = state.size / state.div;
        for k in 0..state.div {
            let child = Subtree {
                num: state.num + k * size,
                size,
                div: state.div,
                parent: Parent::Node(myself.clone()),
            };
            Actor::spawn(None, Node, child)
                .await
                .expect("cannot spawn a skynet node");
        }
        state.pending = state.div;
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

/// Sums the leaves `0..size` of a `div`-ary tree of actors.
pub async fn run(size: u64, div: u64) -> Result<Outcome, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    let root = Subtree {
        num: 0,
        size,
        div,
        parent: Parent::Main(reply.into()),
    };
    Actor::spawn(None, Node, root)
        .await
        .map_err(|e| format!("cannot spawn the root: {e}"))?;
    let sum = answer
        .await
        .map_err(|_| "the root stopped without answering")?;
    Ok(Outcome::new(sum))
}
