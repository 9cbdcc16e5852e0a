//! Whether a worker's turns flood a mailbox that another worker consumes (a *cross
//! flood*), so that the worker should give its work back, or its running turn should keep
//! what it wakes.
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
//! **Within one turn** ([`Rule::Keep`](super::Rule::Keep)). A sender that sends everything in
//! one long turn (fjthrput's: 120,000 messages in its first turn) floods as badly once the
//! other worker has taken its receivers and keeps them busy, but the turn never ends, so
//! no later turn's first push ever judges it. So the count is also judged once inside the
//! turn, by the same measure, at a cross push late enough to decide it: a turn's messages
//! are counted only when it ends, so the running turn's own cannot be read, but a turn
//! handles at most a batch of them, and at [`FLOOD_RATIO`] times the batch pushes (or
//! [`KEEP_PUSHES`], if more) it has made enough for any count it may have handled. If it
//! floods, the verdict is [`Verdict::Keep`]. The worker then keeps what the rest of the turn wakes in its private
//! FIFO (nobody can steal it, nobody is woken for it) and asks the worker that runs the
//! receiver to give its work back; once the turn is over it publishes what it kept as usual
//! (`docs/experiments/2026-12-01-fjthrput-sender.md`; the worker's side: `worker::keep`).
//! Its count costs a compare on the path of a cross push that does not start a turn's
//! count; the worker's side costs a test where it looks at its company.
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

use super::tunables::{FLOOD_PUSHES, FLOOD_RATIO, FLOOD_TURNS, KEEP_PUSHES};
use crate::metrics::WorkerStats;

/// What a cross push tells its worker to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Nothing: go on.
    Nothing,
    /// The turns before this one flooded, [`FLOOD_TURNS`] in a row: give the work back
    /// ([`Rule::Flood`](super::Rule::Flood)).
    GiveBack,
    /// The running turn floods: keep what it wakes until it ends
    /// ([`Rule::Keep`](super::Rule::Keep)).
    Keep,
}

/// One worker's count of cross pushes in its last turn that made any, and of flooding turns
/// in a row (only that worker touches it).
pub(crate) struct Flood {
    /// Whether flooding turns in a row give the work back ([`Rule::Flood`](super::Rule::Flood)).
    give_back: bool,
    /// The cross push of a turn at which the turn itself is judged under
    /// [`Rule::Keep`](super::Rule::Keep) ([`keep_at`]), else 0: never (a turn's count is at
    /// least 2 where it is compared).
    keep_at: u32,
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
    /// A count for a worker whose governor has [`Rule::Flood`](super::Rule::Flood) if
    /// `give_back`, and [`Rule::Keep`](super::Rule::Keep) if `keep`, in a system whose
    /// turns handle at most `batch` messages each.
    pub(crate) fn new(give_back: bool, keep: bool, batch: usize) -> Flood {
        Flood {
            give_back,
            keep_at: if keep { keep_at(batch) } else { 0 },
            turn: Cell::new(u64::MAX),
            handled: Cell::new(0),
            pushes: Cell::new(0),
            row: Cell::new(0),
        }
    }

    /// Counts a cross push of the running turn, and says what to do.
    #[inline]
    pub(crate) fn pushed(&self, stats: &WorkerStats) -> Verdict {
        let turn = stats.turns.load(Ordering::Relaxed);
        if turn == self.turn.get() {
            let pushes = self.pushes.get().saturating_add(1);
            self.pushes.set(pushes);
            if pushes == self.keep_at {
                return self.judge_running(stats.handled.load(Ordering::Relaxed));
            }
            return Verdict::Nothing;
        }
        if self.next_turn(turn, stats.handled.load(Ordering::Relaxed)) {
            Verdict::GiveBack
        } else {
            Verdict::Nothing
        }
    }

    /// The running turn's `keep_at`th cross push, with `handled` the worker's count of
    /// messages handled: whether the turn floods so far. The count of pushes is already
    /// enough for the turn's own messages ([`keep_at`]); `handled` has grown since its first
    /// push only by inline turns it ran, which are counted as they end.
    #[cold]
    #[inline(never)]
    fn judge_running(&self, handled: u64) -> Verdict {
        let since = handled.saturating_sub(self.handled.get());
        if floods(self.pushes.get(), since) {
            Verdict::Keep
        } else {
            Verdict::Nothing
        }
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
        if row >= FLOOD_TURNS && self.give_back {
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

/// The cross push at which a running turn is judged, in a system whose turns handle at
/// most `batch` messages: [`KEEP_PUSHES`], or [`FLOOD_RATIO`] times the batch if that is
/// more. A turn's messages are counted only when it ends, so while it runs its count of
/// messages handled cannot be read; at this many pushes it has made at least
/// [`FLOOD_RATIO`] for each message it can have handled, whatever it handled.
fn keep_at(batch: usize) -> u32 {
    let bound = (batch as u64).saturating_mul(FLOOD_RATIO);
    // Below `u32::MAX`, where the saturating count stays: it passes through this once.
    let most = u32::MAX - 1;
    u32::try_from(bound)
        .map_or(most, |b| b.min(most))
        .max(KEEP_PUSHES)
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
        verdicts(flood, stats, pushes, handled).contains(&Verdict::GiveBack)
    }

    /// As [`turn`]: the verdicts other than [`Verdict::Nothing`], in order.
    fn verdicts(flood: &Flood, stats: &WorkerStats, pushes: u32, handled: u64) -> Vec<Verdict> {
        crate::metrics::bump(&stats.turns);
        let verdicts = (0..pushes)
            .map(|_| flood.pushed(stats))
            .filter(|&v| v != Verdict::Nothing)
            .collect();
        crate::metrics::bump_by(&stats.handled, handled);
        verdicts
    }

    #[test]
    fn two_flooding_turns_in_a_row_give_back() {
        let stats = WorkerStats::default();
        let flood = Flood::new(true, false, BATCH);
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

    #[test]
    fn without_the_flood_rule_no_row_gives_back() {
        let stats = WorkerStats::default();
        let flood = Flood::new(false, false, BATCH);
        for _ in 0..4 {
            assert!(verdicts(&flood, &stats, 1000, 0).is_empty());
        }
    }

    /// The batch of the tests' system (the runtime's default).
    const BATCH: usize = 100;

    #[test]
    fn a_running_turn_is_judged_where_its_pushes_outnumber_any_batch_it_handled() {
        assert_eq!(
            keep_at(1),
            KEEP_PUSHES,
            "never before the fewest that can flood"
        );
        assert_eq!(keep_at(BATCH), 800);
        assert_eq!(keep_at(usize::MAX), u32::MAX - 1);
    }

    #[test]
    fn a_flooding_turn_keeps_once_at_its_keep_at_th_cross_push() {
        let stats = WorkerStats::default();
        let flood = Flood::new(false, true, BATCH);
        // One long turn of sends only: judged once, at the count, not at every push after.
        crate::metrics::bump(&stats.turns);
        let at: Vec<usize> = (1..=10_000)
            .filter(|_| flood.pushed(&stats) == Verdict::Keep)
            .collect();
        assert_eq!(at, [keep_at(BATCH) as usize]);
        // Fewer than the count: never judged within the turn.
        let short = keep_at(BATCH) - 1;
        assert!(verdicts(&flood, &stats, short, 0).is_empty());
        // A turn that handled its batch and sent three messages on for each (counted, as
        // the runtime counts them, when it ends) is no flood, and is not judged.
        assert!(verdicts(&flood, &stats, 3 * BATCH as u32, BATCH as u64).is_empty());
        // Nor one that handled many messages in inline turns before its pushes: those are
        // counted as they end, and the verdict reads them.
        crate::metrics::bump(&stats.turns);
        assert_eq!(flood.pushed(&stats), Verdict::Nothing);
        crate::metrics::bump_by(&stats.handled, 1_000);
        assert!((1..2_000).all(|_| flood.pushed(&stats) == Verdict::Nothing));
    }

    #[test]
    fn without_the_keep_rule_no_turn_keeps_even_at_a_saturated_count() {
        let stats = WorkerStats::default();
        let flood = Flood::new(true, false, BATCH);
        crate::metrics::bump(&stats.turns);
        assert_eq!(flood.pushed(&stats), Verdict::Nothing);
        flood.pushes.set(u32::MAX - 2);
        assert!((0..4).all(|_| flood.pushed(&stats) == Verdict::Nothing));
    }

    #[test]
    fn both_rules_judge_apart() {
        let stats = WorkerStats::default();
        let flood = Flood::new(true, true, BATCH);
        assert_eq!(verdicts(&flood, &stats, 1000, 0), [Verdict::Keep]);
        assert_eq!(verdicts(&flood, &stats, 1000, 0), [Verdict::Keep]);
        // The third turn's first push gives back (the two before flooded), and the turn
        // is judged within itself as well.
        assert_eq!(
            verdicts(&flood, &stats, 1000, 0),
            [Verdict::GiveBack, Verdict::Keep]
        );
    }
}
