//! Run-time configuration: the builder's settings, else the environment, else defaults.
//!
//! | setting | builder | environment | default |
//! |---|---|---|---|
//! | worker threads | [`crate::Builder::threads`] | `FOOTLIGHTS_THREADS` | available parallelism |
//! | messages per turn | [`crate::Builder::batch`] | `FOOTLIGHTS_BATCH` | 100 |
//! | scheduler | [`crate::Builder::scheduler`] | `FOOTLIGHTS_SCHEDULER` (`steal`, `share`, `stages`) | `steal` |
//! | default policy | [`crate::Builder::policy`] | `FOOTLIGHTS_POLICY` (`task`, `thread`, `inline`) | `task` |
//! | placement | [`crate::Builder::placement`] | `FOOTLIGHTS_PLACEMENT` (`manual`, `observe`, `auto`) | `manual` |
//! | dedicated stages at once | [`crate::Builder::max_dedicated`] | `FOOTLIGHTS_MAX_DEDICATED` | 4096 |
//! | print each worker's counters at shutdown | [`crate::Builder::print_stats`] | `FOOTLIGHTS_STATS` (`0`, `1`) | `0` |
//! | most workers awake for shared work at once | - | `FOOTLIGHTS_CPUS` | the CPUs in the process's affinity mask |
//! | the scheduler's adaptive rules | [`crate::Builder::governor`] | `FOOTLIGHTS_GOVERNOR` (`adaptive`, `plain`, then `+rule` or `-rule`, see [`crate::Governor`]) | `adaptive` |
//!
//! The number of threads is a deployment decision, never the program's: the same binary
//! runs on one stage or many.

use std::fmt;
use std::str::FromStr;

use crate::scheduler::governor::{Governor, Rule};

/// The default number of messages an actor handles per turn (as in Encore and Pony).
pub const DEFAULT_BATCH: usize = 100;

/// The environment variable for the worker-thread count.
pub const THREADS_ENV: &str = "FOOTLIGHTS_THREADS";
/// The environment variable for the per-turn batch size.
pub const BATCH_ENV: &str = "FOOTLIGHTS_BATCH";
/// The environment variable for the scheduler kind.
pub const SCHEDULER_ENV: &str = "FOOTLIGHTS_SCHEDULER";
/// The environment variable for the default execution policy.
pub const POLICY_ENV: &str = "FOOTLIGHTS_POLICY";
/// The environment variable for the placement mode.
pub const PLACEMENT_ENV: &str = "FOOTLIGHTS_PLACEMENT";
/// The environment variable for the most dedicated stages running at once.
pub const MAX_DEDICATED_ENV: &str = "FOOTLIGHTS_MAX_DEDICATED";
/// The default most dedicated stages running at once.
pub const DEFAULT_MAX_DEDICATED: usize = 4096;
/// The environment variable that prints each worker's counters at shutdown.
pub const STATS_ENV: &str = "FOOTLIGHTS_STATS";
/// The environment variable for the CPUs the runtime takes the process to have: at most
/// this many pool workers are awake for shared work at once (tests set it to run many
/// workers as a machine with that many CPUs would; by default, the affinity mask's count).
pub const CPUS_ENV: &str = "FOOTLIGHTS_CPUS";
/// The environment variable for the scheduler's governor: which adaptive rules apply
/// (see [`crate::Governor`] for its grammar).
pub const GOVERNOR_ENV: &str = "FOOTLIGHTS_GOVERNOR";

/// A setting that cannot be used, naming where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// An environment variable holds something other than a positive integer.
    BadEnv {
        /// The variable.
        var: &'static str,
        /// What it held.
        value: String,
    },
    /// A builder setting is out of range.
    BadSetting {
        /// The setting.
        setting: &'static str,
        /// The value given.
        value: usize,
    },
    /// An environment variable names none of a setting's values.
    BadChoice {
        /// The variable.
        var: &'static str,
        /// What was wrong with its value.
        error: crate::placement::UnknownChoice,
    },
    /// A governor's text ([`crate::Governor`], [`crate::Rule`]) has a word that is not
    /// what its place in the grammar takes.
    BadGovernor {
        /// The environment variable it came from, if it did (else a string parsed by the
        /// program).
        var: Option<&'static str>,
        /// The whole text.
        text: String,
        /// The offending word, trimmed (empty if a word was missing).
        word: String,
        /// Where the word begins in the text (a byte offset, from 0).
        position: usize,
        /// The words that would have been accepted there.
        accepted: Vec<&'static str>,
    },
    /// The operating system refused to start a worker thread.
    Spawn(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::BadEnv { var, value } => {
                write!(f, "{var}={value:?} is not a positive integer")
            }
            ConfigError::BadSetting { setting, value } => {
                write!(f, "{setting}({value}) must be at least 1")
            }
            ConfigError::BadChoice { var, error } => write!(f, "{var}: {error}"),
            ConfigError::BadGovernor {
                var,
                text,
                word,
                position,
                accepted,
            } => {
                if let Some(var) = var {
                    write!(f, "{var}={text:?}: ")?;
                } else {
                    write!(f, "governor {text:?}: ")?;
                }
                if word.is_empty() {
                    write!(f, "a word is missing at byte {position}")?;
                } else {
                    write!(f, "{word:?} at byte {position} is not valid there")?;
                }
                write!(f, "; use one of: {}", accepted.join(", "))
            }
            ConfigError::Spawn(e) => write!(f, "could not start a worker thread: {e}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Resolves a setting: the builder's value, else the environment variable, else `default`.
pub(crate) fn resolve(
    setting: &'static str,
    given: Option<usize>,
    var: &'static str,
    default: impl FnOnce() -> usize,
) -> Result<usize, ConfigError> {
    if let Some(value) = given {
        return if value == 0 {
            Err(ConfigError::BadSetting { setting, value })
        } else {
            Ok(value)
        };
    }
    match std::env::var(var) {
        Ok(text) => match text.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(ConfigError::BadEnv { var, value: text }),
        },
        Err(std::env::VarError::NotPresent) => Ok(default()),
        Err(std::env::VarError::NotUnicode(raw)) => Err(ConfigError::BadEnv {
            var,
            value: raw.to_string_lossy().into_owned(),
        }),
    }
}

/// The bases a governor's text begins with.
const GOVERNOR_BASES: [&str; 2] = ["adaptive", "plain"];

/// The names of every rule, for errors.
fn rule_names() -> Vec<&'static str> {
    Rule::ALL.iter().map(|r| r.name()).collect()
}

/// The rule named `word` (any case), if any.
fn rule_named(word: &str) -> Option<Rule> {
    Rule::ALL
        .into_iter()
        .find(|r| r.name().eq_ignore_ascii_case(word))
}

/// `s` trimmed, and the byte offset in `s` where the trimmed word begins.
fn trimmed_at(s: &str) -> (&str, usize) {
    let start = s.len() - s.trim_start().len();
    (s.trim(), start)
}

impl FromStr for Rule {
    type Err = ConfigError;

    /// A rule's name ([`Rule::name`]), in any case, with whitespace around it allowed.
    fn from_str(s: &str) -> Result<Rule, ConfigError> {
        let (word, position) = trimmed_at(s);
        rule_named(word).ok_or_else(|| ConfigError::BadGovernor {
            var: None,
            text: s.to_owned(),
            word: word.to_owned(),
            position,
            accepted: rule_names(),
        })
    }
}

impl FromStr for Governor {
    type Err = ConfigError;

    /// A base, `adaptive` or `plain`, then any number of `+rule` or `-rule`, in any case,
    /// with whitespace around words allowed: `plain+labels+flood`, `adaptive - watcher`.
    fn from_str(s: &str) -> Result<Governor, ConfigError> {
        let bad =
            |word: &str, position: usize, accepted: Vec<&'static str>| ConfigError::BadGovernor {
                var: None,
                text: s.to_owned(),
                word: word.to_owned(),
                position,
                accepted,
            };
        let first_sign = s.find(['+', '-']).unwrap_or(s.len());
        let (base, at) = trimmed_at(&s[..first_sign]);
        let mut governor = if base.eq_ignore_ascii_case("adaptive") {
            Governor::adaptive()
        } else if base.eq_ignore_ascii_case("plain") {
            Governor::plain()
        } else {
            return Err(bad(base, at, GOVERNOR_BASES.to_vec()));
        };
        let mut rest = first_sign;
        while rest < s.len() {
            let on = s[rest..].starts_with('+');
            let from = rest + 1;
            let end = s[from..].find(['+', '-']).map_or(s.len(), |i| from + i);
            let (word, at) = trimmed_at(&s[from..end]);
            let Some(rule) = rule_named(word) else {
                return Err(bad(word, from + at, rule_names()));
            };
            governor = if on {
                governor.with(rule)
            } else {
                governor.without(rule)
            };
            rest = end;
        }
        Ok(governor)
    }
}

/// Resolves the governor: the builder's, else [`GOVERNOR_ENV`], else
/// [`Governor::adaptive`]; a bad variable is an error that names it.
pub(crate) fn resolve_governor(given: Option<Governor>) -> Result<Governor, ConfigError> {
    if let Some(governor) = given {
        return Ok(governor);
    }
    let text = match std::env::var(GOVERNOR_ENV) {
        Ok(text) => text,
        Err(std::env::VarError::NotPresent) => return Ok(Governor::default()),
        Err(std::env::VarError::NotUnicode(raw)) => raw.to_string_lossy().into_owned(),
    };
    text.parse().map_err(|e| match e {
        ConfigError::BadGovernor {
            text,
            word,
            position,
            accepted,
            ..
        } => ConfigError::BadGovernor {
            var: Some(GOVERNOR_ENV),
            text,
            word,
            position,
            accepted,
        },
        other => other,
    })
}

/// Resolves a choice: the builder's value, else the environment variable, else the
/// default.
pub(crate) fn resolve_choice<T>(given: Option<T>, var: &'static str) -> Result<T, ConfigError>
where
    T: std::str::FromStr<Err = crate::placement::UnknownChoice> + Default,
{
    if let Some(value) = given {
        return Ok(value);
    }
    match std::env::var(var) {
        Ok(text) => text
            .parse()
            .map_err(|error| ConfigError::BadChoice { var, error }),
        Err(std::env::VarError::NotPresent) => Ok(T::default()),
        Err(std::env::VarError::NotUnicode(raw)) => raw
            .to_string_lossy()
            .parse()
            .map_err(|error| ConfigError::BadChoice { var, error }),
    }
}

/// Resolves an on/off setting: the builder's value, else the environment variable (`0` or
/// `1`), else off.
pub(crate) fn resolve_flag(given: Option<bool>, var: &'static str) -> Result<bool, ConfigError> {
    if let Some(value) = given {
        return Ok(value);
    }
    match std::env::var(var) {
        Ok(text) => match text.trim() {
            "0" | "" => Ok(false),
            "1" => Ok(true),
            _ => Err(ConfigError::BadChoice {
                var,
                error: crate::placement::UnknownChoice {
                    setting: "switch",
                    given: text,
                    accepted: &["0", "1"],
                },
            }),
        },
        Err(std::env::VarError::NotPresent) => Ok(false),
        Err(std::env::VarError::NotUnicode(raw)) => Err(ConfigError::BadEnv {
            var,
            value: raw.to_string_lossy().into_owned(),
        }),
    }
}

/// The machine's available parallelism, at least 1.
pub(crate) fn available_parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The CPUs this process may run on: the count of its affinity mask (what `taskset`
/// sets), at least 1. At most this many pool workers are awake for shared work at once
/// (see `scheduler::park`, "As many awake as there are CPUs").
///
/// One system call. [`std::thread::available_parallelism`], which the default thread
/// count uses, also reads the cgroup's CPU quota from files, which took 40 to 90 µs a
/// call here: a tenth of the start-up of a system of two workers, paid by every
/// benchmark run. So a quota is not counted here; with the default thread count (which
/// counts it) the rule limits nothing either way. If the mask cannot be read (more than
/// 1,024 CPUs), this falls back to `available_parallelism`, as it does on systems
/// other than Linux (and in a build with `--cfg footlights_portable`, which tests that
/// path on Linux).
#[cfg(all(target_os = "linux", not(footlights_portable)))]
pub(crate) fn cpus() -> usize {
    // SAFETY: `cpu_set_t` is a plain bit set, for which all zeroes is a valid (empty) value.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid, writable `cpu_set_t` of the size passed; pid 0 is the
    // calling thread, whose mask is the process's unless the program changed it.
    let rc =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        return available_parallelism();
    }
    // SAFETY: `set` is an initialised `cpu_set_t`, filled by the call above.
    let n = unsafe { libc::CPU_COUNT(&set) };
    match usize::try_from(n) {
        Ok(n) if n > 0 => n,
        _ => available_parallelism(),
    }
}

/// The CPUs this process may run on, where no affinity mask is read: the available
/// parallelism.
#[cfg(not(all(target_os = "linux", not(footlights_portable))))]
pub(crate) fn cpus() -> usize {
    available_parallelism()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_value_wins_and_zero_is_rejected() {
        assert_eq!(
            resolve("threads", Some(3), "FOOTLIGHTS_TEST_UNSET", || 9),
            Ok(3)
        );
        assert_eq!(
            resolve("threads", Some(0), "FOOTLIGHTS_TEST_UNSET", || 9),
            Err(ConfigError::BadSetting {
                setting: "threads",
                value: 0
            })
        );
        assert_eq!(
            resolve("threads", None, "FOOTLIGHTS_TEST_UNSET", || 9),
            Ok(9)
        );
    }

    #[test]
    fn governors_parse_by_the_grammar_and_print_back() {
        let cases = [
            ("adaptive", Governor::adaptive()),
            ("plain", Governor::plain()),
            (
                "plain+labels+flood",
                Governor::plain().with(Rule::Labels).with(Rule::Flood),
            ),
            (
                "adaptive-watcher",
                Governor::adaptive().without(Rule::Watcher),
            ),
            (
                " Adaptive - watcher -flood ",
                Governor::adaptive()
                    .without(Rule::Watcher)
                    .without(Rule::Flood),
            ),
            ("plain+cap-cap+wake", Governor::plain().with(Rule::Wake)),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<Governor>(), Ok(want), "{text}");
            assert_eq!(want.to_string().parse::<Governor>(), Ok(want), "{want}");
        }
        // Every set prints in a form that parses back to it.
        for bits in 0u16..(1 << Rule::ALL.len()) {
            let g = Rule::ALL
                .into_iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .fold(Governor::plain(), |g, (_, r)| g.with(r));
            assert_eq!(g.to_string().parse::<Governor>(), Ok(g));
        }
    }

    #[test]
    fn a_bad_governor_names_the_word_and_where_it_is() {
        let err = "plain+flod".parse::<Governor>().unwrap_err();
        let ConfigError::BadGovernor { word, position, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((word.as_str(), *position), ("flod", 6));
        let text = err.to_string();
        assert!(text.contains("\"flod\" at byte 6"), "{text}");
        assert!(text.contains("flood") && text.contains("watcher"), "{text}");

        let err = "fast-watcher".parse::<Governor>().unwrap_err();
        assert!(err.to_string().contains("\"fast\" at byte 0"), "{err}");
        assert!(err.to_string().contains("adaptive, plain"), "{err}");
        let err = "adaptive+".parse::<Governor>().unwrap_err();
        assert!(err.to_string().contains("missing at byte 9"), "{err}");
        assert!("".parse::<Governor>().is_err());
        assert!(" wake ".parse::<Rule>() == Ok(Rule::Wake));
        let err = "wak".parse::<Rule>().unwrap_err();
        assert!(err.to_string().contains("\"wak\""), "{err}");
    }

    #[test]
    fn a_given_governor_wins_over_the_environment() {
        let g = Governor::plain().with(Rule::Nursery);
        assert_eq!(resolve_governor(Some(g)), Ok(g));
    }

    #[test]
    fn a_flag_is_the_builder_value_else_off() {
        assert_eq!(resolve_flag(Some(true), "FOOTLIGHTS_TEST_UNSET"), Ok(true));
        assert_eq!(resolve_flag(None, "FOOTLIGHTS_TEST_UNSET"), Ok(false));
    }
}
