//! Names, recipients and several message types together: a metrics service found by name,
//! fed by workers through a `Recipient` of the one message type they know, and asked for
//! its totals with a message type of its own.
//!
//! `cargo run --release -p footlights --example naming -- [WORKERS]` (default 4). Prints
//! the total each worker reported and exits non-zero if a sample was lost.

use footlights::{Actor, Context, Handler, Recipient, System};

/// What a worker reports: one sample.
struct Sample {
    worker: usize,
    value: u64,
}

/// Sums samples per worker; registers itself as "metrics".
struct Metrics {
    totals: Vec<u64>,
}

impl Actor for Metrics {
    type Msg = Sample;
    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.register("metrics").expect("one metrics service");
    }
    fn handle(&mut self, _: &mut Context<Self>, s: Sample) {
        if s.worker >= self.totals.len() {
            self.totals.resize(s.worker + 1, 0);
        }
        self.totals[s.worker] += s.value;
    }
}

/// A question for the metrics service, answered with its totals.
struct Totals;

impl Handler<Totals> for Metrics {
    type Reply = Vec<u64>;
    fn handle(&mut self, _: &mut Context<Self>, _: Totals) -> Vec<u64> {
        self.totals.clone()
    }
}

/// Does `jobs` jobs, reporting each to whatever accepts samples.
struct Worker {
    id: usize,
    report: Recipient<Sample>,
}

impl Actor for Worker {
    type Msg = u64;
    fn handle(&mut self, ctx: &mut Context<Self>, jobs: u64) {
        for job in 1..=jobs {
            let _ = self.report.send(Sample {
                worker: self.id,
                value: job,
            });
        }
        ctx.stop();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let workers: usize = match std::env::args().nth(1) {
        None => 4,
        Some(n) => n
            .parse()
            .map_err(|e| format!("WORKERS must be a count of workers, not {n:?}: {e}"))?,
    };
    let jobs = 1000u64;
    let system = System::builder().build()?;
    drop(system.spawn(Metrics { totals: Vec::new() }));
    system.wait_quiescent(); // it has named itself

    let metrics = system.lookup::<Metrics>("metrics")?;
    for id in 0..workers {
        let report = metrics.msg_recipient();
        system.spawn(Worker { id, report }).send(jobs)?;
    }
    system.wait_quiescent();

    let totals = metrics.request(Totals)?.wait()?;
    let expected = jobs * (jobs + 1) / 2;
    for (id, total) in totals.iter().enumerate() {
        println!("worker {id}: {total}");
    }
    if totals.len() != workers || totals.iter().any(|&t| t != expected) {
        return Err(format!("expected {workers} totals of {expected}, got {totals:?}").into());
    }
    Ok(())
}
