// threadring: one token hopping around a ring of actors.
//
// CAF mapping: each ring member is a function-based stateful actor
// (`ring_node`) that knows its 1-based id and its successor. The root
// (`ring_master`) answers the driver's `run` request with a response promise:
// it spawns the members, tells each its successor with a `next` message, and
// sends (`token`, hops) to member 1. A member that receives token 0 sends
// (`winner`, id) to the root; any other token t goes on to the successor as
// t-1. The root delivers the winner's id to the promise and stops every member
// (the ring references itself, so members must be told to quit).
//
// Ordering: the root enqueues every `next` before it sends the token, so a
// member always knows its successor before the token can reach it.
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using next_atom = caf::atom_constant<caf::atom("next")>;
using token_atom = caf::atom_constant<caf::atom("token")>;
using winner_atom = caf::atom_constant<caf::atom("winner")>;

struct node_state {
  uint32_t id = 0;
  caf::actor next;
};

caf::behavior ring_node(caf::stateful_actor<node_state>* self, uint32_t id,
                        caf::actor master) {
  self->state.id = id;
  return {
    [=](next_atom, const caf::actor& next) { self->state.next = next; },
    [=](token_atom, uint64_t token) {
      if (token == 0)
        self->send(master, winner_atom::value, self->state.id);
      else
        self->send(self->state.next, token_atom::value, token - 1);
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct master_state {
  std::vector<caf::actor> ring;
  caf::response_promise done;
};

caf::behavior ring_master(caf::stateful_actor<master_state>* self,
                          uint32_t actors, uint64_t hops) {
  return {
    [=](run_atom) {
      auto& ring = self->state.ring;
      ring.reserve(actors);
      for (uint32_t id = 1; id <= actors; ++id)
        ring.push_back(
          self->spawn(ring_node, id, caf::actor_cast<caf::actor>(self)));
      for (size_t i = 0; i < ring.size(); ++i)
        self->send(ring[i], next_atom::value, ring[(i + 1) % ring.size()]);
      self->send(ring.front(), token_atom::value, hops);
      self->state.done = self->make_response_promise();
      return self->state.done;
    },
    [=](winner_atom, uint32_t id) {
      for (const auto& node : self->state.ring)
        self->send(node, stop_atom::value);
      self->state.done.deliver(id);
      self->quit();
    },
  };
}

} // namespace

outcome run_threadring(caf::actor_system& sys, const bench_args& args) {
  auto actors = static_cast<uint32_t>(args.get("actors"));
  auto root = sys.spawn(ring_master, actors, args.get("hops"));
  uint32_t winner = 0;
  await_reply(
    sys, root, [&](uint32_t id) { winner = id; }, run_atom::value);
  return {std::to_string(winner), ""};
}

} // namespace suite
