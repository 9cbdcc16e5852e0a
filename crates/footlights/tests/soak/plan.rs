//! A soak program drawn from a seed: the system's configuration, the actors and how they
//! are tied, the traffic, and the faults.
//!
//! Everything random about a program is drawn here, from its seed alone, so that the
//! seed names the program (the interleaving of its threads is the machine's: see the
//! `shuttle` build for schedules that replay too).

use footlights::supervision::{Restart, Strategy};
use footlights::{Policy, SchedulerKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the nodes send to one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// Node i sends to i + 1, the last to the first.
    Ring,
    /// Node i sends to its children 2i + 1 and 2i + 2; the leaves back to the root.
    Tree,
    /// Every node sends to node 0, which sends to any.
    FanIn,
    /// Node 0 sends to any; the others back to node 0.
    FanOut,
    /// Node i asks node i + 1 and answers when its own ask is answered (the last answers
    /// at once): a request/reply chain; tokens go back up the chain.
    Chain,
}

/// A node's supervision.
#[derive(Clone, Copy, Debug)]
pub struct Supervised {
    /// Which supervisor (an index into [`Plan::supervisors`]).
    pub under: usize,
    pub restart: Restart,
}

/// A supervisor: its strategy, its intensity (restarts per hour) and its parent.
#[derive(Clone, Copy, Debug)]
pub struct Sup {
    pub strategy: Strategy,
    pub intensity: u32,
    pub parent: Option<usize>,
}

/// One program.
#[derive(Clone, Debug)]
pub struct Plan {
    pub seed: u64,
    pub threads: usize,
    pub scheduler: SchedulerKind,
    pub policy: Policy,
    pub topology: Topology,
    pub nodes: usize,
    /// Per node: a bounded mailbox's capacity, if it has one.
    pub capacity: Vec<Option<usize>>,
    /// Per node: its supervisor, if it has one.
    pub supervised: Vec<Option<Supervised>>,
    pub supervisors: Vec<Sup>,
    /// Tokens the driver injects.
    pub tokens: u64,
    /// Hops each token makes.
    pub hops: u32,
    /// At most this many tokens in flight (the driver waits below it).
    pub window: i64,
    /// Out of a million handled tokens, how many panic their handler.
    pub panic_ppm: u32,
    /// Out of a million, how many stop their node (`Context::stop`).
    pub stop_self_ppm: u32,
    /// Out of a million handled tokens, how many go on by a timer, and by a future.
    pub timer_ppm: u32,
    pub future_ppm: u32,
    /// Out of a million, how many handled tokens start an ask (with a timeout or not).
    pub ask_ppm: u32,
    /// Every this many injected tokens, the driver injects a fault: a stop, a kill, a
    /// move, an ask of its own.
    pub fault_every: u64,
    /// The driver shuts the system down while tokens are in flight.
    pub shutdown_mid_traffic: bool,
    /// Nodes send a periodic tick to themselves.
    pub ticks: bool,
}

impl Plan {
    /// The program of `seed`; `scale` multiplies its traffic (1 for the short soak).
    pub fn new(seed: u64, scale: u64) -> Plan {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The system's configuration is the seed's remainder by 27, so that any 27
        // consecutive seeds run every scheduler kind under every policy at 1, 2 and 8
        // threads.
        let config = (seed % 27) as usize;
        let threads = [1, 2, 8][config % 3];
        let scheduler = [
            SchedulerKind::Steal,
            SchedulerKind::Share,
            SchedulerKind::Stages,
        ][config / 3 % 3];
        let policy = [Policy::Task, Policy::Inline, Policy::Thread][config / 9];
        let topology = [
            Topology::Ring,
            Topology::Tree,
            Topology::FanIn,
            Topology::FanOut,
            Topology::Chain,
        ][rng.random_range(0..5)];
        // A thread per actor: keep them few.
        let nodes = if policy == Policy::Thread {
            rng.random_range(2..8)
        } else {
            rng.random_range(2..40)
        };
        let bounded = rng.random_bool(0.5);
        let capacity = (0..nodes)
            .map(|_| (bounded && rng.random_bool(0.5)).then(|| rng.random_range(1..64)))
            .collect();
        let n_sups = rng.random_range(0..4usize);
        let supervisors: Vec<Sup> = (0..n_sups)
            .map(|i| Sup {
                strategy: [
                    Strategy::OneForOne,
                    Strategy::OneForAll,
                    Strategy::RestForOne,
                ][rng.random_range(0..3)],
                intensity: [1, 5, 1000][rng.random_range(0..3)],
                parent: (i > 0 && rng.random_bool(0.6)).then(|| rng.random_range(0..i)),
            })
            .collect();
        let supervised = (0..nodes)
            .map(|_| {
                (n_sups > 0 && rng.random_bool(0.8)).then(|| Supervised {
                    under: rng.random_range(0..n_sups),
                    restart: [
                        Restart::Permanent,
                        Restart::Permanent,
                        Restart::Transient,
                        Restart::Temporary,
                    ][rng.random_range(0..4)],
                })
            })
            .collect();
        Plan {
            seed,
            threads,
            scheduler,
            policy,
            topology,
            nodes,
            capacity,
            supervised,
            supervisors,
            tokens: rng.random_range(500..3000) * scale,
            hops: rng.random_range(1..20),
            window: rng.random_range(1..500),
            panic_ppm: [0, 1_000, 10_000, 30_000][rng.random_range(0..4)],
            stop_self_ppm: [0, 100, 2_000][rng.random_range(0..3)],
            timer_ppm: [0, 2_000, 20_000][rng.random_range(0..3)],
            future_ppm: [0, 2_000, 20_000][rng.random_range(0..3)],
            ask_ppm: [0, 5_000, 50_000][rng.random_range(0..3)],
            fault_every: rng.random_range(50..2000),
            shutdown_mid_traffic: rng.random_bool(0.3),
            ticks: rng.random_bool(0.3),
        }
    }

    /// Where node `i` may send a token (never empty).
    pub fn targets(&self, i: usize) -> Vec<usize> {
        let n = self.nodes;
        match self.topology {
            Topology::Ring => vec![(i + 1) % n],
            Topology::Tree => {
                let kids: Vec<usize> = [2 * i + 1, 2 * i + 2]
                    .into_iter()
                    .filter(|&k| k < n)
                    .collect();
                if kids.is_empty() { vec![0] } else { kids }
            }
            Topology::FanIn => {
                if i == 0 {
                    (0..n).collect()
                } else {
                    vec![0]
                }
            }
            Topology::FanOut => {
                if i == 0 {
                    (1..n).collect()
                } else {
                    vec![0]
                }
            }
            Topology::Chain => vec![i.saturating_sub(1)],
        }
    }

    /// Whom node `i` asks in a chain (the next node), if anyone.
    pub fn asks_next(&self, i: usize) -> Option<usize> {
        (self.topology == Topology::Chain && i + 1 < self.nodes).then_some(i + 1)
    }
}
