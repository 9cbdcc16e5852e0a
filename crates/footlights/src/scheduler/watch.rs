//! Work stranded behind a long turn, and the parked worker that watches for it.
//!
//! # The problem
//!
//! A worker leaves some of the work it schedules where only it will run it soon: tasks in
//! its deque below the wake threshold wake nobody ([`super::park`], "Waking only when it
//! pays"), a batch it took from the injector joins its deque without waking anybody, and
//! what it spawns waits in its nursery. Each of those rules assumes that the worker's turn
//! ends soon. A handler that blocks (on a channel, a lock, a system call) or computes for
//! long breaks that assumption: the tasks behind it wait for the whole turn while other
//! workers sleep. A CI run met it: three workers, one held in a handler for up to a minute,
//! and the message that made a sibling fail waited in that worker's deque for the whole
//! minute (`tests/supervision.rs`, a new instance only ever reaching new instances).
//!
//! The rule this module keeps: *a task made runnable while some worker is idle is run by an
//! idle worker, even if the worker that queued it is held in a long turn*, as long as the
//! task is where other workers may steal it (its deque or its nursery).
//!
//! # The watcher
//!
//! No running worker can notice that its own turn is long without reading the clock on its
//! hot path (a handler's send, or the pick of every task). So a *parked* worker watches
//! instead: one parked pool worker at a time, the *watcher*, parks with a timeout of
//! [`WATCH_EVERY`] rather than for good. Each time it wakes on its own, it reads every other
//! worker's counts of turns and of times it ran out of work (searches and parks). A worker
//! that is not parked, has not run out of work since the watcher's last look, and started
//! at most one turn per [`WATCH_LONG_TURN`] of that time (none at all: one turn all along) *runs
//! long turns*, and a worker that looks for work takes its own tasks first, so what waits
//! in its deque or nursery waits behind a turn. If it has any, the watcher takes itself off
//! the sleepers' list and looks for work as a woken worker does: it steals them (a
//! *rescue*).
//!
//! Long turns also bring the wake threshold back to 1 and release held wake-ups
//! ([`super::governor::wake::WakeThreshold::long_turn_seen`]): turns that long are what the threshold's
//! "long run" says pays for a wake-up, and while turns are long no epoch of a worker's
//! pace has the messages to release them. A worker "alone for now" then publishes its private FIFO
//! to its deque at its next look at its company (every eighth pick, [`super::worker`]),
//! where the next look finds it, and its later backlogs wake sleepers again. This is the
//! way out of the limit that `tests/label_phases.rs` met: a wake threshold learned in a
//! hub phase kept a later phase of long jobs on one worker, with nobody ever woken to
//! learn otherwise.
//!
//! The watcher costs a wake-up of a parked thread at each look (a few microseconds of an
//! otherwise idle core, and none of the awake workers' time: it reads their counters and
//! deque ends, which they write anyway). Its period adapts
//! ([`super::governor::watcher`]): it starts at [`WATCH_EVERY`], doubles at each look that
//! sees no long turns, up to [`WATCH_BUSY_MOST`] while another worker is awake and up to
//! [`WATCH_IDLE_MOST`] while every worker is parked (an idle system wakes one thread
//! about once a second), and goes back to [`WATCH_EVERY`] when a look sees long turns. A
//! worker that wakes while the watcher sleeps longer than [`WATCH_BUSY_MOST`] nudges it
//! (one more unpark, only after the system was idle that long).
//!
//! # Who watches
//!
//! The role is one word, [`Watch`]: the index of the watching worker, or nobody. A worker
//! that parks claims it if nobody has it. A worker that leaves its sleep (woken, rescuing,
//! shutting down) gives it up if it had it, and, under the sleepers' lock, if the role is
//! then vacant while a started worker is still on the list, *nudges* that worker: unparks
//! it without taking it off the list. A worker whose park ends while it is still on the
//! list was not woken (a nudge, or a stale token from an earlier wake-up): it claims the
//! role if vacant and parks again. Whoever leaves checks, not only the watcher, so a
//! nudged worker that a waker takes off the list before it claims the role leaves it
//! vacant only until its own check. A worker that leaves while the watcher sleeps longer
//! than a tick (the role is held, and its `deep` flag set) nudges the watcher instead. The
//! loom models below check that the role is never left vacant while a worker sleeps on the
//! list, and that a real wake-up (off the list, then unparked) always ends the sleep.
//!
//! # What it does not cover
//!
//! A task in a worker's next slot or private FIFO is that worker's alone (plain cells, no
//! atomic operation per hand-off): the handler that blocks after a send of its own leaves
//! the receiver in the next slot until its turn ends, and a worker alone for now that
//! blocks in a turn leaves its private FIFO (long turns that end publish it, above; a turn
//! that never ends does not). A worker that picks from the injector or its inbox while its
//! next slot is full spills the slot first, so no *other* actor's hand-off waits there
//! behind a turn. The same holds for what a keeping turn wakes ([`super::worker`], "keep"):
//! it waits in its worker's private FIFO for that turn to end. Blocking actors belong on a dedicated stage
//! ([`crate::Placement::Dedicated`]), where they hold no pool worker.

use std::time::Instant;

use super::Scheduler;
use super::governor::tunables::WATCH_LONG_TURN;
#[cfg(doc)]
use super::governor::tunables::{WATCH_BUSY_MOST, WATCH_EVERY, WATCH_IDLE_MOST};
use crate::sync::{AtomicBool, AtomicUsize, Ordering};
/// The role is vacant.
const NOBODY: usize = usize::MAX;

/// Which parked worker watches, if any (see the module documentation).
pub(crate) struct Watch {
    role: AtomicUsize,
    /// Set while the watcher sleeps longer than [`WATCH_BUSY_MOST`] (every worker was parked).
    deep: AtomicBool,
}

impl Watch {
    pub(crate) fn new() -> Watch {
        Watch {
            role: AtomicUsize::new(NOBODY),
            deep: AtomicBool::new(false),
        }
    }

    /// The watcher sleeps longer than [`WATCH_BUSY_MOST`] from now on, or not.
    pub(crate) fn deepen(&self, deep: bool) {
        if self.deep.load(Ordering::Relaxed) != deep {
            self.deep.store(deep, Ordering::Relaxed);
        }
    }

    /// Worker `index`, parked, becomes the watcher if nobody is; `true` if it is now.
    pub(crate) fn claim(&self, index: usize) -> bool {
        match self
            .role
            .compare_exchange(NOBODY, index, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(now) => now == index,
        }
    }

    /// Worker `index` leaves its sleep: it gives up the role if it had it. Then, if the
    /// role is vacant, returns which of the workers still `parked` (the sleepers' list, read
    /// under its lock) to nudge: the most recently parked one that `started`.
    pub(crate) fn leave(
        &self,
        index: usize,
        parked: &[usize],
        started: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let _ = self
            .role
            .compare_exchange(index, NOBODY, Ordering::SeqCst, Ordering::SeqCst);
        let role = self.role.load(Ordering::SeqCst);
        if role != NOBODY {
            // A worker wakes while the watcher sleeps long (every worker was parked): the
            // watcher's period goes back to a tick.
            let deep =
                self.deep.load(Ordering::Relaxed) && self.deep.swap(false, Ordering::Relaxed);
            return deep.then_some(role);
        }
        parked.iter().rev().copied().find(|&i| started(i))
    }

    /// The watching worker, if any.
    #[cfg(all(test, loom))]
    pub(crate) fn watcher(&self) -> Option<usize> {
        let role = self.role.load(Ordering::SeqCst);
        (role != NOBODY).then_some(role)
    }
}

/// Worker `index` leaves its sleep: it gives up the watcher's role if it had it, and if
/// the role is then vacant while a started worker is parked, nudges that worker (unparks
/// it, leaving it on the list) to take it (see "Who watches").
pub(crate) fn leave_doze(sched: &Scheduler, index: usize) {
    let nudge = sched.sleepers.with_parked(|parked| {
        sched
            .watch
            .leave(index, parked, |k| sched.starter.is_started(k))
    });
    if let Some(k) = nudge {
        sched.sleepers.unpark(k);
    }
}

/// What the watcher last saw of each pool worker: its counts of turns and of times it ran
/// out of work (searches and parks), and when it looked.
pub(crate) struct Sightings {
    seen: std::cell::RefCell<Seen>,
}

struct Seen {
    /// Per worker: (turns, searches + parks, parked) at the last look.
    counts: Box<[(u64, u64, bool)]>,
    /// Whether the injector held a task at the last look.
    outside: bool,
    at: Option<Instant>,
}

/// What one look of the watcher found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    /// Some other worker has run long turns since the last look: never out of work, and on
    /// average at least [`WATCH_LONG_TURN`] a turn (or one turn all along).
    pub(crate) long_turns: bool,
    /// Such a worker has tasks in its deque or nursery: they wait behind its turn.
    pub(crate) stranded: bool,
}

/// What the watcher reads of one worker.
pub(crate) struct Counts {
    pub(crate) turns: u64,
    /// Searches and parks: each time it ran out of work.
    pub(crate) idle: u64,
    pub(crate) parked: bool,
}

impl Sightings {
    pub(crate) fn new(workers: usize) -> Sightings {
        Sightings {
            seen: std::cell::RefCell::new(Seen {
                counts: vec![(0, 0, true); workers].into_boxed_slice(),
                outside: false,
                at: None,
            }),
        }
    }

    /// Whether this worker never watches (a lone worker, or not work stealing).
    pub(crate) fn is_empty(&self) -> bool {
        self.seen.borrow().counts.is_empty()
    }

    /// Forgets what was seen (a new watch begins: nothing is long before two looks).
    pub(crate) fn forget(&self) {
        self.seen.borrow_mut().at = None;
    }

    /// Looks at every pool worker but `me`, at `now`: `counts(k)` is what worker `k`'s
    /// counters and the sleepers' list say, `stealable(k)` whether its deque or nursery
    /// holds a task; `outside` whether the injector does. A task in the injector at two
    /// looks in a row is stranded too: a worker that looked for work meanwhile would
    /// have taken it.
    pub(crate) fn look(
        &self,
        me: usize,
        now: Instant,
        counts: impl Fn(usize) -> Counts,
        stealable: impl Fn(usize) -> bool,
        outside: bool,
    ) -> Look {
        let mut seen = self.seen.borrow_mut();
        let since = seen
            .at
            .replace(now)
            .map(|at| now.saturating_duration_since(at));
        let outside_before = std::mem::replace(&mut seen.outside, outside);
        let mut look = Look {
            long_turns: false,
            stranded: since.is_some() && outside && outside_before,
        };
        for (k, last) in seen.counts.iter_mut().enumerate() {
            if k == me {
                continue;
            }
            let c = counts(k);
            let (turns, idle, was_parked) = std::mem::replace(last, (c.turns, c.idle, c.parked));
            let Some(since) = since else {
                continue;
            };
            let ran = c.turns.wrapping_sub(turns);
            // Busy all along (awake at both looks, and it never ran out of work in between)
            // with long turns: a worker that looks for work takes its own tasks first, so tasks left
            // in its deque or nursery wait behind a turn.
            let busy = !was_parked && !c.parked && c.idle == idle;
            if busy
                && WATCH_LONG_TURN.saturating_mul(u32::try_from(ran).unwrap_or(u32::MAX)) <= since
            {
                look.long_turns = true;
                look.stranded |= stealable(k);
            }
        }
        look
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use crate::{Actor, Addr, Context, System};

    /// A hang guard.
    const PATIENCE: Duration = Duration::from_secs(60);

    /// Holds its worker in its handler until the gate's sender is dropped.
    struct Holder {
        gate: mpsc::Receiver<()>,
        entered: mpsc::Sender<()>,
        left: Arc<AtomicBool>,
    }

    impl Actor for Holder {
        type Msg = ();
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {
            let _ = self.entered.send(());
            // No timeout: the test drops the sender, also when it fails.
            let _ = self.gate.recv();
            self.left.store(true, Ordering::SeqCst);
        }
    }

    /// Reports its name when it starts (`at_start`) or else for each message.
    struct Reporter {
        name: u32,
        at_start: bool,
        out: mpsc::Sender<u32>,
    }

    impl Actor for Reporter {
        type Msg = ();
        fn started(&mut self, _: &mut Context<Self>) {
            if self.at_start {
                let _ = self.out.send(self.name);
            }
        }
        fn handle(&mut self, _: &mut Context<Self>, (): ()) {
            let _ = self.out.send(self.name);
        }
    }

    /// On its message: spawns reporters that report as they start, sends to the others,
    /// then to the holder, all from one turn on one worker.
    struct Neighbour {
        spawn: Vec<u32>,
        to: Vec<Addr<Reporter>>,
        holder: Addr<Holder>,
        out: mpsc::Sender<u32>,
    }

    impl Actor for Neighbour {
        type Msg = ();
        fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
            for &name in &self.spawn {
                ctx.spawn(Reporter {
                    name,
                    at_start: true,
                    out: self.out.clone(),
                });
            }
            for to in &self.to {
                let _ = to.send(());
            }
            let _ = self.holder.send(());
        }
    }

    fn reporter(system: &System, name: u32, out: &mpsc::Sender<u32>) -> Addr<Reporter> {
        system.spawn(Reporter {
            name,
            at_start: false,
            out: out.clone(),
        })
    }

    /// Two workers, the wake threshold as a hub phase leaves it (high), both parked. A
    /// neighbour's turn spawns two actors, wakes three, then wakes the holder: its worker
    /// runs the holder next (the next slot), which blocks; the five tasks wait in that
    /// worker's nursery and deque, below the threshold, so they wake nobody. Each must
    /// still be run, by the other worker, while the holder blocks; so must a message sent
    /// from outside meanwhile. (Before the watcher, the other worker slept until the
    /// holder let go.)
    #[test]
    fn work_queued_behind_a_blocked_handler_is_run_by_the_idle_worker() {
        let system = System::builder().threads(2).cpus(2).build().unwrap();
        let (out, reports) = mpsc::channel();
        let (open, gate) = mpsc::channel();
        let (entered, inside) = mpsc::channel();
        let left = Arc::new(AtomicBool::new(false));
        let holder = system.spawn(Holder {
            gate,
            entered,
            left: Arc::clone(&left),
        });
        let to: Vec<_> = (1..=3).map(|name| reporter(&system, name, &out)).collect();
        let outside = reporter(&system, 4, &out);
        let neighbour = system.spawn(Neighbour {
            spawn: vec![11, 12],
            to,
            holder,
            out: out.clone(),
        });
        assert!(system.wait_quiescent_timeout(PATIENCE));
        let sched = system.sched();
        sched.policy.wake.learned(1024);
        let deadline = Instant::now() + PATIENCE;
        while !sched.sleepers.all_parked() {
            assert!(Instant::now() < deadline, "both workers park");
            std::thread::sleep(Duration::from_millis(1));
        }

        neighbour.send(()).unwrap();
        inside
            .recv_timeout(PATIENCE)
            .expect("the holder holds its worker");
        let mut seen: Vec<u32> = (0..5)
            .map(|_| {
                reports
                    .recv_timeout(PATIENCE)
                    .expect("the neighbour's work runs while the holder blocks")
            })
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2, 3, 11, 12]);
        outside.send(()).unwrap();
        assert_eq!(reports.recv_timeout(PATIENCE), Ok(4));
        assert!(
            !left.load(Ordering::SeqCst),
            "all of it ran while the holder blocked"
        );
        drop(open);
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    //!
    //! The sleepers' list is a mutex-guarded `Vec` and a parked worker's token is loom's
    //! park and unpark; the steps are those of `Worker::doze` and `Sleepers::leave_doze`.

    use loom::sync::{Arc, Mutex};

    use super::*;

    /// One sleep of worker `me` as `Worker::doze` runs it: claim the role if vacant, park,
    /// and park again while still on the list (a nudge or a stale token, not a wake-up).
    /// Then leave: returns whom to nudge.
    fn doze(me: usize, watch: &Watch, list: &Mutex<Vec<usize>>) -> Option<usize> {
        loop {
            let _ = watch.claim(me);
            loom::thread::park();
            if !list.lock().unwrap().contains(&me) {
                break;
            }
        }
        let list = list.lock().unwrap();
        watch.leave(me, &list, |_| true)
    }

    /// Two parked workers: the watcher (0) and another (1). A waker takes the watcher off
    /// the list and unparks it while a nudge (or a stale token) reaches worker 1. Whatever
    /// the interleaving, the watcher's sleep ends (a wake-up is never lost to the loop that
    /// parks again while on the list), it names worker 1 to nudge unless worker 1 holds the
    /// role already, and once nudged worker 1 holds it while it stays on the list; taken
    /// off the list and unparked in turn, worker 1's sleep ends too.
    #[test]
    fn a_wake_up_ends_a_sleep_and_the_role_passes_to_a_worker_still_parked() {
        loom::model(|| {
            let watch = Arc::new(Watch::new());
            let list = Arc::new(Mutex::new(vec![1usize, 0]));
            assert!(watch.claim(0));
            let sleepers: Vec<_> = (0..2)
                .map(|me| {
                    let (watch, list) = (Arc::clone(&watch), Arc::clone(&list));
                    loom::thread::spawn(move || doze(me, &watch, &list))
                })
                .collect();
            let handles: Vec<_> = sleepers.iter().map(|t| t.thread().clone()).collect();
            // A stale token reaches worker 1 at any time.
            handles[1].unpark();
            // The waker takes worker 0 off the list and unparks it.
            list.lock().unwrap().retain(|&i| i != 0);
            handles[0].unpark();
            let mut sleepers = sleepers.into_iter();
            let nudge = sleepers.next().unwrap().join().unwrap();
            if let Some(k) = nudge {
                assert_eq!(k, 1, "the only worker on the list");
                handles[1].unpark();
            }
            // Worker 1 is on the list: it holds the role, or claims it when its park ends.
            if watch.watcher() != Some(1) {
                assert_eq!(nudge, Some(1), "worker 1 neither watches nor was nudged to");
            }
            list.lock().unwrap().retain(|&i| i != 1);
            handles[1].unpark();
            let last = sleepers.next().unwrap().join().unwrap();
            assert_eq!(last, None, "nobody left on the list to nudge");
            assert_eq!(
                watch.watcher(),
                None,
                "worker 1 gave the role up as it left"
            );
        });
    }

    /// A worker parks (joins the list, then claims the role) while the watcher leaves:
    /// whichever comes first, the parking worker ends up watching, by its claim or by the
    /// leaving watcher's nudge, since the watcher gives the role up before it reads the
    /// list.
    #[test]
    fn a_worker_that_parks_while_the_watcher_leaves_is_never_left_unwatched() {
        loom::model(|| {
            let watch = Arc::new(Watch::new());
            let list = Arc::new(Mutex::new(Vec::new()));
            assert!(watch.claim(0));
            let (w, l) = (Arc::clone(&watch), Arc::clone(&list));
            let parker = loom::thread::spawn(move || {
                l.lock().unwrap().push(1usize);
                w.claim(1)
            });
            // Worker 0, woken, leaves (it is off the list already).
            let nudge = {
                let list = list.lock().unwrap();
                watch.leave(0, &list, |_| true)
            };
            let claimed = parker.join().unwrap();
            assert!(
                claimed || nudge == Some(1),
                "worker 1 parked on the list with nobody watching and no nudge"
            );
        });
    }
}
