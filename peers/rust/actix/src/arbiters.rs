//! The arbiters the actors run on, and where each new actor goes.
//!
//! actix runs an actor on one arbiter (a thread with a single-threaded tokio event loop)
//! for its whole life; there is no work stealing. To use `k` threads an actix program
//! starts `k` arbiters and decides where each actor lives. This suite does what an actix
//! program spreading load evenly does: [`start_pool`] starts `ACTIX_THREADS` arbiters
//! with `Arbiter::new()` (default: the number of CPUs this process may run on, which
//! follows its CPU affinity), and [`start`] places each new actor, wherever it is created
//! from, on the next arbiter in round-robin order with `Actor::start_in_arbiter`. The
//! pool is process-wide, so that actors creating actors (the tree benchmarks, mixed's
//! rings) place them the same way main does.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix::{Actor, Addr, Arbiter, ArbiterHandle, Context};

/// The environment variable that sets the number of arbiters.
pub const THREADS_VAR: &str = "ACTIX_THREADS";

/// The started arbiters and the round-robin cursor.
struct Pool {
    _arbiters: Vec<Arbiter>,
    handles: Vec<ArbiterHandle>,
    next: AtomicUsize,
}

static POOL: OnceLock<Pool> = OnceLock::new();

/// The number of arbiters to start: `ACTIX_THREADS`, or the available parallelism.
pub fn configured_threads() -> Result<usize, String> {
    match std::env::var(THREADS_VAR) {
        Ok(value) => match value.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{THREADS_VAR}={value} is not a positive integer")),
        },
        Err(std::env::VarError::NotPresent) => std::thread::available_parallelism()
            .map(usize::from)
            .map_err(|e| format!("cannot tell how many CPUs there are ({e}); set {THREADS_VAR}")),
        Err(e) => Err(format!("{THREADS_VAR}: {e}")),
    }
}

/// Starts `threads` arbiters; call once, inside the running actix `System`.
pub fn start_pool(threads: usize) -> Result<(), String> {
    let arbiters: Vec<Arbiter> = (0..threads)
        .map(|i| Arbiter::try_new().map_err(|e| format!("cannot start arbiter {i}: {e}")))
        .collect::<Result<_, _>>()?;
    let handles = arbiters.iter().map(Arbiter::handle).collect();
    POOL.set(Pool {
        _arbiters: arbiters,
        handles,
        next: AtomicUsize::new(0),
    })
    .map_err(|_| "the arbiter pool was started twice".to_owned())
}

/// The number of arbiters in the pool.
pub fn count() -> usize {
    pool().handles.len()
}

/// Starts the actor that `make` builds on the next arbiter, returning its address.
pub fn start<A, F>(make: F) -> Addr<A>
where
    A: Actor<Context = Context<A>>,
    F: FnOnce(&mut Context<A>) -> A + Send + 'static,
{
    let pool = pool();
    let i = pool.next.fetch_add(1, Ordering::Relaxed) % pool.handles.len();
    A::start_in_arbiter(&pool.handles[i], make)
}

fn pool() -> &'static Pool {
    POOL.get()
        .expect("arbiters::start_pool runs before any actor starts")
}
