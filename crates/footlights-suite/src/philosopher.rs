//! philosopher: dining philosophers with an arbitrator (Savina's dining philosophers).
//!
//! # On footlights
//!
//! One [`Arbitrator`] holding the forks, and `philosophers` [`Philosopher`]s;
//! philosopher `i` needs forks `i` and `(i+1) mod philosophers`. A philosopher asks for
//! its forks ([`ToArbitrator::Hungry`], with its number and address); the arbitrator
//! answers [`Verdict::Eat`] and takes both forks if both are free, and
//! [`Verdict::Denied`] otherwise, and a denied philosopher asks again at once. A
//! philosopher told to eat eats one meal and says [`ToArbitrator::Done`], which frees
//! its forks and which the arbitrator counts as a meal; it then asks again, or, after
//! `rounds` meals, says [`ToArbitrator::Finished`] and stops. When every philosopher has
//! finished, the arbitrator answers the main thread with its count of meals: the check.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// What the arbitrator receives.
pub enum ToArbitrator {
    /// This philosopher wants its forks.
    Hungry(usize, Addr<Philosopher>),
    /// This philosopher has eaten: free its forks.
    Done(usize),
    /// A philosopher has eaten all its meals.
    Finished,
}

/// The arbitrator's answer to [`ToArbitrator::Hungry`].
pub enum Verdict {
    /// Both forks are yours: eat.
    Eat,
    /// A fork is taken: ask again.
    Denied,
}

/// Holds the forks and counts the meals.
pub struct Arbitrator {
    /// Whether each fork is in use.
    taken: Vec<bool>,
    meals: u64,
    /// Philosophers that have not finished.
    eating: u64,
    answer: Option<ReplyTo<u64>>,
}

impl Arbitrator {
    /// The two forks of philosopher `id` (the same one twice when it dines alone).
    fn forks(&self, id: usize) -> (usize, usize) {
        (id, (id + 1) % self.taken.len())
    }

    fn answer_if_done(&mut self, ctx: &mut Context<Self>) {
        if self.eating == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.meals);
            }
            ctx.stop();
        }
    }
}

impl Actor for Arbitrator {
    type Msg = ToArbitrator;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.answer_if_done(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToArbitrator) {
        match msg {
            ToArbitrator::Hungry(id, philosopher) => {
                let (left, right) = self.forks(id);
                let verdict = if self.taken[left] || self.taken[right] {
                    Verdict::Denied
                } else {
                    self.taken[left] = true;
                    self.taken[right] = true;
                    Verdict::Eat
                };
                let _ = philosopher.send(verdict);
            }
            ToArbitrator::Done(id) => {
                let (left, right) = self.forks(id);
                self.taken[left] = false;
                self.taken[right] = false;
                self.meals += 1;
            }
            ToArbitrator::Finished => {
                self.eating -= 1;
                self.answer_if_done(ctx);
            }
        }
    }
}

/// One philosopher.
pub struct Philosopher {
    id: usize,
    /// Meals still to eat.
    left: u64,
    arbitrator: Addr<Arbitrator>,
}

impl Philosopher {
    /// Asks for the forks, or finishes after the last meal.
    fn hungry(&mut self, ctx: &mut Context<Self>) {
        if self.left == 0 {
            let _ = self.arbitrator.send(ToArbitrator::Finished);
            return ctx.stop();
        }
        let _ = self
            .arbitrator
            .send(ToArbitrator::Hungry(self.id, ctx.addr()));
    }
}

impl Actor for Philosopher {
    type Msg = Verdict;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.hungry(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, verdict: Verdict) {
        if let Verdict::Eat = verdict {
            self.left -= 1;
            let _ = self.arbitrator.send(ToArbitrator::Done(self.id));
        }
        self.hungry(ctx);
    }
}

/// Runs philosopher with `philosophers` and `rounds` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let philosophers = inv.get("philosophers");
    let (answer, meals) = footlights::reply::pair();
    let arbitrator = system.spawn(Arbitrator {
        taken: vec![false; philosophers as usize],
        meals: 0,
        eating: philosophers,
        answer: Some(answer),
    });
    for id in 0..philosophers as usize {
        system.spawn(Philosopher {
            id,
            left: inv.get("rounds"),
            arbitrator: arbitrator.clone(),
        });
    }
    drop(arbitrator);
    let meals = run::await_answer(system, meals, "the arbitrator's count of meals")?;
    Ok(Outcome::new(meals))
}
