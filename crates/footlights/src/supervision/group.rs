//! What a supervisor shares with its children's restarts: the children in the order they
//! were added, the restart intensity's window, and whether it has given up.
//!
//! A child's restart runs on the worker of the child's failed turn and asks the group, under
//! its lock, whether one more restart is allowed; the supervisor's own turns read and
//! change the children under the same lock. Nothing runs user code under it.

use std::time::Instant;

use parking_lot::Mutex;

use super::child::{Child, Restart};
use super::strategy::{Intensity, Strategy, Window};
use crate::cell::ActorId;

/// A supervisor's children and restart accounting; see the module documentation.
pub(crate) struct Group {
    pub(crate) strategy: Strategy,
    intensity: Intensity,
    state: Mutex<State>,
}

/// One child.
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) policy: Restart,
    pub(crate) child: Box<dyn Child>,
}

struct State {
    /// In the order they were added.
    children: Vec<Entry>,
    window: Window,
    /// Set when a restart was refused: the supervisor stops.
    gave_up: bool,
}

impl Group {
    pub(crate) fn new(strategy: Strategy, intensity: Intensity) -> Group {
        Group {
            strategy,
            intensity,
            state: Mutex::new(State {
                children: Vec::new(),
                window: Window::default(),
                gave_up: false,
            }),
        }
    }

    /// Counts a restart at `now` if the intensity allows it; otherwise notes that the
    /// supervisor gives up, and refuses this and every later restart.
    pub(crate) fn admit(&self, now: Instant) -> bool {
        let mut state = self.state.lock();
        if state.gave_up {
            return false;
        }
        if state.window.admit(now, self.intensity) {
            return true;
        }
        state.gave_up = true;
        false
    }

    /// Whether a restart was refused.
    pub(crate) fn gave_up(&self) -> bool {
        self.state.lock().gave_up
    }

    /// Adds a child, spawned by `make` under the lock (so that its restart, which may run
    /// at once, finds it), and returns what `make` returned besides. `make` runs no user
    /// code (the child's first state is made before).
    pub(crate) fn add<T>(&self, make: impl FnOnce() -> (Entry, T)) -> T {
        let mut state = self.state.lock();
        let (entry, out) = make();
        state.children.push(entry);
        out
    }

    /// Forgets the child `actor` (it stopped for good).
    pub(crate) fn remove(&self, actor: ActorId) {
        let gone = {
            let mut state = self.state.lock();
            let at = state.children.iter().position(|e| e.child.id() == actor);
            at.map(|at| state.children.remove(at))
        };
        drop(gone);
    }

    /// Restarts the siblings of child `key` that its strategy says (see [`Strategy`]);
    /// temporary children are left alone.
    pub(crate) fn restart_siblings(&self, key: u64) {
        let state = self.state.lock();
        let Some(at) = state.children.iter().position(|e| e.key == key) else {
            return;
        };
        let others = state.children.iter().enumerate().filter(|(i, e)| {
            *i != at
                && e.policy != Restart::Temporary
                && match self.strategy {
                    Strategy::OneForOne => false,
                    Strategy::OneForAll => true,
                    Strategy::RestForOne => *i > at,
                }
        });
        for (_, entry) in others {
            entry.child.restart();
        }
    }

    /// Takes every child out, the last added first.
    pub(crate) fn take_all(&self) -> Vec<Entry> {
        let mut children = std::mem::take(&mut self.state.lock().children);
        children.reverse();
        children
    }

    /// Links the supervisor with the child `key`.
    pub(crate) fn link(&self, key: u64, ctx: &crate::Context<'_, super::Keeper>) {
        let state = self.state.lock();
        if let Some(entry) = state.children.iter().find(|e| e.key == key) {
            entry.child.link(ctx);
        }
    }
}
