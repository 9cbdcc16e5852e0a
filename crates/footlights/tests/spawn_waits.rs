//! An actor spawned on a busy worker starts soon, whatever keeps that worker busy: a
//! chain of hand-offs (two actors bouncing a ball), pinned work, or the other worker
//! being busy too, so that nobody steals the spawn. A pool worker of several puts what
//! it spawns in its nursery (see the scheduler's worker module, "Spawns"); these tests
//! hold it to looking there. Counted in balls bounced before the spawn started, never in
//! time: a pair gives up after `GIVE_UP` balls, which takes a fraction of a second.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use footlights::{Actor, Addr, Context, Placement, Reply, ReplyTo, System, reply};

/// Balls a pair bounces at most before it gives up waiting for the spawn to start.
const GIVE_UP: u64 = 2_000_000;
/// Balls after the spawn by which it must have started: a chain runs at most 64 hand-offs
/// in a row while other work waits, and the nursery comes first every fourth pick.
const SOON: u64 = 1_000;
/// Only a guard against a hang.
const PATIENCE: Duration = Duration::from_secs(120);

/// What the test watches: whether the spawn started, and whether a pair gave up.
#[derive(Clone, Default)]
struct Flags {
    started: Arc<AtomicBool>,
    gave_up: Arc<AtomicBool>,
}

/// The spawned actor: says it started, and stops.
struct Child {
    flags: Flags,
}

impl Actor for Child {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.flags.started.store(true, Ordering::SeqCst);
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

enum Msg {
    Peer(Addr<Player>, Option<ReplyTo<Option<u64>>>),
    Ball,
}

/// Bounces a ball with its peer until the child started, a pair gave up, or `GIVE_UP`
/// balls; a spawner spawns the child (placed in the pool) on its `SPAWN_AT`th ball. The
/// player holding the reply answers with the balls it bounced after the spawn until it
/// saw the child started, or `None` if it gave up; the other sends one last ball, so that
/// the holder sees the end too, and then neither sends again.
struct Player {
    peer: Option<Addr<Player>>,
    spawner: bool,
    balls: u64,
    flags: Flags,
    done: Option<ReplyTo<Option<u64>>>,
    finished: bool,
}

const SPAWN_AT: u64 = 10;

impl Player {
    fn bounce(&self) {
        let _ = self.peer.as_ref().expect("has a peer").send(Msg::Ball);
    }
}

impl Actor for Player {
    type Msg = Msg;
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Peer(peer, done) => {
                self.peer = Some(peer);
                if done.is_some() {
                    self.done = done;
                    self.bounce();
                }
            }
            Msg::Ball if self.finished => {}
            Msg::Ball => {
                self.balls += 1;
                if self.spawner && self.balls == SPAWN_AT {
                    ctx.spawn(Child {
                        flags: self.flags.clone(),
                    });
                }
                let started = self.flags.started.load(Ordering::SeqCst);
                if started || self.balls >= GIVE_UP || self.flags.gave_up.load(Ordering::SeqCst) {
                    if !started {
                        self.flags.gave_up.store(true, Ordering::SeqCst);
                    }
                    self.finished = true;
                    match self.done.take() {
                        Some(done) => {
                            let _ = done.send(started.then(|| self.balls.saturating_sub(SPAWN_AT)));
                        }
                        None => self.bounce(),
                    }
                    return;
                }
                self.bounce();
            }
        }
    }
}

fn player(spawner: bool, flags: &Flags) -> Player {
    Player {
        peer: None,
        spawner,
        balls: 0,
        flags: flags.clone(),
        done: None,
        finished: false,
    }
}

/// A pair of players placed by `placement`, the first of which spawns if `spawner`: the
/// spawner holds the reply.
fn pair(
    system: &System,
    placement: &Placement,
    spawner: bool,
    flags: &Flags,
) -> Reply<Option<u64>> {
    let a = system.spawn_placed(player(spawner, flags), placement.clone());
    let b = system.spawn_placed(player(false, flags), placement.clone());
    let (done, reply) = reply::pair();
    b.send(Msg::Peer(a.clone(), None)).unwrap();
    a.send(Msg::Peer(b, Some(done))).unwrap();
    reply
}

/// Spins in its first turn until the child started or a pair gave up (a long
/// computation, holding one worker).
struct Spinner {
    spinning: Arc<AtomicBool>,
    flags: Flags,
}

impl Actor for Spinner {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.spinning.store(true, Ordering::SeqCst);
        while !self.flags.started.load(Ordering::SeqCst)
            && !self.flags.gave_up.load(Ordering::SeqCst)
        {
            std::hint::spin_loop();
        }
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

fn check(after: Option<u64>, what: &str) {
    match after {
        Some(balls) => assert!(
            balls <= SOON,
            "{what}: the spawn started only after {balls} balls (at most {SOON})"
        ),
        None => panic!("{what}: the spawn never started in {GIVE_UP} balls"),
    }
}

/// One worker in a long turn, the other bouncing a ball between two pool actors, one of
/// which spawns: nobody is free to steal the spawn, so its own worker must run it.
#[test]
fn a_spawn_starts_beside_a_chain_while_the_other_worker_is_busy() {
    let system = System::builder().threads(2).build().unwrap();
    let flags = Flags::default();
    let spinning = Arc::new(AtomicBool::new(false));
    drop(system.spawn(Spinner {
        spinning: Arc::clone(&spinning),
        flags: flags.clone(),
    }));
    while !spinning.load(Ordering::SeqCst) {
        std::thread::yield_now();
    }
    let after = pair(&system, &Placement::Pool, true, &flags)
        .wait_timeout(PATIENCE)
        .expect("answered")
        .expect("not dropped");
    system.shutdown();
    check(after, "beside a long turn");
}

/// Each worker bouncing a pinned pair; one pair spawns a pool actor.
#[test]
fn a_spawn_starts_while_both_workers_bounce_pinned_pairs() {
    let system = System::builder().threads(2).build().unwrap();
    let flags = Flags::default();
    let other = pair(&system, &Placement::Stage(1), false, &flags);
    let after = pair(&system, &Placement::Stage(0), true, &flags)
        .wait_timeout(PATIENCE)
        .expect("answered")
        .expect("not dropped");
    let _ = other.wait_timeout(PATIENCE);
    system.shutdown();
    check(after, "beside pinned pairs");
}
