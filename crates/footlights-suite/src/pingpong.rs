//! pingpong: request/reply latency between two actors (Savina's ping-pong).
//!
//! # On footlights
//!
//! A [`Pinger`] and a [`Ponger`]. A ping is a request in footlights' own request/reply
//! form: the pinger [`ask`](footlights::Addr::ask)s the ponger with [`Ping`], which carries
//! a [`ReplyTo`], and continues on the [`Reply`](footlights::Reply) with
//! [`Context::then`] instead of blocking its worker. The ponger answers every ping with
//! [`Pong`]. When a pong arrives (as a turn of the pinger) the pinger counts it and sends
//! the next ping, so exactly one ping is in flight at a time, `pings` times. Then it
//! answers the main thread with the number of pongs it received, which is the check, and
//! stops; the ponger, no longer addressed, is collected.

use std::convert::Infallible;

use footlights::{Actor, Addr, Canceled, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// The request: answer with a [`Pong`].
pub struct Ping(pub ReplyTo<Pong>);

/// The answer to a [`Ping`].
pub struct Pong;

/// Answers pings.
pub struct Ponger;

impl Actor for Ponger {
    type Msg = Ping;

    fn handle(&mut self, _ctx: &mut Context<Self>, Ping(reply): Ping) {
        let _ = reply.send(Pong);
    }
}

/// Pings, one at a time, and counts the pongs.
pub struct Pinger {
    ponger: Addr<Ponger>,
    /// Pings still to send.
    left: u64,
    pongs: u64,
    answer: Option<ReplyTo<u64>>,
}

impl Pinger {
    /// Sends the next ping, or answers the run when all are done.
    fn ping(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.pongs);
            }
            return ctx.stop();
        }
        self.left -= 1;
        match self.ponger.ask(Ping) {
            Ok(reply) => ctx.then(reply, Pinger::ponged),
            // The ponger is gone: stopping drops the run's reply unanswered.
            Err(_) => ctx.stop(),
        }
    }

    fn ponged(&mut self, ctx: &mut Context<Self>, pong: Result<Pong, Canceled>) {
        match pong {
            Ok(Pong) => {
                self.pongs += 1;
                self.ping(ctx);
            }
            Err(Canceled) => ctx.stop(),
        }
    }
}

impl Actor for Pinger {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.ping(ctx);
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Runs pingpong with `pings` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (answer, pongs) = footlights::reply::pair();
    let ponger = system.spawn(Ponger);
    drop(system.spawn(Pinger {
        ponger,
        left: inv.get("pings"),
        pongs: 0,
        answer: Some(answer),
    }));
    let pongs = run::await_answer(system, pongs, "the pinger's count of pongs")?;
    Ok(Outcome::new(pongs))
}
