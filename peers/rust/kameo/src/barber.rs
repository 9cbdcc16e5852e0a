//! barber on kameo: the sleeping barber, with a factory, a waiting room, a barber and one
//! actor per customer.
//!
//! The factory holds the tokio oneshot main waits on, and the waiting room spawns the
//! barber in its `on_start`, naming itself as the barber's room. Main tells the factory
//! `Start`. The factory draws from its generator (seeded with 0), for each customer `k` in
//! order, `a = below(arrival+1)` and `c = below(cut+1)`, computes `work(k, a)` (the time
//! until the customer arrives, added to its digest), spawns customer `k` and tells the room
//! `Enter` with the customer (its number, `c` and its `ActorRef`). The room seats the
//! customer if a chair is free and otherwise tells it `Full`; a customer sent away tells
//! the factory `Returned` with itself, and the factory sends it to the room again. While
//! the barber is asleep the room hands him the first seated customer at once; after each
//! haircut he tells the room `Next` and gets the next one, or goes back to sleep if the
//! room is empty. The barber computes `work(k, c)` and tells the customer `Done` with it;
//! the customer tells the factory the result (`Served`) and stops. When all `haircuts`
//! customers are served the factory sends main its count and digest: the check is
//! `HAIRCUTS:DIGEST`.

use std::collections::VecDeque;

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::error::Infallible;
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// A customer, as the factory, the room and the barber pass it around.
#[derive(Clone)]
struct Customer {
    id: u64,
    cut: u64,
    actor: ActorRef<CustomerActor>,
}

/// The factory.
#[derive(Actor)]
struct Factory {
    haircuts: u64,
    arrival: u64,
    cut: u64,
    room: ActorRef<Room>,
    served: u64,
    digest: u64,
    answer: Option<oneshot::Sender<(u64, u64)>>,
}

impl Factory {
    /// Sends main the totals if every customer is served; whether it did.
    fn answer_if_complete(&mut self) -> bool {
        if self.served == self.haircuts
            && let Some(answer) = self.answer.take()
        {
            let _ = answer.send((self.served, self.digest));
            return true;
        }
        false
    }
}

/// Create every customer and send it to the room.
struct Start;

/// This customer was sent away.
struct Returned(Customer);

/// A customer's haircut is done, with this result.
struct Served(u64);

impl Message<Start> for Factory {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        let mut rng = SplitMix64::new(0);
        for id in 0..self.haircuts {
            let a = rng.below_mod(self.arrival + 1);
            let cut = rng.below_mod(self.cut + 1);
            self.digest = self.digest.wrapping_add(work(id, a));
            let customer = CustomerActor {
                id,
                cut,
                factory: ctx.actor_ref().clone(),
            };
            let actor = CustomerActor::spawn_with_mailbox(customer, mailbox::unbounded());
            let customer = Customer { id, cut, actor };
            self.room.tell(Enter(customer)).await.expect("room closed");
        }
        if self.answer_if_complete() {
            ctx.stop();
        }
    }
}

impl Message<Returned> for Factory {
    type Reply = ();

    async fn handle(&mut self, Returned(customer): Returned, _ctx: &mut Context<Self, ()>) {
        self.room.tell(Enter(customer)).await.expect("room closed");
    }
}

impl Message<Served> for Factory {
    type Reply = ();

    async fn handle(&mut self, Served(result): Served, ctx: &mut Context<Self, ()>) {
        self.served += 1;
        self.digest = self.digest.wrapping_add(result);
        if self.answer_if_complete() {
            ctx.stop();
        }
    }
}

/// The waiting room.
struct Room {
    chairs: usize,
    seated: VecDeque<Customer>,
    barber: ActorRef<Barber>,
    barber_busy: bool,
}

impl Actor for Room {
    type Args = usize;
    type Error = Infallible;

    async fn on_start(chairs: usize, myself: ActorRef<Room>) -> Result<Room, Infallible> {
        let barber = Barber::spawn_with_mailbox(Barber { room: myself }, mailbox::unbounded());
        Ok(Room {
            chairs,
            seated: VecDeque::new(),
            barber,
            barber_busy: false,
        })
    }
}

/// A customer comes in.
struct Enter(Customer);

/// The barber is free.
struct Next;

impl Message<Enter> for Room {
    type Reply = ();

    async fn handle(&mut self, Enter(customer): Enter, _ctx: &mut Context<Self, ()>) {
        if self.seated.len() >= self.chairs {
            customer.actor.tell(Full).await.expect("customer left");
        } else if self.barber_busy {
            self.seated.push_back(customer);
        } else {
            self.barber_busy = true;
            self.barber.tell(Cut(customer)).await.expect("barber left");
        }
    }
}

impl Message<Next> for Room {
    type Reply = ();

    async fn handle(&mut self, _: Next, _ctx: &mut Context<Self, ()>) {
        match self.seated.pop_front() {
            Some(customer) => self.barber.tell(Cut(customer)).await.expect("barber left"),
            None => self.barber_busy = false,
        }
    }
}

/// The barber.
#[derive(Actor)]
struct Barber {
    room: ActorRef<Room>,
}

/// Cut this customer's hair.
struct Cut(Customer);

impl Message<Cut> for Barber {
    type Reply = ();

    async fn handle(&mut self, Cut(customer): Cut, _ctx: &mut Context<Self, ()>) {
        let result = work(customer.id, customer.cut);
        customer
            .actor
            .tell(Done(result))
            .await
            .expect("customer left");
        self.room.tell(Next).await.expect("room closed");
    }
}

/// A customer: its number, the work its haircut takes, and the factory.
#[derive(Actor)]
struct CustomerActor {
    id: u64,
    cut: u64,
    factory: ActorRef<Factory>,
}

/// The room is full.
struct Full;

/// The haircut is done, with this result.
struct Done(u64);

impl Message<Full> for CustomerActor {
    type Reply = ();

    async fn handle(&mut self, _: Full, ctx: &mut Context<Self, ()>) {
        let customer = Customer {
            id: self.id,
            cut: self.cut,
            actor: ctx.actor_ref().clone(),
        };
        self.factory
            .tell(Returned(customer))
            .await
            .expect("factory closed");
    }
}

impl Message<Done> for CustomerActor {
    type Reply = ();

    async fn handle(&mut self, Done(result): Done, ctx: &mut Context<Self, ()>) {
        self.factory
            .tell(Served(result))
            .await
            .expect("factory closed");
        ctx.stop();
    }
}

/// Serves `haircuts` customers through a room of `room` chairs, with arrival and haircut
/// work drawn up to `arrival` and `cut` steps; the check is `HAIRCUTS:DIGEST`.
pub async fn run(haircuts: u64, room: u64, arrival: u64, cut: u64) -> Result<Outcome, String> {
    let room = Room::spawn_with_mailbox(room as usize, mailbox::unbounded());
    let (answer, totals) = oneshot::channel();
    let factory = Factory {
        haircuts,
        arrival,
        cut,
        room,
        served: 0,
        digest: 0,
        answer: Some(answer),
    };
    let factory = Factory::spawn_with_mailbox(factory, mailbox::unbounded());
    factory
        .tell(Start)
        .await
        .map_err(|e| format!("starting the factory: {e}"))?;
    let (served, digest) = totals
        .await
        .map_err(|_| "the factory stopped before every customer was served")?;
    Ok(Outcome::new(format!("{served}:{digest}")))
}
