//! The seeded randomized soak: random actor programs, each drawn from a seed, run under
//! faults, with the invariants checked during each run and at its end (see
//! `tests/soak/`: `plan.rs` draws a program, `node.rs` is its actor, `program.rs` runs
//! it, `ledger.rs` counts and checks).
//!
//! * `cargo test -p footlights --test soak` (and `scripts/test`): the short soak, a fixed
//!   set of seeds (one for each scheduler kind, policy and thread count) and a few random
//!   ones, printed, within about a minute and a half.
//! * `SOAK_SEED=<seed> cargo test -p footlights --release --test soak`: that program
//!   again (what a failure prints). `SOAK_SCALE=<n>` multiplies its traffic.
//! * `SOAK_MESSAGES=<n> cargo test -p footlights --release --test soak -- --nocapture`:
//!   the long soak, random programs (traffic scaled by `SOAK_SCALE`, 100 unless set) until
//!   `n` messages have been handled, with a line per program and the totals at the end.
//!
//! The invariants: per sender and receiver, FIFO and nothing handled twice; every token
//! handled, returned to its sender, lost with a panicking handler or dropped (and the
//! runtime's dead letters cover the sent tokens it dropped, and only actors that stopped
//! for good dropped any: a restart keeps every queued message); every ask resolved (answer,
//! `Canceled`, timeout, or dropped with its stopped asker, as the docs allow); the driver's
//! own asks resolve within a minute; shutdown completes with no live actor; resident
//! memory grows by less than a GiB; and no wait of the driver lasts a minute (a hang).
#![cfg(not(loom))]

#[path = "soak/mod.rs"]
mod soak;

use std::time::{Duration, Instant};

use soak::plan::Plan;
use soak::program::{self, Outcome};

/// How long one program may run before the soak calls it hung.
const WATCHDOG: Duration = Duration::from_secs(600);

/// Runs the program of `seed` under the watchdog; a failure names the seed and the
/// command that runs it again.
fn run(seed: u64, scale: u64) -> (Outcome, Duration) {
    let plan = Plan::new(seed, scale);
    let about = format!("{plan:?}");
    let replay = format!(
        "SOAK_SEED={seed} SOAK_SCALE={scale} cargo test -p footlights --release --test soak"
    );
    let started = Instant::now();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(program::run(plan));
    });
    let outcome = match finished.recv_timeout(WATCHDOG) {
        Ok(outcome) => outcome,
        Err(_) => {
            panic!("soak: seed {seed} hung (watchdog, {WATCHDOG:?}): {about}\nreplay: {replay}")
        }
    };
    let took = started.elapsed();
    if !outcome.violations.is_empty() {
        panic!(
            "soak: seed {seed} broke {} invariant(s):\n  {}\nprogram: {about}\ncounts: {}\n\
             replay: {replay}",
            outcome.violations.len(),
            outcome.violations.join("\n  "),
            outcome.summary
        );
    }
    (outcome, took)
}

fn env_u64(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    match value.parse() {
        Ok(n) => Some(n),
        Err(_) => panic!("{name}={value:?}: not a whole number"),
    }
}

/// A seed nobody chose: from the clock.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1
}

/// Keeps the injected panics off standard error (every other panic is printed as usual).
fn quiet_injected_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let injected = info
            .payload()
            .downcast_ref::<&str>()
            .is_some_and(|m| m.starts_with("soak: injected"));
        if !injected {
            default(info);
        }
    }));
}

#[test]
fn soak() {
    quiet_injected_panics();
    if let Some(seed) = env_u64("SOAK_SEED") {
        let scale = env_u64("SOAK_SCALE").unwrap_or(1);
        let (outcome, took) = run(seed, scale);
        println!(
            "soak: seed {seed}: {} messages, {} faults, {took:?}: {}",
            outcome.messages, outcome.faults, outcome.summary
        );
        return;
    }
    if let Some(target) = env_u64("SOAK_MESSAGES") {
        long(target, env_u64("SOAK_SCALE").unwrap_or(100));
        return;
    }
    short();
}

/// The short soak: every configuration once (27 fixed seeds), then random seeds until
/// the budget is spent (at least three).
fn short() {
    let budget = Duration::from_secs(env_u64("SOAK_SECONDS").unwrap_or(90));
    let started = Instant::now();
    let mut messages = 0;
    for seed in 0..27 {
        messages += run(seed, 1).0.messages;
    }
    let mut random = 0;
    while random < 3 || started.elapsed() < budget {
        let seed = random_seed();
        println!("soak: random seed {seed}");
        messages += run(seed, 1).0.messages;
        random += 1;
    }
    println!(
        "soak: {} programs, {messages} messages, {:?}",
        27 + random,
        started.elapsed()
    );
}

/// The long soak: random programs until `target` messages.
fn long(target: u64, scale: u64) {
    let started = Instant::now();
    let first = env_u64("SOAK_FIRST_SEED").unwrap_or_else(random_seed);
    let (mut messages, mut faults, mut programs) = (0u64, 0u64, 0u64);
    let mut seed = first;
    while messages < target {
        let (outcome, took) = run(seed, scale);
        messages += outcome.messages;
        faults += outcome.faults;
        programs += 1;
        println!(
            "soak: seed {seed}: {} messages, {} faults, {took:.1?} (total {messages})",
            outcome.messages, outcome.faults
        );
        seed = seed.wrapping_add(1);
    }
    println!(
        "soak: long run from seed {first}: {programs} programs, {messages} messages, {faults} \
         faults injected, 0 violations, {:.0?}",
        started.elapsed()
    );
}
