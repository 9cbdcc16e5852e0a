//! concdict on kameo: `workers` clients send reads and writes to one dictionary actor and
//! wait for each answer.
//!
//! The dictionary is a kameo actor over a `HashMap`; every operation is an `ask`. Main
//! spawns it, the collector and the workers, then tells every worker `Start`. Worker `w`
//! draws each operation from its own generator (seeded with `w`): `r = below(100)`,
//! `key = w*1024 + below(1024)`, and for a write (`r < write_pct`)
//! `value = next() >> 32`. It `ask`s the dictionary and awaits the answer inside its
//! handler before drawing the next, counts its answers and adds up the answers to its
//! reads, tells both to the collector and stops. When the collector has every report,
//! main `ask`s the dictionary for its size and contents (the sum of `(key+1)*value`). The
//! check is `ANSWERS:SIZE:CONTENTS:READSUM`.

use std::collections::HashMap;

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The dictionary.
#[derive(Actor, Default)]
struct Dictionary {
    map: HashMap<u64, u64>,
}

/// Store `key -> value` and answer `value`.
struct Write(u64, u64);

/// Answer the key's value, or 0 if it has none.
struct Read(u64);

/// Answer the size and the contents' digest.
struct Summary;

impl Message<Write> for Dictionary {
    type Reply = u64;

    async fn handle(&mut self, Write(key, value): Write, _ctx: &mut Context<Self, u64>) -> u64 {
        self.map.insert(key, value);
        value
    }
}

impl Message<Read> for Dictionary {
    type Reply = u64;

    async fn handle(&mut self, Read(key): Read, _ctx: &mut Context<Self, u64>) -> u64 {
        self.map.get(&key).copied().unwrap_or(0)
    }
}

impl Message<Summary> for Dictionary {
    type Reply = (u64, u64);

    async fn handle(&mut self, _: Summary, _ctx: &mut Context<Self, (u64, u64)>) -> (u64, u64) {
        let contents = self.map.iter().fold(0u64, |sum, (&key, &value)| {
            sum.wrapping_add(key.wrapping_add(1).wrapping_mul(value))
        });
        (self.map.len() as u64, contents)
    }
}

/// A worker.
#[derive(Actor)]
struct Worker {
    id: u64,
    messages: u64,
    write_pct: u64,
    dictionary: ActorRef<Dictionary>,
    collector: ActorRef<Collector>,
}

/// Do all the operations, then report.
struct Start;

impl Message<Start> for Worker {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        let mut rng = SplitMix64::new(self.id);
        let (mut answers, mut read_sum) = (0u64, 0u64);
        for _ in 0..self.messages {
            let r = rng.below_mod(100);
            let key = self.id * 1024 + rng.below_mod(1024);
            if r < self.write_pct {
                let value = rng.next_u64() >> 32;
                self.dictionary
                    .ask(Write(key, value))
                    .await
                    .expect("the dictionary did not answer");
            } else {
                let value = self
                    .dictionary
                    .ask(Read(key))
                    .await
                    .expect("the dictionary did not answer");
                read_sum = read_sum.wrapping_add(value);
            }
            answers += 1;
        }
        self.collector
            .tell(Report(answers, read_sum))
            .await
            .expect("collector stopped");
        ctx.stop();
    }
}

/// Runs `workers` workers of `messages` operations each, `write_pct` percent writes; the
/// check is `ANSWERS:SIZE:CONTENTS:READSUM`.
pub async fn run(workers: u64, messages: u64, write_pct: u64) -> Result<Outcome, String> {
    let dictionary = Dictionary::spawn_with_mailbox(Dictionary::default(), mailbox::unbounded());
    let (collector, totals) = collector::spawn(workers);
    let all: Vec<ActorRef<Worker>> = (0..workers)
        .map(|id| {
            let worker = Worker {
                id,
                messages,
                write_pct,
                dictionary: dictionary.clone(),
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
    let (answers, read_sum) = totals.wait().await?;
    let (size, contents) = dictionary
        .ask(Summary)
        .await
        .map_err(|e| format!("the dictionary did not answer: {e}"))?;
    Ok(Outcome::new(format!(
        "{answers}:{size}:{contents}:{read_sum}"
    )))
}
