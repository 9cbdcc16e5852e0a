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
//!
//! The number of threads is a deployment decision, never the program's: the same binary
//! runs on one stage or many.

use std::fmt;

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
    fn a_flag_is_the_builder_value_else_off() {
        assert_eq!(resolve_flag(Some(true), "FOOTLIGHTS_TEST_UNSET"), Ok(true));
        assert_eq!(resolve_flag(None, "FOOTLIGHTS_TEST_UNSET"), Ok(false));
    }
}
