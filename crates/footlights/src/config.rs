//! Run-time configuration: the builder's settings, else the environment, else defaults.
//!
//! | setting | builder | environment | default |
//! |---|---|---|---|
//! | worker threads | [`crate::Builder::threads`] | `FOOTLIGHTS_THREADS` | available parallelism |
//! | messages per turn | [`crate::Builder::batch`] | `FOOTLIGHTS_BATCH` | 100 |
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

/// The machine's available parallelism, at least 1.
pub(crate) fn available_parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
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
}
