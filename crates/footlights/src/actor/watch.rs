//! Monitors and links: being told when another actor stops, as Erlang/OTP does it.
//!
//! * A **monitor** is one-way: [`Context::monitor`] makes the running actor (the watcher)
//!   receive a message, made from a [`Down`], when the watched actor stops, whatever the
//!   reason. Code outside the runtime waits for the same thing with
//!   [`Addr::when_stopped`]. A monitor on an actor that has stopped already is told at
//!   once.
//! * A **link** is two-way: [`Context::link`] ties the running actor's fate to another's.
//!   When either stops for a reason other than [`ExitReason::Normal`], the other stops too,
//!   for the same reason (and its own links pass it on), unless it *traps exits*
//!   ([`Context::trap_exits`]): then it receives a message made from a [`Down`] instead. A
//!   normal stop tells only an actor that traps exits.
//!
//! A monitor or a link counts as an address of the actor it tells, as a pending reply
//! does: the watcher stays alive (is not collected) while something may still tell it,
//! and two linked actors stay alive while both are, until one stops. Ties live out of
//! line and are allocated only when used (see the cell's `ties` module); when an actor
//! stops, the monitors it set on others are taken out again.

use std::sync::Arc;

use super::{Actor, Addr, Context};
use crate::cell::ties::{self, Kind, Tie};
use crate::cell::{ActorCell, ActorId, Down, ExitReason};
use crate::reply::{self, Reply};
use crate::runtime::{self, Node};

/// A monitor set with [`Context::monitor`]: [`Context::demonitor`] takes it out. Dropping
/// it leaves the monitor in place.
#[derive(Debug)]
#[must_use = "a monitor is taken out with Context::demonitor; dropping this leaves it in place"]
pub struct Monitor {
    id: u64,
    /// The watched actor.
    target: Arc<dyn Tied>,
}

/// What a [`Monitor`] needs of the watched actor, whatever its type.
trait Tied: Send + Sync {
    /// Takes the watcher `id` out; `false` if it was not there any more.
    fn untie(&self, id: u64) -> bool;
}

impl<B: Actor> Tied for Node<B> {
    fn untie(&self, id: u64) -> bool {
        self.cell().untie(id).is_some()
    }
}

impl std::fmt::Debug for dyn Tied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tied")
    }
}

impl<A: Actor> Addr<A> {
    /// Which actor this is.
    pub fn id(&self) -> ActorId {
        ActorCell::<A>::id_of(self.node())
    }

    /// A reply that arrives when the actor stops, saying why (at once if it has stopped
    /// already): wait on it, `.await` it, or continue on it with [`Context::then`]. Each
    /// call adds a watcher to the actor, kept until it stops. It arrives when a shutdown
    /// stops the actor too, saying [`ExitReason::Stopped`].
    ///
    /// ```
    /// use footlights::{Actor, Context, ExitReason, System};
    ///
    /// struct Fragile;
    /// impl Actor for Fragile {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) { panic!("no") }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).on_panic(|_| {}).build()?;
    /// let fragile = system.spawn(Fragile);
    /// let down = fragile.when_stopped();
    /// fragile.send(())?;
    /// let down = down.wait()?;
    /// assert_eq!(down.actor, fragile.id());
    /// assert_eq!(down.reason, ExitReason::Panicked("no".into()));
    /// # Ok(()) }
    /// ```
    pub fn when_stopped(&self) -> Reply<Down> {
        let (reply_to, reply) = reply::pair();
        let actor = self.id();
        let tie = Tie {
            id: ties::next_id(),
            peer: actor,
            kind: Kind::Reply,
            notify: Box::new(move |reason: &ExitReason| {
                let _ = reply_to.send(Down {
                    actor,
                    reason: reason.clone(),
                });
            }),
        };
        if let Err((tie, reason)) = self.node().cell().watch(tie) {
            (tie.notify)(&reason);
        }
        reply
    }
}

impl<A: Actor> Context<'_, A> {
    /// Which actor this is.
    pub fn id(&self) -> ActorId {
        ActorCell::<A>::id_of(self.me)
    }

    /// Watches the actor of `addr`: when it stops, this actor receives `wrap(down)` as a
    /// message (at once if it has stopped already). The watcher stays alive while the
    /// monitor may still tell it; [`Context::demonitor`] takes the monitor out, and so
    /// does this actor's own stop. A monitor set in the `stopped` hook watches nothing.
    ///
    /// ```
    /// use footlights::{Actor, Addr, Context, Down, ExitReason, ReplyTo, System};
    ///
    /// struct Worker;
    /// impl Actor for Worker {
    ///     type Msg = ();
    ///     fn handle(&mut self, ctx: &mut Context<Self>, (): ()) { ctx.stop(); }
    /// }
    ///
    /// /// Watches a worker and reports how it ended.
    /// struct Watcher { worker: Addr<Worker>, report: Option<ReplyTo<ExitReason>> }
    /// enum Msg { Down(Down) }
    /// impl Actor for Watcher {
    ///     type Msg = Msg;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         let _monitor = ctx.monitor(&self.worker, Msg::Down);
    ///         let _ = self.worker.send(());
    ///     }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, Msg::Down(down): Msg) {
    ///         let _ = self.report.take().map(|r| r.send(down.reason));
    ///         ctx.stop();
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let (report, reason) = footlights::reply::pair();
    /// let worker = system.spawn(Worker);
    /// system.spawn(Watcher { worker, report: Some(report) });
    /// assert_eq!(reason.wait()?, ExitReason::Normal);
    /// # Ok(()) }
    /// ```
    pub fn monitor<B: Actor>(
        &self,
        addr: &Addr<B>,
        wrap: impl FnOnce(Down) -> A::Msg + Send + 'static,
    ) -> Monitor {
        let id = ties::next_id();
        let target = Arc::clone(addr.node());
        let actor = addr.id();
        // Noted on the watcher first, so that a tie told at once finds it to drop.
        let undo = {
            let target = Arc::clone(&target);
            Box::new(move || {
                target.cell().untie(id);
            })
        };
        if let Err(undo) = self.me.cell().note_watching(id, undo) {
            // This actor has stopped (a `stopped` hook set the monitor): nothing could
            // tell it, and nothing would take the tie out of the target again.
            drop(undo);
            return Monitor { id, target };
        }
        let watcher = self.addr();
        let tie = Tie {
            id,
            peer: self.id(),
            kind: Kind::Monitor,
            notify: Box::new(move |reason: &ExitReason| {
                drop(watcher.node().cell().forget_watching(id));
                watcher.send_or_count_dead(wrap(Down {
                    actor,
                    reason: reason.clone(),
                }));
            }),
        };
        if let Err((tie, reason)) = target.cell().watch(tie) {
            (tie.notify)(&reason);
        }
        Monitor { id, target }
    }

    /// Takes out a monitor this actor set. `true` if it had not told this actor yet (and
    /// now never will); `false` if the watched actor has stopped and its message is on
    /// its way or here already.
    pub fn demonitor(&self, monitor: Monitor) -> bool {
        drop(self.me.cell().forget_watching(monitor.id));
        monitor.target.untie(monitor.id)
    }

    /// Links this actor with the actor of `addr`: when either stops for a reason other
    /// than [`ExitReason::Normal`], the other stops too, for the same reason, unless it
    /// traps exits ([`Context::trap_exits`]). Linking to an actor that has stopped
    /// already acts at once as its stop would.
    ///
    /// ```
    /// use footlights::{Actor, Addr, Context, ExitReason, System};
    ///
    /// struct Fragile;
    /// impl Actor for Fragile {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) { panic!("broken") }
    /// }
    ///
    /// /// Shares the fate of the actor it is given.
    /// struct Partner;
    /// impl Actor for Partner {
    ///     type Msg = Addr<Fragile>;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, other: Addr<Fragile>) {
    ///         ctx.link(&other);
    ///         let _ = other.send(());
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).on_panic(|_| {}).build()?;
    /// let partner = system.spawn(Partner);
    /// let down = partner.when_stopped();
    /// partner.send(system.spawn(Fragile))?;
    /// assert_eq!(down.wait()?.reason, ExitReason::Panicked("broken".into()));
    /// # Ok(()) }
    /// ```
    pub fn link<B: Actor>(&self, addr: &Addr<B>) {
        if addr.id() == self.id() {
            return;
        }
        let id = ties::next_id();
        let (mine, theirs) = (self.id(), addr.id());
        let me = self.addr();
        let other = addr.clone();
        // Our half tells the other actor; theirs tells us. Each drops the other's half first.
        let our_half = Tie {
            id,
            peer: theirs,
            kind: Kind::Link,
            notify: Box::new(move |reason: &ExitReason| {
                drop(other.node().cell().untie(id));
                runtime::exit_signal(
                    other.node(),
                    Down {
                        actor: mine,
                        reason: reason.clone(),
                    },
                );
            }),
        };
        let their_half = Tie {
            id,
            peer: mine,
            kind: Kind::Link,
            notify: Box::new(move |reason: &ExitReason| {
                drop(me.node().cell().untie(id));
                runtime::exit_signal(
                    me.node(),
                    Down {
                        actor: theirs,
                        reason: reason.clone(),
                    },
                );
            }),
        };
        // A running actor has not stopped: its own half always goes in.
        if let Err((tie, _)) = self.me.cell().watch(our_half) {
            drop(tie);
            return;
        }
        if let Err((tie, reason)) = addr.node().cell().watch(their_half) {
            (tie.notify)(&reason);
        }
    }

    /// Undoes [`Context::link`] with the actor of `addr` (every link between the two).
    pub fn unlink<B: Actor>(&self, addr: &Addr<B>) {
        for tie in self.me.cell().untie_links_to(addr.id()) {
            drop(addr.node().cell().untie(tie.id));
        }
    }

    /// Traps the exits of linked actors: from now on, when a linked actor stops (for any
    /// reason, [`ExitReason::Normal`] included), this actor receives `wrap(down)` as a
    /// message instead of stopping too. As a supervisor does in Erlang/OTP.
    ///
    /// ```
    /// use footlights::{Actor, Addr, Context, Down, ExitReason, ReplyTo, System};
    ///
    /// struct Fragile;
    /// impl Actor for Fragile {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) { panic!("broken") }
    /// }
    ///
    /// /// Links to a fragile actor, survives its failure and reports it.
    /// struct Keeper { report: Option<ReplyTo<ExitReason>> }
    /// enum Msg { Watch(Addr<Fragile>), Exit(Down) }
    /// impl Actor for Keeper {
    ///     type Msg = Msg;
    ///     fn started(&mut self, ctx: &mut Context<Self>) { ctx.trap_exits(Msg::Exit); }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
    ///         match msg {
    ///             Msg::Watch(fragile) => { ctx.link(&fragile); let _ = fragile.send(()); }
    ///             Msg::Exit(down) => { let _ = self.report.take().map(|r| r.send(down.reason)); }
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).on_panic(|_| {}).build()?;
    /// let (report, reason) = footlights::reply::pair();
    /// let keeper = system.spawn(Keeper { report: Some(report) });
    /// keeper.send(Msg::Watch(system.spawn(Fragile)))?;
    /// assert_eq!(reason.wait()?, ExitReason::Panicked("broken".into()));
    /// system.wait_quiescent();
    /// assert!(!keeper.is_stopped(), "the keeper trapped the exit");
    /// # Ok(()) }
    /// ```
    pub fn trap_exits(&self, wrap: impl Fn(Down) -> A::Msg + Send + 'static) {
        self.me.cell().set_trap(Some(Box::new(wrap)));
    }

    /// Stops trapping exits ([`Context::trap_exits`]): linked actors' abnormal exits stop
    /// this actor again.
    pub fn stop_trapping_exits(&self) {
        self.me.cell().set_trap(None);
    }
}
