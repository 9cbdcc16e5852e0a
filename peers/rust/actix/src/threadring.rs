//! threadring on actix: `actors` ring members pass one token around.
//!
//! Each member is an actix actor holding its 1-based id and the `Addr` of the next
//! member. Only one member holds the token at a time, so there is nothing to run in
//! parallel: every member is on main's arbiter (as in actix's own ring example), and a
//! hop never wakes another thread. The ring's last link points back to the first, so it
//! is built in two steps: start every member, then `do_send` each one a `Link` to its
//! successor. Main then sends member 1 `Token(hops)`; a mailbox is FIFO per sender, so
//! every `Link` is handled before the token can arrive. A member that gets `Token(0)`
//! sends its id to main over a tokio channel; any other token goes on as `Token(t - 1)`.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::mpsc;

/// A ring member.
struct Member {
    id: u64,
    next: Option<Addr<Member>>,
    finished: mpsc::UnboundedSender<u64>,
}

impl Actor for Member {
    type Context = Context<Self>;
}

/// The member's successor in the ring.
#[derive(Message)]
#[rtype(result = "()")]
struct Link(Addr<Member>);

/// The token, with the number of hops still to go.
#[derive(Message)]
#[rtype(result = "()")]
struct Token(u64);

impl Handler<Link> for Member {
    type Result = ();

    fn handle(&mut self, Link(next): Link, _ctx: &mut Context<Self>) {
        self.next = Some(next);
    }
}

impl Handler<Token> for Member {
    type Result = ();

    fn handle(&mut self, Token(hops): Token, _ctx: &mut Context<Self>) {
        if hops == 0 {
            let _ = self.finished.send(self.id);
            return;
        }
        let next = self
            .next
            .as_ref()
            .expect("token arrived before the ring was linked");
        next.do_send(Token(hops - 1));
    }
}

/// Builds the ring, sends the token and returns the id of the member that got token 0.
pub async fn run(actors: u64, hops: u64) -> Result<Outcome, String> {
    let (finished_tx, mut finished_rx) = mpsc::unbounded_channel();
    let ring: Vec<Addr<Member>> = (1..=actors)
        .map(|id| {
            let finished = finished_tx.clone();
            Member {
                id,
                next: None,
                finished,
            }
            .start()
        })
        .collect();
    drop(finished_tx);
    for (i, member) in ring.iter().enumerate() {
        member.do_send(Link(ring[(i + 1) % ring.len()].clone()));
    }
    ring[0].do_send(Token(hops));
    let winner = finished_rx
        .recv()
        .await
        .ok_or("every ring member stopped before token 0 arrived")?;
    Ok(Outcome::new(winner))
}
