//! skynet on kameo: a tree of actors that sum their leaf numbers.
//!
//! A node is a kameo actor spawned with `(num, size)` and its parent (a node's
//! `ActorRef`, or a tokio oneshot back to main for the root). In `on_start` a node of
//! size 1 sends `num` at once; a larger one spawns `div` children
//! `(num + k * size / div, size / div)`, handing them its own `ActorRef` as their parent.
//! It adds the `Sum`s they tell it, and when all `div` are in passes the total up and
//! stops. Sizes are powers of `div`, so the tree is complete with leaves `0..size`.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared by the three tree benchmarks.

use suite_contract::Outcome;

use crate::tree::{self, Shape};

/// The subtree of `size` leaves numbered from `num`, split `div` ways.
struct Subtree {
    num: u64,
    size: u64,
    div: u64,
}

impl Shape for Subtree {
    fn leaf(&self) -> Option<u64> {
        (self.size == 1).then_some(self.num)
    }
    fn children(&self) -> impl Iterator<Item = Subtree> + Send {
        let (num, size, div) = (self.num, self.size / self.div, self.div);
        (0..div).map(move |k| Subtree {
            num: num + k * size,
            size,
            div,
        })
    }
}

/// Sums the leaves `0..size` of a `div`-ary tree of actors.
pub async fn run(size: u64, div: u64) -> Result<Outcome, String> {
    Ok(Outcome::new(
        tree::total(Subtree { num: 0, size, div }).await?,
    ))
}
