//! fjthrput: fork-join throughput (Savina's ForkJoin throughput): one sender, many
//! receivers, a little work per message.
//!
//! # On footlights
//!
//! `actors` [`Receiver`]s, one [`Sender`] and a [`Tally`]. The sender, as soon as it has
//! started, sends round after round: in round `i` one message to every receiver `r`, in
//! receiver order, carrying `v = r*messages + i`; then it stops. It does not wait for the
//! receivers, so their mailboxes fill while they work. A receiver handles a message by
//! counting it and adding [`step`]`(v)` to its digest; when it has handled its `messages`
//! messages it reports the count and digest to the tally and stops (a receiver with no
//! messages to expect reports as soon as it starts). The tally's two sums, messages
//! handled and digest, are the check `HANDLED:DIGEST`.

use std::convert::Infallible;

use footlights::{Actor, Addr, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::step;
use crate::tally::Tally;

/// Sends every receiver its messages, round by round.
pub struct Sender {
    receivers: Vec<Addr<Receiver>>,
    messages: u64,
}

impl Actor for Sender {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        for i in 0..self.messages {
            for (r, receiver) in (0u64..).zip(&self.receivers) {
                let _ = receiver.send(r * self.messages + i);
            }
        }
        ctx.stop();
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Handles its messages and reports.
pub struct Receiver {
    /// Messages still to come.
    left: u64,
    handled: u64,
    digest: u64,
    tally: Addr<Tally>,
}

impl Receiver {
    fn report_if_done(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.tally.send((self.handled, self.digest));
            ctx.stop();
        }
    }
}

impl Actor for Receiver {
    /// The value a message carries.
    type Msg = u64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.report_if_done(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, v: u64) {
        self.handled += 1;
        self.digest = self.digest.wrapping_add(step(v));
        self.left -= 1;
        self.report_if_done(ctx);
    }
}

/// Runs fjthrput with `actors` and `messages` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let actors = inv.get("actors");
    let messages = inv.get("messages");
    let (tally, sums) = Tally::spawn(system, actors);
    let receivers = (0..actors)
        .map(|_| {
            system.spawn(Receiver {
                left: messages,
                handled: 0,
                digest: 0,
                tally: tally.clone(),
            })
        })
        .collect();
    drop(tally);
    drop(system.spawn(Sender {
        receivers,
        messages,
    }));
    let (handled, digest) = run::await_answer(system, sums, "the receivers' reports")?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
