//! What every benchmark run shares: starting the system, waiting for the answer, ending.
//!
//! Every benchmark ends the same way. One actor (a tally, a sink, a collector, or the root
//! of a tree of actors) holds the [`ReplyTo`](footlights::ReplyTo) half of a
//! [`footlights::reply::pair`], and answers with what the actors counted or summed. The
//! main thread waits on the other half with [`await_answer`], and that wait is where the
//! contract's "never hang" is kept, in two ways:
//!
//! 1. **Quiescence.** If the system goes quiet (no actor running or queued, no message in
//!    any mailbox) while the answer has not come, nothing is left that could ever send it:
//!    the run is stuck, and it fails at once with a clear message instead of waiting.
//!    The answer is looked at once more after the system is seen quiet, because the last
//!    handler may have answered just before it went idle.
//! 2. **A deadline** of [`DEADLINE`], for a run that keeps busy but never finishes.
//!
//! The main thread does not block inside [`Reply::wait_timeout`], which would give up the
//! reply when the time runs out; it polls the reply as the [`Future`] it is, with a waker
//! that unparks the main thread the moment the answer arrives, and looks at the system
//! between polls (every [`LOOK_EVERY`]).
//!
//! A run that fails leaves its worker threads to the end of the process rather than
//! joining them: joining could wait for the very actor that is stuck.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use footlights::{Reply, System};

/// The longest a run may take before it is reported as failed.
pub const DEADLINE: Duration = Duration::from_secs(30 * 60);

/// How often the waiting main thread looks at whether the system has gone quiet.
pub const LOOK_EVERY: Duration = Duration::from_millis(20);

/// Starts a footlights system with the thread count from `FOOTLIGHTS_THREADS` (else the
/// available parallelism). A bad value is a run error.
pub fn start() -> Result<System, String> {
    System::builder()
        .build()
        .map_err(|e| format!("cannot start the footlights runtime: {e}"))
}

/// Waits for the answer of a run on `system`; see the module documentation. `what` names
/// the answer in error messages ("the id of the winner", "the sum at the root", ...).
pub fn await_answer<T>(system: &System, mut reply: Reply<T>, what: &str) -> Result<T, String> {
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let deadline = Instant::now() + DEADLINE;
    loop {
        if let Poll::Ready(outcome) = Pin::new(&mut reply).poll(&mut cx) {
            return outcome.map_err(|_| {
                format!(
                    "{what} never came: the actor holding the reply dropped it unanswered{}",
                    dead_letters(system)
                )
            });
        }
        if system.is_quiescent() {
            if let Poll::Ready(Ok(answer)) = Pin::new(&mut reply).poll(&mut cx) {
                return Ok(answer);
            }
            return Err(format!(
                "the run is stuck: every actor is idle and no message is in flight, \
                 but {what} never came{}",
                dead_letters(system)
            ));
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(format!(
                "{what} did not come within {} s{}",
                DEADLINE.as_secs(),
                dead_letters(system)
            ));
        }
        thread::park_timeout(LOOK_EVERY.min(deadline - now));
    }
}

/// A note on messages that reached stopped actors and were dropped, if there were any: the
/// usual trace of an answer that went missing.
fn dead_letters(system: &System) -> String {
    match system.metrics().dead_letters {
        0 => String::new(),
        1 => " (1 message reached a stopped actor and was dropped)".to_owned(),
        n => format!(" ({n} messages reached stopped actors and were dropped)"),
    }
}

/// Ends a system after a run: a successful run shuts it down (joining its workers, which
/// are idle by then); a failed one is left to the end of the process (module docs).
pub fn finish<T>(system: System, result: &Result<T, String>) {
    if result.is_ok() {
        let _ = system.shutdown();
    } else {
        std::mem::forget(system);
    }
}

/// Wakes the waiting main thread when the answer arrives.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use footlights::{Actor, ReplyTo};

    /// Holds a reply and never answers it, as a buggy collector would.
    struct Forgetful {
        _kept: Option<ReplyTo<u64>>,
    }

    impl Actor for Forgetful {
        type Msg = ReplyTo<u64>;
        fn handle(&mut self, _ctx: &mut footlights::Context<Self>, reply: ReplyTo<u64>) {
            self._kept = Some(reply);
        }
    }

    #[test]
    fn a_stuck_run_fails_at_once() {
        let system = System::builder().threads(1).build().unwrap();
        let forgetful = system.spawn(Forgetful { _kept: None });
        let (reply_to, reply) = footlights::reply::pair();
        forgetful.send(reply_to).unwrap();
        let begun = Instant::now();
        let err = await_answer(&system, reply, "the answer").unwrap_err();
        assert!(err.contains("stuck"), "{err}");
        assert!(begun.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_dropped_reply_fails() {
        let system = System::builder().threads(1).build().unwrap();
        let (reply_to, reply) = footlights::reply::pair::<u64>();
        drop(reply_to);
        let err = await_answer(&system, reply, "the answer").unwrap_err();
        assert!(err.contains("dropped"), "{err}");
    }

    #[test]
    fn an_answer_from_another_thread_arrives() {
        let system = System::builder().threads(1).build().unwrap();
        let (reply_to, reply) = footlights::reply::pair::<u64>();
        // The system is quiet, but the answer is already there when it is looked at.
        reply_to.send(7).unwrap();
        assert_eq!(await_answer(&system, reply, "the answer"), Ok(7));
    }
}
