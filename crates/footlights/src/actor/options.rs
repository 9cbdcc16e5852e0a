//! How to spawn an actor: where it runs, and whether its mailbox is bounded.

use crate::placement::Placement;

/// Options for spawning an actor ([`crate::System::spawn_with`],
/// [`crate::Context::spawn_with`]). The defaults are those of a plain `spawn`: placed by
/// the system's default policy, with an unbounded mailbox.
///
/// ```
/// use footlights::{Actor, Context, Placement, SpawnOptions, System};
///
/// struct Worker;
/// impl Actor for Worker {
///     type Msg = u64;
///     fn handle(&mut self, _: &mut Context<Self>, _: u64) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// let options = SpawnOptions::new().capacity(64).placement(Placement::Stage(1));
/// let worker = system.spawn_with(Worker, options);
/// assert_eq!(worker.capacity(), Some(64));
/// assert_eq!(worker.stage(), Some(1));
/// assert_eq!(system.spawn(Worker).capacity(), None, "unbounded by default");
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct SpawnOptions {
    pub(crate) placement: Placement,
    pub(crate) capacity: Option<usize>,
}

impl SpawnOptions {
    /// The defaults: placed by the system's default policy, an unbounded mailbox.
    pub fn new() -> Self {
        SpawnOptions::default()
    }

    /// Where the actor runs; see [`Placement`].
    pub fn placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// Bounds the actor's mailbox to `capacity` messages. What a sender does when it is
    /// full depends on how it sends: see [`crate::Addr`]'s table.
    ///
    /// # Panics
    /// If `capacity` is 0: a mailbox needs room for one message.
    pub fn capacity(mut self, capacity: usize) -> Self {
        assert!(
            capacity > 0,
            "SpawnOptions::capacity: a bounded mailbox needs a capacity of at least 1"
        );
        self.capacity = Some(capacity);
        self
    }
}
