//! concdict on actix: `workers` clients send reads and writes to one dictionary actor and
//! wait for each answer.
//!
//! Every message goes through the dictionary, so the dictionary, the workers and the
//! collector all live on main's arbiter (spreading the clients of one actor only added
//! cross-thread wake-ups in chameneos and bang). The dictionary is an actor over a
//! `HashMap`. Main sends every worker `Start`; worker `w` answers it with a
//! `ResponseFuture` that draws each operation from the worker's generator (seeded with
//! `w`): `r = below(100)`, `key = w*1024 + below(1024)`, and for a write
//! (`r < write_pct`) `value = next() >> 32`, then `send(..).await`s the dictionary's
//! answer before drawing the next. It counts the answers, adds up the answers to reads,
//! and sends both to the collector. When the collector has every report, main
//! `send(..).await`s the dictionary's size and contents (the sum of `(key+1)*value`). The
//! check is `ANSWERS:SIZE:CONTENTS:READSUM`.

use std::collections::HashMap;

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The dictionary.
#[derive(Default)]
struct Dictionary {
    map: HashMap<u64, u64>,
}

impl Actor for Dictionary {
    type Context = Context<Self>;
}

/// Store `key -> value` and answer `value`.
#[derive(Message)]
#[rtype(result = "u64")]
struct Write(u64, u64);

/// Answer the key's value, or 0 if it has none.
#[derive(Message)]
#[rtype(result = "u64")]
struct Read(u64);

/// Answer the size and the contents' digest.
#[derive(Message)]
#[rtype(result = "(u64, u64)")]
struct Summary;

impl Handler<Write> for Dictionary {
    type Result = u64;

    fn handle(&mut self, Write(key, value): Write, _ctx: &mut Context<Self>) -> u64 {
        self.map.insert(key, value);
        value
    }
}

impl Handler<Read> for Dictionary {
    type Result = u64;

    fn handle(&mut self, Read(key): Read, _ctx: &mut Context<Self>) -> u64 {
        self.map.get(&key).copied().unwrap_or(0)
    }
}

impl Handler<Summary> for Dictionary {
    type Result = MessageResult<Summary>;

    fn handle(&mut self, _: Summary, _ctx: &mut Context<Self>) -> MessageResult<Summary> {
        let contents = self.map.iter().fold(0u64, |sum, (&key, &value)| {
            sum.wrapping_add(key.wrapping_add(1).wrapping_mul(value))
        });
        MessageResult((self.map.len() as u64, contents))
    }
}

/// A worker.
struct Worker {
    id: u64,
    messages: u64,
    write_pct: u64,
    dictionary: Addr<Dictionary>,
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
        let (id, messages, write_pct) = (self.id, self.messages, self.write_pct);
        let dictionary = self.dictionary.clone();
        let collector = self.collector.clone();
        Box::pin(async move {
            let mut rng = SplitMix64::new(id);
            let (mut answers, mut read_sum) = (0u64, 0u64);
            for _ in 0..messages {
                let r = rng.below_mod(100);
                let key = id * 1024 + rng.below_mod(1024);
                if r < write_pct {
                    let value = rng.next_u64() >> 32;
                    dictionary
                        .send(Write(key, value))
                        .await
                        .expect("the dictionary did not answer");
                } else {
                    let value = dictionary
                        .send(Read(key))
                        .await
                        .expect("the dictionary did not answer");
                    read_sum = read_sum.wrapping_add(value);
                }
                answers += 1;
            }
            collector.do_send(Report(answers, read_sum));
        })
    }
}

/// Runs `workers` workers of `messages` operations each, `write_pct` percent writes; the
/// check is `ANSWERS:SIZE:CONTENTS:READSUM`.
pub async fn run(workers: u64, messages: u64, write_pct: u64) -> Result<Outcome, String> {
    let dictionary = Dictionary::default().start();
    let (collector, totals) = collector::start(workers);
    let all: Vec<Addr<Worker>> = (0..workers)
        .map(|id| {
            Worker {
                id,
                messages,
                write_pct,
                dictionary: dictionary.clone(),
                collector: collector.clone(),
            }
            .start()
        })
        .collect();
    for worker in &all {
        worker.do_send(Start);
    }
    let (answers, read_sum) = totals.wait().await?;
    let (size, contents) = dictionary
        .send(Summary)
        .await
        .map_err(|e| format!("the dictionary did not answer: {e}"))?;
    Ok(Outcome::new(format!(
        "{answers}:{size}:{contents}:{read_sum}"
    )))
}
