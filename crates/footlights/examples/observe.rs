//! The `tracing` and `metrics` features in one program: the runtime's events printed by
//! `tracing-subscriber`'s formatter (set `RUST_LOG`-style filtering in your own program;
//! here every level is shown), and the counters published to a recorder and printed.
//!
//! ```sh
//! cargo run -p footlights --features tracing,metrics --example observe
//! ```

use std::time::Duration;

use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
use footlights::{Actor, Context, System};
use metrics_util::debugging::DebuggingRecorder;

/// Fails on 0; a supervisor restarts it.
struct Worker;
impl Actor for Worker {
    type Msg = u32;
    fn handle(&mut self, _: &mut Context<Self>, n: u32) {
        assert!(n != 0, "cannot work on 0");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_target(true)
        .init();
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::set_global_recorder(recorder)?;

    let system = System::builder().on_panic(|_| {}).build()?;
    let supervisor = Supervisor::spawn(
        &system,
        Strategy::OneForOne,
        Intensity::new(3, Duration::from_secs(1)),
    );
    let worker = supervisor.child(Restart::Permanent, || Worker);
    for n in [1, 0, 2, 3] {
        worker.send(n)?;
    }
    let _tick = worker.send_after(Duration::from_millis(5), 4);
    std::thread::sleep(Duration::from_millis(20));
    system.wait_quiescent();
    system.publish_metrics();
    for (key, _, _, value) in snapshotter.snapshot().into_vec() {
        println!("{} {:?}", key.key().name(), value);
    }
    system.shutdown();
    Ok(())
}
