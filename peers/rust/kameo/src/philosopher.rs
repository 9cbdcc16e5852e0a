//! philosopher on kameo: dining philosophers asking one arbitrator for their forks.
//!
//! The arbitrator holds the forks and counts meals, and holds the tokio oneshot main waits
//! on. Main spawns it and the philosophers (each knowing the arbitrator and its own
//! number), tells the arbitrator their `ActorRef`s and tells every philosopher `Start`.
//! Philosopher `i` needs forks `i` and `(i+1) mod philosophers`. A philosopher with meals
//! to go tells `Hungry`; the arbitrator answers `Eat` and takes both forks if both are
//! free, `Denied` otherwise, and a denied philosopher tells `Hungry` again at once. Told
//! to eat, a philosopher eats (one meal) and tells `Done`, which frees its forks and which
//! the arbitrator counts as a meal; after `rounds` meals it tells `Finished` and stops.
//! When every philosopher has finished, the arbitrator sends main its meal count, which
//! is the check.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// The arbitrator.
#[derive(Actor)]
struct Arbitrator {
    philosophers: Vec<ActorRef<Philosopher>>,
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

/// The philosophers, by number.
struct Seat(Vec<ActorRef<Philosopher>>);

/// This philosopher asks for its forks.
struct Hungry(usize);

/// This philosopher has eaten and puts its forks down.
struct Done(usize);

/// A philosopher has eaten all its meals.
struct Finished;

impl Message<Seat> for Arbitrator {
    type Reply = ();

    async fn handle(&mut self, Seat(philosophers): Seat, _ctx: &mut Context<Self, ()>) {
        self.philosophers = philosophers;
    }
}

impl Message<Hungry> for Arbitrator {
    type Reply = ();

    async fn handle(&mut self, Hungry(i): Hungry, _ctx: &mut Context<Self, ()>) {
        let (left, right) = self.forks(i);
        let philosopher = &self.philosophers[i];
        if self.taken[left] || self.taken[right] {
            philosopher.tell(Denied).await.expect("philosopher stopped");
        } else {
            self.taken[left] = true;
            self.taken[right] = true;
            philosopher.tell(Eat).await.expect("philosopher stopped");
        }
    }
}

impl Message<Done> for Arbitrator {
    type Reply = ();

    async fn handle(&mut self, Done(i): Done, _ctx: &mut Context<Self, ()>) {
        let (left, right) = self.forks(i);
        self.taken[left] = false;
        self.taken[right] = false;
        self.meals += 1;
    }
}

impl Message<Finished> for Arbitrator {
    type Reply = ();

    async fn handle(&mut self, _: Finished, ctx: &mut Context<Self, ()>) {
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
#[derive(Actor)]
struct Philosopher {
    id: usize,
    meals_left: u64,
    arbitrator: ActorRef<Arbitrator>,
}

impl Philosopher {
    /// Asks for the forks, or says it has finished; whether it has.
    async fn hungry_or_finished(&self) -> bool {
        if self.meals_left == 0 {
            self.arbitrator
                .tell(Finished)
                .await
                .expect("arbitrator stopped");
            true
        } else {
            self.hungry().await;
            false
        }
    }

    async fn hungry(&self) {
        self.arbitrator
            .tell(Hungry(self.id))
            .await
            .expect("arbitrator stopped");
    }
}

/// Begin.
struct Start;

/// Both forks are yours: eat.
struct Eat;

/// A fork is taken: ask again.
struct Denied;

impl Message<Start> for Philosopher {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        if self.hungry_or_finished().await {
            ctx.stop();
        }
    }
}

impl Message<Denied> for Philosopher {
    type Reply = ();

    async fn handle(&mut self, _: Denied, _ctx: &mut Context<Self, ()>) {
        self.hungry().await;
    }
}

impl Message<Eat> for Philosopher {
    type Reply = ();

    async fn handle(&mut self, _: Eat, ctx: &mut Context<Self, ()>) {
        self.meals_left -= 1;
        self.arbitrator
            .tell(Done(self.id))
            .await
            .expect("arbitrator stopped");
        if self.hungry_or_finished().await {
            ctx.stop();
        }
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
    };
    let arbitrator = Arbitrator::spawn_with_mailbox(arbitrator, mailbox::unbounded());
    let seated: Vec<ActorRef<Philosopher>> = (0..philosophers as usize)
        .map(|id| {
            let philosopher = Philosopher {
                id,
                meals_left: rounds,
                arbitrator: arbitrator.clone(),
            };
            Philosopher::spawn_with_mailbox(philosopher, mailbox::unbounded())
        })
        .collect();
    arbitrator
        .tell(Seat(seated.clone()))
        .await
        .map_err(|e| format!("seating the philosophers: {e}"))?;
    for philosopher in &seated {
        philosopher
            .tell(Start)
            .await
            .map_err(|e| format!("starting a philosopher: {e}"))?;
    }
    let meals = meals
        .await
        .map_err(|_| "the arbitrator stopped before every philosopher finished")?;
    Ok(Outcome::new(meals))
}
