//! barber on ractor: the sleeping barber, with a factory, a waiting room, a barber and one
//! actor per customer.
//!
//! The factory is spawned with the `RpcReplyPort` main waits on, and the waiting room
//! spawns the barber in its `pre_start`, naming itself as the barber's room. Main casts
//! the factory `Start`. The factory draws from its generator (seeded with 0), for each
//! customer `k` in order, `a = below(arrival+1)` and `c = below(cut+1)`, computes
//! `work(k, a)` (the time until the customer arrives, added to its digest), spawns
//! customer `k` and casts the room `Enter` with the customer (its number, `c` and its
//! `ActorRef`). The room seats the customer if a chair is free and otherwise casts it
//! `Full`; a customer sent away casts itself back to the factory (`Returned`), which
//! casts it to the room again. While the barber is asleep the room hands him the first
//! seated customer at once; after each haircut he casts the room `Next` and gets the next
//! one, or goes back to sleep if the room is empty. The barber computes `work(k, c)` and
//! casts the customer `Done` with it; the customer casts the result to the factory
//! (`Served`) and stops. When all `haircuts` customers are served the factory replies
//! its count and digest: the check is `HAIRCUTS:DIGEST`.

use std::collections::VecDeque;

use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// A customer, as the factory, the room and the barber pass it around.
#[derive(Clone)]
pub struct Customer {
    id: u64,
    cut: u64,
    actor: ActorRef<CustomerMsg>,
}

/// Messages of the factory.
pub enum FactoryMsg {
    /// Create every customer and send it to the room.
    Start,
    /// This customer was sent away.
    Returned(Customer),
    /// A customer's haircut is done, with this result.
    Served(u64),
}

/// Messages of the waiting room.
pub enum RoomMsg {
    /// A customer comes in.
    Enter(Customer),
    /// The barber is free.
    Next,
}

/// Messages of the barber.
pub enum BarberMsg {
    /// Cut this customer's hair.
    Cut(Customer),
}

/// Messages of a customer.
pub enum CustomerMsg {
    /// The room is full.
    Full,
    /// The haircut is done, with this result.
    Done(u64),
}

/// The factory's behaviour.
struct Factory;

/// The factory's state.
struct FactoryState {
    haircuts: u64,
    arrival: u64,
    cut: u64,
    room: ActorRef<RoomMsg>,
    served: u64,
    digest: u64,
    reply: Option<RpcReplyPort<(u64, u64)>>,
}

impl FactoryState {
    fn answer_if_complete(&mut self, myself: &ActorRef<FactoryMsg>) {
        if self.served == self.haircuts
            && let Some(reply) = self.reply.take()
        {
            let _ = reply.send((self.served, self.digest));
            myself.stop(None);
        }
    }
}

impl Actor for Factory {
    type Msg = FactoryMsg;
    type State = FactoryState;
    type Arguments = FactoryState;

    async fn pre_start(
        &self,
        _myself: ActorRef<FactoryMsg>,
        state: FactoryState,
    ) -> Result<FactoryState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<FactoryMsg>,
        message: FactoryMsg,
        state: &mut FactoryState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            FactoryMsg::Start => {
                let mut rng = SplitMix64::new(0);
                for id in 0..state.haircuts {
                    let a = rng.below_mod(state.arrival + 1);
                    let cut = rng.below_mod(state.cut + 1);
                    state.digest = state.digest.wrapping_add(work(id, a));
                    let customer = CustomerState {
                        id,
                        cut,
                        factory: myself.clone(),
                    };
                    let (actor, _) = Actor::spawn(None, CustomerActor, customer)
                        .await
                        .expect("cannot spawn a customer");
                    let customer = Customer { id, cut, actor };
                    cast!(state.room, RoomMsg::Enter(customer)).expect("room closed");
                }
                state.answer_if_complete(&myself);
            }
            FactoryMsg::Returned(customer) => {
                cast!(state.room, RoomMsg::Enter(customer)).expect("room closed");
            }
            FactoryMsg::Served(result) => {
                state.served += 1;
                state.digest = state.digest.wrapping_add(result);
                state.answer_if_complete(&myself);
            }
        }
        Ok(())
    }
}

/// The waiting room's behaviour.
struct Room;

/// The waiting room's state.
struct RoomState {
    chairs: usize,
    seated: VecDeque<Customer>,
    barber: ActorRef<BarberMsg>,
    barber_busy: bool,
}

impl Actor for Room {
    type Msg = RoomMsg;
    type State = RoomState;
    type Arguments = usize;

    async fn pre_start(
        &self,
        myself: ActorRef<RoomMsg>,
        chairs: usize,
    ) -> Result<RoomState, ActorProcessingErr> {
        let (barber, _) = Actor::spawn(None, Barber, myself).await?;
        Ok(RoomState {
            chairs,
            seated: VecDeque::new(),
            barber,
            barber_busy: false,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<RoomMsg>,
        message: RoomMsg,
        state: &mut RoomState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            RoomMsg::Enter(customer) => {
                if state.seated.len() >= state.chairs {
                    cast!(customer.actor, CustomerMsg::Full).expect("customer left");
                } else if state.barber_busy {
                    state.seated.push_back(customer);
                } else {
                    state.barber_busy = true;
                    cast!(state.barber, BarberMsg::Cut(customer)).expect("barber left");
                }
            }
            RoomMsg::Next => match state.seated.pop_front() {
                Some(customer) => {
                    cast!(state.barber, BarberMsg::Cut(customer)).expect("barber left");
                }
                None => state.barber_busy = false,
            },
        }
        Ok(())
    }
}

/// The barber's behaviour.
struct Barber;

impl Actor for Barber {
    type Msg = BarberMsg;
    type State = ActorRef<RoomMsg>;
    type Arguments = ActorRef<RoomMsg>;

    async fn pre_start(
        &self,
        _myself: ActorRef<BarberMsg>,
        room: ActorRef<RoomMsg>,
    ) -> Result<ActorRef<RoomMsg>, ActorProcessingErr> {
        Ok(room)
    }

    async fn handle(
        &self,
        _myself: ActorRef<BarberMsg>,
        BarberMsg::Cut(customer): BarberMsg,
        room: &mut ActorRef<RoomMsg>,
    ) -> Result<(), ActorProcessingErr> {
        let result = work(customer.id, customer.cut);
        cast!(customer.actor, CustomerMsg::Done(result)).expect("customer left");
        cast!(room, RoomMsg::Next).expect("room closed");
        Ok(())
    }
}

/// A customer's behaviour.
struct CustomerActor;

/// A customer's state: its number, the work its haircut takes, and the factory.
struct CustomerState {
    id: u64,
    cut: u64,
    factory: ActorRef<FactoryMsg>,
}

impl Actor for CustomerActor {
    type Msg = CustomerMsg;
    type State = CustomerState;
    type Arguments = CustomerState;

    async fn pre_start(
        &self,
        _myself: ActorRef<CustomerMsg>,
        state: CustomerState,
    ) -> Result<CustomerState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<CustomerMsg>,
        message: CustomerMsg,
        state: &mut CustomerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            CustomerMsg::Full => {
                let customer = Customer {
                    id: state.id,
                    cut: state.cut,
                    actor: myself,
                };
                cast!(state.factory, FactoryMsg::Returned(customer)).expect("factory closed");
            }
            CustomerMsg::Done(result) => {
                cast!(state.factory, FactoryMsg::Served(result)).expect("factory closed");
                myself.stop(None);
            }
        }
        Ok(())
    }
}

/// Serves `haircuts` customers through a room of `room` chairs, with arrival and haircut
/// work drawn up to `arrival` and `cut` steps; the check is `HAIRCUTS:DIGEST`.
pub async fn run(haircuts: u64, room: u64, arrival: u64, cut: u64) -> Result<Outcome, String> {
    let (room, _) = Actor::spawn(None, Room, room as usize)
        .await
        .map_err(|e| format!("cannot spawn the waiting room: {e}"))?;
    let (reply, answer) = tokio::sync::oneshot::channel();
    let state = FactoryState {
        haircuts,
        arrival,
        cut,
        room: room.clone(),
        served: 0,
        digest: 0,
        reply: Some(reply.into()),
    };
    let (factory, _) = Actor::spawn(None, Factory, state)
        .await
        .map_err(|e| format!("cannot spawn the factory: {e}"))?;
    cast!(factory, FactoryMsg::Start).map_err(|e| format!("starting the factory: {e}"))?;
    let (served, digest) = answer
        .await
        .map_err(|_| "the factory stopped before every customer was served")?;
    let outcome = Outcome::new(format!("{served}:{digest}"));
    room.stop(None);
    Ok(outcome)
}
