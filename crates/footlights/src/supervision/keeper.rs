//! The supervisor's actor: links its children, forgets those that stop for good, and
//! stops when its group gave up. (Restarts need no turn of it: see [`super::group`].)
//! And a supervisor as a child of another ([`Sub`]).

use std::sync::Arc;

use super::child::Child;
use super::group::{Group, restart_each};
use crate::cell::{ActorId, Down, ExitReason};
use crate::runtime;
use crate::{Actor, Addr, Context};

/// The actor behind a [`super::Supervisor`]; see the module documentation of
/// [`super`].
pub(crate) struct Keeper {
    pub(crate) group: Arc<Group>,
}

/// Links the supervisor's actor with one child: made where the child's type is known
/// (`Context::link` takes the child's address), run by [`Msg::Adopt`].
pub(crate) type Link = Box<dyn FnOnce(&Context<'_, Keeper>) + Send>;

/// What a supervisor's actor is told.
pub(crate) enum Msg {
    /// The child `key` was added: link it with this, unless it is gone already.
    Adopt(u64, Link),
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
            Msg::Adopt(key, link) => self.group.if_present(key, || link(ctx)),
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

/// A child that is a supervisor.
pub(crate) struct Sub {
    pub(crate) addr: Addr<Keeper>,
    pub(crate) group: Arc<Group>,
}

impl Child for Sub {
    fn id(&self) -> ActorId {
        self.addr.id()
    }

    fn restart(&self) {
        restart_each(self.group.restart_all(None));
    }

    fn stop(&self) {
        // Its `stopped` hook stops its children.
        runtime::kill_for(self.addr.node(), ExitReason::Stopped);
    }
}
