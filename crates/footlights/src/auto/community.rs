//! Rule 6 of automatic placement: communities that talk many to many stay whole, one
//! stage each (the rule is described with the others in `decide.rs`).
//!
//! # The algorithm
//!
//! 1. **The talk graph.** The actors in the pairs [`Observations::talk`] holds (a sampled
//!    send either way within the last [`super::observe::TALK_DECISIONS`] decisions), each
//!    numbered once if it is light and movable, with its number of partners.
//! 2. **Connected sets.** A union-find over the pairs joins the actors into connected
//!    sets, leaving out hubs: actors with more than [`HUB_PARTNERS`] partners and more
//!    than [`HUB_DEGREE`] times the average, which would join every set into one.
//! 3. **Communities.** A set is a community when it has at least [`MIN_COMMUNITY`]
//!    members, more than [`COMMUNITY_PAIRS`] distinct pairs per member, and handlers of
//!    at most [`COMMUNITY_NS_PER_MESSAGE`] a message (its median member's).
//!    A chain, a ring, a tree or a star never has more pairs than members.
//! 4. **Placement.** A community whose pinned members are mostly on one stage stays
//!    there; the others go, largest first, to the stage with the fewest pinned actors;
//!    then one community moves from the heaviest stage to the lightest if it fits in
//!    three quarters of the gap. A lone community, not placed yet, is left alone.
//! 5. **Pacing.** The rule is called every round and waits between looks: 2 rounds while
//!    it finds nothing or a lone community, none after it moved actors, 20 once all is in
//!    place, and at least one round per [`PAIRS_PER_ROUND`] pairs in view.

use super::decide::movable;
use super::moves::Mover;
use super::observe::{KeyMap, Observations};
use crate::placement::{Placement, SchedulerKind, Site};

/// Rounds between two looks of rule 6 while it has found no community: often, so that
/// a short program's communities are placed early.
const COMMUNITY_SEARCH_ROUNDS: u32 = 2;
/// Rounds between two looks of rule 6 once its communities are in place (it looks again
/// at the next round after any move): rarely, because building the communities costs the
/// controller a few milliseconds at big's sizes.
const COMMUNITY_KEEP_ROUNDS: u32 = 20;
/// Pairs in view per round rule 6 waits before it looks again (a look takes about 60 ns
/// a pair).
const PAIRS_PER_ROUND: usize = 1_000;
/// Handler time a message (of the median member) up to which a community is kept whole:
/// a message crossing cores costs a few hundred nanoseconds more than one that does not
/// (`docs/experiments/2026-11-27-one-neighbourhood-two-cores.md`), so for handlers much longer than
/// this, splitting a community over the workers costs little, and stealing balances them better.
const COMMUNITY_NS_PER_MESSAGE: f64 = 10_000.0;
/// Members a community needs before rule 6 places it.
const MIN_COMMUNITY: usize = 16;
/// Distinct talking pairs per member a community needs: many-to-many talk. A chain, a
/// ring, a tree or a star has at most one pair per member, so none of them qualifies.
const COMMUNITY_PAIRS: f64 = 1.25;
/// An actor that talks with more than this many times the average number of partners
/// (and more than [`HUB_PARTNERS`]) is a hub, left out so that it does not join
/// communities into one.
const HUB_DEGREE: usize = 4;
/// See [`HUB_DEGREE`].
const HUB_PARTNERS: usize = 32;

/// Rule 6: finds communities of light actors that talk many to many, and keeps each
/// whole on one stage, spread over the stages by size. Called every round; it paces
/// itself.
pub(super) fn communities(obs: &mut Observations, mover: &Mover) {
    let threads = mover.sched().threads();
    if threads < 2 || mover.sched().kind != SchedulerKind::Steal {
        return;
    }
    if obs.community_wait > 0 {
        obs.community_wait -= 1;
        return;
    }
    // A look costs the controller time in proportion to the pairs in view: wait at least
    // a round per [`PAIRS_PER_ROUND`] of them, so that rule 6 never takes more than a few
    // percent of a core.
    let cost = u32::try_from(obs.talk.len() / PAIRS_PER_ROUND).unwrap_or(u32::MAX);
    obs.community_wait = match place_communities(obs, mover, threads) {
        Placed::Moved => 0,
        Placed::Kept => COMMUNITY_KEEP_ROUNDS.max(cost),
        Placed::NoneFound | Placed::Lone => COMMUNITY_SEARCH_ROUNDS.max(cost),
    }
    .saturating_sub(1);
}

/// What one look of rule 6 did.
enum Placed {
    /// It moved actors: look again at the next round (more members may show).
    Moved,
    /// Every community it found was in place already.
    Kept,
    /// It found no community.
    NoneFound,
    /// It found one community, not placed: look again soon, since a second one may be
    /// only a few samples short (big at 2,000 workers often shows one neighbourhood a
    /// look before the other).
    Lone,
}

/// Rule 6 proper.
fn place_communities(obs: &Observations, mover: &Mover, threads: usize) -> Placed {
    // The light actors in the talk graph, numbered (once each), with their partners.
    let mut index: KeyMap<usize, Option<usize>> = KeyMap::default();
    let mut keys: Vec<usize> = Vec::new();
    let mut degree: Vec<usize> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in obs.talk.keys() {
        let mut number = |k: usize| {
            *index.entry(k).or_insert_with(|| {
                let light = obs.actors.get(&k).is_some_and(|o| {
                    movable(o)
                        && !o.heavy
                        && !o.blocked_for_good
                        && matches!(o.actor.home().target(), Site::Pool | Site::Stage(_))
                });
                light.then(|| {
                    keys.push(k);
                    degree.push(0);
                    keys.len() - 1
                })
            })
        };
        let (Some(x), Some(y)) = (number(a), number(b)) else {
            continue;
        };
        degree[x] += 1;
        degree[y] += 1;
        pairs.push((x, y));
    }
    if keys.len() < MIN_COMMUNITY {
        return Placed::NoneFound;
    }
    let mean = 2 * pairs.len() / keys.len();
    let hub = |x: usize| degree[x] > HUB_PARTNERS && degree[x] > HUB_DEGREE * mean.max(1);
    // Union-find over the pairs that leave hubs out.
    let mut parent: Vec<usize> = (0..keys.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(x, y) in &pairs {
        if hub(x) || hub(y) {
            continue;
        }
        let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
        if rx != ry {
            parent[ry] = rx;
        }
    }
    // Each component: its members, its pairs, and its members' handler time a message.
    struct Community {
        members: Vec<usize>,
        pairs: usize,
        ns_per_message: Vec<f64>,
    }
    let mut found: KeyMap<usize, Community> = KeyMap::default();
    for (x, key) in keys.iter().enumerate() {
        if hub(x) {
            continue;
        }
        let r = root(&mut parent, x);
        let c = found.entry(r).or_insert(Community {
            members: Vec::new(),
            pairs: 0,
            ns_per_message: Vec::new(),
        });
        c.members.push(x);
        let o = &obs.actors[key];
        if o.cost.handled > 0.0 {
            c.ns_per_message.push(o.cost.ns_per_message());
        }
    }
    for &(x, y) in &pairs {
        if !hub(x) && !hub(y) {
            let r = root(&mut parent, x);
            if let Some(c) = found.get_mut(&r) {
                c.pairs += 1;
            }
        }
    }
    // Cheap by the median member: a sampled turn whose thread was preempted can take
    // milliseconds, and would make an average say nothing.
    let cheap = |c: &mut Community| {
        let n = c.ns_per_message.len();
        n == 0 || {
            let (_, median, _) = c
                .ns_per_message
                .select_nth_unstable_by(n / 2, f64::total_cmp);
            *median <= COMMUNITY_NS_PER_MESSAGE
        }
    };
    let chosen: Vec<Community> = found
        .into_values()
        .filter_map(|mut c| {
            (c.members.len() >= MIN_COMMUNITY
                && c.pairs as f64 >= COMMUNITY_PAIRS * c.members.len() as f64
                && cheap(&mut c))
            .then_some(c)
        })
        .collect();
    if chosen.is_empty() {
        return Placed::NoneFound;
    }
    let stage_of = |x: usize| match obs.actors[&keys[x]].actor.home().target() {
        Site::Stage(k) => Some(k % threads),
        _ => None,
    };
    // Each stage's weight: the light actors pinned there (the handlers are cheap, so an
    // actor's count is a fairer measure of its demand than the time it got, which a
    // crowded stage caps).
    let mut weight = vec![0usize; threads];
    for o in obs.actors.values() {
        if let (true, Site::Stage(k)) = (movable(o), o.actor.home().target()) {
            weight[k % threads] += 1;
        }
    }
    // A community most of whose pinned members share a stage stays there; the others
    // go, largest first, to the stage with the least weight.
    let mut placed: Vec<(Community, Option<usize>)> = chosen
        .into_iter()
        .map(|c| {
            let mut votes = vec![0usize; threads];
            for &x in &c.members {
                if let Some(k) = stage_of(x) {
                    votes[k] += 1;
                }
            }
            let best = (0..threads).max_by_key(|&k| (votes[k], std::cmp::Reverse(k)));
            let home = best.filter(|&k| votes[k] > 0);
            (c, home)
        })
        .collect();
    // One community alone stays where stealing puts it: kept whole on one stage it would
    // leave the other workers idle, which pays only as long as its start-up costs less
    // than the rest of the run (big at its quick size ran 8% slower that way; see
    // docs/experiments/2026-11-27-placement-keeps-neighbourhoods.md). Once placed, a community is
    // kept in place.
    if placed.len() < 2 && placed.iter().all(|(_, home)| home.is_none()) {
        return Placed::Lone;
    }
    placed.sort_by(|(x, xh), (y, yh)| {
        yh.is_some()
            .cmp(&xh.is_some())
            .then(y.members.len().cmp(&x.members.len()))
    });
    let lightest = |weight: &[usize]| (0..threads).min_by_key(|&k| weight[k]).unwrap_or(0);
    let mut homes: Vec<(usize, usize)> = Vec::new();
    let mut moved = 0;
    for (i, (c, home)) in placed.iter().enumerate() {
        let stage = home.unwrap_or_else(|| lightest(&weight));
        homes.push((i, stage));
        moved += move_community(obs, mover, &keys, &c.members, stage, &mut weight);
    }
    // Rebalance: the largest community on the heaviest stage that fits in well under the
    // difference moves to the lightest (one a decision, so nothing swings back and forth).
    let heaviest = (0..threads).max_by_key(|&k| weight[k]).unwrap_or(0);
    let to = lightest(&weight);
    let gap = weight[heaviest] - weight[to];
    let candidate = homes
        .iter()
        .filter(|&&(_, k)| k == heaviest)
        .map(|&(i, _)| &placed[i].0)
        .filter(|c| 4 * c.members.len() <= 3 * gap)
        .max_by_key(|c| c.members.len());
    if let Some(c) = candidate {
        moved += move_community(obs, mover, &keys, &c.members, to, &mut weight);
    }
    if moved > 0 {
        Placed::Moved
    } else {
        Placed::Kept
    }
}

/// Pins every member of a community (`members`, numbered into `keys`) to `stage`,
/// keeping the stages' weights; returns how many moved.
fn move_community(
    obs: &Observations,
    mover: &Mover,
    keys: &[usize],
    members: &[usize],
    stage: usize,
    weight: &mut [usize],
) -> usize {
    let threads = weight.len();
    let mut moved = 0;
    for &x in members {
        let actor = &obs.actors[&keys[x]].actor;
        let now = match actor.home().target() {
            Site::Stage(k) => Some(k % threads),
            _ => None,
        };
        if now != Some(stage) {
            if let Some(k) = now {
                weight[k] = weight[k].saturating_sub(1);
            }
            weight[stage] += 1;
            mover.relocate(actor, Placement::Stage(stage));
            moved += 1;
        }
    }
    moved
}
