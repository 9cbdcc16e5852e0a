//! What a cell runs: a behaviour's four hooks, seen from below the public API.
//!
//! The public [`crate::Actor`] trait's hooks take a [`crate::Context`], and a context
//! spawns actors and makes addresses through the whole runtime: scheduler, placement and
//! system. A cell that called `Actor` directly would import all of that, and every layer
//! would import every other. So the cell runs a [`Behaviour`] instead: the same hooks,
//! given a [`Turn`] (the running actor's own handle and whether its turn goes on) in place
//! of a context. The actor layer implements `Behaviour` for every `Actor`, wrapping the
//! turn in a `Context` for the duration of each call (two words copied in, one byte copied
//! out), and fixes the associated types to the runtime's own: that is where the layers
//! are bound together, and the cell stays generic over them.

use std::sync::Arc;

use super::exit::Exit;
use super::{ActorCell, PanicReport};
use crate::census::{Census, Visit};

/// The hooks a cell runs, and the types the runtime binds it to.
pub(crate) trait Behaviour: Sized + Send + 'static {
    /// The messages the actor accepts.
    type Msg: Send + 'static;
    /// A continuation run with the actor's state.
    type Call: Send + 'static;
    /// How the runtime holds the cell (the scheduler's entry around it); the hooks make
    /// addresses from it.
    type Node: Send + Sync + 'static;
    /// What the cell keeps of its system.
    type Env: Env;
    /// What a shutdown's sweep of the census does with an actor of this behaviour: called
    /// with the actor's node (the `Arc`'s pointer), kills it.
    const VISIT: Visit;

    /// The address of the node that holds `cell` (what [`Behaviour::VISIT`] is called
    /// with, and the actor's entry in the census), found from the cell's own: for a cell
    /// that leaves the census while it is being freed, when no `Arc` of the node is left.
    /// Only compared, never followed.
    fn node_of(cell: &ActorCell<Self>) -> *const ();

    /// Runs once, before the first envelope.
    fn started(&mut self, turn: &mut Turn<'_, Self::Node>);
    /// Handles one message.
    fn handle(&mut self, turn: &mut Turn<'_, Self::Node>, msg: Self::Msg);
    /// Runs one continuation.
    fn call(&mut self, turn: &mut Turn<'_, Self::Node>, call: Self::Call);
    /// Polls the actor's future in `slot` (woken: [`super::polling`]) and, if it is ready,
    /// runs its continuation with the state; `true` if a continuation ran. A slot with no
    /// future (a stale wake-up) is ignored.
    fn poll(&mut self, turn: &mut Turn<'_, Self::Node>, slot: u32) -> bool;
    /// Runs once when the actor stops.
    fn stopped(&mut self, turn: &mut Turn<'_, Self::Node>);

    /// Schedules an actor whose scheduling right `me` is: a muted actor resumed by the
    /// mailbox it waited on (see [`super::mute`]).
    fn resume(me: Arc<Self::Node>);
}

/// What a hook gets besides the actor's state: the running actor's own handle, and
/// whether its turn goes on after the hook returns.
pub(crate) struct Turn<'a, N> {
    /// The scheduler's entry holding this cell.
    pub(crate) me: &'a Arc<N>,
    /// Whether the turn goes on after the running hook.
    pub(crate) halt: Halt,
    /// Why it stops, if it does: a hook's stop is [`Exit::Normal`]; the turn sets the
    /// others (signals, kills, panics). Not copied into the hooks' context.
    pub(crate) exit: Exit,
}

/// Whether a turn goes on after the running hook; one byte, tested once per envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// It goes on.
    Go,
    /// The handler yielded ([`crate::Context::yield_now`]): the turn ends, and the actor,
    /// if its mailbox holds more, goes to the back of its run queue. A mute or a stop
    /// wins over it.
    Yield,
    /// The actor is muted: a yielding send found a full mailbox (see [`super::mute`]).
    /// The turn ends, and the actor waits until that mailbox has drained.
    Mute,
    /// The actor stops ([`crate::Context::stop`]); this wins over [`Halt::Mute`] and
    /// [`Halt::Yield`].
    Stop,
}

/// What a cell reports to its system.
pub(crate) trait Env: Send + Sync + 'static {
    /// A hook panicked; the actor is being stopped.
    fn panicked(&self, report: &PanicReport);
    /// `n` messages were dropped unhandled (the actor had stopped).
    fn dead_letters(&self, n: u64);
    /// The actor whose node is `entry` stopped holding a name: take its names out.
    fn forget_names(&self, entry: *const ());
    /// Whether the system is shutting down: a stopping actor's watchers are not told
    /// (they are stopping too).
    fn closing(&self) -> bool;
    /// The system's census of live actors.
    fn census(&self) -> &Census;
}
