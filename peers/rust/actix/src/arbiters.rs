//! The arbiters the actors run on, and how a benchmark picks one.
//!
//! actix runs an actor on one arbiter (a thread with a single-threaded tokio event loop)
//! for its whole life; there is no work stealing, and a message to an actor on another
//! arbiter wakes that arbiter's thread. actix programs therefore start an actor on the
//! arbiter it belongs to: by default the current one (`Actor::create`/`Actor::start`, as
//! actix's own ring example does), and on another arbiter only work that is independent of
//! the rest (`Actor::start_in_arbiter`).
//!
//! To use `k` threads, [`start_pool`] makes `k` arbiters: the actix `System`'s own arbiter
//! on the main thread, where the benchmark's code runs and where `Actor::create` puts
//! actors, and `k - 1` more started with `Arbiter::try_new()`. `k` is `ACTIX_THREADS`
//! (default: the number of CPUs this process may run on, which follows its CPU affinity).
//! Each benchmark decides which of its actors are independent enough to go elsewhere and
//! sends them to arbiter `i mod k` with [`start_on`] (or the next one, [`start_next`]);
//! everything else stays where it is created.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix::{Actor, Addr, Arbiter, ArbiterHandle, Context, System};

/// The environment variable that sets the number of arbiters.
pub const THREADS_VAR: &str = "ACTIX_THREADS";

/// The arbiters: the system arbiter first, then the ones started for the run.
struct Pool {
    _started: Vec<Arbiter>,
    handles: Vec<ArbiterHandle>,
    /// The next arbiter of [`start_next`].
    next: AtomicUsize,
}

static POOL: OnceLock<Pool> = OnceLock::new();

/// The number of arbiters to use: `ACTIX_THREADS`, or the available parallelism.
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

/// Makes the pool of `threads` arbiters: the running `System`'s arbiter and `threads - 1`
/// new ones. Call once, inside the running actix `System`.
pub fn start_pool(threads: usize) -> Result<(), String> {
    let started: Vec<Arbiter> = (1..threads)
        .map(|i| Arbiter::try_new().map_err(|e| format!("cannot start arbiter {i}: {e}")))
        .collect::<Result<_, _>>()?;
    let handles = std::iter::once(System::current().arbiter().clone())
        .chain(started.iter().map(Arbiter::handle))
        .collect();
    POOL.set(Pool {
        _started: started,
        handles,
        next: AtomicUsize::new(0),
    })
    .map_err(|_| "the arbiter pool was started twice".to_owned())
}

/// The number of arbiters in the pool.
pub fn count() -> usize {
    pool().handles.len()
}

/// Starts the actor that `make` builds on arbiter `i mod count()` (arbiter 0 is the
/// system's, on the main thread), returning its address.
pub fn start_on<A, F>(i: usize, make: F) -> Addr<A>
where
    A: Actor<Context = Context<A>>,
    F: FnOnce(&mut Context<A>) -> A + Send + 'static,
{
    let pool = pool();
    A::start_in_arbiter(&pool.handles[i % pool.handles.len()], make)
}

/// Starts the actor that `make` builds on the next arbiter in round-robin order (for
/// work spread from wherever it is created, like the top of the tree benchmarks).
pub fn start_next<A, F>(make: F) -> Addr<A>
where
    A: Actor<Context = Context<A>>,
    F: FnOnce(&mut Context<A>) -> A + Send + 'static,
{
    start_on(pool().next.fetch_add(1, Ordering::Relaxed), make)
}

fn pool() -> &'static Pool {
    POOL.get()
        .expect("arbiters::start_pool runs before any actor starts")
}
