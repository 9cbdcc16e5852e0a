// fibtree: one actor per call of the doubly recursive Fibonacci function.
//
// CAF mapping: a `fib_node` is a stateful event-based actor that serves one
// (`fib`, n) request. For n <= 2 it replies fib(n) (0, 1, 1) at once and
// quits. Otherwise it keeps a response promise, spawns two fresh `fib_node`s,
// requests n-1 and n-2 from them with `request(...).then(...)`, adds the two
// replies as they arrive and, after the second, delivers the sum to its own
// requester and quits. The driver's request goes to the root node.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using fib_atom = caf::atom_constant<caf::atom("fib")>;

struct fib_state {
  uint64_t sum = 0;
  int pending = 0;
  caf::response_promise reply;
};

using fib_actor = caf::stateful_actor<fib_state>;

caf::behavior fib_node(fib_actor* self) {
  return {
    [=](fib_atom, uint32_t n) -> caf::response_promise {
      if (n <= 2) {
        self->quit();
        return self->response(uint64_t{n == 0 ? 0u : 1u});
      }
      auto& st = self->state;
      st.reply = self->make_response_promise();
      st.pending = 2;
      for (uint32_t k : {n - 1, n - 2}) {
        self->request(self->spawn(fib_node), caf::infinite, fib_atom::value, k)
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

outcome run_fibtree(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(fib_node);
  uint64_t value = 0;
  await_reply(
    sys, root, [&](uint64_t v) { value = v; }, fib_atom::value,
    static_cast<uint32_t>(args.get("n")));
  return {std::to_string(value), ""};
}

} // namespace suite
