//! A token round a ring of actors, for profiling the hop path (for example under
//! `valgrind --tool=callgrind`, whose instruction counts do not depend on machine load).
//!
//! `cargo run --release -p footlights --example ring -- [HOPS] [ACTORS]`
//! (defaults 1,000,000 and 503); the thread count comes from `FOOTLIGHTS_THREADS`.

use std::time::Instant;

use footlights::{Actor, Addr, Context, ReplyTo, System, reply};

// The allocator footlights-suite and the benches use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Node {
    id: u32,
    next: Option<Addr<Node>>,
}

enum Msg {
    Link(Addr<Node>),
    Token(u64, ReplyTo<u32>),
}

impl Actor for Node {
    type Msg = Msg;
    fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Link(next) => self.next = Some(next),
            Msg::Token(0, done) => {
                let _ = done.send(self.id);
            }
            Msg::Token(t, done) => {
                let next = self.next.as_ref().expect("linked");
                let _ = next.send(Msg::Token(t - 1, done));
            }
        }
    }
}

fn arg(i: usize, default: u64) -> Result<u64, String> {
    std::env::args().nth(i).map_or(Ok(default), |s| {
        s.parse()
            .map_err(|_| format!("argument {i} must be a whole number, not {s:?}"))
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let hops = arg(1, 1_000_000)?;
    let actors = arg(2, 503)?.max(1) as u32;
    let system = System::builder().build()?;
    let nodes: Vec<_> = (1..=actors)
        .map(|id| system.spawn(Node { id, next: None }))
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        n.send(Msg::Link(nodes[(i + 1) % nodes.len()].clone()))?;
    }
    system.wait_quiescent();
    let (done, winner) = reply::pair();
    let start = Instant::now();
    nodes[0].send(Msg::Token(hops, done))?;
    let id = winner.wait()?;
    let elapsed = start.elapsed();
    println!(
        "{hops} hops round {actors} actors on {} workers: winner {id}, {:.1} ns per hop",
        system.threads(),
        elapsed.as_nanos() as f64 / hops.max(1) as f64
    );
    Ok(())
}
