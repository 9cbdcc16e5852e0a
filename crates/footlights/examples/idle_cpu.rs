//! Measures the CPU an idle or lightly loaded runtime uses: a system does some work, goes
//! quiescent, and then sits idle for a while, or receives `RATE` messages a second from
//! outside (a service under light load); the process's user+system CPU time over that
//! stretch (`getrusage`, which counts CPU used, not time waited, so it is honest on a busy
//! machine), divided by its wall time, is the utilisation.
//!
//! `cargo run --release -p footlights --example idle_cpu -- [SECONDS [RATE [GOVERNOR]]]`
//!
//! `GOVERNOR` is a `FOOTLIGHTS_GOVERNOR` value (`adaptive`, `plain`, `adaptive-watcher`).

use std::time::{Duration, Instant};

use footlights::{Actor, Context, Governor, System};

/// This process's CPU time so far, user and system, over all its threads.
fn cpu_time() -> Result<Duration, String> {
    // SAFETY: `getrusage` fills the struct it is given; a zeroed `rusage` is a valid one.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return Err("getrusage failed".into());
        }
        usage
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Ok(Duration::from_micros(
        micros(usage.ru_utime) + micros(usage.ru_stime),
    ))
}

struct Busy;

impl Actor for Busy {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, n: u64) {
        std::hint::black_box(n.wrapping_mul(31));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = match args.next() {
        None => 3,
        Some(s) => s
            .parse()
            .map_err(|_| format!("SECONDS must be a whole number, not {s:?}"))?,
    };
    let rate: u64 = match args.next() {
        None => 0,
        Some(s) => s
            .parse()
            .map_err(|_| format!("RATE must be a whole number of messages a second, not {s:?}"))?,
    };
    let mut builder = System::builder();
    if let Some(g) = args.next() {
        let governor: Governor = g.parse().map_err(|e| format!("GOVERNOR: {e}"))?;
        builder = builder.governor(governor);
    }
    let system = builder.build()?;
    let actors: Vec<_> = (0..1000).map(|_| system.spawn(Busy)).collect();
    for (i, a) in actors.iter().enumerate() {
        for n in 0..100 {
            a.send(i as u64 * n)?;
        }
    }
    system.wait_quiescent();
    // Let the workers finish their search and park.
    std::thread::sleep(Duration::from_millis(100));
    let (t0, c0) = (Instant::now(), cpu_time()?);
    let end = t0 + Duration::from_secs(seconds);
    if rate == 0 {
        std::thread::sleep(Duration::from_secs(seconds));
    } else {
        // One message every 1/RATE s, to actors in turn, on a fixed schedule.
        let gap = Duration::from_secs(1) / u32::try_from(rate).unwrap_or(u32::MAX);
        let mut next = t0;
        let mut n = 0u64;
        while next < end {
            actors[(n % actors.len() as u64) as usize].send(n)?;
            n += 1;
            next += gap;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
    }
    let (wall, cpu) = (t0.elapsed(), cpu_time()? - c0);
    println!(
        "{} for {:.2} s on {} workers ({}): {:.1} ms CPU = {:.2}% of one core",
        if rate == 0 {
            "idle".to_owned()
        } else {
            format!("{rate} messages a second")
        },
        wall.as_secs_f64(),
        system.threads(),
        system.governor(),
        cpu.as_secs_f64() * 1000.0,
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
    );
    Ok(())
}
