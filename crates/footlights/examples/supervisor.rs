//! A supervised service: a parser that panics on bad input, restarted in place by its
//! supervisor, so that its callers keep the one address they have; and a supervisor that
//! gives up when its children fail too often.
//!
//! `cargo run --release -p footlights --example supervisor`. Prints what happened and
//! exits non-zero if the runtime did not behave as the supervision docs say.

use std::process::ExitCode;
use std::time::Duration;

use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
use footlights::{Actor, Context, ExitReason, ReplyTo, System};

/// Parses numbers and keeps their sum; panics on input that is not a number (a bug the
/// supervisor contains).
#[derive(Default)]
struct Parser {
    sum: i64,
}

enum Msg {
    Parse(String),
    Sum(ReplyTo<i64>),
}

impl Actor for Parser {
    type Msg = Msg;
    fn started(&mut self, _: &mut Context<Self>) {
        println!("parser: started with a fresh state");
    }
    fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Parse(text) => self.sum += text.parse::<i64>().expect("a number"),
            Msg::Sum(reply) => {
                let _ = reply.send(self.sum);
            }
        }
    }
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    // The system's panic hook below reports each panic in a line; Rust's own would add a
    // backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let system = System::builder()
        .on_panic(|report| println!("panic in {}: {}", report.actor, report.message))
        .build()?;
    let supervisor = Supervisor::spawn(
        &system,
        Strategy::OneForOne,
        Intensity::new(2, Duration::from_secs(60)),
    );
    let parser = supervisor.child(Restart::Permanent, Parser::default);
    let mut ok = true;

    for text in ["1", "2", "oops", "40", "2"] {
        parser.send(Msg::Parse(text.to_owned()))?;
    }
    // "oops" panicked: the sum of 1 and 2 went with the old state; the new one summed
    // what was queued behind the bad input.
    let sum = parser.ask(Msg::Sum)?.wait()?;
    println!(
        "sum after one bad input: {sum} (expected 42), same address: {:?}",
        parser.id()
    );
    ok &= sum == 42;

    // Two more failures within the minute: the second exceeds the intensity.
    let stopped = supervisor.when_stopped();
    parser.send(Msg::Parse("bad".to_owned()))?;
    parser.send(Msg::Parse("worse".to_owned()))?;
    let reason = stopped.wait()?.reason;
    println!("supervisor stopped: {reason}");
    ok &= reason == ExitReason::TooManyRestarts;
    ok &= parser.when_stopped().wait().is_ok() && parser.is_stopped();

    println!("{}", if ok { "ok" } else { "UNEXPECTED" });
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
