//! mixed: rings passing tokens, actors created and ended, and CPU work side by side.
//!
//! # On footlights
//!
//! Four kinds of actor:
//!
//! * a [`Master`] per ring, which runs `reps` repetitions;
//! * a [`Factoriser`] per master, its own worker for CPU work;
//! * [`Chain`] actors, `ring_size - 1` of them per repetition, created for it and ended by it;
//! * one [`Collector`], shared, which checks every factorisation and answers the run.
//!
//! One repetition of a master:
//!
//! 1. it sends [`Calc`] to its factoriser, which factorises [`NUMBER`] by trial division
//!    ([`factorise`]) and sends the factors to the collector ([`CollectorMsg::Factors`]);
//! 2. it spawns `ring_size - 1` chain actors in a ring behind itself: the last one spawned
//!    first, pointing at the master, each earlier one pointing at the one after it;
//! 3. it sends `token` to the first chain actor. A chain actor forwards every token to its
//!    successor, and stops after forwarding 0. The master, on receiving `t > 0`, sends
//!    `t - 1` round again; on receiving 0 the repetition is over (the chain actors have
//!    stopped, and the master drops its address of the first, so they are freed).
//!
//! After its last repetition a master tells the collector it is done and stops; its
//! factoriser, no longer addressed, stops once its requests are handled. The collector
//! checks each factorisation (more than one factor, each above 1, product equal to
//! [`NUMBER`]) and answers the main thread with the number of verified factorisations once
//! it has `rings * reps` of them and every master is done. A wrong factorisation fails
//! the run.

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;

/// The number every factoriser factorises: 86028157 × 329545133.
pub const NUMBER: u64 = 28_350_160_440_309_881;

/// The prime factors of `n` in increasing order, by trial division: 2, then the odd
/// numbers up to the square root of what is left (about 43 million divisions for
/// [`NUMBER`], whose smaller factor is 86028157).
pub fn factorise(mut n: u64) -> Vec<u64> {
    let mut factors = Vec::new();
    while n % 2 == 0 && n > 1 {
        factors.push(2);
        n /= 2;
    }
    let mut d = 3;
    let mut limit = n.isqrt();
    while d <= limit {
        if n % d == 0 {
            factors.push(d);
            n /= d;
            limit = n.isqrt();
        } else {
            d += 2;
        }
    }
    if n > 1 {
        factors.push(n);
    }
    factors
}

/// The request for a factorisation of [`NUMBER`].
pub struct Calc;

/// Factorises on request and sends the factors to the collector.
pub struct Factoriser {
    collector: Addr<Collector>,
}

impl Actor for Factoriser {
    type Msg = Calc;

    fn handle(&mut self, _ctx: &mut Context<Self>, Calc: Calc) {
        let factors = factorise(NUMBER);
        let _ = self.collector.send(CollectorMsg::Factors(factors));
    }
}

/// Where a chain actor forwards the token: the next chain actor, or the master.
pub enum Next {
    /// Another chain actor.
    Chain(Addr<Chain>),
    /// The master that closes the ring.
    Master(Addr<Master>),
}

/// A token carrying how many more rounds the master will send.
pub struct Token(pub u64);

/// One member of a ring other than its master.
pub struct Chain {
    next: Next,
}

impl Actor for Chain {
    type Msg = Token;

    fn handle(&mut self, ctx: &mut Context<Self>, Token(t): Token) {
        let _ = match &self.next {
            Next::Chain(chain) => chain.send(Token(t)).map_err(drop),
            Next::Master(master) => master.send(Token(t)).map_err(drop),
        };
        if t == 0 {
            ctx.stop();
        }
    }
}

/// Runs the repetitions of one ring.
pub struct Master {
    ring_size: u64,
    token: u64,
    reps_left: u64,
    factoriser: Addr<Factoriser>,
    collector: Addr<Collector>,
    /// The first chain actor of the current repetition.
    first: Option<Addr<Chain>>,
}

impl Master {
    /// Starts a repetition: the calc request, a new ring, and the token.
    fn begin(&mut self, ctx: &mut Context<Self>) {
        let _ = self.factoriser.send(Calc);
        let mut next = Next::Master(ctx.addr());
        for _ in 1..self.ring_size {
            next = Next::Chain(ctx.spawn(Chain { next }));
        }
        let Next::Chain(first) = next else {
            unreachable!("ring_size >= 2 makes at least one chain actor")
        };
        let _ = first.send(Token(self.token));
        self.first = Some(first);
    }
}

impl Actor for Master {
    type Msg = Token;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.begin(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, Token(t): Token) {
        if t > 0 {
            if let Some(first) = &self.first {
                let _ = first.send(Token(t - 1));
            }
            return;
        }
        // The repetition is over.
        self.first = None;
        self.reps_left -= 1;
        if self.reps_left > 0 {
            self.begin(ctx);
        } else {
            let _ = self.collector.send(CollectorMsg::MasterDone);
            ctx.stop();
        }
    }
}

/// Checks the factorisations and answers the run.
pub struct Collector {
    /// Factorisations still expected.
    results_missing: u64,
    /// Masters not done yet.
    masters_missing: u64,
    verified: u64,
    answer: Option<ReplyTo<Result<u64, String>>>,
}

/// What the collector receives.
pub enum CollectorMsg {
    /// A factoriser's result.
    Factors(Vec<u64>),
    /// A master finished all its repetitions.
    MasterDone,
}

impl Collector {
    fn answer(&mut self, ctx: &mut Context<Self>, outcome: Result<u64, String>) {
        if let Some(answer) = self.answer.take() {
            let _ = answer.send(outcome);
        }
        ctx.stop();
    }
}

impl Actor for Collector {
    type Msg = CollectorMsg;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: CollectorMsg) {
        match msg {
            CollectorMsg::Factors(factors) => {
                let product = factors
                    .iter()
                    .try_fold(1u64, |p, &f| if f > 1 { p.checked_mul(f) } else { None });
                if factors.len() < 2 || product != Some(NUMBER) {
                    let fault = format!("{factors:?} is not a factorisation of {NUMBER}");
                    return self.answer(ctx, Err(fault));
                }
                self.verified += 1;
                self.results_missing -= 1;
            }
            CollectorMsg::MasterDone => self.masters_missing -= 1,
        }
        if self.results_missing == 0 && self.masters_missing == 0 {
            self.answer(ctx, Ok(self.verified));
        }
    }
}

/// Runs mixed with `rings`, `ring_size`, `token` and `reps` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let rings = inv.get("rings");
    let reps = inv.get("reps");
    let (answer, verified) = footlights::reply::pair();
    let collector = system.spawn(Collector {
        results_missing: rings * reps,
        masters_missing: rings,
        verified: 0,
        answer: Some(answer),
    });
    for _ in 0..rings {
        let factoriser = system.spawn(Factoriser {
            collector: collector.clone(),
        });
        system.spawn(Master {
            ring_size: inv.get("ring_size"),
            token: inv.get("token"),
            reps_left: reps,
            factoriser,
            collector: collector.clone(),
            first: None,
        });
    }
    drop(collector);
    let verified = run::await_answer(system, verified, "the collector's count")??;
    Ok(Outcome::new(verified))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorises_small_numbers() {
        assert_eq!(factorise(1), Vec::<u64>::new());
        assert_eq!(factorise(2), [2]);
        assert_eq!(factorise(12), [2, 2, 3]);
        assert_eq!(factorise(97), [97]);
        assert_eq!(factorise(3 * 3 * 101), [3, 3, 101]);
        assert_eq!(factorise(65_537 * 65_539), [65_537, 65_539]);
    }
}
