// fibtree: one actor per call of the doubly recursive Fibonacci function.
//
// CAF mapping: a `fib_node` is a stateful event-based actor spawned with n and
// its parent's handle. For n <= 2 it sends fib(n) (0, 1, 1) to its parent and
// quits without ever running a handler. Otherwise it spawns two child nodes
// for n-1 and n-2, each told its parent (this node) at spawn; its one handler
// adds the two values as plain messages arrive and, after the second, sends
// the sum to its own parent and quits. No request ids or response handlers
// are involved, as in CAF's own actor-creation benchmark. The root actor
// answers the driver's `run` request: it spawns the top node with itself as
// parent and delivers the value that comes back.
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
};

using fib_actor = caf::stateful_actor<fib_state>;

caf::behavior fib_node(fib_actor* self, uint32_t n, caf::actor parent) {
  if (n <= 2) {
    self->send(parent, fib_atom::value, uint64_t{n == 0 ? 0u : 1u});
    self->quit();
    return {};
  }
  auto me = caf::actor_cast<caf::actor>(self);
  self->spawn(fib_node, n - 1, me);
  self->spawn(fib_node, n - 2, me);
  self->state.pending = 2;
  return {
    [=](fib_atom, uint64_t value) {
      auto& st = self->state;
      st.sum += value;
      if (--st.pending == 0) {
        self->send(parent, fib_atom::value, st.sum);
        self->quit();
      }
    },
  };
}

struct root_state {
  caf::response_promise done;
};

caf::behavior fib_root(caf::stateful_actor<root_state>* self, uint32_t n) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      self->spawn(fib_node, n, caf::actor_cast<caf::actor>(self));
      return self->state.done;
    },
    [=](fib_atom, uint64_t value) {
      self->state.done.deliver(value);
      self->quit();
    },
  };
}

} // namespace

outcome run_fibtree(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(fib_root, static_cast<uint32_t>(args.get("n")));
  uint64_t value = 0;
  await_reply(
    sys, root, [&](uint64_t v) { value = v; }, run_atom::value);
  return {std::to_string(value), ""};
}

} // namespace suite
