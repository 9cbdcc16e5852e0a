//! The collector most Savina benchmarks end with: it adds up pairs of numbers that a known
//! number of actors report, and answers the main thread with the two sums.
//!
//! A report is a message `(a, b)`; the tally adds both halves (wrapping, as the contract's
//! digests do) and, once `reports` have arrived, answers the [`Reply`] the main thread
//! waits on and stops. A tally expecting no reports answers as soon as it starts.

use footlights::{Actor, Addr, Context, Reply, ReplyTo, System};

/// Adds up `(a, b)` reports.
pub struct Tally {
    /// Reports still to come.
    missing: u64,
    sums: (u64, u64),
    answer: Option<ReplyTo<(u64, u64)>>,
}

impl Tally {
    /// Spawns a tally on `system` expecting `reports` reports; returns its address and the
    /// reply that will carry the two sums.
    pub fn spawn(system: &System, reports: u64) -> (Addr<Tally>, Reply<(u64, u64)>) {
        let (answer, sums) = footlights::reply::pair();
        let tally = system.spawn(Tally {
            missing: reports,
            sums: (0, 0),
            answer: Some(answer),
        });
        (tally, sums)
    }

    fn answer_if_complete(&mut self, ctx: &mut Context<Self>) {
        if self.missing == 0 {
            if let Some(answer) = self.answer.take() {
                let _ = answer.send(self.sums);
            }
            ctx.stop();
        }
    }
}

impl Actor for Tally {
    /// One report.
    type Msg = (u64, u64);

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.answer_if_complete(ctx);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, (a, b): (u64, u64)) {
        self.sums.0 = self.sums.0.wrapping_add(a);
        self.sums.1 = self.sums.1.wrapping_add(b);
        self.missing = self.missing.saturating_sub(1);
        self.answer_if_complete(ctx);
    }
}
