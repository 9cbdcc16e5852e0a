//! The actor tree that fibtree, skynet and spreading share on ractor.
//!
//! A node is a ractor actor started with its [`Shape`] and its parent: another node's
//! `ActorRef`, or for the root the `RpcReplyPort` main waits on. In `post_start` a leaf
//! answers its value at once; any other node spawns its children, naming itself as their
//! parent, and returns to its mailbox. Each child casts its `Sum` up; when every child has
//! answered, the node passes the total to its own parent and stops. The three benchmarks
//! differ only in their shape: what a leaf is worth and which children a node has.

use std::marker::PhantomData;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};

/// What varies between the tree benchmarks.
pub trait Shape: Send + Sync + Sized + 'static {
    /// The value of a leaf, or `None` for a node with children.
    fn leaf(&self) -> Option<u64>;
    /// The children of a node that is not a leaf.
    fn children(&self) -> impl Iterator<Item = Self> + Send;
}

/// Messages of a node.
pub enum NodeMsg {
    /// A child's total.
    Sum(u64),
}

/// Where a node sends its total.
enum Parent {
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

/// A node's behaviour, for one shape.
struct Node<S>(PhantomData<fn() -> S>);

/// A node's state.
struct NodeState<S> {
    shape: S,
    parent: Option<Parent>,
    pending: u64,
    sum: u64,
}

impl<S> NodeState<S> {
    fn finish(&mut self, myself: &ActorRef<NodeMsg>) {
        if let Some(parent) = self.parent.take() {
            parent.send(self.sum);
        }
        myself.stop(None);
    }
}

impl<S: Shape> Actor for Node<S> {
    type Msg = NodeMsg;
    type State = NodeState<S>;
    type Arguments = (S, Parent);

    async fn pre_start(
        &self,
        _myself: ActorRef<NodeMsg>,
        (shape, parent): Self::Arguments,
    ) -> Result<NodeState<S>, ActorProcessingErr> {
        Ok(NodeState {
            shape,
            parent: Some(parent),
            pending: 0,
            sum: 0,
        })
    }

    async fn post_start(
        &self,
        myself: ActorRef<NodeMsg>,
        state: &mut NodeState<S>,
    ) -> Result<(), ActorProcessingErr> {
        if let Some(value) = state.shape.leaf() {
            state.sum = value;
            state.finish(&myself);
            return Ok(());
        }
        for child in state.shape.children() {
            Actor::spawn(
                None,
                Node(PhantomData),
                (child, Parent::Node(myself.clone())),
            )
            .await
            .expect("cannot spawn a tree node");
            state.pending += 1;
        }
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<NodeMsg>,
        NodeMsg::Sum(sum): NodeMsg,
        state: &mut NodeState<S>,
    ) -> Result<(), ActorProcessingErr> {
        state.sum += sum;
        state.pending -= 1;
        if state.pending == 0 {
            state.finish(&myself);
        }
        Ok(())
    }
}

/// Grows a tree from `root` and returns the total that reaches main.
pub async fn total<S: Shape>(root: S) -> Result<u64, String> {
    let (reply, answer) = ractor::concurrency::oneshot();
    Actor::spawn(None, Node(PhantomData), (root, Parent::Main(reply.into())))
        .await
        .map_err(|e| format!("cannot spawn the root: {e}"))?;
    answer
        .await
        .map_err(|_| "the root stopped without answering".to_string())
}
