//! concsll: clients of one sorted-list actor (Savina's concurrent sorted linked list).
//!
//! # On footlights
//!
//! One [`List`], `workers` [`Worker`]s and a [`Tally`]. The list keeps its values in
//! ascending order in a `Vec` that every operation searches from the front, element by
//! element, as Savina's linked list is walked: an insert walks to the first element that
//! is not smaller and inserts there (equal values are all kept), a lookup walks until it
//! finds the value or passes it, a size query answers the length. Worker `w` draws its
//! operations from its own generator, seeded with `w` (docs/benchmarks.md gives the
//! draws), sends each with its own address and sends the next only when the answer has
//! come. Its values are `below(1024)*workers + w`, its own, so whether a lookup finds its
//! value is the same in every run; what a size query says depends on the other workers
//! and is not part of the check.
//!
//! A worker counts its answers and its lookups that found their value; after its last
//! answer it reports both to the tally and stops. When the tally has every report, the
//! main thread asks the list for its length and contents digest (the sum of
//! `(position+1)*value`, positions from 0). The check is `ANSWERS:SIZE:CONTENTS:HITS`.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::SplitMix;
use crate::tally::Tally;

/// Values per worker: worker `w`'s values are `k*workers + w` for `k` below this.
const VALUES: u64 = 1024;

/// What the list receives.
pub enum Request {
    /// Insert `value`; answer when done.
    Insert { value: u64, from: Addr<Worker> },
    /// Answer whether `value` is in the list.
    Contains { value: u64, from: Addr<Worker> },
    /// Answer the list's length.
    Size { from: Addr<Worker> },
    /// Answer the length and the sum of `(position+1)*value`.
    Summary(ReplyTo<(u64, u64)>),
}

/// What a worker is told.
pub enum Answer {
    /// The insert is done.
    Inserted,
    /// Whether the value looked up is in the list.
    Found(bool),
    /// The list's length. Workers are told it, as Savina's are, but do not use it: it
    /// depends on timing, so it is not part of the check.
    Size(#[allow(dead_code)] u64),
}

/// The sorted list.
pub struct List {
    values: Vec<u64>,
}

impl List {
    /// The position of the first element not smaller than `value`, walking from the front.
    fn walk(&self, value: u64) -> usize {
        self.values
            .iter()
            .position(|&v| v >= value)
            .unwrap_or(self.values.len())
    }
}

impl Actor for List {
    type Msg = Request;

    fn handle(&mut self, _ctx: &mut Context<Self>, request: Request) {
        match request {
            Request::Insert { value, from } => {
                let at = self.walk(value);
                self.values.insert(at, value);
                let _ = from.send(Answer::Inserted);
            }
            Request::Contains { value, from } => {
                let at = self.walk(value);
                let found = self.values.get(at) == Some(&value);
                let _ = from.send(Answer::Found(found));
            }
            Request::Size { from } => {
                let _ = from.send(Answer::Size(self.values.len() as u64));
            }
            Request::Summary(reply) => {
                let contents = self
                    .values
                    .iter()
                    .zip(1u64..)
                    .fold(0u64, |sum, (v, p)| sum.wrapping_add(p.wrapping_mul(*v)));
                let _ = reply.send((self.values.len() as u64, contents));
            }
        }
    }
}

/// One client of the list.
pub struct Worker {
    id: u64,
    workers: u64,
    rng: SplitMix,
    write_pct: u64,
    size_pct: u64,
    /// Operations still to send.
    left: u64,
    answers: u64,
    hits: u64,
    list: Addr<List>,
    tally: Addr<Tally>,
}

impl Worker {
    /// Sends the next operation, or reports when all are answered.
    fn next(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.tally.send((self.answers, self.hits));
            return ctx.stop();
        }
        self.left -= 1;
        let r = self.rng.below(100);
        let from = ctx.addr();
        let request = if r < self.size_pct {
            Request::Size { from }
        } else {
            let value = self.rng.below(VALUES) * self.workers + self.id;
            if r < self.size_pct + self.write_pct {
                Request::Insert { value, from }
            } else {
                Request::Contains { value, from }
            }
        };
        let _ = self.list.send(request);
    }
}

impl Actor for Worker {
    type Msg = Answer;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.next(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, answer: Answer) {
        self.answers += 1;
        if let Answer::Found(true) = answer {
            self.hits += 1;
        }
        self.next(ctx);
    }
}

/// Runs concsll with `workers`, `messages`, `write_pct` and `size_pct` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let workers = inv.get("workers");
    let list = system.spawn(List { values: Vec::new() });
    let (tally, sums) = Tally::spawn(system, workers);
    for id in 0..workers {
        system.spawn(Worker {
            id,
            workers,
            rng: SplitMix::new(id),
            write_pct: inv.get("write_pct"),
            size_pct: inv.get("size_pct"),
            left: inv.get("messages"),
            answers: 0,
            hits: 0,
            list: list.clone(),
            tally: tally.clone(),
        });
    }
    drop(tally);
    let (answers, hits) = run::await_answer(system, sums, "the workers' reports")?;
    let summary = list
        .ask(Request::Summary)
        .map_err(|_| "the list stopped before the summary".to_string())?;
    let (size, contents) = run::await_answer(system, summary, "the list's summary")?;
    Ok(Outcome::new(format!("{answers}:{size}:{contents}:{hits}")))
}
