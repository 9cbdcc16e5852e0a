//! Supervisors, as Erlang/OTP has them: a supervisor restarts its children when they fail,
//! as its strategy and their restart policies say, and gives up when they fail too often.
//!
//! # What a user sees
//!
//! [`Supervisor::spawn`] starts a supervisor with a [`Strategy`] and an [`Intensity`];
//! [`Supervisor::child`] adds a child, made by a factory (called once now, and once for
//! each restart), with a [`Restart`] policy, and returns the child's [`Addr`];
//! [`Supervisor::supervisor`] adds a child that is a supervisor, and returns it, to add
//! children to: supervisors make a tree. **A restarted child keeps its address**: the
//! same `Addr`, the same [`crate::ActorId`], a new state from the factory. Senders never
//! learn of a restart.
//!
//! * A child **fails** when one of its hooks panics; it **stops itself** with
//!   [`crate::Context::stop`]. After either, its policy decides: permanent children restart
//!   after both, transient ones only after a failure, temporary ones never.
//! * [`Addr::stop`] and [`Addr::kill`] on a child (or a link that kills it) take it down
//!   **for good**: it is not restarted, and the supervisor forgets it. So does its
//!   policy declining, or its factory panicking. ([`Supervisor::stop`] on a child
//!   supervisor too.)
//! * The **strategy** says which others restart with a child that restarts: none
//!   ([`Strategy::OneForOne`]), all ([`Strategy::OneForAll`]), or those added after it
//!   ([`Strategy::RestForOne`]). A temporary child among those is stopped for good
//!   instead ([`crate::ExitReason::Stopped`]), as Erlang/OTP does.
//! * The **intensity** ([`Intensity`]: at most N restarts in T) counts restarts of
//!   children that failed or stopped themselves (a sibling's restart is part of the same
//!   one). The restart that would exceed it is refused: the supervisor **gives up**, which
//!   is a failure of the supervisor (next point). A supervisor that nobody restarts stops
//!   every child (the last added first) and itself, with
//!   [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts), which its
//!   watchers see ([`Supervisor::when_stopped`]).
//! * **Escalation.** A supervisor that gave up and is a child of another is restarted by
//!   its parent as any child: if its policy allows (permanent and transient supervisors
//!   restart, [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts) being a
//!   failure) and the parent's intensity counts one more restart, the parent **restarts
//!   it in place**: every child under it restarts from its factory (child supervisors
//!   restart their children the same way, all the way down), its intensity starts afresh,
//!   and the parent's strategy restarts its siblings. If the parent's intensity refuses,
//!   the parent gives up in turn, and its own parent decides, and so on: where nobody
//!   restarts, every supervisor that gave up on the way stops, with
//!   `TooManyRestarts`. A child failing within its supervisor's intensity never
//!   touches the levels above. Unlike Erlang/OTP, where a restarted supervisor and its
//!   children are new processes, **the whole restarted subtree keeps its addresses**:
//!   nothing in it stops, its children are restarted in place, so every `Addr` and every
//!   [`Supervisor`] handle into it stays good.
//! * However the supervisor stops ([`Supervisor::stop`], a shutdown, giving up), its
//!   children stop with it. It tells them the last added first, but does not wait for
//!   one to finish stopping before telling the next (OTP does): each stops on its next
//!   turn, on whichever worker runs it, so their `stopped` hooks may run in any order.
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
//! * A **sibling** restarted by the strategy (or as part of a restarted subtree) handles
//!   the messages queued before the restart with its old instance, and those after with
//!   the new one (the restart is itself queued, behind them).
//! * What the old instance left running inside the runtime runs on with the new one:
//!   continuations waiting for a reply ([`crate::Context::then`]), timers and futures it
//!   started are the actor's, not the instance's. (Monitors and links are the actor's too,
//!   and are told only when it stops for good.)
//!
//! # The order of a restart with siblings, against Erlang/OTP's
//!
//! OTP stops the siblings a restart affects in the reverse of their start order, and only
//! then starts them all again in start order, one after the other, so no new instance
//! ever exchanges messages with an old one. Footlights keeps every child's address and
//! mailbox instead of starting new processes, and restarts each sibling on its own turn,
//! so the order differs, and this is what it promises:
//!
//! * **A new instance only ever reaches new instances.** Every sibling's restart is queued
//!   in its mailbox before the restart of the child that failed returns, so before any new
//!   instance runs: whatever a new instance sends to a sibling restarted with it (from
//!   its `started` on) is queued behind that sibling's restart and handled by its new
//!   instance, even when the sibling is busy (`tests/supervision.rs`,
//!   `a_new_instance_only_ever_reaches_new_instances_...`).
//! * **An old instance may still reach a new one.** A sibling handles what was queued
//!   before its restart with its old instance, and what that sends meanwhile (to any
//!   address, the restarted children's included) is delivered; under OTP it would have
//!   gone to a process that no longer exists.
//! * **The hooks do not run in start order.** Each sibling's old `stopped` and new
//!   `started` run on its own next turn, on whichever worker runs it, concurrently with
//!   the others'; OTP's run one at a time, in reverse start order then in start order.
//!   Restarts are *queued* in start order, which is all a strategy's order decides here.
//!
//! Why not OTP's order: it needs a mechanism the cell does not have, a barrier across
//! actors: each affected sibling would stop taking messages (its mailbox parked, no
//! worker held) until the others have stopped and the earlier ones have started again.
//! The queued order above gives the guarantee that matters most, that the new
//! generation never talks to the old, with nothing more than one queued continuation per
//! sibling.
//!
//! # The algorithm
//!
//! The supervisor is an actor that traps exits. Each child is spawned with a *restart*
//! installed in its cell before it can run (the cell's `restart` module): when a turn of the
//! child ends because a hook panicked or it stopped itself, the cell asks the restart,
//! on that worker, at once. The restart asks the child's policy, then the supervisor's
//! intensity (a sliding window of restart times, kept in a group shared under a lock with
//! the supervisor's actor). If both allow, it queues the restart of each sibling the
//! strategy names (a continuation that swaps the sibling's state the same way), makes the
//! new state, and the cell swaps the state in place: the old state's `stopped` runs, and
//! the next turn runs the new `started` and then the queued messages.
//!
//! If the intensity refuses, the restart escalates, under a lock the whole tree shares:
//! it asks the parent group's policy for this supervisor and the parent's intensity, and
//! so on up. The first that allows restarts each supervisor on the way down (fresh
//! window, a queued restart for each of its children but the one on the way, which
//! restarts itself) and its own strategy's siblings; the child that failed then gets its
//! new state. A child supervisor restarted as a sibling does the same for all its
//! children. If nobody allows, every group on the way is marked as having given up, and
//! the child stops for good.
//!
//! If the policy declines, the child stops for good; the supervisor, linked to it and
//! trapping exits, forgets it. If it stopped because its supervisor gave up, the
//! supervisor, when it hears of that stop, stops the other children and kills itself
//! with [`ExitReason::TooManyRestarts`](crate::ExitReason::TooManyRestarts); its own
//! supervisor hears of that stop in turn, and does the same if it gave up too.
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
use crate::placement::Placement;
use crate::reply::Reply;
use crate::{Actor, Addr, System};
use child::{Factory, Typed};
use group::{Entry, Group};
pub(crate) use keeper::Keeper;
use keeper::{Link, Msg, Sub};

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
        let group = Arc::new(Group::root(strategy, intensity));
        let addr = system.spawn(Keeper {
            group: Arc::clone(&group),
        });
        Supervisor { addr, group }
    }

    /// Adds a child supervisor, restarted as `policy` says, with its own `strategy` and
    /// `intensity`, and returns it: add its children with [`Supervisor::child`] and
    /// [`Supervisor::supervisor`], as to any supervisor. When it gives up (its children
    /// failed more often than `intensity` allows), this supervisor restarts it, as any
    /// child, if `policy` and this supervisor's own intensity allow; otherwise this one
    /// gives up in turn, and so on up the tree. **A restarted supervisor keeps its
    /// address, and so does every child under it**: its children all restart in place,
    /// from their factories, and its restart intensity starts afresh. See the
    /// [module documentation](self).
    ///
    /// Where Erlang/OTP gives a child supervisor a start function whose `init` lists its
    /// children again at each restart, here the children are added once and kept, each
    /// with its factory: a restart remakes each child's state from its factory, behind
    /// the address it has.
    ///
    /// ```
    /// use std::time::Duration;
    /// use footlights::supervision::{Intensity, Restart, Strategy, Supervisor};
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Worker;
    /// impl Actor for Worker {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) { panic!("always") }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).on_panic(|_| {}).build()?;
    /// let root = Supervisor::spawn(&system, Strategy::OneForOne, Intensity::new(0, Duration::from_secs(60)));
    /// let workers = root.supervisor(Restart::Permanent, Strategy::OneForOne, Intensity::new(0, Duration::from_secs(60)));
    /// let worker = workers.child(Restart::Permanent, || Worker);
    /// worker.send(())?;
    /// // `workers` may not restart the worker, and `root` may not restart `workers`:
    /// // the failure goes up to the root, which gives up.
    /// assert_eq!(root.when_stopped().wait()?.reason, footlights::ExitReason::TooManyRestarts);
    /// # Ok(()) }
    /// ```
    pub fn supervisor(
        &self,
        policy: Restart,
        strategy: Strategy,
        intensity: Intensity,
    ) -> Supervisor {
        let key = crate::cell::ties::next_id();
        let group = Arc::new(Group::child_of(
            &self.group,
            key,
            policy,
            strategy,
            intensity,
        ));
        let shared = self.addr.node().cell().env();
        let addr = self.group.add(|| {
            let keeper = Keeper {
                group: Arc::clone(&group),
            };
            let addr = Addr::spawn(shared, keeper, &Placement::Default);
            let child = Sub {
                addr: addr.clone(),
                group: Arc::clone(&group),
            };
            let entry = Entry {
                key,
                policy,
                child: Arc::new(child),
            };
            (entry, addr)
        });
        let child = addr.clone();
        self.adopt(key, Box::new(move |ctx| ctx.link(&child)));
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
            let restart =
                group::restart_for(key, policy, Arc::clone(&factory), Arc::clone(&self.group));
            let addr = Addr::spawn_restartable(shared, first, restart);
            let entry = Entry {
                key,
                policy,
                child: Arc::new(Typed {
                    addr: addr.clone(),
                    factory,
                }),
            };
            (entry, addr)
        });
        let child = addr.clone();
        self.adopt(key, Box::new(move |ctx| ctx.link(&child)));
        addr
    }

    /// Has the supervisor link the child `key` it was just given, with `link`.
    fn adopt(&self, key: u64, link: Link) {
        if self.addr.send(Msg::Adopt(key, link)).is_err() {
            // The supervisor has stopped: so does the child.
            for entry in self.group.take_all() {
                entry.child.stop();
            }
        }
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
