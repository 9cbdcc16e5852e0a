//! The two actors of the `tell` benchmarks: a producer that sends a stream of messages to
//! a receiver, which answers once it has counted them all. Shared by `benches/messaging.rs`
//! and `examples/tell_placement.rs`, so the example measures exactly the benchmark's shape.

use footlights::{Actor, Addr, Context, ReplyTo};

/// Counts down the messages it expects, then answers.
pub struct Receiver {
    /// Messages still expected.
    pub left: u64,
    /// Who to answer once none is left.
    pub done: Option<ReplyTo<()>>,
}

/// What the receiver gets.
pub enum Recv {
    /// Expect this many items, then answer here.
    Expect(u64, ReplyTo<()>),
    /// One item.
    Item(#[allow(dead_code)] u64),
}

impl Actor for Receiver {
    type Msg = Recv;
    fn handle(&mut self, _: &mut Context<Self>, msg: Recv) {
        match msg {
            Recv::Expect(n, done) => {
                self.left = n;
                self.done = Some(done);
            }
            Recv::Item(_) => {
                self.left -= 1;
                if self.left == 0 {
                    let _ = self.done.take().expect("expecting").send(());
                }
            }
        }
    }
}

/// Sends in chunks of 64, going on in its next message (so other work, and the receiver
/// when both share a worker, runs between chunks).
pub struct Producer {
    /// The receiver.
    pub to: Addr<Receiver>,
}

impl Actor for Producer {
    type Msg = u64;
    fn handle(&mut self, ctx: &mut Context<Self>, left: u64) {
        let chunk = left.min(64);
        for i in 0..chunk {
            let _ = self.to.send(Recv::Item(i));
        }
        if left > chunk {
            let _ = ctx.addr().send(left - chunk);
        }
    }
}
