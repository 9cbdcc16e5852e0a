//! pingpong on actix: a pinger and a ponger exchange `pings` round trips.
//!
//! Both are actix actors on main's arbiter: each waits for the other, so there is nothing
//! to run in parallel, and on two arbiters every ping and pong would wake another thread. Main sends the
//! pinger `Play` with a tokio oneshot for the answer. The pinger `do_send`s `Ping` (with
//! its own `Addr` to answer to) and sends the next one only when the `Pong` is back; the
//! ponger answers every ping. After `pings` pongs the pinger sends its pong count to main.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// The ponger.
struct Ponger;

impl Actor for Ponger {
    type Context = Context<Self>;
}

/// A ping, to be answered to this pinger.
#[derive(Message)]
#[rtype(result = "()")]
struct Ping(Addr<Pinger>);

impl Handler<Ping> for Ponger {
    type Result = ();

    fn handle(&mut self, Ping(pinger): Ping, _ctx: &mut Context<Self>) {
        pinger.do_send(Pong);
    }
}

/// The pinger.
struct Pinger {
    pings: u64,
    pongs: u64,
    ponger: Addr<Ponger>,
    answer: Option<oneshot::Sender<u64>>,
}

impl Pinger {
    fn ping_or_finish(&mut self, ctx: &mut Context<Self>) {
        if self.pongs < self.pings {
            self.ponger.do_send(Ping(ctx.address()));
        } else if let Some(answer) = self.answer.take() {
            let _ = answer.send(self.pongs);
            ctx.stop();
        }
    }
}

impl Actor for Pinger {
    type Context = Context<Self>;
}

/// Play the whole exchange and send the number of pongs here.
#[derive(Message)]
#[rtype(result = "()")]
struct Play(oneshot::Sender<u64>);

/// The answer to the last ping.
#[derive(Message)]
#[rtype(result = "()")]
struct Pong;

impl Handler<Play> for Pinger {
    type Result = ();

    fn handle(&mut self, Play(answer): Play, ctx: &mut Context<Self>) {
        self.answer = Some(answer);
        self.ping_or_finish(ctx);
    }
}

impl Handler<Pong> for Pinger {
    type Result = ();

    fn handle(&mut self, _: Pong, ctx: &mut Context<Self>) {
        self.pongs += 1;
        self.ping_or_finish(ctx);
    }
}

/// Plays `pings` round trips; the check is the pongs the pinger received.
pub async fn run(pings: u64) -> Result<Outcome, String> {
    let ponger = Ponger.start();
    let pinger = Pinger {
        pings,
        pongs: 0,
        ponger,
        answer: None,
    }
    .start();
    let (answer, pongs) = oneshot::channel();
    pinger.do_send(Play(answer));
    let pongs = pongs
        .await
        .map_err(|_| "the pinger stopped without answering")?;
    Ok(Outcome::new(pongs))
}
