//! Measures how late timers fire: waiter actors set timers with random delays, each
//! message carrying its deadline, and note how long after its deadline each was handled
//! (the tick's rounding, the timer thread's wake-up, the wait for a worker, and the
//! turn). Meanwhile, pairs of busy actors bounce a ball as fast as they can, each bounce
//! a little work, so that every worker is busy all the time. Prints the lateness's
//! percentiles.
//!
//! `cargo run --release -p footlights --example timer_lateness -- [TIMERS] [BUSY_PAIRS] [SECONDS]`
//!
//! Defaults: 20,000 timers over 2 seconds, 64 busy pairs. `BUSY_PAIRS` 0 measures an
//! otherwise idle system.
//!
//! Then, as a control, one plain thread sleeps until each of as many deadlines spread the
//! same way (`std::thread::sleep`), and its lateness is printed too: what the machine's
//! own wake-ups cost, which no timer service can beat.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use footlights::{Actor, Addr, Context, ReplyTo, System};

/// One of a pair bouncing a ball until told to stop.
struct Busy {
    partner: Option<Addr<Busy>>,
    stop: Arc<AtomicBool>,
    bounces: Arc<AtomicU64>,
}

enum Ball {
    Partner(Addr<Busy>),
    Ball(u64),
}

impl Actor for Busy {
    type Msg = Ball;
    fn handle(&mut self, _: &mut Context<Self>, msg: Ball) {
        match msg {
            Ball::Partner(p) => self.partner = Some(p),
            Ball::Ball(mut x) => {
                // About a microsecond of work per bounce.
                for _ in 0..300 {
                    x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) ^ (x >> 29));
                }
                if self.stop.load(Ordering::Relaxed) {
                    self.partner = None;
                    return;
                }
                self.bounces.fetch_add(1, Ordering::Relaxed);
                if let Some(p) = &self.partner {
                    let _ = p.send(Ball::Ball(x));
                }
            }
        }
    }
}

/// Sets `count` timers to itself with delays spread over `span`, and reports how late
/// each was handled.
struct Waiter {
    count: usize,
    span: Duration,
    seed: u64,
    late: Vec<Duration>,
    done: Option<ReplyTo<Vec<Duration>>>,
}

impl Actor for Waiter {
    type Msg = Instant;
    fn started(&mut self, ctx: &mut Context<Self>) {
        let mut x = self.seed | 1;
        let span = u64::try_from(self.span.as_micros())
            .unwrap_or(u64::MAX)
            .max(1);
        for _ in 0..self.count {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let delay = Duration::from_micros(1_000 + x % span);
            ctx.send_after(delay, Instant::now() + delay);
        }
    }
    fn handle(&mut self, ctx: &mut Context<Self>, deadline: Instant) {
        let now = Instant::now();
        assert!(now >= deadline, "a timer fired before its deadline");
        self.late.push(now - deadline);
        if self.late.len() == self.count {
            let _ = self
                .done
                .take()
                .map(|d| d.send(std::mem::take(&mut self.late)));
            ctx.stop();
        }
    }
}

fn arg(n: usize, default: u64, name: &str) -> Result<u64, String> {
    match std::env::args().nth(n) {
        None => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| format!("{name} must be a whole number, not {s:?}")),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let timers = arg(1, 20_000, "TIMERS")?;
    let pairs = arg(2, 64, "BUSY_PAIRS")?;
    let seconds = arg(3, 2, "SECONDS")?;
    if timers == 0 || seconds == 0 {
        return Err("TIMERS and SECONDS must be at least 1".into());
    }
    let system = System::builder().build()?;
    let stop = Arc::new(AtomicBool::new(false));
    let bounces = Arc::new(AtomicU64::new(0));
    for i in 0..pairs {
        let spawn = || {
            system.spawn(Busy {
                partner: None,
                stop: Arc::clone(&stop),
                bounces: Arc::clone(&bounces),
            })
        };
        let (a, b) = (spawn(), spawn());
        a.send(Ball::Partner(b.clone()))?;
        b.send(Ball::Partner(a.clone()))?;
        a.send(Ball::Ball(i + 1))?;
    }
    let waiters = 100.min(timers) as usize;
    let start = Instant::now();
    let replies: Vec<_> = (0..waiters)
        .map(|w| {
            let (done, late) = footlights::reply::pair();
            let count = timers as usize / waiters + usize::from(w < timers as usize % waiters);
            drop(system.spawn(Waiter {
                count,
                span: Duration::from_secs(seconds),
                seed: 0x9E37_79B9_7F4A_7C15 ^ (w as u64 + 1),
                late: Vec::new(),
                done: Some(done),
            }));
            late
        })
        .collect();
    let mut late = Vec::with_capacity(timers as usize);
    for r in replies {
        late.extend(r.wait()?);
    }
    let wall = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    late.sort_unstable();
    println!(
        "timers={} busy_pairs={} workers={} bounces_per_second={:.0}",
        late.len(),
        pairs,
        system.threads(),
        bounces.load(Ordering::Relaxed) as f64 / wall.as_secs_f64()
    );
    percentiles("lateness_us", &late);
    system.shutdown();
    percentiles(
        "control_thread_sleep_us",
        &control(timers, Duration::from_secs(seconds)),
    );
    Ok(())
}

/// Prints the percentiles of `sorted` (not empty), in microseconds, after `label`.
fn percentiles(label: &str, sorted: &[Duration]) {
    let us = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    println!(
        "{label} p50={:.0} p90={:.0} p99={:.0} p99.9={:.0} max={:.0}",
        us(0.5),
        us(0.9),
        us(0.99),
        us(0.999),
        us(1.0)
    );
}

/// One thread sleeping until each of `count` deadlines spread over `span` in turn: how
/// late it wakes, sorted.
fn control(count: u64, span: Duration) -> Vec<Duration> {
    let start = Instant::now();
    let step = span / u32::try_from(count).unwrap_or(u32::MAX);
    let mut late: Vec<Duration> = (1..=count)
        .map(|k| {
            let deadline = start + Duration::from_millis(1) + step * k as u32;
            let now = Instant::now();
            if deadline > now {
                std::thread::sleep(deadline - now);
            }
            Instant::now().saturating_duration_since(deadline)
        })
        .collect();
    late.sort_unstable();
    late
}
