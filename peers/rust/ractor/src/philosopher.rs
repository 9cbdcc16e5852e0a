//! philosopher on ractor: dining philosophers asking one arbitrator for their forks.
//!
//! The arbitrator holds the forks and counts meals; it is spawned with the `RpcReplyPort`
//! main waits on. Main spawns it and the philosophers (each knowing the arbitrator and its
//! own number), casts the arbitrator their `ActorRef`s and casts every philosopher
//! `Start`. Philosopher `i` needs forks `i` and `(i+1) mod philosophers`. A philosopher
//! with meals to go casts `Hungry`; the arbitrator answers `Eat` and takes both forks if
//! both are free, `Denied` otherwise, and a denied philosopher casts `Hungry` again at
//! once. Told to eat, a philosopher eats (one meal) and casts `Done`, which frees its forks
//! and which the arbitrator counts as a meal; after `rounds` meals it casts `Finished` and
//! stops. When every philosopher has finished, the arbitrator replies its meal count,
//! which is the check.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, cast};
use suite_contract::Outcome;

/// Messages of the arbitrator.
pub enum ArbitratorMsg {
    /// The philosophers, by number.
    Seat(Vec<ActorRef<PhilosopherMsg>>),
    /// This philosopher asks for its forks.
    Hungry(usize),
    /// This philosopher has eaten and puts its forks down.
    Done(usize),
    /// This philosopher has eaten all its meals.
    Finished,
}

/// Messages of a philosopher.
pub enum PhilosopherMsg {
    /// Begin.
    Start,
    /// Both forks are yours: eat.
    Eat,
    /// A fork is taken: ask again.
    Denied,
}

/// The arbitrator's behaviour.
struct Arbitrator;

/// The arbitrator's state.
struct ArbitratorState {
    philosophers: Vec<ActorRef<PhilosopherMsg>>,
    taken: Vec<bool>,
    meals: u64,
    finished: usize,
    reply: Option<RpcReplyPort<u64>>,
}

impl ArbitratorState {
    fn forks(&self, i: usize) -> (usize, usize) {
        (i, (i + 1) % self.taken.len())
    }
}

impl Actor for Arbitrator {
    type Msg = ArbitratorMsg;
    type State = ArbitratorState;
    type Arguments = (usize, RpcReplyPort<u64>);

    async fn pre_start(
        &self,
        _myself: ActorRef<ArbitratorMsg>,
        (forks, reply): Self::Arguments,
    ) -> Result<ArbitratorState, ActorProcessingErr> {
        Ok(ArbitratorState {
            philosophers: Vec::new(),
            taken: vec![false; forks],
            meals: 0,
            finished: 0,
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ArbitratorMsg>,
        message: ArbitratorMsg,
        state: &mut ArbitratorState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            ArbitratorMsg::Seat(philosophers) => state.philosophers = philosophers,
            ArbitratorMsg::Hungry(i) => {
                let (left, right) = state.forks(i);
                let answer = if state.taken[left] || state.taken[right] {
                    PhilosopherMsg::Denied
                } else {
                    state.taken[left] = true;
                    state.taken[right] = true;
                    PhilosopherMsg::Eat
                };
                cast!(state.philosophers[i], answer).expect("philosopher stopped");
            }
            ArbitratorMsg::Done(i) => {
                let (left, right) = state.forks(i);
                state.taken[left] = false;
                state.taken[right] = false;
                state.meals += 1;
            }
            ArbitratorMsg::Finished => {
                state.finished += 1;
                if state.finished == state.philosophers.len()
                    && let Some(reply) = state.reply.take()
                {
                    let _ = reply.send(state.meals);
                    myself.stop(None);
                }
            }
        }
        Ok(())
    }
}

/// A philosopher's behaviour.
struct Philosopher;

/// A philosopher's state.
struct PhilosopherState {
    id: usize,
    meals_left: u64,
    arbitrator: ActorRef<ArbitratorMsg>,
}

impl PhilosopherState {
    fn hungry_or_finished(&self, myself: &ActorRef<PhilosopherMsg>) {
        if self.meals_left == 0 {
            cast!(self.arbitrator, ArbitratorMsg::Finished).expect("arbitrator stopped");
            myself.stop(None);
        } else {
            cast!(self.arbitrator, ArbitratorMsg::Hungry(self.id)).expect("arbitrator stopped");
        }
    }
}

impl Actor for Philosopher {
    type Msg = PhilosopherMsg;
    type State = PhilosopherState;
    type Arguments = PhilosopherState;

    async fn pre_start(
        &self,
        _myself: ActorRef<PhilosopherMsg>,
        state: PhilosopherState,
    ) -> Result<PhilosopherState, ActorProcessingErr> {
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<PhilosopherMsg>,
        message: PhilosopherMsg,
        state: &mut PhilosopherState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            PhilosopherMsg::Start => state.hungry_or_finished(&myself),
            PhilosopherMsg::Denied => {
                cast!(state.arbitrator, ArbitratorMsg::Hungry(state.id))
                    .expect("arbitrator stopped");
            }
            PhilosopherMsg::Eat => {
                state.meals_left -= 1;
                cast!(state.arbitrator, ArbitratorMsg::Done(state.id)).expect("arbitrator stopped");
                state.hungry_or_finished(&myself);
            }
        }
        Ok(())
    }
}

/// Runs `philosophers` philosophers for `rounds` meals each; the check is the meals the
/// arbitrator counted.
pub async fn run(philosophers: u64, rounds: u64) -> Result<Outcome, String> {
    let (reply, meals) = tokio::sync::oneshot::channel();
    let (arbitrator, _) = Actor::spawn(None, Arbitrator, (philosophers as usize, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the arbitrator: {e}"))?;
    let mut seated = Vec::with_capacity(philosophers as usize);
    for id in 0..philosophers as usize {
        let state = PhilosopherState {
            id,
            meals_left: rounds,
            arbitrator: arbitrator.clone(),
        };
        let (philosopher, _) = Actor::spawn(None, Philosopher, state)
            .await
            .map_err(|e| format!("cannot spawn philosopher {id}: {e}"))?;
        seated.push(philosopher);
    }
    cast!(arbitrator, ArbitratorMsg::Seat(seated.clone()))
        .map_err(|e| format!("seating the philosophers: {e}"))?;
    for philosopher in &seated {
        cast!(philosopher, PhilosopherMsg::Start)
            .map_err(|e| format!("starting a philosopher: {e}"))?;
    }
    let meals = meals
        .await
        .map_err(|_| "the arbitrator stopped before every philosopher finished")?;
    Ok(Outcome::new(meals))
}
