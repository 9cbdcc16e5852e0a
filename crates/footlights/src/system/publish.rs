//! The system's counters through the [`metrics`](https://docs.rs/metrics) facade, for the
//! `metrics` cargo feature.
//!
//! The runtime already counts what matters per worker (turns, messages, steals, parks,
//! spawns and stops; [`crate::Metrics`]), without a shared write on any hot path. To export
//! them, [`System::publish_metrics`] reads a snapshot and hands every value to the metrics
//! recorder the program installed (a Prometheus exporter, StatsD, a test's recorder): the
//! counters as absolute values, so publishing often or rarely gives the same series. Call
//! it on a schedule that suits the recorder: from a thread, a tokio interval, or a timer
//! of the system itself. Nothing is read or written between calls, so the feature costs
//! the runtime nothing while the program does not publish.
//!
//! | name | kind | labels | what |
//! |---|---|---|---|
//! | `footlights_messages_sent_total` | counter | | messages sent, inside and outside the runtime |
//! | `footlights_messages_handled_total` | counter | | messages handled |
//! | `footlights_turns_total` | counter | | turns run |
//! | `footlights_steals_total` | counter | | successful steals (batches taken from another worker) |
//! | `footlights_parks_total` | counter | | times a worker parked |
//! | `footlights_actors_spawned_total` | counter | | actors spawned |
//! | `footlights_actors_stopped_total` | counter | | actors stopped |
//! | `footlights_dead_letters_total` | counter | | messages dropped undelivered |
//! | `footlights_actors_live` | gauge | | actors spawned and not yet stopped |
//! | `footlights_worker_turns_total` | counter | `worker` | turns run by each pool worker |
//! | `footlights_mailbox_depth` | gauge | `name` | messages waiting in each named actor's bounded mailbox |
//!
//! Only bounded mailboxes keep a count of their messages (an unbounded one would have to
//! pay an atomic increment on every send for it), so only named actors spawned with a
//! capacity have a `footlights_mailbox_depth`.

use super::System;

impl System {
    /// Hands the system's counters, and the mailbox depth of its named bounded actors, to
    /// the installed [`metrics`](https://docs.rs/metrics) recorder (the table in this
    /// module's source lists the names). Available with the `metrics` feature.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Echo;
    /// impl Actor for Echo {
    ///     type Msg = u32;
    ///     fn handle(&mut self, _ctx: &mut Context<Self>, _n: u32) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().build()?;
    /// let echo = system.spawn(Echo);
    /// echo.send(1)?;
    /// system.wait_quiescent();
    /// // With no recorder installed the values go nowhere; install one (a Prometheus
    /// // exporter, say) at start-up, and call this on a schedule.
    /// system.publish_metrics();
    /// # Ok(()) }
    /// ```
    pub fn publish_metrics(&self) {
        let snapshot = self.metrics();
        let all = snapshot.all_threads();
        metrics::counter!("footlights_messages_sent_total").absolute(snapshot.messages_sent());
        metrics::counter!("footlights_messages_handled_total").absolute(all.messages_handled);
        metrics::counter!("footlights_turns_total").absolute(all.turns);
        metrics::counter!("footlights_steals_total").absolute(all.steals);
        metrics::counter!("footlights_parks_total").absolute(all.parks);
        metrics::counter!("footlights_actors_spawned_total")
            .absolute(all.actors_spawned + snapshot.external_actors_spawned);
        metrics::counter!("footlights_actors_stopped_total").absolute(all.actors_stopped);
        metrics::counter!("footlights_dead_letters_total").absolute(snapshot.dead_letters);
        metrics::gauge!("footlights_actors_live").set(snapshot.live_actors() as f64);
        for (i, worker) in snapshot.workers.iter().enumerate() {
            metrics::counter!("footlights_worker_turns_total", "worker" => i.to_string())
                .absolute(worker.turns);
        }
        for (name, depth) in self.shared.registry.depths() {
            metrics::gauge!("footlights_mailbox_depth", "name" => name).set(depth as f64);
        }
    }
}
