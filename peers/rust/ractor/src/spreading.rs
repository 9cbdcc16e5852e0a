//! spreading on ractor: a binary tree of actors counts its leaves.
//!
//! A node is a ractor actor started with its depth `d` and its parent (a node's
//! `ActorRef`, or main's `RpcReplyPort` for the root). In `post_start` a node with
//! `d = 0` answers 1; any other spawns two children with `d - 1`, naming itself as their
//! parent. It adds the two `Sum`s they cast up, passes the total to its parent and stops,
//! so the root answers the number of leaves, `2^depth`.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared with fibtree and skynet.

use suite_contract::Outcome;

use crate::tree::{self, Shape};

/// A node with `depth` levels below it.
struct Level(u64);

impl Shape for Level {
    fn leaf(&self) -> Option<u64> {
        (self.0 == 0).then_some(1)
    }
    fn children(&self) -> impl Iterator<Item = Level> + Send {
        [Level(self.0 - 1), Level(self.0 - 1)].into_iter()
    }
}

/// Counts the leaves of a binary tree of actors of depth `depth`.
pub async fn run(depth: u64) -> Result<Outcome, String> {
    Ok(Outcome::new(tree::total(Level(depth)).await?))
}
