//! A supervision tree: a root supervisor over a `workers` supervisor over two parsers
//! that panic on bad input. A parser that fails is restarted in place by `workers`, so its
//! callers keep the one address they have; when the parsers fail too often for `workers`,
//! the failure goes up and the root restarts `workers` with its whole subtree (addresses
//! kept); when that happens too often too, the root gives up.
//!
//! `cargo run --release -p footlights --example supervisor`. Prints what happened and
//! exits non-zero if the runtime did not behave as the supervision docs say.

use std::process::ExitCode;
use std::time::Duration;

use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
use footlights::{Actor, Addr, Context, ExitReason, ReplyTo, System};

/// Parses numbers and keeps their sum; panics on input that is not a number (a bug the
/// supervisor contains).
struct Parser {
    name: &'static str,
    sum: i64,
}

enum Msg {
    Parse(String),
    Sum(ReplyTo<i64>),
}

impl Actor for Parser {
    type Msg = Msg;
    fn started(&mut self, _: &mut Context<Self>) {
        println!("{}: started with a fresh state", self.name);
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

/// Sends each of `texts` to `parser`, then asks for its sum.
fn parse(parser: &Addr<Parser>, texts: &[&str]) -> Result<i64, Box<dyn std::error::Error>> {
    for text in texts {
        parser.send(Msg::Parse((*text).to_owned()))?;
    }
    Ok(parser.ask(Msg::Sum)?.wait()?)
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    // The system's panic hook below reports each panic in a line; Rust's own would add a
    // backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let system = System::builder()
        .on_panic(|report| println!("panic in {}: {}", report.actor, report.message))
        .build()?;
    let once_a_minute = || Intensity::new(1, Duration::from_secs(60));
    let root = Supervisor::spawn(&system, Strategy::OneForOne, once_a_minute());
    // The two parsers restart together: one-for-all.
    let workers = root.supervisor(Restart::Permanent, Strategy::OneForAll, once_a_minute());
    let parser = workers.child(Restart::Permanent, || Parser {
        name: "parser",
        sum: 0,
    });
    let spare = workers.child(Restart::Permanent, || Parser {
        name: "spare",
        sum: 0,
    });
    let mut ok = parse(&spare, &["100"])? == 100;

    // "oops" panics: `workers` restarts the parser (the sum of 1 and 2 went with the old
    // state; the new one sums what was queued behind the bad input) and the spare.
    let sum = parse(&parser, &["1", "2", "oops", "40", "2"])?;
    println!("sum after one bad input: {sum} (expected 42)");
    ok &= sum == 42 && parse(&spare, &[])? == 0;

    // A second failure within the minute is one too many for `workers`: it gives up, and
    // the root restarts it, which restarts both parsers in place. Same addresses.
    let sum = parse(&parser, &["bad", "5"])?;
    println!("sum after `workers` was restarted by the root: {sum} (expected 5)");
    ok &= sum == 5 && !workers.is_stopped();

    // `workers` starts with a fresh window: one more failure is its own; the next goes
    // up, and the root has had its one restart this minute: it gives up.
    let (root_down, workers_down) = (root.when_stopped(), workers.when_stopped());
    parser.send(Msg::Parse("bad".to_owned()))?;
    parser.send(Msg::Parse("worse".to_owned()))?;
    let (root_reason, workers_reason) = (root_down.wait()?.reason, workers_down.wait()?.reason);
    println!("workers stopped: {workers_reason}; root stopped: {root_reason}");
    ok &= root_reason == ExitReason::TooManyRestarts;
    ok &= workers_reason == ExitReason::TooManyRestarts;
    // The parser stopped with its last failure, the spare when `workers` stopped it.
    let parser_reason = parser.when_stopped().wait()?.reason;
    let spare_reason = spare.when_stopped().wait()?.reason;
    println!("parser stopped: {parser_reason}; spare stopped: {spare_reason}");
    ok &= parser_reason.is_failure() && spare_reason == ExitReason::Stopped;

    println!("{}", if ok { "ok" } else { "UNEXPECTED" });
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
