//! Measures the CPU an idle runtime uses: a system does some work, goes quiescent, and
//! then sits idle for a while; the process's user+system CPU time over that idle stretch,
//! divided by its wall time, is the idle utilisation (Linux: read from `/proc/self/stat`).
//!
//! `cargo run --release -p footlights --example idle_cpu -- [SECONDS]`

use std::time::{Duration, Instant};

use footlights::{Actor, Context, System};

/// Process CPU time (user + system) in clock ticks, from /proc/self/stat.
fn cpu_ticks() -> Result<u64, String> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(|e| e.to_string())?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = stat
        .rsplit_once(')')
        .ok_or("unexpected /proc/self/stat format")?
        .1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    let parse = |i: usize| -> Result<u64, String> {
        fields
            .get(i)
            .ok_or("short /proc/self/stat")?
            .parse::<u64>()
            .map_err(|e| e.to_string())
    };
    Ok(parse(11)? + parse(12)?)
}

struct Busy;

impl Actor for Busy {
    type Msg = u64;
    fn handle(&mut self, _: &mut Context<Self>, n: u64) {
        std::hint::black_box(n.wrapping_mul(31));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: u64 = match std::env::args().nth(1) {
        None => 3,
        Some(s) => s
            .parse()
            .map_err(|_| format!("SECONDS must be a whole number, not {s:?}"))?,
    };
    let system = System::builder().build()?;
    let actors: Vec<_> = (0..1000).map(|_| system.spawn(Busy)).collect();
    for (i, a) in actors.iter().enumerate() {
        for n in 0..100 {
            a.send(i as u64 * n)?;
        }
    }
    system.wait_quiescent();
    // Let the workers finish their search and park.
    std::thread::sleep(Duration::from_millis(100));
    let ticks_per_second = 100.0; // USER_HZ on Linux
    let (t0, c0) = (Instant::now(), cpu_ticks()?);
    std::thread::sleep(Duration::from_secs(seconds));
    let (wall, cpu) = (t0.elapsed(), cpu_ticks()? - c0);
    let cpu_seconds = cpu as f64 / ticks_per_second;
    println!(
        "idle for {:.2} s on {} workers: {:.3} s CPU = {:.2}% of one core",
        wall.as_secs_f64(),
        system.threads(),
        cpu_seconds,
        100.0 * cpu_seconds / wall.as_secs_f64()
    );
    Ok(())
}
