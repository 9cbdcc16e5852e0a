//! threadring on ractor: `actors` ring members pass one token around.
//!
//! Each member is a ractor `Actor` whose state holds its 1-based id and the `ActorRef`
//! of the next member. The ring is built in two steps, because its last link points back
//! to the first: spawn every member, then `cast!` each one a `Link` to its successor.
//! Main then casts `Token(hops)` to member 1; mailboxes are FIFO per sender, so every
//! `Link` is handled before the token can arrive. A member that gets `Token(0)` sends its
//! id to main over a tokio channel (the ring has no single reply port to hand around);
//! any other token goes on as `Token(t - 1)`.

use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;
use tokio::sync::mpsc;

/// Messages of a ring member.
pub enum RingMsg {
    /// The member's successor in the ring.
    Link(ActorRef<RingMsg>),
    /// The token, with the number of hops still to go.
    Token(u64),
}

/// The behaviour of a ring member.
struct Member;

/// A member's state.
struct MemberState {
    id: u64,
    next: Option<ActorRef<RingMsg>>,
    finished: mpsc::UnboundedSender<u64>,
}

impl Actor for Member {
    type Msg = RingMsg;
    type State = MemberState;
    type Arguments = (u64, mpsc::UnboundedSender<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<RingMsg>,
        (id, finished): Self::Arguments,
    ) -> Result<MemberState, ActorProcessingErr> {
        Ok(MemberState {
            id,
            next: None,
            finished,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<RingMsg>,
        message: RingMsg,
        state: &mut MemberState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            RingMsg::Link(next) => state.next = Some(next),
            RingMsg::Token(0) => {
                let _ = state.finished.send(state.id);
            }
            RingMsg::Token(hops) => {
                let next = state
                    .next
                    .as_ref()
                    .expect("token arrived before the ring was linked");
                cast!(next, RingMsg::Token(hops - 1)).expect("next ring member stopped");
            }
        }
        Ok(())
    }
}

/// Builds the ring, sends the token and returns the id of the member that got token 0.
pub async fn run(actors: u64, hops: u64) -> Result<Outcome, String> {
    let (finished_tx, mut finished_rx) = mpsc::unbounded_channel();
    let mut ring = Vec::with_capacity(actors as usize);
    for id in 1..=actors {
        let (member, _) = Actor::spawn(None, Member, (id, finished_tx.clone()))
            .await
            .map_err(|e| format!("cannot spawn ring member {id}: {e}"))?;
        ring.push(member);
    }
    drop(finished_tx);
    for (i, member) in ring.iter().enumerate() {
        let next = ring[(i + 1) % ring.len()].clone();
        cast!(member, RingMsg::Link(next)).map_err(|e| format!("linking the ring: {e}"))?;
    }
    cast!(ring[0], RingMsg::Token(hops)).map_err(|e| format!("sending the token: {e}"))?;
    let winner = finished_rx
        .recv()
        .await
        .ok_or("every ring member stopped before token 0 arrived")?;
    Ok(Outcome::new(winner))
}
