//! spreading on kameo: a binary tree of actors counts its leaves.
//!
//! A node is a kameo actor spawned with its depth `d` and its parent (a node's
//! `ActorRef`, or a tokio oneshot back to main for the root). In `on_start` a node with
//! `d = 0` sends 1 at once; any other spawns two children with `d - 1`, handing them its
//! own `ActorRef` as their parent. It adds the two `Sum`s they tell it, passes the total
//! up and stops, so the root answers the number of leaves, `2^depth`.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared by the three tree benchmarks.

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
