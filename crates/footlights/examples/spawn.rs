//! Spawns idle actors from inside a handler until each has run its first turn, for
//! profiling the spawn path (for example under `valgrind --tool=callgrind`, whose
//! instruction counts do not depend on machine load: the difference between two counts
//! divided by the difference in actors is the cost of one spawn).
//!
//! `cargo run --release -p footlights --example spawn -- [ACTORS] [collect]` (default
//! 100,000); the thread count comes from `FOOTLIGHTS_THREADS`. Without `collect` the
//! addresses are leaked at the end, so that a count covers what the criterion spawn
//! benchmark times (the spawn and the first turn); with `collect` they are dropped, and
//! the count covers each actor's whole life: spawn, first turn, collection and stop. The
//! system is leaked either way, so that no count covers a shutdown.

use std::time::Instant;

use footlights::{Actor, Addr, Context, ReplyTo, System};

// The allocator footlights-suite and the benches use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Idle;

impl Actor for Idle {
    type Msg = ();
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Spawns the number of actors it is asked for and hands back their addresses.
struct Spawner;

impl Actor for Spawner {
    type Msg = (u64, ReplyTo<Vec<Addr<Idle>>>);
    fn handle(&mut self, ctx: &mut Context<Self>, (n, done): Self::Msg) {
        let children = (0..n).map(|_| ctx.spawn(Idle)).collect();
        let _ = done.send(children);
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let collect = match std::env::args().nth(2).as_deref() {
        None => false,
        Some("collect") => true,
        Some(other) => {
            return Err(format!("the second argument can only be collect, not {other:?}").into());
        }
    };
    let actors = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| format!("the argument must be a whole number, not {s:?}"))?,
        None => 100_000u64,
    };
    let system = System::builder().build()?;
    let spawner = system.spawn(Spawner);
    let start = Instant::now();
    let children = spawner.ask(|done| (actors, done))?.wait()?;
    system.wait_quiescent();
    let elapsed = start.elapsed();
    println!(
        "{actors} actors spawned and started on {} workers: {:.1} ns per actor",
        system.threads(),
        elapsed.as_nanos() as f64 / actors.max(1) as f64
    );
    if collect {
        drop(children);
        system.wait_quiescent();
    } else {
        std::mem::forget(children);
    }
    // Leave the system running: a shutdown would stop every live actor and sweep the
    // census, and the count would cover that too.
    std::mem::forget(system);
    Ok(())
}
