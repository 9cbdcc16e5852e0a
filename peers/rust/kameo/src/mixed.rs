//! mixed on kameo: rings of short-lived actors pass tokens while workers factorise.
//!
//! Four kinds of kameo actor. Main spawns the collector and, for each of the `rings`
//! rings, a worker and a master, then `ask`s the collector to `Run` with the masters; the
//! collector keeps the reply for later (`DelegatedReply`) and tells every master `Start`.
//!
//! Every repetition a master tells its worker `Calc`, spawns `ring_size - 1` fresh chain
//! actors in a ring behind itself (spawned back to front, so each is spawned knowing its
//! successor and the last one points at the master), and tells `token` to the first. A
//! chain actor forwards every token unchanged and stops after forwarding 0. The master
//! sends `t - 1` round again for each `t > 0` it gets back, and on 0 (the whole chain has
//! ended) starts the next repetition, or after the last one tells the collector it is
//! done.
//!
//! A worker factorises 28350160440309881 by trial division inside its handler (the CPU
//! work this benchmark mixes in; it occupies one runtime thread meanwhile) and tells the
//! factors to the collector, which counts the factorisations it can verify. When it has a
//! result for every repetition and every master is done, the collector replies the
//! number of verified factorisations.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use kameo::reply::{DelegatedReply, ReplySender};
use peer_kernels::factor::{TARGET, factorise, is_verified};
use suite_contract::Outcome;

/// The collector.
#[derive(Actor)]
struct Collector {
    results_left: u64,
    masters_left: u64,
    verified: u64,
    reply: Option<ReplySender<u64>>,
}

impl Collector {
    fn finish_if_done(&mut self) {
        if self.results_left == 0
            && self.masters_left == 0
            && let Some(reply) = self.reply.take()
        {
            reply.send(self.verified);
        }
    }
}

/// Start these masters; reply the verified count when everything is in.
struct Run(Vec<ActorRef<Master>>);

/// A worker's factorisation.
struct Factors(Vec<u64>);

/// A master finished all its repetitions.
struct MasterDone;

impl Message<Run> for Collector {
    type Reply = DelegatedReply<u64>;

    async fn handle(
        &mut self,
        Run(masters): Run,
        ctx: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        let (delegated, reply) = ctx.reply_sender();
        self.reply = reply;
        for master in &masters {
            master.tell(Start).await.expect("master stopped");
        }
        delegated
    }
}

impl Message<Factors> for Collector {
    type Reply = ();

    async fn handle(&mut self, Factors(factors): Factors, _ctx: &mut Context<Self, ()>) {
        self.results_left -= 1;
        if is_verified(&factors) {
            self.verified += 1;
        }
        self.finish_if_done();
    }
}

impl Message<MasterDone> for Collector {
    type Reply = ();

    async fn handle(&mut self, _: MasterDone, _ctx: &mut Context<Self, ()>) {
        self.masters_left -= 1;
        self.finish_if_done();
    }
}

/// A worker.
#[derive(Actor)]
struct Worker {
    collector: ActorRef<Collector>,
}

/// Factorise the number and send the factors to the collector.
struct Calc;

impl Message<Calc> for Worker {
    type Reply = ();

    async fn handle(&mut self, _: Calc, _ctx: &mut Context<Self, ()>) {
        let factors = factorise(TARGET);
        self.collector
            .tell(Factors(factors))
            .await
            .expect("collector stopped");
    }
}

/// A chain actor's successor: another chain actor, or the ring's master.
enum Next {
    Chain(ActorRef<Chain>),
    Master(ActorRef<Master>),
}

/// A chain actor.
#[derive(Actor)]
struct Chain {
    next: Next,
}

/// A token going round a ring.
struct Token(u64);

impl Message<Token> for Chain {
    type Reply = ();

    async fn handle(&mut self, Token(token): Token, ctx: &mut Context<Self, ()>) {
        match &self.next {
            Next::Chain(chain) => chain
                .tell(Token(token))
                .await
                .expect("next chain actor stopped"),
            Next::Master(master) => master
                .tell(Token(token))
                .await
                .expect("ring master stopped"),
        }
        if token == 0 {
            ctx.stop();
        }
    }
}

/// A master.
#[derive(Actor)]
struct Master {
    ring_size: u64,
    token: u64,
    reps_left: u64,
    worker: ActorRef<Worker>,
    collector: ActorRef<Collector>,
    first: Option<ActorRef<Chain>>,
}

impl Master {
    /// One repetition's start: the calc request, a fresh ring, the token.
    async fn start_repetition(&mut self, myself: &ActorRef<Master>) {
        self.worker.tell(Calc).await.expect("worker stopped");
        let mut next = Next::Master(myself.clone());
        for _ in 1..self.ring_size {
            let chain = Chain::spawn_with_mailbox(Chain { next }, mailbox::unbounded());
            next = Next::Chain(chain);
        }
        let Next::Chain(first) = next else {
            unreachable!("ring_size >= 2 makes at least one chain actor")
        };
        first
            .tell(Token(self.token))
            .await
            .expect("chain actor stopped");
        self.first = Some(first);
    }
}

/// Begin the first repetition.
struct Start;

impl Message<Start> for Master {
    type Reply = ();

    async fn handle(&mut self, _: Start, ctx: &mut Context<Self, ()>) {
        self.start_repetition(ctx.actor_ref()).await;
    }
}

impl Message<Token> for Master {
    type Reply = ();

    async fn handle(&mut self, Token(token): Token, ctx: &mut Context<Self, ()>) {
        if token > 0 {
            let first = self.first.as_ref().expect("token outside a repetition");
            first
                .tell(Token(token - 1))
                .await
                .expect("chain actor stopped");
            return;
        }
        self.first = None;
        self.reps_left -= 1;
        if self.reps_left > 0 {
            self.start_repetition(ctx.actor_ref()).await;
        } else {
            self.collector
                .tell(MasterDone)
                .await
                .expect("collector stopped");
        }
    }
}

/// Runs `rings` masters for `reps` repetitions each; the check is the number of verified
/// factorisations at the collector.
pub async fn run(rings: u64, ring_size: u64, token: u64, reps: u64) -> Result<Outcome, String> {
    let collector = Collector {
        results_left: rings * reps,
        masters_left: rings,
        verified: 0,
        reply: None,
    };
    let collector = Collector::spawn_with_mailbox(collector, mailbox::unbounded());
    let masters: Vec<ActorRef<Master>> = (0..rings)
        .map(|_| {
            let worker = Worker {
                collector: collector.clone(),
            };
            let master = Master {
                ring_size,
                token,
                reps_left: reps,
                worker: Worker::spawn_with_mailbox(worker, mailbox::unbounded()),
                collector: collector.clone(),
                first: None,
            };
            Master::spawn_with_mailbox(master, mailbox::unbounded())
        })
        .collect();
    let verified = collector
        .ask(Run(masters.clone()))
        .await
        .map_err(|e| format!("the collector did not answer: {e}"))?;
    let outcome = Outcome::new(verified);
    drop(masters);
    Ok(outcome)
}
