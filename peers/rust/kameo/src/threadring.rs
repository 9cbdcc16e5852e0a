//! threadring on kameo: `actors` ring members pass one token around.
//!
//! Each member is a kameo actor holding its 1-based id and the `ActorRef` of the next
//! member. The ring's last link points back to the first, so it is built in two steps:
//! spawn every member, then `tell` each one a `Link` to its successor. Main then tells
//! member 1 `Token(hops)`; a mailbox is FIFO per sender, so every `Link` is handled
//! before the token can arrive. A member that gets `Token(0)` sends its id to main over a
//! tokio channel (the ring has no single asker to reply to); any other token goes on as
//! `Token(t - 1)`. Main keeps the members' refs until the answer is in, so no member is
//! dropped early.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;
use tokio::sync::mpsc;

/// A ring member.
#[derive(Actor)]
struct Member {
    id: u64,
    next: Option<ActorRef<Member>>,
    finished: mpsc::UnboundedSender<u64>,
}

/// The member's successor in the ring.
struct Link(ActorRef<Member>);

/// The token, with the number of hops still to go.
struct Token(u64);

impl Message<Link> for Member {
    type Reply = ();

    async fn handle(&mut self, Link(next): Link, _ctx: &mut Context<Self, ()>) {
        self.next = Some(next);
    }
}

impl Message<Token> for Member {
    type Reply = ();

    async fn handle(&mut self, Token(hops): Token, _ctx: &mut Context<Self, ()>) {
        if hops == 0 {
            let _ = self.finished.send(self.id);
            return;
        }
        let next = self
            .next
            .as_ref()
            .expect("token arrived before the ring was linked");
        next.tell(Token(hops - 1))
            .await
            .expect("next ring member stopped");
    }
}

/// Builds the ring, sends the token and returns the id of the member that got token 0.
pub async fn run(actors: u64, hops: u64) -> Result<Outcome, String> {
    let (finished_tx, mut finished_rx) = mpsc::unbounded_channel();
    let ring: Vec<ActorRef<Member>> = (1..=actors)
        .map(|id| {
            let member = Member {
                id,
                next: None,
                finished: finished_tx.clone(),
            };
            Member::spawn_with_mailbox(member, mailbox::unbounded())
        })
        .collect();
    drop(finished_tx);
    for (i, member) in ring.iter().enumerate() {
        let next = ring[(i + 1) % ring.len()].clone();
        member
            .tell(Link(next))
            .await
            .map_err(|e| format!("linking the ring: {e}"))?;
    }
    ring[0]
        .tell(Token(hops))
        .await
        .map_err(|e| format!("sending the token: {e}"))?;
    let winner = finished_rx
        .recv()
        .await
        .ok_or("every ring member stopped before token 0 arrived")?;
    Ok(Outcome::new(winner))
}
