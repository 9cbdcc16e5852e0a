//! The reactor futures inside actors may use: with the `tokio` feature, a tokio runtime
//! the system owns or is given.
//!
//! # How it works
//!
//! Futures inside actors are polled on footlights' workers ([`crate::Context::run_future`]),
//! never on tokio's. What tokio's I/O and timer types need is a *context*: creating a
//! socket or a sleep registers it with the driver of the runtime that is current on the
//! thread, and the driver's thread wakes the waker it was last polled with. So each poll
//! of an actor's future enters the system's runtime ([`Reactor::enter`]: a thread-local
//! set and reset), and the driver wakes footlights' waker, which schedules the actor.
//!
//! The runtime is the one given to [`crate::Builder::tokio`], or else one the system makes
//! the first time a future is polled: multi-threaded with one worker, which, having no
//! tasks of its own, spends its time parked on the I/O and timer drivers. (A given
//! runtime must drive its I/O: a multi-threaded one does; a current-thread one only while
//! some thread runs `block_on` on it.) The system's own runtime is shut down in the
//! background when the system is dropped, so dropping a system never blocks on it.
//! Futures may also `tokio::spawn` onto it.

use std::sync::OnceLock;

use tokio::runtime::{EnterGuard, Handle, Runtime};

/// The tokio runtime of a system; see the module documentation.
pub(crate) struct Reactor {
    /// A runtime given by the builder.
    given: Option<Handle>,
    /// The system's own runtime, made on first use when none was given.
    own: OnceLock<Owned>,
}

/// A runtime the system made, shut down without blocking when the system goes.
struct Owned {
    handle: Handle,
    runtime: Option<Runtime>,
}

impl Drop for Owned {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Reactor {
    /// A reactor running on `given`, or on a runtime of its own (made when first used).
    pub(crate) fn new(given: Option<Handle>) -> Reactor {
        Reactor {
            given,
            own: OnceLock::new(),
        }
    }

    /// The runtime's handle.
    pub(crate) fn handle(&self) -> &Handle {
        if let Some(given) = &self.given {
            return given;
        }
        &self
            .own
            .get_or_init(|| {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("footlights-tokio")
                    .enable_all()
                    .build()
                    .unwrap_or_else(|e| panic!("footlights: cannot start a tokio runtime: {e}"));
                Owned {
                    handle: runtime.handle().clone(),
                    runtime: Some(runtime),
                }
            })
            .handle
    }

    /// Makes the runtime current on this thread until the guard is dropped.
    pub(crate) fn enter(&self) -> EnterGuard<'_> {
        self.handle().enter()
    }
}
