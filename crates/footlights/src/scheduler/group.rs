//! Groups of actors that talk to each other, and a woken worker that takes whole groups.
//!
//! Work stealing splits a worker's queue without knowing who talks to whom: a thief takes
//! the oldest half of a deque (at most 32 tasks), whatever those actors' partners are.
//! For a tree of spawns that is right (a subtree does not talk to its siblings), and for
//! a group of actors that ping each other it starts a *tug of war*: the stolen actors
//! wake their partners on the thief's worker, the victim's actors wake them back, every
//! message crosses between the cores, and two workers are slower than one
//! (`docs/experiments/2026-11-27-whole-groups.md`: chameneos, and big's neighbourhoods). Once a
//! worker's pace ([`super::governor::pace`]) has seen such a tug of war, the workers of the system *label groups*, and
//! a worker woken later takes whole groups instead of half a deque.
//!
//! **Labels.** Every actor's home carries a [`Group`]: a label, at first derived from the
//! home's own address (so every actor starts in a group of its own). When a send wakes an
//! actor (the push found it idle, so the sender's worker schedules it), the woken actor
//! takes the sender's label if it is smaller. That is label propagation by the minimum: the
//! actors that wake each other end up, within a few rounds of messages, with the smallest
//! label among them, and actors that never message each other keep different labels. Big's
//! neighbourhoods become one label each; chameneos's place and creatures one label; the
//! actors of a tree, which only reply to their parent, stay mostly apart. While the system
//! labels groups, a worker notes the label of the actor whose turn it runs, and a hand-off
//! (a send that woke an actor) passes it on (a worker that has long been the only one
//! awake stops, and the labels wait as they are: [`super::governor::pace::Pace::labels`]); until
//! then a turn pays a test of two flags
//! (one on a lone worker, whose `paced` flag is false) and a hand-off one compare of the
//! worker's hand-off mode (which it tests anyway for FIFO order). Labels only merge; they are a hint, never needed for correctness.
//!
//! **Taking groups.** While the system labels groups and another worker is awake, a worker
//! steals from a deque by groups: it takes the deque one task at a time (at most
//! [`MOST`](super::governor::tunables::GROUP_STEAL_MOST) tasks), keeps the whole groups that
//! make up at most half of them, largest first ([`split`](super::governor::labels::split)), and gives the others back to the victim's inbox. If that would keep less
//! than an eighth of the tasks (one group, as chameneos, or big with one neighbourhood), it
//! gives them all back and *declines*: it steals from no deque until it has slept, and
//! sleeps although it sees work, if another worker stays awake (a give-back,
//! [`super::park`], "Giving back"); a group split over two workers is the tug of war. The
//! actors of a kept group that are idle follow on their own: they are woken by their
//! partners, which now run on the thief. So a worker that joins either takes over groups
//! of its own (which pays when the groups do not talk to each other), or goes back to
//! sleep, and the wake threshold learns from its short run
//! not to wake it for that. With nobody else awake, a worker steals as before: nobody
//! could pull a group back.
//!
//! **Long turns.** Declining is right for a chatty group, whose turns are short: the worker
//! that runs it gets through the whole group soon, and a second worker would only pull it
//! apart. It is wrong for a group whose turns are long: a master that hands CPU-bound jobs
//! to workers it wakes makes them one group (they take its label), and a woken worker that
//! declined would leave a core idle while the jobs wait one behind the other. Labels only
//! merge and never age, so any later phase of a program that once labelled can meet this.
//! So before declining, the thief watches the victim's counters (kept anyway) for up to
//! 200 µs, holding the tasks it took: if the victim runs two turns, or runs out of work
//! (it searches, or parks), the decline stands: a chatty group's worker runs two within
//! microseconds (the task in its next slot, then the hand-offs that follow), or searches
//! at once if the thief took all it had. If it does neither, the victim is *saturated with
//! long turns*, and the thief keeps the oldest half of what it took, as a steal without
//! labels would. The watch costs nothing until a group steal would decline, and where the
//! decline stands it ends with the victim's next two turns. A victim the operating system
//! took off its core for longer is taken for saturated too; that costs one steal, and the
//! next decline looks again. (50 µs was tried first: chameneos on two workers then split
//! its group in 2 of 20 runs, 7 times each; with 200 µs, in none of 40.)
//!
//! A task given back goes to the victim's stage inbox (its home still says the pool), which
//! its worker looks at every other pick, and which the same push-then-notify protocol as
//! any pinned push makes safe against the victim parking meanwhile
//! ([`super::Scheduler::push_stage`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// An actor's group label (see the module documentation).
pub(crate) struct Group(AtomicU64);

/// The next label of a group of its own: labels are handed out once each, from 1, by a
/// process-wide 64-bit counter, so no two groups ever share one by accident (a counter
/// that took a label every nanosecond would wrap after 584 years). An address-derived
/// label, which this replaces, could be shared by two groups within 8 bytes of each other
/// or 32 GiB apart.
static NEXT_LABEL: AtomicU64 = AtomicU64::new(1);

impl Group {
    /// A group of its own (it takes a label the first time one is asked for).
    pub(crate) const fn new() -> Group {
        Group(AtomicU64::new(0))
    }

    /// The actor's label, never 0.
    #[inline]
    pub(crate) fn label(&self) -> u64 {
        match self.0.load(Ordering::Relaxed) {
            0 => self.own_label(),
            label => label,
        }
    }

    /// The actor was woken by an actor labelled `label` (0: none): it takes that label if
    /// it is smaller than its own.
    #[inline]
    pub(crate) fn woken_by(&self, label: u64) {
        if label != 0 && label < self.label() {
            self.0.store(label, Ordering::Relaxed);
        }
    }

    /// Takes a fresh label for a group of its own; if another thread gave it one (its own
    /// or a waker's) meanwhile, that one stands.
    #[cold]
    fn own_label(&self) -> u64 {
        let fresh = NEXT_LABEL.fetch_add(1, Ordering::Relaxed);
        match self
            .0
            .compare_exchange(0, fresh, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => fresh,
            Err(now) => now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_merge_towards_the_smallest() {
        let a = Group::new();
        let b = Group::new();
        assert_ne!(a.label(), b.label());
        assert_ne!(a.label(), 0);
        let (small, large) = if a.label() < b.label() {
            (&a, &b)
        } else {
            (&b, &a)
        };
        large.woken_by(small.label());
        assert_eq!(large.label(), small.label());
        // A larger label, or none, changes nothing.
        let before = small.label();
        small.woken_by(before + 1);
        small.woken_by(0);
        assert_eq!(small.label(), before);
    }

    /// Groups side by side in memory (where address-derived labels collided in release
    /// builds) and groups labelled from many threads at once all get labels of their own.
    #[test]
    fn no_two_groups_share_a_label() {
        let side_by_side: Vec<Group> = (0..1000).map(|_| Group::new()).collect();
        let mut labels: Vec<u64> = side_by_side.iter().map(Group::label).collect();
        let shared: Vec<Group> = (0..1000).map(|_| Group::new()).collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| shared.iter().for_each(|g| assert_ne!(g.label(), 0)));
            }
        });
        labels.extend(shared.iter().map(Group::label));
        let distinct: std::collections::HashSet<u64> = labels.iter().copied().collect();
        assert_eq!(distinct.len(), labels.len());
        assert!(!distinct.contains(&0));
    }
}
