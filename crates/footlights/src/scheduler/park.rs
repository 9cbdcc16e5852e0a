//! Parking idle workers without losing a wake-up.
//!
//! A worker about to sleep first *announces* itself: it pushes its index onto the sleeper
//! list and increments `count`, then issues a `SeqCst` fence and looks at every queue once
//! more. Whoever makes work visible pushes it first, then fences, then reads `count`. By the
//! fences, either the worker's second look sees the work, or the waker sees the count and
//! unparks a sleeper (this is the store-buffer pattern: both sides cannot miss each other).
//! Unparking uses crossbeam's `Parker`, whose token also covers an unpark that comes before
//! the park.
//!
//! The list is a mutex-guarded `Vec`: it is touched only when a worker goes to sleep or is
//! woken, never on the hot path, which only reads the atomic `count`.
//!
//! # Searching workers
//!
//! A worker that runs out of work in its own queues *searches* the others for a short
//! while before it parks. While one worker searches, a waker wakes nobody: the searcher
//! will find the work (this is Go's and tokio's rule, and what stops a burst of hand-offs
//! from waking every sleeper). At most half the workers that may be awake (at least one,
//! see "As many awake as there are CPUs") search at once
//! ([`Sleepers::begin_search`], [`super::governor::tunables::SEARCHERS_OF_ACTIVE`]); the others look once and park. No wake-up is lost: a
//! searcher stops being one ([`Sleepers::end_search`]) before it announces itself, so if
//! a waker saw it searching, the SC order puts the waker's fence before the searcher's,
//! and the searcher's last look after announcing sees the work. A searcher that finds
//! work while more is visible wakes another worker, so that a burst still spreads.
//!
//! # As many awake as there are CPUs
//!
//! A pool may have more workers than the process has CPUs to run them on
//! (`FOOTLIGHTS_THREADS=8` under `taskset -c 0,1`, or a container's CPU quota). Workers
//! beyond the CPUs cannot run shared work any sooner: they take turns on the same cores
//! with the workers already awake, each woken one spins, finds little, parks and is woken
//! again, and a preempted worker holds its next slot and deque while it waits for a core.
//! So, as Go sizes its processors and tokio its workers to the CPUs, at most `active`
//! workers (the pool's size, or the CPUs in the process's affinity mask if there are
//! fewer: `crate::config::cpus`, which says why a cgroup's quota is not counted; or
//! `FOOTLIGHTS_CPUS`) are awake for shared work: a waker wakes
//! somebody for shared work (the injector, a backlog in a deque) only while more than the
//! `spare` workers (the pool's size minus `active`) are parked, that is, while fewer than
//! `active` are awake ([`Gate::worth_waking`]), and at most half of `active` (at least
//! one) search at once. Pinned work wakes its own worker whatever the count
//! ([`super::Scheduler::notify`]): an actor pinned to a stage always runs. A worker woken that way
//! takes shared work too while it is awake, so up to `active` plus the workers with
//! pinned work may be awake for a while; none is woken for shared work until the count
//! is below `active` again. With as many workers as CPUs or fewer, `spare` is 0 and this
//! rule limits nothing (64 workers on 64 CPUs: all 64 may be awake).
//!
//! No wake-up is lost by it: a waker that wakes nobody because `active` workers are
//! awake read the count after its push and fence, so each of those workers announces
//! itself after that read, and its look after announcing sees the work (the store-buffer
//! pattern above, once per worker). A waker that saw more than `spare` parked but finds,
//! under the list's lock, that another waker has taken that worker meanwhile wakes nobody
//! either (so no spare worker is ever woken for shared work): the worker taken was parked
//! when this waker read the count, and it looks for work after it wakes, which is after
//! that read. A handler that blocks its worker holds one of the
//! `active` places meanwhile; blocking actors belong on a dedicated stage
//! ([`crate::Placement::Dedicated`]), where they hold none. The workers beyond `active`
//! also start only when first woken ([`super::start`]).
//!
//! # Waking only when it pays
//!
//! A wake-up costs the waker a system call and the woken worker a trip through the
//! scheduler of the operating system, some microseconds in all. When the work handed over
//! is a few short turns (a hub actor's clients, say: chameneos's creatures), the woken
//! worker runs them, finds nothing, parks, and is woken again: two cores burn the time
//! one would have needed, and the work moves between caches. So a worker's backlog wakes
//! somebody only when its deque holds at least [`super::governor::wake::WakeThreshold::backlog`] tasks, a
//! threshold that adapts to what wake-ups achieved: a woken worker reports how long it
//! ran before it ran out of work again ([`super::governor::wake::WakeThreshold::woken_worker_ran`]); a short run
//! (under `SHORT_RUN`) doubles the threshold, a long one (over `WAKE_PAID_RUN`) halves it.
//! Parallel work (a tree of spawns, independent pairs, long computations) keeps woken
//! workers busy and the threshold at 1; a hub's backlog raises it until the second worker
//! stays asleep. Work from outside the runtime and pinned work always wake as before, and
//! a worker with a backlog below the threshold runs it itself, so no work is ever left
//! without a worker. That holds while its turns are short: behind a blocking or long turn,
//! the watcher ([`super::watch`]) steals the backlog and brings the threshold back to 1.
//!
//! # Giving back
//!
//! The threshold learns only from a woken worker that runs out of work and finds none.
//! Once two workers share a chatty group (a hub and its clients), each may keep finding
//! the group's actors in its own queues, so neither ever runs out, and the two together
//! can be slower than one. Two signs tell: a group steal that would split the only group
//! declines ([`super::group`]), and turns that flood an actor running elsewhere
//! ([`super::governor::flood`]). The worker then *gives its work back*: it hands what it
//! holds to the injector and parks while other workers' work is in sight, leaving it to
//! the workers still awake. A third sign is another worker's turn that floods the actors
//! this one runs, and asks for them ([`super::governor::flood`], "Within one turn").
//!
//! Parking with work in sight is safe only while somebody else will run that work. A
//! worker may join the sleepers that way only while at least one other worker is not
//! among them ([`Gate::try_yield`], a compare-and-swap on the same count): of all workers,
//! the last to park always does so with the look described above, and finds what the
//! others left in the shared queues. So a yielder moves its deque to the injector *before*
//! it yields (moved afterwards, a task could be in neither queue at that last look). That
//! look does not cover a yielder's own inbox, which only the yielder takes from: a task
//! pinned to it is pushed there and its waker wakes it only if it sees it parked. So the
//! yielder, once it has joined the sleepers, looks at its inbox once more (the same
//! store-buffer pattern as announcing) and withdraws if something arrived.
//!
//! The two counts that decide whether a waker wakes anybody, and the fences around them,
//! are a [`Gate`] of their own, which the loom model at the bottom of this file checks:
//! a searcher that parks while a waker finds it searching never sleeps on the work.

use crate::sync::Mutex;
use crate::sync::Unparker;

use crate::sync::{Ordering, fence};

/// The counts a waker reads: workers parked (or announced) and workers searching.
pub(crate) struct Gate {
    count: crate::sync::AtomicUsize,
    searching: crate::sync::AtomicUsize,
    /// How many workers stay parked however much shared work there is: the pool's
    /// workers beyond the CPUs it may run on (see "As many awake as there are CPUs").
    spare: usize,
}

impl Gate {
    /// A gate with `parked` workers parked from the start, of which `spare` stay parked
    /// for shared work.
    pub(crate) fn new(spare: usize, parked: usize) -> Gate {
        Gate {
            count: crate::sync::AtomicUsize::new(parked),
            searching: crate::sync::AtomicUsize::new(0),
            spare,
        }
    }

    /// Becomes one of at most `most` searchers; `false` if there are that many already.
    pub(crate) fn begin_search(&self, most: usize) -> bool {
        let mut n = self.searching.load(Ordering::Relaxed);
        loop {
            if n >= most {
                return false;
            }
            match self.searching.compare_exchange_weak(
                n,
                n + 1,
                Ordering::SeqCst,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => n = now,
            }
        }
    }

    /// Stops searching. A searcher about to park calls this before [`Gate::announce`].
    pub(crate) fn end_search(&self) {
        self.searching.fetch_sub(1, Ordering::SeqCst);
    }

    /// One more worker parked (or about to): the caller must look for work afterwards.
    pub(crate) fn announce(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
    }

    /// One more worker parked without looking for shared work afterwards, allowed only
    /// while at least one of the `workers` stays unparked (so the last one to park looks);
    /// `false` if that many are parked already. The caller must still look at its own
    /// inbox afterwards, which nobody else looks at.
    pub(crate) fn try_yield(&self, workers: usize) -> bool {
        let mut n = self.count.load(Ordering::Relaxed);
        loop {
            if n + 1 >= workers {
                return false;
            }
            match self
                .count
                .compare_exchange_weak(n, n + 1, Ordering::SeqCst, Ordering::Relaxed)
            {
                Ok(_) => {
                    // The yielder then looks at its own inbox (see "Giving back").
                    fence(Ordering::SeqCst);
                    return true;
                }
                Err(now) => n = now,
            }
        }
    }

    /// One worker fewer parked.
    pub(crate) fn withdraw(&self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }

    /// Nobody parked any more (shutdown).
    pub(crate) fn clear(&self) {
        self.count.store(0, Ordering::SeqCst);
    }

    /// After making work visible to every worker: whether a parked worker should be woken
    /// for it, that is, more workers are parked than the spare ones (fewer are awake than
    /// there are CPUs) and nobody is searching (a searcher will find the work).
    #[inline]
    pub(crate) fn worth_waking(&self) -> bool {
        fence(Ordering::SeqCst);
        self.count.load(Ordering::Relaxed) > self.spare
            && self.searching.load(Ordering::SeqCst) == 0
    }

    /// Workers parked or announced (a hint: it may change at once).
    pub(crate) fn parked(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// After making work visible to one worker: whether anybody is parked at all.
    #[inline]
    pub(crate) fn anyone_parked(&self) -> bool {
        fence(Ordering::SeqCst);
        self.count.load(Ordering::Relaxed) > 0
    }
}

/// The set of parked workers, and the counts wakers read.
pub(crate) struct Sleepers {
    parked: Mutex<Vec<usize>>,
    /// Workers parked and searching: what wakers read.
    gate: Gate,
    /// How many workers may be awake for shared work: the pool's size, or the CPUs the
    /// process may run on if there are fewer (and the governor caps them).
    active: usize,
    unparkers: Box<[Unparker]>,
}

impl Sleepers {
    /// The sleepers of a pool woken through `unparkers`, of which `active` may be awake
    /// for shared work at once. The first `active` workers are started when the system is
    /// built; the others begin on the list, as if parked (see [`super::start`]).
    pub(crate) fn new(unparkers: Box<[Unparker]>, active: usize) -> Self {
        let threads = unparkers.len();
        let active = active.clamp(1, threads);
        let mut parked = Vec::with_capacity(threads);
        // The lowest index on top: woken first, once the list holds nothing else.
        parked.extend((active..threads).rev());
        Sleepers {
            gate: Gate::new(threads - active, parked.len()),
            parked: Mutex::new(parked),
            active,
            unparkers,
        }
    }

    /// How many workers may be awake for shared work at once (and start with the system).
    pub(crate) fn active(&self) -> usize {
        self.active
    }

    /// Becomes a searcher if fewer than `most` workers search already; `false` if enough
    /// do, and the caller should look once and park.
    pub(crate) fn begin_search(&self, most: usize) -> bool {
        self.gate.begin_search(most)
    }

    /// Stops searching (found work, or about to park: call before [`Sleepers::announce`]).
    pub(crate) fn end_search(&self) {
        self.gate.end_search();
    }

    /// Whether worker `index` is on the list (parked, not yet woken).
    pub(crate) fn on_list(&self, index: usize) -> bool {
        self.parked.lock().contains(&index)
    }

    /// Runs `f` with the list of parked workers, under its lock.
    pub(crate) fn with_parked<R>(&self, f: impl FnOnce(&[usize]) -> R) -> R {
        f(&self.parked.lock())
    }

    /// Whether every worker is parked (a hint).
    pub(crate) fn all_parked(&self) -> bool {
        self.gate.parked() >= self.unparkers.len()
    }

    /// Workers not parked (a hint, at least 1 as seen from a running worker).
    pub(crate) fn awake(&self) -> usize {
        self.unparkers
            .len()
            .saturating_sub(self.gate.parked())
            .max(1)
    }

    /// Announces that worker `index` is about to park. The caller must check for work once
    /// more afterwards, and call [`Sleepers::cancel`] if it finds some.
    pub(crate) fn announce(&self, index: usize) {
        {
            let mut parked = self.parked.lock();
            if !parked.contains(&index) {
                parked.push(index);
                self.gate.announce();
                return;
            }
        }
        // Already on the list (a stale entry): the fence the look afterwards relies on.
        crate::sync::fence(Ordering::SeqCst);
    }

    /// Joins the sleepers without a last look for work, if at least one other worker
    /// stays awake to find it (see the module documentation, "Giving back");
    /// `false` if not, and the caller should search and park as usual. The caller holds no
    /// work of its own, and parks afterwards.
    pub(crate) fn announce_yield(&self, index: usize) -> bool {
        let mut parked = self.parked.lock();
        if parked.contains(&index) || !self.gate.try_yield(self.unparkers.len()) {
            return false;
        }
        parked.push(index);
        true
    }

    /// Withdraws worker `index` from the list, if a waker has not already taken it off.
    pub(crate) fn cancel(&self, index: usize) {
        let mut parked = self.parked.lock();
        if let Some(at) = parked.iter().position(|&i| i == index) {
            parked.swap_remove(at);
            self.gate.withdraw();
        }
    }

    /// After making work visible to every worker: whether a parked worker should be woken
    /// for it (somebody beyond the spare ones is parked, and nobody searches).
    #[inline]
    pub(crate) fn worth_waking(&self) -> bool {
        self.gate.worth_waking()
    }

    /// Takes one parked worker off the list to wake it, unless only spare ones are left
    /// (another waker may have taken the last worker beyond them since this one read the
    /// count: it will find the work, see "As many awake as there are CPUs").
    #[cold]
    #[inline(never)]
    pub(crate) fn take_one(&self) -> Option<usize> {
        let mut parked = self.parked.lock();
        if parked.len() <= self.gate.spare {
            return None;
        }
        let woken = parked.pop();
        if woken.is_some() {
            self.gate.withdraw();
        }
        woken
    }

    /// After making work visible to one worker: whether anybody is parked at all. By the
    /// fences, either the worker's look after announcing sees the work, or this sees it
    /// announced.
    #[inline]
    pub(crate) fn anyone_parked(&self) -> bool {
        self.gate.anyone_parked()
    }

    /// Takes worker `index` off the list if it is on it, to wake it (after
    /// [`Sleepers::anyone_parked`] said somebody is).
    pub(crate) fn take(&self, index: usize) -> bool {
        let mut parked = self.parked.lock();
        match parked.iter().position(|&i| i == index) {
            Some(at) => {
                parked.swap_remove(at);
                self.gate.withdraw();
                true
            }
            None => false,
        }
    }

    /// Puts worker `index` back on the list, at the bottom (its thread could not be
    /// started, see [`super::start`]).
    pub(crate) fn relist(&self, index: usize) {
        let mut parked = self.parked.lock();
        parked.insert(0, index);
        self.gate.announce();
    }

    /// Unparks worker `index` (taken off the list, or nudged while on it).
    pub(crate) fn unpark(&self, index: usize) {
        self.unparkers[index].unpark();
    }

    /// Wakes every worker (shutdown).
    pub(crate) fn wake_all(&self) {
        {
            let mut parked = self.parked.lock();
            parked.clear();
            self.gate.clear();
        }
        for u in self.unparkers.iter() {
            u.unpark();
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.

    use loom::sync::Arc;
    use loom::sync::atomic::AtomicBool;

    use super::*;

    /// A waker makes work visible while the only searcher gives up and parks. Whatever
    /// the interleaving, either the searcher's last look (after announcing itself) sees
    /// the work, or the waker sees a parked worker and nobody searching, and wakes it:
    /// the work is never left with its only worker asleep.
    #[test]
    fn a_searcher_that_parks_never_sleeps_on_new_work() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(0, 0));
            let work = Arc::new(AtomicBool::new(false));
            assert!(gate.begin_search(1));
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let waker = loom::thread::spawn(move || {
                w.store(true, Ordering::Relaxed);
                g.worth_waking()
            });
            // The searcher found nothing: it stops searching, announces, looks once more.
            gate.end_search();
            gate.announce();
            let saw = work.load(Ordering::Relaxed);
            let woke = waker.join().unwrap();
            assert!(saw || woke, "the work was left with its only worker asleep");
        });
    }

    /// Two workers that both see work they will not take (a ping-pong) and both try to
    /// give it back: at most one may yield, and the other parks the usual way, announcing
    /// and looking once more, so it sees the work whatever the interleaving.
    #[test]
    fn the_last_worker_awake_never_yields() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(0, 0));
            let g = Arc::clone(&gate);
            let other = loom::thread::spawn(move || g.try_yield(2));
            let here = gate.try_yield(2);
            let there = other.join().unwrap();
            assert!(!(here && there), "both workers yielded: nobody looks");
            if !here {
                // This one parks the usual way; its last look sees the work.
                gate.announce();
            }
        });
    }

    /// Another worker pushes work pinned to a worker that gives back, and wakes it only if
    /// it sees it parked (nobody else looks at that inbox). Whatever the interleaving,
    /// either the yielder's look after yielding sees the work, or the waker sees it
    /// parked: it never sleeps on its own inbox while the waker's worker goes on to park.
    /// (Looking before yielding, as the first version of giving back did, loses it: the
    /// push lands after the look, and the waker reads the count before the yield.)
    #[test]
    fn a_yielder_never_sleeps_on_its_own_inbox() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(0, 0));
            let inbox = Arc::new(AtomicBool::new(false));
            let (g, i) = (Arc::clone(&gate), Arc::clone(&inbox));
            let waker = loom::thread::spawn(move || {
                i.store(true, Ordering::Relaxed);
                g.anyone_parked()
            });
            let yielded = gate.try_yield(2);
            let saw = yielded && inbox.load(Ordering::Relaxed);
            let woke = waker.join().unwrap();
            if yielded {
                assert!(saw || woke, "the yielder slept on its own inbox");
            }
        });
    }

    /// All three workers of a system try to give back at once: at most two may, so one is
    /// left to park the usual way, looking for work after it announces itself.
    #[test]
    fn yields_always_leave_one_worker_to_look() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(0, 0));
            let yielders: Vec<_> = (0..2)
                .map(|_| {
                    let g = Arc::clone(&gate);
                    loom::thread::spawn(move || g.try_yield(3))
                })
                .collect();
            let here = gate.try_yield(3);
            let yielded = yielders
                .into_iter()
                .map(|t| t.join().unwrap())
                .filter(|&y| y)
                .count()
                + usize::from(here);
            assert!(yielded <= 2, "{yielded} of 3 workers yielded: nobody looks");
            assert_eq!(gate.count.load(Ordering::SeqCst), yielded);
        });
    }

    /// Three workers on two CPUs: one is spare (parked, and not to be woken for shared
    /// work while two are awake), and both awake workers run out of work and park while
    /// a thread outside pushes shared work. Whatever the interleaving, either one of them
    /// sees the work in its look after announcing, or the waker sees more than the spare
    /// worker parked and wakes somebody.
    #[test]
    fn workers_beyond_the_cpus_never_leave_work_with_every_worker_asleep() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(1, 1));
            let work = Arc::new(AtomicBool::new(false));
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let waker = loom::thread::spawn(move || {
                w.store(true, Ordering::Relaxed);
                g.worth_waking()
            });
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let other = loom::thread::spawn(move || {
                g.announce();
                w.load(Ordering::Relaxed)
            });
            gate.announce();
            let saw = work.load(Ordering::Relaxed);
            let other_saw = other.join().unwrap();
            let woke = waker.join().unwrap();
            assert!(
                saw || other_saw || woke,
                "the work was left with every worker asleep"
            );
        });
    }

    /// The spare worker alone parked, and the two awake workers still busy: the waker
    /// wakes nobody (the awake workers will find the work), so a pool never has more
    /// workers awake for shared work than CPUs.
    #[test]
    fn a_waker_never_wakes_a_spare_worker() {
        loom::model(|| {
            let gate = Gate::new(1, 1);
            assert!(!gate.worth_waking(), "woke a worker beyond the CPUs");
            gate.announce();
            assert!(gate.worth_waking(), "one of the two awake workers parked");
        });
    }

    /// While a second worker still searches, the waker may leave the work to it; the
    /// searcher that parks meanwhile still never misses work the waker saw it searching
    /// for (the remaining searcher's own last look is the same protocol).
    #[test]
    fn a_waker_that_skips_for_a_searcher_leaves_the_work_seen() {
        loom::model(|| {
            let gate = Arc::new(Gate::new(0, 0));
            let work = Arc::new(AtomicBool::new(false));
            assert!(gate.begin_search(2));
            assert!(gate.begin_search(2));
            assert!(!gate.begin_search(2), "at most two searchers");
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let waker = loom::thread::spawn(move || {
                w.store(true, Ordering::Relaxed);
                g.worth_waking()
            });
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let other = loom::thread::spawn(move || {
                // The second searcher also gives up and parks.
                g.end_search();
                g.announce();
                w.load(Ordering::Relaxed)
            });
            gate.end_search();
            gate.announce();
            let saw = work.load(Ordering::Relaxed);
            let other_saw = other.join().unwrap();
            let woke = waker.join().unwrap();
            assert!(
                saw || other_saw || woke,
                "the work was left with every worker asleep"
            );
        });
    }
}
