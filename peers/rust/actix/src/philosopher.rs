//! philosopher on actix: dining philosophers asking one arbitrator for their forks.
//!
//! Every message goes to or from the arbitrator, so every actor lives on main's arbiter
//! (as in chameneos). The arbitrator holds the forks, counts meals and holds the tokio
//! oneshot main waits on. Main starts it and the philosophers (each knowing the arbitrator
//! and its own number), sends the arbitrator their addresses and every philosopher
//! `Start`. Philosopher `i` needs forks `i` and `(i+1) mod philosophers`. A philosopher
//! with meals to go sends `Hungry`; the arbitrator answers `Eat` and takes both forks if
//! both are free, `Denied` otherwise, and a denied philosopher sends `Hungry` again at
//! once. Told to eat, a philosopher eats (one meal) and sends `Done`, which frees its
//! forks and which the arbitrator counts as a meal; after `rounds` meals it sends
//! `Finished` and stops. When every philosopher has finished, the arbitrator sends main
//! its meal count, which is the check.

use actix::prelude::*;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// The arbitrator.
struct Arbitrator {
    philosophers: Vec<Addr<Philosopher>>,
    taken: Vec<bool>,
    meals: u64,
    finished: usize,
    answer: Option<oneshot::Sender<u64>>,
}

impl Arbitrator {
    fn forks(&self, i: usize) -> (usize, usize) {
        (i, (i + 1) % self.taken.len())
    }
}

impl Actor for Arbitrator {
    type Context = Context<Self>;
}

/// The philosophers, by number.
#[derive(Message)]
#[rtype(result = "()")]
struct Seat(Vec<Addr<Philosopher>>);

/// This philosopher asks for its forks.
#[derive(Message)]
#[rtype(result = "()")]
struct Hungry(usize);

/// This philosopher has eaten and puts its forks down.
#[derive(Message)]
#[rtype(result = "()")]
struct Done(usize);

/// A philosopher has eaten all its meals.
#[derive(Message)]
#[rtype(result = "()")]
struct Finished;

impl Handler<Seat> for Arbitrator {
    type Result = ();

    fn handle(&mut self, Seat(philosophers): Seat, _ctx: &mut Context<Self>) {
        self.philosophers = philosophers;
    }
}

impl Handler<Hungry> for Arbitrator {
    type Result = ();

    fn handle(&mut self, Hungry(i): Hungry, _ctx: &mut Context<Self>) {
        let (left, right) = self.forks(i);
        if self.taken[left] || self.taken[right] {
            self.philosophers[i].do_send(Denied);
        } else {
            self.taken[left] = true;
            self.taken[right] = true;
            self.philosophers[i].do_send(Eat);
        }
    }
}

impl Handler<Done> for Arbitrator {
    type Result = ();

    fn handle(&mut self, Done(i): Done, _ctx: &mut Context<Self>) {
        let (left, right) = self.forks(i);
        self.taken[left] = false;
        self.taken[right] = false;
        self.meals += 1;
    }
}

impl Handler<Finished> for Arbitrator {
    type Result = ();

    fn handle(&mut self, _: Finished, ctx: &mut Context<Self>) {
        self.finished += 1;
        if self.finished == self.philosophers.len()
            && let Some(answer) = self.answer.take()
        {
            let _ = answer.send(self.meals);
            ctx.stop();
        }
    }
}

/// A philosopher.
struct Philosopher {
    id: usize,
    meals_left: u64,
    arbitrator: Addr<Arbitrator>,
}

impl Philosopher {
    fn hungry_or_finished(&self, ctx: &mut Context<Self>) {
        if self.meals_left == 0 {
            self.arbitrator.do_send(Finished);
            ctx.stop();
        } else {
            self.arbitrator.do_send(Hungry(self.id));
        }
    }
}

impl Actor for Philosopher {
    type Context = Context<Self>;
}

/// Begin.
#[derive(Message)]
#[rtype(result = "()")]
struct Start;

/// Both forks are yours: eat.
#[derive(Message)]
#[rtype(result = "()")]
struct Eat;

/// A fork is taken: ask again.
#[derive(Message)]
#[rtype(result = "()")]
struct Denied;

impl Handler<Start> for Philosopher {
    type Result = ();

    fn handle(&mut self, _: Start, ctx: &mut Context<Self>) {
        self.hungry_or_finished(ctx);
    }
}

impl Handler<Denied> for Philosopher {
    type Result = ();

    fn handle(&mut self, _: Denied, _ctx: &mut Context<Self>) {
        self.arbitrator.do_send(Hungry(self.id));
    }
}

impl Handler<Eat> for Philosopher {
    type Result = ();

    fn handle(&mut self, _: Eat, ctx: &mut Context<Self>) {
        self.meals_left -= 1;
        self.arbitrator.do_send(Done(self.id));
        self.hungry_or_finished(ctx);
    }
}

/// Runs `philosophers` philosophers for `rounds` meals each; the check is the meals the
/// arbitrator counted.
pub async fn run(philosophers: u64, rounds: u64) -> Result<Outcome, String> {
    let (answer, meals) = oneshot::channel();
    let arbitrator = Arbitrator {
        philosophers: Vec::new(),
        taken: vec![false; philosophers as usize],
        meals: 0,
        finished: 0,
        answer: Some(answer),
    }
    .start();
    let seated: Vec<Addr<Philosopher>> = (0..philosophers as usize)
        .map(|id| {
            Philosopher {
                id,
                meals_left: rounds,
                arbitrator: arbitrator.clone(),
            }
            .start()
        })
        .collect();
    arbitrator.do_send(Seat(seated.clone()));
    for philosopher in &seated {
        philosopher.do_send(Start);
    }
    let meals = meals
        .await
        .map_err(|_| "the arbitrator stopped before every philosopher finished")?;
    Ok(Outcome::new(meals))
}
