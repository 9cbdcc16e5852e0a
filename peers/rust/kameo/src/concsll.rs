//! concsll on kameo: `workers` clients send inserts, lookups and size queries to one
//! sorted-list actor and wait for each answer.
//!
//! The list is a kameo actor over `peer_kernels::sorted_list` (searched from the front, as
//! Savina's linked list is); every operation is an `ask`. Main spawns it, the collector
//! and the workers, then tells every worker `Start`. Worker `w` draws each operation from
//! its own generator (seeded with `w`): `r = below(100)`; a size query if `r < size_pct`,
//! else an insert if `r < size_pct + write_pct`, else a lookup, the last two of
//! `v = below(1024)*workers + w`. It awaits each answer inside its handler before the
//! next, counts its answers and its lookups answered true, tells both to the collector and
//! stops. When the collector has every report, main `ask`s the list for its length and
//! contents. The check is `ANSWERS:SIZE:CONTENTS:HITS`.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::rng::SplitMix64;
use peer_kernels::sorted_list::SortedList;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The list.
#[derive(Actor, Default)]
struct List {
    list: SortedList,
}

/// Answer the length.
struct Size;

/// Insert the value and answer when done.
struct Insert(u64);

/// Answer whether the value is in the list.
struct Contains(u64);

/// Answer the length and the contents' digest.
struct Summary;

impl Message<Size> for List {
    type Reply = u64;

    async fn handle(&mut self, _: Size, _ctx: &mut Context<Self, u64>) -> u64 {
        self.list.len()
    }
}

impl Message<Insert> for List {
    type Reply = ();

    async fn handle(&mut self, Insert(value): Insert, _ctx: &mut Context<Self, ()>) {
        self.list.insert(value);
    }
}

impl Message<Contains> for List {
    type Reply = bool;

    async fn handle(&mut self, Contains(value): Contains, _ctx: &mut Context<Self, bool>) -> bool {
        self.list.contains(value)
    }
}

impl Message<Summary> for List {
    type Reply = (u64, u64);

    async fn handle(&mut self, _: Summary, _ctx: &mut Context<Self, (u64, u64)>) -> (u64, u64) {
        (self.list.len(), self.list.contents())
    }
}

/// A worker.
#[derive(Actor)]
struct Worker {
    id: u64,
    workers: u64,
    messages: u64,
    write_pct: u64,
    size_pct: u64,
    list: ActorRef<List>,
    collector: ActorRef<Collector>,
}

/// Do all the operations, then report.
struct Start;

impl Message<Start> for Worker {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        let mut rng = SplitMix64::new(self.id);
        let (mut answers, mut hits) = (0u64, 0u64);
        for _ in 0..self.messages {
            let r = rng.below_mod(100);
            if r < self.size_pct {
                self.list.ask(Size).await.expect("the list did not answer");
            } else {
                let value = rng.below_mod(1024) * self.workers + self.id;
                if r < self.size_pct + self.write_pct {
                    self.list
                        .ask(Insert(value))
                        .await
                        .expect("the list did not answer");
                } else if self
                    .list
                    .ask(Contains(value))
                    .await
                    .expect("the list did not answer")
                {
                    hits += 1;
                }
            }
            answers += 1;
        }
        self.collector
            .tell(Report(answers, hits))
            .await
            .expect("collector stopped");
        ctx.stop();
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
    let list = List::spawn_with_mailbox(List::default(), mailbox::unbounded());
    let (collector, totals) = collector::spawn(workers);
    let all: Vec<ActorRef<Worker>> = (0..workers)
        .map(|id| {
            let worker = Worker {
                id,
                workers,
                messages,
                write_pct,
                size_pct,
                list: list.clone(),
                collector: collector.clone(),
            };
            Worker::spawn_with_mailbox(worker, mailbox::unbounded())
        })
        .collect();
    for worker in &all {
        worker
            .tell(Start)
            .await
            .map_err(|e| format!("starting a worker: {e}"))?;
    }
    let (answers, hits) = totals.wait().await?;
    let (size, contents) = list
        .ask(Summary)
        .await
        .map_err(|e| format!("the list did not answer: {e}"))?;
    Ok(Outcome::new(format!("{answers}:{size}:{contents}:{hits}")))
}
