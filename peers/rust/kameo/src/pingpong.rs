//! pingpong on kameo: a pinger and a ponger exchange `pings` round trips.
//!
//! Both are kameo actors. Main `ask`s the pinger to `Play`; the pinger keeps the reply
//! for later (`DelegatedReply`), tells the ponger `Ping` (with its own `ActorRef` to
//! answer to) and sends the next ping only when the `Pong` is back. After `pings` pongs it
//! replies its pong count.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use suite_contract::Outcome;

/// The ponger.
#[derive(Actor)]
struct Ponger;

/// A ping, to be answered to this pinger.
struct Ping(ActorRef<Pinger>);

impl Message<Ping> for Ponger {
    type Reply = ();

    async fn handle(&mut self, Ping(pinger): Ping, _ctx: &mut Context<Self, ()>) {
        pinger.tell(Pong).await.expect("pinger stopped");
    }
}

/// The pinger.
#[derive(Actor)]
struct Pinger {
    pings: u64,
    pongs: u64,
    ponger: ActorRef<Ponger>,
    reply: Option<ReplySender<u64>>,
}

impl Pinger {
    async fn ping_or_finish(&mut self, myself: &ActorRef<Pinger>) {
        if self.pongs < self.pings {
            self.ponger
                .tell(Ping(myself.clone()))
                .await
                .expect("ponger stopped");
        } else if let Some(reply) = self.reply.take() {
            reply.send(self.pongs);
        }
    }
}

/// Play the whole exchange and reply the number of pongs.
struct Play;

/// The answer to the last ping.
struct Pong;

impl Message<Play> for Pinger {
    type Reply = DelegatedReply<u64>;

    async fn handle(&mut self, _: Play, ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        self.ping_or_finish(ctx.actor_ref()).await;
        delegated
    }
}

impl Message<Pong> for Pinger {
    type Reply = ();

    async fn handle(&mut self, _: Pong, ctx: &mut Context<Self, ()>) {
        self.pongs += 1;
        self.ping_or_finish(ctx.actor_ref()).await;
    }
}

/// Plays `pings` round trips; the check is the pongs the pinger received.
pub async fn run(pings: u64) -> Result<Outcome, String> {
    let ponger = Ponger::spawn_with_mailbox(Ponger, mailbox::unbounded());
    let pinger = Pinger {
        pings,
        pongs: 0,
        ponger,
        reply: None,
    };
    let pinger = Pinger::spawn_with_mailbox(pinger, mailbox::unbounded());
    let pongs = pinger
        .ask(Play)
        .await
        .map_err(|e| format!("the pinger did not answer: {e}"))?;
    Ok(Outcome::new(pongs))
}
