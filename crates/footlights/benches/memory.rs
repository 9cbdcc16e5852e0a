//! Bytes per idle actor, measured by counting allocations.
//!
//! Run with `cargo bench -p footlights --bench memory`. A counting global allocator wraps the
//! system allocator; the program spawns many idle actors, waits until the system is
//! quiescent, and divides the live heap growth by the number of actors. It does it twice:
//! right after spawning (never received a message) and after each has handled one message
//! (its mailbox then holds one spent node). The figure goes in `docs/performance.md`.

use std::alloc::{GlobalAlloc, Layout, System as SystemAlloc};
use std::sync::atomic::{AtomicIsize, Ordering};

use footlights::{Actor, Context, System};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: delegates every call to the system allocator unchanged; it only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { SystemAlloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { SystemAlloc.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The smallest useful actor: a counter.
struct Idle {
    seen: u64,
}

impl Actor for Idle {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, n: u64) {
        self.seen += n;
    }
}

fn main() {
    // `cargo bench` passes `--bench`; this program has no options.
    let n: usize = 100_000;
    let system = System::builder().threads(1).build().expect("system");
    let mut addrs = Vec::with_capacity(n);
    system.wait_quiescent();
    let before = LIVE.load(Ordering::Relaxed);
    for _ in 0..n {
        addrs.push(system.spawn(Idle { seen: 0 }));
    }
    system.wait_quiescent();
    let spawned = LIVE.load(Ordering::Relaxed);
    let vec_bytes = (n * std::mem::size_of::<footlights::Addr<Idle>>()) as isize;
    let fresh = (spawned - before - vec_bytes) as f64 / n as f64;
    for a in &addrs {
        a.send(1).expect("alive");
    }
    system.wait_quiescent();
    let after_one = (LIVE.load(Ordering::Relaxed) - before - vec_bytes) as f64 / n as f64;
    println!("memory/idle_actor_fresh        {fresh:.1} bytes per actor ({n} actors)");
    println!("memory/idle_actor_after_1_msg  {after_one:.1} bytes per actor ({n} actors)");
    drop(addrs);
    system.wait_quiescent();
}
