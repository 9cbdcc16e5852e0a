// pingpong: request/reply latency between two actors (Savina).
//
// CAF mapping: the root is the pinger, a stateful event-based actor. On `run`
// it spawns the ponger and sends it the first `ping` as a plain asynchronous
// message. The ponger's handler returns `pong`, which CAF sends back to the
// sender of the `ping` as an ordinary message (no request id, no response
// handler to register). The pinger counts every `pong` it receives and sends
// the next `ping` from that handler, so exactly one ping is in flight. After
// `pings` pongs it stops the ponger and delivers its count to the driver.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using ping_atom = caf::atom_constant<caf::atom("ping")>;
using pong_atom = caf::atom_constant<caf::atom("pong")>;

caf::behavior ponger(caf::event_based_actor* self) {
  return {
    [](ping_atom) { return pong_atom::value; },
    [=](stop_atom) { self->quit(); },
  };
}

struct pinger_state {
  caf::actor ponger;
  uint64_t pongs = 0;
  caf::response_promise done;
};

using pinger_actor = caf::stateful_actor<pinger_state>;

void finish(pinger_actor* self) {
  self->send(self->state.ponger, stop_atom::value);
  self->state.done.deliver(self->state.pongs);
  self->quit();
}

caf::behavior pinger(pinger_actor* self, uint64_t pings) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.ponger = self->spawn(ponger);
      if (pings == 0)
        finish(self);
      else
        self->send(st.ponger, ping_atom::value);
      return st.done;
    },
    [=](pong_atom) {
      auto& st = self->state;
      if (++st.pongs < pings)
        self->send(st.ponger, ping_atom::value);
      else
        finish(self);
    },
  };
}

} // namespace

outcome run_pingpong(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(pinger, args.get("pings"));
  uint64_t pongs = 0;
  await_reply(
    sys, root, [&](uint64_t n) { pongs = n; }, run_atom::value);
  return {std::to_string(pongs), ""};
}

} // namespace suite
