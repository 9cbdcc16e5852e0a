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
//! the sender whether the actor was idle), the actor cell (turns, stopping, garbage
//! collection), and the scheduler (workers with run queues, work stealing, parking,
//! quiescence). Where actors run is chosen at run time ([`placement`]): work stealing, work
//! sharing or stages; the task, thread or inline policy; placements on stages; and
//! automatic placement from what the runtime observes ([`auto`]).
//!
//! The public surface is [`System`], [`Actor`], [`Addr`], [`Context`], [`reply`] and
//! [`placement`], [`Governor`] (which adaptive rules the scheduler applies), [`SpawnOptions`] for spawning with a bounded mailbox, [`Handler`],
//! [`Recipient`] and the system's registry of names, and
//! [`timer`]: messages later or periodically ([`Context::send_after`],
//! [`Addr::send_interval`], ...), with a [`TimerHandle`] that cancels, and an ask with a
//! timeout inside an actor ([`Context::then_timeout`]); monitors and links tell an actor
//! when another stops ([`Context::monitor`], [`Context::link`]).
//!
//! # Bounded mailboxes and backpressure
//!
//! Mailboxes are unbounded unless an actor is spawned with a capacity
//! ([`SpawnOptions::capacity`]). Then each sender chooses what a full mailbox means to it
//! ([`Addr`] has the table): [`Addr::try_send`] gives the message back,
//! [`Addr::send_async`] (async code) and [`Addr::send_blocking`] (plain threads) wait for
//! room, and inside a handler [`Context::send`] delivers and *mutes* the sending actor
//! until the receiver has drained, so a fast producer slows to its consumer's pace
//! without blocking a worker. An actor that uses none of this pays nothing for it on its
//! messages (`docs/experiments/2026-11-23-bounded-mailboxes-futures.md`).
//!
//! # Futures inside actors
//!
//! A handler that must wait for something (a reply, I/O, a timer) starts a future instead
//! of blocking its worker: [`Context::run_future`] runs a continuation with the actor's
//! state (`&mut self`) when the future is ready, and [`Context::pipe_future`] hands its
//! output to the handler as a message. The future is polled on footlights' own workers, in
//! the actor's turns (its waker schedules the actor), so the actor's turns stay one at a
//! time, and it owns what it uses, so no state is shared across an `.await`.
//!
//! With the `tokio` cargo feature, those futures may use tokio's reactor (`tokio::net`,
//! `tokio::time`, tokio-based clients): each poll enters a tokio runtime the system owns,
//! or is given (`Builder::tokio`), and the reactor's wake-ups schedule the actor. From
//! async code outside the runtime, [`Addr::send_async`] sends, waiting while a bounded
//! mailbox is full. `examples/kv` is a TCP key-value server with one actor per
//! connection.
//!
//! # Names, recipients and several message types
//!
//! * **Names.** [`System::register`] (or [`Context::register`], for the actor itself)
//!   names an actor in its system's registry; [`System::lookup`] and [`Context::lookup`]
//!   find it again, with its type checked: the wrong type is an error
//!   ([`LookupError::WrongType`]), and so is a taken name ([`RegisterError::Taken`]).
//!   A name keeps its actor reachable, and goes when the actor stops, however it stops.
//!   Each system has its own registry.
//! * **Several message types.** Besides its own [`Actor::Msg`], an actor may implement
//!   [`Handler<M>`](Handler) for any number of types `M`, sent with [`Addr::tell`],
//!   [`Addr::try_tell`] or [`Addr::request`] (which returns the handler's result). Such a
//!   message costs one allocation (its envelope); the `Actor::Msg` path costs what it
//!   cost before, for every actor.
//! * **Type-erased addresses.** A [`Recipient<M>`](Recipient) reaches any actor that
//!   accepts `M`, as its own message ([`Addr::msg_recipient`], no allocation per send) or
//!   through a handler ([`Addr::recipient`]).
//!
//! `examples/naming.rs` puts the three together: a service found by name, fed through
//! recipients, and asked for its totals with a message type of its own.
//!
//! # Timers
//!
//! [`Context::send_after`] and [`Addr::send_after`] send a message later,
//! [`Context::send_interval`] and [`Addr::send_interval`] one every period, and
//! [`Context::run_later`] and [`Context::run_interval`] run a closure with the actor's
//! state; each returns a [`TimerHandle`] that cancels (dropping it does not; a
//! [`TimerGuard`] does). [`Context::then_timeout`] continues on a reply or on its timeout,
//! whichever comes first, without blocking the worker. Every timer of a system waits in
//! one timing wheel, fired by one thread that sleeps until the next deadline ([`timer`]);
//! an actor that sets no timer pays nothing for them.
//!
//! # For actix, ractor and kameo users
//!
//! The [`guide`] maps what you reach for there (actors and messages, mailboxes and
//! backpressure, async work, timers, stopping and supervision) to its counterpart here,
//! in its last chapter; the chapters before it build a supervised service step by step.
//!
//! # Layers
//!
//! The runtime's modules form layers, and each imports only from the layers below it;
//! when a lower layer must call up, it declares a small trait and the upper layer plugs in
//! (as tokio's task module does with its `Schedule` trait). Bottom up:
//!
//! | layer | knows | what it is |
//! |---|---|---|
//! | `trace` | nothing | the runtime's events for the `tracing` feature (spawn, stop, restart, panic, supervision, dead letters, timers); empty without it |
//! | `sync`, `rng`, `metrics` | nothing | atomics and locks swapped for loom's or shuttle's in model checks; a cheap random generator; per-worker counters |
//! | [`reply`] | `sync` | reply slots: one answer, from one thread to another |
//! | `counted` | nothing | counted references to an `Arc` whose counts a worker takes and gives back in bulk (the system's shared state, held by every cell) |
//! | `mailbox` | `sync` | the lock-free queue and its idle and closed bits; beside it, a bounded mailbox's count of messages and its waiting senders (`mailbox/capacity.rs`) |
//! | [`timer`] | `sync`, `trace` | the one timer service of a system: a hierarchical timing wheel and the thread that fires it; a timer's action is a closure |
//! | `census` | `sync` | every live actor of a system, for the shutdown: entered on an actor's first turn without a locked instruction, left at stop |
//! | `task` | nothing | the contract between scheduler and cell: the traits `Run` (what the scheduler asks of a cell) and `Schedule` (what a running turn asks of its worker) |
//! | `cell` | `mailbox`, `census`, `task`, `sync`, `trace` | an actor's state, mailbox, turn, lifecycle (stop, kill), ties (monitors, links, exit reasons), stop, garbage collection, muting (a yielding send found a full mailbox) and polling its futures; it runs any `Behaviour` (the actor's hooks without the public `Context`) and reports panics and dead letters through an `Env` trait |
//! | `scheduler` | `task`, `mailbox`, `counted`, `metrics`, `rng`, `sync` | workers, run queues, stealing, parking, quiescence, stages and dedicated stages, and each actor's home word; the governor, which holds every adaptive rule ([`Governor`]); automatic placement watches it through its `Observer` and `Recorder` traits. Its files keep a table of their own (the scheduler's module documentation, "Files"), checked the same way |
//! | [`placement`] | `scheduler` | the placement policy: resolves a [`Placement`] to a home word |
//! | [`auto`] | `scheduler`, `placement` | automatic placement: observe, decide, move |
//! | [`config`] | `placement`, `scheduler` | settings from the builder, the environment and defaults; parsing a [`Governor`] |
//! | `reactor` | nothing | with the `tokio` feature, the tokio runtime whose context futures inside actors are polled in |
//! | `registry` | nothing | a system's names: name to type-erased address, under one lock; the typed side is in `actor` |
//! | `runtime` | `cell`, `mailbox`, `census`, `counted`, `scheduler`, `placement`, `timer`, `reactor`, `registry`, `trace` | the state an actor shares with its system, and the glue on the spawn and send paths |
//! | `actor` | `runtime`, `cell`, `mailbox`, `census`, `counted`, `placement`, `reply`, `timer`, `registry` | the public [`Actor`], [`Context`] and [`Addr`]; it binds every `Actor` to the cell's `Behaviour`; its timers (`send_after`, intervals, the ask timeout) give the timer service closures that send; [`Handler`] and [`Recipient`]; names, typed |
//! | [`supervision`] | `actor`, `runtime`, `cell`, `placement`, `reply`, `sync`, `trace` | supervisors over groups of children: strategies, restart policies, intensity, trees of supervisors |
//! | `system` | everything below it | [`System`] and its [`Builder`]: assembles the layers and starts the threads |
//!
//! The traits through which lower layers call up are `task::Run` and `task::Schedule`
//! (cell and scheduler), `cell::Behaviour` and `cell::Env` (the actor layer and the
//! runtime), and the scheduler's `Observer` and `Recorder` (automatic placement). They are
//! generic where a message passes (each actor type's turn is compiled against the one
//! worker type), so the layers cost a hop nothing; the trait objects are on the sampling
//! path only. The test `tests/layers.rs` checks that the code keeps this table (each module
//! imports only what its row says it knows) and that the modules form no cycle; `DEVELOPERS.md` says where new features go.

mod actor;
pub mod auto;
mod cell;
mod census;
pub mod config;
mod counted;
#[doc = include_str!("guide.md")]
pub mod guide {}
mod mailbox;
mod metrics;
pub mod placement;
#[cfg(feature = "tokio")]
mod reactor;
mod registry;
pub mod reply;
mod rng;
mod runtime;
mod scheduler;
// The soak's generator, which the shuttle build's soak model reuses (`sync/soak.rs`),
// names this crate as the soak's tests do.
#[cfg(all(test, shuttle))]
extern crate self as footlights;
pub mod supervision;
mod sync;
mod system;
mod task;
pub mod timer;
mod trace;

pub use actor::{
    Actor, Addr, AskError, Context, Handler, Monitor, Recipient, SendError, Sending, SpawnOptions,
    TrySendError,
};
pub use cell::{ActorId, Down, ExitReason, PanicReport};
pub use config::ConfigError;
pub use metrics::{Metrics, WorkerMetrics};
pub use placement::{Placement, PlacementMode, Policy, SchedulerKind, Site};
pub use registry::{LookupError, RegisterError};
pub use reply::{Canceled, Reply, ReplyTo};
pub use scheduler::{Governor, Rule};
pub use system::{Builder, ShutdownReport, System};
pub use timer::{TimerGuard, TimerHandle};

/// The crate's README (packaged with it), whose example is the repository README's first:
/// compiled and run as a doctest so that it stays true (a test in footlights-suite checks
/// that the two examples are the same).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
