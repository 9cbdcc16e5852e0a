//! fjcreate on actix: `actors` actors created flat, one message each, each ends.
//!
//! Main starts worker `k` on its own arbiter (`Actor::start`, as actix programs create
//! actors) and at once sends it `Go(k)`, for `k` from 0, without waiting for anything in
//! between, and drops the address: a message already in a mailbox is still handled when
//! no address is left. A worker sends `step(k)` (with a count of one) to the collector and
//! stops. The check is `HANDLED:DIGEST`, the collector's two totals.

use actix::prelude::*;
use peer_kernels::work::step;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// A worker.
struct Worker {
    collector: Addr<Collector>,
}

impl Actor for Worker {
    type Context = Context<Self>;
}

/// The one message, carrying the worker's number.
#[derive(Message)]
#[rtype(result = "()")]
struct Go(u64);

impl Handler<Go> for Worker {
    type Result = ();

    fn handle(&mut self, Go(k): Go, ctx: &mut Context<Self>) {
        self.collector.do_send(Report(1, step(k)));
        ctx.stop();
    }
}

/// Creates `actors` workers, one message each; the check is `HANDLED:DIGEST` as they
/// reported them.
pub async fn run(actors: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::start(actors);
    for k in 0..actors {
        let worker = Worker {
            collector: collector.clone(),
        }
        .start();
        worker.do_send(Go(k));
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
