//! The suite's `counting` benchmark (one producer sends `COUNT` increments to a counter,
//! then asks for its value), with the counter's mailbox unbounded, as in the benchmark,
//! or bounded: what a bounded mailbox does to its time and memory.
//!
//! `cargo run --release -p footlights --example counting -- [COUNT] [CAPACITY|unbounded]`
//!
//! Unbounded (the default, and the benchmark's shape), the producer sends every
//! increment from its `started` hook with `Addr::send`; on one worker the counter runs
//! only afterwards, so its mailbox holds all of them at once. Bounded, the producer sends
//! with [`Context::send`] while it is not muted and goes on in its next message, so the
//! mailbox holds at most `CAPACITY` increments plus one. It prints the time from spawning
//! the two actors to the answer, the peak resident memory (`VmHWM`), and the value, which
//! must be `COUNT` (the exit status is 1 if not).

use std::process::ExitCode;
use std::time::Instant;

use footlights::{Actor, Addr, Context, ReplyTo, SpawnOptions, System};

#[path = "common/rss.rs"]
mod rss;

// The allocator footlights-suite and the benches use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What the counter receives.
enum Msg {
    Increment,
    Get(ReplyTo<u64>),
}

/// Counts increments.
struct Counter {
    count: u64,
}

impl Actor for Counter {
    type Msg = Msg;
    fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Increment => self.count += 1,
            Msg::Get(reply) => {
                let _ = reply.send(self.count);
            }
        }
    }
}

/// Sends the increments, then the query.
struct Producer {
    left: u64,
    bounded: bool,
    counter: Addr<Counter>,
    answer: Option<ReplyTo<u64>>,
}

/// Go on sending (bounded: after being muted).
struct More;

impl Producer {
    /// Asks the counter for its value and passes it on.
    fn ask(&mut self, ctx: &mut Context<Self>) {
        let reply = self.counter.ask(Msg::Get).expect("the counter runs");
        let answer = self.answer.take();
        ctx.then(reply, move |_, ctx, value| {
            if let (Some(answer), Ok(value)) = (answer, value) {
                let _ = answer.send(value);
            }
            ctx.stop();
        });
    }
}

impl Actor for Producer {
    type Msg = More;
    fn started(&mut self, ctx: &mut Context<Self>) {
        if self.bounded {
            return self.handle(ctx, More);
        }
        // The benchmark's producer: everything at once.
        for _ in 0..self.left {
            let _ = self.counter.send(Msg::Increment);
        }
        self.ask(ctx);
    }
    fn handle(&mut self, ctx: &mut Context<Self>, More: More) {
        while self.left > 0 && !ctx.is_muted() {
            ctx.send(&self.counter, Msg::Increment)
                .expect("the counter runs");
            self.left -= 1;
        }
        if self.left > 0 {
            let _ = ctx.addr().send(More);
        } else {
            self.ask(ctx);
        }
    }
}

fn main() -> ExitCode {
    let count = match std::env::args().nth(1).map(|t| t.parse::<u64>()) {
        None => 1_000_000,
        Some(Ok(count)) => count,
        Some(Err(e)) => {
            eprintln!("counting: COUNT must be a number: {e}");
            return ExitCode::from(2);
        }
    };
    let capacity = match std::env::args().nth(2).as_deref() {
        None | Some("unbounded") => None,
        Some(text) => match text.parse::<usize>() {
            Ok(c) if c > 0 => Some(c),
            _ => {
                eprintln!(
                    "counting: CAPACITY must be a positive number or `unbounded`, got {text:?}"
                );
                return ExitCode::from(2);
            }
        },
    };
    let system = match System::builder().build() {
        Ok(system) => system,
        Err(e) => {
            eprintln!("counting: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let options = capacity.map_or_else(SpawnOptions::new, |c| SpawnOptions::new().capacity(c));
    let counter = system.spawn_with(Counter { count: 0 }, options);
    let (answer, value) = footlights::reply::pair();
    drop(system.spawn(Producer {
        left: count,
        bounded: capacity.is_some(),
        counter,
        answer: Some(answer),
    }));
    let value = value.wait();
    let elapsed = start.elapsed();
    let mailbox = capacity.map_or("unbounded".to_owned(), |c| format!("capacity {c}"));
    println!(
        "counting {count} ({mailbox}, {} workers): {:.2} ms, peak rss {:.1} MiB, value {value:?}",
        system.threads(),
        elapsed.as_secs_f64() * 1e3,
        rss::status_mib("VmHWM:"),
    );
    if value == Ok(count) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
