//! Type-erased addresses, as a user sees them: one `Recipient<M>` type for every actor
//! that accepts `M` (as its own message or through a `Handler`), sending, trying and
//! asking through it, equality by actor, and a recipient keeping its actor alive like an
//! address. No test here is timed: each waits for an outcome.
#![cfg(not(loom))]

use std::collections::HashSet;
use std::sync::Arc;

use footlights::{
    Actor, Context, Handler, Placement, Recipient, ReplyTo, SpawnOptions, TrySendError,
};

mod common;
use common::{block, quiet, system};

/// The message every actor here accepts: a number to add, with someone to tell the total.
struct Add(u64, Option<ReplyTo<u64>>);

/// Takes `Add` as its own message.
struct Plain {
    total: u64,
    _alive: Arc<()>,
}
impl Actor for Plain {
    type Msg = Add;
    fn handle(&mut self, _: &mut Context<Self>, Add(n, reply): Add) {
        self.total += n;
        if let Some(r) = reply {
            let _ = r.send(self.total);
        }
    }
}

/// Takes `Add` through a handler, besides its own messages.
struct Multi {
    total: u64,
}
impl Actor for Multi {
    type Msg = String;
    fn handle(&mut self, _: &mut Context<Self>, _: String) {}
}
impl Handler<Add> for Multi {
    type Reply = ();
    fn handle(&mut self, _: &mut Context<Self>, Add(n, reply): Add) {
        self.total += 2 * n;
        if let Some(r) = reply {
            let _ = r.send(self.total);
        }
    }
}

fn plain() -> Plain {
    Plain {
        total: 0,
        _alive: Arc::new(()),
    }
}

#[test]
fn one_type_reaches_actors_of_every_kind() {
    let system = system(2);
    let a = system.spawn(plain());
    let b = system.spawn(Multi { total: 0 });
    let to: Vec<Recipient<Add>> = vec![a.msg_recipient(), b.recipient(), a.clone().into()];
    for n in 1..=100 {
        for r in &to {
            r.send(Add(n, None)).unwrap();
        }
    }
    let totals: Vec<u64> = to
        .iter()
        .map(|r| r.ask(|reply| Add(0, Some(reply))).unwrap().wait().unwrap())
        .collect();
    assert_eq!(totals, [10100, 10100, 10100]);
}

#[test]
fn recipients_are_send_sync_and_cloned_across_threads() {
    fn shareable<T: Send + Sync + Clone + 'static>() {}
    shareable::<Recipient<Add>>();
    let system = system(2);
    let b = system.spawn(Multi { total: 0 });
    let to = b.recipient::<Add>();
    std::thread::scope(|s| {
        for _ in 0..4 {
            let to = to.clone();
            s.spawn(move || {
                for _ in 0..1000 {
                    to.send(Add(1, None)).unwrap();
                }
            });
        }
    });
    assert_eq!(to.ask(|r| Add(0, Some(r))).unwrap().wait().unwrap(), 8000);
}

#[test]
fn recipients_are_equal_when_they_reach_the_same_actor() {
    let system = system(1);
    let a = system.spawn(plain());
    let b = system.spawn(plain());
    let m = system.spawn(Multi { total: 0 });
    let set: HashSet<Recipient<Add>> = [
        a.msg_recipient(),
        a.msg_recipient(),
        b.msg_recipient(),
        m.recipient(),
        m.recipient(),
    ]
    .into_iter()
    .collect();
    assert_eq!(set.len(), 3);
    assert_ne!(a.msg_recipient(), b.msg_recipient());
    let shown = format!("{:?}", m.recipient::<Add>());
    assert!(shown.contains("Multi") && shown.contains("Add"), "{shown}");
}

#[test]
fn a_recipient_keeps_its_actor_alive_like_an_address() {
    let system = system(2);
    let alive = Arc::new(());
    let a = system.spawn(Plain {
        total: 0,
        _alive: Arc::clone(&alive),
    });
    let to = a.msg_recipient();
    drop(a);
    quiet(&system);
    assert_eq!(
        system.metrics().live_actors(),
        1,
        "the recipient reaches it"
    );
    to.send(Add(5, None)).unwrap();
    assert_eq!(to.ask(|r| Add(1, Some(r))).unwrap().wait().unwrap(), 6);
    drop(to);
    quiet(&system);
    assert_eq!(system.metrics().live_actors(), 0, "collected");
    assert_eq!(Arc::strong_count(&alive), 1);
}

#[test]
fn a_stopped_actor_gives_the_message_back() {
    let system = system(1);
    let a = system.spawn(plain());
    let m = system.spawn(Multi { total: 0 });
    let to: [Recipient<Add>; 2] = [a.msg_recipient(), m.recipient()];
    a.stop();
    m.stop();
    quiet(&system);
    for r in &to {
        assert!(r.is_stopped());
        let back = r.send(Add(7, None)).unwrap_err().into_inner();
        assert_eq!(back.0, 7);
        assert!(matches!(
            r.try_send(Add(8, None)),
            Err(TrySendError::Stopped(Add(8, None)))
        ));
        assert!(r.ask(|reply| Add(9, Some(reply))).is_err());
    }
}

#[test]
fn try_send_through_a_recipient_respects_the_capacity() {
    let system = system(1);
    let (_blocker, open) = block(&system, Placement::Default);
    let a = system.spawn_with(plain(), SpawnOptions::new().capacity(2));
    let m = system.spawn_with(Multi { total: 0 }, SpawnOptions::new().capacity(2));
    for r in [a.msg_recipient(), m.recipient()] {
        r.try_send(Add(1, None)).unwrap();
        r.try_send(Add(1, None)).unwrap();
        assert!(matches!(
            r.try_send(Add(3, None)),
            Err(TrySendError::Full(Add(3, None)))
        ));
    }
    drop(open);
    quiet(&system);
    assert_eq!(a.messages_handled() + m.messages_handled(), 4);
}
