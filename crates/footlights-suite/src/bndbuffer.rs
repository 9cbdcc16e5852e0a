//! bndbuffer: producers and consumers through one manager with a bounded buffer (Savina's
//! producer-consumer with a bounded buffer).
//!
//! # On footlights
//!
//! One [`Manager`], `producers` [`Producer`]s, `consumers` [`Consumer`]s and a [`Tally`].
//!
//! * A producer, seeded with its number, makes its items one at a time: item `i` is
//!   [`work`]`(next(), cost)`, sent to the manager with the producer's address
//!   ([`ToManager::Data`]). It makes the next only when the manager says
//!   [`Produce`]; told so after its last item, it tells the manager it has finished
//!   and stops.
//! * The manager hands an arriving item straight to a waiting consumer, or buffers it. It
//!   tells the producer to produce again at once while the buffer has room, and otherwise
//!   keeps the producer's address in a queue and tells it when a consumer has taken an
//!   item.
//! * A consumer says it is available ([`ToManager::Available`], with its address), gets an
//!   item, computes `work(item, cost)`, adds it to its sum and says it is available again.
//! * When every producer has finished, the buffer is empty and every consumer is waiting,
//!   the manager tells each consumer to stop; each reports its count and sum to the
//!   tally. The tally's sums are the check `CONSUMED:SUM`.

use std::collections::VecDeque;

use footlights::{Actor, Addr, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::{SplitMix, work};
use crate::tally::Tally;

/// What the manager receives.
pub enum ToManager {
    /// An item from this producer.
    Data(u64, Addr<Producer>),
    /// This producer has made all its items.
    Finished,
    /// This consumer waits for an item.
    Available(Addr<Consumer>),
}

/// The manager's word to a producer: make the next item.
pub struct Produce;

/// What a consumer receives.
pub enum ToConsumer {
    /// An item to consume.
    Item(u64),
    /// No more items: report and stop.
    Stop,
}

/// The manager and its bounded buffer.
pub struct Manager {
    capacity: usize,
    buffer: VecDeque<u64>,
    /// Consumers waiting for an item.
    idle: VecDeque<Addr<Consumer>>,
    /// Producers held back while the buffer was full.
    held: VecDeque<Addr<Producer>>,
    /// Producers that have not finished.
    producing: u64,
    consumers: usize,
}

impl Manager {
    /// Stops every consumer once nothing is left to consume.
    fn end_if_done(&mut self, ctx: &mut Context<Self>) {
        if self.producing == 0 && self.buffer.is_empty() && self.idle.len() == self.consumers {
            for consumer in self.idle.drain(..) {
                let _ = consumer.send(ToConsumer::Stop);
            }
            ctx.stop();
        }
    }
}

impl Actor for Manager {
    type Msg = ToManager;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToManager) {
        match msg {
            ToManager::Data(item, producer) => {
                match self.idle.pop_front() {
                    Some(consumer) => {
                        let _ = consumer.send(ToConsumer::Item(item));
                    }
                    None => self.buffer.push_back(item),
                }
                if self.buffer.len() < self.capacity {
                    let _ = producer.send(Produce);
                } else {
                    self.held.push_back(producer);
                }
            }
            ToManager::Available(consumer) => match self.buffer.pop_front() {
                Some(item) => {
                    let _ = consumer.send(ToConsumer::Item(item));
                    if let Some(producer) = self.held.pop_front() {
                        let _ = producer.send(Produce);
                    }
                }
                None => {
                    self.idle.push_back(consumer);
                    self.end_if_done(ctx);
                }
            },
            ToManager::Finished => {
                self.producing -= 1;
                self.end_if_done(ctx);
            }
        }
    }
}

/// Makes `items` items, one at a time.
pub struct Producer {
    rng: SplitMix,
    /// Items still to make.
    left: u64,
    cost: u64,
    manager: Addr<Manager>,
}

impl Producer {
    /// Makes and sends the next item, or finishes.
    fn produce(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.manager.send(ToManager::Finished);
            return ctx.stop();
        }
        self.left -= 1;
        let item = work(self.rng.next_u64(), self.cost);
        let _ = self.manager.send(ToManager::Data(item, ctx.addr()));
    }
}

impl Actor for Producer {
    type Msg = Produce;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.produce(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, Produce: Produce) {
        self.produce(ctx);
    }
}

/// Consumes items until told to stop.
pub struct Consumer {
    cost: u64,
    consumed: u64,
    sum: u64,
    manager: Addr<Manager>,
    tally: Addr<Tally>,
}

impl Actor for Consumer {
    type Msg = ToConsumer;

    fn started(&mut self, ctx: &mut Context<Self>) {
        let _ = self.manager.send(ToManager::Available(ctx.addr()));
    }

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToConsumer) {
        match msg {
            ToConsumer::Item(item) => {
                self.consumed += 1;
                self.sum = self.sum.wrapping_add(work(item, self.cost));
                let _ = self.manager.send(ToManager::Available(ctx.addr()));
            }
            ToConsumer::Stop => {
                let _ = self.tally.send((self.consumed, self.sum));
                ctx.stop();
            }
        }
    }
}

/// Runs bndbuffer with `buffer`, `producers`, `consumers`, `items` and `cost` from the
/// invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let consumers = inv.get("consumers");
    let cost = inv.get("cost");
    let manager = system.spawn(Manager {
        capacity: inv.get("buffer") as usize,
        buffer: VecDeque::new(),
        idle: VecDeque::new(),
        held: VecDeque::new(),
        producing: inv.get("producers"),
        consumers: consumers as usize,
    });
    let (tally, sums) = Tally::spawn(system, consumers);
    for _ in 0..consumers {
        system.spawn(Consumer {
            cost,
            consumed: 0,
            sum: 0,
            manager: manager.clone(),
            tally: tally.clone(),
        });
    }
    drop(tally);
    for id in 0..inv.get("producers") {
        system.spawn(Producer {
            rng: SplitMix::new(id),
            left: inv.get("items"),
            cost,
            manager: manager.clone(),
        });
    }
    drop(manager);
    let (consumed, sum) = run::await_answer(system, sums, "the consumers' reports")?;
    Ok(Outcome::new(format!("{consumed}:{sum}")))
}
