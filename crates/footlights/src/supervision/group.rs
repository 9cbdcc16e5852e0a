//! What a supervisor shares with its children's restarts: the children in the order they
//! were added, the restart intensity's window, whether it has given up, and, for a
//! supervisor that is itself a child, its place in its parent. Also the closure an actor
//! child's cell runs when a turn stops it ([`restart_for`]), which asks the group, and the
//! supervisor actor's way to link a child it was given only while the group still has it
//! ([`Group::if_present`]).
//!
//! # Locks
//!
//! A child's restart runs on the worker of the child's failed turn and asks its group,
//! under the group's lock, whether one more restart is allowed; the supervisor's own turns
//! read and change the children under the same lock. Nothing runs user code under it,
//! and nothing *restarts* a child under it either: the children to restart are copied
//! out under the lock and told after it is released (and after the tree's lock below).
//! Telling a child to restart queues a continuation in its mailbox, and under the inline
//! policy that send may run the child's turn right there, on this thread; if that turn
//! fails, its own restart asks this group (or this tree) again, and must find it free.
//! Restarting children may restart a child supervisor's children, so a group's lock is
//! sometimes held while a child group's is taken: always a parent's before its child's,
//! never the other way. An escalation (see [`Group::restart`]) walks up the tree, so it
//! takes one group lock at a time, under the tree's lock, which every group of one tree
//! shares: two escalations in one tree run one after the other, and the second sees what
//! the first restarted.

use std::sync::{Arc, Weak};
use std::time::Instant;

use super::child::{Child, Factory, Restart};
use super::strategy::{Intensity, Strategy, Window};
use crate::Actor;
use crate::cell::ties::Restart as CellRestart;
use crate::cell::{ActorId, ExitReason};
use crate::sync::Mutex;
use crate::trace::Decision;

/// A supervisor's children and restart accounting; see the module documentation.
pub(crate) struct Group {
    pub(crate) strategy: Strategy,
    intensity: Intensity,
    /// Shared by every group of one tree: escalations run under it.
    tree: Arc<Mutex<()>>,
    /// Set when this supervisor is the child of another.
    parent: Option<Parent>,
    state: Mutex<State>,
}

/// Where a supervisor that is a child sits in its parent.
struct Parent {
    group: Weak<Group>,
    /// Its key among the parent's children.
    key: u64,
    policy: Restart,
}

/// One child.
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) policy: Restart,
    /// Shared, so that a restart can copy it out of the lock and tell it after.
    pub(crate) child: Arc<dyn Child>,
}

struct State {
    /// In the order they were added.
    children: Vec<Entry>,
    window: Window,
    /// Set when a restart was refused and nobody above restarts this supervisor: it stops.
    gave_up: bool,
}

impl Group {
    /// A supervisor's group that is not a child of another (the root of its tree).
    pub(crate) fn root(strategy: Strategy, intensity: Intensity) -> Group {
        Group::new(strategy, intensity, Arc::new(Mutex::new(())), None)
    }

    /// The group of a supervisor added to `parent` under `key`, restarted as `policy` says.
    pub(crate) fn child_of(
        parent: &Arc<Group>,
        key: u64,
        policy: Restart,
        strategy: Strategy,
        intensity: Intensity,
    ) -> Group {
        let place = Parent {
            group: Arc::downgrade(parent),
            key,
            policy,
        };
        Group::new(strategy, intensity, Arc::clone(&parent.tree), Some(place))
    }

    fn new(
        strategy: Strategy,
        intensity: Intensity,
        tree: Arc<Mutex<()>>,
        parent: Option<Parent>,
    ) -> Group {
        Group {
            strategy,
            intensity,
            tree,
            parent,
            state: Mutex::new(State {
                children: Vec::new(),
                window: Window::default(),
                gave_up: false,
            }),
        }
    }

    /// Decides whether the child `key`, which failed or stopped itself and whose policy
    /// restarts it, restarts, at `now`; if it does, restarts the others that have to
    /// restart with it (their restarts are queued in their mailboxes before this returns,
    /// so before the child's new instance runs). `false`: it stops for good.
    ///
    /// If this supervisor's intensity allows one more restart, the strategy's siblings
    /// restart. If not, the supervisor fails, and its parent decides as for any child
    /// (its policy, then its intensity): if it restarts this supervisor, this group's
    /// window starts afresh and all its other children restart, and the parent's strategy
    /// restarts this supervisor's siblings; if the parent's intensity refuses too, the
    /// question goes up again. Where nobody restarts, every supervisor on the way gives up
    /// (and stops when it hears its child stopped, see [`super::Keeper`]).
    pub(crate) fn restart(self: &Arc<Self>, key: u64, now: Instant) -> bool {
        if self.admit(now) {
            crate::trace::supervisor(Decision::Restart, key);
            restart_each(self.siblings(key));
            return true;
        }
        crate::trace::supervisor(Decision::Escalate, key);
        match self.escalate(key, now) {
            Some(restarts) => {
                // With no lock held (see the module documentation).
                restart_each(restarts);
                true
            }
            None => false,
        }
    }

    /// [`Group::restart`]'s part when this supervisor's intensity refused the restart of
    /// child `key`: decides, under the tree's lock, and returns the children to restart
    /// (the caller tells them once the lock is released), or `None` if nobody restarts.
    fn escalate(self: &Arc<Self>, key: u64, now: Instant) -> Option<Vec<Told>> {
        let _tree = self.tree.lock();
        if self.gave_up() {
            // An escalation found nobody to restart it: it is stopping.
            return None;
        }
        // Another escalation may have restarted this supervisor meanwhile.
        if self.admit(now) {
            return Some(self.siblings(key));
        }
        // Each group that failed, with the key of its child on the way up.
        let mut failed: Vec<(Arc<Group>, u64)> = vec![(Arc::clone(self), key)];
        loop {
            let (group, _) = failed.last().expect("not empty");
            let up = group.parent.as_ref().and_then(|p| {
                let restarts = p.policy.restarts_after(&ExitReason::TooManyRestarts);
                Some((p.group.upgrade().filter(|_| restarts)?, p.key))
            });
            let Some((parent, at)) = up.filter(|(parent, _)| !parent.gave_up()) else {
                for (group, key) in &failed {
                    crate::trace::supervisor(Decision::GiveUp, *key);
                    group.give_up();
                }
                return None;
            };
            if parent.admit(now) {
                // The parent restarts the supervisor at `at` (and every supervisor on
                // the way down to this one, each with a fresh window), then the siblings
                // its strategy names. The child `key` itself restarts in place.
                let mut restarts = Vec::new();
                for (group, but) in failed.iter().rev() {
                    restarts.extend(group.restart_all(Some(*but)));
                }
                restarts.extend(parent.siblings(at));
                return Some(restarts);
            }
            failed.push((parent, at));
        }
    }

    /// Counts a restart at `now` if the intensity allows it and the supervisor has not
    /// given up.
    fn admit(&self, now: Instant) -> bool {
        let mut state = self.state.lock();
        !state.gave_up && state.window.admit(now, self.intensity)
    }

    /// Whether a restart was refused for good: the supervisor stops.
    pub(crate) fn gave_up(&self) -> bool {
        self.state.lock().gave_up
    }

    fn give_up(&self) {
        self.state.lock().gave_up = true;
    }

    /// Adds a child, spawned by `make` under the lock (so that its restart, which may run
    /// at once, finds it), and returns what `make` returned besides. `make` runs no user
    /// code (the child's first state is made before).
    pub(crate) fn add<T>(&self, make: impl FnOnce() -> (Entry, T)) -> T {
        let mut state = self.state.lock();
        let (entry, out) = make();
        state.children.push(entry);
        out
    }

    /// Forgets the child `actor` (it stopped for good).
    pub(crate) fn remove(&self, actor: ActorId) {
        let gone = {
            let mut state = self.state.lock();
            let at = state.children.iter().position(|e| e.child.id() == actor);
            at.map(|at| state.children.remove(at))
        };
        drop(gone);
    }

    /// The siblings of child `key` that the strategy names (see [`Strategy`]), in the
    /// order they were added: the caller restarts them ([`restart_each`]).
    fn siblings(&self, key: u64) -> Vec<Told> {
        let state = self.state.lock();
        let Some(at) = state.children.iter().position(|e| e.key == key) else {
            return Vec::new();
        };
        let mut told = Vec::new();
        for (i, entry) in state.children.iter().enumerate() {
            let named = match self.strategy {
                Strategy::OneForOne => false,
                Strategy::OneForAll => true,
                Strategy::RestForOne => i > at,
            };
            if named && i != at {
                told.push(Told::of(entry));
            }
        }
        told
    }

    /// Restarts this supervisor in place: a fresh window, and every child to restart in
    /// the order they were added (returned: the caller restarts them, [`restart_each`]),
    /// but the child `but` (restarted by the caller). A supervisor that gave up is
    /// stopping: left alone.
    #[must_use]
    pub(crate) fn restart_all(&self, but: Option<u64>) -> Vec<Told> {
        let mut state = self.state.lock();
        if state.gave_up {
            return Vec::new();
        }
        state.window = Window::default();
        state
            .children
            .iter()
            .filter(|e| Some(e.key) != but)
            .map(Told::of)
            .collect()
    }

    /// Takes every child out, the last added first.
    pub(crate) fn take_all(&self) -> Vec<Entry> {
        let mut children = std::mem::take(&mut self.state.lock().children);
        children.reverse();
        children
    }

    /// Runs `link` if the child `key` is still one of this group's, under the group's lock
    /// (so that the child is not taken out meanwhile): the supervisor's actor links a
    /// child it was given this way ([`super::keeper::Msg::Adopt`]).
    pub(crate) fn if_present(&self, key: u64, link: impl FnOnce()) {
        let state = self.state.lock();
        if state.children.iter().any(|e| e.key == key) {
            link();
        }
    }
}

/// The closure the cell of child `key` runs when its turn stops it (see
/// [`crate::cell::restart`]): asks its policy, then its supervisor (which restarts the
/// siblings its strategy names, or escalates: [`Group::restart`]), and makes the new
/// state, with no lock held.
pub(crate) fn restart_for<A: Actor>(
    key: u64,
    policy: Restart,
    factory: Factory<A>,
    group: Arc<Group>,
) -> CellRestart<A> {
    Box::new(move |reason: &ExitReason| {
        if !policy.restarts_after(reason) || !group.restart(key, Instant::now()) {
            return None;
        }
        Some((factory.lock())())
    })
}

/// A child to restart as a sibling of one that restarts, copied out of its group's lock.
pub(crate) struct Told {
    policy: Restart,
    child: Arc<dyn Child>,
}

impl Told {
    fn of(entry: &Entry) -> Told {
        Told {
            policy: entry.policy,
            child: Arc::clone(&entry.child),
        }
    }
}

/// Restarts each child, in order, with no group lock held; a temporary one is never
/// restarted, so it stops for good (as Erlang/OTP terminates it).
pub(crate) fn restart_each(children: Vec<Told>) {
    for told in children {
        if told.policy == Restart::Temporary {
            told.child.stop();
        } else {
            told.child.restart();
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// A child that counts its restarts.
    struct Counted(Arc<AtomicUsize>);

    impl Child for Counted {
        fn id(&self) -> ActorId {
            ActorId(Arc::as_ptr(&self.0) as usize)
        }
        fn restart(&self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        fn stop(&self) {}
    }

    fn add(group: &Group, key: u64) -> Arc<AtomicUsize> {
        let restarts = Arc::new(AtomicUsize::new(0));
        let child = Arc::new(Counted(Arc::clone(&restarts)));
        group.add(|| {
            let policy = Restart::Permanent;
            (Entry { key, policy, child }, ())
        });
        restarts
    }

    fn at_most(n: u32) -> Intensity {
        Intensity::new(n, Duration::from_secs(3600))
    }

    /// A one-for-one root allowing `outer` restarts, and under it (key 1, permanent) a
    /// one-for-one supervisor allowing `inner`.
    fn two_levels(outer: u32, inner: u32) -> (Arc<Group>, Arc<Group>) {
        let root = Arc::new(Group::root(Strategy::OneForOne, at_most(outer)));
        let (policy, strategy) = (Restart::Permanent, Strategy::OneForOne);
        let child = Group::child_of(&root, 1, policy, strategy, at_most(inner));
        (root, Arc::new(child))
    }

    #[test]
    fn two_refused_at_once_escalate_once() {
        let now = Instant::now();
        let (mid, inner) = two_levels(2, 1);
        let (one, two) = (add(&inner, 10), add(&inner, 11));
        assert!(inner.restart(10, now), "within inner's intensity");
        // Child 11 is refused by inner; before it escalates, child 10 fails too and
        // escalates: mid restarts inner (child 11 is restarted with it).
        assert!(!inner.admit(now));
        assert!(inner.restart(10, now), "mid restarts inner");
        assert_eq!(
            (one.load(Ordering::Relaxed), two.load(Ordering::Relaxed)),
            (0, 1)
        );
        // Child 11's escalation finds inner restarted, with a fresh window: no second
        // restart of inner at mid.
        assert!(inner.escalate(11, now).is_some());
        assert!(mid.admit(now), "mid counted one restart of its two");
        assert!(!mid.admit(now));
        assert!(!mid.gave_up() && !inner.gave_up());
    }

    #[test]
    fn nobody_restarts_and_every_level_gives_up() {
        let now = Instant::now();
        let (root, inner) = two_levels(0, 0);
        let _ = add(&inner, 10);
        assert!(!inner.restart(10, now));
        assert!(inner.gave_up() && root.gave_up());
        assert!(!inner.restart(10, now), "and stays given up");
    }
}

#[cfg(all(test, shuttle))]
mod shuttle_models {
    //! Run with `RUSTFLAGS="--cfg shuttle" cargo test -p footlights --lib --release
    //! shuttle_models` (see `crate::sync`, "Schedules that replay").
    use super::*;
    use shuttle::sync::atomic::{AtomicUsize, Ordering};
    use shuttle::thread;
    use std::time::Duration;

    /// A child that counts its restarts as a sibling.
    struct Counted(Arc<AtomicUsize>);

    impl Child for Counted {
        fn id(&self) -> ActorId {
            ActorId(Arc::as_ptr(&self.0) as usize)
        }
        fn restart(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
        fn stop(&self) {}
    }

    fn add(group: &Group, key: u64) -> Arc<AtomicUsize> {
        let restarts = Arc::new(AtomicUsize::new(0));
        let child = Arc::new(Counted(Arc::clone(&restarts)));
        group.add(|| {
            let policy = Restart::Permanent;
            (Entry { key, policy, child }, ())
        });
        restarts
    }

    /// Three one-for-all children of a supervisor allowing one restart, under a root
    /// allowing one, fail at once on three threads: the restarts and escalations take
    /// the tree's and the groups' locks in the documented order (no deadlock, which
    /// shuttle reports), and the outcome is consistent: a failure refused means both
    /// levels gave up (the inner allows one, the root one restart of the inner with a
    /// fresh window, which allows one more: three in all).
    #[test]
    fn failures_at_once_escalate_without_deadlock() {
        crate::sync::explore("failures_at_once_escalate_without_deadlock", || {
            let hour = Duration::from_secs(3600);
            let root = Arc::new(Group::root(Strategy::OneForOne, Intensity::new(1, hour)));
            let inner = Arc::new(Group::child_of(
                &root,
                1,
                Restart::Permanent,
                Strategy::OneForAll,
                Intensity::new(1, hour),
            ));
            let counts: Vec<_> = (10..13).map(|k| add(&inner, k)).collect();
            let now = std::time::Instant::now();
            let failing: Vec<_> = (10..13)
                .map(|k| {
                    let inner = Arc::clone(&inner);
                    thread::spawn(move || inner.restart(k, now))
                })
                .collect();
            let allowed: Vec<bool> = failing.into_iter().map(|h| h.join().unwrap()).collect();
            let n = allowed.iter().filter(|a| **a).count();
            if n < 3 {
                assert!(
                    inner.gave_up() && root.gave_up(),
                    "a refused failure gives up"
                );
            }
            let restarted: usize = counts.iter().map(|c| c.load(Ordering::SeqCst)).sum();
            assert!(restarted >= 2 * n, "each restart restarts the siblings");
        });
    }

    /// A child fails at once as it is added (its first turn ran on another worker before
    /// `add` returned) while an older one-for-all sibling fails: the new child's restart
    /// waits for the lock `add` holds, so it finds itself in the group and restarts both
    /// older siblings; the older failure restarts the new child or not, by which came
    /// first, and never deadlocks.
    #[test]
    fn a_child_failing_as_it_is_added_finds_itself() {
        crate::sync::explore("a_child_failing_as_it_is_added_finds_itself", || {
            let hour = Duration::from_secs(3600);
            let group = Arc::new(Group::root(Strategy::OneForAll, Intensity::new(1000, hour)));
            let (one, two) = (add(&group, 1), add(&group, 2));
            let now = std::time::Instant::now();
            let three = Arc::new(AtomicUsize::new(0));
            let adder = {
                let (group, three) = (Arc::clone(&group), Arc::clone(&three));
                thread::spawn(move || {
                    let child = Arc::new(Counted(three));
                    let failed = group.add(|| {
                        // Spawned under the lock; its first turn fails on another thread.
                        let g = Arc::clone(&group);
                        let failing = thread::spawn(move || g.restart(3, now));
                        let policy = Restart::Permanent;
                        (
                            Entry {
                                key: 3,
                                policy,
                                child,
                            },
                            failing,
                        )
                    });
                    failed.join().unwrap()
                })
            };
            assert!(group.restart(1, now), "the older child restarts");
            assert!(adder.join().unwrap(), "the new child restarts");
            assert_eq!(
                one.load(Ordering::SeqCst),
                1,
                "the new child's failure found it in the group and restarted its siblings"
            );
            assert_eq!(
                two.load(Ordering::SeqCst),
                2,
                "both failures restarted child 2"
            );
            assert!(three.load(Ordering::SeqCst) <= 1);
        });
    }
}
