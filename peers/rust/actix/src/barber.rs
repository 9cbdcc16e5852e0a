//! barber on actix: the sleeping barber, with a factory, a waiting room, a barber and one
//! actor per customer.
//!
//! Every customer passes through the factory, the room and the barber, so every actor
//! lives on main's arbiter (as in chameneos). The factory holds the tokio oneshot main
//! waits on; the room is created with `Actor::create`, which gives it its own address
//! before it exists, so that it can start the barber knowing his room. Main sends the
//! factory `Start`. The factory draws from its generator (seeded with 0), for each customer
//! `k` in order, `a = below(arrival+1)` and `c = below(cut+1)`, computes `work(k, a)` (the
//! time until the customer arrives, added to its digest), starts customer `k` and sends
//! the room `Enter` with the customer (its number, `c` and its address). The room seats
//! the customer if a chair is free and otherwise sends it `Full`; a customer sent away
//! sends itself back to the factory (`Returned`), which sends it to the room again. While
//! the barber is asleep the room hands him the first seated customer at once; after each
//! haircut he sends the room `Next` and gets the next one, or goes back to sleep if the
//! room is empty. The barber computes `work(k, c)` and sends the customer `Done` with it;
//! the customer sends the result to the factory (`Served`) and stops. When all `haircuts`
//! customers are served the factory sends main its count and digest: the check is
//! `HAIRCUTS:DIGEST`.

use std::collections::VecDeque;

use actix::prelude::*;
use peer_kernels::rng::SplitMix64;
use peer_kernels::work::work;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// A customer, as the factory, the room and the barber pass it around.
#[derive(Clone)]
struct Customer {
    id: u64,
    cut: u64,
    actor: Addr<CustomerActor>,
}

/// The factory.
struct Factory {
    haircuts: u64,
    arrival: u64,
    cut: u64,
    room: Addr<Room>,
    served: u64,
    digest: u64,
    answer: Option<oneshot::Sender<(u64, u64)>>,
}

impl Factory {
    fn answer_if_complete(&mut self, ctx: &mut Context<Self>) {
        if self.served == self.haircuts
            && let Some(answer) = self.answer.take()
        {
            let _ = answer.send((self.served, self.digest));
            ctx.stop();
        }
    }
}

impl Actor for Factory {
    type Context = Context<Self>;
}

/// Create every customer and send it to the room.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

/// This customer was sent away.
#[derive(Message)]
#[rtype(result = "()")]
struct Returned(Customer);

/// A customer's haircut is done, with this result.
#[derive(Message)]
#[rtype(result = "()")]
struct Served(u64);

impl Handler<Start> for Factory {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        let mut rng = SplitMix64::new(0);
        for id in 0..self.haircuts {
            let a = rng.below_mod(self.arrival + 1);
            let cut = rng.below_mod(self.cut + 1);
            self.digest = self.digest.wrapping_add(work(id, a));
            let actor = CustomerActor {
                id,
                cut,
                factory: ctx.address(),
            }
            .start();
            self.room.do_send(Enter(Customer { id, cut, actor }));
        }
        self.answer_if_complete(ctx);
    }
}

impl Handler<Returned> for Factory {
    type Result = ();

    fn handle(&mut self, Returned(customer): Returned, _ctx: &mut Context<Self>) {
        self.room.do_send(Enter(customer));
    }
}

impl Handler<Served> for Factory {
    type Result = ();

    fn handle(&mut self, Served(result): Served, ctx: &mut Context<Self>) {
        self.served += 1;
        self.digest = self.digest.wrapping_add(result);
        self.answer_if_complete(ctx);
    }
}

/// The waiting room.
struct Room {
    chairs: usize,
    seated: VecDeque<Customer>,
    barber: Addr<Barber>,
    barber_busy: bool,
}

impl Actor for Room {
    type Context = Context<Self>;
}

/// A customer comes in.
#[derive(Message)]
#[rtype(result = "()")]
struct Enter(Customer);

/// The barber is free.
#[derive(Message)]
#[rtype(result = "()")]
struct Next;

impl Handler<Enter> for Room {
    type Result = ();

    fn handle(&mut self, Enter(customer): Enter, _ctx: &mut Context<Self>) {
        if self.seated.len() >= self.chairs {
            customer.actor.do_send(Full);
        } else if self.barber_busy {
            self.seated.push_back(customer);
        } else {
            self.barber_busy = true;
            self.barber.do_send(Cut(customer));
        }
    }
}

impl Handler<Next> for Room {
    type Result = ();

    fn handle(&mut self, _: Next, _ctx: &mut Context<Self>) {
        match self.seated.pop_front() {
            Some(customer) => self.barber.do_send(Cut(customer)),
            None => self.barber_busy = false,
        }
    }
}

/// The barber.
struct Barber {
    room: Addr<Room>,
}

impl Actor for Barber {
    type Context = Context<Self>;
}

/// Cut this customer's hair.
#[derive(Message)]
#[rtype(result = "()")]
struct Cut(Customer);

impl Handler<Cut> for Barber {
    type Result = ();

    fn handle(&mut self, Cut(customer): Cut, _ctx: &mut Context<Self>) {
        let result = work(customer.id, customer.cut);
        customer.actor.do_send(Done(result));
        self.room.do_send(Next);
    }
}

/// A customer: its number, the work its haircut takes, and the factory.
struct CustomerActor {
    id: u64,
    cut: u64,
    factory: Addr<Factory>,
}

impl Actor for CustomerActor {
    type Context = Context<Self>;
}

/// The room is full.
#[derive(Message)]
#[rtype(result = "()")]
struct Full;

/// The haircut is done, with this result.
#[derive(Message)]
#[rtype(result = "()")]
struct Done(u64);

impl Handler<Full> for CustomerActor {
    type Result = ();

    fn handle(&mut self, _: Full, ctx: &mut Context<Self>) {
        self.factory.do_send(Returned(Customer {
            id: self.id,
            cut: self.cut,
            actor: ctx.address(),
        }));
    }
}

impl Handler<Done> for CustomerActor {
    type Result = ();

    fn handle(&mut self, Done(result): Done, ctx: &mut Context<Self>) {
        self.factory.do_send(Served(result));
        ctx.stop();
    }
}

/// Serves `haircuts` customers through a room of `room` chairs, with arrival and haircut
/// work drawn up to `arrival` and `cut` steps; the check is `HAIRCUTS:DIGEST`.
pub async fn run(haircuts: u64, room: u64, arrival: u64, cut: u64) -> Result<Outcome, String> {
    let room = Room::create(|ctx| Room {
        chairs: room as usize,
        seated: VecDeque::new(),
        barber: Barber {
            room: ctx.address(),
        }
        .start(),
        barber_busy: false,
    });
    let (answer, totals) = oneshot::channel();
    let factory = Factory {
        haircuts,
        arrival,
        cut,
        room,
        served: 0,
        digest: 0,
        answer: Some(answer),
    }
    .start();
    factory.do_send(Start);
    let (served, digest) = totals
        .await
        .map_err(|_| "the factory stopped before every customer was served")?;
    Ok(Outcome::new(format!("{served}:{digest}")))
}
