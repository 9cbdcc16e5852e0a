//! skynet on ractor: a tree of actors that sum their leaf numbers.
//!
//! A node is a ractor actor started with `(num, size)` and its parent (a node's
//! `ActorRef`, or main's `RpcReplyPort` for the root). In `post_start` a node of size 1
//! answers `num` at once; a larger one spawns `div` children
//! `(num + k * size / div, size / div)`, naming itself as their parent, and returns to
//! its mailbox. It adds the `Sum`s its children cast up, and when all `div` are in it
//! passes the total to its parent and stops. Sizes are powers of `div`, so the tree is
//! complete with `size` leaves numbered `0..size`.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared with fibtree and spreading.

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
