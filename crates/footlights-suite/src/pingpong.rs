//! pingpong: request/reply latency between two actors (Savina's ping-pong).
//!
//! # On footlights
//!
//! A [`Pinger`] and a [`Ponger`]. A ping is a [`Ping`] message carrying the pinger's own
//! address, and the ponger answers every ping by sending [`Pong`] to that address. When a
//! pong arrives the pinger counts it and sends the next ping, so exactly one ping is in
//! flight at a time, `pings` times. Then the pinger answers the main thread with the
//! number of pongs it received, which is the check, and stops; the ponger, no longer
//! addressed, is collected.
//!
//! footlights' request/reply form (`ask` with a [`ReplyTo`] in the request, and
//! `Context::then` on the reply) does the same job, but each round trip then also
//! allocates a reply slot and two boxed closures; measured at pings=1000000 it took about
//! 1.7 times the CPU time of plain messages (see
//! docs/experiments/2026-11-22-seed-parameters-footlights.md).

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// A ping: answer the pinger at this address with a [`Pong`].
pub struct Ping(pub Addr<Pinger>);

/// The answer to a [`Ping`].
pub struct Pong;

/// Answers pings.
pub struct Ponger;

impl Actor for Ponger {
    type Msg = Ping;

    fn handle(&mut self, _ctx: &mut Context<Self>, Ping(pinger): Ping) {
        let _ = pinger.send(Pong);
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
        // Fails only if the ponger is gone; the run's answer then never comes.
        let _ = self.ponger.send(Ping(ctx.addr()));
    }
}

impl Actor for Pinger {
    type Msg = Pong;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.ping(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, Pong: Pong) {
        self.pongs += 1;
        self.ping(ctx);
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
