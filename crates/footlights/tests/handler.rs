//! Several message types per actor, as a user sees them: `tell`, `try_tell` and
//! `request` for any type an actor handles, mixed in order with its own messages, one at a
//! time, counted against a bounded mailbox like messages, and dropped as dead letters when
//! the actor stops before handling them. No test here is timed: each waits for an outcome.
#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use footlights::{
    Actor, Canceled, Context, Handler, Placement, SendError, SpawnOptions, TrySendError,
};

mod common;
use common::{block, quiet, system, system_quiet_on_panic};

/// Logs what it handles, in order, whatever the type.
#[derive(Default)]
struct Log {
    seen: Vec<String>,
    /// Set while a handler runs: two at once would be a bug.
    busy: Arc<AtomicBool>,
}

impl Log {
    fn enter(&self) {
        assert!(
            !self.busy.swap(true, Ordering::SeqCst),
            "two handlers at once"
        );
    }
    fn leave(&self) {
        self.busy.store(false, Ordering::SeqCst);
    }
}

impl Actor for Log {
    type Msg = u32;
    fn handle(&mut self, _: &mut Context<Self>, n: u32) {
        self.enter();
        self.seen.push(format!("n{n}"));
        self.leave();
    }
}

struct Text(String);
impl Handler<Text> for Log {
    type Reply = ();
    fn handle(&mut self, _: &mut Context<Self>, Text(t): Text) {
        self.enter();
        self.seen.push(t);
        self.leave();
    }
}

struct Dump;
impl Handler<Dump> for Log {
    type Reply = Vec<String>;
    fn handle(&mut self, _: &mut Context<Self>, _: Dump) -> Vec<String> {
        self.seen.clone()
    }
}

struct Halt;
impl Handler<Halt> for Log {
    type Reply = ();
    fn handle(&mut self, ctx: &mut Context<Self>, _: Halt) {
        ctx.stop();
    }
}

struct Boom;
impl Handler<Boom> for Log {
    type Reply = u8;
    fn handle(&mut self, _: &mut Context<Self>, _: Boom) -> u8 {
        panic!("boom");
    }
}

#[test]
fn messages_of_every_type_are_handled_in_the_order_sent() {
    let system = system(2);
    let log = system.spawn(Log::default());
    let mut expected = Vec::new();
    for i in 0..300u32 {
        if i % 3 == 0 {
            log.tell(Text(format!("t{i}"))).unwrap();
            expected.push(format!("t{i}"));
        } else {
            log.send(i).unwrap();
            expected.push(format!("n{i}"));
        }
    }
    assert_eq!(log.request(Dump).unwrap().wait().unwrap(), expected);
    quiet(&system);
    assert_eq!(
        log.messages_handled(),
        301,
        "handler messages count as handled"
    );
}

#[test]
fn many_senders_one_turn_at_a_time() {
    let system = system(2);
    let log = system.spawn(Log::default());
    let senders = 4;
    let each = 2000u32;
    std::thread::scope(|s| {
        for t in 0..senders {
            let log = log.clone();
            s.spawn(move || {
                for i in 0..each {
                    if i % 2 == 0 {
                        log.send(t * each + i).unwrap();
                    } else {
                        log.tell(Text(format!("{t}:{i}"))).unwrap();
                    }
                }
            });
        }
    });
    let seen = log.request(Dump).unwrap().wait().unwrap();
    assert_eq!(seen.len(), (senders * each) as usize);
    // Each sender's texts arrive in its order.
    for t in 0..senders {
        let mine: Vec<u32> = seen
            .iter()
            .filter_map(|s| s.strip_prefix(&format!("{t}:")))
            .map(|i| i.parse().unwrap())
            .collect();
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "sender {t} reordered");
        assert_eq!(mine.len(), (each / 2) as usize);
    }
}

#[test]
fn a_handler_can_stop_its_actor_and_later_sends_come_back() {
    let system = system(1);
    let log = system.spawn(Log::default());
    log.tell(Halt).unwrap();
    quiet(&system);
    assert!(log.is_stopped());
    let SendError(Text(back)) = log.tell(Text("late".into())).unwrap_err();
    assert_eq!(back, "late");
    assert!(matches!(log.request(Dump), Err(SendError(Dump))));
    assert!(matches!(
        log.try_tell(Text("x".into())),
        Err(TrySendError::Stopped(_))
    ));
}

#[test]
fn a_panicking_handler_cancels_its_request_and_stops_the_actor() {
    let system = system_quiet_on_panic(1);
    let log = system.spawn(Log::default());
    let reply = log.request(Boom).unwrap();
    assert_eq!(reply.wait(), Err(Canceled));
    quiet(&system);
    assert!(log.is_stopped());
}

#[test]
fn queued_handler_messages_of_a_killed_actor_are_dead_letters() {
    let system = system(1);
    let (_blocker, open) = block(&system, Placement::Default);
    let log = system.spawn(Log::default());
    for i in 0..3 {
        log.tell(Text(i.to_string())).unwrap();
    }
    let pending = log.request(Dump).unwrap();
    log.kill();
    drop(open);
    assert_eq!(pending.wait(), Err(Canceled), "a dropped request cancels");
    quiet(&system);
    assert_eq!(system.metrics().dead_letters, 4);
    assert_eq!(log.messages_handled(), 0);
}

#[test]
fn handler_messages_count_against_a_bounded_mailbox() {
    let system = system(1);
    let (_blocker, open) = block(&system, Placement::Default);
    let log = system.spawn_with(Log::default(), SpawnOptions::new().capacity(4));
    for i in 0..4 {
        log.try_tell(Text(i.to_string())).expect("room");
    }
    assert!(matches!(
        log.try_tell(Text("full".into())),
        Err(TrySendError::Full(Text(t))) if t == "full"
    ));
    assert!(
        matches!(log.try_send(9), Err(TrySendError::Full(9))),
        "one count for both kinds"
    );
    // `tell` goes past the capacity, and is counted.
    log.tell(Text("past".into())).unwrap();
    drop(open);
    quiet(&system);
    assert_eq!(log.messages_handled(), 5);
    // Each handled message was counted out: the room is back, all of it.
    let (_blocker, open) = block(&system, Placement::Default);
    for i in 0..4 {
        log.try_tell(Text(i.to_string())).expect("room again");
    }
    assert!(log.try_tell(Text("full".into())).is_err());
    drop(open);
    quiet(&system);
}

#[test]
fn an_actor_of_handlers_only() {
    struct Adder {
        total: i64,
    }
    impl Actor for Adder {
        type Msg = std::convert::Infallible;
        fn handle(&mut self, _: &mut Context<Self>, msg: Self::Msg) {
            match msg {}
        }
    }
    struct Add(i64);
    impl Handler<Add> for Adder {
        type Reply = i64;
        fn handle(&mut self, _: &mut Context<Self>, Add(n): Add) -> i64 {
            self.total += n;
            self.total
        }
    }
    let system = system(2);
    let adder = system.spawn(Adder { total: 0 });
    for n in 1..100 {
        adder.tell(Add(n)).unwrap();
    }
    assert_eq!(adder.request(Add(100)).unwrap().wait().unwrap(), 5050);
}
