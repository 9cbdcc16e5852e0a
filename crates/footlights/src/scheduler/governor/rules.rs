//! Which adaptive rules a governor applies: [`Rule`] and [`Governor`], a set of rules.
//!
//! Parsing a governor's name (`"adaptive-watcher"`, `"plain+flood+labels"`) belongs to the
//! settings ([`crate::config`]), where its errors are; this file holds the set itself and
//! how it prints.

use std::fmt;

/// One adaptive rule of the work-stealing scheduler: what the governor may switch on or
/// off alone ([`Governor::with`], [`Governor::without`]). The scheduler's documentation
/// ("The governor" in `docs/scaling.md`) says what each one does and what it is worth.
///
/// ```
/// use footlights::Rule;
///
/// let rule: Rule = "watcher".parse().unwrap();
/// assert_eq!(rule, Rule::Watcher);
/// assert_eq!(rule.to_string(), "watcher");
/// assert!("watchman".parse::<Rule>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// The learned wake threshold: a worker's backlog wakes a parked worker only once it is
    /// as long as a threshold that rises while woken workers find too little to do and
    /// falls while they keep busy. Off, every backlog of one task wakes a sleeper (when
    /// nobody searches), as in tokio and Go.
    Wake,
    /// Groups and labels: once steals back are seen, actors that wake each other share a
    /// label, and a worker steals whole groups, or declines to split the only one. Off,
    /// steals always take half a deque.
    Labels,
    /// The flood give-back: a worker whose turns push far more messages onto an actor
    /// running on another worker than they handle gives its work back. Off, no give-back
    /// comes of cross pushes (the keeping turn, [`Rule::Keep`], still counts them).
    Flood,
    /// The keeping turn: a turn that pushes far more messages onto actors running on
    /// another worker than it handles (a flood within one long turn, which the flood rule,
    /// judging whole turns, cannot reach) keeps what it wakes on its own worker until it
    /// ends, and asks the worker that runs those actors to give its work back (that worker
    /// parks; what the turn woke waits in its worker's private FIFO for the turn to end).
    /// Off, such a turn goes on pushing across.
    Keep,
    /// The watcher: one parked worker looks at the others every millisecond to every few
    /// milliseconds while any is awake (less often while it sees no long turns), and
    /// steals work that waits behind a long turn; long turns also bring the wake threshold
    /// back to 1. Off, parked workers park for good until woken.
    Watcher,
    /// The nursery: actors spawned on a worker of several wait in a deque of their own,
    /// run newest first (depth first) and stolen oldest first. Off, a spawn is scheduled
    /// like any other hand-off (the next slot).
    Nursery,
    /// The private FIFO of a worker alone: a lone worker, and a worker of several whose
    /// partners sleep while waking does not pay, keeps what it schedules in FIFO order in a
    /// private queue. Off, such a worker hands off through its next slot as a worker of
    /// several does.
    Fifo,
    /// The CPU cap and lazy start: with more workers than CPUs, at most as many as there
    /// are CPUs are awake for shared work, and the others start only when first woken.
    /// Off, every worker starts with the system and may be woken for shared work.
    Cap,
}

impl Rule {
    /// Every rule, in the order names and sets print them.
    pub const ALL: [Rule; 8] = [
        Rule::Wake,
        Rule::Labels,
        Rule::Flood,
        Rule::Keep,
        Rule::Watcher,
        Rule::Nursery,
        Rule::Fifo,
        Rule::Cap,
    ];

    /// The rule's name, as [`FOOTLIGHTS_GOVERNOR`](crate::config::GOVERNOR_ENV) spells it:
    /// `wake`, `labels`, `flood`, `keep`, `watcher`, `nursery`, `fifo`, `cap`.
    ///
    /// ```
    /// assert_eq!(footlights::Rule::Labels.name(), "labels");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Rule::Wake => "wake",
            Rule::Labels => "labels",
            Rule::Flood => "flood",
            Rule::Keep => "keep",
            Rule::Watcher => "watcher",
            Rule::Nursery => "nursery",
            Rule::Fifo => "fifo",
            Rule::Cap => "cap",
        }
    }

    /// The rule's bit in a [`Governor`].
    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which adaptive rules the work-stealing scheduler applies: a set of [`Rule`]s.
///
/// [`Governor::adaptive`] (every rule, the default) is what the scheduler has been tuned
/// with; [`Governor::plain`] applies none: a worker's next slot, work stealing and a limit
/// on the workers searching at once, which is what tokio and Go keep. Between the two, each
/// rule can be switched on or off alone, so that what each is worth can be measured against
/// plain or against adaptive. Choose one with [`crate::Builder::governor`] or the
/// environment variable `FOOTLIGHTS_GOVERNOR`, whose grammar is a base (`adaptive` or
/// `plain`) then any number of `+rule` or `-rule`; [`crate::System::governor`] says which is
/// in effect.
///
/// Under the `share` and `stages` schedulers and for actors under the thread and inline
/// policies, the rules that do not apply there are simply inert.
///
/// ```
/// use footlights::{Governor, Rule, System};
///
/// // Everything the adaptive governor does, but the watcher.
/// let governor = Governor::adaptive().without(Rule::Watcher);
/// assert!(!governor.has(Rule::Watcher) && governor.has(Rule::Labels));
/// assert_eq!(governor.to_string(), "adaptive-watcher");
/// assert_eq!("adaptive - watcher".parse::<Governor>().unwrap(), governor);
///
/// let system = System::builder().threads(2).governor(governor).build().unwrap();
/// assert_eq!(system.governor(), governor);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Governor {
    /// One bit per rule ([`Rule::bit`]).
    rules: u16,
}

impl Default for Governor {
    /// [`Governor::adaptive`].
    fn default() -> Self {
        Governor::adaptive()
    }
}

impl Governor {
    /// Every rule: the default.
    ///
    /// ```
    /// use footlights::{Governor, Rule};
    /// assert!(Rule::ALL.iter().all(|&r| Governor::adaptive().has(r)));
    /// ```
    pub const fn adaptive() -> Governor {
        let mut rules = 0;
        let mut i = 0;
        while i < Rule::ALL.len() {
            rules |= Rule::ALL[i].bit();
            i += 1;
        }
        Governor { rules }
    }

    /// No rule: a worker's next slot, work stealing, and at most half the workers that
    /// may be awake searching at once.
    ///
    /// ```
    /// use footlights::Governor;
    /// assert_eq!(Governor::plain().rules().count(), 0);
    /// ```
    pub const fn plain() -> Governor {
        Governor { rules: 0 }
    }

    /// This governor with `rule` on.
    ///
    /// ```
    /// use footlights::{Governor, Rule};
    /// let g = Governor::plain().with(Rule::Labels).with(Rule::Flood);
    /// assert_eq!(g.to_string(), "plain+labels+flood");
    /// ```
    #[must_use]
    pub const fn with(self, rule: Rule) -> Governor {
        Governor {
            rules: self.rules | rule.bit(),
        }
    }

    /// This governor with `rule` off.
    ///
    /// ```
    /// use footlights::{Governor, Rule};
    /// assert!(!Governor::adaptive().without(Rule::Flood).has(Rule::Flood));
    /// ```
    #[must_use]
    pub const fn without(self, rule: Rule) -> Governor {
        Governor {
            rules: self.rules & !rule.bit(),
        }
    }

    /// Whether `rule` is on.
    #[inline]
    pub const fn has(self, rule: Rule) -> bool {
        self.rules & rule.bit() != 0
    }

    /// The rules that are on, in [`Rule::ALL`]'s order.
    ///
    /// ```
    /// use footlights::{Governor, Rule};
    /// let g = Governor::plain().with(Rule::Cap).with(Rule::Wake);
    /// assert_eq!(g.rules().collect::<Vec<_>>(), [Rule::Wake, Rule::Cap]);
    /// ```
    pub fn rules(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |&r| self.has(r))
    }
}

impl fmt::Display for Governor {
    /// The shortest form the grammar has for this set: `adaptive` or `plain`, then the
    /// rules that differ from it (`adaptive-watcher`, `plain+labels+flood`); with as many
    /// either way, `adaptive`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = self.rules().count();
        let off = Rule::ALL.len() - on;
        if off <= on {
            f.write_str("adaptive")?;
            for rule in Rule::ALL.into_iter().filter(|&r| !self.has(r)) {
                write!(f, "-{rule}")?;
            }
        } else {
            f.write_str("plain")?;
            for rule in self.rules() {
                write!(f, "+{rule}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bits_are_distinct_and_fit() {
        let all = Rule::ALL.iter().fold(0u16, |acc, r| {
            assert_eq!(acc & r.bit(), 0, "{r} shares a bit");
            acc | r.bit()
        });
        assert_eq!(Governor::adaptive().rules, all);
    }

    #[test]
    fn display_is_the_shorter_form() {
        assert_eq!(Governor::adaptive().to_string(), "adaptive");
        assert_eq!(Governor::plain().to_string(), "plain");
        let g = Governor::adaptive()
            .without(Rule::Watcher)
            .without(Rule::Flood);
        assert_eq!(g.to_string(), "adaptive-flood-watcher");
        let p = Governor::plain().with(Rule::Cap);
        assert_eq!(p.to_string(), "plain+cap");
    }
}
