//! The one error kind the harness treats specially: bad input from the user.
//!
//! A malformed suite file, an unknown name, an impossible core count or an unwritable
//! database is the user's to fix, and gets exit status 2 with a one-line message; it is
//! detected before anything is written. Every other error (an I/O failure in the middle
//! of a session, say) is an ordinary [`anyhow::Error`] and gets exit status 1.

use std::fmt;

/// Bad input: reported on one line, exit status 2, nothing written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl UsageError {
    /// A usage error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        UsageError(message.into())
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand: return early with a [`UsageError`] wrapped in [`anyhow::Error`].
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::error::UsageError(format!($($arg)*))))
    };
}

/// The exit status an error deserves: 2 for a [`UsageError`] anywhere in its chain, else 1.
pub fn exit_status(err: &anyhow::Error) -> i32 {
    if err
        .chain()
        .any(|e| e.downcast_ref::<UsageError>().is_some())
    {
        2
    } else {
        1
    }
}
