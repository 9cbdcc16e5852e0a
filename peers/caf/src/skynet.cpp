// skynet: a tree of actors that sum the numbers of their leaves.
//
// CAF mapping: a `skynet_node` is a stateful event-based actor that serves
// one (`sum`, num, size) request. With size 1 it replies num and quits.
// Otherwise it keeps a response promise, spawns `div` child nodes, requests
// (num + k*size/div, size/div) from child k with `request(...).then(...)`,
// adds the replies as they arrive and, after the last, delivers the sum and
// quits. The driver's request goes to the root node with (0, size).
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
  caf::response_promise reply;
};

using node_actor = caf::stateful_actor<node_state>;

caf::behavior skynet_node(node_actor* self, uint64_t div) {
  return {
    [=](sum_atom, uint64_t num, uint64_t size) -> caf::response_promise {
      if (size == 1) {
        self->quit();
        return self->response(num);
      }
      auto& st = self->state;
      st.reply = self->make_response_promise();
      st.pending = div;
      auto step = size / div;
      for (uint64_t k = 0; k < div; ++k) {
        self
          ->request(self->spawn(skynet_node, div), caf::infinite,
                    sum_atom::value, num + k * step, step)
          .then([=](uint64_t value) {
            auto& st = self->state;
            st.sum += value;
            if (--st.pending == 0) {
              st.reply.deliver(st.sum);
              self->quit();
            }
          });
      }
      return st.reply;
    },
  };
}

} // namespace

outcome run_skynet(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(skynet_node, args.get("div"));
  uint64_t sum = 0;
  await_reply(
    sys, root, [&](uint64_t v) { sum = v; }, sum_atom::value, uint64_t{0},
    args.get("size"));
  return {std::to_string(sum), ""};
}

} // namespace suite
