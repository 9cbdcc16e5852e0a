//! What a tell between two threads costs, and where the two threads run: the shape of the
//! criterion `tell` group (`benches/messaging.rs`) one process at a time, with the two
//! threads pinned to chosen CPUs.
//!
//! `cargo run --release -p footlights --example tell_placement -- N ROUNDS MODE`
//!
//! MODE is one of:
//!
//! * `pinned`: a producer on stage 0 sends N messages in chunks of 64 to a receiver on
//!   stage 1, as `tell/two_workers_pinned` does (every message crosses workers);
//! * `placed`: the same two actors where the runtime puts them (`tell/two_workers`);
//! * `channel`: N `u64`s from one thread to another through an unbounded crossbeam
//!   channel (`tell/crossbeam_unbounded_two_threads`);
//! * `line`: one cache line bounced N times between two spinning threads: the round trip
//!   of a cache line between the two CPUs, the floor under anything that crosses them.
//!
//! It prints nanoseconds a message (a round trip, for `line`) for each of ROUNDS rounds.
//! `FL_PIN=cross` pins the sending thread (stage 0's worker) to CPU 0 and the receiving
//! one (stage 1's worker) to CPU 1; `FL_PIN=same` pins both to CPU 0; unset, the operating
//! system places them. Unpinned, the two threads share one CPU in some runs and not in
//! others (the process then uses one CPU's time, not two), and the figures follow that
//! placement, not the runtime: see
//! `docs/experiments/2026-11-27-pinned-tell.md`. `FOOTLIGHTS_STATS=1` prints the workers' counters
//! at the end.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use footlights::{Actor, Context, Placement, ReplyTo, System, reply};

// The allocator the benches and footlights-suite use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/shared/tell.rs"]
mod tell;
use tell::{Producer, Receiver, Recv};

/// Pins the worker thread it starts on to its CPU, then stops.
struct Pin(usize, Option<ReplyTo<()>>);

impl Actor for Pin {
    type Msg = ();
    fn started(&mut self, ctx: &mut Context<Self>) {
        pin_to(self.0);
        let _ = self.1.take().expect("started once").send(());
        ctx.stop();
    }
    fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
}

/// Pins the calling thread to `cpu`.
fn pin_to(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET writes inside it (cpu is far
    // below CPU_SETSIZE), and sched_setaffinity only reads it.
    let done = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    assert_eq!(done, 0, "could not pin a thread to CPU {cpu}");
}

/// The CPUs of the sending and the receiving thread, from `FL_PIN`.
fn cpus() -> Option<(usize, usize)> {
    match std::env::var("FL_PIN").as_deref() {
        Ok("cross") => Some((0, 1)),
        Ok("same") => Some((0, 0)),
        Err(std::env::VarError::NotPresent) => None,
        _ => fail("FL_PIN must be cross or same (or unset)"),
    }
}

/// Reports bad input and exits.
fn fail(what: &str) -> ! {
    eprintln!("tell_placement: {what}");
    std::process::exit(2);
}

/// A positive count from the next argument, `default` if there is none.
fn count<T: std::str::FromStr + Default + PartialEq>(
    arg: Option<String>,
    name: &str,
    default: T,
) -> T {
    match arg {
        None => default,
        Some(s) => match s.parse::<T>() {
            Ok(n) if n != T::default() => n,
            _ => fail(&format!(
                "{name} must be a positive whole number, not {s:?}"
            )),
        },
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = count(args.next(), "N", 1_000_000);
    let rounds: u32 = count(args.next(), "ROUNDS", 5);
    let mode = args.next().unwrap_or_else(|| "pinned".into());
    match mode.as_str() {
        "line" => line(n, rounds),
        "channel" => channel(n, rounds),
        "pinned" | "placed" => actors(n, rounds, mode == "pinned"),
        other => fail(&format!(
            "MODE must be pinned, placed, channel or line, not {other:?}"
        )),
    }
}

/// `rounds` rounds of `n` round trips of one cache line.
fn line(n: u64, rounds: u32) {
    let pins = cpus();
    let flag = Arc::new(AtomicU64::new(0));
    let other = Arc::clone(&flag);
    let total = n * u64::from(rounds);
    let echo = std::thread::spawn(move || {
        if let Some((_, c)) = pins {
            pin_to(c);
        }
        for i in 0..total {
            while other.load(Ordering::Acquire) != 2 * i + 1 {
                std::hint::spin_loop();
            }
            other.store(2 * i + 2, Ordering::Release);
        }
    });
    if let Some((p, _)) = pins {
        pin_to(p);
    }
    for r in 0..u64::from(rounds) {
        let start = Instant::now();
        for i in r * n..(r + 1) * n {
            flag.store(2 * i + 1, Ordering::Release);
            while flag.load(Ordering::Acquire) != 2 * i + 2 {
                std::hint::spin_loop();
            }
        }
        report("line", start, n);
    }
    echo.join().expect("the echoing thread");
}

/// `rounds` rounds of `n` items through an unbounded crossbeam channel.
fn channel(n: u64, rounds: u32) {
    let pins = cpus();
    let (items, items_out) = crossbeam_channel::unbounded::<u64>();
    let (go, go_out) = crossbeam_channel::unbounded::<u64>();
    let (done, finished) = crossbeam_channel::unbounded::<()>();
    let receiver = std::thread::spawn(move || {
        if let Some((_, c)) = pins {
            pin_to(c);
        }
        while let Ok(n) = go_out.recv() {
            for _ in 0..n {
                std::hint::black_box(items_out.recv().expect("the producer lives"));
            }
            done.send(()).expect("the producer waits");
        }
    });
    if let Some((p, _)) = pins {
        pin_to(p);
    }
    for _ in 0..rounds {
        go.send(n).expect("the receiver lives");
        let start = Instant::now();
        for i in 0..n {
            items.send(i).expect("the receiver lives");
        }
        finished.recv().expect("the receiver answers");
        report("channel", start, n);
    }
    drop(go);
    receiver.join().expect("the receiver thread");
}

/// `rounds` rounds of `n` tells from a producer to a receiver on two workers; `pinned`:
/// on stages 0 and 1, else where the runtime puts them.
fn actors(n: u64, rounds: u32, pinned: bool) {
    let system = System::builder().threads(2).build().expect("system");
    if let Some((p, c)) = cpus() {
        for (stage, cpu) in [(0, p), (1, c)] {
            let (done, pinned) = reply::pair();
            drop(system.spawn_placed(Pin(cpu, Some(done)), Placement::Stage(stage)));
            pinned.wait().expect("the worker pinned");
        }
    }
    let (at_receiver, at_producer) = if pinned {
        (Placement::Stage(1), Placement::Stage(0))
    } else {
        (Placement::Default, Placement::Default)
    };
    let receiver = system.spawn_placed(
        Receiver {
            left: 0,
            done: None,
        },
        at_receiver,
    );
    let producer = system.spawn_placed(
        Producer {
            to: receiver.clone(),
        },
        at_producer,
    );
    let name = if pinned { "pinned" } else { "placed" };
    for _ in 0..rounds {
        let (done, finished) = reply::pair();
        receiver
            .send(Recv::Expect(n, done))
            .expect("receiver alive");
        system.wait_quiescent();
        let start = Instant::now();
        producer.send(n).expect("producer alive");
        finished.wait().expect("all told");
        report(name, start, n);
    }
    drop((producer, receiver));
    system.shutdown();
}

fn report(what: &str, start: Instant, n: u64) {
    println!(
        "{what} {:.1} ns",
        start.elapsed().as_nanos() as f64 / n as f64
    );
}
