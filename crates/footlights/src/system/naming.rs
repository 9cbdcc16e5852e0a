//! The system's side of actor names: registering, looking up and removing names from
//! outside the runtime. The typed work is in the actor layer's naming module, and the
//! table in [`crate::registry`].

use super::System;
use crate::actor::naming;
use crate::actor::{Actor, Addr};
use crate::registry::{LookupError, RegisterError};

impl System {
    /// Names the actor of `addr` `name`, until it stops or the name is taken out
    /// ([`System::unregister`]). Fails if the name is taken, or the actor has stopped.
    /// An actor may hold several names. While it holds one, it is not garbage-collected
    /// (anyone can find it by name): it stops when it, or someone with its address, stops
    /// it, or when the system shuts down.
    ///
    /// ```
    /// use footlights::{Actor, Context, ReplyTo, System};
    ///
    /// struct Counter { n: u64 }
    /// impl Actor for Counter {
    ///     type Msg = ReplyTo<u64>;
    ///     fn handle(&mut self, _: &mut Context<Self>, reply: ReplyTo<u64>) {
    ///         self.n += 1;
    ///         let _ = reply.send(self.n);
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(2).build()?;
    /// let counter = system.spawn(Counter { n: 0 });
    /// system.register("counter", &counter)?;
    /// drop(counter); // the name keeps it alive
    ///
    /// let found = system.lookup::<Counter>("counter")?;
    /// assert_eq!(found.ask(|r| r)?.wait()?, 1);
    ///
    /// found.stop(); // its name goes with it
    /// system.wait_quiescent();
    /// assert!(system.lookup::<Counter>("counter").is_err());
    /// # Ok(()) }
    /// ```
    pub fn register<A: Actor>(
        &self,
        name: impl Into<String>,
        addr: &Addr<A>,
    ) -> Result<(), RegisterError> {
        naming::register(&self.shared, name.into(), addr)
    }

    /// The address of the live actor named `name`, if it is an actor of type `A`. Fails
    /// with [`LookupError::NotFound`] if no live actor has the name, and with
    /// [`LookupError::WrongType`] (naming both types) if its actor is of another type. An
    /// actor that accepts several message types ([`crate::Handler`]) is looked up by its
    /// own type, and its [`crate::Recipient`]s made from the address found.
    ///
    /// ```
    /// use footlights::{Actor, Context, LookupError, System};
    ///
    /// struct Cache;
    /// impl Actor for Cache {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    /// struct Db;
    /// impl Actor for Db {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let cache = system.spawn(Cache);
    /// system.register("cache", &cache)?;
    /// assert_eq!(system.lookup::<Cache>("cache")?, cache);
    /// let err = system.lookup::<Db>("cache").unwrap_err();
    /// assert!(matches!(err, LookupError::WrongType { .. }));
    /// assert!(err.to_string().contains("Cache"), "{err}");
    /// # Ok(()) }
    /// ```
    pub fn lookup<A: Actor>(&self, name: &str) -> Result<Addr<A>, LookupError> {
        naming::lookup(&self.shared, name)
    }

    /// Takes the name `name` out, whichever actor holds it; `true` if it was there. The
    /// actor goes on; with no name and no address left, it is garbage-collected.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Idle;
    /// impl Actor for Idle {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// system.register("idle", &system.spawn(Idle))?;
    /// assert!(system.unregister("idle"));
    /// assert!(!system.unregister("idle"), "already gone");
    /// system.wait_quiescent();
    /// assert_eq!(system.metrics().live_actors(), 0, "collected: nothing reaches it");
    /// # Ok(()) }
    /// ```
    pub fn unregister(&self, name: &str) -> bool {
        naming::unregister(&self.shared, name)
    }

    /// The names registered now, in no particular order.
    ///
    /// ```
    /// use footlights::{Actor, Context, System};
    ///
    /// struct Idle;
    /// impl Actor for Idle {
    ///     type Msg = ();
    ///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let system = System::builder().threads(1).build()?;
    /// let idle = system.spawn(Idle);
    /// system.register("a", &idle)?;
    /// system.register("b", &idle)?;
    /// let mut names = system.names();
    /// names.sort();
    /// assert_eq!(names, ["a", "b"]);
    /// # Ok(()) }
    /// ```
    pub fn names(&self) -> Vec<String> {
        self.shared.registry.names()
    }
}
