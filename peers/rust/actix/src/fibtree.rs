//! fibtree on actix: one actor per call of the naive Fibonacci recursion.
//!
//! The tree itself (nodes, parents, summing, and how a node stays alive while answers
//! are due) is `tree.rs`, shared by the three tree benchmarks.

use suite_contract::Outcome;

use crate::tree::{self, Shape};

/// A call `fib(n)`.
struct Fib(u64);

impl Shape for Fib {
    fn leaf(&self) -> Option<u64> {
        (self.0 <= 2).then(|| u64::from(self.0 > 0))
    }
    fn children(&self) -> impl Iterator<Item = Fib> + Send {
        [Fib(self.0 - 1), Fib(self.0 - 2)].into_iter()
    }
}

/// Computes fib(`n`) with a tree of actors.
pub async fn run(n: u64) -> Result<Outcome, String> {
    Ok(Outcome::new(tree::total(Fib(n)).await?))
}
