//! Supervisors, as Erlang/OTP has them: a supervisor restarts its children when they fail,
//! as its strategy and their restart policies say, and gives up when they fail too often.
//!
//! # What a user sees
//!
//! [`Supervisor::spawn`] starts a supervisor with a [`Strategy`] and an [`Intensity`];
//! [`Supervisor::child`] adds a child, made by a factory (called once now, and once for
//! each restart), with a [`Restart`] policy, and returns the child's [`Addr`]. **A
//! restarted child keeps its address**: the same `Addr`, the same [`crate::ActorId`], a
//! new state from the factory. Senders never learn of a restart.
//!
//! * A child **fails** when one of its hooks panics; it **stops itself** with
//!   [`crate::Context::stop`]. After either, its policy decides: permanent children restart
//!   after both, transient ones only after a failure, temporary ones never.
//! * [`Addr::stop`] and [`Addr::kill`] on a child (or a link that kills it) take it down
//!   **for good**: it is not restarted, and the supervisor forgets it. So does its
//!   policy declining, or its factory panicking.
//! * The **strategy** says which others restart with a child that restarts: none
//!   ([`Strategy::OneForOne`]), all ([`Strategy::OneForAll`]), or those added after it
//!   ([`Strategy::RestForOne`]). Temporary children are never restarted as siblings.
//! * The **intensity** ([`Intensity`]: at most N restarts in T) counts restarts of
//!   children that failed or stopped themselves (a sibling's restart is part of the same
//!   one). The restart that would exceed it is refused: the supervisor then stops every
//!   child (the last added first) and itself, with [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts), which
//!   its watchers see ([`Supervisor::when_stopped`]): that is how a failure escalates.
//! * However the supervisor stops ([`Supervisor::stop`], a shutdown, giving up), its
//!   children stop with it.
//!
//! # Which messages survive a restart
//!
//! A service's callers must not lose requests because another request crashed it, so:
//!
//! * **The message whose handling panicked is lost** (dropped: if it carried a
//!   [`crate::ReplyTo`], the asker sees [`crate::Canceled`]). So is the rest of the turn
//!   that was running it; nothing else is.
//! * **Every message already queued, and every message sent later, is handled by the
//!   new instance**, in order: the restart does not touch the mailbox. The new instance's
//!   `started` runs first.
//! * A **sibling** restarted by the strategy handles the messages queued before the
//!   restart with its old instance, and those after with the new one (the restart is
//!   itself queued, behind them).
//! * What the old instance left running inside the runtime runs on with the new one:
//!   continuations waiting for a reply ([`crate::Context::then`]), timers and futures it
//!   started are the actor's, not the instance's. (Monitors and links are the actor's too,
//!   and are told only when it stops for good.)
//!
//! # The algorithm
//!
//! The supervisor is an actor that traps exits. Each child is spawned with a *restart*
//! installed in its cell before it can run (the cell's `restart` module): when a turn of the
//! child ends because a hook panicked or it stopped itself, the cell asks the restart,
//! on that worker, at once. The restart asks the child's policy, then the supervisor's
//! intensity (a sliding window of restart times, shared under a lock with the supervisor);
//! if both allow, it makes the new state, queues a message telling the supervisor, and the
//! cell swaps the state in place: the old state's `stopped` runs, and the next turn runs
//! the new `started` and then the queued messages. When the supervisor handles the
//! message, it restarts the siblings the strategy names, each by queueing a continuation
//! that swaps its state the same way.
//!
//! If the policy declines, the child stops for good; the supervisor, linked to it and
//! trapping exits, forgets it. If the intensity refuses, the supervisor is marked as
//! having given up, the child stops for good, and when the supervisor hears of that stop it
//! stops the other children and kills itself with [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts).
//!
//! All of this lives out of line, in the ties a cell allocates only when used: an actor
//! nobody supervises pays nothing per message, and a supervised child pays only on its
//! failed turns.
//!
//! ```
//! use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
//! use footlights::{Actor, Context, ReplyTo, System};
//!
//! /// Counts, and panics on request.
//! #[derive(Default)]
//! struct Counter { n: u64 }
//! enum Msg { Add, Crash, Get(ReplyTo<u64>) }
//! impl Actor for Counter {
//!     type Msg = Msg;
//!     fn handle(&mut self, _: &mut Context<Self>, msg: Msg) {
//!         match msg {
//!             Msg::Add => self.n += 1,
//!             Msg::Crash => panic!("asked to"),
//!             Msg::Get(reply) => { let _ = reply.send(self.n); }
//!         }
//!     }
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let system = System::builder().threads(2).on_panic(|_| {}).build()?;
//! let supervisor = Supervisor::spawn(&system, Strategy::OneForOne, Intensity::default());
//! let counter = supervisor.child(Restart::Permanent, Counter::default);
//! counter.send(Msg::Add)?;
//! counter.send(Msg::Crash)?;
//! counter.send(Msg::Add)?; // queued behind the crash: handled by the new instance
//! assert_eq!(counter.ask(Msg::Get)?.wait()?, 1, "same address, new state");
//! # Ok(()) }
//! ```

mod child;
mod group;
mod keeper;
mod strategy;

use std::sync::Arc;

use parking_lot::Mutex;

pub use child::Restart;
pub use strategy::{Intensity, Strategy};

use crate::cell::{ActorId, Down};
use crate::reply::Reply;
use crate::{Actor, Addr, System};
use child::{Factory, Typed};
use group::{Entry, Group};
pub(crate) use keeper::Keeper;
use keeper::Msg;

/// A supervisor: restarts its children as its [`Strategy`] and their [`Restart`] policies
/// say, at most as often as its [`Intensity`] allows. See the [module documentation](self)
/// for what restarts and which messages survive one.
///
/// ```
/// use footlights::supervision::{Intensity, Strategy, Supervisor};
/// use footlights::{ExitReason, System};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// let supervisor = Supervisor::spawn(&system, Strategy::RestForOne, Intensity::default());
/// supervisor.stop();
/// assert_eq!(supervisor.when_stopped().wait()?.reason, ExitReason::Stopped);
/// # Ok(()) }
/// ```
pub struct Supervisor {
    addr: Addr<Keeper>,
    group: Arc<Group>,
}

impl std::fmt::Debug for Supervisor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Supervisor")
            .field("id", &self.addr.id())
            .field("strategy", &self.group.strategy)
            .finish_non_exhaustive()
    }
}

impl Supervisor {
    /// Starts a supervisor on `system`, with no children yet.
    pub fn spawn(system: &System, strategy: Strategy, intensity: Intensity) -> Supervisor {
        let group = Arc::new(Group::new(strategy, intensity));
        let addr = system.spawn(Keeper {
            group: Arc::clone(&group),
        });
        Supervisor { addr, group }
    }

    /// Adds a child made by `factory` (called now, and again for each restart), restarted
    /// as `policy` says, and returns its address: the same for as long as it lives,
    /// restarts included. A panic of the factory's first call is the caller's.
    ///
    /// ```
    /// use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Echo;
    /// impl Actor for Echo {
    ///     type Msg = footlights::ReplyTo<&'static str>;
    ///     fn handle(&mut self, _: &mut Context<Self>, reply: Self::Msg) { let _ = reply.send("hi"); }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let supervisor = Supervisor::spawn(&system, Strategy::OneForOne, Intensity::default());
    /// let echo = supervisor.child(Restart::Transient, || Echo);
    /// assert_eq!(echo.ask(|r| r)?.wait()?, "hi");
    /// # Ok(()) }
    /// ```
    pub fn child<A: Actor>(
        &self,
        policy: Restart,
        factory: impl FnMut() -> A + Send + 'static,
    ) -> Addr<A> {
        let factory: Factory<A> = Arc::new(Mutex::new(factory));
        let key = crate::cell::ties::next_id();
        let shared = self.addr.node().cell().env();
        let first = (factory.lock())();
        let addr = self.group.add(|| {
            let restart = child::restart_for(
                key,
                policy,
                Arc::clone(&factory),
                Arc::clone(&self.group),
                self.addr.clone(),
            );
            let addr = Addr::spawn_restartable(shared, first, restart);
            let entry = Entry {
                key,
                policy,
                child: Box::new(Typed {
                    addr: addr.clone(),
                    factory,
                }),
            };
            (entry, addr)
        });
        if self.addr.send(Msg::Adopt(key)).is_err() {
            // The supervisor has stopped: so does the child.
            for entry in self.group.take_all() {
                entry.child.stop();
            }
        }
        addr
    }

    /// The supervisor's own actor id.
    pub fn id(&self) -> ActorId {
        self.addr.id()
    }

    /// A reply that arrives when the supervisor stops, saying why: with
    /// [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts) when its children failed too often.
    pub fn when_stopped(&self) -> Reply<Down> {
        self.addr.when_stopped()
    }

    /// Stops the supervisor and its children (with [`ExitReason::Stopped`](crate::ExitReason::Stopped)).
    pub fn stop(&self) {
        self.addr.stop();
    }

    /// Whether the supervisor has stopped.
    pub fn is_stopped(&self) -> bool {
        self.addr.is_stopped()
    }
}
