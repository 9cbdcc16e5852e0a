//! Whether a worker's turns flood a mailbox that another worker consumes (a *cross
//! flood*), so that the worker should give its work back.
//!
//! Many senders flooding one receiver (bang) run fastest on one worker: a push is then a
//! swap of a mailbox head this core already holds. Split over two workers so that the
//! receiver runs on one while senders run on both, every push moves the head's cache line
//! between the cores, a send costs several times what a message costs on one worker, and
//! two workers take four times as long as one (`docs/experiments/2026-11-27-bang-two-modes.md`).
//! Nothing that counts messages handled sees this: the flooding worker handles none; its
//! turns are long by contention, which looks like work.
//!
//! So a pool worker of several counts, per turn, its *cross pushes*: pushes that found the
//! receiver already scheduled (the push did not wake it) while the receiver's home says
//! it last used up a batch on another worker ([`crate::scheduler::home::Home::busy_on`]: recorded
//! where a turn ends with its batch used up and envelopes left, so a busy actor's worker
//! is known and an idle one's is not). A turn with at least [`FLOOD_PUSHES`] cross pushes, and at least
//! [`FLOOD_RATIO`] times as many as the messages it handled, floods; [`FLOOD_TURNS`]
//! flooding turns in a row make the worker give its work back and park
//! ([`crate::scheduler::park`], "Giving back"): its senders go to the
//! injector, where the worker that runs the receiver takes them, and they run beside the
//! receiver. Requiring two turns in a row filters the one turn after a receiver moved to
//! this worker (woken here by this turn's first push), whose home still names the worker it
//! used up its last batch on.
//!
//! What it does not catch, on purpose: a pipeline whose stage handles a message and
//! sends one on (as many pushes as messages handled) keeps both workers; so does a turn
//! that sends a few messages to a busy actor elsewhere.
//!
//! All of it happens on the path of a cross push, so nothing else pays: a turn is told
//! from the next by the worker's count of turns, and a turn's messages handled by its
//! count of messages handled (both its own counters), read at a turn's first cross push;
//! the verdict on a turn comes at the first cross push of a later turn. A send that did
//! not wake its receiver pays one load of the receiver's home and a compare (see
//! `Worker::pushed_queued`); a send that wakes it (a ring's hop, a ping) pays nothing, and
//! neither does a turn that makes no cross push.

use std::cell::Cell;
use std::sync::atomic::Ordering;

use super::tunables::{FLOOD_PUSHES, FLOOD_RATIO, FLOOD_TURNS};
use crate::metrics::WorkerStats;

/// One worker's count of cross pushes in its last turn that made any, and of flooding turns
/// in a row (only that worker touches it).
pub(crate) struct Flood {
    /// The worker's count of turns when the counted turn made its first cross push
    /// (`u64::MAX`: none counted).
    turn: Cell<u64>,
    /// The worker's count of messages handled then.
    handled: Cell<u64>,
    /// Cross pushes of the counted turn.
    pushes: Cell<u32>,
    /// Flooding turns in a row, up to the one before the counted turn.
    row: Cell<u32>,
}

impl Flood {
    pub(crate) fn new() -> Flood {
        Flood {
            turn: Cell::new(u64::MAX),
            handled: Cell::new(0),
            pushes: Cell::new(0),
            row: Cell::new(0),
        }
    }

    /// Counts a cross push of the running turn; `true` if the worker should give its work
    /// back now (the turns before this one flooded, [`FLOOD_TURNS`] in a row).
    #[inline]
    pub(crate) fn pushed(&self, stats: &WorkerStats) -> bool {
        let turn = stats.turns.load(Ordering::Relaxed);
        if turn == self.turn.get() {
            self.pushes.set(self.pushes.get().saturating_add(1));
            return false;
        }
        self.next_turn(turn, stats.handled.load(Ordering::Relaxed))
    }

    /// The first cross push of turn `turn` (the worker's count of turns), with `handled`
    /// the worker's count of messages handled: judges the turn counted until now.
    #[cold]
    #[inline(never)]
    fn next_turn(&self, turn: u64, handled: u64) -> bool {
        let last = self.turn.replace(turn);
        let pushes = self.pushes.replace(1);
        let last_handled = self.handled.replace(handled);
        // Only the turn right before this one can make a row: the count of messages
        // handled since the counted turn began is then that turn's.
        let row = if last.wrapping_add(1) == turn
            && floods(pushes, handled.saturating_sub(last_handled))
        {
            self.row.get() + 1
        } else {
            0
        };
        if row >= FLOOD_TURNS {
            self.row.set(0);
            true
        } else {
            self.row.set(row);
            false
        }
    }

    /// Forgets what it counted (the worker parked).
    pub(crate) fn reset(&self) {
        self.turn.set(u64::MAX);
        self.pushes.set(0);
        self.row.set(0);
    }
}

/// Whether a turn with `pushes` cross pushes that handled `handled` messages floods.
fn floods(pushes: u32, handled: u64) -> bool {
    pushes >= FLOOD_PUSHES && u64::from(pushes) >= handled.saturating_mul(FLOOD_RATIO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_of_sends_only_floods() {
        // A bang sender: a thousand sends, nothing handled.
        assert!(floods(1000, 0));
        // A few sends to a busy actor elsewhere do not.
        assert!(!floods(FLOOD_PUSHES - 1, 0));
        // A pipeline's stage: a message on for each handled.
        assert!(!floods(100, 100));
        assert!(!floods(1000, 1000));
        // A fan-out: one message in, many out.
        assert!(floods(1000, 1));
    }

    /// A turn of the worker whose counters are `stats`: `pushes` cross pushes, then
    /// `handled` messages handled; whether a push said to give back.
    fn turn(flood: &Flood, stats: &WorkerStats, pushes: u32, handled: u64) -> bool {
        crate::metrics::bump(&stats.turns);
        let mut give_back = false;
        for _ in 0..pushes {
            give_back |= flood.pushed(stats);
        }
        crate::metrics::bump_by(&stats.handled, handled);
        give_back
    }

    #[test]
    fn two_flooding_turns_in_a_row_give_back() {
        let stats = WorkerStats::default();
        let flood = Flood::new();
        assert!(!turn(&flood, &stats, 1000, 0), "the first flooding turn");
        assert!(
            !turn(&flood, &stats, 1000, 1000),
            "a pipeline's turn breaks the row"
        );
        assert!(!turn(&flood, &stats, 1000, 0));
        assert!(!turn(&flood, &stats, 0, 3), "a turn without cross pushes");
        assert!(!turn(&flood, &stats, 1000, 0), "breaks the row too");
        assert!(
            !turn(&flood, &stats, 1000, 0),
            "the second flooding turn in a row"
        );
        assert!(turn(&flood, &stats, 1, 0), "the next cross push gives back");
        assert!(!turn(&flood, &stats, 1000, 0), "and the count starts again");
        flood.reset();
        assert!(!turn(&flood, &stats, 1000, 0), "a park forgets");
        assert!(!turn(&flood, &stats, 1000, 0));
    }
}
