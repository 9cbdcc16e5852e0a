//! fannkuch on kameo: a collector hands index ranges to one worker actor per runtime
//! thread and combines their partial results.
//!
//! The `n!` permutations are cut into ranges (`peer_kernels::fannkuch::task_ranges`).
//! Main spawns the collector and as many workers as the runtime has worker threads, and
//! `ask`s the collector to `Run` with those workers. The collector keeps the reply for
//! later (`DelegatedReply`) and tells every worker one `Task`. A worker runs its range
//! inside its handler (the CPU-bound part: tokio runs the workers in parallel) and tells
//! the collector `Done` with its partial checksum and maximum and its own `ActorRef`; the
//! collector combines it and gives that worker the next range; a worker given none is no
//! longer referred to and stops. When no range is left and none is out, the collector
//! replies `CHECKSUM:MAXFLIPS`.

use std::collections::VecDeque;
use std::ops::Range;

use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use kameo::{Actor, Reply};
use peer_kernels::fannkuch::{Partial, run_range, task_ranges};
use suite_contract::Outcome;

/// The combined result, as the collector replies it.
#[derive(Reply)]
struct Answer(Partial);

/// The collector.
#[derive(Actor)]
struct Collector {
    ranges: VecDeque<Range<u64>>,
    out: usize,
    total: Partial,
    reply: Option<ReplySender<Answer>>,
}

impl Collector {
    /// Gives `worker` the next range, if one is left. A worker given none is not
    /// referred to any more once this message is handled, and kameo stops an actor whose
    /// last `ActorRef` is dropped.
    async fn hand_out(&mut self, worker: &ActorRef<Worker>) {
        if let Some(range) = self.ranges.pop_front() {
            worker.tell(Task(range)).await.expect("worker stopped");
            self.out += 1;
        }
    }
}

/// Run every range on these workers; reply the combined result.
struct Run(Vec<ActorRef<Worker>>);

/// A worker's result for its last range.
struct Done(Partial, ActorRef<Worker>);

impl Message<Run> for Collector {
    type Reply = DelegatedReply<Answer>;

    async fn handle(
        &mut self,
        Run(workers): Run,
        ctx: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        for worker in &workers {
            self.hand_out(worker).await;
        }
        delegated
    }
}

impl Message<Done> for Collector {
    type Reply = ();

    async fn handle(&mut self, Done(partial, worker): Done, _ctx: &mut Context<Self, ()>) {
        self.total = self.total.combine(partial);
        self.out -= 1;
        self.hand_out(&worker).await;
        if self.out == 0
            && self.ranges.is_empty()
            && let Some(reply) = self.reply.take()
        {
            reply.send(Answer(self.total));
        }
    }
}

/// A worker.
#[derive(Actor)]
struct Worker {
    n: usize,
    collector: ActorRef<Collector>,
}

/// Run fannkuch-redux over these permutation indices.
struct Task(Range<u64>);

impl Message<Task> for Worker {
    type Reply = ();

    async fn handle(&mut self, Task(range): Task, ctx: &mut Context<Self, ()>) {
        let partial = run_range(self.n, range);
        self.collector
            .tell(Done(partial, ctx.actor_ref().clone()))
            .await
            .expect("collector stopped");
    }
}

/// Runs fannkuch-redux for `n` over the runtime's worker threads.
pub async fn run(n: u64) -> Result<Outcome, String> {
    let n = n as usize;
    let threads = tokio::runtime::Handle::current().metrics().num_workers();
    let collector = Collector {
        ranges: task_ranges(n).into(),
        out: 0,
        total: Partial::default(),
        reply: None,
    };
    let collector = Collector::spawn_with_mailbox(collector, mailbox::unbounded());
    let workers: Vec<ActorRef<Worker>> = (0..threads)
        .map(|_| {
            let worker = Worker {
                n,
                collector: collector.clone(),
            };
            Worker::spawn_with_mailbox(worker, mailbox::unbounded())
        })
        .collect();
    let Answer(total) = collector
        .ask(Run(workers))
        .await
        .map_err(|e| format!("the collector did not answer: {e}"))?;
    Ok(Outcome::new(total))
}
