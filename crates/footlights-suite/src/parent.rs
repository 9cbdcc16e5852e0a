//! Where a node of an actor tree sends its answer: to its parent actor, or, for the root,
//! to the main thread.
//!
//! fibtree, skynet and spreading build trees of actors in which every node answers its
//! parent with a number. A node's message type is that number (`Msg = u64`): a child's
//! answer is an ordinary message in the parent's mailbox, one push and nothing else. The
//! root has no parent actor; it answers the [`ReplyTo`] the main thread waits on.
//!
//! The footlights request/reply form ([`ReplyTo`] in the child and
//! [`Context::then`](footlights::Context::then) in the parent) would give every node the
//! same kind of parent, but each answer then costs a reply slot, a boxed continuation and
//! a boxed call besides the push; measured on spreading depth=19 it took about 1.8 times
//! the CPU time of plain messages (see docs/experiments/2026-11-22-seed-parameters-footlights.md).

use footlights::{Actor, Addr, ReplyTo};

/// The parent of a tree node whose answers are `u64` messages.
pub enum Parent<A: Actor<Msg = u64>> {
    /// Another node of the tree.
    Node(Addr<A>),
    /// The main thread, waiting on the run's answer.
    Main(ReplyTo<u64>),
}

impl<A: Actor<Msg = u64>> Parent<A> {
    /// Sends `value` to the parent. If the parent is gone, the value is dropped: the
    /// failure shows up at the main thread as a missing answer.
    pub fn answer(self, value: u64) {
        match self {
            Parent::Node(node) => {
                let _ = node.send(value);
            }
            Parent::Main(main) => {
                let _ = main.send(value);
            }
        }
    }
}
