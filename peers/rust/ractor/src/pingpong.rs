//! pingpong on ractor: a pinger and a ponger exchange `pings` round trips.
//!
//! Both are ractor actors. Main `call!`s the pinger with `Start`, handing it the
//! `RpcReplyPort` for the answer. The pinger casts `Ping` (with its own `ActorRef` to
//! answer to) and sends the next one only when the `Pong` is back; the ponger answers
//! every ping. After `pings` pongs the pinger replies its pong count to main.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

/// Messages of the ponger.
pub enum PongerMsg {
    /// A ping, to be answered to this pinger.
    Ping(ActorRef<PingerMsg>),
}

/// Messages of the pinger.
pub enum PingerMsg {
    /// Play the whole exchange and reply the number of pongs.
    Start(RpcReplyPort<u64>),
    /// The answer to the last ping.
    Pong,
}

/// The ponger's behaviour.
struct Ponger;

impl Actor for Ponger {
    type Msg = PongerMsg;
    type State = ();
    type Arguments = ();

    async fn pre_start(
        &self,
        _myself: ActorRef<PongerMsg>,
        (): (),
    ) -> Result<(), ActorProcessingErr> {
        Ok(())
    }

    async fn handle(
        &self,
        _myself: ActorRef<PongerMsg>,
        PongerMsg::Ping(pinger): PongerMsg,
        _state: &mut (),
    ) -> Result<(), ActorProcessingErr> {
        cast!(pinger, PingerMsg::Pong).expect("pinger stopped");
        Ok(())
    }
}

/// The pinger's behaviour.
struct Pinger;

/// The pinger's state.
struct PingerState {
    pings: u64,
    pongs: u64,
    ponger: ActorRef<PongerMsg>,
    reply: Option<RpcReplyPort<u64>>,
}

impl PingerState {
    fn ping_or_finish(&mut self, myself: ActorRef<PingerMsg>) {
        if self.pongs < self.pings {
            cast!(self.ponger, PongerMsg::Ping(myself)).expect("ponger stopped");
        } else if let Some(reply) = self.reply.take() {
            let _ = reply.send(self.pongs);
        }
    }
}

impl Actor for Pinger {
    type Msg = PingerMsg;
    type State = PingerState;
    type Arguments = (u64, ActorRef<PongerMsg>);

    async fn pre_start(
        &self,
        _myself: ActorRef<PingerMsg>,
        (pings, ponger): Self::Arguments,
    ) -> Result<PingerState, ActorProcessingErr> {
        Ok(PingerState {
            pings,
            pongs: 0,
            ponger,
            reply: None,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<PingerMsg>,
        message: PingerMsg,
        state: &mut PingerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            PingerMsg::Start(reply) => {
                state.reply = Some(reply);
                state.ping_or_finish(myself);
            }
            PingerMsg::Pong => {
                state.pongs += 1;
                state.ping_or_finish(myself);
            }
        }
        Ok(())
    }
}

/// Plays `pings` round trips; the check is the pongs the pinger received.
pub async fn run(pings: u64) -> Result<Outcome, String> {
    let (ponger, _) = Actor::spawn(None, Ponger, ())
        .await
        .map_err(|e| format!("cannot spawn the ponger: {e}"))?;
    let (pinger, _) = Actor::spawn(None, Pinger, (pings, ponger.clone()))
        .await
        .map_err(|e| format!("cannot spawn the pinger: {e}"))?;
    let pongs = call!(pinger, PingerMsg::Start).map_err(|e| format!("pinger failed: {e}"))?;
    let outcome = Outcome::new(pongs);
    pinger.stop(None);
    ponger.stop(None);
    Ok(outcome)
}
