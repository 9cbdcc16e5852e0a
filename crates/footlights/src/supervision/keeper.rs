//! The supervisor's actor: links its children, forgets those that stop for good, and
//! stops when its group gave up. (Restarts need no turn of it: see [`super::group`].)

use std::sync::Arc;

use super::group::Group;
use crate::cell::{Down, ExitReason};
use crate::runtime;
use crate::{Actor, Context};

/// The actor behind a [`super::Supervisor`]; see the module documentation of
/// [`super`].
pub(crate) struct Keeper {
    pub(crate) group: Arc<Group>,
}

/// What a supervisor's actor is told.
pub(crate) enum Msg {
    /// The child `key` was added: link it.
    Adopt(u64),
    /// A linked child stopped for good (exits are trapped).
    Down(Down),
}

impl std::fmt::Debug for Keeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Supervisor")
            .field("strategy", &self.group.strategy)
            .finish_non_exhaustive()
    }
}

impl Actor for Keeper {
    type Msg = Msg;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.trap_exits(Msg::Down);
    }

    fn handle(&mut self, ctx: &mut Context<Self>, msg: Msg) {
        match msg {
            Msg::Adopt(key) => self.group.link(key, ctx),
            Msg::Down(down) => {
                self.group.remove(down.actor);
                if self.group.gave_up() {
                    // Too many restarts: the children stop, then the supervisor, for a
                    // reason its own watchers see.
                    for entry in self.group.take_all() {
                        entry.child.stop();
                    }
                    runtime::kill_for(ctx.addr().node(), ExitReason::TooManyRestarts);
                }
            }
        }
    }

    fn stopped(&mut self, _: &mut Context<Self>) {
        // However the supervisor stops, its children stop (the last added first), and
        // the group lets go of them.
        for entry in self.group.take_all() {
            entry.child.stop();
        }
    }
}
