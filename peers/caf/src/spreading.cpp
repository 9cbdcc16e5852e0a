// spreading: a binary tree of actors (libcppa's "actor creation" test).
//
// CAF mapping: a `spread_node` is a stateful event-based actor spawned with
// its depth d and its parent's handle. With d = 0 it sends 1 to its parent and
// quits without ever running a handler. Otherwise it spawns two child nodes
// with d-1, each told its parent (this node) at spawn; its one handler adds
// the two counts as plain messages arrive and, after the second, sends the sum
// to its own parent and quits, as CAF's own actor-creation benchmark does (no
// request ids or response handlers). The root actor answers the driver's
// `run` request: it spawns the top node with itself as parent and delivers
// the count that comes back.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using spread_atom = caf::atom_constant<caf::atom("spread")>;

struct node_state {
  uint64_t sum = 0;
  int pending = 0;
};

using node_actor = caf::stateful_actor<node_state>;

caf::behavior spread_node(node_actor* self, uint32_t depth,
                          caf::actor parent) {
  if (depth == 0) {
    self->send(parent, spread_atom::value, uint64_t{1});
    self->quit();
    return {};
  }
  auto me = caf::actor_cast<caf::actor>(self);
  self->spawn(spread_node, depth - 1, me);
  self->spawn(spread_node, depth - 1, me);
  self->state.pending = 2;
  return {
    [=](spread_atom, uint64_t count) {
      auto& st = self->state;
      st.sum += count;
      if (--st.pending == 0) {
        self->send(parent, spread_atom::value, st.sum);
        self->quit();
      }
    },
  };
}

struct root_state {
  caf::response_promise done;
};

caf::behavior spread_root(caf::stateful_actor<root_state>* self,
                          uint32_t depth) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      self->spawn(spread_node, depth, caf::actor_cast<caf::actor>(self));
      return self->state.done;
    },
    [=](spread_atom, uint64_t count) {
      self->state.done.deliver(count);
      self->quit();
    },
  };
}

} // namespace

outcome run_spreading(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(spread_root, static_cast<uint32_t>(args.get("depth")));
  uint64_t count = 0;
  await_reply(
    sys, root, [&](uint64_t v) { count = v; }, run_atom::value);
  return {std::to_string(count), ""};
}

} // namespace suite
