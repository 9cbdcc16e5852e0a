//! threadring: one token hopping round a ring of actors (pure message latency).
//!
//! # On footlights
//!
//! Each member of the ring is a [`Node`] actor that knows its 1-based id and the address
//! of the next node. The token is a message, [`Msg::Token`], that carries the number of
//! hops still to go and the [`ReplyTo`] of the run's answer: the reply travels with the
//! token, so no node needs to know who is waiting. A node that gets the token with 0 hops
//! left answers its own id through that reply; otherwise it passes the token on with one
//! hop fewer.
//!
//! The ring is built without a separate linking pass: node 1 is spawned first, then nodes
//! `actors` down to 2, each spawned with the address of the node after it (node `actors`
//! points back at node 1). Only node 1 then needs its successor, node 2, which main sends
//! it as [`Msg::Link`] before the token. Messages from one sender arrive in the order sent,
//! so the link always comes first.
//!
//! A hop is one mailbox push, and the runtime runs the next node on the same worker (its
//! next slot), so the ring passes the token without waking another thread. The nodes hold
//! each other's addresses in a cycle, so they stay alive until the system shuts down.
//!
//! The check is the id that the node holding token 0 reported.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// One member of the ring.
pub struct Node {
    /// The node's 1-based position in the ring.
    id: u64,
    /// The next node; only node 1 starts without it, until [`Msg::Link`] arrives.
    next: Option<Addr<Node>>,
}

/// What a node receives.
pub enum Msg {
    /// Sets the next node.
    Link(Addr<Node>),
    /// The token: hops still to go, and where the id of its last holder is answered.
    Token {
        /// Hops left; the node that gets 0 answers its id.
        left: u64,
        /// The run's answer.
        answer: ReplyTo<u64>,
    },
}

impl Actor for Node {
    type Msg = Msg;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Link(next) => self.next = Some(next),
            Msg::Token { left: 0, answer } => {
                let _ = answer.send(self.id);
            }
            Msg::Token { left, answer } => {
                // Without a successor (cannot happen: the link comes first) the token and
                // its reply are dropped, and the main thread learns the answer never came.
                if let Some(next) = &self.next {
                    let _ = next.send(Msg::Token {
                        left: left - 1,
                        answer,
                    });
                }
            }
        }
    }
}

/// Runs threadring with `actors` and `hops` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let actors = inv.get("actors");
    let hops = inv.get("hops");

    let first = system.spawn(Node { id: 1, next: None });
    let mut after = first.clone();
    for id in (2..=actors).rev() {
        after = system.spawn(Node {
            id,
            next: Some(after),
        });
    }
    // `after` is now node 2, or node 1 itself in a ring of one.
    let (answer, winner) = footlights::reply::pair();
    first
        .send(Msg::Link(after))
        .and_then(|()| first.send(Msg::Token { left: hops, answer }))
        .map_err(|_| "node 1 stopped before the token reached it".to_string())?;
    drop(first);

    let id = run::await_answer(system, winner, "the id of the node holding token 0")?;
    Ok(Outcome::new(id))
}
