//! fannkuch on actix: a collector hands index ranges to one worker actor per arbiter and
//! combines their partial results.
//!
//! The `n!` permutations are cut into ranges (`peer_kernels::fannkuch::task_ranges`).
//! Main starts the collector (holding the ranges and the channel for the answer) on its
//! own arbiter, and one worker on each arbiter (the ranges are independent work). Main `do_send`s the collector a `Hire` for each worker, and the collector gives
//! each one range. A worker runs its range inside its handler (the CPU-bound part, in
//! parallel on the arbiters' threads) and sends back `Done` with its partial checksum and
//! maximum and its own `Addr`; the collector combines it and gives that worker the next
//! range, or retires it when none is left. When no range is left and none is out, the
//! collector sends `CHECKSUM:MAXFLIPS` to main. Main holds the workers' addresses until
//! then: actix stops an actor once no `Addr` to it is left, even with a task on its way.

use std::collections::VecDeque;
use std::ops::Range;

use actix::prelude::*;
use peer_kernels::fannkuch::{Partial, run_range, task_ranges};
use suite_contract::Outcome;
use tokio::sync::oneshot;

use crate::arbiters;

/// The collector.
struct Collector {
    ranges: VecDeque<Range<u64>>,
    out: usize,
    total: Partial,
    answer: Option<oneshot::Sender<Partial>>,
}

impl Collector {
    /// Gives `worker` the next range, or stops it if none is left.
    fn hand_out(&mut self, worker: &Addr<Worker>) {
        match self.ranges.pop_front() {
            Some(range) => {
                worker.do_send(Task(range));
                self.out += 1;
            }
            None => worker.do_send(Retire),
        }
    }
}

impl Actor for Collector {
    type Context = Context<Self>;
}

/// A worker ready for ranges.
#[derive(Message)]
#[rtype(result = "()")]
struct Hire(Addr<Worker>);

/// A worker's result for its last range.
#[derive(Message)]
#[rtype(result = "()")]
struct Done(Partial, Addr<Worker>);

impl Handler<Hire> for Collector {
    type Result = ();

    fn handle(&mut self, Hire(worker): Hire, _ctx: &mut Context<Self>) {
        self.hand_out(&worker);
    }
}

impl Handler<Done> for Collector {
    type Result = ();

    fn handle(&mut self, Done(partial, worker): Done, ctx: &mut Context<Self>) {
        self.total = self.total.combine(partial);
        self.out -= 1;
        self.hand_out(&worker);
        if self.out == 0 && self.ranges.is_empty() {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.total);
            }
            ctx.stop();
        }
    }
}

/// A worker.
struct Worker {
    n: usize,
    collector: Addr<Collector>,
}

impl Actor for Worker {
    type Context = Context<Self>;
}

/// Run fannkuch-redux over these permutation indices.
#[derive(Message)]
#[rtype(result = "()")]
struct Task(Range<u64>);

/// No ranges are left: stop.
#[derive(Message)]
#[rtype(result = "()")]
struct Retire;

impl Handler<Task> for Worker {
    type Result = ();

    fn handle(&mut self, Task(range): Task, ctx: &mut Context<Self>) {
        let partial = run_range(self.n, range);
        self.collector.do_send(Done(partial, ctx.address()));
    }
}

impl Handler<Retire> for Worker {
    type Result = ();

    fn handle(&mut self, _: Retire, ctx: &mut Context<Self>) {
        ctx.stop();
    }
}

/// Runs fannkuch-redux for `n` over the arbiters.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let n = n as usize;
    let (answer, total) = oneshot::channel();
    let collector = Collector {
        ranges: task_ranges(n).into(),
        out: 0,
        total: Partial::default(),
        answer: Some(answer),
    }
    .start();
    let workers: Vec<Addr<Worker>> = (0..arbiters::count())
        .map(|i| {
            let collector = collector.clone();
            arbiters::start_on(i, move |_| Worker { n, collector })
        })
        .collect();
    for worker in &workers {
        collector.do_send(Hire(worker.clone()));
    }
    let total = total
        .await
        .map_err(|_| "the collector stopped before every range was done")?;
    let outcome = Outcome::new(total);
    drop(workers);
    Ok(outcome)
}
