//! What the event counters cost a run: one `exec::run` of `true` with and without them.
//!
//! Run with `cargo bench -p actorbench --bench counters_open`. With counters, the child
//! waits in its `pre_exec` hook while a harness thread opens the eight counters on it
//! (see `actorbench::counters`), and they are read after the reap; the difference of the
//! two means is what each run's wall time gains (it is paid before the program's first
//! instruction, so a program's own `seconds=` does not see it).

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use std::time::Duration;

use actorbench::exec::{self, Spec};
use criterion::{Criterion, criterion_group, criterion_main};

fn spec(counters: bool) -> Spec {
    Spec {
        argv: vec!["true".into()],
        env: Vec::new(),
        env_remove: Vec::new(),
        cwd: std::env::temp_dir(),
        cpus: None,
        timeout: Duration::from_secs(10),
        memory_limit: None,
        counters,
    }
}

fn open(c: &mut Criterion) {
    let mut g = c.benchmark_group("a run of `true`");
    g.sample_size(30);
    for counters in [false, true] {
        let s = spec(counters);
        let name = if counters {
            "with counters"
        } else {
            "without counters"
        };
        g.bench_function(name, |b| b.iter(|| exec::run(&s).expect("true runs")));
    }
    g.finish();
}

criterion_group!(benches, open);
criterion_main!(benches);
