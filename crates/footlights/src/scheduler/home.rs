//! An actor's home: where the scheduler puts it the next time it is scheduled.
//!
//! # The home word
//!
//! Every entry the scheduler holds ([`super::Scheduled`]) has a [`Home`]: one atomic word
//! naming where the actor is scheduled next (the pool, pool stage `k`, its dedicated
//! stage, or inline: run by its sender), plus a bit saying whether the runtime may move
//! it (it may not move what the program placed). The scheduler reads the word each time it
//! schedules the actor; *what* goes into the word is placement's business
//! ([`crate::placement`], and automatic placement in [`crate::auto`]), which writes it
//! through [`Home::set_target`]. So moving an actor is just a store to that word: the move
//! takes effect at the actor's next scheduling. That is why a move can never break the
//! runtime's guarantees: whichever queue an actor sits in, its mailbox's idle bit still
//! lets exactly one thread run it at a time, and its messages still come out of the one
//! mailbox in the order they went in.
//!
//! # Dedicated stages
//!
//! A dedicated stage is reached through a lock in the home. Whoever schedules onto a
//! dedicated stage pushes while holding it, and moving an actor away takes the same lock,
//! so a stage never retires with a task still on its way to it ([`super::dedicated`]).
//! A move onto a dedicated stage can race with the actor's stop; [`Residency`] settles
//! that race, and the loom model at the bottom of this file checks it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::sync::Mutex;

use super::Task;
use super::group::Group;
use super::stage::Stage;

/// Where an actor is scheduled next: what [`crate::Addr::site`] reports.
///
/// ```
/// use footlights::{Actor, Context, Placement, Site, System};
///
/// struct Noop;
/// impl Actor for Noop {
///     type Msg = ();
///     fn handle(&mut self, _: &mut Context<Self>, (): ()) {}
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let system = System::builder().threads(2).build()?;
/// assert_eq!(system.spawn(Noop).site(), Site::Pool);
/// assert_eq!(system.spawn_placed(Noop, Placement::Inline).site(), Site::Inline);
/// assert_eq!(system.spawn_placed(Noop, Placement::Dedicated).site(), Site::Dedicated);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// Any worker of the pool.
    Pool,
    /// Pool stage `k` only.
    Stage(usize),
    /// A dedicated stage of its own.
    Dedicated,
    /// Run by its sender when idle; by the pool otherwise.
    Inline,
}

/// What a placement comes to on one system: the value [`Home::new`] and
/// [`Home::set_target`] take.
pub(crate) enum Target {
    /// A site other than a dedicated stage.
    Site(Site),
    /// A dedicated stage that already counts the actor as resident.
    Dedicated(Arc<Stage>),
}

/// The bit of the home word saying the runtime placed the actor and may move it.
const MOVABLE: u32 = 1 << 31;
const POOL: u32 = 0x7FFF_FFFF;
const INLINE: u32 = 0x7FFF_FFFE;
const DEDICATED: u32 = 0x7FFF_FFFD;
/// Stage indices are below this.
const MAX_STAGE: u32 = 0x7FFF_FFF0;
/// `ran_on` before the actor's first turn on a pool stage.
const NOWHERE: u32 = u32::MAX;

fn encode(target: Site) -> u32 {
    match target {
        Site::Pool => POOL,
        Site::Inline => INLINE,
        Site::Dedicated => DEDICATED,
        Site::Stage(k) => u32::try_from(k).map_or(MAX_STAGE - 1, |k| k.min(MAX_STAGE - 1)),
    }
}

fn decode(word: u32) -> Site {
    match word & !MOVABLE {
        POOL => Site::Pool,
        INLINE => Site::Inline,
        DEDICATED => Site::Dedicated,
        k => Site::Stage(k as usize),
    }
}

/// The home word, and the protocol that keeps a stopped actor off dedicated stages.
///
/// A move onto a dedicated stage can race with the actor's stop. The stop sets `closed`,
/// then (after a fence) looks at the word; the move stores the word, then (after a fence)
/// looks at `closed`. This is the store-buffer pattern: by the two `SeqCst` fences, at
/// least one side sees the other's store, so whoever sees both releases the stage (the
/// release is idempotent, so both may). Loom checks it: `loom_models` below.
pub(crate) struct Residency {
    word: crate::sync::AtomicU32,
    closed: crate::sync::AtomicBool,
}

impl Residency {
    pub(crate) fn new(word: u32) -> Residency {
        Residency {
            word: crate::sync::AtomicU32::new(word),
            closed: crate::sync::AtomicBool::new(false),
        }
    }

    #[inline]
    pub(crate) fn load(&self) -> u32 {
        self.word.load(crate::sync::Ordering::Relaxed)
    }

    /// Stores a word that is not a dedicated stage.
    pub(crate) fn store(&self, word: u32) {
        self.word.store(word, crate::sync::Ordering::Relaxed);
    }

    /// Stores a dedicated-stage word; `true` if the actor has stopped, so the caller must
    /// release the stage.
    pub(crate) fn move_to(&self, word: u32) -> bool {
        self.word.store(word, crate::sync::Ordering::Relaxed);
        crate::sync::fence(crate::sync::Ordering::SeqCst);
        self.closed.load(crate::sync::Ordering::Relaxed)
    }

    /// Marks the actor stopped; `true` if it is on a dedicated stage, which the caller
    /// must release.
    pub(crate) fn close(&self) -> bool {
        self.closed.store(true, crate::sync::Ordering::Relaxed);
        crate::sync::fence(crate::sync::Ordering::SeqCst);
        decode(self.word.load(crate::sync::Ordering::Relaxed)) == Site::Dedicated
    }
}

/// An actor's placement state; see the [module documentation](self).
pub(crate) struct Home {
    word: Residency,
    /// The pool stage the actor last ran a turn on, kept only by observed systems (for
    /// `Placement::Near` and cross-stage sends): set at spawn and when a move pins it,
    /// and by a worker that takes it from another (`Worker::arrived`).
    ran_on: AtomicU32,
    /// The pool stage on which the actor's last turn that used up its batch ran (kept by
    /// systems of several pool workers, for [`super::governor::flood`]); [`NOWHERE`] if none did yet.
    busy_on: AtomicU32,
    /// The group of actors it talks with, as far as the workers label groups
    /// ([`super::group`]).
    pub(crate) group: Group,
    /// The dedicated stage, while the home word says [`Site::Dedicated`].
    dedicated: Mutex<Option<Arc<Stage>>>,
}

impl Home {
    /// The home of a new actor placed at `target`.
    pub(crate) fn new(target: Target, movable: bool) -> Home {
        let flag = if movable { MOVABLE } else { 0 };
        let (word, dedicated) = match target {
            Target::Site(site) => (encode(site), None),
            Target::Dedicated(stage) => (DEDICATED, Some(stage)),
        };
        Home {
            word: Residency::new(word | flag),
            ran_on: AtomicU32::new(NOWHERE),
            busy_on: AtomicU32::new(NOWHERE),
            group: Group::new(),
            dedicated: Mutex::new(dedicated),
        }
    }

    /// Moves the actor to `target`. `movable` says whether the runtime may move it again.
    pub(crate) fn set_target(&self, target: Target, movable: bool) {
        match target {
            Target::Site(site) => self.set(site, movable),
            Target::Dedicated(stage) => self.set_dedicated(stage, movable),
        }
    }

    /// Where to schedule the actor next.
    #[inline]
    pub(crate) fn target(&self) -> Site {
        decode(self.word.load())
    }

    /// Whether the actor is scheduled on any worker of the pool next (`target()` is
    /// [`Site::Pool`]): one test of the word, for the send path, where the compiler would
    /// otherwise decode every site to compare with one.
    #[inline]
    pub(crate) fn targets_pool(&self) -> bool {
        self.word.load() & !MOVABLE == POOL
    }

    /// Whether the runtime may move the actor.
    pub(crate) fn movable(&self) -> bool {
        self.word.load() & MOVABLE != 0
    }

    /// Records the pool stage a turn runs on.
    #[inline]
    pub(crate) fn ran_on(&self, stage: usize) {
        let stage = stage as u32;
        if self.ran_on.load(Ordering::Relaxed) != stage {
            self.ran_on.store(stage, Ordering::Relaxed);
        }
    }

    /// Records that a turn on pool stage `stage` used up its batch with envelopes left
    /// (see [`super::governor::flood`]).
    #[inline]
    pub(crate) fn busy_on(&self, stage: usize) {
        let stage = stage as u32;
        if self.busy_on.load(Ordering::Relaxed) != stage {
            self.busy_on.store(stage, Ordering::Relaxed);
        }
    }

    /// Whether the actor last used up a batch on a pool stage other than `stage`.
    #[inline(always)]
    pub(crate) fn busy_elsewhere(&self, stage: usize) -> bool {
        let busy = self.busy_on.load(Ordering::Relaxed);
        busy != NOWHERE && busy != stage as u32
    }

    /// The pool stage on which the actor last used up a batch, if any.
    pub(crate) fn busy_stage(&self) -> Option<usize> {
        match self.busy_on.load(Ordering::Relaxed) {
            NOWHERE => None,
            k => Some(k as usize),
        }
    }

    /// The pool stage the actor last ran on, if any.
    pub(crate) fn last_stage(&self) -> Option<usize> {
        match self.ran_on.load(Ordering::Relaxed) {
            NOWHERE => None,
            k => Some(k as usize),
        }
    }

    /// The pool stage the actor is pinned to, if it is pinned to one.
    pub(crate) fn pinned_stage(&self) -> Option<usize> {
        match self.target() {
            Site::Stage(k) => Some(k),
            _ => None,
        }
    }

    /// Moves the actor to a target that is not a dedicated stage, releasing its dedicated
    /// stage if it had one.
    fn set(&self, target: Site, movable: bool) {
        debug_assert_ne!(target, Site::Dedicated, "use set_dedicated");
        let mut dedicated = self.dedicated.lock();
        self.word
            .store(encode(target) | if movable { MOVABLE } else { 0 });
        if let Site::Stage(k) = target {
            self.ran_on(k);
        }
        if let Some(stage) = dedicated.take() {
            stage.leave();
        }
    }

    /// Moves the actor onto `stage` (which already counts it as one of its actors).
    fn set_dedicated(&self, stage: Arc<Stage>, movable: bool) {
        let must_release = {
            let mut dedicated = self.dedicated.lock();
            if let Some(old) = dedicated.replace(stage) {
                old.leave();
            }
            self.word
                .move_to(DEDICATED | if movable { MOVABLE } else { 0 })
        };
        if must_release {
            // The actor stopped meanwhile: it must not hold the stage.
            self.release();
        }
    }

    /// The dedicated stage, if the actor has one (for placing another actor near it).
    pub(crate) fn dedicated_stage(&self) -> Option<Arc<Stage>> {
        self.dedicated.lock().clone()
    }

    /// Pushes `task` onto the actor's dedicated stage, under the lock that keeps the stage
    /// from retiring meanwhile. Gives the task back if the actor has no dedicated stage any
    /// more (it was moved meanwhile).
    pub(crate) fn push_dedicated(&self, task: Task) -> Result<(), Task> {
        let dedicated = self.dedicated.lock();
        match dedicated.as_ref() {
            Some(stage) => {
                stage.push(task);
                Ok(())
            }
            None => Err(task),
        }
    }

    /// Called when the actor stops: it leaves its dedicated stage, if it has one, now or
    /// (if a move onto one races with the stop) when that move sees the stop.
    pub(crate) fn close(&self) {
        if self.word.close() {
            self.release();
        }
    }

    /// Leaves the dedicated stage, if any (idempotent).
    fn release(&self) {
        if let Some(stage) = self.dedicated.lock().take() {
            stage.leave();
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn home_words_round_trip() {
        for target in [
            Site::Pool,
            Site::Inline,
            Site::Dedicated,
            Site::Stage(0),
            Site::Stage(7),
        ] {
            for movable in [false, true] {
                let word = encode(target) | if movable { MOVABLE } else { 0 };
                assert_eq!(decode(word), target);
            }
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.

    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A stop racing a move onto a dedicated stage: whatever the interleaving, if the word
    /// ends on a dedicated stage, somebody releases it.
    #[test]
    fn a_stop_racing_a_move_never_leaves_a_stage_held() {
        loom::model(|| {
            let residency = Arc::new(Residency::new(POOL));
            let released = Arc::new(AtomicUsize::new(0));
            let (r, rel) = (Arc::clone(&residency), Arc::clone(&released));
            let mover = loom::thread::spawn(move || {
                if r.move_to(DEDICATED) {
                    rel.fetch_add(1, Ordering::Relaxed);
                }
            });
            if residency.close() {
                released.fetch_add(1, Ordering::Relaxed);
            }
            mover.join().unwrap();
            assert_eq!(decode(residency.load()), Site::Dedicated);
            assert!(
                released.load(Ordering::Relaxed) >= 1,
                "the stage was never released"
            );
        });
    }
}
