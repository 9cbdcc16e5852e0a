//! Memory under overload: a producer far faster than its consumer, for a few seconds,
//! into a bounded or an unbounded mailbox.
//!
//! `cargo run --release -p footlights --example overload -- [SECONDS] [CAPACITY|unbounded] [RATE] [WORK]`
//!
//! The producer (an actor) sends 64-byte messages at `RATE` per second (default
//! 500,000) with [`Context::send`] for `SECONDS` (default 4); the consumer spends `WORK`
//! rounds of arithmetic on each (default 2,000, about 10 µs here: some 100,000 messages
//! a second). Into an unbounded mailbox the backlog, and the memory, grows for as long
//! as the producer runs; into a bounded one of `CAPACITY` messages (default 1024) the
//! producer is muted whenever the mailbox is full, so it sends at its consumer's pace and
//! the memory stays flat. Every 500 ms a line gives the resident memory and the backlog;
//! at the end the peak resident memory (`VmHWM`) and the check that every message sent
//! was handled (the exit status is 1 if not).

use std::hint::black_box;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use footlights::{Actor, Addr, Context, ReplyTo, SpawnOptions, System};

#[path = "common/rss.rs"]
mod rss;
use rss::status_mib;

// The allocator footlights-suite and the benches use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A 64-byte message: its sequence number, and padding.
struct Item([u64; 8]);

/// Spends `work` rounds on each message, and counts them.
struct Consumer {
    work: u64,
    handled: Arc<AtomicU64>,
    next: u64,
    out_of_order: u64,
}

enum ConsumerMsg {
    Item(Item),
    Count(ReplyTo<(u64, u64)>),
}

impl Actor for Consumer {
    type Msg = ConsumerMsg;
    fn handle(&mut self, _: &mut Context<Self>, msg: ConsumerMsg) {
        match msg {
            ConsumerMsg::Item(Item(words)) => {
                let mut x = words[0];
                for _ in 0..self.work {
                    x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
                }
                black_box(x);
                if words[0] != self.next {
                    self.out_of_order += 1;
                }
                self.next = words[0] + 1;
                self.handled.fetch_add(1, Ordering::Relaxed);
            }
            ConsumerMsg::Count(answer) => {
                let _ = answer.send((self.handled.load(Ordering::Relaxed), self.out_of_order));
            }
        }
    }
}

/// Sends at `rate` per second until `until`, then asks the consumer for its count.
struct Producer {
    to: Addr<Consumer>,
    start: Instant,
    until: Duration,
    rate: f64,
    sent: Arc<AtomicU64>,
    done: Option<ReplyTo<(u64, u64, u64)>>,
}

/// Go on sending.
struct More;

impl Actor for Producer {
    type Msg = More;
    fn started(&mut self, ctx: &mut Context<Self>) {
        self.handle(ctx, More);
    }
    fn handle(&mut self, ctx: &mut Context<Self>, More: More) {
        let elapsed = self.start.elapsed();
        let mut sent = self.sent.load(Ordering::Relaxed);
        if elapsed >= self.until {
            let Some(done) = self.done.take() else { return };
            let count = self.to.ask(ConsumerMsg::Count).expect("the consumer runs");
            ctx.then(count, move |_, ctx, counted| {
                let (handled, out_of_order) = counted.expect("the consumer answers");
                let _ = done.send((sent, handled, out_of_order));
                ctx.stop();
            });
            return;
        }
        // On schedule, by at most 10,000 messages per turn.
        let due = ((self.rate * elapsed.as_secs_f64()) as u64).min(sent + 10_000);
        while sent < due && !ctx.is_muted() {
            let item = ConsumerMsg::Item(Item([sent; 8]));
            ctx.send(&self.to, item).expect("the consumer runs");
            sent += 1;
        }
        self.sent.store(sent, Ordering::Relaxed);
        let _ = ctx.addr().send(More); // handled once unmuted, if muted
    }
}

fn arg<T: std::str::FromStr>(n: usize, name: &str, default: T) -> Result<T, String> {
    match std::env::args().nth(n) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("overload: {name} must be a number, got {text:?}")),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let seconds: f64 = arg(1, "SECONDS", 4.0)?;
    let capacity = match std::env::args().nth(2).as_deref() {
        None => Some(1024),
        Some("unbounded") => None,
        Some(text) => match text.parse::<usize>() {
            Ok(c) if c > 0 => Some(c),
            _ => {
                return Err(format!(
                    "overload: CAPACITY must be a positive number or `unbounded`, got {text:?}"
                ));
            }
        },
    };
    let rate: f64 = arg(3, "RATE", 500_000.0)?;
    let work: u64 = arg(4, "WORK", 2_000)?;

    let system = System::builder().build().map_err(|e| e.to_string())?;
    let handled = Arc::new(AtomicU64::new(0));
    let sent = Arc::new(AtomicU64::new(0));
    let options = match capacity {
        Some(c) => SpawnOptions::new().capacity(c),
        None => SpawnOptions::new(),
    };
    let consumer = system.spawn_with(
        Consumer {
            work,
            handled: Arc::clone(&handled),
            next: 0,
            out_of_order: 0,
        },
        options,
    );
    let (done, outcome) = footlights::reply::pair();
    let start = Instant::now();
    drop(system.spawn(Producer {
        to: consumer,
        start,
        until: Duration::from_secs_f64(seconds),
        rate,
        sent: Arc::clone(&sent),
        done: Some(done),
    }));
    let mailbox = capacity.map_or("unbounded".to_owned(), |c| format!("capacity {c}"));
    println!(
        "overload: {seconds} s at {rate} msg/s into a {mailbox} mailbox, {work} rounds per message, {} workers",
        system.threads()
    );
    let finished = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (finished, handled, sent) = (Arc::clone(&finished), handled, sent);
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                let (s, h) = (
                    sent.load(Ordering::Relaxed),
                    handled.load(Ordering::Relaxed),
                );
                println!(
                    "  {:5.1} s  rss {:7.1} MiB  sent {s:>9}  handled {h:>9}  backlog {:>9}",
                    start.elapsed().as_secs_f64(),
                    status_mib("VmRSS:"),
                    s.saturating_sub(h),
                );
            }
        })
    };
    let (total_sent, total_handled, out_of_order) = outcome.wait().map_err(|e| e.to_string())?;
    finished.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "sent {total_sent}, handled {total_handled}, lost {}, out of order {out_of_order}; {elapsed:.2} s; peak rss {:.1} MiB",
        total_sent - total_handled.min(total_sent),
        status_mib("VmHWM:"),
    );
    Ok(total_sent == total_handled && out_of_order == 0)
}
