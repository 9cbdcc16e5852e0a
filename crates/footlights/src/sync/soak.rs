//! Small soak programs under shuttle's schedules, each replayable from its seeds.
//!
//! The soak (`tests/soak.rs`) draws a program from a seed but runs it on real threads:
//! the interleaving is the machine's, so a failure may not come back. This model runs
//! small programs drawn by the soak's own generator (`tests/soak/plan.rs`, shrunk: at
//! most four nodes, 10 to 30 tokens of at most four hops, one or two workers) under
//! shuttle's random and PCT schedulers, where the program's seed and the schedule's seed
//! together name one run, which `FOOTLIGHTS_SHUTTLE_PLAN=<plan> FOOTLIGHTS_SHUTTLE_SEED=
//! <seed>` replays (the failure prints the command).
//!
//! # What runs, and what stands in
//!
//! Shuttle controls only what goes through `crate::sync`. What runs here is the runtime's
//! own: each node's mailbox ([`crate::mailbox`]: push, the cursor's turn, mark-idle and
//! the idle-to-scheduled hand-off, close, and take-back after a push that found the
//! mailbox closed), the scheduler's queues as the shuttle build provides them
//! (`crate::sync::deque`: a worker's deque, the shared injector, the stages' inboxes,
//! batch steals and retries) and its parkers (`crate::sync::Parker`). The workers are
//! shuttle threads running a loop shaped like the scheduler's: own deque first, then the
//! injector, then stealing (the `steal` kind); the injector alone (`share`); its own
//! stage's inbox (`stages`); a turn takes a batch, then marks the node idle or queues it
//! again; a push that wakes a node queues it where the kind says (or, under the inline
//! policy, runs its turn on the sender's thread, one level deep), and unparks.
//!
//! The scheduler's own worker loop does not run under shuttle: it spawns OS threads,
//! keeps the current worker in thread-locals (which shuttle's threads, all on one OS
//! thread, would share), and paces itself and its parking by the clock, none of which
//! goes through `crate::sync`; nor do the timer thread, futures or the handlers' panics
//! and restarts (a panic is a token lost with its handler; a stop closes the node's
//! mailbox). `docs/soak.md` draws the boundary.
//!
//! # What is checked
//!
//! No node's turn runs on two threads at once; per sender and receiver, tokens arrive in
//! the order sent and none twice; every token ends exactly once (handled at its last hop,
//! lost with a panicking handler, returned to its sender by a push that found the node
//! closed, or dropped as a dead letter by the close); no mailbox is left holding a
//! message; and no worker parks for good while work is queued (shuttle reports a
//! deadlock).

#[cfg(all(test, shuttle))]
#[allow(dead_code)]
#[path = "../../tests/soak/plan.rs"]
mod plan;

mod shuttle_models {
    use std::sync::Arc;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use shuttle::thread;

    use super::plan::Plan;
    use crate::mailbox::{Mailbox, Push};
    use crate::sync::deque::{Injector, Steal, Stealer, Worker};
    use crate::sync::{AtomicBool, AtomicUsize, Mutex, Ordering, Parker, Unparker};
    use crate::{Policy, SchedulerKind};

    /// A turn takes at most this many messages, then queues its node again.
    const BATCH: usize = 3;

    /// One token on one hop.
    #[derive(Debug)]
    struct Token {
        id: usize,
        /// The sending node, or the driver (`nodes`).
        from: usize,
        /// Per sender and receiver: 0, 1, 2, ...
        seq: u32,
        hops_left: u32,
    }

    /// How a token ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum End {
        Handled,
        Lost,
        Returned,
        Dead,
    }

    /// A program, shrunk from a soak plan.
    struct Small {
        plan: Plan,
        kind: SchedulerKind,
        inline: bool,
        workers: usize,
        tokens: usize,
        hops: u32,
        /// Per node: it stops (closes its mailbox) after handling this many tokens.
        stops: Vec<Option<usize>>,
        /// Per token: its handler panics at its first hop (the token is lost with it).
        lost: Vec<bool>,
    }

    impl Small {
        fn of(seed: u64) -> Small {
            let mut plan = Plan::new(seed, 1);
            plan.nodes = plan.nodes.min(4);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5ca1_ab1e);
            let tokens = 10 + (plan.tokens % 21) as usize;
            let stops = (0..plan.nodes)
                .map(|_| {
                    (plan.stop_self_ppm > 0 && rng.random_bool(0.3))
                        .then(|| rng.random_range(1..tokens))
                })
                .collect();
            let lost = (0..tokens)
                .map(|_| plan.panic_ppm > 0 && rng.random_bool(0.1))
                .collect();
            Small {
                kind: plan.scheduler,
                inline: plan.policy == Policy::Inline,
                workers: plan.threads.min(2),
                tokens,
                hops: plan.hops.min(4),
                stops,
                lost,
                plan,
            }
        }
    }

    /// What only a node's consumer touches (under a lock nobody contends).
    struct Own {
        /// Per sender (the driver last): the last sequence number received.
        last_seen: Vec<Option<u32>>,
        /// Per target: the next sequence number to send.
        next_seq: Vec<u32>,
        handled: usize,
    }

    struct Node {
        mailbox: Mailbox<Token>,
        running: AtomicBool,
        own: Mutex<Own>,
    }

    /// The program's shared state: its nodes, the scheduler's queues, and the ledger.
    struct Run {
        small: Small,
        nodes: Vec<Node>,
        injector: Injector<usize>,
        stealers: Vec<Stealer<usize>>,
        stages: Vec<Injector<usize>>,
        unparkers: Vec<Unparker>,
        ended: Mutex<Vec<Option<End>>>,
        ended_count: AtomicUsize,
        done: AtomicBool,
    }

    impl Run {
        /// Notes how token `id` ended; ends the run after the last.
        fn end(&self, id: usize, how: End) {
            let before = self.ended.lock()[id].replace(how);
            assert_eq!(
                before, None,
                "token {id} ended twice: {before:?}, then {how:?}"
            );
            if self.ended_count.fetch_add(1, Ordering::SeqCst) + 1 == self.small.tokens {
                self.done.store(true, Ordering::SeqCst);
                for u in &self.unparkers {
                    u.unpark();
                }
            }
        }

        /// Queues node `n`, whose push found it idle, where the scheduler kind says, and
        /// wakes who may take it. `local`: the deque of the worker that queues it.
        fn schedule(&self, n: usize, local: Option<&Worker<usize>>) {
            match self.small.kind {
                SchedulerKind::Steal => match local {
                    Some(deque) => deque.push(n),
                    None => self.injector.push(n),
                },
                SchedulerKind::Share => self.injector.push(n),
                SchedulerKind::Stages => {
                    let stage = n % self.small.workers;
                    self.stages[stage].push(n);
                    self.unparkers[stage].unpark();
                    return;
                }
            }
            for u in &self.unparkers {
                u.unpark();
            }
        }

        /// Sends `token` to node `to` from `from`'s thread: what the push found decides
        /// what the sender does next.
        fn send(&self, to: usize, token: Token, local: Option<&Worker<usize>>, depth: u32) {
            let id = token.id;
            match self.nodes[to].mailbox.push(token) {
                Push::Queued => {}
                Push::Woke if self.small.inline && local.is_some() && depth == 0 => {
                    self.turn(to, local, depth + 1);
                }
                Push::Woke => self.schedule(to, local),
                Push::Closed => {
                    // SAFETY: this push found the mailbox closed: this thread is its consumer.
                    let back = unsafe {
                        self.nodes[to]
                            .mailbox
                            .take_back(|t| self.end(t.id, End::Dead))
                    };
                    assert_eq!(
                        back.id, id,
                        "the push that found a close takes its own back"
                    );
                    self.end(back.id, End::Returned);
                }
            }
        }

        /// One turn of node `n`, run by the party that scheduled it.
        fn turn(&self, n: usize, local: Option<&Worker<usize>>, depth: u32) {
            let node = &self.nodes[n];
            assert!(
                !node.running.swap(true, Ordering::SeqCst),
                "node {n} ran on two threads at once"
            );
            let mut own = node.own.lock();
            // SAFETY: the hand-off (a push that found the node idle, then one queue, then
            // this turn) makes this thread the only consumer until it marks the node idle.
            let mut cursor = unsafe { node.mailbox.cursor() };
            let mut stop = false;
            for _ in 0..BATCH {
                let Some(token) = cursor.pop() else { break };
                let sender = &mut own.last_seen[token.from];
                assert!(
                    sender.is_none_or(|last| last < token.seq),
                    "node {n} got token {} from {} out of order or twice (seq {} after {sender:?})",
                    token.id,
                    token.from,
                    token.seq
                );
                *sender = Some(token.seq);
                own.handled += 1;
                stop = self.small.stops[n] == Some(own.handled);
                if self.small.lost[token.id] && token.hops_left == self.small.hops {
                    self.end(token.id, End::Lost);
                } else if token.hops_left == 0 {
                    self.end(token.id, End::Handled);
                } else {
                    let targets = self.small.plan.targets(n);
                    let to = targets[(token.id + token.hops_left as usize) % targets.len()];
                    let seq = own.next_seq[to];
                    own.next_seq[to] += 1;
                    let next = Token {
                        id: token.id,
                        from: n,
                        seq,
                        hops_left: token.hops_left - 1,
                    };
                    self.send(to, next, local, depth);
                }
                if stop {
                    break;
                }
            }
            if stop {
                cursor.finish();
                drop(own);
                node.running.store(false, Ordering::SeqCst);
                // SAFETY: still the only consumer; the close gives the role up for good.
                unsafe { node.mailbox.close(|t| self.end(t.id, End::Dead)) };
                return;
            }
            let more = !cursor.is_empty();
            cursor.finish();
            drop(own);
            node.running.store(false, Ordering::SeqCst);
            // SAFETY: still the only consumer until the node is marked idle.
            if more || !unsafe { node.mailbox.mark_idle() } {
                self.schedule(n, local);
            }
        }

        /// Worker `me`'s next node: from its own deque, the injector, or another's deque
        /// (`steal`); the injector (`share`); its stage's inbox (`stages`). Retries what
        /// answered [`Steal::Retry`] until everything answered empty.
        fn find(&self, me: usize, local: &Worker<usize>) -> Option<usize> {
            loop {
                let mut retry = false;
                let mut look = |s: Steal<usize>| match s {
                    Steal::Success(n) => Some(n),
                    Steal::Retry => {
                        retry = true;
                        None
                    }
                    Steal::Empty => None,
                };
                let found = match self.small.kind {
                    SchedulerKind::Steal => local
                        .pop()
                        .or_else(|| look(self.injector.steal_batch_and_pop(local)))
                        .or_else(|| {
                            (0..self.small.workers)
                                .filter(|&v| v != me)
                                .find_map(|v| look(self.stealers[v].steal_batch_and_pop(local)))
                        }),
                    SchedulerKind::Share => look(self.injector.steal()),
                    SchedulerKind::Stages => look(self.stages[me].steal()),
                };
                if found.is_some() || !retry {
                    return found;
                }
                thread::yield_now();
            }
        }

        fn work(&self, me: usize, local: Worker<usize>, parker: Parker) {
            loop {
                if let Some(n) = self.find(me, &local) {
                    self.turn(n, Some(&local), 0);
                    continue;
                }
                if self.done.load(Ordering::SeqCst) {
                    return;
                }
                parker.park();
            }
        }
    }

    /// Runs program `seed` once, under the schedule shuttle is drawing.
    fn program(seed: u64) {
        let small = Small::of(seed);
        let nodes = small.plan.nodes;
        let workers = small.workers;
        let deques: Vec<Worker<usize>> = (0..workers).map(|_| Worker::new_fifo()).collect();
        let parkers: Vec<Parker> = (0..workers).map(|_| Parker::new()).collect();
        let run = Arc::new(Run {
            nodes: (0..nodes)
                .map(|_| Node {
                    mailbox: Mailbox::new(),
                    running: AtomicBool::new(false),
                    own: Mutex::new(Own {
                        last_seen: vec![None; nodes + 1],
                        next_seq: vec![0; nodes],
                        handled: 0,
                    }),
                })
                .collect(),
            injector: Injector::new(),
            stealers: deques.iter().map(Worker::stealer).collect(),
            stages: (0..workers).map(|_| Injector::new()).collect(),
            unparkers: parkers.iter().map(|p| p.unparker().clone()).collect(),
            ended: Mutex::new(vec![None; small.tokens]),
            ended_count: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            small,
        });
        for node in &run.nodes {
            // SAFETY: the mailbox is at its final address (inside the Arc), not shared yet.
            unsafe { node.mailbox.init(true) };
        }
        let threads: Vec<_> = deques
            .into_iter()
            .zip(parkers)
            .enumerate()
            .map(|(me, (local, parker))| {
                let run = Arc::clone(&run);
                thread::spawn(move || run.work(me, local, parker))
            })
            .collect();
        // The driver: a thread outside the runtime, injecting every token.
        let mut next_seq = vec![0u32; nodes];
        for id in 0..run.small.tokens {
            let to = id % nodes;
            let token = Token {
                id,
                from: nodes,
                seq: next_seq[to],
                hops_left: run.small.hops,
            };
            next_seq[to] += 1;
            run.send(to, token, None, 0);
        }
        for t in threads {
            t.join().expect("a worker panicked");
        }
        let ended = run.ended.lock();
        let open: Vec<usize> = (0..ended.len()).filter(|&i| ended[i].is_none()).collect();
        assert!(open.is_empty(), "tokens never ended: {open:?}");
        drop(ended);
        for (n, node) in run.nodes.iter().enumerate() {
            assert!(node.mailbox.is_idle(), "node {n} left scheduled");
            // SAFETY: every thread but this one has ended.
            assert!(
                unsafe { node.mailbox.pop() }.is_none(),
                "node {n} kept a message"
            );
        }
    }

    /// The soak's first 27 programs (every scheduler kind under every policy, at 1 and 2
    /// workers), shrunk, each under random and PCT schedules (300 of each unless
    /// `FOOTLIGHTS_SHUTTLE_ITERATIONS` says); `FOOTLIGHTS_SHUTTLE_PLAN=<seed>` runs one
    /// program alone.
    #[test]
    fn small_soak_programs() {
        let plans: Vec<u64> =
            match std::env::var("FOOTLIGHTS_SHUTTLE_PLAN") {
                Ok(v) => vec![v.parse().unwrap_or_else(|_| {
                    panic!("FOOTLIGHTS_SHUTTLE_PLAN={v:?}: not a whole number")
                })],
                Err(_) => (0..27).collect(),
            };
        for seed in plans {
            crate::sync::explore_with(
                "small_soak_programs",
                &format!("FOOTLIGHTS_SHUTTLE_PLAN={seed} "),
                300,
                move || program(seed),
            );
        }
    }
}
