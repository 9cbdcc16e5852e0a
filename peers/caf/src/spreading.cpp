// spreading: a binary tree of actors (libcppa's "actor creation" test).
//
// CAF mapping: a `spread_node` is a stateful event-based actor that serves
// one (`spread`, d) request. With d = 0 it replies 1 and quits. Otherwise it
// keeps a response promise, spawns two child nodes, requests d-1 from each
// with `request(...).then(...)`, adds the two replies and, after the second,
// delivers the sum and quits. The driver's request goes to the root node.
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
  caf::response_promise reply;
};

using node_actor = caf::stateful_actor<node_state>;

caf::behavior spread_node(node_actor* self) {
  return {
    [=](spread_atom, uint32_t depth) -> caf::response_promise {
      if (depth == 0) {
        self->quit();
        return self->response(uint64_t{1});
      }
      auto& st = self->state;
      st.reply = self->make_response_promise();
      st.pending = 2;
      for (int child = 0; child < 2; ++child) {
        self
          ->request(self->spawn(spread_node), caf::infinite,
                    spread_atom::value, depth - 1)
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

outcome run_spreading(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(spread_node);
  uint64_t sum = 0;
  await_reply(
    sys, root, [&](uint64_t v) { sum = v; }, spread_atom::value,
    static_cast<uint32_t>(args.get("depth")));
  return {std::to_string(sum), ""};
}

} // namespace suite
