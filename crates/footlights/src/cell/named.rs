//! A named actor: the mark that makes its stop take its names out of the registry.
//!
//! The registry itself ([`crate::registry`]) lives above the cell; the cell knows only
//! that an actor was given a name, from the `NAMED` bit of its lifecycle word
//! ([`super::lifecycle`]), and tells its environment when such an actor stops
//! ([`super::Env::forget_names`]).
//!
//! # Why no name outlives its actor
//!
//! A registration first makes its entry in the registry, then sets `NAMED` ([`mark`]); a
//! stop first sets `STOPPED`, then reads the word for `NAMED` ([`held`]). The two
//! read-modify-writes of one word come in some order. If the mark comes first, the stop's
//! read, which follows its own write, sees `NAMED` (and, acquiring the mark's release,
//! the entry made before it), so the stop takes the names out. If the stop's write comes
//! first, the mark sees `STOPPED`, and the registration takes its own entry out. Both may
//! remove; removing is idempotent. The loom model below checks every interleaving.
//!
//! An actor that never had a name pays, on its stop, one load of a word its stop has just
//! written, and one test; the call is out of line.

use std::sync::Arc;

use super::lifecycle::{Life, NAMED, STOPPED};
use super::{ActorCell, Behaviour, Env};

/// The registration's side: marks the actor named. `false` if it had stopped already.
fn mark(life: &Life) -> bool {
    life.set(NAMED) & STOPPED == 0
}

/// The stop's side, after it has set `STOPPED`: whether the actor holds a name.
#[inline]
pub(super) fn held(life: &Life) -> bool {
    life.has(NAMED)
}

impl<B: Behaviour> ActorCell<B> {
    /// Marks the actor as holding a name, after its entry was made. `false` if it had
    /// stopped already: its stop did not see the mark, so the caller takes the entry out.
    pub(crate) fn mark_named(&self) -> bool {
        mark(&self.life)
    }

    /// The stop of a named actor: its environment takes its names out.
    #[cold]
    #[inline(never)]
    pub(super) fn forget_names(&self, me: &Arc<B::Node>) {
        self.env.forget_names(Arc::as_ptr(me).cast());
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.
    use super::*;
    use crate::sync::Mutex;
    use loom::sync::Arc;
    use loom::thread;

    /// A registration racing the actor's stop, each side as the runtime does it (the
    /// table stands for the registry): no entry is left behind.
    #[test]
    fn a_registration_racing_the_stop_leaves_no_name() {
        loom::model(|| {
            let life = Arc::new(Life::new(false));
            let table = Arc::new(Mutex::new(None::<&str>));
            let registrar = {
                let (life, table) = (Arc::clone(&life), Arc::clone(&table));
                thread::spawn(move || {
                    *table.lock() = Some("name");
                    if !mark(&life) {
                        table.lock().take();
                    }
                })
            };
            life.set(STOPPED);
            if held(&life) {
                table.lock().take();
            }
            registrar.join().unwrap();
            assert_eq!(*table.lock(), None, "a name outlived its actor");
        });
    }
}
