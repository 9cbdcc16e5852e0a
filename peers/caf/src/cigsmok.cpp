// cigsmok: cigarette smokers with an arbiter (Savina).
//
// CAF mapping: the arbiter is the root, a stateful event-based actor with a
// SplitMix64 generator seeded with 0. Each round it draws s = below(smokers)
// and t = below(1000) and sends smoker s a plain `(smoke, round, t)`; the
// next round starts when that smoker's `started` arrives. A smoker (a
// stateful event-based actor) answers `smoke` by sending `started` to the
// arbiter first and then smoking: it counts the smoke and adds
// work(round, t) to its digest. After the last round the arbiter sends every
// smoker `stop`; each reports `(done, id, count, digest)` and quits. The
// arbiter adds up (id+1)*count and the digests and delivers WEIGHTED:DIGEST
// after the last report.
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using smoke_atom = caf::atom_constant<caf::atom("smoke")>;
using started_atom = caf::atom_constant<caf::atom("started")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct smoker_state {
  uint64_t count = 0;
  uint64_t digest = 0;
};

using smoker_actor = caf::stateful_actor<smoker_state>;

caf::behavior smoker(smoker_actor* self, uint64_t id, caf::actor arbiter) {
  return {
    [=](smoke_atom, uint64_t round, uint64_t t) {
      self->send(arbiter, started_atom::value);
      auto& st = self->state;
      ++st.count;
      st.digest += work(round, t);
    },
    [=](stop_atom) {
      self->send(arbiter, done_atom::value, id, self->state.count,
                 self->state.digest);
      self->quit();
    },
  };
}

struct arbiter_state {
  splitmix rng{0};
  std::vector<caf::actor> smokers;
  uint64_t round = 0;
  uint64_t reported = 0;
  uint64_t weighted = 0;
  uint64_t digest = 0;
  caf::response_promise done;
};

using arbiter_actor = caf::stateful_actor<arbiter_state>;

// Starts the next round, or stops the smokers after the last one.
void next_round(arbiter_actor* self, uint64_t rounds) {
  auto& st = self->state;
  if (st.round == rounds) {
    for (const auto& s : st.smokers)
      self->send(s, stop_atom::value);
    return;
  }
  auto s = st.rng.below(st.smokers.size());
  auto t = st.rng.below(1000);
  self->send(st.smokers[s], smoke_atom::value, st.round++, t);
}

caf::behavior arbiter(arbiter_actor* self, uint64_t rounds, uint64_t smokers) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      st.smokers.reserve(smokers);
      for (uint64_t id = 0; id < smokers; ++id)
        st.smokers.push_back(self->spawn(smoker, id, me));
      next_round(self, rounds);
      return st.done;
    },
    [=](started_atom) { next_round(self, rounds); },
    [=](done_atom, uint64_t id, uint64_t count, uint64_t digest) {
      auto& st = self->state;
      st.weighted += (id + 1) * count;
      st.digest += digest;
      if (++st.reported == smokers) {
        st.smokers.clear();
        st.done.deliver(st.weighted, st.digest);
        self->quit();
      }
    },
  };
}

} // namespace

outcome run_cigsmok(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(arbiter, args.get("rounds"), args.get("smokers"));
  uint64_t weighted = 0;
  uint64_t digest = 0;
  await_reply(
    sys, root,
    [&](uint64_t w, uint64_t d) {
      weighted = w;
      digest = d;
    },
    run_atom::value);
  return {std::to_string(weighted) + ":" + std::to_string(digest), ""};
}

} // namespace suite
