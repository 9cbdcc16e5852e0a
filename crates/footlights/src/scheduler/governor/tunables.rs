//! Every number the scheduler decides by, in one table: each with its unit, the rule it
//! belongs to, and why it has its value.
//!
//! The first block is the mechanism's own cadences, which every governor keeps (the plain
//! one too); the others belong to one adaptive rule each ([`super::Rule`]). The values are
//! those the rules were measured with (`docs/scaling.md` and the experiments it cites);
//! a change to one is a change of the rule, to be measured as such.
//!
//! | constant | value | unit | rule | why this value |
//! |---|---|---|---|---|
//! | [`NEXT_SLOT_STREAK`] | 64 | picks | mechanism | a chain of hand-offs runs at most this many in a row while other tasks wait: long enough that a ring's token is never slowed, short enough that the deque waits microseconds |
//! | [`INJECTOR_EVERY`] | 61 | picks | mechanism | work from outside, the inbox and the oldest spawn are looked at first this often; a prime, so the cadence never lines up with the others (which are powers of two) |
//! | [`ABSORB_EVERY`] | 8 | picks | mechanism, [`Fifo`](super::Rule::Fifo) | a worker in FIFO order queues what other threads scheduled at most this many picks late; the same pick looks at a worker's company (alone or not; alone for now, see [`ALONE_LOOK_EVERY`]) and at a flood's verdict |
//! | [`NURSERY_EVERY_MASK`], [`NURSERY_PICK`] | 3, 2 | picks (a mask) | mechanism | the nursery comes first on one pick in four, pinned work on every other, the deque otherwise, so none of the three starves the others |
//! | [`PINNED_EVERY_MASK`] | 1 | picks (a mask) | mechanism | see above: pinned work first every other pick |
//! | [`SEARCH_ROUNDS`] | 10 | rounds | mechanism | a searcher looks this many times, spinning `2^i` pauses after round `i` (1,023 pauses in all: what a hand-off from a busy worker takes to arrive; about 25 µs on the 2-CPU AMD EPYC machines of `docs/`) before it parks. On a process that may run on one CPU it yields the CPU between looks instead (`worker::search_yields`): there the thread that would hand it work cannot run while it spins, and a spawning main thread and its woken worker took turns some 20 times a run (`docs/scaling.md`, "A search on one CPU") |
//! | [`SEARCHERS_OF_ACTIVE`] | 2 | divisor | mechanism | at most the workers that may be awake over this (at least one) search at once, as tokio and Go limit searching workers |
//! | [`ALONE_LOOK_EVERY`] | 64 | picks | [`Fifo`](super::Rule::Fifo) | a pool worker of several that is alone for now (FIFO order) makes the look of every [`ABSORB_EVERY`] picks only one pick in this many while waking does not pay and nothing waits in its inbox or the injector: its company changes only when another thread acts, it counts no floods while alone, and it wakes nobody by that look (its FIFO's length does, on every queueing). The look at the nursery's oldest spawn comes this often too. A divisor of [`PACE_EVERY`] and a multiple of [`ABSORB_EVERY`] (checked when the crate compiles). With the look every 8 picks, its flood count and the general hand-off, two threads of chameneos took 3% longer, the look about 1 point of it (`docs/scaling.md`, "A quiet machine") |
//! | [`PACE_EVERY`] | 64 | picks | [`Labels`](super::Rule::Labels), held wake-ups, renewal | a tick of a worker's pace; a power of two multiple of [`ABSORB_EVERY`], so it falls on a pick that already looks at the worker's company |
//! | [`EPOCH_TICKS`] | 16 | ticks | the pace | an epoch is about a thousand turns: long enough that a worker alone for one has shown it can run the work alone (and held wake-ups may go), short enough that steals back are tallied within a millisecond or so |
//! | [`MIN_MESSAGES`] | 256 | messages | the pace | an epoch alone with fewer handled (long computations) is not counted as alone: it releases no held wake-ups |
//! | [`RENEW_EPOCHS`] | 256 | epochs | the pace (memory) | one epoch in this many a worker returns its spare mailbox nodes, so nodes from another worker do not go round for ever |
//! | [`STEALS_BACK_SHARE`] | 8 | divisor | the labels | steals back must be at least one steal in this many: chameneos's slow mode shows three in four, big's neighbourhoods one in two to five, trees none |
//! | [`TALLY_STEALS`] | 256 | steals | the labels | a tally of this many steals without enough steals back to start the labels is forgotten, so that an early phase of many steals does not hide a later one's steals back |
//! | [`GROUP_STEALS_BACK`] | 4 | steals | [`Labels`](super::Rule::Labels) | so few steals back (an eighth of the steals) already start the labels: cheaper than a give-back, and chameneos's tug is over within its first few hundred epochs |
//! | [`LABEL_ALONE_EPOCHS`] | 16 | epochs | the labels | a worker alone this long stops reading labels (each turn would pay a look at its actor's label for nothing) |
//! | [`LONG_TURN`] | 200 | µs | the labels | a worker that neither runs [`SATURATED_TURNS`] turns nor runs out of work this long is saturated with long turns, and its one group is split by halves; chameneos's longest chatty turn is a few µs |
//! | [`SATURATED_TURNS`] | 2 | turns | the labels | see [`LONG_TURN`] |
//! | [`GROUP_STEAL_MOST`] | 4,096 | tasks | the labels | a group steal takes a deque whole up to this many, to see its groups; more would hold a long deque's tasks out of reach for long |
//! | [`GROUP_KEEP_LEAST`] | 8 | divisor | the labels | a group steal that would keep less than one task in this many (one group and strays) declines |
//! | [`SHORT_RUN`] | 100 | µs | [`Wake`](super::Rule::Wake) | a woken worker that ran out of work within this was not worth its wake-up (some µs of system calls): the threshold doubles |
//! | [`WAKE_PAID_RUN`] | 1 | ms | the wake threshold | a woken worker that kept busy this long was worth waking: the threshold halves |
//! | [`MAX_WAKE_BACKLOG`] | 1,024 | tasks | the wake threshold | the highest the threshold goes: a backlog this long wakes somebody whatever was learned |
//! | [`FLOOD_PUSHES`] | 256 | pushes | [`Flood`](super::Rule::Flood) | a turn with at least this many cross pushes may flood (fewer are a few messages to a busy actor) |
//! | [`FLOOD_RATIO`] | 8 | pushes a message | the flood rule | and at least this many per message it handled (a pipeline's stage has one) |
//! | [`FLOOD_TURNS`] | 2 | turns | the flood rule | flooding turns in a row: the first turn after a receiver moved here still names its old worker |
//! | [`KEEP_PUSHES`] | 256 | pushes | [`Keep`](super::Rule::Keep) | the fewest cross pushes at which a running turn is judged, by [`FLOOD_PUSHES`] and [`FLOOD_RATIO`]; it is judged at [`FLOOD_RATIO`] times the batch pushes if that is more (800 at the default batch), since its own messages are counted only when it ends: so a sender's one long turn is judged within its first thousand sends |
//! | [`WATCH_EVERY`] | 1 | ms | [`Watcher`](super::Rule::Watcher) | the watcher's first period, and its period while it sees long turns: a task behind a long turn then waits about this long |
//! | [`WATCH_BUSY_MOST`] | 8 | ms | the watcher | its longest period while another worker is awake and no look has seen long turns (it doubles each look from [`WATCH_EVERY`]): work behind a turn that turns long is found within a few periods, some tens of milliseconds, and short turns pay an eighth of the looks |
//! | [`WATCH_IDLE_MOST`] | 1 | s | the watcher | its longest period while every worker is parked (it doubles each look): an idle runtime wakes one thread about once a second |
//! | [`WATCH_LONG_TURN`] | 1 | ms | the watcher | a worker that starts at most one turn per this long of the watcher's period, never running out of work, runs long turns |
//! | [`RESCUE_COUNTS_AFTER`] | 1 | ms | the watcher, the wake threshold | a rescuer's run tells the threshold something only if it kept busy this long (a rescue is no backlog's wake-up) |
//!
//! The three durations of 1 ms were one constant (`LONG_RUN`) with three meanings; they
//! are three names now, equal because each was measured equal, free to differ.

use std::time::Duration;

// The mechanism's cadences (every governor).

/// Picks in a row from the next slot while other tasks wait.
pub(crate) const NEXT_SLOT_STREAK: u32 = 64;
/// Every this many picks, the inbox, the injector and the oldest spawn come first.
pub(crate) const INJECTOR_EVERY: u32 = 61;
/// Every this many picks, a worker in FIFO order takes in what other threads scheduled,
/// and a pool worker of several looks at its company and at a flood's verdict.
pub(crate) const ABSORB_EVERY: u32 = 8;
/// A pick whose count masked with this is [`NURSERY_PICK`] looks at the nursery first.
pub(crate) const NURSERY_EVERY_MASK: u32 = 3;
/// See [`NURSERY_EVERY_MASK`].
pub(crate) const NURSERY_PICK: u32 = 2;
/// A pick whose count masked with this is 0 (and is no nursery pick) looks at pinned work
/// first.
pub(crate) const PINNED_EVERY_MASK: u32 = 1;
/// Search rounds before parking; round `i` spins `2^i` pauses first (or yields, on one CPU).
pub(crate) const SEARCH_ROUNDS: u32 = 10;
/// At most the workers that may be awake over this (at least one) search at once.
pub(crate) const SEARCHERS_OF_ACTIVE: usize = 2;

// The pace and the labels.

/// Every this many picks (a multiple of [`ABSORB_EVERY`] that divides [`PACE_EVERY`]), a
/// pool worker of several alone for now looks at its company, a flood and its nursery's
/// oldest spawn, while waking does not pay and nothing from other threads waits.
pub(crate) const ALONE_LOOK_EVERY: u32 = 64;
const _: () = assert!(ALONE_LOOK_EVERY % ABSORB_EVERY == 0 && PACE_EVERY % ALONE_LOOK_EVERY == 0);
/// Every this many picks, a pool worker of several counts a tick of its pace.
pub(crate) const PACE_EVERY: u32 = 64;
/// Ticks per epoch.
pub(crate) const EPOCH_TICKS: u32 = 16;
/// An epoch alone with fewer messages than this is not counted as alone.
pub(crate) const MIN_MESSAGES: u64 = 256;
/// One epoch in this many, a worker drains its spare mailbox nodes.
#[cfg_attr(loom, allow(dead_code))]
pub(crate) const RENEW_EPOCHS: u32 = 256;
/// Steals back must be at least one steal in this many.
pub(crate) const STEALS_BACK_SHARE: u64 = 8;
/// A tally of this many steals without enough steals back to start the labels is
/// forgotten.
pub(crate) const TALLY_STEALS: u64 = 256;
/// Steals back (with [`STEALS_BACK_SHARE`]) that start the labels.
pub(crate) const GROUP_STEALS_BACK: u64 = 4;
/// Epochs in a row alone after which a worker stops labelling groups.
pub(crate) const LABEL_ALONE_EPOCHS: u32 = 16;
/// A group's worker busy this long without [`SATURATED_TURNS`] turns is saturated.
pub(crate) const LONG_TURN: Duration = Duration::from_micros(200);
/// See [`LONG_TURN`].
pub(crate) const SATURATED_TURNS: u64 = 2;
/// At most this many tasks are taken from one deque by a group steal.
pub(crate) const GROUP_STEAL_MOST: usize = 4096;
/// A group steal keeping less than one task in this many declines.
pub(crate) const GROUP_KEEP_LEAST: usize = 8;

// The wake threshold.

/// A woken worker that ran out of work within this long was not worth waking.
pub(crate) const SHORT_RUN: Duration = Duration::from_micros(100);
/// A woken worker that kept busy this long was worth waking.
pub(crate) const WAKE_PAID_RUN: Duration = Duration::from_millis(1);
/// The highest the wake threshold goes (tasks in a deque).
pub(crate) const MAX_WAKE_BACKLOG: usize = 1024;

// The flood rule.

/// Cross pushes that make a turn a flooding turn (with [`FLOOD_RATIO`]).
pub(crate) const FLOOD_PUSHES: u32 = 256;
/// A flooding turn makes at least this many cross pushes per message it handled.
pub(crate) const FLOOD_RATIO: u64 = 8;
/// Flooding turns in a row that make the worker give its work back.
pub(crate) const FLOOD_TURNS: u32 = 2;

// The keeping turn.

/// The fewest cross pushes at which a running turn is judged (at least [`FLOOD_PUSHES`], so
/// that it can flood; [`FLOOD_RATIO`] times the batch if that is more).
pub(crate) const KEEP_PUSHES: u32 = 256;
const _: () = assert!(KEEP_PUSHES >= FLOOD_PUSHES);

// The watcher.

/// How long the watcher sleeps between looks while another worker is awake.
pub(crate) const WATCH_EVERY: Duration = Duration::from_millis(1);
/// The longest the watcher sleeps between looks while another worker is awake and no look
/// saw long turns.
pub(crate) const WATCH_BUSY_MOST: Duration = Duration::from_millis(8);
/// The longest the watcher sleeps between looks while every worker is parked.
pub(crate) const WATCH_IDLE_MOST: Duration = Duration::from_secs(1);
/// A worker starting at most one turn per this long, never out of work, runs long turns.
pub(crate) const WATCH_LONG_TURN: Duration = Duration::from_millis(1);
/// A rescuer that kept busy this long tells the wake threshold what its run achieved.
pub(crate) const RESCUE_COUNTS_AFTER: Duration = Duration::from_millis(1);
