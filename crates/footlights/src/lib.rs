//! Footlights: a fast, fair actor runtime.
//!
//! An actor is a value and a handler. Messages go through a lock-free mailbox per actor;
//! worker threads (stages) run actors in turns of up to a batch of messages, stealing work
//! from each other when idle and parking when there is none. An actor nobody can reach any
//! more is stopped and freed. The runtime can tell when nothing is left to do
//! (quiescence), which is how a benchmark ends.
//!
//! ```
//! use footlights::{Actor, Addr, Context, ReplyTo, System};
//!
//! /// One member of a ring: passes the token on, and reports its id when it gets 0.
//! struct Node { id: u32, next: Option<Addr<Node>> }
//!
//! enum Msg { Link(Addr<Node>), Token(u64, Addr<Sink>) }
//!
//! impl Actor for Node {
//!     type Msg = Msg;
//!     fn handle(&mut self, _ctx: &mut Context<Self>, msg: Msg) {
//!         match msg {
//!             Msg::Link(next) => self.next = Some(next),
//!             Msg::Token(0, sink) => { let _ = sink.send(self.id); }
//!             Msg::Token(t, sink) => {
//!                 let next = self.next.as_ref().expect("linked");
//!                 let _ = next.send(Msg::Token(t - 1, sink));
//!             }
//!         }
//!     }
//! }
//!
//! /// Receives the winner's id and answers whoever asked.
//! struct Sink { answer: Option<ReplyTo<u32>> }
//! impl Actor for Sink {
//!     type Msg = u32;
//!     fn handle(&mut self, ctx: &mut Context<Self>, id: u32) {
//!         if let Some(answer) = self.answer.take() { let _ = answer.send(id); }
//!         ctx.stop();
//!     }
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let system = System::builder().threads(2).build()?;
//! let nodes: Vec<Addr<Node>> = (1..=5).map(|id| system.spawn(Node { id, next: None })).collect();
//! for (i, node) in nodes.iter().enumerate() {
//!     node.send(Msg::Link(nodes[(i + 1) % nodes.len()].clone()))?;
//! }
//! let (answer, winner) = footlights::reply::pair();
//! let sink = system.spawn(Sink { answer: Some(answer) });
//! nodes[0].send(Msg::Token(12, sink))?;
//! assert_eq!(winner.wait()?, 3); // (12 mod 5) + 1
//! # Ok(()) }
//! ```
//!
//! Inside, in the order a message travels: the mailbox (a lock-free queue whose push tells
//! the sender whether the actor was idle), the scheduler (workers with run queues, work
//! stealing, parking, quiescence), and the actor cell (turns, stopping, garbage collection).
//! Where actors run is chosen at run time ([`placement`]): work stealing, work sharing or
//! stages; the task, thread or inline policy; placements on stages; and automatic
//! placement from what the runtime observes ([`auto`]).
//!
//! The public surface is [`System`], [`Actor`], [`Addr`], [`Context`], [`reply`] and
//! [`placement`].

mod actor;
mod addr;
pub mod auto;
mod cell;
pub mod config;
mod context;
mod mailbox;
mod metrics;
pub mod placement;
pub mod reply;
mod rng;
mod scheduler;
mod sync;
mod system;

pub use actor::Actor;
pub use addr::{Addr, SendError};
pub use config::ConfigError;
pub use context::Context;
pub use metrics::{Metrics, WorkerMetrics};
pub use placement::{Placement, PlacementMode, Policy, SchedulerKind, Site};
pub use reply::{Canceled, Reply, ReplyTo};
pub use system::{Builder, PanicReport, ShutdownReport, System};

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExample;
