//! The public actor API: the [`Actor`] trait, the [`Context`] its hooks run in, and the
//! [`Addr`] that reaches it.
//!
//! An actor is not a thread or a stack: it is a value (its state) plus a handler the
//! runtime calls with one message at a time. Its state is reachable only through the
//! handler, so no lock ever guards it, and messages are moved into the mailbox
//! (`Send + 'static`), so nothing is copied and nothing is shared by accident.
//!
//! The three types refer to each other (a hook takes a context, a context makes
//! addresses, an address names its actor type), so they live in one module, the top layer
//! of the runtime. Below it, the runtime runs actors as the cell's behaviours: the
//! context module binds every `Actor` to that lower-level interface.

pub(crate) mod addr;
pub(crate) mod context;
pub(crate) mod futures;
pub(crate) mod handler;
pub(crate) mod naming;
pub(crate) mod options;
pub(crate) mod recipient;
pub(crate) mod sending;
pub(crate) mod timers;
pub(crate) mod watch;

pub use addr::{Addr, SendError, TrySendError};
pub use context::Context;
pub use handler::Handler;
pub use options::SpawnOptions;
pub use recipient::Recipient;
pub use sending::Sending;
pub use timers::AskError;
pub use watch::Monitor;

/// An actor: its own state, the messages it accepts, and how it handles them.
///
/// The runtime calls the methods of one actor from one thread at a time, never
/// concurrently, in this order: [`Actor::started`] once, [`Actor::handle`] once per message
/// in arrival order (FIFO per sender), then [`Actor::stopped`] once (every actor that
/// started stops, at the latest when its system shuts down).
///
/// ```
/// use footlights::{Actor, Context, System};
///
/// struct Counter { total: u64 }
///
/// enum Msg { Add(u64), Get(footlights::ReplyTo<u64>) }
///
/// impl Actor for Counter {
///     type Msg = Msg;
///     fn handle(&mut self, _ctx: &mut Context<Self>, msg: Msg) {
///         match msg {
///             Msg::Add(n) => self.total += n,
///             Msg::Get(reply) => { let _ = reply.send(self.total); }
///         }
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// let counter = system.spawn(Counter { total: 0 });
/// for n in 1..=10 {
///     counter.send(Msg::Add(n))?;
/// }
/// let total = counter.ask(Msg::Get)?.wait()?;
/// assert_eq!(total, 55);
/// # Ok(()) }
/// ```
pub trait Actor: Sized + Send + 'static {
    /// The messages this actor accepts, usually an enum.
    type Msg: Send + 'static;

    /// Handles one message.
    fn handle(&mut self, ctx: &mut Context<Self>, msg: Self::Msg);

    /// Runs once, before the first message.
    fn started(&mut self, ctx: &mut Context<Self>) {
        let _ = ctx;
    }

    /// Runs once when the actor stops: it called [`Context::stop`], a handler panicked, it
    /// was stopped or killed ([`Addr::stop`], [`Addr::kill`]), its system shut down, or
    /// it was garbage-collected (no address left and nothing to do). It runs only if
    /// [`Actor::started`] ran: an actor killed before its first turn runs neither. Sends
    /// to other actors still work here; the actor itself receives nothing more.
    fn stopped(&mut self, ctx: &mut Context<Self>) {
        let _ = ctx;
    }
}
