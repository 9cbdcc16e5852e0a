//! `footlights-suite`: the twenty-two benchmarks of the actor benchmark suite on footlights.
//!
//! `footlights-suite BENCH [NAME=VALUE ...]` runs one benchmark and prints one line,
//! `result bench=BENCH check=VALUE seconds=S`, on standard output; `footlights-suite
//! --help` lists the benchmarks, their parameters, quick defaults, ranges and seed values.
//! The worker thread count comes from `FOOTLIGHTS_THREADS` (else the available
//! parallelism), and the rest of the runtime's configuration from its other variables:
//! `FOOTLIGHTS_SCHEDULER` (steal, share, stages), `FOOTLIGHTS_POLICY` (task, thread,
//! inline) and `FOOTLIGHTS_PLACEMENT` (manual, observe, auto); see `footlights::config`.
//! The programs themselves place nothing, so each configuration runs the same code, which
//! is how `suite.toml`'s footlights variants compare schedulers, policies and placement.
//!
//! This file is the shell: [`suite_contract::run_main`] does the process protocol (help,
//! parsing, the exact error messages, exit statuses 0/1/2, panics, and the work time
//! `seconds`, which starts before [`run::start`] creates the system and ends when the
//! benchmark builds its [`Outcome`], before the system shuts down), [`run`] starts and
//! ends the footlights system, and each benchmark lives in its own module, whose
//! documentation explains how it maps onto footlights actors.

mod bang;
mod banking;
mod barber;
mod big;
mod bndbuffer;
mod chameneos;
mod cigsmok;
mod concdict;
mod concsll;
mod counting;
mod fannkuch;
mod fibtree;
mod fjcreate;
mod fjthrput;
mod logmap;
mod mixed;
mod parent;
mod philosopher;
mod pingpong;
mod run;
mod serialmsg;
mod skynet;
mod splitmix;
mod spreading;
mod tally;
mod threadring;

use std::process::ExitCode;

use footlights::System;
use suite_contract::{Bench, Invocation, Outcome};

/// mimalloc, as every measured Rust program here uses, unless built with the
/// `system-alloc` feature (to measure what the allocator is worth).
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    suite_contract::run_main("footlights-suite", |inv| {
        let system = run::start()?;
        let result = bench(inv.bench())(&system, inv);
        if result.is_ok() {
            eprintln!(
                "footlights-suite: {} ran on {} threads",
                inv.bench(),
                system.threads()
            );
        }
        run::finish(system, &result);
        result
    })
}

/// A benchmark's entry point: run it on a system, with the invocation's parameters.
type Runner = fn(&System, &Invocation) -> Result<Outcome, String>;

/// The entry point of each benchmark.
fn bench(bench: Bench) -> Runner {
    match bench {
        Bench::Threadring => threadring::run,
        Bench::Chameneos => chameneos::run,
        Bench::Big => big::run,
        Bench::Fannkuch => fannkuch::run,
        Bench::Fibtree => fibtree::run,
        Bench::Skynet => skynet::run,
        Bench::Spreading => spreading::run,
        Bench::Mixed => mixed::run,
        Bench::Bang => bang::run,
        Bench::Serialmsg => serialmsg::run,
        Bench::Pingpong => pingpong::run,
        Bench::Counting => counting::run,
        Bench::Fjthrput => fjthrput::run,
        Bench::Fjcreate => fjcreate::run,
        Bench::Concdict => concdict::run,
        Bench::Concsll => concsll::run,
        Bench::Bndbuffer => bndbuffer::run,
        Bench::Philosopher => philosopher::run,
        Bench::Barber => barber::run,
        Bench::Cigsmok => cigsmok::run,
        Bench::Logmap => logmap::run,
        Bench::Banking => banking::run,
    }
}
