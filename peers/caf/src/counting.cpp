// counting: one producer, one counter actor, then one query (Savina).
//
// CAF mapping: the root is the producer, a stateful event-based actor. On
// `run` it spawns the counter, sends it `count` `increment` messages in one
// handler, then asks `request(counter, value).then(...)`. The counter adds
// one per increment and answers `value` with its total; messages from one
// sender arrive in order, so the query is answered after every increment.
// The producer stops the counter and delivers the answer.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using increment_atom = caf::atom_constant<caf::atom("increment")>;
using value_atom = caf::atom_constant<caf::atom("value")>;

struct counter_state {
  uint64_t total = 0;
};

caf::behavior counter(caf::stateful_actor<counter_state>* self) {
  return {
    [=](increment_atom) { ++self->state.total; },
    [=](value_atom) { return self->state.total; },
    [=](stop_atom) { self->quit(); },
  };
}

struct producer_state {
  caf::response_promise done;
};

caf::behavior producer(caf::stateful_actor<producer_state>* self,
                       uint64_t count) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      auto counter_actor = self->spawn(counter);
      for (uint64_t i = 0; i < count; ++i)
        self->send(counter_actor, increment_atom::value);
      self->request(counter_actor, caf::infinite, value_atom::value)
        .then([=](uint64_t value) {
          self->send(counter_actor, stop_atom::value);
          self->state.done.deliver(value);
          self->quit();
        });
      return self->state.done;
    },
  };
}

} // namespace

outcome run_counting(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(producer, args.get("count"));
  uint64_t value = 0;
  await_reply(
    sys, root, [&](uint64_t n) { value = n; }, run_atom::value);
  return {std::to_string(value), ""};
}

} // namespace suite
