//! fjcreate: fork-join creation (Savina's ForkJoin creation): many actors, each created
//! for one message, ending after it.
//!
//! # On footlights
//!
//! A [`Creator`] spawns `actors` [`Worker`]s one after the other, in its `started`, and
//! sends worker `k` the message `k` right after spawning it, without waiting for anything.
//! A worker handles its one message by computing [`step`]`(k)`, reporting `(1, step(k))`
//! to a [`Tally`], and stopping. The tally's sums, reports and digest, are the check
//! `HANDLED:DIGEST`.

use std::convert::Infallible;

use footlights::{Actor, Addr, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::step;
use crate::tally::Tally;

/// Creates the workers and sends each its message.
pub struct Creator {
    actors: u64,
    tally: Addr<Tally>,
}

impl Actor for Creator {
    type Msg = Infallible;

    fn started(&mut self, ctx: &mut Context<Self>) {
        for k in 0..self.actors {
            let worker = ctx.spawn(Worker {
                tally: self.tally.clone(),
            });
            let _ = worker.send(k);
        }
        ctx.stop();
    }

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: Infallible) {
        match msg {}
    }
}

/// Handles one message and ends.
pub struct Worker {
    tally: Addr<Tally>,
}

impl Actor for Worker {
    /// The worker's number.
    type Msg = u64;

    fn handle(&mut self, ctx: &mut Context<Self>, k: u64) {
        let _ = self.tally.send((1, step(k)));
        ctx.stop();
    }
}

/// Runs fjcreate with `actors` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let actors = inv.get("actors");
    let (tally, sums) = Tally::spawn(system, actors);
    drop(system.spawn(Creator { actors, tally }));
    let (handled, digest) = run::await_answer(system, sums, "the workers' reports")?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
