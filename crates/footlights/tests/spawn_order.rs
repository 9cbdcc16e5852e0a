//! In which order a worker starts the actors it spawned: on a worker of several, newest
//! first (a tree of spawns then runs depth first, and other workers steal the oldest,
//! largest subtrees) but for the oldest every so often, so that no spawn waits for ever;
//! on a lone worker, in the order spawned (its FIFO order). See the
//! scheduler's worker module, "Spawns". Checked by order only, never by time.

mod common;

use std::sync::{Arc, Mutex};
use std::thread::{self, ThreadId};
use std::time::Instant;

use common::PATIENCE;

use footlights::{Actor, Context, Placement, System};

const CHILDREN: u32 = 200;

/// Where each actor started: its thread and its number (the parent is `u32::MAX`).
type Log = Arc<Mutex<Vec<(ThreadId, u32)>>>;

struct Child {
    number: u32,
    log: Log,
}

impl Actor for Child {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.log
            .lock()
            .unwrap()
            .push((thread::current().id(), self.number));
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Spawns `CHILDREN` children, numbered in the order spawned, in its first turn.
struct Parent {
    log: Log,
}

impl Actor for Parent {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.log
            .lock()
            .unwrap()
            .push((thread::current().id(), u32::MAX));
        for number in 0..CHILDREN {
            ctx.spawn(Child {
                number,
                log: Arc::clone(&self.log),
            });
        }
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Runs a parent on `threads` workers; returns the numbers of the children that started
/// on the parent's thread, in the order they started, and how many started in all.
///
/// On two workers, the other worker is held in a blocking turn until every child has
/// started, so nothing is stolen: the order is the parent's worker's alone. (With a
/// thief, children it took can come back to the spawner's worker by a steal back or a
/// group's give-back, in another order: the test then failed about once in a hundred.)
fn started_beside_the_parent(threads: usize) -> (Vec<u32>, usize) {
    let system = System::builder().threads(threads).build().unwrap();
    let log = Log::default();
    let release = (threads == 2).then(|| common::block(&system, Placement::default()).1);
    drop(system.spawn(Parent {
        log: Arc::clone(&log),
    }));
    let start = Instant::now();
    while log.lock().unwrap().len() < CHILDREN as usize + 1 && start.elapsed() < PATIENCE {
        thread::yield_now();
    }
    drop(release);
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let log = log.lock().unwrap();
    let (parent, _) = *log
        .iter()
        .find(|(_, n)| *n == u32::MAX)
        .expect("the parent started");
    let beside = log
        .iter()
        .filter(|(t, n)| *t == parent && *n != u32::MAX)
        .map(|(_, n)| *n)
        .collect();
    (beside, log.len() - 1)
}

#[test]
fn a_worker_of_several_starts_what_it_spawned_newest_first() {
    let (beside, all) = started_beside_the_parent(2);
    assert_eq!(all, CHILDREN as usize, "every child started");
    assert_eq!(
        beside.len(),
        all,
        "the other worker was held, so every child started beside the parent"
    );
    // Newest first, but for the oldest one now and then (every 61st pick), which bounds
    // how long a spawn can wait: a child started before every later one is such a pick.
    let oldest = |i: usize| i + 1 < beside.len() && beside[i + 1..].iter().all(|&n| n > beside[i]);
    type Starts = Vec<(usize, u32)>;
    let (old, new): (Starts, Starts) = beside
        .iter()
        .copied()
        .enumerate()
        .partition(|&(i, _)| oldest(i));
    assert!(
        new.windows(2).all(|w| w[0].1 > w[1].1),
        "newest first on the spawner's worker, but for the oldest now and then: {beside:?}"
    );
    assert!(
        old.len() <= beside.len() / 32 + 2,
        "the oldest first only now and then ({} of {}): {beside:?}",
        old.len(),
        beside.len()
    );
}

#[test]
fn a_lone_worker_starts_what_it_spawned_in_order() {
    let (beside, all) = started_beside_the_parent(1);
    assert_eq!(all, CHILDREN as usize);
    assert_eq!(beside, (0..CHILDREN).collect::<Vec<_>>());
}
