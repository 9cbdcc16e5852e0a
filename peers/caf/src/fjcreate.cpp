// fjcreate: fork-join creation, many actors that handle one message (Savina).
//
// CAF mapping: the root is the creator and the collector, a stateful
// event-based actor. On `run` it spawns `actors` event-based actors one after
// the other and sends actor k a plain `(msg, k)` right after spawning it,
// without waiting in between. Actor k computes `step(k)`, sends it to the root
// as `(done, value)` and quits. The root counts the reports and sums their
// values; after the last it delivers HANDLED:DIGEST to the driver.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using msg_atom = caf::atom_constant<caf::atom("msg")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

caf::behavior forked(caf::event_based_actor* self, caf::actor collector) {
  return {
    [=](msg_atom, uint64_t k) {
      self->send(collector, done_atom::value, step(k));
      self->quit();
    },
  };
}

struct creator_state {
  uint64_t handled = 0;
  uint64_t digest = 0;
  caf::response_promise done;
};

caf::behavior creator(caf::stateful_actor<creator_state>* self,
                      uint64_t actors) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint64_t k = 0; k < actors; ++k) {
        auto a = self->spawn(forked, me);
        self->send(a, msg_atom::value, k);
      }
      return self->state.done;
    },
    [=](done_atom, uint64_t value) {
      auto& st = self->state;
      st.digest += value;
      if (++st.handled == actors) {
        st.done.deliver(st.handled, st.digest);
        self->quit();
      }
    },
  };
}

} // namespace

outcome run_fjcreate(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(creator, args.get("actors"));
  uint64_t handled = 0;
  uint64_t digest = 0;
  await_reply(
    sys, root,
    [&](uint64_t h, uint64_t d) {
      handled = h;
      digest = d;
    },
    run_atom::value);
  return {std::to_string(handled) + ":" + std::to_string(digest), ""};
}

} // namespace suite
