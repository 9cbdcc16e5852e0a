//! cigsmok: cigarette smokers with an arbiter (Savina's cigarette smokers).
//!
//! # On footlights
//!
//! One [`Arbiter`], `smokers` [`Smoker`]s and a [`Tally`]. The arbiter, seeded with 0,
//! runs `rounds` rounds: in round `n` it draws a smoker `s` and a smoking time `t`, tells
//! smoker `s` to smoke ([`ToSmoker::Smoke`]), and waits for it to say it has started
//! before the next round. A smoker told to smoke says so at once, then smokes: it counts
//! the cigarette and adds [`work`]`(n, t)` to its digest, while the arbiter goes on with
//! the next round. After the last round the arbiter tells every smoker to stop; smoker
//! `i` reports `((i+1)*count, digest)` to the tally, whose sums are the check
//! `WEIGHTED:DIGEST`.
//!
//! The arbiter and the smokers know each other: the arbiter is spawned first, then the
//! smokers with its address, and the arbiter begins when it is sent theirs
//! ([`ToArbiter::Smokers`]).

use footlights::{Actor, Addr, Context, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::{SplitMix, work};
use crate::tally::Tally;

/// The arbiter's bound on a smoking time (`t = below(SMOKE)`).
const SMOKE: u64 = 1000;

/// What the arbiter receives.
pub enum ToArbiter {
    /// The smokers, in order: begin.
    Smokers(Vec<Addr<Smoker>>),
    /// The smoker of this round has started smoking.
    Started,
}

/// Chooses a smoker each round.
pub struct Arbiter {
    rng: SplitMix,
    smokers: Vec<Addr<Smoker>>,
    /// The next round's number.
    round: u64,
    rounds: u64,
}

impl Arbiter {
    /// Starts the next round, or stops every smoker after the last.
    fn next_round(&mut self, ctx: &mut Context<Self>) {
        if self.round == self.rounds {
            for smoker in self.smokers.drain(..) {
                let _ = smoker.send(ToSmoker::Stop);
            }
            return ctx.stop();
        }
        let s = self.rng.below(self.smokers.len() as u64) as usize;
        let time = self.rng.below(SMOKE);
        let round = self.round;
        self.round += 1;
        let _ = self.smokers[s].send(ToSmoker::Smoke { round, time });
    }
}

impl Actor for Arbiter {
    type Msg = ToArbiter;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToArbiter) {
        match msg {
            ToArbiter::Smokers(smokers) => {
                self.smokers = smokers;
                self.next_round(ctx);
            }
            ToArbiter::Started => self.next_round(ctx),
        }
    }
}

/// What a smoker receives.
pub enum ToSmoker {
    /// Smoke for `time` in round `round`.
    Smoke { round: u64, time: u64 },
    /// The rounds are over: report and stop.
    Stop,
}

/// One smoker.
pub struct Smoker {
    id: u64,
    count: u64,
    digest: u64,
    arbiter: Addr<Arbiter>,
    tally: Addr<Tally>,
}

impl Actor for Smoker {
    type Msg = ToSmoker;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToSmoker) {
        match msg {
            ToSmoker::Smoke { round, time } => {
                let _ = self.arbiter.send(ToArbiter::Started);
                self.count += 1;
                self.digest = self.digest.wrapping_add(work(round, time));
            }
            ToSmoker::Stop => {
                let weighted = (self.id + 1).wrapping_mul(self.count);
                let _ = self.tally.send((weighted, self.digest));
                ctx.stop();
            }
        }
    }
}

/// Runs cigsmok with `rounds` and `smokers` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let smokers = inv.get("smokers");
    let arbiter = system.spawn(Arbiter {
        rng: SplitMix::new(0),
        smokers: Vec::new(),
        round: 0,
        rounds: inv.get("rounds"),
    });
    let (tally, sums) = Tally::spawn(system, smokers);
    let all = (0..smokers)
        .map(|id| {
            system.spawn(Smoker {
                id,
                count: 0,
                digest: 0,
                arbiter: arbiter.clone(),
                tally: tally.clone(),
            })
        })
        .collect();
    drop(tally);
    arbiter
        .send(ToArbiter::Smokers(all))
        .map_err(|_| "the arbiter stopped before the run began".to_string())?;
    drop(arbiter);
    let (weighted, digest) = run::await_answer(system, sums, "the smokers' reports")?;
    Ok(Outcome::new(format!("{weighted}:{digest}")))
}
