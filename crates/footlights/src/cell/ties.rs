//! An actor's ties to others: who is told when it stops (its monitors and links), whom it
//! watches, and the details of why it stopped.
//!
//! # What is tied
//!
//! * A **monitor** ([`crate::Context::monitor`]): when actor X stops, watcher W is told. X's
//!   ties hold a [`Tie`] whose `notify` sends W a message; W's ties hold an [`Undo`] that
//!   takes that tie out of X again if W stops first or cancels the monitor. Telling W
//!   drops the undo.
//! * A **link** ([`crate::Context::link`]): two ties with one id, one in each actor's
//!   ties, each telling the other. Whichever actor stops first tells the other, which
//!   drops its own half. The told actor stops too, with the same reason, unless the reason
//!   is [`ExitReason::Normal`], or it *traps exits*: then its trap (a conversion kept in
//!   its ties) turns the exit into a message for it.
//!
//! # Out of line
//!
//! Most actors never use any of this, so the ties live in the box of occasional state
//! ([`super::extras`]) that the cell allocates the first time something needs it (a
//! compare-and-swap of one pointer, which stays null otherwise): an actor that is never
//! watched pays for no pointer of its own, and one load when it stops. A stop for a reason that needs words (a panic's message, or the reason a link
//! passed on with a kill) allocates the box too, so that a monitor set on the actor
//! later still learns it.
//!
//! # Stopping, and the race with a new watcher
//!
//! The stop marks the actor stopped in its lifecycle word, then looks for its ties; under
//! their lock it takes every tie and undo out and notes the reason for good (`gone`), and
//! then, with no lock held, runs the undos and tells the watchers (while the system is
//! shutting down, only the replies of [`crate::Addr::when_stopped`]: every watching actor
//! is stopping too). A shutdown's kill is told as [`ExitReason::Stopped`]. A watcher registers under the same lock,
//! after making sure the box exists: if the reason is noted already, or the lifecycle word
//! says the actor has stopped, it is told at once instead of added. The stop's write of
//! the word then read of the box pointer, against the watcher's write of the pointer then
//! read of the word, are sequentially consistent, so at least one of them sees the other:
//! the watcher is either added before the stop takes the list, or told at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::exit::{ActorId, Down, Exit, ExitReason};
use super::{ActorCell, Behaviour, Env};
use crate::sync::Mutex;

/// Tells a watcher that the actor stopped, and why.
pub(crate) type Notify = Box<dyn FnOnce(&ExitReason) + Send>;
/// Takes a monitor out of the actor it watched.
pub(crate) type Undo = Box<dyn FnOnce() + Send>;
/// Turns a linked actor's exit into a message of the actor that traps it.
pub(crate) type Trap<M> = Box<dyn Fn(Down) -> M + Send>;

/// Decides, when the actor's turn stopped it for the reason given, whether it restarts
/// in place, and makes its new state if it does (see [`super::restart`]).
pub(crate) type Restart<S> = Box<dyn FnMut(&ExitReason) -> Option<S> + Send>;

/// Ids of ties: unique in the process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh tie id.
pub(crate) fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// What kind of tie tells a watcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Monitor,
    Link,
    /// A reply to complete ([`crate::Addr::when_stopped`]): no actor is told, so it is
    /// told during a shutdown too.
    Reply,
}

/// Someone to tell when the actor stops.
pub(crate) struct Tie {
    pub(crate) id: u64,
    /// The actor told (the watcher, or the other end of a link).
    pub(crate) peer: ActorId,
    pub(crate) kind: Kind,
    pub(crate) notify: Notify,
}

/// An actor's ties; see the module documentation.
pub(crate) struct Ties<M, S> {
    inner: Mutex<Inner<M, S>>,
}

struct Inner<M, S> {
    /// Told when the actor stops: its monitors and links.
    watchers: Vec<Tie>,
    /// The monitors this actor set on others, to take out when it stops.
    watching: Vec<(u64, Undo)>,
    /// Set while the actor traps the exits of linked actors.
    trap: Option<Trap<M>>,
    /// A panic's message, when a hook panicked.
    panic: Option<Arc<str>>,
    /// The reason a kill came with (a link's), if not [`ExitReason::Killed`].
    killed_for: Option<ExitReason>,
    /// Set once the actor has stopped: later watchers are told at once.
    gone: Option<ExitReason>,
    /// Set while the actor is supervised: what replaces its state when it fails (see
    /// [`super::restart`]).
    restart: Option<Restart<S>>,
}

impl<M, S> Inner<M, S> {
    /// The reason an actor that stopped with `exit` reports; `closing`: its system is
    /// shutting down, whose kill is a stop ([`ExitReason::Stopped`]) for its watchers.
    fn reason(&self, exit: Exit, closing: bool) -> ExitReason {
        match exit {
            Exit::Normal => ExitReason::Normal,
            Exit::Stopped => ExitReason::Stopped,
            Exit::Killed => self.killed_for.clone().unwrap_or(if closing {
                ExitReason::Stopped
            } else {
                ExitReason::Killed
            }),
            Exit::Panicked => ExitReason::Panicked(self.panic.clone().unwrap_or_else(|| "".into())),
        }
    }
}

impl<M, S> Ties<M, S> {
    pub(super) fn new() -> Ties<M, S> {
        Ties {
            inner: Mutex::new(Inner {
                watchers: Vec::new(),
                watching: Vec::new(),
                trap: None,
                panic: None,
                killed_for: None,
                gone: None,
                restart: None,
            }),
        }
    }
}

impl<B: Behaviour> ActorCell<B> {
    /// Adds a watcher. If the actor has stopped, gives it back with the reason instead:
    /// the caller tells it at once.
    pub(crate) fn watch(&self, tie: Tie) -> Result<(), (Tie, ExitReason)> {
        let mut inner = self.ties().inner.lock();
        if let Some(reason) = &inner.gone {
            return Err((tie, reason.clone()));
        }
        if let Some(exit) = self.life.stopped() {
            return Err((tie, inner.reason(exit, self.env.closing())));
        }
        inner.watchers.push(tie);
        Ok(())
    }

    /// Takes the watcher `id` out, if it is still there.
    pub(crate) fn untie(&self, id: u64) -> Option<Tie> {
        let mut inner = self.ties_if_any()?.inner.lock();
        let at = inner.watchers.iter().position(|t| t.id == id)?;
        Some(inner.watchers.swap_remove(at))
    }

    /// Takes out the links to `peer`, and returns them.
    pub(crate) fn untie_links_to(&self, peer: ActorId) -> Vec<Tie> {
        let Some(ties) = self.ties_if_any() else {
            return Vec::new();
        };
        let mut inner = ties.inner.lock();
        let (links, rest) = std::mem::take(&mut inner.watchers)
            .into_iter()
            .partition(|t| t.kind == Kind::Link && t.peer == peer);
        inner.watchers = rest;
        links
    }

    /// Notes a monitor this actor set on another, to undo if it stops first. Returns the
    /// undo if it has stopped already (the caller runs it).
    pub(crate) fn note_watching(&self, id: u64, undo: Undo) -> Result<(), Undo> {
        let mut inner = self.ties().inner.lock();
        if inner.gone.is_some() || self.life.stopped().is_some() {
            return Err(undo);
        }
        inner.watching.push((id, undo));
        Ok(())
    }

    /// Forgets the monitor `id` this actor set on another; returns its undo.
    pub(crate) fn forget_watching(&self, id: u64) -> Option<Undo> {
        let mut inner = self.ties_if_any()?.inner.lock();
        let at = inner.watching.iter().position(|(w, _)| *w == id)?;
        Some(inner.watching.swap_remove(at).1)
    }

    /// Sets or clears the conversion of linked actors' exits into messages.
    pub(crate) fn set_trap(&self, trap: Option<Trap<B::Msg>>) {
        let old = std::mem::replace(&mut self.ties().inner.lock().trap, trap);
        drop(old);
    }

    /// The message a trapping actor gets for `down`; `Err(down)` if it does not trap.
    pub(crate) fn trapped(&self, down: Down) -> Result<B::Msg, Down> {
        let Some(ties) = self.ties_if_any() else {
            return Err(down);
        };
        let inner = ties.inner.lock();
        match &inner.trap {
            Some(trap) => Ok(trap(down)),
            None => Err(down),
        }
    }

    /// Notes the reason of a kill that is not a plain [`ExitReason::Killed`] (the first
    /// one counts).
    pub(crate) fn note_killed_for(&self, reason: ExitReason) {
        self.ties().inner.lock().killed_for.get_or_insert(reason);
    }

    /// Notes a panic's message.
    pub(crate) fn note_panic(&self, message: &str) {
        self.ties()
            .inner
            .lock()
            .panic
            .get_or_insert_with(|| message.into());
    }

    /// Sets or clears the actor's restart (see [`super::restart`]).
    pub(crate) fn set_restart(&self, restart: Option<Restart<B>>) {
        let old = std::mem::replace(&mut self.ties().inner.lock().restart, restart);
        drop(old);
    }

    /// Takes the actor's restart out (the caller runs it with no lock held, then puts it
    /// back with [`ActorCell::put_restart`]), and with it the reason the actor would stop
    /// for: `exit`, with a panic's message, which is forgotten (a restarted actor starts
    /// `None` if it has no restart.
    pub(crate) fn take_restart(&self, exit: Exit) -> Option<(Restart<B>, ExitReason)> {
        let mut inner = self.ties_if_any()?.inner.lock();
        let restart = inner.restart.take()?;
        let reason = inner.reason(exit, false);
        Some((restart, reason))
    }

    /// Puts back a restart taken with [`ActorCell::take_restart`], unless one was set
    /// meanwhile; `restarted`: the actor restarts, and forgets its panic's message.
    pub(crate) fn put_restart(&self, restart: Restart<B>, restarted: bool) {
        let mut inner = self.ties().inner.lock();
        inner.restart.get_or_insert(restart);
        if restarted {
            inner.panic = None;
        }
    }

    /// The stop's part: notes the reason for good, and takes out every watcher and undo.
    /// `None` if the actor has no ties.
    pub(crate) fn untie_all(&self, exit: Exit) -> Option<(ExitReason, Vec<Tie>, Vec<Undo>)> {
        let mut inner = self.ties_if_any()?.inner.lock();
        let reason = inner.reason(exit, self.env.closing());
        inner.gone = Some(reason.clone());
        inner.trap = None;
        let watchers = std::mem::take(&mut inner.watchers);
        let undos = std::mem::take(&mut inner.watching)
            .into_iter()
            .map(|(_, undo)| undo)
            .collect();
        Some((reason, watchers, undos))
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use crate::cell::lifecycle::Life;
    use shuttle::sync::atomic::{AtomicBool, AtomicUsize};
    use shuttle::thread;

    /// A watcher's side of [`ActorCell::watch`], on the real lifecycle word and ties, with
    /// `made` standing in for the pointer to the box they live in: makes the box, then
    /// registers under the lock unless the actor is gone or stopped (then tells at once).
    fn watch(made: &AtomicBool, life: &Life, ties: &Ties<(), ()>, tie: Tie) {
        made.store(true, Ordering::SeqCst);
        let mut inner = ties.inner.lock();
        if let Some(reason) = inner.gone.clone() {
            drop(inner);
            (tie.notify)(&reason);
            return;
        }
        if let Some(exit) = life.stopped() {
            let reason = inner.reason(exit, false);
            drop(inner);
            (tie.notify)(&reason);
            return;
        }
        inner.watchers.push(tie);
    }

    /// Two watchers register while the actor stops (the stop marks the word, then looks
    /// for the box, as the cell's stop does): each is told exactly once.
    #[test]
    fn a_watcher_racing_the_stop_is_told_once() {
        crate::sync::explore("a_watcher_racing_the_stop_is_told_once", || {
            let made = Arc::new(AtomicBool::new(false));
            let life = Arc::new(Life::new(false));
            let ties = Arc::new(Ties::<(), ()>::new());
            let told = Arc::new(AtomicUsize::new(0));
            let watchers: Vec<_> = (0..2)
                .map(|i| {
                    let (made, life, ties, told) = (
                        Arc::clone(&made),
                        Arc::clone(&life),
                        Arc::clone(&ties),
                        Arc::clone(&told),
                    );
                    thread::spawn(move || {
                        let tie = Tie {
                            id: i,
                            peer: ActorId(0),
                            kind: Kind::Monitor,
                            notify: Box::new(move |_| {
                                told.fetch_add(1, Ordering::SeqCst);
                            }),
                        };
                        watch(&made, &life, &ties, tie);
                    })
                })
                .collect();
            life.stop(Exit::Stopped);
            if made.load(Ordering::SeqCst) {
                let watchers = {
                    let mut inner = ties.inner.lock();
                    inner.gone = Some(inner.reason(Exit::Stopped, false));
                    std::mem::take(&mut inner.watchers)
                };
                for tie in watchers {
                    (tie.notify)(&ExitReason::Stopped);
                }
            }
            for w in watchers {
                w.join().unwrap();
            }
            assert_eq!(
                told.load(Ordering::SeqCst),
                2,
                "each watcher told exactly once"
            );
        });
    }

    /// The stop's part on real ties, as the cell's `tell_watchers` runs it: under the
    /// actor's lock, note the reason and take every watcher and undo out; then, with no
    /// lock held, run the undos and tell the watchers.
    fn stop(ties: &Ties<(), ()>) {
        let (watchers, undos) = {
            let mut inner = ties.inner.lock();
            inner.gone = Some(ExitReason::Stopped);
            let undos: Vec<Undo> = std::mem::take(&mut inner.watching)
                .into_iter()
                .map(|(_, undo)| undo)
                .collect();
            (std::mem::take(&mut inner.watchers), undos)
        };
        for undo in undos {
            undo();
        }
        for tie in watchers {
            (tie.notify)(&ExitReason::Stopped);
        }
    }

    /// `watcher` monitors `target`, as `Context::monitor` sets it up: the tie in the
    /// target's ties, and in the watcher's an undo that takes it out again (the cell's
    /// `untie`) under the target's lock.
    fn monitor(
        watcher: &Ties<(), ()>,
        target: &Arc<Ties<(), ()>>,
        id: u64,
        told: Arc<AtomicUsize>,
    ) {
        target.inner.lock().watchers.push(Tie {
            id,
            peer: ActorId(0),
            kind: Kind::Monitor,
            notify: Box::new(move |_| {
                told.fetch_add(1, Ordering::SeqCst);
            }),
        });
        let target = Arc::clone(target);
        let undo: Undo = Box::new(move || {
            let mut inner = target.inner.lock();
            let at = inner.watchers.iter().position(|t| t.id == id);
            let tie = at.map(|at| inner.watchers.swap_remove(at));
            drop(inner);
            drop(tie);
        });
        watcher.inner.lock().watching.push((id, undo));
    }

    /// Two actors that monitor each other stop at once: each stop takes its own ties
    /// under its own lock and then takes its monitor out of the other under the other's,
    /// never holding both (a stop that ran its undos under its own lock would deadlock
    /// here, which shuttle reports). Each is told of the other at most once, and both end
    /// with no tie left.
    #[test]
    fn actors_watching_each_other_stop_at_once() {
        crate::sync::explore("actors_watching_each_other_stop_at_once", || {
            let (a, b) = (
                Arc::new(Ties::<(), ()>::new()),
                Arc::new(Ties::<(), ()>::new()),
            );
            let (told_a, told_b) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
            monitor(&a, &b, 1, Arc::clone(&told_a));
            monitor(&b, &a, 2, Arc::clone(&told_b));
            let other = {
                let b = Arc::clone(&b);
                thread::spawn(move || stop(&b))
            };
            stop(&a);
            other.join().unwrap();
            assert!(told_a.load(Ordering::SeqCst) <= 1, "a was told twice");
            assert!(told_b.load(Ordering::SeqCst) <= 1, "b was told twice");
            for ties in [&a, &b] {
                let inner = ties.inner.lock();
                assert!(
                    inner.watchers.is_empty() && inner.watching.is_empty(),
                    "a tie was left"
                );
            }
        });
    }
}
