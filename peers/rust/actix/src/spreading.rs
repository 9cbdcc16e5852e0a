//! spreading on actix: a binary tree of actors counts its leaves.
//!
//! The tree itself (nodes, parents, summing, and how a node stays alive while answers
//! are due) is `tree.rs`, shared by the three tree benchmarks.

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
