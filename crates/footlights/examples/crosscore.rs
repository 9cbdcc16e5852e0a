//! What a message crossing cores costs on this machine, against one that stays on its
//! core, without an actor runtime: crossbeam channels between two threads (issue 15,
//! point 3, the floor under big's one-neighbourhood case in
//! `docs/experiments/2026-11-27-one-neighbourhood-two-cores.md`).
//!
//! `crosscore MODE N [BALLS]`, each thread pinned to its own CPU (CPUs 0 and 1):
//!
//! * `local`: one thread sends `N` messages to itself through a channel and takes each
//!   back at once (a message that never leaves its core);
//! * `pingpong`: `BALLS` balls go back and forth between two threads through two
//!   channels, `N` round trips in all (every message crosses; with many balls, each thread
//!   finds several waiting, as big's workers do), each thread blocking in `recv` when its
//!   channel is empty;
//! * `spin`: the same, but each thread polls its channel and never sleeps;
//!
//! and prints nanoseconds a message (wall time over messages) and CPU time a message
//! (both threads' CPU time over messages).

use std::time::Instant;

use crossbeam_channel::unbounded;

fn pin(cpu: usize) {
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET writes inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

fn cpu_now() -> f64 {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid place for the result.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// A positive count from argument `index` (`default` if absent), or a clear error and exit.
fn count(args: &[String], index: usize, name: &str, default: u64) -> u64 {
    match args.get(index).map(|s| s.parse::<u64>()) {
        None => default,
        Some(Ok(n)) if n > 0 => n,
        _ => {
            eprintln!(
                "crosscore: {name} must be a positive whole number, not {:?}",
                args[index]
            );
            std::process::exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("pingpong", String::as_str);
    if !["local", "pingpong", "spin"].contains(&mode) {
        eprintln!("crosscore: MODE must be local, pingpong or spin, not {mode:?}");
        std::process::exit(2);
    }
    let n = count(&args, 2, "N", 1_000_000);
    let balls = count(&args, 3, "BALLS", 1);
    let cpu0 = cpu_now();
    let start = Instant::now();
    let messages = match mode {
        "local" => {
            pin(0);
            let (tx, rx) = unbounded::<u64>();
            for i in 0..balls {
                tx.send(i).unwrap();
            }
            let mut sum = 0u64;
            for _ in 0..n {
                let v = rx.recv().unwrap();
                sum = sum.wrapping_add(v);
                tx.send(v + 1).unwrap();
            }
            std::hint::black_box(sum);
            n
        }
        _ => {
            let (to_b, at_b) = unbounded::<u64>();
            let (to_a, at_a) = unbounded::<u64>();
            let per_ball = n / balls;
            // A message carries its ball's hops so far; b answers each with one more, until
            // a hangs up.
            let spin = mode == "spin";
            // Takes the next message: blocking in `recv`, or (spin) polling `try_recv`,
            // which never sleeps and so leaves only the cost of the cache lines crossing.
            fn take(rx: &crossbeam_channel::Receiver<u64>, spin: bool) -> Option<u64> {
                if !spin {
                    return rx.recv().ok();
                }
                loop {
                    match rx.try_recv() {
                        Ok(v) => return Some(v),
                        Err(crossbeam_channel::TryRecvError::Empty) => std::hint::spin_loop(),
                        Err(crossbeam_channel::TryRecvError::Disconnected) => return None,
                    }
                }
            }
            let b = std::thread::spawn(move || {
                pin(1);
                while let Some(hops) = take(&at_b, spin) {
                    let _ = to_a.send(hops + 1);
                }
            });
            pin(0);
            for _ in 0..balls {
                to_b.send(1).unwrap();
            }
            let mut finished = 0;
            while finished < balls {
                let hops = take(&at_a, spin).unwrap();
                if hops >= 2 * per_ball {
                    finished += 1;
                } else {
                    to_b.send(hops + 1).unwrap();
                }
            }
            drop(to_b);
            b.join().unwrap();
            2 * per_ball * balls
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_now() - cpu0;
    println!(
        "mode={mode} balls={balls} messages={messages} wall_ns_per_msg={:.1} cpu_ns_per_msg={:.1}",
        wall * 1e9 / messages as f64,
        cpu * 1e9 / messages as f64
    );
}
