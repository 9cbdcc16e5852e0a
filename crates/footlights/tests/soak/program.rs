//! Running one soak program: build its system and actors, drive its traffic and faults
//! from a thread outside the runtime, and check the invariants during the run and at
//! its end.

use std::sync::Arc;
use std::time::{Duration, Instant};

use footlights::supervision::{Intensity, Supervisor};
use footlights::{Addr, Placement, SpawnOptions, System, TrySendError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ledger::{LEDGER, Token, Via, bump};
use super::node::{AskGuard, Directory, Msg, Node, NodeShared};
use super::plan::Plan;

/// How long any one wait of the driver may last before it is a violation (a hang).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Most the resident memory may grow over one program before it is a violation.
const MEMORY_GROWTH: u64 = 1 << 30;

/// What a program did.
pub struct Outcome {
    pub messages: u64,
    pub faults: u64,
    pub violations: Vec<String>,
    pub summary: String,
}

/// The process's resident memory in bytes (0 where it cannot be read).
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// Runs `plan`; see the module documentation.
pub fn run(plan: Plan) -> Outcome {
    LEDGER.reset();
    let memory_before = resident();
    let plan = Arc::new(plan);
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed.rotate_left(17));
    let system = System::builder()
        .threads(plan.threads)
        .cpus(plan.threads)
        .scheduler(plan.scheduler)
        .policy(plan.policy)
        .on_panic(|_| {})
        .build()
        .expect("a system starts");
    let dir = Arc::new(Directory::default());
    // Supervisors: each under its parent (which comes first), or a root.
    let mut sups: Vec<Supervisor> = Vec::new();
    for s in &plan.supervisors {
        let intensity = Intensity::new(s.intensity, Duration::from_secs(3600));
        let sup = match s.parent {
            Some(p) => sups[p].supervisor(
                footlights::supervision::Restart::Permanent,
                s.strategy,
                intensity,
            ),
            None => Supervisor::spawn(&system, s.strategy, intensity),
        };
        sups.push(sup);
    }
    let mut addrs = Vec::new();
    for i in 0..plan.nodes {
        let shared = Arc::new(NodeShared::new(plan.nodes));
        let (p, d) = (Arc::clone(&plan), Arc::clone(&dir));
        let addr = match plan.supervised[i] {
            Some(s) => sups[s.under].child(s.restart, move || Node::new(i, &p, &shared, &d)),
            None => {
                let node = Node::new(i, &p, &shared, &d);
                let options = match plan.capacity[i] {
                    Some(c) => SpawnOptions::new().capacity(c),
                    None => SpawnOptions::new(),
                };
                system.spawn_with(node, options)
            }
        };
        dir.set(i, addr.clone());
        addrs.push(addr);
    }
    let executor = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("an executor");
    let driver = plan.nodes as u32;
    let mut out = vec![0u64; plan.nodes];
    let mut faults = 0;
    for k in 0..plan.tokens {
        // The window: wait while too many tokens are in flight.
        let since = Instant::now();
        while LEDGER.in_flight() > plan.window {
            if since.elapsed() > PATIENCE {
                LEDGER.violation(format!(
                    "stalled: {} tokens in flight for {PATIENCE:?} ({})",
                    LEDGER.in_flight(),
                    LEDGER.summary()
                ));
                break;
            }
            // Spin a little, then sleep: on a machine with few cores a driver that only
            // yields takes the workers' time.
            if since.elapsed() < Duration::from_micros(50) {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        if !LEDGER.violations().is_empty() {
            break;
        }
        let j = rng.random_range(0..plan.nodes);
        out[j] += 1;
        inject(
            &executor,
            &addrs[j],
            Token::new(driver, j as u32, out[j], plan.hops, Via::Direct),
            &mut rng,
        );
        if k % plan.fault_every == plan.fault_every - 1 {
            faults += 1;
            fault(&system, &plan, &addrs, &mut rng);
            if resident().saturating_sub(memory_before) > MEMORY_GROWTH {
                LEDGER.violation(format!(
                    "memory grew by {} MiB",
                    (resident() - memory_before) >> 20
                ));
            }
        }
    }
    if !plan.shutdown_mid_traffic {
        // Every token ends: the timers' fire, the muted resume, the futures complete.
        // Zero in flight is exact (see `Ledger::in_flight`): a timer's token waiting in
        // the wheel keeps no actor scheduled, so quiescence alone would not wait for it.
        let since = Instant::now();
        while LEDGER.in_flight() != 0 && since.elapsed() < PATIENCE {
            std::thread::sleep(Duration::from_millis(1));
        }
        if !system.wait_quiescent_timeout(PATIENCE) {
            LEDGER.violation("never quiescent after the traffic".into());
        }
        if LEDGER.in_flight() != 0 {
            // Where a token that never ended waits: in the timer wheel, or in a mailbox
            // whose actor nobody runs (the system is quiescent by now).
            let metrics = system.metrics();
            LEDGER.violation(format!(
                "after the traffic: tokens still in flight with {} timers pending, {} \
                 messages sent but neither handled nor dropped, {} live actors",
                system.pending_timers(),
                metrics.messages_pending(),
                metrics.live_actors()
            ));
        }
        LEDGER.check_balanced("after the traffic, before the shutdown");
        LEDGER.check_dead_letters(system.metrics().dead_letters);
        let dropped_by = LEDGER.dropped_by.lock().unwrap().clone();
        for j in dropped_by {
            if !addrs[j as usize].is_stopped() {
                LEDGER.violation(format!(
                    "node {j} dropped a token sent to it and is still running: a restart \
                     lost a queued message"
                ));
            }
        }
    }
    let messages = system.metrics().messages_handled();
    let report = system.shutdown();
    if report.live_actors != 0 {
        LEDGER.violation(format!(
            "{} actors live after the shutdown",
            report.live_actors
        ));
    }
    drop((addrs, sups, executor));
    dir.clear();
    LEDGER.check_balanced("after the shutdown");
    Outcome {
        messages,
        faults: faults + LEDGER.panics.load(std::sync::atomic::Ordering::Relaxed),
        violations: LEDGER.violations(),
        summary: LEDGER.summary(),
    }
}

/// Sends a token from the driver, one of five ways.
fn inject(executor: &tokio::runtime::Runtime, to: &Addr<Node>, token: Token, rng: &mut ChaCha8Rng) {
    let back = match rng.random_range(0..5) {
        0 => to.try_send(Msg::Token(token)).err().map(|e| match e {
            TrySendError::Full(m) | TrySendError::Stopped(m) => m,
        }),
        1 => to
            .msg_recipient()
            .send(Msg::Token(token))
            .err()
            .map(|e| e.into_inner()),
        2 => executor
            .block_on(to.send_async(Msg::Token(token)))
            .err()
            .map(|e| e.into_inner()),
        3 => to
            .send_blocking(Msg::Token(token))
            .err()
            .map(|e| e.into_inner()),
        _ => to.send(Msg::Token(token)).err().map(|e| e.into_inner()),
    };
    if let Some(Msg::Token(t)) = back {
        t.returned();
    }
}

/// One fault from the driver: a stop, a kill, a move, or an ask of its own that must
/// resolve.
fn fault(system: &System, plan: &Plan, addrs: &[Addr<Node>], rng: &mut ChaCha8Rng) {
    let j = rng.random_range(0..addrs.len());
    match rng.random_range(0..6) {
        0 => {
            bump(&LEDGER.stops);
            addrs[j].stop();
        }
        1 => {
            bump(&LEDGER.kills);
            addrs[j].kill();
        }
        2 | 3 => {
            bump(&LEDGER.moves);
            let to = match rng.random_range(0..3) {
                0 => Placement::Pool,
                _ => Placement::Stage(rng.random_range(0..system.threads())),
            };
            addrs[j].place(to);
        }
        _ => {
            let (make, target): (fn(footlights::ReplyTo<u64>) -> Msg, usize) =
                if plan.asks_next(0).is_some() {
                    (Msg::Chain, 0)
                } else {
                    (Msg::Get, j)
                };
            if let Ok(reply) = addrs[target].ask(make) {
                let guard = AskGuard::new();
                match reply.wait_timeout(PATIENCE) {
                    Some(out) => guard.plain(&out),
                    None => {
                        LEDGER.violation(format!("an ask of node {target} never resolved"));
                        guard.plain(&Ok(0));
                    }
                }
            }
        }
    }
}
