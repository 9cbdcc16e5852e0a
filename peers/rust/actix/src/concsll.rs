//! concsll on actix: `workers` clients send inserts, lookups and size queries to one
//! sorted-list actor and wait for each answer.
//!
//! Every message goes through the list, so the list, the workers and the collector all
//! live on main's arbiter (as in concdict). The list is an actor over
//! `peer_kernels::sorted_list` (searched from the front, as Savina's linked list is). Main
//! sends every worker `Start`; worker `w` answers it with a `ResponseFuture` that draws
//! each operation from the worker's generator (seeded with `w`): `r = below(100)`; a size
//! query if `r < size_pct`, else an insert if `r < size_pct + write_pct`, else a lookup,
//! the last two of `v = below(1024)*workers + w`. It `send(..).await`s each answer before
//! the next, counts its answers and its lookups answered true, and sends both to the
//! collector. When the collector has every report, main asks the list for its length and
//! contents. The check is `ANSWERS:SIZE:CONTENTS:HITS`.

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use peer_kernels::sorted_list::SortedList;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The list.
#[derive(Default)]
struct List {
    list: SortedList,
}

impl Actor for List {
    type Context = Context<Self>;
}

/// Answer the length.
#[derive(Message)]
#[rtype(result = "u64")]
struct Size;

/// Insert the value and answer when done.
#[derive(Message)]
#[rtype(result = "()")]
struct Insert(u64);

/// Answer whether the value is in the list.
#[derive(Message)]
#[rtype(result = "bool")]
struct Contains(u64);

/// Answer the length and the contents' digest.
#[derive(Message)]
#[rtype(result = "(u64, u64)")]
struct Summary;

impl Handler<Size> for List {
    type Result = u64;

    fn handle(&mut self, _: Size, _ctx: &mut Context<Self>) -> u64 {
        self.list.len()
    }
}

impl Handler<Insert> for List {
    type Result = ();

    fn handle(&mut self, Insert(value): Insert, _ctx: &mut Context<Self>) {
        self.list.insert(value);
    }
}

impl Handler<Contains> for List {
    type Result = bool;

    fn handle(&mut self, Contains(value): Contains, _ctx: &mut Context<Self>) -> bool {
        self.list.contains(value)
    }
}

impl Handler<Summary> for List {
    type Result = MessageResult<Summary>;

    fn handle(&mut self, _: Summary, _ctx: &mut Context<Self>) -> MessageResult<Summary> {
        MessageResult((self.list.len(), self.list.contents()))
    }
}

/// A worker.
struct Worker {
    id: u64,
    workers: u64,
    messages: u64,
    write_pct: u64,
    size_pct: u64,
    list: Addr<List>,
    collector: Addr<Collector>,
}

impl Actor for Worker {
    type Context = Context<Self>;
}

/// Do all the operations, then report.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

impl Handler<Start> for Worker {
    type Result = ResponseFuture<()>;

    fn handle(&mut self, _: Start, _ctx: &mut Context<Self>) -> Self::Result {
        let (id, workers, messages) = (self.id, self.workers, self.messages);
        let (write_pct, size_pct) = (self.write_pct, self.size_pct);
        let list = self.list.clone();
        let collector = self.collector.clone();
        Box::pin(async move {
            let mut rng = SplitMix64::new(id);
            let (mut answers, mut hits) = (0u64, 0u64);
            for _ in 0..messages {
                let r = rng.below_mod(100);
                if r < size_pct {
                    list.send(Size).await.expect("the list did not answer");
                } else {
                    let value = rng.below_mod(1024) * workers + id;
                    if r < size_pct + write_pct {
                        list.send(Insert(value))
                            .await
                            .expect("the list did not answer");
                    } else if list
                        .send(Contains(value))
                        .await
                        .expect("the list did not answer")
                    {
                        hits += 1;
                    }
                }
                answers += 1;
            }
            collector.do_send(Report(answers, hits));
        })
    }
}

/// Runs `workers` workers of `messages` operations each, `write_pct` percent inserts and
/// `size_pct` percent size queries; the check is `ANSWERS:SIZE:CONTENTS:HITS`.
pub async fn run(
    workers: u64,
    messages: u64,
    write_pct: u64,
    size_pct: u64,
) -> Result<Outcome, String> {
    let list = List::default().start();
    let (collector, totals) = collector::start(workers);
    let all: Vec<Addr<Worker>> = (0..workers)
        .map(|id| {
            Worker {
                id,
                workers,
                messages,
                write_pct,
                size_pct,
                list: list.clone(),
                collector: collector.clone(),
            }
            .start()
        })
        .collect();
    for worker in &all {
        worker.do_send(Start);
    }
    let (answers, hits) = totals.wait().await?;
    let (size, contents) = list
        .send(Summary)
        .await
        .map_err(|e| format!("the list did not answer: {e}"))?;
    Ok(Outcome::new(format!("{answers}:{size}:{contents}:{hits}")))
}
