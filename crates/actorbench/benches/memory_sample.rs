//! What the memory limit's watchdog costs: one sample of a run's process group.
//!
//! Run with `cargo bench -p actorbench --bench memory_sample`. The group is a `sleep`
//! child in a process group of its own (a run is one process, or two for BEAM). Each
//! iteration is one `GroupRss::sample`, which includes, every tenth time, the `/proc`
//! scan for new members, so the mean is the cost per sample averaged the way a run pays
//! it. At one sample per `memory::PERIOD` (100 ms), the watchdog's share of a CPU is ten
//! times the mean per second. The figure is in `docs/experiments/2026-11-23-memory-watchdog.md`.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use std::os::unix::process::CommandExt;

use actorbench::memory::GroupRss;
use criterion::{Criterion, criterion_group, criterion_main};

fn sample(c: &mut Criterion) {
    let mut child = std::process::Command::new("sleep")
        .arg("600")
        .process_group(0)
        .spawn()
        .expect("sleep");
    let mut group = GroupRss::new(child.id() as libc::pid_t);
    c.bench_function("memory limit: one sample of a one-process group", |b| {
        b.iter(|| group.sample())
    });
    let _ = child.kill();
    let _ = child.wait();
}

criterion_group!(benches, sample);
criterion_main!(benches);
