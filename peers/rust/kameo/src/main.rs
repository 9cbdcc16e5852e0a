//! `kameo-suite`: the actor benchmark suite on [kameo](https://crates.io/crates/kameo).
//!
//! `kameo-suite BENCH [NAME=VALUE ...]` runs one benchmark and prints its result line
//! (see `suite_contract`). Every benchmark runs on one multi-thread tokio runtime whose
//! worker count is tokio's own knob, `TOKIO_WORKER_THREADS` (default: one per CPU); each
//! kameo actor is a tokio task, so the runtime's work-stealing scheduler spreads the
//! actors over those workers. Each benchmark is one module, written the way kameo's users
//! write actors: a struct deriving `Actor`, one `Message<T>` impl per message, `tell` for
//! one-way sends, and `ask` with a `DelegatedReply` where the answer comes later.
//!
//! Mailboxes: kameo's `spawn` gives an actor a bounded mailbox (64 messages), whose
//! `tell(..).await` waits while the mailbox is full. Actors that message each other in
//! cycles (big's workers, chameneos's place and creatures) can then wait on each other
//! for ever, and the other runtimes in the comparison queue without limit, so every actor
//! here is spawned with `mailbox::unbounded()`.
//!
//! The work time in the result line (`seconds=`) starts in `suite_contract::run_main`,
//! just before the closure below builds the tokio runtime, and stops when the benchmark
//! builds its `Outcome`. After the result is known the runtime is shut down in the
//! background rather than waiting for every actor to wind down: the process exits right
//! after printing.

use std::process::ExitCode;

use suite_contract::{Bench, Invocation, Outcome};

mod bang;
mod banking;
mod barber;
mod big;
mod bndbuffer;
mod chameneos;
mod cigsmok;
mod collector;
mod concdict;
mod concsll;
mod counting;
mod fannkuch;
mod fibtree;
mod fjcreate;
mod fjthrput;
mod logmap;
mod mixed;
mod philosopher;
mod pingpong;
mod serialmsg;
mod skynet;
mod spreading;
mod threadring;
mod tree;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    suite_contract::run_main("kameo-suite", |inv| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
        let outcome = runtime.block_on(run(inv));
        runtime.shutdown_background();
        outcome
    })
}

/// Runs the benchmark of `inv` with its parameters.
async fn run(inv: &Invocation) -> Result<Outcome, String> {
    let p = |name| inv.get(name);
    match inv.bench() {
        Bench::Threadring => threadring::run(p("actors"), p("hops")).await,
        Bench::Chameneos => chameneos::run(p("creatures"), p("meetings")).await,
        Bench::Big => big::run(p("workers"), p("pings"), p("hood")).await,
        Bench::Fannkuch => fannkuch::run(p("n")).await,
        Bench::Fibtree => fibtree::run(p("n")).await,
        Bench::Skynet => skynet::run(p("size"), p("div")).await,
        Bench::Spreading => spreading::run(p("depth")).await,
        Bench::Mixed => mixed::run(p("rings"), p("ring_size"), p("token"), p("reps")).await,
        Bench::Bang => bang::run(p("senders"), p("messages")).await,
        Bench::Serialmsg => serialmsg::run(p("pairs"), p("messages")).await,
        Bench::Pingpong => pingpong::run(p("pings")).await,
        Bench::Counting => counting::run(p("count")).await,
        Bench::Fjthrput => fjthrput::run(p("actors"), p("messages")).await,
        Bench::Fjcreate => fjcreate::run(p("actors")).await,
        Bench::Concdict => concdict::run(p("workers"), p("messages"), p("write_pct")).await,
        Bench::Concsll => {
            let (workers, messages) = (p("workers"), p("messages"));
            concsll::run(workers, messages, p("write_pct"), p("size_pct")).await
        }
        Bench::Bndbuffer => {
            let (buffer, producers, consumers) = (p("buffer"), p("producers"), p("consumers"));
            bndbuffer::run(buffer, producers, consumers, p("items"), p("cost")).await
        }
        Bench::Philosopher => philosopher::run(p("philosophers"), p("rounds")).await,
        Bench::Barber => barber::run(p("haircuts"), p("room"), p("arrival"), p("cut")).await,
        Bench::Cigsmok => cigsmok::run(p("rounds"), p("smokers")).await,
        Bench::Logmap => logmap::run(p("terms"), p("series"), p("rate"), p("increment")).await,
        Bench::Banking => banking::run(p("accounts"), p("transactions")).await,
    }
}
