//! What a soak program counts, and the invariants it checks against the counts.
//!
//! Every token (the soak's message) is counted once when it is made and once when it
//! ends: handled by a node, returned to its sender (a refused send gives it back), lost
//! with the handler that panicked holding it, or dropped by the runtime (a dead letter, a
//! timer or future dropped at a stop or a shutdown). A token's `Drop` counts the last
//! kind unless one of the others marked it first, so a token the runtime loses without
//! dropping it, or hands to two handlers, breaks the balance. Per sender and receiver,
//! the directly sent tokens carry a sequence number, and the receiver checks that each is
//! above the last it saw: FIFO, and nothing handled twice.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a token travelled: what drops it when it is not handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A send to an address: dropped unhandled only as a dead letter.
    Direct,
    /// A timer's message: dropped with the timer when its actor stops or the system shuts
    /// down.
    Timer,
    /// The output of a future inside an actor: dropped with the future at a stop.
    Future,
}

/// The program's counters (one ledger per program; see [`Ledger::reset`]).
#[derive(Default)]
pub struct Ledger {
    pub created: AtomicU64,
    pub handled: AtomicU64,
    pub returned: AtomicU64,
    pub lost_in_panic: AtomicU64,
    pub dropped_direct: AtomicU64,
    pub dropped_timer: AtomicU64,
    pub dropped_future: AtomicU64,
    pub asks: AtomicU64,
    pub asks_answered: AtomicU64,
    pub asks_canceled: AtomicU64,
    pub asks_timed_out: AtomicU64,
    /// Continuations dropped unrun (their actor stopped first, as the docs allow).
    pub asks_dropped: AtomicU64,
    pub panics: AtomicU64,
    pub stops: AtomicU64,
    pub kills: AtomicU64,
    pub moves: AtomicU64,
    /// The receivers of directly sent tokens the runtime dropped: each must have
    /// stopped for good (a restart keeps every queued message but the one whose handler
    /// panicked, which the handler marks lost).
    pub dropped_by: Mutex<std::collections::BTreeSet<u32>>,
    pub violations: Mutex<Vec<String>>,
}

/// The one ledger of the running program: the soak runs its programs one after the
/// other, and every token ends before the next program starts (that is an invariant).
pub static LEDGER: std::sync::LazyLock<Ledger> = std::sync::LazyLock::new(Ledger::default);

/// Adds one to `counter`.
pub fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

impl Ledger {
    /// Zeroes every counter for the next program.
    pub fn reset(&self) {
        for c in self.counters() {
            c.store(0, Ordering::SeqCst);
        }
        self.violations.lock().unwrap().clear();
        self.dropped_by.lock().unwrap().clear();
    }

    fn counters(&self) -> [&AtomicU64; 16] {
        [
            &self.created,
            &self.handled,
            &self.returned,
            &self.lost_in_panic,
            &self.dropped_direct,
            &self.dropped_timer,
            &self.dropped_future,
            &self.asks,
            &self.asks_answered,
            &self.asks_canceled,
            &self.asks_timed_out,
            &self.asks_dropped,
            &self.panics,
            &self.stops,
            &self.kills,
            &self.moves,
        ]
    }

    /// Notes a broken invariant (the first few are kept with their details).
    pub fn violation(&self, what: String) {
        let mut v = self.violations.lock().unwrap();
        if v.len() < 20 {
            v.push(what);
        }
    }

    /// Tokens made and not yet ended. The ends are read before the makings, so a token
    /// passed on between the reads can only make this larger; and since a node makes a
    /// token's successor before it ends the token (`Node::token`), zero means that no
    /// token exists and that none will be made but by the driver.
    pub fn in_flight(&self) -> i64 {
        let ended = self.ended();
        self.created.load(Ordering::SeqCst) as i64 - ended as i64
    }

    fn ended(&self) -> u64 {
        [
            &self.handled,
            &self.returned,
            &self.lost_in_panic,
            &self.dropped_direct,
            &self.dropped_timer,
            &self.dropped_future,
        ]
        .iter()
        .map(|c| c.load(Ordering::SeqCst))
        .sum()
    }

    /// Every token made has ended, exactly once each way it can.
    pub fn check_balanced(&self, when: &str) {
        let in_flight = self.in_flight();
        if in_flight != 0 {
            self.violation(format!(
                "{when}: {in_flight} tokens neither handled, returned, lost in a panic nor \
                 dropped ({})",
                self.summary()
            ));
        }
        let asks = self.asks.load(Ordering::SeqCst);
        let resolved = [
            &self.asks_answered,
            &self.asks_canceled,
            &self.asks_timed_out,
            &self.asks_dropped,
        ]
        .iter()
        .map(|c| c.load(Ordering::SeqCst))
        .sum::<u64>();
        if asks != resolved {
            self.violation(format!(
                "{when}: {asks} asks, {resolved} answered, canceled, timed out or dropped \
                 with their stopped asker"
            ));
        }
    }

    /// The dead letters the runtime counted cover every directly sent token it dropped.
    pub fn check_dead_letters(&self, dead_letters: u64) {
        let dropped = self.dropped_direct.load(Ordering::SeqCst);
        if dead_letters < dropped {
            self.violation(format!(
                "{dropped} sent tokens dropped unhandled, but only {dead_letters} dead letters \
                 counted"
            ));
        }
    }

    /// The counters, for a report.
    pub fn summary(&self) -> String {
        let l = |c: &AtomicU64| c.load(Ordering::SeqCst);
        format!(
            "created {} handled {} returned {} lost-in-panic {} dropped {}/{}/{} (direct/timer/\
             future); asks {} ({} answered, {} canceled, {} timed out, {} dropped); faults: \
             {} panics, {} stops, {} kills, {} moves",
            l(&self.created),
            l(&self.handled),
            l(&self.returned),
            l(&self.lost_in_panic),
            l(&self.dropped_direct),
            l(&self.dropped_timer),
            l(&self.dropped_future),
            l(&self.asks),
            l(&self.asks_answered),
            l(&self.asks_canceled),
            l(&self.asks_timed_out),
            l(&self.asks_dropped),
            l(&self.panics),
            l(&self.stops),
            l(&self.kills),
            l(&self.moves),
        )
    }

    /// The violations noted so far.
    pub fn violations(&self) -> Vec<String> {
        self.violations.lock().unwrap().clone()
    }
}

/// The soak's message: see the module documentation.
pub struct Token {
    /// Who sent it (a node's index, or the driver's, which comes after the nodes).
    pub from: u32,
    /// Whom it was sent to.
    pub to: u32,
    /// Its place among the direct sends from `from` to its receiver (0: not checked).
    pub seq: u64,
    /// How many more nodes it visits.
    pub hops: u32,
    pub via: Via,
    /// Set once it has ended otherwise than by being dropped.
    ended: bool,
}

impl Token {
    /// A new token (counted as made).
    pub fn new(from: u32, to: u32, seq: u64, hops: u32, via: Via) -> Token {
        bump(&LEDGER.created);
        Token {
            from,
            to,
            seq,
            hops,
            via,
            ended: false,
        }
    }

    /// Handled by a node.
    pub fn handled(mut self) {
        self.ended = true;
        bump(&LEDGER.handled);
    }

    /// Came back from a refused send.
    pub fn returned(mut self) {
        self.ended = true;
        bump(&LEDGER.returned);
    }

    /// Held by a handler that is about to panic.
    pub fn lost(mut self) {
        self.ended = true;
        bump(&LEDGER.lost_in_panic);
    }
}

impl Drop for Token {
    fn drop(&mut self) {
        if !self.ended {
            if self.via == Via::Direct {
                LEDGER.dropped_by.lock().unwrap().insert(self.to);
            }
            bump(match self.via {
                Via::Direct => &LEDGER.dropped_direct,
                Via::Timer => &LEDGER.dropped_timer,
                Via::Future => &LEDGER.dropped_future,
            });
        }
    }
}
