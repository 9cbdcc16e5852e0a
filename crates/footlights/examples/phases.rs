//! A program in two phases, to see whether the scheduler's rules still act in a later
//! phase: first a ping-pong pair (a hub with a single client), which one worker runs
//! alone while the others park; then a hub with many clients, a chatty group that two
//! workers pull back and forth between them (a tug of war) until the system labels groups
//! and leaves the group to one worker (`docs/scaling.md`, "A tug of war in a later
//! phase").
//!
//! `cargo run --release -p footlights --example phases -- [PAIR_ASKS] [CLIENTS] [ASKS]`
//! (defaults 2,000,000, 700 and 3,000; `PAIR_ASKS` 0 skips the first phase). The thread
//! count comes from `FOOTLIGHTS_THREADS`, the rules from `FOOTLIGHTS_GOVERNOR` (for
//! example `adaptive-labels`). Prints each phase's time and whether the system labels
//! groups after it.

use std::time::{Duration, Instant};

use footlights::System;

#[path = "common/hub.rs"]
mod hub;

// The allocator footlights-suite and the benches use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A hub and `clients` clients asking `asks` times each; returns the phase's wall time
/// after checking that every client got every answer.
fn phase(system: &System, clients: u64, asks: u64) -> Result<Duration, String> {
    let start = Instant::now();
    for answers in hub::start(system, clients, asks)? {
        let answers = answers.wait().map_err(|e| e.to_string())?;
        if answers != asks {
            return Err(format!("a client got {answers} answers, not {asks}"));
        }
    }
    let took = start.elapsed();
    system.wait_quiescent();
    Ok(took)
}

/// The `i`th command-line argument, named `name` in an error, or `default` if absent.
fn arg(i: usize, name: &str, default: u64) -> Result<u64, String> {
    std::env::args().nth(i).map_or(Ok(default), |s| {
        s.parse()
            .map_err(|_| format!("{name} (argument {i}) must be a whole number, not {s:?}"))
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().len() > 4 {
        return Err("at most three arguments: PAIR_ASKS CLIENTS ASKS".into());
    }
    let pair_asks = arg(1, "PAIR_ASKS", 2_000_000)?;
    let clients = arg(2, "CLIENTS", 700)?;
    if clients == 0 {
        return Err("CLIENTS (argument 2) must be at least 1".into());
    }
    let asks = arg(3, "ASKS", 3_000)?;
    let system = System::builder().build()?;
    if pair_asks > 0 {
        let took = phase(&system, 1, pair_asks)?;
        println!(
            "phase 1: a pair, {pair_asks} requests: {:.1} ms (labels groups: {})",
            took.as_secs_f64() * 1e3,
            system.metrics().labels_groups
        );
    }
    let took = phase(&system, clients, asks)?;
    println!(
        "phase 2: a hub and {clients} clients, {asks} requests each, on {} workers: {:.1} ms (labels groups: {})",
        system.threads(),
        took.as_secs_f64() * 1e3,
        system.metrics().labels_groups
    );
    Ok(())
}
