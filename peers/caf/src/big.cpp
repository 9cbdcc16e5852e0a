// big: many-to-many ping/pong inside neighbourhoods of workers.
//
// CAF mapping: the root is the sink, a stateful event-based actor. On `run` it
// spawns the workers one neighbourhood (`hood` workers, the last one possibly
// smaller) at a time. The members of a neighbourhood share one immutable list
// of their handles (a `shared_ptr` handed to each worker at spawn; it is
// filled before any worker is told to `start`, and the start message orders
// the fill before every read). A worker pings a uniformly random other member
// (itself if alone) with a plain `ping` message, answers pings from others by
// returning `pong` (CAF sends a handler's result back to the sender as an
// ordinary message), and sends its next ping from its `pong` handler, so each
// worker has one ping of its own in flight. After `pings` pongs it sends
// (`done`, pongs) to the sink. The sink sums the reported pongs; when every
// worker has reported, nobody pings any more, so it stops all workers and
// delivers the sum to the driver.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using ping_atom = caf::atom_constant<caf::atom("ping")>;
using pong_atom = caf::atom_constant<caf::atom("pong")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

using hood_list = std::shared_ptr<const std::vector<caf::actor>>;

struct worker_state {
  hood_list hood;
  size_t index = 0; // own position in `hood`
  uint64_t pongs = 0;
  std::minstd_rand rng;
};

using worker_actor = caf::stateful_actor<worker_state>;

void ping_someone(worker_actor* self) {
  auto& st = self->state;
  const auto& hood = *st.hood;
  auto peer = st.index;
  if (hood.size() > 1) {
    std::uniform_int_distribution<size_t> other(0, hood.size() - 2);
    peer = other(st.rng);
    if (peer >= st.index)
      ++peer; // skip self
  }
  self->send(hood[peer], ping_atom::value);
}

caf::behavior worker(worker_actor* self, hood_list hood, size_t index,
                     uint64_t pings, caf::actor sink, uint32_t seed) {
  self->state.hood = std::move(hood);
  self->state.index = index;
  self->state.rng.seed(seed);
  return {
    [](ping_atom) { return pong_atom::value; },
    [=](pong_atom) {
      if (++self->state.pongs == pings)
        self->send(sink, done_atom::value, self->state.pongs);
      else
        ping_someone(self);
    },
    [=](start_atom) {
      if (pings == 0)
        self->send(sink, done_atom::value, uint64_t{0});
      else
        ping_someone(self);
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct sink_state {
  std::vector<caf::actor> workers;
  uint64_t reported = 0;
  uint64_t pongs = 0;
  caf::response_promise done;
};

caf::behavior sink(caf::stateful_actor<sink_state>* self, uint32_t workers,
                   uint64_t pings, uint32_t hood_size) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint32_t first = 0; first < workers; first += hood_size) {
        auto members = std::make_shared<std::vector<caf::actor>>();
        auto size = std::min(hood_size, workers - first);
        members->reserve(size);
        for (uint32_t i = 0; i < size; ++i)
          members->push_back(self->spawn(worker, hood_list{members}, size_t{i},
                                         pings, me, first + i + 1));
        st.workers.insert(st.workers.end(), members->begin(), members->end());
      }
      for (const auto& w : st.workers)
        self->send(w, start_atom::value);
      st.done = self->make_response_promise();
      return st.done;
    },
    [=](done_atom, uint64_t pongs) {
      auto& st = self->state;
      st.pongs += pongs;
      if (++st.reported < st.workers.size())
        return;
      for (const auto& w : st.workers)
        self->send(w, stop_atom::value);
      st.done.deliver(st.pongs);
      self->quit();
    },
  };
}

} // namespace

outcome run_big(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(sink, static_cast<uint32_t>(args.get("workers")),
                        args.get("pings"),
                        static_cast<uint32_t>(args.get("hood")));
  uint64_t pongs = 0;
  await_reply(
    sys, root, [&](uint64_t n) { pongs = n; }, run_atom::value);
  return {std::to_string(pongs), ""};
}

} // namespace suite
