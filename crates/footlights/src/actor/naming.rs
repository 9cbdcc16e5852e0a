//! Names for actors: registering an address in its system's registry, and looking one up
//! by name with its type checked.
//!
//! The table is [`crate::registry`]'s, type-erased; this module is its typed side. A
//! registration stores an [`Addr`] (which keeps the actor reachable: a named actor is not
//! garbage-collected), then marks the actor's cell as named, and undoes itself if the mark
//! finds the actor stopped (the registry's module documentation has the argument). A
//! lookup downcasts the stored address to the type asked for and clones it, or names both
//! types in its error. [`crate::System`] and [`Context`] offer these to users.

use std::any::type_name;

use super::{Actor, Addr, Context};
use crate::registry::{Depth, LookupError, RegisterError};
use crate::runtime::Shared;

/// Names the actor of `addr` `name` in the registry of `shared`.
pub(crate) fn register<A: Actor>(
    shared: &Shared,
    name: String,
    addr: &Addr<A>,
) -> Result<(), RegisterError> {
    let id = addr.node_ptr() as usize;
    if addr.node().cell().refuses() {
        return Err(RegisterError::Stopped { name });
    }
    let erased = Box::new(addr.clone());
    let depth = addr
        .node()
        .cell()
        .capacity_shared()
        .map(|capacity| -> Depth { Box::new(move || capacity.used()) });
    if let Err((error, erased)) =
        shared
            .registry
            .insert(name.clone(), id, type_name::<A>(), erased, depth)
    {
        drop(erased); // outside the registry's lock
        return Err(error);
    }
    if !addr.node().cell().mark_named() {
        // Stopped meanwhile, before the mark: its stop took no name out, so this does.
        drop(shared.registry.remove_if(&name, id));
        return Err(RegisterError::Stopped { name });
    }
    Ok(())
}

/// The address of the live actor named `name` in the registry of `shared`, if it is an
/// actor of type `A`.
pub(crate) fn lookup<A: Actor>(shared: &Shared, name: &str) -> Result<Addr<A>, LookupError> {
    let addr = shared.registry.get(name, type_name::<A>(), |erased| {
        erased.downcast_ref::<Addr<A>>().cloned()
    })?;
    if addr.is_stopped() {
        // Stopped, its name about to be taken out.
        return Err(LookupError::NotFound {
            name: name.to_owned(),
        });
    }
    Ok(addr)
}

/// Takes the name `name` out of the registry of `shared`; `true` if it was there.
pub(crate) fn unregister(shared: &Shared, name: &str) -> bool {
    // The address is dropped after the registry's lock is released.
    shared.registry.remove_name(name).is_some()
}

impl<A: Actor> Context<'_, A> {
    /// Names this actor `name` in its system's registry, until it stops or the name is
    /// taken out ([`Context::unregister`], [`crate::System::unregister`]). Fails if the
    /// name is taken. While it holds a name, the actor is not garbage-collected (anyone
    /// can find it by name): it stops when it, or someone with its address, stops it.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    ///
    /// /// A service that names itself when it starts.
    /// struct Clock { ticks: u64 }
    /// impl Actor for Clock {
    ///     type Msg = ReplyTo<u64>;
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         ctx.register("clock").expect("the name is free");
    ///     }
    ///     fn handle(&mut self, _: &mut Context<Self>, reply: ReplyTo<u64>) {
    ///         self.ticks += 1;
    ///         let _ = reply.send(self.ticks);
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// drop(system.spawn(Clock { ticks: 0 })); // reachable by its name only
    /// system.wait_quiescent(); // its `started` hook has run
    /// let clock = system.lookup::<Clock>("clock")?;
    /// assert_eq!(clock.ask(|r| r)?.wait()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn register(&self, name: impl Into<String>) -> Result<(), RegisterError> {
        register(self.shared(), name.into(), &self.addr())
    }

    /// The address of the live actor named `name` in this actor's system, if it is of type
    /// `B`; see [`crate::System::lookup`].
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Log { lines: Vec<String> }
    /// impl Actor for Log {
    ///     type Msg = String;
    ///     fn handle(&mut self, _: &mut Context<Self>, line: String) { self.lines.push(line); }
    /// }
    ///
    /// /// Finds the log by name each time it has something to say.
    /// struct Worker;
    /// impl Actor for Worker {
    ///     type Msg = u32;
    ///     fn handle(&mut self, ctx: &mut Context<Self>, job: u32) {
    ///         if let Ok(log) = ctx.lookup::<Log>("log") {
    ///             let _ = log.send(format!("job {job} done"));
    ///         }
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let log = system.spawn(Log { lines: Vec::new() });
    /// system.register("log", &log)?;
    /// let worker = system.spawn(Worker);
    /// for job in 0..3 {
    ///     worker.send(job)?;
    /// }
    /// system.wait_quiescent();
    /// assert_eq!(log.messages_handled(), 3);
    /// # Ok(()) }
    /// ```
    pub fn lookup<B: Actor>(&self, name: &str) -> Result<Addr<B>, LookupError> {
        lookup(self.shared(), name)
    }

    /// Takes the name `name` out of this actor's system's registry, whichever actor holds
    /// it; `true` if it was there.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// /// Gives its name up when told to.
    /// struct Leader;
    /// impl Actor for Leader {
    ///     type Msg = ();
    ///     fn started(&mut self, ctx: &mut Context<Self>) {
    ///         ctx.register("leader").expect("the name is free");
    ///     }
    ///     fn handle(&mut self, ctx: &mut Context<Self>, (): ()) {
    ///         assert!(ctx.unregister("leader"));
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let leader = system.spawn(Leader);
    /// system.wait_quiescent();
    /// assert!(system.lookup::<Leader>("leader").is_ok());
    /// leader.send(())?;
    /// system.wait_quiescent();
    /// assert!(system.lookup::<Leader>("leader").is_err());
    /// # Ok(()) }
    /// ```
    pub fn unregister(&self, name: &str) -> bool {
        unregister(self.shared(), name)
    }
}
