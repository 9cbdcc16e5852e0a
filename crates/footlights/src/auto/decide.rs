//! Deciding: the rules automatic placement applies to what it observed.
//!
//! # The rules
//!
//! Every [`super::DECIDE_EVERY`] rounds, in `auto` mode, the controller applies rules
//! 1 to 4 to the averages in [`Observations`]; rules 5 and 6 run every round (rule 6
//! paces itself). Each rule that
//! moves an actor does so at once, through [`super::moves`], so that the rules after it
//! see where it went. Only actors spawned with [`crate::Placement::Default`] under
//! the `task` policy are moved; what the program placed stays where it was put.
//!
//! 1. **Blocking actors get their own stage.** An actor seen blocked (off the CPU for at
//!    least 5 ms of a watched turn, having given the CPU up itself) moves to a dedicated
//!    stage, so it stops holding a pool worker (and every actor queued behind it) hostage.
//! 2. **CPU-heavy actors get room.** An actor whose handler takes long per message (on
//!    average, and in at least half of its sampled turns, so that one sampled turn that
//!    was preempted for milliseconds does not brand a cheap actor; or the same of its
//!    glimpsed turns, the turns the controller's looks caught in progress, which find an
//!    actor whose long turns are rare among the stage's, see `observe.rs`) is kept in the
//!    pool, where stealing spreads such actors over the workers, and is never pinned next
//!    to chatty actors that would wait behind it. The verdict lasts as long as the samples
//!    bear it out: once they show the actor cheap again (and no heavy glimpse is left in
//!    view, [`GLIMPSES_CLEAR_AT`]), well inside the bounds that made it heavy
//!    ([`HEAVY_CLEARS_AT`] of them, so that an actor near a bound does not flip at every
//!    decision), it is judged like any other again, so a program whose phases change (a
//!    leaf that computes for a while, then only counts) gets its placement back. (Blocking stays for good: an actor that waits on I/O once
//!    will again.)
//! 3. **Cheap leaves run inline.** An actor whose handler is short, which sends nothing
//!    itself, and whose messages arrive one at a time (about one message per turn) becomes
//!    inline: its senders run it directly, with no hand-off. A leaf whose messages queue
//!    up stays where it is: its turns handle them in batches, and inlining a flood would
//!    make its sender do all the work while other workers idle (counting on two cores
//!    took 1.5 times as long that way). An inline actor's turns are sampled inside its
//!    senders' sampled turns, as turns of its own; one whose handler has grown costly
//!    (above [`COSTLY_NS_PER_MESSAGE`], four times the bound for inlining, on average and
//!    in at least half of its sampled turns, or of its glimpsed turns, as for rule 2) goes
//!    back to the pool: its senders' turns were doing its work, which the hand-off saved
//!    no longer pays for. (Nor is a leaf inlined while a glimpse of a costly turn of its
//!    is in view.)
//! 4. **Chatty groups share a stage**, under the sharing and stage schedulers. Pairs of
//!    light actors with many *cross-stage* sends, each with at most two chatty partners
//!    (pairs, chains and rings), are merged into groups, strongest pair first, as long as a
//!    group's estimated load fits in one stage ([`GROUP_LOAD`] of a core). (A pair's
//!    sampled cross-stage sends fade over about 32 decisions here, not 2, so that a pair
//!    that crosses steadily but slowly, a ping-pong starved of CPU, counts as chatty too:
//!    see `CROSS_KEEP` in `observe.rs`.) Loads add up,
//!    except for two actors that message each other both ways: those mostly take turns
//!    (a ball going back and forth, a request and its reply) and count as the busier of
//!    the two. (Added up, a ping-pong pair on two stages looked like 0.9 to 1.8 cores,
//!    since each stage is busy while the other waits, and was co-located only when the
//!    noise allowed: after seconds, sometimes not within a minute.) Each group is pinned
//!    to one stage, the least loaded one unless a member is pinned already. Under
//!    work stealing the controller does not co-locate: the next slot already keeps a
//!    hand-off on the sender's worker, and a cross-stage send there means a thief took
//!    work an idle worker needed. Pinning only the sampled fragments of a token ring to
//!    different stages made threadring 1.7 times slower on two threads (see
//!    `docs/findings.md`). Hubs (chameneos's meeting place) are left alone under every
//!    scheduler: pinning a hub with the sampled part of its partners made chameneos
//!    unfair.
//! 5. **A lone worker's queue order.** With one work-stealing worker, the controller also
//!    chooses, every round (the first few rounds are short, because a short program's
//!    actors are laid out in memory by then), between plain FIFO order, where the worker
//!    starts, and hand-off order, where the receiver of a send runs next
//!    (the scheduler's `worker` module). FIFO order is kept while actors are being spawned
//!    (trees: each level runs before the next, and a parent's answers arrive in memory
//!    order; spreading ran 1.4 times faster) or while the samples show a hub, an actor
//!    with several senders that gets a large share of all messages (its clients then wait
//!    their turn; in hand-off order two of sixteen clients got 82% of a hub's answers).
//!    Without either, and only on evidence from enough samples, the worker switches to
//!    hand-off order, which keeps a request and its reply hot in the cache (big ran about
//!    1.15 times faster). [`crate::Metrics::fifo_order`] and
//!    [`crate::Metrics::queue_switches`] show what it chose.
//! 6. **Communities stay whole, one stage each**, under work stealing on several
//!    workers. A *community* is a set of light actors that talk many to many, like big's
//!    neighbourhoods: each member pings random others. Stealing spreads such a set over
//!    the workers, and then about half its messages cross between cores, where a message
//!    costs several times what it costs on one core (issue 15;
//!    `docs/experiments/2026-11-27-one-neighbourhood-two-cores.md`): big ran 1.8 to 4.6
//!    times slower than on one core split that way, and twice as fast with each
//!    neighbourhood kept on a stage of its own.
//!    The rule (`community.rs`) reads who talks to whom (every pair of actors seen in a
//!    sampled send, kept for [`super::observe::TALK_DECISIONS`] decisions, since each pair
//!    of a large community is sampled rarely), joins the pairs into connected sets, leaving
//!    out hubs (actors with many times the average number of partners, which would join
//!    everything into one set), and calls a set a community when it has at least 16
//!    members, more distinct pairs than 1.25 per member, and handlers of at most 10 µs a
//!    message (the median member's). The pair count is what tells a community apart: a
//!    chain, a ring, a tree or a star has at most one pair per member however long it is
//!    watched, so threadring's ring, chameneos's meeting place and its creatures, and the
//!    trees are never communities. Each community is then pinned, whole, to one stage: the
//!    stage most of its pinned members are on, else the stage with the fewest pinned
//!    actors, largest community first; and one community a look moves from the heaviest
//!    stage to the lightest when it fits in three quarters of the difference, so that
//!    communities found one by one end up spread evenly and nothing swings back and forth.
//!    A lone community is left where stealing puts it until a second one shows: pinned on
//!    one stage it leaves the other workers idle, which pays only after its start-up (big
//!    at its quick size, 55 ms, ran 10% slower). The rule looks every 2 rounds while it has
//!    found nothing or a lone community, at the next round after it moved actors (members
//!    not sampled yet show up over the next few rounds), and every 20 rounds once all is
//!    in place; and it waits at least a round per thousand pairs in view,
//!    because building the sets costs the controller about 60 ns a pair (2 ms at big's
//!    8,000 workers).
//!

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use super::moves::Mover;
use super::observe::{
    COSTLY_NS_PER_MESSAGE, Cost, HEAVY_NS_PER_MESSAGE, HUB_SENDERS, Observations, Observed,
};
use crate::placement::{Placement, SchedulerKind, Site};

/// The largest estimated load, in cores, of a group pinned to one stage.
pub const GROUP_LOAD: f64 = 0.7;
/// Long turns (decayed count) it takes to call an actor blocking or CPU-heavy.
const LONG_TURNS: f64 = 1.0;
/// Handler time per message below which an actor is cheap enough to run inline.
const CHEAP_NS_PER_MESSAGE: f64 = 1_000.0;
/// Sampled turns needed before an actor is judged at all.
const MIN_TURNS: f64 = 2.0;
/// The share of each bound that made an actor CPU-heavy (time per message, share of
/// heavy turns, long turns) that its samples must be below for the verdict to be lifted:
/// a quarter, so that the verdict does not flip with each decision for an actor close
/// to a bound, while a real change of phase (a handler 100 times cheaper) lifts it
/// within a few decisions, as the sums fade by half each.
const HEAVY_CLEARS_AT: f64 = 0.25;
/// The weight below which glimpses of heavy or costly turns no longer hold an actor back
/// (from being judged cheap again, or from running inline): one such glimpse fades below it
/// in three decisions. Glimpses catch long turns far more often than sampling by count
/// does, so without it an actor with rare long turns would be moved out by its glimpses
/// and back by its sampled turns, decision after decision.
const GLIMPSES_CLEAR_AT: f64 = 0.25;
/// Sampled cross-stage sends on a pair needed before it counts as chatty.
pub(super) const MIN_CROSS: f64 = 4.0;
/// Most distinct chatty partners an actor may have and still be co-located: pairs, chains
/// and rings, not hubs.
const MAX_PARTNERS: usize = 2;
/// Share of all sampled sends a hub must get for a lone worker to keep FIFO order
/// (half of it to keep FIFO order once chosen).
const HUB_SHARE: f64 = 0.2;
/// Spawns per turn that make a lone worker keep FIFO order (a quarter of it to keep FIFO
/// order once chosen).
const SPAWNING: f64 = 0.02;
/// Turns a round must have run for its spawn rate to count.
const MIN_ORDER_TURNS: u64 = 256;
/// Sampled turns (decaying) needed before the hub share counts.
const MIN_ORDER_SAMPLES: f64 = 32.0;

/// What rule 5 keeps between rounds.
#[derive(Default)]
pub(super) struct OrderState {
    /// The lone worker's turns and spawns at the last round.
    turns: u64,
    spawned: u64,
    /// Spawns per turn, averaged over rounds.
    spawn_rate: f64,
    /// Whether `spawn_rate` has a first value.
    seen: bool,
}

/// Whether the runtime may move the actor (it placed it itself, and it is alive).
pub(super) fn movable(o: &Observed) -> bool {
    o.actor.home().movable() && !o.actor.is_stopped()
}

/// Rules 1 to 4.
pub(super) fn decide(obs: &mut Observations, mover: &Mover) {
    // 1 and 2: blocking actors to dedicated stages; heavy ones stay in (or go back to)
    // the pool.
    for o in obs.actors.values_mut() {
        if !movable(o) {
            continue;
        }
        let site = o.actor.home().target();
        if judged_heavy(o) {
            o.heavy = true;
        } else if o.heavy && cheap_again(o) {
            o.heavy = false;
        }
        if o.blocked >= LONG_TURNS {
            o.blocked_for_good = true;
        }
        if o.blocked_for_good && site != Site::Dedicated {
            mover.relocate(&o.actor, Placement::Dedicated);
        } else if o.heavy && !o.blocked_for_good && matches!(site, Site::Stage(_) | Site::Inline) {
            mover.relocate(&o.actor, Placement::Pool);
        }
    }
    // 3: cheap leaves run inline, and inline actors grown costly go back to the pool.
    for o in obs.actors.values() {
        if !movable(o) || o.heavy || o.blocked_for_good {
            continue;
        }
        if o.actor.home().target() == Site::Inline {
            if costly_inline(o) {
                mover.relocate(&o.actor, Placement::Pool);
            }
            continue;
        }
        if inlinable(o) && o.actor.home().target() == Site::Pool {
            mover.relocate(&o.actor, Placement::Inline);
        }
    }
    colocate(obs, mover);
}

/// Whether an actor is CPU-heavy (rule 2): by its sampled turns, by its glimpsed turns,
/// or by a long turn seen computing.
fn judged_heavy(o: &Observed) -> bool {
    heavy_by(&o.cost) || heavy_by(&o.glimpsed) || o.busy >= LONG_TURNS
}

/// Whether an actor is a cheap leaf that may run inline (rule 3). Whether the messages
/// come from actors does not matter: a send from outside the runtime schedules an inline
/// actor on the pool as before. Inline only what arrives one message at a time: a leaf
/// whose messages queue up is handled in batches, which inlining would undo (and a
/// flood's sender would do all the work itself, leaving the other workers idle). And not
/// while a glimpse of a costly turn is in view: sampled turns, mostly its cheap ones,
/// would bring back inline a leaf whose rare long turns its glimpses took out of line.
fn inlinable(o: &Observed) -> bool {
    let cost = &o.cost;
    let one_at_a_time = cost.handled <= cost.turns * 1.5;
    let leaf = cost.turns >= MIN_TURNS && cost.sends == 0.0 && one_at_a_time;
    leaf && cost.ns_per_message() <= CHEAP_NS_PER_MESSAGE
        && o.glimpsed.costly_turns < GLIMPSES_CLEAR_AT
}

/// Whether turns sampled (or glimpsed) say a handler is CPU-heavy (rule 2): enough of
/// them, above [`HEAVY_NS_PER_MESSAGE`] on average and in at least half of them.
fn heavy_by(cost: &Cost) -> bool {
    cost.turns >= MIN_TURNS
        && cost.ns_per_message() >= HEAVY_NS_PER_MESSAGE
        && cost.heavy_turns * 2.0 >= cost.turns
}

/// Whether the samples of an actor judged CPU-heavy show it cheap again (rule 2): enough
/// sampled turns, each bound that made it heavy undercut by [`HEAVY_CLEARS_AT`].
fn cheap_again(o: &Observed) -> bool {
    let cost = &o.cost;
    cost.turns >= MIN_TURNS
        && cost.ns_per_message() < HEAVY_NS_PER_MESSAGE * HEAVY_CLEARS_AT
        && cost.heavy_turns < cost.turns * 0.5 * HEAVY_CLEARS_AT
        && o.busy < LONG_TURNS * HEAVY_CLEARS_AT
        && o.glimpsed.heavy_turns < GLIMPSES_CLEAR_AT
}

/// Whether the samples of an inline actor show its handler too costly to run inline
/// (rule 3): enough sampled turns, above [`COSTLY_NS_PER_MESSAGE`] on average and in at
/// least half of them (so that one sampled turn preempted for milliseconds does not move
/// a cheap leaf).
fn costly_inline(o: &Observed) -> bool {
    let costly = |cost: &Cost| {
        cost.turns >= MIN_TURNS
            && cost.ns_per_message() >= COSTLY_NS_PER_MESSAGE
            && cost.costly_turns * 2.0 >= cost.turns
    };
    costly(&o.cost) || costly(&o.glimpsed)
}

/// Rule 5: on a lone work-stealing worker, chooses between hand-off order and plain FIFO
/// order, every round.
pub(super) fn choose_order(obs: &Observations, order: &mut OrderState, mover: &Mover) {
    let stage = &mover.sched().stages[0];
    let turns = stage.stats.turns.load(Ordering::Relaxed);
    let spawned = stage.stats.spawned.load(Ordering::Relaxed);
    let (turns_now, spawned_now) = (
        turns.saturating_sub(order.turns),
        spawned.saturating_sub(order.spawned),
    );
    (order.turns, order.spawned) = (turns, spawned);
    if turns_now < MIN_ORDER_TURNS {
        // Too little happened this round to say anything.
        return;
    }
    let rate = spawned_now as f64 / turns_now as f64;
    order.spawn_rate = if order.seen {
        0.5 * (order.spawn_rate + rate)
    } else {
        rate
    };
    order.seen = true;
    // The share of all sampled sends that go to the busiest actor with many senders.
    let sampled: f64 = obs.actors.values().map(|o| o.turns).sum();
    let sent: f64 = obs.actors.values().map(|o| o.sends).sum();
    let hub = obs
        .actors
        .values()
        .filter(|o| o.senders.len() >= HUB_SENDERS)
        .map(|o| o.received)
        .fold(0.0, f64::max);
    // Without enough sampled turns there is no evidence of a hub either way: a hub's
    // senders must have been sampled too, not just one of its turns.
    let hub_share = (sampled >= MIN_ORDER_SAMPLES && sent > 0.0).then(|| hub / sent);
    let fifo = if stage.keeps_fifo() {
        // Leave FIFO order only on evidence: no spawning, and no hub in the samples.
        order.spawn_rate >= SPAWNING / 4.0 || hub_share.is_none_or(|share| share >= HUB_SHARE / 2.0)
    } else {
        order.spawn_rate >= SPAWNING || hub_share.is_some_and(|share| share >= HUB_SHARE)
    };
    mover.set_fifo(stage, fifo);
}

/// Rule 4: groups chatty light actors and pins each group to one stage.
fn colocate(obs: &Observations, mover: &Mover) {
    let threads = mover.sched().threads();
    if threads < 2 || mover.sched().kind == SchedulerKind::Steal {
        return;
    }
    let light = |k: &usize| {
        obs.actors.get(k).is_some_and(|o| {
            movable(o)
                && !o.heavy
                && !o.blocked_for_good
                && matches!(o.actor.home().target(), Site::Pool | Site::Stage(_))
        })
    };
    // Distinct partners of each actor, over every sampled pair.
    let mut partners: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(a, b) in obs.edges.keys() {
        for (x, y) in [(a, b), (b, a)] {
            let list = partners.entry(x).or_default();
            if !list.contains(&y) {
                list.push(y);
            }
        }
    }
    let few_partners = |k: &usize| partners.get(k).is_none_or(|p| p.len() <= MAX_PARTNERS);
    let mut pairs: Vec<((usize, usize), f64)> = obs
        .edges
        .iter()
        .filter(|&(&(a, b), &w)| {
            w >= MIN_CROSS && light(&a) && light(&b) && few_partners(&a) && few_partners(&b)
        })
        .map(|(&pair, &w)| (pair, w))
        .collect();
    pairs.sort_by(|x, y| y.1.total_cmp(&x.1));
    // Union-find over the actors in chatty pairs, with each group's load.
    let mut parent: HashMap<usize, usize> = HashMap::new();
    let mut load: HashMap<usize, f64> = HashMap::new();
    let mut size: HashMap<usize, usize> = HashMap::new();
    fn find(parent: &HashMap<usize, usize>, mut k: usize) -> usize {
        while let Some(&p) = parent.get(&k) {
            if p == k {
                break;
            }
            k = p;
        }
        k
    }
    for &((a, b), _) in &pairs {
        for k in [a, b] {
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(k) {
                e.insert(k);
                load.insert(k, obs.load(&obs.actors[&k]));
                size.insert(k, 1usize);
            }
        }
        let (ra, rb) = (find(&parent, a), find(&parent, b));
        if ra == rb {
            continue;
        }
        // Two actors that message each other both ways mostly take turns (a ball
        // going back and forth, a request and its reply): together they need about
        // as much as the busier of them. Otherwise their loads add up.
        // (Only for the pair itself: joining larger groups adds their loads.)
        let both_ways = size[&ra] == 1
            && size[&rb] == 1
            && obs.edges.get(&(b, a)).is_some_and(|&w| w >= MIN_CROSS);
        let merged = if both_ways {
            load[&ra].max(load[&rb])
        } else {
            load[&ra] + load[&rb]
        };
        if merged <= GROUP_LOAD {
            parent.insert(rb, ra);
            load.insert(ra, merged);
            let joined = size[&ra] + size[&rb];
            size.insert(ra, joined);
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    let members: Vec<usize> = parent.keys().copied().collect();
    for k in members {
        let root = find(&parent, k);
        groups.entry(root).or_default().push(k);
    }
    // Each stage's load from what is pinned there already.
    let mut stage_load = vec![0.0f64; threads];
    for o in obs.actors.values() {
        if let Site::Stage(k) = o.actor.home().target() {
            stage_load[k % threads] += obs.load(o);
        }
    }
    let mut ordered: Vec<(usize, Vec<usize>)> =
        groups.into_iter().filter(|(_, m)| m.len() >= 2).collect();
    ordered.sort_by(|x, y| load[&y.0].total_cmp(&load[&x.0]));
    for (root, members) in ordered {
        let pinned = members
            .iter()
            .find_map(|k| obs.actors[k].actor.home().pinned_stage());
        let stage = pinned.unwrap_or_else(|| {
            (0..threads)
                .min_by(|&x, &y| stage_load[x].total_cmp(&stage_load[y]))
                .unwrap_or(0)
        });
        stage_load[stage] += load[&root];
        for k in members {
            let actor = &obs.actors[&k].actor;
            if actor.home().target() != Site::Stage(stage) {
                mover.relocate(actor, Placement::Stage(stage));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::auto::observe::tests::Idle;
    use crate::scheduler::Task;
    use crate::scheduler::home::{Home, Target};

    /// What the controller would know of an actor after `turns` sampled turns of
    /// `ns_per_message` each (one message a turn), `heavy_turns` of them heavy, and
    /// `busy` long turns seen computing.
    fn seen(turns: f64, ns_per_message: f64, heavy_turns: f64, busy: f64) -> Observed {
        let actor: Task = Arc::new(Idle(Home::new(Target::Site(Site::Pool), true)));
        let mut o = Observed::new(actor);
        o.cost.turns = turns;
        o.cost.handled = turns;
        o.cost.wall_ns = turns * ns_per_message;
        o.cost.heavy_turns = heavy_turns;
        o.busy = busy;
        o
    }

    #[test]
    fn a_heavy_verdict_is_lifted_only_well_inside_its_bounds() {
        let heavy = HEAVY_NS_PER_MESSAGE;
        assert!(
            cheap_again(&seen(4.0, 1_000.0, 0.0, 0.0)),
            "cheap in every way"
        );
        assert!(
            !cheap_again(&seen(4.0, heavy * 0.4, 0.0, 0.0)),
            "below the bound that made it heavy, but not by enough"
        );
        assert!(
            !cheap_again(&seen(4.0, 1_000.0, 1.0, 0.0)),
            "cheap on average, but a heavy sampled turn in four"
        );
        assert!(
            !cheap_again(&seen(4.0, 1_000.0, 0.0, 0.5)),
            "a long turn still in view"
        );
        assert!(
            !cheap_again(&seen(MIN_TURNS / 2.0, 1_000.0, 0.0, 0.0)),
            "too few samples to say"
        );
    }

    #[test]
    fn an_inline_actor_leaves_only_when_most_of_its_turns_are_costly() {
        let inline = |turns: f64, ns_per_message: f64, costly_turns: f64| {
            let mut o = seen(turns, ns_per_message, 0.0, 0.0);
            o.cost.costly_turns = costly_turns;
            o
        };
        assert!(
            costly_inline(&inline(4.0, 10_000.0, 4.0)),
            "costly in every sampled turn"
        );
        assert!(
            !costly_inline(&inline(4.0, CHEAP_NS_PER_MESSAGE * 2.0, 4.0)),
            "above the bound for inlining, but within the margin"
        );
        assert!(
            !costly_inline(&inline(4.0, 10_000.0, 1.0)),
            "costly on average through one sampled turn in four (a preempted one)"
        );
        assert!(
            !costly_inline(&inline(MIN_TURNS / 2.0, 10_000.0, 1.0)),
            "too few samples to say"
        );
    }

    /// Glimpsed turns judge an actor heavy, or an inline one costly, by the same bounds as
    /// sampled turns, on their own (a sampled turn or two of the actor's cheap ones do not
    /// outvote them); and a heavy or costly glimpse still in view keeps an actor from being
    /// judged cheap again, or from being inlined, as its sampled turns alone would.
    #[test]
    fn glimpsed_turns_judge_heavy_and_costly_turns_and_hold_them() {
        let glimpsed = |turns: f64, ns_per_message: f64| {
            let mut o = seen(2.0, 500.0, 0.0, 0.0);
            let g = &mut o.glimpsed;
            (g.turns, g.handled, g.wall_ns) = (turns, turns, turns * ns_per_message);
            g.heavy_turns = if ns_per_message >= HEAVY_NS_PER_MESSAGE {
                turns
            } else {
                0.0
            };
            g.costly_turns = if ns_per_message >= COSTLY_NS_PER_MESSAGE {
                turns
            } else {
                0.0
            };
            o
        };
        let heavy = glimpsed(2.0, 200_000.0);
        assert!(judged_heavy(&heavy) && costly_inline(&heavy));
        let costly = glimpsed(2.0, 10_000.0);
        assert!(!judged_heavy(&costly) && costly_inline(&costly));
        assert!(!costly_inline(&glimpsed(2.0, 1_000.0)), "cheap glimpses");
        assert!(
            !costly_inline(&glimpsed(1.0, 200_000.0)),
            "too few glimpses to say"
        );
        let none = seen(2.0, 500.0, 0.0, 0.0);
        assert!(!judged_heavy(&none) && !costly_inline(&none), "no glimpses");

        // Sampled turns alone say cheap (and a cheap leaf); a heavy or costly glimpse in
        // view says otherwise until it has faded.
        assert!(cheap_again(&none) && inlinable(&none));
        let faded = |weight: f64| {
            let mut o = glimpsed(weight, 200_000.0);
            o.glimpsed.turns = weight;
            o
        };
        assert!(!cheap_again(&faded(1.0)) && !inlinable(&faded(1.0)));
        assert!(!cheap_again(&faded(0.5)) && !inlinable(&faded(0.5)));
        assert!(cheap_again(&faded(0.125)) && inlinable(&faded(0.125)));
    }
}
