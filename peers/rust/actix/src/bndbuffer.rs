//! bndbuffer on actix: producers and consumers through one manager with a bounded buffer.
//!
//! Every item goes through the manager, so every actor lives on main's arbiter (as in
//! concdict). Main starts the manager, the collector, `producers` producers and `consumers`
//! consumers (each knowing the manager), sends the manager their addresses (`Setup`) and
//! then `Start`. The manager sends every producer `Produce`. Producer `p`, told to
//! produce, sends the manager its next item `work(next(), cost)` from its own generator
//! (seeded with `p`), or, when it has sent all `items`, `ProducerDone`, and stops.
//!
//! The manager starts with every consumer idle. An arriving item goes straight to an idle
//! consumer if there is one, else into the buffer; the producer is then told to produce
//! again if the buffer has room, and is held back otherwise. A consumer handles an item
//! (`work(item, cost)` added to its sum), then sends `Available`: the manager hands it the
//! oldest buffered item and lets one held-back producer go on, or, with an empty buffer,
//! marks it idle. Once every producer is done and every consumer idle (so the buffer is
//! empty), the manager sends every consumer `Exit` and stops; each sends its count and sum
//! to the collector. The check is `CONSUMED:SUM`.

use std::collections::VecDeque;

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The manager.
struct Manager {
    capacity: usize,
    buffer: VecDeque<u64>,
    producers: Vec<Addr<Producer>>,
    consumers: Vec<Addr<Consumer>>,
    idle: VecDeque<usize>,
    held_back: VecDeque<usize>,
    done: usize,
}

impl Manager {
    fn exit_if_finished(&self, ctx: &mut Context<Self>) {
        if self.done == self.producers.len() && self.idle.len() == self.consumers.len() {
            for consumer in &self.consumers {
                consumer.do_send(Exit);
            }
            ctx.stop();
        }
    }
}

impl Actor for Manager {
    type Context = Context<Self>;
}

/// The producers and consumers, by number.
#[derive(Message)]
#[rtype(result = "()")]
struct Setup(Vec<Addr<Producer>>, Vec<Addr<Consumer>>);

/// Tell every producer to produce.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

/// An item from this producer.
#[derive(Message)]
#[rtype(result = "()")]
struct Item(u64, usize);

/// A producer has sent all its items.
#[derive(Message)]
#[rtype(result = "()")]
struct ProducerDone;

/// This consumer wants an item.
#[derive(Message)]
#[rtype(result = "()")]
struct Available(usize);

impl Handler<Setup> for Manager {
    type Result = ();

    fn handle(&mut self, Setup(producers, consumers): Setup, _ctx: &mut Context<Self>) {
        self.idle = (0..consumers.len()).collect();
        self.producers = producers;
        self.consumers = consumers;
    }
}

impl Handler<Start> for Manager {
    type Result = ();

    fn handle(&mut self, _: Start, _ctx: &mut Context<Self>) {
        for producer in &self.producers {
            producer.do_send(Produce);
        }
    }
}

impl Handler<Item> for Manager {
    type Result = ();

    fn handle(&mut self, Item(item, producer): Item, _ctx: &mut Context<Self>) {
        if let Some(consumer) = self.idle.pop_front() {
            self.consumers[consumer].do_send(Data(item));
        } else {
            self.buffer.push_back(item);
        }
        if self.buffer.len() < self.capacity {
            self.producers[producer].do_send(Produce);
        } else {
            self.held_back.push_back(producer);
        }
    }
}

impl Handler<ProducerDone> for Manager {
    type Result = ();

    fn handle(&mut self, _: ProducerDone, ctx: &mut Context<Self>) {
        self.done += 1;
        self.exit_if_finished(ctx);
    }
}

impl Handler<Available> for Manager {
    type Result = ();

    fn handle(&mut self, Available(consumer): Available, ctx: &mut Context<Self>) {
        if let Some(item) = self.buffer.pop_front() {
            self.consumers[consumer].do_send(Data(item));
            if let Some(producer) = self.held_back.pop_front() {
                self.producers[producer].do_send(Produce);
            }
        } else {
            self.idle.push_back(consumer);
            self.exit_if_finished(ctx);
        }
    }
}

/// A producer.
struct Producer {
    id: usize,
    rng: SplitMix64,
    left: u64,
    cost: u64,
    manager: Addr<Manager>,
}

impl Actor for Producer {
    type Context = Context<Self>;
}

/// Produce the next item (or say there are no more).
#[derive(Message)]
#[rtype(result = "()")]
struct Produce;

impl Handler<Produce> for Producer {
    type Result = ();

    fn handle(&mut self, _: Produce, ctx: &mut Context<Self>) {
        if self.left == 0 {
            self.manager.do_send(ProducerDone);
            ctx.stop();
        } else {
            self.left -= 1;
            let item = work(self.rng.next_u64(), self.cost);
            self.manager.do_send(Item(item, self.id));
        }
    }
}

/// A consumer.
struct Consumer {
    id: usize,
    cost: u64,
    consumed: u64,
    sum: u64,
    manager: Addr<Manager>,
    collector: Addr<Collector>,
}

impl Actor for Consumer {
    type Context = Context<Self>;
}

/// An item to consume.
#[derive(Message)]
#[rtype(result = "()")]
struct Data(u64);

/// No more items: report.
#[derive(Message)]
#[rtype(result = "()")]
struct Exit;

impl Handler<Data> for Consumer {
    type Result = ();

    fn handle(&mut self, Data(item): Data, _ctx: &mut Context<Self>) {
        self.consumed += 1;
        self.sum = self.sum.wrapping_add(work(item, self.cost));
        self.manager.do_send(Available(self.id));
    }
}

impl Handler<Exit> for Consumer {
    type Result = ();

    fn handle(&mut self, _: Exit, ctx: &mut Context<Self>) {
        self.collector.do_send(Report(self.consumed, self.sum));
        ctx.stop();
    }
}

/// Runs `producers` producers of `items` items each and `consumers` consumers through a
/// buffer of `buffer` items, `cost` steps of work per item on each side; the check is
/// `CONSUMED:SUM`.
pub async fn run(
    buffer: u64,
    producers: u64,
    consumers: u64,
    items: u64,
    cost: u64,
) -> Result<Outcome, String> {
    let manager = Manager {
        capacity: buffer as usize,
        buffer: VecDeque::new(),
        producers: Vec::new(),
        consumers: Vec::new(),
        idle: VecDeque::new(),
        held_back: VecDeque::new(),
        done: 0,
    }
    .start();
    let (collector, totals) = collector::start(consumers);
    let all_producers = (0..producers)
        .map(|id| {
            Producer {
                id: id as usize,
                rng: SplitMix64::new(id),
                left: items,
                cost,
                manager: manager.clone(),
            }
            .start()
        })
        .collect();
    let all_consumers = (0..consumers)
        .map(|id| {
            Consumer {
                id: id as usize,
                cost,
                consumed: 0,
                sum: 0,
                manager: manager.clone(),
                collector: collector.clone(),
            }
            .start()
        })
        .collect();
    manager.do_send(Setup(all_producers, all_consumers));
    manager.do_send(Start);
    let (consumed, sum) = totals.wait().await?;
    Ok(Outcome::new(format!("{consumed}:{sum}")))
}
