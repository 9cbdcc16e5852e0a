//! Observing: what the workers record of the turns they sample, the controller's glimpses
//! of turns in progress and its watch on long turns, and the decaying averages the rules
//! read.
//!
//! # What is sampled, and what it costs
//!
//! Nothing here runs unless the system was built with placement `observe` or `auto`.
//! Then [`Auto`] is the scheduler's observer ([`crate::scheduler::probe`]), and:
//!
//! * **Turns, by sampling.** Each worker samples about one turn in [`SAMPLE_EVERY`] (the
//!   scheduler chooses which, with jitter, so that a ring of actors is not sampled at the
//!   same member every time). A sampled turn records its wall time (less any time spent
//!   waking another thread: that is the cost of a cross-thread hand-off, not work the
//!   actor needs a core for), the messages it handled, and every send it made: to whom,
//!   and whether the receiver last ran on another stage (a *cross-stage* send, the
//!   hand-off that co-location would save). That gives message counts per pair of actors
//!   and handler time per actor, scaled by the sampling rate. An unsampled turn costs one
//!   counter decrement and a flag test.
//! * **Turns, by time.** A count of turns comes round too rarely where turns are long:
//!   at 100 µs a turn, one in [`SAMPLE_EVERY`] is one in 50 ms, and the averages fade
//!   by half every decision (about 10 ms), so two samples of such an actor never stood
//!   at once and it was never judged. So each round the controller asks every stage that
//!   is awake and sent no turn chosen by count since the last round for a sample of one
//!   of its next turns, drawn at random from about a round's worth
//!   ([`crate::scheduler::stage::Stage::ask_for_sample`]). Such a *timed* sample says
//!   what a turn of its actor costs (the [`Cost`] of it), but not how many turns there
//!   are: rates (an actor's load, its sends, who it sends to) come from the turns chosen
//!   by count alone, which the request does not shift.
//! * **Turns, by glimpse.** Neither of the above finds a slow actor on a stage that also
//!   runs many cheap turns: its turns are a few in thousands, so sampling by count
//!   rarely picks one, and the stage sends turns chosen by count every round, so it is
//!   never asked for one by time. So the controller, at each look (below), *glimpses*
//!   the turn in progress on every stage that is awake: the turn's end reports its actor,
//!   the messages it handled and the worker thread's CPU time since the look. A look
//!   catches a turn in proportion to its length, so an actor that takes a fifth of a
//!   stage's time is glimpsed about once a decision, however many cheap turns run beside
//!   it. CPU time, not wall time: where every CPU is busy, the controller's own thread
//!   preempts a worker to look, so the turn a look finds is often a preempted one, and
//!   its wall time would hold the preemption. Even so, the worker's time to get going
//!   again and end the turn counts as the turn's (a few microseconds), so a glimpse under
//!   [`GLIMPSE_FLOOR`] counts as a turn that took no time. What is measured is only the
//!   part after the look, and the turns a look catches are the long ones: so glimpses say
//!   only whether an actor's turns are heavy or costly (rules 2 and 3 of `decide.rs`,
//!   judged on them alone by the same bounds as the sampled turns, and holding an actor
//!   back from being judged cheap again or inlined while one is in view), never what its
//!   turns cost on average nor what it sends. A glimpse on a turn that then runs an
//!   inline turn is dropped (its time would hold the inline actor's). Where the thread's
//!   CPU time cannot be read, nothing is glimpsed. A glimpse costs the controller and the
//!   worker a reading of the thread's CPU clock each, and the worker one report, a round.
//! * **Long turns, by watching.** The controller looks at every stage each
//!   [`super::ROUND`]. A stage that has been inside the same turn since the previous look
//!   is *watched* instead of glimpsed: the controller notes the time, the thread's CPU clock and its voluntary
//!   context switches (less the one of a sleep under way), and when the turn ends, the
//!   worker reports the actor with the wall and CPU time since then. (An inline turn
//!   counts as a turn of its own, so a watch put on one reports the inline actor, not the
//!   sender whose turn ran it; and a watch put on the sender's turn before it ran an
//!   inline turn stays the sender's: the inline turn's end leaves it alone, and it then
//!   counts from the turn count after the inline turn.) A turn that used more than half its wall time on the CPU,
//!   and at least [`BUSY_CPU`] of CPU, was busy computing. (Without that floor, a cheap
//!   turn whose thread was preempted just before the look, and finished just after it,
//!   would count as a long computation: CI saw a 400 ns counter marked CPU-heavy that
//!   way.) One that used less was blocked (sleeping, waiting on I/O or a lock) if the
//!   thread gave up the CPU by itself meanwhile; if it did not, it was only preempted by
//!   the operating system, which says nothing about the actor. Sampling by time, not by
//!   turn count, is what makes a rare long turn visible at all. The CPU clock and the
//!   switch counts come from [`super::thread_time`]: on platforms other than Linux there
//!   are none, and long turns are not judged at all (that module says what follows).
//!
//! # What is kept
//!
//! Every round the controller folds the new samples into [`Observations`]: per actor,
//! sums of the turns sampled by count, their wall time and sends, what every sampled turn
//! says of its handler (its [`Cost`]: time per message, heavy and costly turns, sends),
//! what its glimpsed turns say (a [`Cost`] of their own),
//! long turns seen blocked or busy, and who sends to it; per pair of actors, the sampled cross-stage sends. Every decision
//! halves them all ([`Observations::decay`]), so old behaviour fades within tens of
//! milliseconds, and stopped actors and faded pairs are forgotten. (Where rule 4 of
//! `decide.rs` may apply, the sampled cross-stage sends per pair fade over about 32
//! decisions instead, [`CROSS_KEEP`], and an actor stays known while it is in such a
//! pair: a slow pair's samples are few and far between.) Where rule 6 of
//! `decide.rs` may apply (work stealing on several workers), it also keeps *who talks to
//! whom*: every pair of actors seen in a sampled send, either way and wherever the
//! receiver ran, with the decision it was last seen at; a pair stays in view for
//! [`TALK_DECISIONS`] decisions (a community's pairs are each sampled rarely), and so does
//! an actor that was in one.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::Auto;
use super::thread_time::{ThreadTime, own_cpu_ns, own_voluntary_switches};
use crate::scheduler::Task;
use crate::scheduler::probe::{Observer, Recorder};
use crate::scheduler::stage::Stage;

/// About one turn in this many is sampled on each worker.
pub const SAMPLE_EVERY: u32 = 512;
/// CPU time a watched turn must use, besides more than half its wall time, to count as
/// a long computation.
pub const BUSY_CPU: Duration = Duration::from_millis(1);
/// Time off the CPU, in a watched turn whose thread gave the CPU up, that makes the turn
/// a blocked one. A worker preempted while it briefly waited for a lock is rarely off the
/// CPU this long; an actor that sleeps or waits on I/O usually is.
const BLOCKED_NS: u64 = 5_000_000;
/// Handler time per message above which a sampled turn, or an actor, is CPU-heavy.
pub(super) const HEAVY_NS_PER_MESSAGE: f64 = 50_000.0;
/// Handler time per message above which a sampled turn, or an inline actor, is too costly
/// to run inline: four times what inlining asks (`CHEAP_NS_PER_MESSAGE` of `decide.rs`),
/// so that a leaf near that bound does not flip at every decision. Inline, each message's
/// handler runs inside its sender's turn, which the hand-off it saves (a fraction of a
/// microsecond) no longer pays for.
pub(super) const COSTLY_NS_PER_MESSAGE: f64 = 4_000.0;
/// CPU time below which a glimpse counts as a turn that took none. A look often comes
/// while its thread preempts the worker (every CPU busy), and the worker's time to get
/// going again and end the turn then counts as the turn's: with a cheap leaf beside two
/// busy threads on two CPUs, glimpses of its turns took a median of 4 µs (10 µs in a
/// debug build), and up to 15 µs (0.1 ms), while its handler took well under one. That
/// says nothing of the handler, and would have made it costly.
pub(super) const GLIMPSE_FLOOR: Duration = Duration::from_micros(200);
/// Distinct receivers recorded per sampled turn; further sends are only counted.
const MAX_RECEIVERS: usize = 8;
/// Decisions for which a pair of actors seen talking stays in view (the averages fade by
/// half each decision): a pair of many-to-many talkers is sampled rarely (big at 8,000
/// workers samples each of its actors about once in ten decisions), and a community shows
/// only when enough of its pairs are in view at once.
pub(super) const TALK_DECISIONS: u32 = 24;
/// Pairs that have left view are forgotten every this many decisions.
const TALK_SWEEP_EVERY: u32 = 4;
/// Distinct senders that make an actor that gets many messages a hub (not a pair's
/// partner).
pub(super) const HUB_SENDERS: usize = 3;
/// What a decision keeps of a pair's sampled cross-stage sends where rule 4 of
/// `decide.rs` may use them (elsewhere they halve like everything else). Kept for about
/// 32 decisions instead of 2, they show a pair that crosses stages steadily but slowly.
/// Halved every decision, the rule's threshold (4 sampled sends) took about 100,000
/// cross-stage sends a second each way (2 sampled ones every decision, at one turn in
/// [`SAMPLE_EVERY`] and a decision about every 10 ms), which a ping-pong pair starved of
/// CPU does not reach: a debug build on one CPU beside a busy loop passed about 7,500 a
/// second each way, every hop a wake-up of the other stage, and was co-located only when
/// its samples happened to bunch, after seconds, sometimes not within a minute. Now
/// about one sampled send in eight decisions is enough (some 6,400 sends a second).
const CROSS_KEEP: f64 = 31.0 / 32.0;

/// One receiver of a sampled turn's sends.
struct SendSample {
    to: Task,
    count: u32,
    cross: u32,
}

/// What a worker reports to the controller.
enum Sample {
    /// A sampled turn.
    Turn {
        actor: Task,
        wall_ns: u64,
        handled: u64,
        sends: Vec<SendSample>,
        other_sends: u32,
        /// Asked for by time ([`Stage::ask_for_sample`]) rather than chosen by count: it
        /// says what a turn costs, not how many turns there are.
        timed: bool,
    },
    /// A glimpsed turn: the turn in progress at one of the controller's looks, with the
    /// CPU time the worker thread used from the look to the turn's end and the messages
    /// the turn handled. Turns are caught this way in proportion to their length, and the
    /// time is only the part after the look: it says what the actor's long turns cost, not
    /// how many there are, nor what they send.
    Glimpse {
        actor: Task,
        cpu_ns: u64,
        handled: u64,
    },
    /// A watched long turn: wall and CPU time since the controller began to watch it, and
    /// whether the thread gave up the CPU by itself meanwhile (slept or waited) rather
    /// than only being preempted.
    Long {
        actor: Task,
        wall_ns: u64,
        cpu_ns: u64,
        gave_up_cpu: bool,
    },
}

/// What the controller puts on a stage's turn in progress, for the worker to report at
/// the turn's end: a glimpse of any turn it finds under way, or a watch on one it found
/// under way at two looks.
struct Watch {
    turn: u64,
    since: Instant,
    /// The worker thread's CPU time at the look.
    cpu_ns: u64,
    /// For a long turn, the thread's voluntary context switches before the turn's sleep
    /// under way, if any ([`ThreadTime::switches_before_now`]); `None` for a glimpse.
    voluntary: Option<u64>,
}

/// What the controller and one stage's worker share.
pub(super) struct StageProbe {
    stage: Arc<Stage>,
    samples: Mutex<Vec<Sample>>,
    watch: Mutex<Option<Watch>>,
    /// How the worker thread's CPU time is read (unknown where the platform does not say).
    thread: Option<ThreadTime>,
    /// What the controller saw of this stage last round: turns, and whether in a turn.
    last_seen: AtomicU64,
    /// Set when the stage's worker has ended (a dedicated stage retired).
    retired: AtomicBool,
}

/// A worker's recorder: the sampled turn in progress.
struct WorkerProbe {
    probe: Arc<StageProbe>,
    started: Cell<Option<Instant>>,
    /// Time the sampled turn spent on what is not its handler's work: waking other
    /// threads, and the turns of inline actors it ran.
    not_its_own_ns: Cell<u64>,
    sends: RefCell<Vec<SendSample>>,
    other_sends: Cell<u32>,
    /// The sampled turn in progress was asked for by time.
    timed: Cell<bool>,
}

impl Observer for Auto {
    fn period(&self) -> u32 {
        SAMPLE_EVERY
    }

    fn worker_started(&self, stage: &Arc<Stage>) -> Box<dyn Recorder> {
        let probe = Arc::new(StageProbe {
            stage: Arc::clone(stage),
            samples: Mutex::new(Vec::new()),
            watch: Mutex::new(None),
            thread: ThreadTime::current(),
            last_seen: AtomicU64::new(0),
            retired: AtomicBool::new(false),
        });
        self.stages.lock().push(Arc::clone(&probe));
        Box::new(WorkerProbe {
            probe,
            started: Cell::new(None),
            not_its_own_ns: Cell::new(0),
            sends: RefCell::new(Vec::new()),
            other_sends: Cell::new(0),
            timed: Cell::new(false),
        })
    }
}

impl Drop for WorkerProbe {
    fn drop(&mut self) {
        self.probe.retired.store(true, Ordering::Relaxed);
    }
}

impl Recorder for WorkerProbe {
    fn sample_begins(&self, timed: bool) {
        self.timed.set(timed);
        self.not_its_own_ns.set(0);
        self.started.set(Some(Instant::now()));
    }

    fn sent(&self, to: &dyn Fn() -> Task, to_ptr: *const (), cross: bool) {
        let mut sends = self.sends.borrow_mut();
        if let Some(s) = sends
            .iter_mut()
            .find(|s| Arc::as_ptr(&s.to).cast::<()>() == to_ptr)
        {
            s.count += 1;
            s.cross += u32::from(cross);
        } else if sends.len() < MAX_RECEIVERS {
            sends.push(SendSample {
                to: to(),
                count: 1,
                cross: u32::from(cross),
            });
        } else {
            self.other_sends.set(self.other_sends.get() + 1);
        }
    }

    fn waking(&self, wake: &mut dyn FnMut()) {
        let start = Instant::now();
        wake();
        self.not_its_own_ns
            .set(self.not_its_own_ns.get() + nanos(start.elapsed()));
    }

    fn inline_turn(&self, turn: &mut dyn FnMut()) {
        // The sampled turn's record waits on the stack while the inline turn keeps its own.
        let outer = (
            self.started.take(),
            self.not_its_own_ns.replace(0),
            std::mem::take(&mut *self.sends.borrow_mut()),
            self.other_sends.replace(0),
        );
        let start = Instant::now();
        self.started.set(Some(start));
        turn();
        let spent = nanos(start.elapsed());
        let (started, not_its_own_ns, sends, other_sends) = outer;
        self.started.set(started);
        self.not_its_own_ns.set(not_its_own_ns + spent);
        *self.sends.borrow_mut() = sends;
        self.other_sends.set(other_sends);
    }

    fn turn_ended(
        &self,
        actor: &dyn Fn() -> Task,
        handled: u64,
        turns: u64,
        inline: Option<u64>,
        sampled: bool,
    ) {
        let probe = &*self.probe;
        // A turn both sampled and watched is reported both ways: the sample says what it
        // cost, the watch whether it computed or waited. (Reported as sampled only, a
        // stage of long turns lost nearly every watch: with no turn chosen by count, the
        // controller asks for a sample each round, the turn after the one that takes the
        // request is sampled, and that turn, long too, is watched as well.)
        if sampled {
            if let Some(started) = self.started.take() {
                probe.samples.lock().push(Sample::Turn {
                    actor: actor(),
                    wall_ns: nanos(started.elapsed()).saturating_sub(self.not_its_own_ns.get()),
                    handled,
                    sends: std::mem::take(&mut *self.sends.borrow_mut()),
                    other_sends: self.other_sends.replace(0),
                    timed: self.timed.get(),
                });
            }
        }
        if probe.stage.is_watched() {
            let mut slot = probe.watch.lock();
            if let (Some(first), Some(watch)) = (inline, slot.as_ref()) {
                if watch.turn < first {
                    // Put on the turn that ran this inline one, before it began: that
                    // turn's end reports it (see `inline_turn_over`).
                    return;
                }
            }
            probe.stage.set_watched(false);
            let Some(watch) = slot.take() else {
                return;
            };
            drop(slot);
            if watch.turn != turns {
                return;
            }
            let Some(cpu_now) = own_cpu_ns() else {
                return;
            };
            let cpu_ns = cpu_now.saturating_sub(watch.cpu_ns);
            let sample = match watch.voluntary {
                // By CPU time, not wall time: a look comes round most often to a turn
                // whose thread was preempted (by the controller itself, where every CPU
                // is busy), and that turn's wall time would hold the preemption.
                None => Sample::Glimpse {
                    actor: actor(),
                    cpu_ns,
                    handled,
                },
                Some(before) => {
                    let Some(voluntary) = own_voluntary_switches() else {
                        return;
                    };
                    Sample::Long {
                        actor: actor(),
                        wall_ns: nanos(watch.since.elapsed()),
                        cpu_ns,
                        gave_up_cpu: voluntary > before,
                    }
                }
            };
            probe.samples.lock().push(sample);
        }
    }

    fn inline_turn_over(&self, first: u64, turns: u64) {
        let mut slot = self.probe.watch.lock();
        if let Some(watch) = slot.as_mut() {
            if watch.turn + 1 == first {
                if watch.voluntary.is_some() {
                    watch.turn = turns;
                } else {
                    // A glimpse's time would now hold the inline turn's too, which is not
                    // this actor's work: dropped.
                    *slot = None;
                    self.probe.stage.set_watched(false);
                }
            }
        }
    }
}

pub(super) fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// What an actor's sampled turns say of its handler: decaying sums over every sampled
/// turn, chosen by count or asked for by time. (Rates, such as an actor's load or its
/// share of all sends, come from the turns chosen by count alone, in [`Observed`].)
#[derive(Clone, Copy, Default)]
pub(super) struct Cost {
    pub(super) turns: f64,
    pub(super) wall_ns: f64,
    pub(super) handled: f64,
    pub(super) sends: f64,
    /// Sampled turns that took at least [`HEAVY_NS_PER_MESSAGE`] per message.
    pub(super) heavy_turns: f64,
    /// Sampled turns that took at least [`COSTLY_NS_PER_MESSAGE`] per message.
    pub(super) costly_turns: f64,
}

impl Cost {
    /// Adds a sampled turn of `wall_ns` that handled `handled` messages and sent `sends`.
    /// A turn that handled none (its `started` alone, or signals only) says nothing of
    /// the handler, and is left out: it would otherwise lower the actor's share of
    /// costly turns.
    fn add(&mut self, wall_ns: u64, handled: u64, sends: u32) {
        if handled == 0 {
            return;
        }
        self.turns += 1.0;
        self.wall_ns += wall_ns as f64;
        self.handled += handled as f64;
        self.sends += f64::from(sends);
        let per_message = wall_ns as f64 / handled.max(1) as f64;
        if per_message >= HEAVY_NS_PER_MESSAGE {
            self.heavy_turns += 1.0;
        }
        if per_message >= COSTLY_NS_PER_MESSAGE {
            self.costly_turns += 1.0;
        }
    }

    /// Halves every sum.
    fn halve(&mut self) {
        for sum in [
            &mut self.turns,
            &mut self.wall_ns,
            &mut self.handled,
            &mut self.sends,
            &mut self.heavy_turns,
            &mut self.costly_turns,
        ] {
            *sum *= 0.5;
        }
    }

    /// Average handler time per message.
    pub(super) fn ns_per_message(&self) -> f64 {
        self.wall_ns / self.handled.max(1.0)
    }
}

/// What the controller knows of one actor (decaying sums of its samples).
pub(super) struct Observed {
    pub(super) actor: Task,
    /// Turns sampled by count, their wall time and their sends: rates, scaled by
    /// [`SAMPLE_EVERY`].
    pub(super) turns: f64,
    pub(super) wall_ns: f64,
    pub(super) sends: f64,
    /// What all its sampled turns, timed ones included, say of its handler.
    pub(super) cost: Cost,
    /// What its glimpsed turns say of its handler (their sends are not known, and each
    /// turn's time is counted from the look that caught it).
    pub(super) glimpsed: Cost,
    /// Long turns seen blocked (decaying, like the sums above).
    pub(super) blocked: f64,
    /// Long turns seen computing (decaying).
    pub(super) busy: f64,
    /// Judged blocking once: kept on a dedicated stage.
    pub(super) blocked_for_good: bool,
    /// Judged CPU-heavy, until its samples show it cheap again: kept in the pool.
    pub(super) heavy: bool,
    /// Sampled sends other actors made to it (keeps a receiver that is never sampled
    /// itself in view).
    pub(super) received: f64,
    /// Distinct actors seen sending to it (the first [`HUB_SENDERS`]).
    pub(super) senders: Vec<usize>,
    /// The decision at which it was last seen in a talking pair.
    talked: u32,
}

impl Observed {
    /// Nothing seen yet of `actor`.
    pub(super) fn new(actor: Task) -> Observed {
        Observed {
            actor,
            turns: 0.0,
            wall_ns: 0.0,
            sends: 0.0,
            cost: Cost::default(),
            glimpsed: Cost::default(),
            blocked: 0.0,
            busy: 0.0,
            blocked_for_good: false,
            heavy: false,
            received: 0.0,
            senders: Vec::new(),
            talked: 0,
        }
    }
}

/// Hashes the controller's keys (addresses of actors' entries, and pairs of them) with
/// one multiplication per word: the maps are rebuilt and swept every few milliseconds,
/// and the default hasher made that a third of a core at big's sizes. The last step
/// folds the high bits down, because the table picks buckets by the low bits and
/// addresses end in zeros.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// A map keyed by actors (or pairs of them), hashed with [`KeyHasher`].
pub(super) type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// An actor's identity in the controller's maps: the address of its entry.
fn key(task: &Task) -> usize {
    Arc::as_ptr(task).cast::<()>() as usize
}

/// Everything the controller knows: the decaying averages per actor and per pair.
pub(super) struct Observations {
    pub(super) actors: KeyMap<usize, Observed>,
    /// Sampled cross-stage sends per (sender, receiver).
    pub(super) edges: KeyMap<(usize, usize), f64>,
    /// What a decision keeps of [`Observations::edges`]: [`CROSS_KEEP`] where rule 4 may
    /// use them, half elsewhere.
    cross_keep: f64,
    /// The pairs of actors seen talking (a sampled send either way, wherever the receiver
    /// ran; the smaller key first), with the decision at which each was last seen: who
    /// talks to whom, for finding communities. Kept only where rule 6 may use it.
    pub(super) talk: KeyMap<(usize, usize), u32>,
    /// Whether to keep [`Observations::talk`].
    track_talk: bool,
    /// Decisions so far.
    pub(super) decisions: u32,
    /// Decisions rule 6 waits before it looks again.
    pub(super) community_wait: u32,
    /// When the averages were last halved.
    pub(super) window: Instant,
}

impl Observations {
    /// Empty observations; `track_talk` says whether to keep who talks to whom, and
    /// `colocating` whether rule 4 may use the cross-stage sends (they then fade slowly).
    pub(super) fn new(track_talk: bool, colocating: bool) -> Observations {
        Observations {
            actors: KeyMap::default(),
            edges: KeyMap::default(),
            cross_keep: if colocating { CROSS_KEEP } else { 0.5 },
            talk: KeyMap::default(),
            track_talk,
            decisions: 0,
            community_wait: 0,
            window: Instant::now(),
        }
    }

    fn observed(&mut self, actor: &Task) -> &mut Observed {
        self.actors
            .entry(key(actor))
            .or_insert_with(|| Observed::new(Arc::clone(actor)))
    }

    /// Estimated cores an actor keeps busy.
    pub(super) fn load(&self, o: &Observed) -> f64 {
        let window = self.window.elapsed().as_nanos().max(1) as f64;
        o.wall_ns * f64::from(SAMPLE_EVERY) / window
    }

    /// Folds every stage's new samples into the averages, and asks a stage that is awake
    /// and sent no turn chosen by count since the last round for a sample soon.
    pub(super) fn ingest(&mut self, stages: &[Arc<StageProbe>]) {
        for stage in stages {
            let samples = std::mem::take(&mut *stage.samples.lock());
            let mut counted = false;
            for sample in samples {
                match sample {
                    Sample::Turn {
                        actor,
                        wall_ns,
                        handled,
                        sends,
                        other_sends,
                        timed,
                    } => {
                        let from = key(&actor);
                        let total: u32 = sends.iter().map(|s| s.count).sum::<u32>() + other_sends;
                        let (track_talk, now) = (self.track_talk, self.decisions);
                        let o = self.observed(&actor);
                        o.cost.add(wall_ns, handled, total);
                        if timed {
                            continue;
                        }
                        counted = true;
                        if track_talk && !sends.is_empty() {
                            o.talked = now;
                        }
                        o.turns += 1.0;
                        o.wall_ns += wall_ns as f64;
                        o.sends += f64::from(total);
                        for send in sends {
                            let to = key(&send.to);
                            let receiver = self.observed(&send.to);
                            receiver.received += f64::from(send.count);
                            if track_talk {
                                receiver.talked = now;
                            }
                            if receiver.senders.len() < HUB_SENDERS
                                && to != from
                                && !receiver.senders.contains(&from)
                            {
                                receiver.senders.push(from);
                            }
                            if send.cross > 0 && to != from {
                                *self.edges.entry((from, to)).or_insert(0.0) +=
                                    f64::from(send.cross);
                            }
                            if track_talk && to != from {
                                self.talk.insert((from.min(to), from.max(to)), now);
                            }
                        }
                    }
                    Sample::Glimpse {
                        actor,
                        cpu_ns,
                        handled,
                    } => {
                        // Below the floor a glimpse says only that the turn was not long.
                        let cpu_ns = if cpu_ns < nanos(GLIMPSE_FLOOR) {
                            0
                        } else {
                            cpu_ns
                        };
                        self.observed(&actor).glimpsed.add(cpu_ns, handled, 0);
                    }
                    Sample::Long {
                        actor,
                        wall_ns,
                        cpu_ns,
                        gave_up_cpu,
                    } => {
                        // Off the CPU for most of the turn: blocked if the thread gave the
                        // CPU up itself, merely preempted (the machine is oversubscribed)
                        // otherwise, which says nothing about the actor.
                        let o = self.observed(&actor);
                        if cpu_ns * 2 >= wall_ns && cpu_ns >= nanos(BUSY_CPU) {
                            o.busy += 1.0;
                        } else if gave_up_cpu && wall_ns.saturating_sub(cpu_ns) >= BLOCKED_NS {
                            o.blocked += 1.0;
                        }
                    }
                }
            }
            // Where no turn came round by count (the stage's turns were long, or few), one
            // of the next is sampled anyway: an actor whose turns take 100 µs would
            // otherwise be sampled once in 50 ms, too rarely for two samples to stand at
            // once.
            if !counted && !stage.stage.is_parked() {
                stage.stage.ask_for_sample();
            }
        }
    }

    /// Halves every average (cross-stage sends fade by [`Observations::cross_keep`]), and
    /// forgets stopped actors and faded pairs. An actor stays known while it has talked
    /// within [`TALK_DECISIONS`] decisions, or is in a pair of cross-stage sends that has
    /// not faded (forgetting the actor would forget the pair); pairs not seen for that
    /// long are forgotten every [`TALK_SWEEP_EVERY`] decisions.
    pub(super) fn decay(&mut self) {
        self.window = Instant::now();
        self.decisions = self.decisions.wrapping_add(1);
        let now = self.decisions;
        let recent = |seen: u32| now.wrapping_sub(seen) <= TALK_DECISIONS;
        let track_talk = self.track_talk;
        let cross_keep = self.cross_keep;
        // The actors in pairs that stay (only where the pairs fade slowly: elsewhere a
        // pair fades faster than its actors).
        let mut in_pairs: KeyMap<usize, ()> = KeyMap::default();
        if cross_keep > 0.5 {
            for (&(a, b), &w) in &self.edges {
                if w * cross_keep >= 0.05 {
                    in_pairs.insert(a, ());
                    in_pairs.insert(b, ());
                }
            }
        }
        self.actors.retain(|k, o| {
            o.turns *= 0.5;
            o.wall_ns *= 0.5;
            o.sends *= 0.5;
            o.cost.halve();
            o.glimpsed.halve();
            o.received *= 0.5;
            o.blocked *= 0.5;
            o.busy *= 0.5;
            !o.actor.is_stopped()
                && (o.turns >= 0.05
                    || o.cost.turns >= 0.05
                    || o.glimpsed.turns >= 0.05
                    || o.received >= 0.05
                    || o.blocked_for_good
                    || o.heavy
                    || (track_talk && recent(o.talked))
                    || in_pairs.contains_key(k))
        });
        let actors = &self.actors;
        self.edges.retain(|(a, b), w| {
            *w *= cross_keep;
            *w >= 0.05 && actors.contains_key(a) && actors.contains_key(b)
        });
        if now % TALK_SWEEP_EVERY == 0 {
            self.talk.retain(|(a, b), &mut seen| {
                recent(seen) && actors.contains_key(a) && actors.contains_key(b)
            });
        }
    }
}

impl Auto {
    /// The stages being observed now (their workers have started and not ended).
    pub(super) fn live_stages(&self) -> Vec<Arc<StageProbe>> {
        let mut stages = self.stages.lock();
        stages.retain(|s| !s.retired.load(Ordering::Relaxed));
        stages.clone()
    }
}

/// Looks at every stage in a turn: glimpses the turn in progress, or, where it is still
/// the turn it was in at the last look, watches it as a long turn.
pub(super) fn look_at_turns(stages: &[Arc<StageProbe>]) {
    for probe in stages {
        let stage = &probe.stage;
        let turns = stage.stats.turns.load(Ordering::Acquire);
        // Busy in a turn: not parked. (A worker between turns searches for microseconds,
        // then parks; a glimpse put on the turn that has just ended is dropped by the next
        // turn's end, whose count differs.)
        let in_turn = !stage.is_parked();
        let seen = (turns << 1) | u64::from(in_turn);
        let before = probe.last_seen.swap(seen, Ordering::Relaxed);
        if !in_turn {
            continue;
        }
        // Glimpses and watches are judged by the thread's clocks: where they cannot be
        // read, neither is put on (`thread_time.rs` says what follows).
        let Some(thread) = probe.thread else {
            continue;
        };
        if probe
            .watch
            .lock()
            .as_ref()
            .is_some_and(|watch| watch.voluntary.is_some())
        {
            // A long turn's watch stays until the turn ends. (Checked before the clocks
            // are read: reading the switches takes tens of microseconds, and would be
            // done every round of a long turn.)
            continue;
        }
        // No turn has started since last round: a long turn, watched. A worker asleep
        // now went to sleep inside this turn (it was in it at the last look, and parks
        // only between turns): `switches_before_now` counts that sleep's switch as still
        // to come, so a turn that blocks once, across both looks, shows it.
        let same_turn = before == seen;
        let clocks = thread.cpu_ns().and_then(|cpu_ns| {
            let voluntary = if same_turn {
                Some(thread.switches_before_now()?)
            } else {
                None
            };
            Some((cpu_ns, voluntary))
        });
        let watch = clocks.map(|(cpu_ns, voluntary)| Watch {
            turn: turns,
            since: Instant::now(),
            cpu_ns,
            voluntary,
        });
        put_watch(probe, turns, watch);
    }
}

/// Puts `watch` on the stage's turn numbered `turns` (`None`, where the clocks could not
/// be read, takes off any watch there), then withdraws it if that turn has ended (or run an
/// inline turn) meanwhile: its end may not have seen it, and a watch left over would be
/// taken by a later turn (or passed on by an inline turn's end to the turn around it). A
/// later look watches the turn under way if it is long.
fn put_watch(probe: &StageProbe, turns: u64, watch: Option<Watch>) {
    let stage = &probe.stage;
    {
        let mut slot = probe.watch.lock();
        let Some(watch) = watch else {
            if slot.take().is_some() {
                stage.set_watched(false);
            }
            return;
        };
        *slot = Some(watch);
        stage.set_watched(true);
    }
    if stage.stats.turns.load(Ordering::Acquire) != turns {
        stage.set_watched(false);
        probe.watch.lock().take();
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::auto::decide::MIN_CROSS;
    use crate::scheduler::home::{Home, Site, Target};
    use crate::scheduler::scheduled::{InPlace, Runnable};
    use crate::scheduler::worker::Worker;

    /// An actor that is never run: only its home is read.
    pub(in crate::auto) struct Idle(pub(in crate::auto) Home);

    impl Runnable for Idle {
        fn run_turns(self: Arc<Self>, _: &Worker, _: Option<InPlace>) -> Option<Task> {
            unreachable!("never scheduled");
        }
        fn home(&self) -> &Home {
            &self.0
        }
        fn is_stopped(&self) -> bool {
            false
        }
        unsafe fn discard(&self) {}
    }

    /// The most sampled cross-stage sends rule 4 sees on a pair, on two stages, whose
    /// sends are sampled once every 8 decisions (as a ping-pong pair starved of CPU is).
    fn slow_pair(colocating: bool) -> f64 {
        let mut obs = Observations::new(false, colocating);
        let on = |k| -> Task { Arc::new(Idle(Home::new(Target::Site(Site::Stage(k)), true))) };
        let (a, b) = (on(0), on(1));
        let pair = (key(&a), key(&b));
        let mut most = 0.0f64;
        for decision in 0..256 {
            if decision % 8 == 0 {
                // What ingesting one sampled turn of `a`, with one send to `b`, adds.
                obs.observed(&a).turns += 1.0;
                obs.observed(&b).received += 1.0;
                *obs.edges.entry(pair).or_insert(0.0) += 1.0;
            }
            most = most.max(obs.edges.get(&pair).copied().unwrap_or(0.0));
            obs.decay();
        }
        most
    }

    /// Runs for `d` on the CPU.
    fn spin(d: Duration) {
        let start = Instant::now();
        while start.elapsed() < d {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn an_inline_turn_in_a_sampled_turn_is_sampled_as_its_own() {
        let (_stage, probe, recorder) = observed_stage();
        let actor = |site| -> Task { Arc::new(Idle(Home::new(Target::Site(site), true))) };
        let (sender, leaf, sink) = (actor(Site::Pool), actor(Site::Inline), actor(Site::Pool));
        let to = |actor: &Task| (Arc::as_ptr(actor).cast::<()>(), Arc::clone(actor));
        let inline_for = Duration::from_millis(50);
        recorder.sample_begins(false);
        let (leaf_ptr, leaf_ref) = to(&leaf);
        recorder.sent(&|| Arc::clone(&leaf_ref), leaf_ptr, false);
        recorder.inline_turn(&mut || {
            // The inline turn: its own time, and a send of its own.
            spin(inline_for);
            let (sink_ptr, sink_ref) = to(&sink);
            recorder.sent(&|| Arc::clone(&sink_ref), sink_ptr, false);
            recorder.turn_ended(&|| Arc::clone(&leaf), 1, 2, Some(2), true);
        });
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 1, None, true);

        let samples = std::mem::take(&mut *probe.samples.lock());
        let turns: Vec<_> = samples
            .iter()
            .map(|sample| match sample {
                Sample::Turn {
                    actor,
                    wall_ns,
                    sends,
                    ..
                } => (
                    key(actor),
                    *wall_ns,
                    sends.iter().map(|s| key(&s.to)).collect(),
                ),
                Sample::Long { .. } | Sample::Glimpse { .. } => panic!("no turn was watched"),
            })
            .collect::<Vec<(usize, u64, Vec<usize>)>>();
        assert_eq!(
            turns.len(),
            2,
            "one sample each for the leaf and its sender"
        );
        let (leaf_turn, sender_turn) = (&turns[0], &turns[1]);
        assert_eq!(leaf_turn.0, key(&leaf));
        assert!(
            leaf_turn.1 >= nanos(inline_for),
            "the inline turn's time is its own"
        );
        assert_eq!(leaf_turn.2, vec![key(&sink)], "and so are its sends");
        assert_eq!(sender_turn.0, key(&sender));
        assert!(
            sender_turn.1 < nanos(inline_for) / 2,
            "the sender's time leaves the inline turn out: {} ns",
            sender_turn.1
        );
        assert_eq!(sender_turn.2, vec![key(&leaf)], "its sends are its own");
    }

    /// A stage of an `auto` system that has started observing it: the stage, what the
    /// controller shares with its worker, and the worker's recorder.
    fn observed_stage() -> (Arc<Stage>, Arc<StageProbe>, Box<dyn Recorder>) {
        let auto = Auto::new(crate::placement::PlacementMode::Auto);
        let parker = crate::sync::Parker::new();
        let stage = Arc::new(Stage::new(parker.unparker().clone(), 0));
        let recorder = auto.worker_started(&stage);
        let probe = Arc::clone(&auto.stages.lock()[0]);
        (stage, probe, recorder)
    }

    /// A sampled turn of `actor` as a worker reports it.
    fn turn(actor: &Task, wall_ns: u64, handled: u64, to: Option<&Task>, timed: bool) -> Sample {
        Sample::Turn {
            actor: Arc::clone(actor),
            wall_ns,
            handled,
            sends: to
                .map(|to| SendSample {
                    to: Arc::clone(to),
                    count: 1,
                    cross: 1,
                })
                .into_iter()
                .collect(),
            other_sends: 0,
            timed,
        }
    }

    #[test]
    fn a_stage_without_a_sample_by_count_is_asked_for_one_that_counts_only_for_cost() {
        let (stage, probe, _recorder) = observed_stage();
        let mut obs = Observations::new(true, true);
        let actor = |site| -> Task { Arc::new(Idle(Home::new(Target::Site(site), true))) };
        let (a, b) = (actor(Site::Pool), actor(Site::Pool));

        // Nothing came round by count: the awake stage is asked for a sample.
        obs.ingest(std::slice::from_ref(&probe));
        assert!(stage.take_sample_request());
        // The sample asked for says what a turn of `a` costs, and nothing of rates: not
        // its load, its sends, nor the pair it sent on.
        probe
            .samples
            .lock()
            .push(turn(&a, 200_000, 1, Some(&b), true));
        obs.ingest(std::slice::from_ref(&probe));
        assert!(
            stage.take_sample_request(),
            "still nothing by count: asked again"
        );
        let seen = &obs.actors[&key(&a)];
        assert_eq!((seen.cost.turns, seen.cost.sends), (1.0, 1.0));
        assert_eq!(seen.cost.ns_per_message(), 200_000.0);
        assert_eq!((seen.turns, seen.wall_ns, seen.sends), (0.0, 0.0, 0.0));
        assert!(obs.edges.is_empty() && obs.talk.is_empty());
        assert!(!obs.actors.contains_key(&key(&b)), "nor what `b` received");

        // A turn chosen by count counts for both, and no sample is asked for.
        probe
            .samples
            .lock()
            .push(turn(&a, 100_000, 1, Some(&b), false));
        obs.ingest(std::slice::from_ref(&probe));
        assert!(!stage.take_sample_request());
        let seen = &obs.actors[&key(&a)];
        assert_eq!(
            (seen.cost.turns, seen.turns, seen.wall_ns),
            (2.0, 1.0, 100_000.0)
        );
        assert_eq!(obs.edges.get(&(key(&a), key(&b))), Some(&1.0));

        // A parked stage is not asked.
        stage.set_parked(true);
        obs.ingest(std::slice::from_ref(&probe));
        assert!(!stage.take_sample_request());
    }

    /// A turn both sampled and watched is reported both ways. (As sampled only, a stage
    /// of long turns, where the controller asks for a sample each round, lost its watches.)
    #[test]
    #[cfg(all(target_os = "linux", not(footlights_portable)))]
    fn a_sampled_turn_that_is_watched_too_is_reported_both_ways() {
        let (stage, probe, recorder) = observed_stage();
        let actor: Task = Arc::new(Idle(Home::new(Target::Site(Site::Pool), true)));
        recorder.sample_begins(true);
        *probe.watch.lock() = Some(Watch {
            turn: 1,
            since: Instant::now(),
            cpu_ns: own_cpu_ns().expect("Linux gives a thread's CPU time"),
            voluntary: Some(own_voluntary_switches().expect("and its switches")),
        });
        stage.set_watched(true);
        spin(Duration::from_millis(3));
        recorder.turn_ended(&|| Arc::clone(&actor), 1, 1, None, true);
        let samples = std::mem::take(&mut *probe.samples.lock());
        assert!(matches!(
            samples[..],
            [Sample::Turn { .. }, Sample::Long { .. }]
        ));
        assert!(!stage.is_watched());
    }

    /// A watch put on a turn before it ran an inline turn stays that turn's: the inline
    /// turn's end leaves it alone, and the turn's own end reports it, also through two
    /// inline turns one inside the other, and two one after the other. A watch put on while
    /// the inline turn runs is the inline actor's. A watch left over by an earlier turn is
    /// not passed on to the turn now running by its inline turn's end (it once was: any
    /// watch older than the inline turn moved).
    #[test]
    #[cfg(all(target_os = "linux", not(footlights_portable)))]
    fn a_watch_on_a_turn_that_runs_an_inline_turn_stays_that_turns() {
        let (stage, probe, recorder) = observed_stage();
        let actor = |site| -> Task { Arc::new(Idle(Home::new(Target::Site(site), true))) };
        let (sender, leaf) = (actor(Site::Pool), actor(Site::Inline));
        let watch_from = |turn| {
            *probe.watch.lock() = Some(Watch {
                turn,
                since: Instant::now(),
                cpu_ns: own_cpu_ns().expect("Linux gives a thread's CPU time"),
                voluntary: Some(own_voluntary_switches().expect("and its switches")),
            });
            stage.set_watched(true);
        };
        let long_turns = || -> Vec<usize> {
            std::mem::take(&mut *probe.samples.lock())
                .iter()
                .map(|sample| match sample {
                    Sample::Long { actor, .. } => key(actor),
                    Sample::Turn { .. } => panic!("no turn was sampled"),
                    Sample::Glimpse { .. } => panic!("no turn was glimpsed"),
                })
                .collect()
        };

        // The sender's turn is the stage's turn 1, watched; then it runs the leaf inline,
        // turn 2.
        watch_from(1);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 2, Some(2), false);
        assert!(
            stage.is_watched(),
            "the leaf's end leaves the sender's watch"
        );
        recorder.inline_turn_over(2, 2);
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 2, None, false);
        assert_eq!(long_turns(), [key(&sender)]);
        assert!(!stage.is_watched());

        // The sender's turn is 3, the leaf's 4, and the watch goes on during the leaf's.
        watch_from(4);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 4, Some(4), false);
        assert!(!stage.is_watched());
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 4, None, false);
        assert_eq!(long_turns(), [key(&leaf)]);

        // Nested: the sender's turn is 5, watched; the leaf runs inline at 6 and runs
        // another inline at 7. Each end, innermost first, in the worker's order.
        let inner: Task = actor(Site::Inline);
        watch_from(5);
        recorder.turn_ended(&|| Arc::clone(&inner), 1, 7, Some(7), false);
        recorder.inline_turn_over(7, 7);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 7, Some(6), false);
        assert!(
            stage.is_watched(),
            "neither inline turn takes the sender's watch"
        );
        recorder.inline_turn_over(6, 7);
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 7, None, false);
        assert_eq!(long_turns(), [key(&sender)]);

        // Two inline turns one after the other in the sender's turn 8, watched: the
        // first's end moves the watch on to 9, and the second's (10) to 10.
        watch_from(8);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 9, Some(9), false);
        recorder.inline_turn_over(9, 9);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 10, Some(10), false);
        recorder.inline_turn_over(10, 10);
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 10, None, false);
        assert_eq!(long_turns(), [key(&sender)]);

        // A watch left over by turn 11, which ended while the controller put it on: the
        // sender's turn 12 runs an inline turn (13), whose end does not pass the watch
        // on to it, and the sender's end drops it.
        watch_from(11);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 13, Some(13), false);
        recorder.inline_turn_over(13, 13);
        recorder.turn_ended(&|| Arc::clone(&sender), 1, 13, None, false);
        assert!(long_turns().is_empty() && !stage.is_watched());
    }

    /// A watch put on a turn that ended while it went on is withdrawn at once (a later turn
    /// would take it as its own); one put on the turn still under way stays; a look that
    /// cannot read the clocks takes one off.
    #[test]
    fn a_watch_on_a_turn_that_ended_meanwhile_is_withdrawn() {
        let (stage, probe, _recorder) = observed_stage();
        let watch = |turn| {
            Some(Watch {
                turn,
                since: Instant::now(),
                cpu_ns: 0,
                voluntary: None,
            })
        };
        let on = || probe.watch.lock().as_ref().map(|w| w.turn);
        // The look read turn 5, and turn 6 began before the watch went on.
        stage.stats.turns.store(6, Ordering::Relaxed);
        put_watch(&probe, 5, watch(5));
        assert_eq!(on(), None, "withdrawn");
        assert!(!stage.is_watched());
        put_watch(&probe, 6, watch(6));
        assert_eq!(on(), Some(6));
        assert!(stage.is_watched());
        put_watch(&probe, 6, None);
        assert_eq!(on(), None, "no clocks: taken off");
        assert!(!stage.is_watched());
    }

    /// Each look glimpses the turn in progress; its end reports the actor, the thread's
    /// CPU time since the look and the messages handled, which count only for what the
    /// actor's turns cost. A glimpse put on a turn that has ended is dropped by the next
    /// turn's end; one put on a turn that then runs an inline turn is dropped (its time
    /// would hold the inline turn's); one put on an inline turn is the inline actor's; and
    /// a turn still in progress at the next look is watched as a long turn instead, a
    /// watch later looks leave alone.
    #[test]
    #[cfg(all(target_os = "linux", not(footlights_portable)))]
    fn a_look_glimpses_the_turn_in_progress() {
        let (stage, probe, recorder) = observed_stage();
        let actor = |site| -> Task { Arc::new(Idle(Home::new(Target::Site(site), true))) };
        let (a, leaf) = (actor(Site::Pool), actor(Site::Inline));
        let stages = std::slice::from_ref(&probe);
        let look_at = |turns: u64| {
            stage.stats.turns.store(turns, Ordering::Relaxed);
            look_at_turns(stages);
        };
        let taken = || std::mem::take(&mut *probe.samples.lock());

        // Turn 5 is glimpsed and reported after 1 ms on the CPU; 20 ms asleep after that
        // (a thread preempted for that long would show the same) do not count.
        look_at(5);
        assert!(stage.is_watched());
        let cpu = || own_cpu_ns().expect("Linux gives a thread's CPU time");
        let start = cpu();
        while cpu() - start < 1_000_000 {
            std::hint::spin_loop();
        }
        std::thread::sleep(Duration::from_millis(20));
        recorder.turn_ended(&|| Arc::clone(&a), 2, 5, None, false);
        assert!(!stage.is_watched());
        match &taken()[..] {
            [
                Sample::Glimpse {
                    actor,
                    cpu_ns,
                    handled: 2,
                },
            ] => {
                assert_eq!(key(actor), key(&a));
                assert!(
                    (1_000_000..15_000_000).contains(cpu_ns),
                    "the CPU time from the look: {cpu_ns} ns"
                );
            }
            _ => panic!("one glimpse of `a`'s turn"),
        }

        // A glimpse of turn 6, which ended before the look: turn 7's end drops it.
        look_at(6);
        recorder.turn_ended(&|| Arc::clone(&a), 1, 7, None, false);
        assert!(taken().is_empty() && !stage.is_watched());

        // A glimpse of `a`'s turn 8, which then runs the leaf inline (turn 9): the leaf's
        // end leaves it, the inline turn's return drops it, and `a`'s end reports nothing.
        look_at(8);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 9, Some(9), false);
        assert!(stage.is_watched(), "left to the turn around the inline one");
        recorder.inline_turn_over(9, 9);
        assert!(!stage.is_watched(), "dropped");
        recorder.turn_ended(&|| Arc::clone(&a), 1, 9, None, false);
        assert!(taken().is_empty());

        // A glimpse while the leaf's inline turn 10 runs is the leaf's.
        look_at(10);
        recorder.turn_ended(&|| Arc::clone(&leaf), 1, 10, Some(10), false);
        match &taken()[..] {
            [Sample::Glimpse { actor, .. }] => assert_eq!(key(actor), key(&leaf)),
            _ => panic!("one glimpse of the leaf's turn"),
        }

        // What a glimpse says counts for cost only, apart from sampled turns.
        let mut obs = Observations::new(true, true);
        probe.samples.lock().push(Sample::Glimpse {
            actor: Arc::clone(&a),
            cpu_ns: 300_000,
            handled: 1,
        });
        obs.ingest(stages);
        let seen = &obs.actors[&key(&a)];
        assert_eq!(
            (seen.glimpsed.turns, seen.glimpsed.costly_turns),
            (1.0, 1.0)
        );
        assert_eq!(seen.glimpsed.ns_per_message(), 300_000.0);
        assert_eq!((seen.cost.turns, seen.turns, seen.wall_ns), (0.0, 0.0, 0.0));

        // Turn 11 glimpsed, and still in progress at the next look: watched as a long
        // turn, from that look; a third look leaves the watch as it is.
        look_at(11);
        look_at(11);
        let since = |probe: &StageProbe| {
            probe
                .watch
                .lock()
                .as_ref()
                .filter(|w| w.voluntary.is_some())
                .map(|w| w.since)
        };
        let watched_since = since(&probe).expect("a long turn's watch");
        look_at(11);
        assert_eq!(
            since(&probe),
            Some(watched_since),
            "the watch stays as it was"
        );
        recorder.turn_ended(&|| Arc::clone(&a), 1, 11, None, false);
        assert!(matches!(taken()[..], [Sample::Long { .. }]));

        // A parked stage is not looked at.
        stage.set_parked(true);
        look_at(12);
        assert!(!stage.is_watched());
    }

    /// Where a thread's clocks cannot be read, no turn is glimpsed or watched.
    #[test]
    #[cfg(not(all(target_os = "linux", not(footlights_portable))))]
    fn without_clocks_no_turn_is_glimpsed() {
        let (stage, probe, _recorder) = observed_stage();
        for turns in [5, 6, 6] {
            stage.stats.turns.store(turns, Ordering::Relaxed);
            look_at_turns(std::slice::from_ref(&probe));
            assert!(!stage.is_watched());
        }
    }

    #[test]
    fn an_empty_turn_says_nothing_of_the_handler() {
        let mut cost = Cost::default();
        cost.add(10_000, 1, 0);
        cost.add(500, 0, 0);
        cost.add(10_000, 1, 0);
        assert_eq!(cost.turns, 2.0, "the empty turn is left out");
        assert_eq!(cost.costly_turns, 2.0);
        assert_eq!(cost.ns_per_message(), 10_000.0);
    }

    #[test]
    fn a_slow_pair_crossing_stages_is_seen_chatty_where_rule_4_applies() {
        // Halved every decision (and its actors forgotten between samples), the pair
        // never shows more than one sampled send; kept, it reaches the threshold.
        assert!(slow_pair(false) < MIN_CROSS);
        assert!(slow_pair(true) >= MIN_CROSS);
    }
}
