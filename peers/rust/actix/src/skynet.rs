//! skynet on actix: a tree of actors that sum their leaf numbers.
//!
//! The tree itself (nodes, parents, summing, and how a node stays alive while answers
//! are due) is `tree.rs`, shared by the three tree benchmarks.

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
