//! logmap on kameo: logistic-map series, each computing its terms through its own rate
//! actor by request and reply.
//!
//! Main spawns the collector, `series` rate actors and `series` series actors; series `i`
//! knows rate actor `i` only, whose rate is `R + i*D` and whose first term is
//! `(i+1)/(series+1)` (`peer_kernels::logmap`, IEEE double as the contract spells it).
//! Main tells every series `Start`. A series `ask`s its rate actor for the next term
//! `terms` times, awaiting each answer `(r * x) * (1.0 - x)` inside its handler, which
//! becomes the current term and adds `floor(x * 2^32)` to the series' sum; then it tells
//! the sum to the collector and stops. The check is the sum of the reports.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::logmap;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// A rate actor.
#[derive(Actor)]
struct Rate {
    rate: f64,
}

/// Answer the term after this one.
struct Term(f64);

impl Message<Term> for Rate {
    type Reply = f64;

    async fn handle(&mut self, Term(x): Term, _ctx: &mut Context<Self, f64>) -> f64 {
        logmap::next_term(self.rate, x)
    }
}

/// A series.
#[derive(Actor)]
struct Series {
    term: f64,
    terms: u64,
    rate: ActorRef<Rate>,
    collector: ActorRef<Collector>,
}

/// Compute the terms, then report.
struct Start;

impl Message<Start> for Series {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        let mut sum = 0u64;
        for _ in 0..self.terms {
            self.term = self
                .rate
                .ask(Term(self.term))
                .await
                .expect("rate actor did not answer");
            sum = sum.wrapping_add(logmap::fixed_point(self.term));
        }
        self.collector
            .tell(Report(sum, 0))
            .await
            .expect("collector stopped");
        ctx.stop();
    }
}

/// Computes `terms` terms of `series` series, rates from `rate` in steps of `increment`
/// (both in units of 1/10000); the check is the sum of the series' reports.
pub async fn run(terms: u64, series: u64, rate: u64, increment: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(series);
    let all: Vec<ActorRef<Series>> = (0..series)
        .map(|i| {
            let rate = Rate {
                rate: logmap::rate(rate, increment, i),
            };
            let rate = Rate::spawn_with_mailbox(rate, mailbox::unbounded());
            let one = Series {
                term: logmap::start(i, series),
                terms,
                rate,
                collector: collector.clone(),
            };
            Series::spawn_with_mailbox(one, mailbox::unbounded())
        })
        .collect();
    for one in &all {
        one.tell(Start)
            .await
            .map_err(|e| format!("starting a series: {e}"))?;
    }
    let (sum, _) = totals.wait().await?;
    Ok(Outcome::new(sum))
}
