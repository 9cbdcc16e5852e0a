//! `Context::yield_now`: a handler that yields ends its actor's turn, and the actor
//! handles its next message only after the actors already waiting on its worker. Checked
//! by order on one worker (where "after" is exact) and by counts on two, never by time.

mod common;

use std::sync::{Arc, Mutex};

use common::PATIENCE;

use footlights::{Actor, Addr, Context, ReplyTo, System};

type Log = Arc<Mutex<Vec<&'static str>>>;

struct Other {
    log: Log,
}

impl Actor for Other {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {
        self.log.lock().unwrap().push("other");
    }
}

/// Sends itself three messages when it starts; on the first it wakes `other`, and
/// yields if `polite`.
struct Stepper {
    log: Log,
    other: Addr<Other>,
    polite: bool,
}

impl Actor for Stepper {
    type Msg = &'static str;
    fn started(&mut self, ctx: &mut Context<Self>) {
        for step in ["first", "second", "third"] {
            ctx.addr().send(step).unwrap();
        }
    }
    fn handle(&mut self, ctx: &mut Context<Self>, step: &'static str) {
        self.log.lock().unwrap().push(step);
        if step == "first" {
            self.other.send(()).unwrap();
            if self.polite {
                ctx.yield_now();
            }
        }
    }
}

fn steps(polite: bool) -> Vec<&'static str> {
    let system = System::builder().threads(1).build().unwrap();
    let log = Log::default();
    let other = system.spawn(Other { log: log.clone() });
    drop(system.spawn(Stepper {
        log: log.clone(),
        other,
        polite,
    }));
    system.wait_quiescent();
    log.lock().unwrap().clone()
}

#[test]
fn a_yield_lets_the_actor_it_woke_run_before_the_next_message() {
    assert_eq!(steps(true), ["first", "other", "second", "third"]);
}

#[test]
fn without_a_yield_the_turn_takes_every_message() {
    // The control: the order above is the yield's doing.
    assert_eq!(steps(false), ["first", "second", "third", "other"]);
}

/// Counts its messages, yielding after every one; answers the count when asked, and
/// stops after yielding if told to.
struct Yielder {
    count: u64,
}

enum ToYielder {
    Count,
    Total(ReplyTo<u64>),
    YieldThenStop,
    StopThenYield,
}

impl Actor for Yielder {
    type Msg = ToYielder;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToYielder) {
        match msg {
            ToYielder::Count => self.count += 1,
            ToYielder::Total(reply) => {
                let _ = reply.send(self.count);
            }
            ToYielder::YieldThenStop => {
                ctx.yield_now();
                ctx.stop();
            }
            ToYielder::StopThenYield => {
                ctx.stop();
                ctx.yield_now();
                assert!(ctx.is_stopping(), "a yield does not undo a stop");
            }
        }
        ctx.yield_now();
    }
}

#[test]
fn an_actor_that_yields_after_every_message_handles_them_all() {
    for threads in [1, 2] {
        let system = System::builder().threads(threads).build().unwrap();
        let yielder = system.spawn(Yielder { count: 0 });
        // Some land in a full mailbox (the actor yields with more to do), some in an
        // empty one (it yields with nothing left, and is woken again by the next).
        for round in 0..100u64 {
            for _ in 0..round {
                yielder.send(ToYielder::Count).unwrap();
            }
            std::thread::yield_now();
        }
        let total = yielder.ask(ToYielder::Total).unwrap();
        assert_eq!(
            total.wait_timeout(PATIENCE).unwrap().unwrap(),
            (0..100).sum::<u64>(),
            "on {threads} threads"
        );
        system.wait_quiescent();
        assert_eq!(system.metrics().messages_pending(), 0);
    }
}

#[test]
fn a_stop_wins_over_a_yield() {
    for first in [true, false] {
        let system = System::builder().threads(1).build().unwrap();
        let yielder = system.spawn(Yielder { count: 0 });
        yielder
            .send(if first {
                ToYielder::YieldThenStop
            } else {
                ToYielder::StopThenYield
            })
            .unwrap();
        system.wait_quiescent();
        assert!(
            yielder.send(ToYielder::Count).is_err(),
            "the actor stopped ({})",
            if first {
                "yield, then stop"
            } else {
                "stop, then yield"
            }
        );
    }
}
