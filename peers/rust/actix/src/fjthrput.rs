//! fjthrput on actix: one sender, `actors` receivers, a little work per message.
//!
//! Main is the sender. The receivers are independent of each other, so receiver `r` lives
//! on arbiter `r mod k`; the collector stays on main's. Main sends, for each `i` below
//! `messages` and within that for every receiver `r` in order, `Work(r*messages + i)` to
//! receiver `r` (`do_send`), and finally `End` to every receiver. A receiver counts each
//! `Work` and adds `step(v)` to its digest; on `End` (after all its work: a mailbox is
//! FIFO per sender) it sends its count and digest to the collector and stops. The check is
//! `HANDLED:DIGEST`, the collector's two totals.

use actix::prelude::*;
use peer_kernels::work::step;
use suite_contract::Outcome;

use crate::arbiters;
use crate::collector::{self, Collector, Report};

/// A receiver.
struct Receiver {
    handled: u64,
    digest: u64,
    collector: Addr<Collector>,
}

impl Actor for Receiver {
    type Context = Context<Self>;
}

/// One message to handle, carrying `v`.
#[derive(Message)]
#[rtype(result = "()")]
struct Work(u64);

/// No more work: report.
#[derive(Message)]
#[rtype(result = "()")]
struct End;

impl Handler<Work> for Receiver {
    type Result = ();

    fn handle(&mut self, Work(v): Work, _ctx: &mut Context<Self>) {
        self.handled += 1;
        self.digest = self.digest.wrapping_add(step(v));
    }
}

impl Handler<End> for Receiver {
    type Result = ();

    fn handle(&mut self, _: End, ctx: &mut Context<Self>) {
        self.collector.do_send(Report(self.handled, self.digest));
        ctx.stop();
    }
}

/// Sends `messages` messages to each of `actors` receivers; the check is
/// `HANDLED:DIGEST` as the receivers reported them.
pub async fn run(actors: u64, messages: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::start(actors);
    let receivers: Vec<Addr<Receiver>> = (0..actors)
        .map(|r| {
            let collector = collector.clone();
            arbiters::start_on(r as usize, move |_| Receiver {
                handled: 0,
                digest: 0,
                collector,
            })
        })
        .collect();
    for i in 0..messages {
        for (r, receiver) in (0u64..).zip(&receivers) {
            receiver.do_send(Work(r * messages + i));
        }
    }
    for receiver in &receivers {
        receiver.do_send(End);
    }
    let (handled, digest) = totals.wait().await?;
    Ok(Outcome::new(format!("{handled}:{digest}")))
}
