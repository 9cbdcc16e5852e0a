//! Parking a worker thread until it is woken: crossbeam-utils' `Parker`, or, under
//! `--cfg shuttle`, a stand-in the checker can see.
//!
//! A parker holds one token. [`Unparker::unpark`] makes it available (many unparks still
//! make one token); `park` takes it, blocking until there is one, so an unpark that comes
//! before the park is never lost. The stand-in keeps the token under one of shuttle's
//! mutexes with a condition variable; `park_timeout` waits like `park`, since shuttle
//! does not model time: a timeout is never counted on to end a wait, and threads that
//! all wait with no token to come are reported as a deadlock.

#[cfg(not(shuttle))]
pub(crate) use crossbeam_utils::sync::{Parker, Unparker};

#[cfg(shuttle)]
pub(crate) use stand_in::{Parker, Unparker};

#[cfg(shuttle)]
mod stand_in {
    use std::sync::Arc;
    use std::time::Duration;

    use shuttle::sync::{Condvar, Mutex};

    struct Token {
        available: Mutex<bool>,
        changed: Condvar,
    }

    /// The parking end, owned by the thread that parks.
    pub(crate) struct Parker {
        unparker: Unparker,
    }

    /// The waking end: any thread, any number of clones.
    #[derive(Clone)]
    pub(crate) struct Unparker {
        token: Arc<Token>,
    }

    impl Default for Parker {
        fn default() -> Self {
            Parker::new()
        }
    }

    impl Parker {
        pub(crate) fn new() -> Self {
            Parker {
                unparker: Unparker {
                    token: Arc::new(Token {
                        available: Mutex::new(false),
                        changed: Condvar::new(),
                    }),
                },
            }
        }

        /// Blocks until the token is available, and takes it.
        pub(crate) fn park(&self) {
            let token = &self.unparker.token;
            let mut available = token
                .available
                .lock()
                .expect("a model stops at its first panic");
            while !*available {
                available = token
                    .changed
                    .wait(available)
                    .expect("a model stops at its first panic");
            }
            *available = false;
        }

        /// As [`Parker::park`]: shuttle has no clock to end the wait.
        pub(crate) fn park_timeout(&self, _timeout: Duration) {
            self.park();
        }

        pub(crate) fn unparker(&self) -> &Unparker {
            &self.unparker
        }
    }

    impl Unparker {
        /// Makes the token available, waking the parked thread if there is one.
        pub(crate) fn unpark(&self) {
            let mut available = self
                .token
                .available
                .lock()
                .expect("a model stops at its first panic");
            *available = true;
            self.token.changed.notify_one();
        }
    }
}
