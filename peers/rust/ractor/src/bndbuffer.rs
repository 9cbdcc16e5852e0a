//! bndbuffer on ractor: producers and consumers through one manager with a bounded buffer.
//!
//! Main spawns the manager, the collector, `producers` producers and `consumers`
//! consumers (each knowing the manager), casts the manager their `ActorRef`s (`Setup`)
//! and then `Start`. The manager casts every producer `Produce`. Producer `p`, told to
//! produce, casts the manager its next item `work(next(), cost)` from its own generator
//! (seeded with `p`), or, when it has sent all `items`, `ProducerDone`, and stops.
//!
//! The manager starts with every consumer idle. An arriving item goes straight to an idle
//! consumer if there is one, else into the buffer; the producer is then told to produce
//! again if the buffer has room, and is held back otherwise. A consumer handles an item
//! (`work(item, cost)` added to its sum), then casts `Available`: the manager hands it the
//! oldest buffered item and lets one held-back producer go on, or, with an empty buffer,
//! marks it idle. Once every producer is done and every consumer idle (so the buffer is
//! empty), the manager casts every consumer `Exit` and stops; each casts its count and sum
//! to the collector. The check is `CONSUMED:SUM`.

use std::collections::VecDeque;

use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use ractor::{Actor, ActorProcessingErr, ActorRef, cast};
use suite_contract::Outcome;

use crate::collector::{self, CollectorMsg};

/// Messages of the manager.
pub enum ManagerMsg {
    /// The producers and consumers, by number.
    Setup(Vec<ActorRef<ProducerMsg>>, Vec<ActorRef<ConsumerMsg>>),
    /// Tell every producer to produce.
    Start,
    /// An item from this producer.
    Data(u64, usize),
    /// A producer has sent all its items.
    ProducerDone,
    /// This consumer wants an item.
    Available(usize),
}

/// Messages of a producer.
pub enum ProducerMsg {
    /// Produce the next item (or say there are no more).
    Produce,
}

/// Messages of a consumer.
pub enum ConsumerMsg {
    /// An item to consume.
    Data(u64),
    /// No more items: report.
    Exit,
}

/// The manager's behaviour.
struct Manager;

/// The manager's state.
struct ManagerState {
    capacity: usize,
    buffer: VecDeque<u64>,
    producers: Vec<ActorRef<ProducerMsg>>,
    consumers: Vec<ActorRef<ConsumerMsg>>,
    idle: VecDeque<usize>,
    held_back: VecDeque<usize>,
    done: usize,
}

impl ManagerState {
    fn produce(&self, producer: usize) {
        cast!(self.producers[producer], ProducerMsg::Produce).expect("producer stopped");
    }

    fn exit_if_finished(&self, myself: &ActorRef<ManagerMsg>) {
        if self.done == self.producers.len() && self.idle.len() == self.consumers.len() {
            for consumer in &self.consumers {
                cast!(consumer, ConsumerMsg::Exit).expect("consumer stopped");
            }
            myself.stop(None);
        }
    }
}

impl Actor for Manager {
    type Msg = ManagerMsg;
    type State = ManagerState;
    type Arguments = usize;

    async fn pre_start(
        &self,
        _myself: ActorRef<ManagerMsg>,
        capacity: usize,
    ) -> Result<ManagerState, ActorProcessingErr> {
        Ok(ManagerState {
            capacity,
            buffer: VecDeque::new(),
            producers: Vec::new(),
            consumers: Vec::new(),
            idle: VecDeque::new(),
            held_back: VecDeque::new(),
            done: 0,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ManagerMsg>,
        message: ManagerMsg,
        state: &mut ManagerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ManagerMsg::Setup(producers, consumers) => {
                state.idle = (0..consumers.len()).collect();
                state.producers = producers;
                state.consumers = consumers;
            }
            ManagerMsg::Start => {
                for producer in 0..state.producers.len() {
                    state.produce(producer);
                }
            }
            ManagerMsg::Data(item, producer) => {
                if let Some(consumer) = state.idle.pop_front() {
                    cast!(state.consumers[consumer], ConsumerMsg::Data(item))
                        .expect("consumer stopped");
                } else {
                    state.buffer.push_back(item);
                }
                if state.buffer.len() < state.capacity {
                    state.produce(producer);
                } else {
                    state.held_back.push_back(producer);
                }
            }
            ManagerMsg::ProducerDone => {
                state.done += 1;
                state.exit_if_finished(&myself);
            }
            ManagerMsg::Available(consumer) => {
                if let Some(item) = state.buffer.pop_front() {
                    cast!(state.consumers[consumer], ConsumerMsg::Data(item))
                        .expect("consumer stopped");
                    if let Some(producer) = state.held_back.pop_front() {
                        state.produce(producer);
                    }
                } else {
                    state.idle.push_back(consumer);
                    state.exit_if_finished(&myself);
                }
            }
        }
        Ok(())
    }
}

/// A producer's behaviour.
struct Producer;

/// A producer's state.
struct ProducerState {
    id: usize,
    rng: SplitMix64,
    left: u64,
    cost: u64,
    manager: ActorRef<ManagerMsg>,
}

impl Actor for Producer {
    type Msg = ProducerMsg;
    type State = ProducerState;
    type Arguments = ProducerState;

    async fn pre_start(
        &self,
        _myself: ActorRef<ProducerMsg>,
        state: ProducerState,
    ) -> Result<ProducerState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<ProducerMsg>,
        ProducerMsg::Produce: ProducerMsg,
        state: &mut ProducerState,
    ) -> Result<(), ActorProcessingErr> {
        if state.left == 0 {
            cast!(state.manager, ManagerMsg::ProducerDone).expect("manager stopped");
            myself.stop(None);
        } else {
            state.left -= 1;
            let item = work(state.rng.next_u64(), state.cost);
            cast!(state.manager, ManagerMsg::Data(item, state.id)).expect("manager stopped");
        }
        Ok(())
    }
}

/// A consumer's behaviour.
struct Consumer;

/// A consumer's state.
struct ConsumerState {
    id: usize,
    cost: u64,
    consumed: u64,
    sum: u64,
    manager: ActorRef<ManagerMsg>,
    collector: ActorRef<CollectorMsg>,
}

impl Actor for Consumer {
    type Msg = ConsumerMsg;
    type State = ConsumerState;
    type Arguments = ConsumerState;

    async fn pre_start(
        &self,
        _myself: ActorRef<ConsumerMsg>,
        state: ConsumerState,
    ) -> Result<ConsumerState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<ConsumerMsg>,
        message: ConsumerMsg,
        state: &mut ConsumerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ConsumerMsg::Data(item) => {
                state.consumed += 1;
                state.sum = state.sum.wrapping_add(work(item, state.cost));
                cast!(state.manager, ManagerMsg::Available(state.id)).expect("manager stopped");
            }
            ConsumerMsg::Exit => {
                cast!(
                    state.collector,
                    CollectorMsg::Report(state.consumed, state.sum)
                )
                .expect("collector stopped");
                myself.stop(None);
            }
        }
        Ok(())
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
    let (manager, _) = Actor::spawn(None, Manager, buffer as usize)
        .await
        .map_err(|e| format!("cannot spawn the manager: {e}"))?;
    let (collector, totals) = collector::spawn(consumers).await?;
    let mut all_producers = Vec::with_capacity(producers as usize);
    for id in 0..producers {
        let state = ProducerState {
            id: id as usize,
            rng: SplitMix64::new(id),
            left: items,
            cost,
            manager: manager.clone(),
        };
        let (producer, _) = Actor::spawn(None, Producer, state)
            .await
            .map_err(|e| format!("cannot spawn producer {id}: {e}"))?;
        all_producers.push(producer);
    }
    let mut all_consumers = Vec::with_capacity(consumers as usize);
    for id in 0..consumers {
        let state = ConsumerState {
            id: id as usize,
            cost,
            consumed: 0,
            sum: 0,
            manager: manager.clone(),
            collector: collector.clone(),
        };
        let (consumer, _) = Actor::spawn(None, Consumer, state)
            .await
            .map_err(|e| format!("cannot spawn consumer {id}: {e}"))?;
        all_consumers.push(consumer);
    }
    cast!(manager, ManagerMsg::Setup(all_producers, all_consumers))
        .map_err(|e| format!("introducing the manager: {e}"))?;
    cast!(manager, ManagerMsg::Start).map_err(|e| format!("starting the manager: {e}"))?;
    let (consumed, sum) = totals.wait().await?;
    Ok(Outcome::new(format!("{consumed}:{sum}")))
}
