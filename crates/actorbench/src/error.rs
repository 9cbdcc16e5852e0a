//! The error kinds the harness tells apart, and the exit status each one gets.
//!
//! Every command exits with one of:
//!
//! - **0**: success (for `compare`: no cell failed the gate; for `verify`: every test
//!   passed);
//! - **1**: the command ran and what it checked failed: a `compare` gate failure (a
//!   regression, a broken or missing cell, a cell with too few runs to test), a `verify`
//!   failure, a `run` with nothing that could run ([`Failure`]);
//! - **2**: bad input, the user's to fix ([`UsageError`]): a malformed suite file, an
//!   unknown name, an impossible core count, an unwritable or missing database, sessions
//!   that are not comparable; reported on one line, detected before anything is written;
//! - **3**: a store or I/O error: any other error, an ordinary [`anyhow::Error`] (a write
//!   that failed in the middle of a session, say);
//! - **130**: `run` or `verify` interrupted by Ctrl-C.

/// Bad input: reported on one line, exit status 2, nothing written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    /// A usage error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        UsageError(message.into())
    }
}

/// A check that failed: the command did its work and the answer is "no" (exit status 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub String);

/// Exit status: success.
pub const EXIT_OK: i32 = 0;
/// Exit status: what the command checked failed.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: bad input.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: a store or I/O error.
pub const EXIT_IO: i32 = 3;
/// Exit status: interrupted by Ctrl-C.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Shorthand: return early with a [`UsageError`] wrapped in [`anyhow::Error`].
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::error::UsageError(format!($($arg)*))))
    };
}

/// The exit status an error deserves: 2 for a [`UsageError`] anywhere in its chain, 1 for
/// a [`Failure`], else 3 (a store or I/O error).
///
/// ```
/// use actorbench::error::{exit_status, Failure, UsageError};
/// assert_eq!(exit_status(&UsageError::new("bad flag").into()), 2);
/// assert_eq!(exit_status(&Failure("nothing ran".into()).into()), 1);
/// assert_eq!(exit_status(&anyhow::anyhow!("disk full")), 3);
/// ```
pub fn exit_status(err: &anyhow::Error) -> i32 {
    if err
        .chain()
        .any(|e| e.downcast_ref::<UsageError>().is_some())
    {
        EXIT_USAGE
    } else if err.chain().any(|e| e.downcast_ref::<Failure>().is_some()) {
        EXIT_FAILED
    } else {
        EXIT_IO
    }
}
