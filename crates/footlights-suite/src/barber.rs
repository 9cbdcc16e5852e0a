//! barber: the sleeping barber (Savina's sleeping barber).
//!
//! # On footlights
//!
//! A [`Factory`], a [`WaitingRoom`] with `room` chairs, a [`Barber`], and one [`Customer`]
//! actor per haircut.
//!
//! * The factory, seeded with 0, goes through the customers `k` in order: it draws the
//!   arrival work `a` and the haircut work `c`, computes [`work`]`(k, a)` (the wait until
//!   the customer arrives, added to its digest), spawns customer `k` and sends the room a
//!   [`Ticket`] for it. A customer the room sent away comes back to the factory
//!   ([`ToFactory::Returned`]), which sends its ticket to the room again and yields
//!   ([`Context::yield_now`]; below).
//! * The room seats a customer on a free chair, or sends it away when all are taken. When
//!   the barber sleeps, the room wakes him with the customer instead of seating it.
//! * The barber cuts the customer's hair, computing `work(k, c)`, tells the customer the
//!   result, and asks the room for the next one; with the room empty he sleeps.
//! * A customer told its haircut is done passes the result on to the factory and stops.
//!
//! When every customer has reported, the factory answers the main thread with the number
//! of reports and its digest (arrival work plus the haircut results): `HAIRCUTS:DIGEST`.
//! The room and the barber hold each other's addresses, so they stay until the system
//! shuts down.
//!
//! # Why the factory yields
//!
//! Customers turned away go round the factory, the room and themselves, each handing the
//! next a message at once, while the barber's request for the next customer waits in the
//! room's mailbox behind every ticket sent before it. Without the yield, the factory's turn
//! sent back up to a batch of tickets at a time, and so each haircut had every waiting
//! customer go round once more: at Savina's parameters (`haircuts=5000 room=1000
//! arrival=1000 cut=1000`, where 3,999 of the first arrivals find the room full) the run
//! handled 23.4 million messages, 7.8 million of them tickets sent back (on one thread,
//! counted with [`footlights::System::metrics`]). Yielding after each ticket it sends back,
//! the factory sends one per round of its worker's queue, behind the barber and the room:
//! 37,115 messages, 4,038 tickets sent back, the same check. The Go and Erlang programs
//! yield in the same place (`runtime.Gosched()`, `erlang:yield()`; the Go program sends
//! 3,226 back at one thread). At the quick parameters the room is never full, no ticket
//! comes back and the yield never runs. `docs/performance.md` has the times.

use std::collections::VecDeque;

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::{SplitMix, work};

/// A customer as the room and the barber see it.
pub struct Ticket {
    /// The customer's number.
    id: u64,
    /// Its haircut's work.
    cut: u64,
    customer: Addr<Customer>,
}

/// What the factory receives.
pub enum ToFactory {
    /// The room sent this customer away: send it again.
    Returned(Ticket),
    /// A customer's haircut is done, with this result.
    Done(u64),
}

/// Makes the customers and waits for their haircuts.
pub struct Factory {
    haircuts: u64,
    arrival: u64,
    cut: u64,
    room: Addr<WaitingRoom>,
    done: u64,
    digest: u64,
    answer: Option<ReplyTo<(u64, u64)>>,
}

impl Factory {
    fn answer_if_done(&mut self, ctx: &mut Context<Self>) {
        if self.done == self.haircuts {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send((self.done, self.digest));
            }
            ctx.stop();
        }
    }
}

impl Actor for Factory {
    type Msg = ToFactory;

    fn started(&mut self, ctx: &mut Context<Self>) {
        let mut rng = SplitMix::new(0);
        for id in 0..self.haircuts {
            let arrival = rng.below(self.arrival + 1);
            let cut = rng.below(self.cut + 1);
            self.digest = self.digest.wrapping_add(work(id, arrival));
            let customer = ctx.spawn(Customer {
                factory: ctx.addr(),
            });
            let _ = self.room.send(ToRoom::Enter(Ticket { id, cut, customer }));
        }
        self.answer_if_done(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToFactory) {
        match msg {
            ToFactory::Returned(ticket) => {
                let _ = self.room.send(ToRoom::Enter(ticket));
                // Let the barber and the room go first (see the module documentation).
                ctx.yield_now();
            }
            ToFactory::Done(result) => {
                self.done += 1;
                self.digest = self.digest.wrapping_add(result);
                self.answer_if_done(ctx);
            }
        }
    }
}

/// What the room receives.
pub enum ToRoom {
    /// A customer comes in.
    Enter(Ticket),
    /// The barber is free for the next customer.
    Next,
}

/// The waiting room.
pub struct WaitingRoom {
    chairs: usize,
    seated: VecDeque<Ticket>,
    barber: Addr<Barber>,
    barber_asleep: bool,
}

impl Actor for WaitingRoom {
    type Msg = ToRoom;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: ToRoom) {
        match msg {
            ToRoom::Enter(ticket) => {
                if self.barber_asleep {
                    self.barber_asleep = false;
                    let _ = self.barber.send(ToBarber::Cut(ticket));
                } else if self.seated.len() < self.chairs {
                    self.seated.push_back(ticket);
                } else {
                    let customer = ticket.customer.clone();
                    let _ = customer.send(ToCustomer::Full(ticket));
                }
            }
            ToRoom::Next => match self.seated.pop_front() {
                Some(ticket) => {
                    let _ = self.barber.send(ToBarber::Cut(ticket));
                }
                None => self.barber_asleep = true,
            },
        }
    }
}

/// What the barber receives.
pub enum ToBarber {
    /// The room he works for (sent once, before any customer).
    Room(Addr<WaitingRoom>),
    /// Cut this customer's hair.
    Cut(Ticket),
}

/// The barber.
pub struct Barber {
    room: Option<Addr<WaitingRoom>>,
}

impl Actor for Barber {
    type Msg = ToBarber;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: ToBarber) {
        match msg {
            ToBarber::Room(room) => self.room = Some(room),
            ToBarber::Cut(ticket) => {
                let result = work(ticket.id, ticket.cut);
                let _ = ticket.customer.send(ToCustomer::Done(result));
                if let Some(room) = &self.room {
                    let _ = room.send(ToRoom::Next);
                }
            }
        }
    }
}

/// What a customer is told.
pub enum ToCustomer {
    /// No chair is free: go back to the factory.
    Full(Ticket),
    /// The haircut is done, with this result.
    Done(u64),
}

/// One customer.
pub struct Customer {
    factory: Addr<Factory>,
}

impl Actor for Customer {
    type Msg = ToCustomer;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToCustomer) {
        match msg {
            ToCustomer::Full(ticket) => {
                let _ = self.factory.send(ToFactory::Returned(ticket));
            }
            ToCustomer::Done(result) => {
                let _ = self.factory.send(ToFactory::Done(result));
                ctx.stop();
            }
        }
    }
}

/// Runs barber with `haircuts`, `room`, `arrival` and `cut` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let barber = system.spawn(Barber { room: None });
    let room = system.spawn(WaitingRoom {
        chairs: inv.get("room") as usize,
        seated: VecDeque::new(),
        barber: barber.clone(),
        barber_asleep: true,
    });
    barber
        .send(ToBarber::Room(room.clone()))
        .map_err(|_| "the barber stopped before the run began".to_string())?;
    drop(barber);
    let (answer, result) = footlights::reply::pair();
    drop(system.spawn(Factory {
        haircuts: inv.get("haircuts"),
        arrival: inv.get("arrival"),
        cut: inv.get("cut"),
        room,
        done: 0,
        digest: 0,
        answer: Some(answer),
    }));
    let (haircuts, digest) = run::await_answer(system, result, "the factory's count")?;
    Ok(Outcome::new(format!("{haircuts}:{digest}")))
}
