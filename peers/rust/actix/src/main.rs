//! `actix-suite`: the actor benchmark suite on [actix](https://crates.io/crates/actix).
//!
//! `actix-suite BENCH [NAME=VALUE ...]` runs one benchmark and prints its result line
//! (see `suite_contract`). An actix actor lives for good on one arbiter, a thread with its
//! own single-threaded event loop, and actix does not move actors between arbiters. The
//! thread count is therefore the number of arbiters, taken from `ACTIX_THREADS` (default:
//! the CPUs this process may run on): the `System`'s own arbiter on the main thread, where
//! each benchmark's code runs, and `arbiters.rs` starts the rest with `Arbiter::try_new()`.
//! Actors start where they belong, as actix programs place them: on the current arbiter
//! (`Actor::start`) unless they are work independent of the rest, which goes to another
//! arbiter with `Actor::start_in_arbiter` (fannkuch's workers, big's neighbourhoods,
//! mixed's rings, the top of the trees, counting's producer); each module says where its
//! actors run and why. Each benchmark is one module, written the way actix's users write actors:
//! `Actor` with `Context<Self>`, `#[derive(Message)]` messages, one `Handler<M>` per
//! message, `Addr::do_send` for one-way sends and `send(..).await` for replies.
//!
//! The work time in the result line (`seconds=`) starts in `suite_contract::run_main`,
//! just before the closure below creates the actix `System`, and stops when the
//! benchmark builds its `Outcome`.

use std::process::ExitCode;

use suite_contract::{Bench, Invocation, Outcome};

mod arbiters;
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
    suite_contract::run_main("actix-suite", |inv| {
        let threads = arbiters::configured_threads()?;
        let system = actix::System::new();
        system.block_on(async {
            arbiters::start_pool(threads)?;
            run(inv).await
        })
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
