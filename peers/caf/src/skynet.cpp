// skynet: a tree of actors that sum the numbers of their leaves.
//
// CAF mapping: a `skynet_node` is a stateful event-based actor spawned with
// (num, size) and its parent's handle. With size 1 it sends num to its parent
// and quits without ever running a handler. Otherwise it spawns `div` child
// nodes for (num + k*size/div, size/div), k = 0..div-1, each told its parent
// (this node) at spawn; its one handler adds the children's sums as plain
// messages arrive and, after the last, sends the total to its own parent and
// quits. Parent handles travel at spawn, so no request ids or response
// handlers are involved, as in CAF's own actor-creation benchmark. The root
// actor answers the driver's `run` request: it spawns the top node with itself
// as parent and delivers the sum that comes back.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using sum_atom = caf::atom_constant<caf::atom("sum")>;

struct node_state {
  uint64_t sum = 0;
  uint64_t pending = 0;
};

using node_actor = caf::stateful_actor<node_state>;

caf::behavior skynet_node(node_actor* self, uint64_t num, uint64_t size,
                          uint64_t div, caf::actor parent) {
  if (size == 1) {
    self->send(parent, sum_atom::value, num);
    self->quit();
    return {};
  }
  auto step = size / div;
  auto me = caf::actor_cast<caf::actor>(self);
  for (uint64_t k = 0; k < div; ++k)
    self->spawn(skynet_node, num + k * step, step, div, me);
  self->state.pending = div;
  return {
    [=](sum_atom, uint64_t value) {
      auto& st = self->state;
      st.sum += value;
      if (--st.pending == 0) {
        self->send(parent, sum_atom::value, st.sum);
        self->quit();
      }
    },
  };
}

struct root_state {
  caf::response_promise done;
};

caf::behavior skynet_root(caf::stateful_actor<root_state>* self, uint64_t size,
                          uint64_t div) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      self->spawn(skynet_node, uint64_t{0}, size, div,
                  caf::actor_cast<caf::actor>(self));
      return self->state.done;
    },
    [=](sum_atom, uint64_t sum) {
      self->state.done.deliver(sum);
      self->quit();
    },
  };
}

} // namespace

outcome run_skynet(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(skynet_root, args.get("size"), args.get("div"));
  uint64_t sum = 0;
  await_reply(
    sys, root, [&](uint64_t v) { sum = v; }, run_atom::value);
  return {std::to_string(sum), ""};
}

} // namespace suite
