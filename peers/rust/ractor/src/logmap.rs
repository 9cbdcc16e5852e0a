//! logmap on ractor: logistic-map series, each computing its terms through its own rate
//! actor by request and reply.
//!
//! Main spawns the collector, `series` rate actors and `series` series actors; series `i`
//! knows rate actor `i` only, whose rate is `R + i*D` and whose first term is
//! `(i+1)/(series+1)` (`peer_kernels::logmap`, IEEE double as the contract spells it).
//! Main casts every series `Start`. A series `call!`s its rate actor with its current term
//! `terms` times, awaiting each answer `(r * x) * (1.0 - x)` inside its handler, which
//! becomes the current term and adds `floor(x * 2^32)` to the series' sum; then it casts
//! the sum to the collector and stops. The check is the sum of the reports.

use peer_kernels::logmap;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of a rate actor.
pub enum RateMsg {
    /// Answer the term after this one.
    Next(f64, RpcReplyPort<f64>),
}

/// Messages of a series.
pub enum SeriesMsg {
    /// Compute the terms, then report.
    Start,
}

/// A rate actor's behaviour.
struct Rate;

impl Actor for Rate {
    type Msg = RateMsg;
    type State = f64;
    type Arguments = f64;

    async fn pre_start(
        &self,
        _myself: ActorRef<RateMsg>,
        rate: f64,
    ) -> Result<f64, ActorProcessingErr> {
        Ok(rate)
    }

    async fn handle(
        &self,
        _myself: ActorRef<RateMsg>,
        RateMsg::Next(x, reply): RateMsg,
        rate: &mut f64,
    ) -> Result<(), ActorProcessingErr> {
        let _ = reply.send(logmap::next_term(*rate, x));
        Ok(())
    }
}

/// A series' behaviour.
struct Series;

/// A series' state.
struct SeriesState {
    term: f64,
    terms: u64,
    rate: ActorRef<RateMsg>,
    collector: ActorRef<CollectorMsg>,
}

impl Actor for Series {
    type Msg = SeriesMsg;
    type State = SeriesState;
    type Arguments = SeriesState;

    async fn pre_start(
        &self,
        _myself: ActorRef<SeriesMsg>,
        state: SeriesState,
    ) -> Result<SeriesState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<SeriesMsg>,
        SeriesMsg::Start: SeriesMsg,
        state: &mut SeriesState,
    ) -> Result<(), ActorProcessingErr> {
        let mut sum = 0u64;
        for _ in 0..state.terms {
            state.term =
                call!(state.rate, RateMsg::Next, state.term).expect("rate actor did not answer");
            sum = sum.wrapping_add(logmap::fixed_point(state.term));
        }
        cast!(state.collector, CollectorMsg::Report(sum, 0)).expect("collector stopped");
        state.rate.stop(None);
        myself.stop(None);
        Ok(())
    }
}

/// Computes `terms` terms of `series` series, rates from `rate` in steps of `increment`
/// (both in units of 1/10000); the check is the sum of the series' reports.
pub async fn run(terms: u64, series: u64, rate: u64, increment: u64) -> Result<Outcome, String> {
    let (collector, totals) = collector::spawn(series).await?;
    let mut all = Vec::with_capacity(series as usize);
    for i in 0..series {
        let (rate_actor, _) = Actor::spawn(None, Rate, logmap::rate(rate, increment, i))
            .await
            .map_err(|e| format!("cannot spawn rate actor {i}: {e}"))?;
        let state = SeriesState {
            term: logmap::start(i, series),
            terms,
            rate: rate_actor,
            collector: collector.clone(),
        };
        let (series_actor, _) = Actor::spawn(None, Series, state)
            .await
            .map_err(|e| format!("cannot spawn series {i}: {e}"))?;
        all.push(series_actor);
    }
    for series_actor in &all {
        cast!(series_actor, SeriesMsg::Start).map_err(|e| format!("starting a series: {e}"))?;
    }
    let (sum, _) = totals.wait().await?;
    Ok(Outcome::new(sum))
}
