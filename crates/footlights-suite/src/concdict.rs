//! concdict: clients of one dictionary actor (Savina's concurrent dictionary).
//!
//! # On footlights
//!
//! One [`Dictionary`] (a `HashMap` from key to value), `workers` [`Worker`]s and a
//! [`Tally`]. Worker `w` draws its operations from its own generator, seeded with `w`
//! (docs/benchmarks.md gives the draws): a write stores `key -> value` and is answered
//! with the value, a read is answered with the key's value or 0. A request carries the
//! worker's address, and the worker sends its next request only when the answer to the
//! last has come, so each worker has one request in flight. Its keys are its own
//! (`w*1024 + below(1024)`), so every answer is the same in every run.
//!
//! A worker counts its answers and adds up the answers to its reads; after its last
//! answer it reports both to the tally and stops. When the tally has every report, the
//! main thread asks the dictionary for its size and contents digest (the sum of
//! `(key+1)*value` over its entries). The check is `ANSWERS:SIZE:CONTENTS:READSUM`.

use std::collections::HashMap;

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::SplitMix;
use crate::tally::Tally;

/// Keys per worker: worker `w` uses the keys `w*KEYS .. (w+1)*KEYS`.
const KEYS: u64 = 1024;

/// What the dictionary receives.
pub enum Request {
    /// Store `value` under `key`; answer with `value`.
    Write {
        key: u64,
        value: u64,
        from: Addr<Worker>,
    },
    /// Answer with the value under `key`, or 0.
    Read { key: u64, from: Addr<Worker> },
    /// Answer with the number of entries and the sum of `(key+1)*value` over them.
    Summary(ReplyTo<(u64, u64)>),
}

/// The dictionary.
pub struct Dictionary {
    map: HashMap<u64, u64>,
}

impl Actor for Dictionary {
    type Msg = Request;

    fn handle(&mut self, _ctx: &mut Context<Self>, request: Request) {
        match request {
            Request::Write { key, value, from } => {
                self.map.insert(key, value);
                let _ = from.send(value);
            }
            Request::Read { key, from } => {
                let _ = from.send(self.map.get(&key).copied().unwrap_or(0));
            }
            Request::Summary(reply) => {
                let contents = self.map.iter().fold(0u64, |sum, (key, value)| {
                    sum.wrapping_add(key.wrapping_add(1).wrapping_mul(*value))
                });
                let _ = reply.send((self.map.len() as u64, contents));
            }
        }
    }
}

/// One client of the dictionary.
pub struct Worker {
    id: u64,
    rng: SplitMix,
    write_pct: u64,
    /// Operations still to send.
    left: u64,
    /// Whether the request in flight is a read.
    reading: bool,
    answers: u64,
    readsum: u64,
    dictionary: Addr<Dictionary>,
    tally: Addr<Tally>,
}

impl Worker {
    /// Sends the next operation, or reports when all are answered.
    fn next(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.tally.send((self.answers, self.readsum));
            return ctx.stop();
        }
        self.left -= 1;
        let r = self.rng.below(100);
        let key = self.id * KEYS + self.rng.below(KEYS);
        let from = ctx.addr();
        self.reading = r >= self.write_pct;
        let request = if self.reading {
            Request::Read { key, from }
        } else {
            let value = self.rng.next_u64() >> 32;
            Request::Write { key, value, from }
        };
        let _ = self.dictionary.send(request);
    }
}

impl Actor for Worker {
    /// An answer from the dictionary.
    type Msg = u64;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.next(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, answer: u64) {
        self.answers += 1;
        if self.reading {
            self.readsum = self.readsum.wrapping_add(answer);
        }
        self.next(ctx);
    }
}

/// Runs concdict with `workers`, `messages` and `write_pct` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let workers = inv.get("workers");
    let dictionary = system.spawn(Dictionary {
        map: HashMap::new(),
    });
    let (tally, sums) = Tally::spawn(system, workers);
    for id in 0..workers {
        system.spawn(Worker {
            id,
            rng: SplitMix::new(id),
            write_pct: inv.get("write_pct"),
            left: inv.get("messages"),
            reading: false,
            answers: 0,
            readsum: 0,
            dictionary: dictionary.clone(),
            tally: tally.clone(),
        });
    }
    drop(tally);
    let (answers, readsum) = run::await_answer(system, sums, "the workers' reports")?;
    let summary = dictionary
        .ask(Request::Summary)
        .map_err(|_| "the dictionary stopped before the summary".to_string())?;
    let (size, contents) = run::await_answer(system, summary, "the dictionary's summary")?;
    Ok(Outcome::new(format!(
        "{answers}:{size}:{contents}:{readsum}"
    )))
}
