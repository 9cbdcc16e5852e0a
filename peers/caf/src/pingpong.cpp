// pingpong: request/reply latency between two actors (Savina).
//
// CAF mapping: the root is the pinger, a stateful event-based actor. On `run`
// it spawns the ponger, whose one handler answers `ping` with `pong`. The
// pinger sends each ping with `request(ponger, ping).then(...)` and sends the
// next one from the `then` continuation, so exactly one ping is in flight.
// It counts the pongs it receives; after `pings` of them it stops the ponger
// and delivers the count.
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

void ping(pinger_actor* self, uint64_t pings) {
  self->request(self->state.ponger, caf::infinite, ping_atom::value)
    .then([=](pong_atom) {
      if (++self->state.pongs < pings)
        ping(self, pings);
      else
        finish(self);
    });
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
        ping(self, pings);
      return st.done;
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
