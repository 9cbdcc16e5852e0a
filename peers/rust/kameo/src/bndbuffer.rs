//! bndbuffer on kameo: producers and consumers through one manager with a bounded buffer.
//!
//! Main spawns the manager, the collector, `producers` producers and `consumers`
//! consumers (each knowing the manager), tells the manager their `ActorRef`s (`Setup`)
//! and then `Start`. The manager tells every producer `Produce`. Producer `p`, told to
//! produce, tells the manager its next item `work(next(), cost)` from its own generator
//! (seeded with `p`), or, when it has sent all `items`, `ProducerDone`, and stops.
//!
//! The manager starts with every consumer idle. An arriving item goes straight to an idle
//! consumer if there is one, else into the buffer; the producer is then told to produce
//! again if the buffer has room, and is held back otherwise. A consumer handles an item
//! (`work(item, cost)` added to its sum), then tells `Available`: the manager hands it the
//! oldest buffered item and lets one held-back producer go on, or, with an empty buffer,
//! marks it idle. Once every producer is done and every consumer idle (so the buffer is
//! empty), the manager tells every consumer `Exit` and stops; each tells its count and
//! sum to the collector. The check is `CONSUMED:SUM`.

use std::collections::VecDeque;

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;

use crate::collector::{self, Collector, Report};

/// The manager.
#[derive(Actor)]
struct Manager {
    capacity: usize,
    buffer: VecDeque<u64>,
    producers: Vec<ActorRef<Producer>>,
    consumers: Vec<ActorRef<Consumer>>,
    idle: VecDeque<usize>,
    held_back: VecDeque<usize>,
    done: usize,
}

impl Manager {
    async fn produce(&self, producer: usize) {
        self.producers[producer]
            .tell(Produce)
            .await
            .expect("producer stopped");
    }

    async fn consume(&self, consumer: usize, item: u64) {
        self.consumers[consumer]
            .tell(Data(item))
            .await
            .expect("consumer stopped");
    }

    /// Tells the consumers to exit if everything is done; whether it did.
    async fn exit_if_finished(&self) -> bool {
        if self.done < self.producers.len() || self.idle.len() < self.consumers.len() {
            return false;
        }
        for consumer in &self.consumers {
            consumer.tell(Exit).await.expect("consumer stopped");
        }
        true
    }
}

/// The producers and consumers, by number.
struct Setup(Vec<ActorRef<Producer>>, Vec<ActorRef<Consumer>>);

/// Tell every producer to produce.
struct Start;

/// An item from this producer.
struct Item(u64, usize);

/// A producer has sent all its items.
struct ProducerDone;

/// This consumer wants an item.
struct Available(usize);

impl Message<Setup> for Manager {
    type Reply = ();

    async fn handle(&mut self, Setup(producers, consumers): Setup, _ctx: &mut Context<Self, ()>) {
        self.idle = (0..consumers.len()).collect();
        self.producers = producers;
        self.consumers = consumers;
    }
}

impl Message<Start> for Manager {
    type Reply = ();

    async fn handle(&mut self, _: Start, _ctx: &mut Context<Self, ()>) {
        for producer in 0..self.producers.len() {
            self.produce(producer).await;
        }
    }
}

impl Message<Item> for Manager {
    type Reply = ();

    async fn handle(&mut self, Item(item, producer): Item, _ctx: &mut Context<Self, ()>) {
        if let Some(consumer) = self.idle.pop_front() {
            self.consume(consumer, item).await;
        } else {
            self.buffer.push_back(item);
        }
        if self.buffer.len() < self.capacity {
            self.produce(producer).await;
        } else {
            self.held_back.push_back(producer);
        }
    }
}

impl Message<ProducerDone> for Manager {
    type Reply = ();

    async fn handle(&mut self, _: ProducerDone, ctx: &mut Context<Self, ()>) {
        self.done += 1;
        if self.exit_if_finished().await {
            ctx.stop();
        }
    }
}

impl Message<Available> for Manager {
    type Reply = ();

    async fn handle(&mut self, Available(consumer): Available, ctx: &mut Context<Self, ()>) {
        if let Some(item) = self.buffer.pop_front() {
            self.consume(consumer, item).await;
            if let Some(producer) = self.held_back.pop_front() {
                self.produce(producer).await;
            }
        } else {
            self.idle.push_back(consumer);
            if self.exit_if_finished().await {
                ctx.stop();
            }
        }
    }
}

/// A producer.
#[derive(Actor)]
struct Producer {
    id: usize,
    rng: SplitMix64,
    left: u64,
    cost: u64,
    manager: ActorRef<Manager>,
}

/// Produce the next item (or say there are no more).
struct Produce;

impl Message<Produce> for Producer {
    type Reply = ();

    async fn handle(&mut self, _: Produce, ctx: &mut Context<Self, ()>) {
        if self.left == 0 {
            self.manager
                .tell(ProducerDone)
                .await
                .expect("manager stopped");
            ctx.stop();
        } else {
            self.left -= 1;
            let item = work(self.rng.next_u64(), self.cost);
            self.manager
                .tell(Item(item, self.id))
                .await
                .expect("manager stopped");
        }
    }
}

/// A consumer.
#[derive(Actor)]
struct Consumer {
    id: usize,
    cost: u64,
    consumed: u64,
    sum: u64,
    manager: ActorRef<Manager>,
    collector: ActorRef<Collector>,
}

/// An item to consume.
struct Data(u64);

/// No more items: report.
struct Exit;

impl Message<Data> for Consumer {
    type Reply = ();

    async fn handle(&mut self, Data(item): Data, _ctx: &mut Context<Self, ()>) {
        self.consumed += 1;
        self.sum = self.sum.wrapping_add(work(item, self.cost));
        self.manager
            .tell(Available(self.id))
            .await
            .expect("manager stopped");
    }
}

impl Message<Exit> for Consumer {
    type Reply = ();

    async fn handle(&mut self, _: Exit, ctx: &mut Context<Self, ()>) {
        self.collector
            .tell(Report(self.consumed, self.sum))
            .await
            .expect("collector stopped");
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
    };
    let manager = Manager::spawn_with_mailbox(manager, mailbox::unbounded());
    let (collector, totals) = collector::spawn(consumers);
    let all_producers = (0..producers)
        .map(|id| {
            let producer = Producer {
                id: id as usize,
                rng: SplitMix64::new(id),
                left: items,
                cost,
                manager: manager.clone(),
            };
            Producer::spawn_with_mailbox(producer, mailbox::unbounded())
        })
        .collect();
    let all_consumers = (0..consumers)
        .map(|id| {
            let consumer = Consumer {
                id: id as usize,
                cost,
                consumed: 0,
                sum: 0,
                manager: manager.clone(),
                collector: collector.clone(),
            };
            Consumer::spawn_with_mailbox(consumer, mailbox::unbounded())
        })
        .collect();
    manager
        .tell(Setup(all_producers, all_consumers))
        .await
        .map_err(|e| format!("introducing the manager: {e}"))?;
    manager
        .tell(Start)
        .await
        .map_err(|e| format!("starting the manager: {e}"))?;
    let (consumed, sum) = totals.wait().await?;
    Ok(Outcome::new(format!("{consumed}:{sum}")))
}
