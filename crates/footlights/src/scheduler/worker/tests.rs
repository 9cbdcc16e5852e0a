//! The worker's mechanisms on workers built without their threads: the order of its local
//! queues, the next slot's streak, stealing between a constructed pair, and which
//! mechanisms each rule of the governor switches.

use std::sync::{Arc, Mutex};

use super::super::governor::tunables::NEXT_SLOT_STREAK;
use super::super::home::{Home, Target};
use super::super::{Governor, Rule, Scheduler, SchedulerConfig, SchedulerKind, Site, Task};
use super::Worker;
use crate::scheduler::scheduled::{InPlace, Runnable};

/// A task that records its id when it runs a turn.
struct Probe {
    home: Home,
    id: u32,
    log: Arc<Mutex<Vec<u32>>>,
}

impl Runnable for Probe {
    fn run_turns(self: Arc<Self>, worker: &Worker, in_place: Option<InPlace>) -> Option<Task> {
        self.log.lock().unwrap().push(self.id);
        in_place.and_then(|_| worker.pick())
    }
    fn home(&self) -> &Home {
        &self.home
    }
    fn is_stopped(&self) -> bool {
        false
    }
    unsafe fn discard(&self) {}
}

/// A scheduler of `threads` pool workers under `governor`, whose threads are not started.
fn scheduler(threads: usize, governor: Governor) -> Arc<Scheduler> {
    Scheduler::new(
        SchedulerConfig {
            threads,
            batch: 100,
            kind: SchedulerKind::Steal,
            max_dedicated: 1,
            cpus: threads,
            governor,
        },
        None,
    )
}

/// Pool worker `index` of `sched`, on this thread.
fn worker(sched: &Arc<Scheduler>, index: usize) -> Worker {
    Worker::new(Arc::clone(sched), sched.starter.take_seed(index))
}

/// A pool task `id` that logs to `log`.
fn task(id: u32, log: &Arc<Mutex<Vec<u32>>>) -> Task {
    Arc::new(Probe {
        home: Home::new(Target::Site(Site::Pool), false),
        id,
        log: Arc::clone(log),
    })
}

/// Runs every task `w` picks, in order, and returns what they logged.
fn run_all(w: &Worker, log: &Arc<Mutex<Vec<u32>>>) -> Vec<u32> {
    while let Some(task) = w.next_task() {
        task.run_turn(w);
    }
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn a_hand_off_runs_next_and_what_it_displaced_waits_in_fifo_order() {
    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    let log = Arc::new(Mutex::new(Vec::new()));
    for id in 1..=4 {
        w.schedule(task(id, &log), Site::Pool);
    }
    // The last hand-off is in the next slot; the ones it displaced went to the deque,
    // oldest first.
    assert_eq!(w.queue.len(), 3);
    assert_eq!(run_all(&w, &log), [4, 1, 2, 3]);
    assert!(w.next_task().is_none());
}

#[test]
fn a_chain_of_hand_offs_lets_the_deque_in_after_its_streak() {
    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    let log = Arc::new(Mutex::new(Vec::new()));
    // Task 0 waits in the deque behind a chain whose every turn hands off to a new task.
    w.schedule(task(0, &log), Site::Pool);
    w.schedule(task(1, &log), Site::Pool);
    let mut chain = 0;
    loop {
        let next = w.next_task().expect("the chain goes on");
        next.run_turn(&w);
        if log.lock().unwrap().last() == Some(&0) {
            break;
        }
        chain += 1;
        assert!(chain <= NEXT_SLOT_STREAK, "the deque starved");
        w.schedule(task(1000 + chain, &log), Site::Pool);
    }
    assert_eq!(
        chain, NEXT_SLOT_STREAK,
        "the chain ran its streak, then the deque"
    );
}

#[test]
fn a_worker_steals_half_of_another_workers_deque() {
    let sched = scheduler(2, Governor::adaptive());
    let (busy, idle) = (worker(&sched, 0), worker(&sched, 1));
    let log = Arc::new(Mutex::new(Vec::new()));
    for id in 0..9 {
        busy.schedule(task(id, &log), Site::Pool);
    }
    assert_eq!(busy.queue.len(), 8);
    let first = idle.steal().expect("the busy worker's deque holds work");
    first.run_turn(&idle);
    let stats = idle.stats();
    assert_eq!(stats.steals.load(std::sync::atomic::Ordering::Relaxed), 1);
    let moved = stats.stolen.load(std::sync::atomic::Ordering::Relaxed);
    assert!((2..=8).contains(&moved), "stole {moved} of 8");
    assert_eq!(busy.queue.len() as u64, 8 - moved);
    // The thief took the oldest tasks; the victim keeps the newest, in order.
    assert_eq!(std::mem::take(&mut *log.lock().unwrap()), [0]);
    let mine = run_all(&busy, &log);
    assert_eq!(mine[0], 8, "the next slot first");
    assert!(
        mine[1..].windows(2).all(|w| w[0] < w[1]),
        "the victim's deque stays in order: {mine:?}"
    );
}

#[test]
fn a_spawn_waits_in_the_nursery_newest_first_unless_the_rule_is_off() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    for id in 1..=3 {
        w.spawned(task(id, &log), Site::Pool);
    }
    assert_eq!(w.nursery.len(), 3);
    assert_eq!(
        run_all(&w, &log),
        [3, 2, 1],
        "depth first: newest spawn first"
    );

    let sched = scheduler(2, Governor::adaptive().without(Rule::Nursery));
    let w = worker(&sched, 0);
    for id in 1..=3 {
        w.spawned(task(id, &log), Site::Pool);
    }
    assert_eq!(
        w.nursery.len(),
        0,
        "without the nursery a spawn is a hand-off"
    );
    assert_eq!(run_all(&w, &log), [3, 1, 2]);
}

#[test]
fn a_lone_worker_keeps_fifo_order_unless_the_rule_is_off() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sched = scheduler(1, Governor::adaptive());
    let w = worker(&sched, 0);
    assert!(w.keeps_fifo());
    for id in 1..=4 {
        w.schedule(task(id, &log), Site::Pool);
    }
    assert_eq!(run_all(&w, &log), [1, 2, 3, 4]);

    let sched = scheduler(1, Governor::adaptive().without(Rule::Fifo));
    let w = worker(&sched, 0);
    assert!(!w.keeps_fifo());
    for id in 1..=4 {
        w.schedule(task(id, &log), Site::Pool);
    }
    assert_eq!(run_all(&w, &log), [4, 1, 2, 3], "hand-off order");
}

#[test]
fn each_rule_switches_its_mechanism_on_a_worker_of_several() {
    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    assert_eq!(w.flood_stage(), Some(0));
    assert!(!w.sightings.is_empty(), "it may watch");
    assert!(w.nursery_spawns);

    let sched = scheduler(2, Governor::plain());
    let w = worker(&sched, 0);
    assert_eq!(w.flood_stage(), None, "nobody counts cross pushes");
    assert!(w.sightings.is_empty(), "nobody watches");
    assert!(!w.nursery_spawns);
    assert!(!w.keeps_fifo());
}

#[test]
fn the_cap_leaves_workers_beyond_the_cpus_parked_unless_it_is_off() {
    let config = |governor| SchedulerConfig {
        threads: 4,
        batch: 100,
        kind: SchedulerKind::Steal,
        max_dedicated: 1,
        cpus: 2,
        governor,
    };
    let capped = Scheduler::new(config(Governor::adaptive()), None);
    assert_eq!(capped.sleepers.active(), 2);
    assert_eq!(capped.sleepers.awake(), 2, "two begin on the list");
    let free = Scheduler::new(config(Governor::adaptive().without(Rule::Cap)), None);
    assert_eq!(free.sleepers.active(), 4);
    assert_eq!(free.sleepers.awake(), 4);
}

#[test]
fn a_thief_that_labels_takes_whole_groups_and_gives_the_others_back() {
    let sched = scheduler(2, Governor::adaptive());
    let (victim, thief) = (worker(&sched, 0), worker(&sched, 1));
    let log = Arc::new(Mutex::new(Vec::new()));
    // Two groups of four, interleaved in the victim's deque (ids 0, 2, 4, 6 and 1, 3, 5,
    // 7); a ninth task stays in its next slot.
    let tasks: Vec<Task> = (0..8).map(|id| task(id, &log)).collect();
    for (i, t) in tasks.iter().enumerate().skip(2) {
        t.home().group.woken_by(tasks[i % 2].home().group.label());
    }
    for t in tasks {
        victim.schedule(t, Site::Pool);
    }
    victim.schedule(task(8, &log), Site::Pool);
    assert_eq!(victim.queue.len(), 8);
    thief.set_grouping(true);
    let first = thief.steal().expect("groups to take");
    let label = first.home().group.label();
    let mut kept = vec![first];
    while let Some(t) = thief.queue.pop() {
        kept.push(t);
    }
    assert_eq!(kept.len(), 4, "one whole group of the two");
    assert!(kept.iter().all(|t| t.home().group.label() == label));
    // The other group went back to the victim's inbox, whole.
    let mut back = Vec::new();
    while let Some(t) = victim.stage.take() {
        back.push(t);
    }
    assert_eq!(back.len(), 4);
    assert!(back.iter().all(|t| t.home().group.label() != label));
    assert_eq!(victim.queue.len(), 0);
}

/// The flags the hot path reads instead of several (`noted`, `pool_hand_off`) follow the
/// switches they stand for: the governor's labels verdict and FIFO order.
#[test]
fn the_hot_paths_flags_follow_the_governors_switches() {
    use super::{FIFO, GROUPING, PLAIN, POOL_IN_ORDER, POOL_NEXT, POOL_OTHER};
    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    assert!(!w.noted.get());
    assert_eq!(w.pool_hand_off.get(), POOL_NEXT);
    w.set_grouping(true);
    assert!(w.noted.get(), "a worker that labels notes every turn");
    assert_eq!(w.hand_off_mode.get(), GROUPING);
    assert_eq!(w.pool_hand_off.get(), POOL_OTHER, "labelled first");
    w.set_grouping(false);
    assert!(!w.noted.get());
    assert_eq!(w.pool_hand_off.get(), POOL_NEXT);

    // A lone worker in FIFO order, then (as automatic placement may switch it) not.
    let sched = scheduler(1, Governor::adaptive());
    let w = worker(&sched, 0);
    assert_eq!(w.hand_off_mode.get(), FIFO);
    assert_eq!(w.pool_hand_off.get(), POOL_IN_ORDER);
    w.set_fifo(false);
    assert_eq!(w.hand_off_mode.get(), PLAIN);
    assert_eq!(
        w.pool_hand_off.get(),
        POOL_OTHER,
        "pinned to the lone worker"
    );
    w.set_fifo(true);
    assert_eq!(w.pool_hand_off.get(), POOL_IN_ORDER);

    // Without the FIFO rule a lone worker hands off in plain order from the start.
    let sched = scheduler(1, Governor::adaptive().without(Rule::Fifo));
    let w = worker(&sched, 0);
    assert_eq!(w.pool_hand_off.get(), POOL_OTHER);
    assert!(!w.noted.get());
}

/// The hot fields (everything up to the sampler's recorder and `sampling` flag, see
/// `Worker`'s `repr(C)`) lie within the first 128 bytes, where an x86 instruction
/// addresses them with a one-byte displacement (`docs/scaling.md`, "The hot path").
#[test]
fn hot_fields_lie_in_the_first_128_bytes() {
    use std::mem::{offset_of, size_of};
    let sampler_hot = size_of::<Option<Box<dyn super::super::probe::Recorder>>>() + 1;
    let end = offset_of!(Worker, sampler) + sampler_hot;
    assert!(end <= 128, "the hot fields end at byte {end}");
    assert!(offset_of!(Worker, sampler) > offset_of!(Worker, local));
    assert!(offset_of!(Worker, queue) > offset_of!(Worker, sampler));
}

/// A pool worker of several that is alone for now (the other parked, waking found not to
/// pay) keeps FIFO order and hands off through its own byte. Work other threads scheduled
/// (the injector, its stage's inbox) is looked at every [`ABSORB_EVERY`] picks, as before;
/// its company only every [`ALONE_LOOK_EVERY`], unless waking pays again (long turns seen),
/// when the look is every [`ABSORB_EVERY`] picks again.
#[test]
fn a_worker_alone_for_now_looks_at_its_company_every_alone_look_picks() {
    use super::super::governor::tunables::{ABSORB_EVERY, ALONE_LOOK_EVERY, MAX_WAKE_BACKLOG};
    use super::POOL_IN_ORDER_SHARED;
    use std::time::Duration;

    let sched = scheduler(2, Governor::adaptive());
    let w = worker(&sched, 0);
    let log = Arc::new(Mutex::new(Vec::new()));
    let tasks = 2 * ALONE_LOOK_EVERY;
    // Worker 1 parks; wake-ups were found not to pay, up to the highest threshold (so
    // that no backlog below wakes anybody); worker 0 sees it is alone, and queues `tasks`.
    let alone_with_tasks = || {
        sched.sleepers.announce(1);
        while sched.policy.wake.backlog() < MAX_WAKE_BACKLOG {
            sched.policy.wake.woken_worker_ran(Duration::ZERO, false);
        }
        w.refresh_alone();
        assert!(w.keeps_fifo(), "alone for now");
        for id in 0..tasks {
            w.schedule(task(id, &log), Site::Pool);
        }
    };
    alone_with_tasks();
    assert_eq!(w.pool_hand_off.get(), POOL_IN_ORDER_SHARED);
    sched.injector.push(task(999, &log));
    let order = run_all(&w, &log);
    assert_eq!(
        order.iter().position(|&id| id == 999),
        Some(ABSORB_EVERY as usize - 1),
        "work from outside runs at the first cadence pick"
    );
    let rest: Vec<u32> = order.into_iter().filter(|&id| id != 999).collect();
    assert_eq!(rest, (0..tasks).collect::<Vec<_>>(), "FIFO order");

    // Picks until the worker leaves FIFO order: how many it took, and the count of the
    // pick that left it.
    let picks_until_published = || {
        let mut picked = 0;
        while w.keeps_fifo() {
            w.next_task().expect("tasks wait").run_turn(&w);
            picked += 1;
        }
        let at = w.picks.get();
        assert!(!w.queue.is_empty(), "published where worker 1 can steal");
        run_all(&w, &log);
        (picked, at)
    };
    // Worker 1 wakes: the look that sees it, and publishes the FIFO, comes at the next
    // multiple of ALONE_LOOK_EVERY picks, not before.
    for id in 0..tasks {
        w.schedule(task(id, &log), Site::Pool);
    }
    sched.sleepers.cancel(1);
    let (picked, at) = picks_until_published();
    assert_eq!(at % ALONE_LOOK_EVERY, 0, "left FIFO order at a look");
    assert!(picked > ABSORB_EVERY, "not at the next cadence pick");

    // Alone again; then long turns make waking pay (the threshold back to 1): the next
    // cadence pick looks, and leaves FIFO order.
    alone_with_tasks();
    sched.sleepers.cancel(1);
    sched.policy.wake.long_turn_seen();
    let (picked, at) = picks_until_published();
    assert_eq!(at % ABSORB_EVERY, 0);
    assert_ne!(
        at % ALONE_LOOK_EVERY,
        0,
        "a pick the skip would have passed over"
    );
    assert!(picked <= ABSORB_EVERY, "left at the next cadence pick");

    // Alone again, with a task another thread pinned to this worker's stage waiting in its
    // inbox: the look comes at the next cadence pick, and queues it behind the FIFO.
    alone_with_tasks();
    w.stage.push(task(777, &log));
    let next_cadence = ABSORB_EVERY - w.picks.get() % ABSORB_EVERY;
    assert_ne!(
        (w.picks.get() + next_cadence) % ALONE_LOOK_EVERY,
        0,
        "a pick the skip would pass over"
    );
    for _ in 0..next_cadence {
        assert!(
            !w.stage.inbox.is_empty(),
            "not taken in before the cadence pick"
        );
        w.next_task().expect("tasks wait").run_turn(&w);
    }
    assert!(w.stage.inbox.is_empty(), "taken in at the cadence pick");
    let order = run_all(&w, &log);
    assert_eq!(
        order.last(),
        Some(&777),
        "behind what the worker queued itself"
    );
}

#[test]
fn a_searcher_on_one_cpu_yields_between_looks_and_still_finds_work() {
    let on = |cpus| {
        Scheduler::new(
            SchedulerConfig {
                threads: 2,
                batch: 100,
                kind: SchedulerKind::Steal,
                max_dedicated: 1,
                cpus,
                governor: Governor::adaptive(),
            },
            None,
        )
    };
    assert!(!on(2).search_yields, "two CPUs: a searcher spins");
    let sched = on(1);
    assert!(sched.search_yields, "one CPU: a searcher yields");
    let (busy, idle) = (worker(&sched, 0), worker(&sched, 1));
    assert!(idle.search().is_none(), "nothing to find: the search ends");
    let log = Arc::new(Mutex::new(Vec::new()));
    for id in 0..3 {
        busy.schedule(task(id, &log), Site::Pool);
    }
    let found = idle.search().expect("the busy worker's deque holds work");
    found.run_turn(&idle);
    assert_eq!(*log.lock().unwrap(), [0], "the oldest task, stolen");
}
