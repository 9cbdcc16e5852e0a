//! The governor: every adaptive decision of the work-stealing scheduler, apart from the
//! mechanism that carries it out.
//!
//! The mechanism (a worker's queues, searching and stealing, parking, starting threads,
//! the watcher's look) knows how to do things; the governor decides when. Which of its
//! rules apply is a [`Governor`], a set of [`Rule`]s chosen with the builder or
//! `FOOTLIGHTS_GOVERNOR` ([`rules`]).

pub(crate) mod rules;

pub use rules::{Governor, Rule};
pub(crate) mod flood;
pub(crate) mod pace;
pub(crate) mod tunables;
pub(crate) mod wake;

use pace::Yardstick;
use wake::WakeThreshold;

/// What the governor keeps for a whole system: the rules in effect, the wake threshold,
/// and the workers' pace (the solo rate, and whether groups are labelled). Each worker
/// keeps its own epoch ([`pace::Pace`]) and flood count ([`flood::Flood`]).
pub(crate) struct Policy {
    /// The rules in effect.
    pub(crate) rules: Governor,
    /// The wake threshold, and every change to it.
    pub(crate) wake: WakeThreshold,
    /// The solo rate and the labels' switch.
    pub(crate) yardstick: Yardstick,
}

impl Policy {
    /// The policy of a system whose governor is `rules`.
    pub(crate) fn new(rules: Governor) -> Policy {
        Policy {
            rules,
            wake: WakeThreshold::new(rules),
            yardstick: Yardstick::new(),
        }
    }
}
