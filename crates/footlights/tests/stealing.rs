//! Work stealing steals: work queued on one worker whose turn is held runs on the other.
//!
//! One actor spawns a batch of jobs from its handler, so they wait in its worker's queue
//! (the nursery, or the next slot and deque without it). Every job that runs on that
//! worker first waits, inside its turn, until some job has run on another thread: so the
//! only way the batch can finish is that the other worker takes jobs from the first one's
//! queue. Nothing is timed: the wait ends when the other worker has run a job, and the
//! long timeouts are only guards against a hang, so the test is as sure on a busy
//! two-core machine as on an idle one.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use footlights::{Actor, Context, Governor, ReplyTo, Rule, System, reply};

/// Only a guard against a hang.
const PATIENCE: Duration = Duration::from_secs(60);
/// Jobs in the batch.
const JOBS: u32 = 64;

/// What the jobs share: the thread the first one ran on, whether a job ran on another
/// thread, and how many are done.
struct Board {
    state: Mutex<(Option<ThreadId>, bool)>,
    other_ran: Condvar,
    done: AtomicU32,
    finished: Mutex<Option<ReplyTo<bool>>>,
}

impl Board {
    /// A job runs on this thread: it waits (up to the patience) if this is the first
    /// job's thread and no job has run elsewhere yet; `false` if it waited in vain.
    fn job_runs_here(&self) -> bool {
        let me = std::thread::current().id();
        let mut state = self.state.lock().unwrap();
        let first = *state.0.get_or_insert(me);
        if first != me {
            state.1 = true;
            self.other_ran.notify_all();
            return true;
        }
        let (state, timeout) = self
            .other_ran
            .wait_timeout_while(state, PATIENCE, |s| !s.1)
            .unwrap();
        drop(state);
        !timeout.timed_out()
    }

    /// A job is done; the last one answers whether every job that waited was released.
    fn job_done(&self, released: bool) {
        if !released {
            if let Some(answer) = self.finished.lock().unwrap().take() {
                let _ = answer.send(false);
            }
        }
        if self.done.fetch_add(1, Ordering::AcqRel) + 1 == JOBS {
            if let Some(answer) = self.finished.lock().unwrap().take() {
                let _ = answer.send(true);
            }
        }
    }
}

/// One job: waits on the board if it runs where the first job ran, then stops.
struct Job(Arc<Board>);

impl Actor for Job {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        let released = self.0.job_runs_here();
        self.0.job_done(released);
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Spawns the batch of jobs from its handler, on its own worker.
struct Spawner(Arc<Board>);

impl Actor for Spawner {
    type Msg = ();
    fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
        for _ in 0..JOBS {
            ctx.spawn(Job(Arc::clone(&self.0)));
        }
        ctx.stop();
    }
}

fn a_held_worker_s_queue_is_stolen_by_the_other(governor: Governor) {
    let system = System::builder()
        .threads(2)
        .cpus(2)
        .governor(governor)
        .build()
        .unwrap();
    let (answer, finished) = reply::pair();
    let board = Arc::new(Board {
        state: Mutex::new((None, false)),
        other_ran: Condvar::new(),
        done: AtomicU32::new(0),
        finished: Mutex::new(Some(answer)),
    });
    let spawner = system.spawn(Spawner(Arc::clone(&board)));
    spawner.send(()).unwrap();
    assert_eq!(
        finished.wait_timeout(PATIENCE),
        Some(Ok(true)),
        "{governor}: the jobs queued behind a held turn were never taken by the other worker"
    );
    assert!(system.wait_quiescent_timeout(PATIENCE));
    let m = system.metrics();
    let stolen: u64 = m.workers.iter().map(|w| w.tasks_stolen).sum();
    assert!(
        stolen > 0,
        "{governor}: nothing was stolen: {:?}",
        m.workers
    );
    assert!(
        m.workers.iter().all(|w| w.turns > 0),
        "{governor}: a worker ran no turn: {:?}",
        m.workers
    );
    system.shutdown();
}

#[test]
fn stealing_steals_under_the_adaptive_governor() {
    a_held_worker_s_queue_is_stolen_by_the_other(Governor::adaptive());
}

#[test]
fn stealing_steals_under_the_plain_governor() {
    a_held_worker_s_queue_is_stolen_by_the_other(Governor::plain());
}

#[test]
fn stealing_steals_without_the_nursery() {
    // The jobs then wait in the next slot and the deque, and the deque is what is stolen.
    a_held_worker_s_queue_is_stolen_by_the_other(Governor::adaptive().without(Rule::Nursery));
}
