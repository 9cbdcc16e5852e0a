//! fibtree on ractor: one actor per call of the naive Fibonacci recursion.
//!
//! A node is a ractor actor started with its `n` and its parent: another node's
//! `ActorRef`, or for the root the `RpcReplyPort` main waits on. In `post_start` a node
//! with `n <= 2` answers at once (fib(0) = 0, fib(1) = fib(2) = 1); any other spawns two
//! children for `n - 1` and `n - 2`, naming itself as their parent, and returns to its
//! mailbox. Each child casts its `Sum` up; the node adds the two, passes the total to its
//! own parent and stops. The answer is the root's total.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared with skynet and spreading.

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
