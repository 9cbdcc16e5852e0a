//! The registry: a system's table of actor names.
//!
//! # The algorithm
//!
//! A name maps to one *entry*: an address kept type-erased (`Box<dyn Any>`, an
//! [`crate::Addr`] of some actor type), the name of that type (for the error a lookup of
//! the wrong type gets), and the actor's identity (the pointer of its node). A second map
//! goes from identity to the names an actor holds, so that its stop can take them all out
//! without a scan. Both maps sit under one lock: registering, looking up and removing are
//! rare next to messages, and none of them is on a message's path.
//!
//! * **Register**: insert under the lock, refused if the name is taken. The entry holds an
//!   address, so a named actor is never garbage-collected: it can be reached by its name.
//!   It stays named until it stops or its name is removed.
//! * **Look up**: under the lock, downcast the entry to the address type asked for and
//!   clone it; the wrong type is an error that names both types.
//! * **Stop**: the actor layer marks a named actor's lifecycle word with a `NAMED` bit,
//!   *after* inserting its entry; the stop sets `STOPPED` in the same word, then looks
//!   for `NAMED`. If the stop's write comes first, the registration sees `STOPPED` and
//!   removes the entry it just made; if the mark comes first, the stop sees `NAMED` and
//!   removes every entry of the actor. So no entry outlives its actor (the cell's `named`
//!   module has the argument and a loom model), and an actor with no name pays one load
//!   and one test on its stop.
//! * **Shutdown** clears the table after the workers have stopped: an entry holds an
//!   address, the address holds the system's shared state, and the shared state holds the
//!   table, so a name left over would keep the whole system alive.
//!
//! Entries removed are returned to the caller, who drops them after the lock is
//! released: dropping an address runs the runtime's release path, which must never run
//! under this lock.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;

use parking_lot::Mutex;

/// An address, type-erased.
pub(crate) type Erased = Box<dyn Any + Send + Sync>;

/// Reads how many messages wait in a named actor's mailbox (kept only by bounded ones).
pub(crate) type Depth = Box<dyn Fn() -> usize + Send + Sync>;

/// A system's names; see the module documentation.
#[derive(Default)]
pub(crate) struct Registry {
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    names: HashMap<String, Entry>,
    /// The names each actor (by the pointer of its node) holds.
    held: HashMap<usize, Vec<String>>,
}

impl Table {
    /// Takes the name `name` out of both maps; its address, if it was there.
    fn take(&mut self, name: &str) -> Option<Erased> {
        let entry = self.names.remove(name)?;
        if let Some(held) = self.held.get_mut(&entry.id) {
            held.retain(|n| n != name);
            if held.is_empty() {
                self.held.remove(&entry.id);
            }
        }
        Some(entry.addr)
    }
}

struct Entry {
    addr: Erased,
    /// The actor's type, as `std::any::type_name` spells it.
    actor: &'static str,
    /// The actor's identity: the pointer of its node.
    id: usize,
    /// Its mailbox's depth, if its mailbox is bounded (an unbounded one keeps no count).
    depth: Option<Depth>,
}

impl Registry {
    /// An empty table.
    pub(crate) fn new() -> Registry {
        Registry::default()
    }

    /// Names the actor `id` (of type `actor`, address `addr`, mailbox depth `depth` if it
    /// keeps one) `name`, unless the name is taken (then the address comes back with the
    /// error).
    pub(crate) fn insert(
        &self,
        name: String,
        id: usize,
        actor: &'static str,
        addr: Erased,
        depth: Option<Depth>,
    ) -> Result<(), (RegisterError, Erased)> {
        let mut table = self.table.lock();
        if let Some(taken) = table.names.get(&name) {
            let error = RegisterError::Taken {
                actor: taken.actor,
                name,
            };
            return Err((error, addr));
        }
        table.held.entry(id).or_default().push(name.clone());
        table.names.insert(
            name,
            Entry {
                addr,
                actor,
                id,
                depth,
            },
        );
        Ok(())
    }

    /// The address named `name`, made by `open` from the erased one; `expected` names the
    /// type `open` expects, for the error when it finds another.
    pub(crate) fn get<T>(
        &self,
        name: &str,
        expected: &'static str,
        open: impl FnOnce(&(dyn Any + Send + Sync)) -> Option<T>,
    ) -> Result<T, LookupError> {
        let table = self.table.lock();
        let Some(entry) = table.names.get(name) else {
            return Err(LookupError::NotFound {
                name: name.to_owned(),
            });
        };
        open(&*entry.addr).ok_or_else(|| LookupError::WrongType {
            name: name.to_owned(),
            expected,
            found: entry.actor,
        })
    }

    /// Takes the name `name` out; its address, if it was there (drop it after the call).
    pub(crate) fn remove_name(&self, name: &str) -> Option<Erased> {
        self.table.lock().take(name)
    }

    /// Takes out `name` if it still names the actor `id` (a registration that found its
    /// actor stopped undoes itself; another may have taken the name since).
    pub(crate) fn remove_if(&self, name: &str, id: usize) -> Option<Erased> {
        let mut table = self.table.lock();
        if table.names.get(name)?.id != id {
            return None;
        }
        table.take(name)
    }

    /// Takes out every name of the actor `id` (it stopped); their addresses (drop them
    /// after the call).
    pub(crate) fn remove_actor(&self, id: usize) -> Vec<Erased> {
        let mut table = self.table.lock();
        let Some(names) = table.held.remove(&id) else {
            return Vec::new();
        };
        names
            .iter()
            .filter_map(|name| table.names.remove(name).map(|e| e.addr))
            .collect()
    }

    /// Takes every name out (the system shut down); their addresses (drop them after the
    /// call).
    pub(crate) fn clear(&self) -> Vec<Erased> {
        let mut table = self.table.lock();
        table.held.clear();
        table.names.drain().map(|(_, e)| e.addr).collect()
    }

    /// The names registered now, in no particular order.
    pub(crate) fn names(&self) -> Vec<String> {
        self.table.lock().names.keys().cloned().collect()
    }

    /// Each named actor whose mailbox keeps a depth (a bounded one), with that depth now.
    #[cfg_attr(not(feature = "metrics"), allow(dead_code))]
    pub(crate) fn depths(&self) -> Vec<(String, usize)> {
        let table = self.table.lock();
        table
            .names
            .iter()
            .filter_map(|(name, e)| Some((name.clone(), (e.depth.as_ref()?)())))
            .collect()
    }
}

/// Why a name could not be registered.
///
/// ```
/// use footlights::{Actor, Context, RegisterError, System};
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
/// let second = system.spawn(Idle);
/// match system.register("idle", &second) {
///     Err(RegisterError::Taken { name, .. }) => assert_eq!(name, "idle"),
///     other => panic!("expected Taken, got {other:?}"),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegisterError {
    /// Another actor (or this one) already holds the name.
    Taken {
        /// The name asked for.
        name: String,
        /// The type of the actor holding it.
        actor: &'static str,
    },
    /// The actor has stopped (or is stopping): a name would outlive it.
    Stopped {
        /// The name asked for.
        name: String,
    },
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::Taken { name, actor } => {
                write!(
                    f,
                    "the name {name:?} is taken (by an actor of type {actor})"
                )
            }
            RegisterError::Stopped { name } => write!(
                f,
                "cannot name a stopped actor {name:?}: the actor has stopped"
            ),
        }
    }
}

impl std::error::Error for RegisterError {}

/// Why a name could not be looked up.
///
/// ```
/// use footlights::{Actor, Context, LookupError, System};
///
/// struct Ping;
/// impl Actor for Ping {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
/// struct Pong;
/// impl Actor for Pong {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(1).build()?;
/// system.register("ping", &system.spawn(Ping))?;
/// assert!(matches!(system.lookup::<Pong>("ping"), Err(LookupError::WrongType { .. })));
/// assert!(matches!(system.lookup::<Ping>("pong"), Err(LookupError::NotFound { .. })));
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LookupError {
    /// No live actor has the name.
    NotFound {
        /// The name looked up.
        name: String,
    },
    /// The actor with the name is of another type than the one asked for.
    WrongType {
        /// The name looked up.
        name: String,
        /// The actor type asked for.
        expected: &'static str,
        /// The type of the actor holding the name.
        found: &'static str,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::NotFound { name } => write!(f, "no live actor is named {name:?}"),
            LookupError::WrongType {
                name,
                expected,
                found,
            } => write!(
                f,
                "the actor named {name:?} is of type {found}, not {expected} as asked"
            ),
        }
    }
}

impl std::error::Error for LookupError {}
