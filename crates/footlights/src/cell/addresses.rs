//! Garbage collection: the count of an actor's addresses, and its generation.
//!
//! # The algorithm
//!
//! The cell counts its [`crate::Addr`]s in one atomic word, together with a *generation*:
//! how many times the count has fallen to zero. The address dropped last pushes a
//! `Collect` signal carrying the new generation through the mailbox. Going through the
//! mailbox is what makes collection exact: the push either finds the actor idle (and
//! schedules it, like any message) or finds it scheduled (and its worker will pop the
//! signal), so it cannot be missed; and every message sent before that address went away
//! is ahead of it in the queue.
//!
//! A handler may make a new address ([`crate::Context::addr`], or a pending
//! [`crate::Context::then`]) after the count fell to zero; its messages may then sit
//! behind the signal. So the actor stops only if, when its turn reaches the signal, the
//! count is zero *and* the generation is still the signal's
//! ([`Addresses::unreachable_since`]): no address has existed since, so every message ever
//! sent to it has been handled, and nothing can reach it again.
//!
//! The loom model at the bottom of this file checks that against a new address made and
//! dropped while the last old one goes (`RUSTFLAGS="--cfg loom"`).

use crate::sync::{AtomicU64, Ordering};

/// The address count's bits.
const COUNT: u64 = 0xFFFF_FFFF;
/// One generation.
const GENERATION: u64 = 1 << 32;

/// Live addresses (low 32 bits) and the generation (high 32 bits); see the module
/// documentation.
pub(crate) struct Addresses(AtomicU64);

impl Addresses {
    /// One address, generation 0.
    pub(crate) fn new() -> Addresses {
        Addresses(AtomicU64::new(1))
    }

    /// Counts a new address. An address exists already (the one cloned), or the actor is
    /// running (a handler makes one of its own), so the generation is untouched.
    pub(crate) fn add(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an address dropped. If it was the last one, returns the new generation, for
    /// the `Collect` signal the caller must send.
    pub(crate) fn release(&self) -> Option<u32> {
        let mut current = self.0.load(Ordering::Relaxed);
        loop {
            let last = current & COUNT == 1;
            let next = if last {
                (current & !COUNT).wrapping_add(GENERATION)
            } else {
                current - 1
            };
            match self
                .0
                .compare_exchange_weak(current, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) if last => return Some((next >> 32) as u32),
                Ok(_) => return None,
                Err(seen) => current = seen,
            }
        }
    }

    /// Whether a `Collect` signal of `generation` finds the actor unreachable for good.
    pub(crate) fn unreachable_since(&self, generation: u32) -> bool {
        let word = self.0.load(Ordering::Acquire);
        word & COUNT == 0 && (word >> 32) as u32 == generation
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn the_last_address_makes_a_generation() {
        let a = Addresses::new();
        a.add();
        assert_eq!(a.release(), None);
        assert_eq!(a.release(), Some(1));
        assert!(a.unreachable_since(1));
        a.add(); // a handler made an address after the count fell to zero
        assert!(!a.unreachable_since(1));
        assert_eq!(a.release(), Some(2));
        assert!(
            !a.unreachable_since(1),
            "an old signal finds a newer generation"
        );
        assert!(a.unreachable_since(2));
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use crate::mailbox::Mailbox;
    use loom::sync::Arc;
    use loom::thread;

    enum Letter {
        Msg,
        Collect(u32),
    }

    /// The actor's worker pops what is linked and handles it: a message is counted (it
    /// must not come after the actor was collected), a signal collects the actor if it
    /// finds it unreachable.
    fn turn(m: &Mailbox<Letter>, addresses: &Addresses, handled: &mut u32, collected: &mut u32) {
        // SAFETY: the calling thread is the mailbox's only consumer.
        while let Some(letter) = unsafe { m.pop() } {
            match letter {
                Letter::Msg => {
                    assert_eq!(*collected, 0, "a message reached a collected actor");
                    *handled += 1;
                }
                Letter::Collect(generation) => {
                    if addresses.unreachable_since(generation) {
                        *collected += 1;
                    }
                }
            }
        }
    }

    fn drop_address(m: &Mailbox<Letter>, addresses: &Addresses) {
        if let Some(generation) = addresses.release() {
            m.push(Letter::Collect(generation));
        }
    }

    /// The last address of an actor is dropped on one thread while the running actor makes
    /// a new address of its own (a `Context::addr`) and hands it to another thread, which
    /// sends one message on it and drops it. Whatever the interleaving, the actor is
    /// collected exactly once, and only after that message has been handled.
    #[test]
    fn the_last_address_racing_a_new_one() {
        loom::model(|| {
            let m = Arc::new(Mailbox::new());
            // SAFETY: final address inside the Arc, not shared yet; the actor is running.
            unsafe { m.init(false) };
            let addresses = Arc::new(Addresses::new());
            let holder = {
                let (m, addresses) = (Arc::clone(&m), Arc::clone(&addresses));
                thread::spawn(move || drop_address(&m, &addresses))
            };
            addresses.add();
            let helper = {
                let (m, addresses) = (Arc::clone(&m), Arc::clone(&addresses));
                thread::spawn(move || {
                    m.push(Letter::Msg);
                    drop_address(&m, &addresses);
                })
            };
            let (mut handled, mut collected) = (0, 0);
            // Turns of the actor (this thread is its consumer), between the others' steps.
            turn(&m, &addresses, &mut handled, &mut collected);
            holder.join().unwrap();
            turn(&m, &addresses, &mut handled, &mut collected);
            helper.join().unwrap();
            turn(&m, &addresses, &mut handled, &mut collected);
            assert_eq!(handled, 1, "the message was handled");
            assert_eq!(collected, 1, "collected once, when nothing could reach it");
        });
    }
}
