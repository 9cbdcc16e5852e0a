//! fibtree on kameo: one actor per call of the naive Fibonacci recursion.
//!
//! A node is a kameo actor spawned with its `n` and its parent: another node's `ActorRef`,
//! or for the root a tokio oneshot back to main. The work starts in `on_start`: a node
//! with `n <= 2` sends its answer at once (fib(0) = 0, fib(1) = fib(2) = 1); any other
//! spawns two children for `n - 1` and `n - 2`, handing them its own `ActorRef` as their
//! parent. Each child tells its `Sum` up; the node adds the two, passes the total to its
//! own parent and stops. No one keeps a node's `ActorRef` but its children, so kameo also
//! ends every node once its subtree has answered.
//!
//! The tree itself (nodes, parents, summing) is `tree.rs`, shared by the three tree benchmarks.

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
