//! logmap on actix: logistic-map series, each computing its terms through its own rate
//! actor by request and reply.
//!
//! A series talks to its own rate actor only, so each pair is independent of the others:
//! series `i` and rate actor `i` live together on arbiter `i mod k`, and the collector on
//! main's. Rate actor `i` has the rate `R + i*D`, series `i` starts from
//! `(i+1)/(series+1)` (`peer_kernels::logmap`, IEEE double as the contract spells it).
//! Main sends every series `Start`; the series answers it with a `ResponseFuture` that
//! `send(..).await`s its rate actor `terms` times, each answer `(r * x) * (1.0 - x)`
//! becoming the current term and adding `floor(x * 2^32)` to the series' sum, and then
//! sends the sum to the collector. Main holds the series' addresses until the totals are
//! in. The check is the sum of the reports.

use actix::prelude::*;
use peer_kernels::logmap;
use suite_contract::Outcome;

use crate::arbiters;
use crate::collector::{self, Collector, Report};

/// A rate actor.
struct Rate {
    rate: f64,
}

impl Actor for Rate {
    type Context = Context<Self>;
}

/// Answer the term after this one.
#[derive(Message)]
#[rtype(result = "f64")]
struct Term(f64);

impl Handler<Term> for Rate {
    type Result = f64;

    fn handle(&mut self, Term(x): Term, _ctx: &mut Context<Self>) -> f64 {
        logmap::next_term(self.rate, x)
    }
}

/// A series.
struct Series {
    first: f64,
    terms: u64,
    rate: Addr<Rate>,
    collector: Addr<Collector>,
}

impl Actor for Series {
    type Context = Context<Self>;
}

/// Compute the terms, then report.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

impl Handler<Start> for Series {
    type Result = ResponseFuture<()>;

    fn handle(&mut self, _: Start, _ctx: &mut Context<Self>) -> Self::Result {
        let (mut term, terms) = (self.first, self.terms);
        let rate = self.rate.clone();
        let collector = self.collector.clone();
        Box::pin(async move {
            let mut sum = 0u64;
            for _ in 0..terms {
                term = rate
                    .send(Term(term))
                    .await
                    .expect("rate actor did not answer");
                sum = sum.wrapping_add(logmap::fixed_point(term));
            }
            collector.do_send(Report(sum, 0));
        })
    }
}

/// Computes `terms` terms of `series` series, rates from `rate` in steps of `increment`
/// (both in units of 1/10000); the check is the sum of the series' reports.
pub async fn run(terms: u64, series: u64, rate: u64, increment: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::start(series);
    let all: Vec<Addr<Series>> = (0..series)
        .map(|i| {
            let r = logmap::rate(rate, increment, i);
            let rate = arbiters::start_on(i as usize, move |_| Rate { rate: r });
            let collector = collector.clone();
            arbiters::start_on(i as usize, move |_| Series {
                first: logmap::start(i, series),
                terms,
                rate,
                collector,
            })
        })
        .collect();
    for one in &all {
        one.do_send(Start);
    }
    let (sum, _) = totals.wait().await?;
    Ok(Outcome::new(sum))
}
