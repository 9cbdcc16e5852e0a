// concdict: workers reading and writing one dictionary actor (Savina).
//
// CAF mapping: the dictionary is a stateful event-based actor holding a
// `std::unordered_map`; it answers `(write, key, value)` with the value and
// `(read, key)` with the key's value or 0, as the handler's return value. A
// worker is a stateful event-based actor with its own SplitMix64 generator
// seeded with its number w; it draws one operation at a time (r, key, and for
// a write the value, in the contract's order), sends it with
// `request(...).then(...)` and draws the next one in the response handler, so
// it waits for each answer. After `messages` answers it sends
// `(done, answers, readsum)` to the root and quits. The root spawns the
// dictionary and the workers, adds up the reports and, after the last, asks
// the dictionary `(contents)`, answered with its size and the sum of
// (key+1)*value over its entries; it then stops the dictionary and delivers
// ANSWERS:SIZE:CONTENTS:READSUM.
#include <cstdint>
#include <unordered_map>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using write_atom = caf::atom_constant<caf::atom("write")>;
using read_atom = caf::atom_constant<caf::atom("read")>;
using contents_atom = caf::atom_constant<caf::atom("contents")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct dictionary_state {
  std::unordered_map<uint64_t, uint64_t> map;
};

caf::behavior dictionary(caf::stateful_actor<dictionary_state>* self) {
  return {
    [=](write_atom, uint64_t key, uint64_t value) {
      self->state.map[key] = value;
      return value;
    },
    [=](read_atom, uint64_t key) {
      const auto& map = self->state.map;
      auto i = map.find(key);
      return i == map.end() ? uint64_t{0} : i->second;
    },
    [=](contents_atom) -> caf::result<uint64_t, uint64_t> {
      uint64_t contents = 0;
      for (const auto& [key, value] : self->state.map)
        contents += (key + 1) * value;
      return {static_cast<uint64_t>(self->state.map.size()), contents};
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct worker_state {
  splitmix rng;
  uint64_t answers = 0;
  uint64_t readsum = 0;
};

using worker_actor = caf::stateful_actor<worker_state>;

void next_operation(worker_actor* self, uint64_t w, uint64_t messages,
                    uint64_t write_pct, const caf::actor& dict,
                    const caf::actor& collector) {
  auto& st = self->state;
  if (st.answers == messages) {
    self->send(collector, done_atom::value, st.answers, st.readsum);
    self->quit();
    return;
  }
  auto r = st.rng.below(100);
  auto key = w * 1024 + st.rng.below(1024);
  if (r < write_pct) {
    auto value = st.rng.next() >> 32;
    self->request(dict, caf::infinite, write_atom::value, key, value)
      .then([=](uint64_t) {
        ++self->state.answers;
        next_operation(self, w, messages, write_pct, dict, collector);
      });
  } else {
    self->request(dict, caf::infinite, read_atom::value, key)
      .then([=](uint64_t value) {
        ++self->state.answers;
        self->state.readsum += value;
        next_operation(self, w, messages, write_pct, dict, collector);
      });
  }
}

caf::behavior worker(worker_actor* self, uint64_t w, uint64_t messages,
                     uint64_t write_pct, caf::actor dict,
                     caf::actor collector) {
  self->state.rng = splitmix{w};
  return {
    [=](start_atom) {
      next_operation(self, w, messages, write_pct, dict, collector);
    },
  };
}

struct root_state {
  caf::actor dict;
  uint64_t reported = 0;
  uint64_t answers = 0;
  uint64_t readsum = 0;
  caf::response_promise done;
};

using root_actor = caf::stateful_actor<root_state>;

caf::behavior root(root_actor* self, uint64_t workers, uint64_t messages,
                   uint64_t write_pct) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.dict = self->spawn(dictionary);
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint64_t w = 0; w < workers; ++w)
        self->send(self->spawn(worker, w, messages, write_pct, st.dict, me),
                   start_atom::value);
      return st.done;
    },
    [=](done_atom, uint64_t answers, uint64_t readsum) {
      auto& st = self->state;
      st.answers += answers;
      st.readsum += readsum;
      if (++st.reported < workers)
        return;
      self->request(st.dict, caf::infinite, contents_atom::value)
        .then([=](uint64_t size, uint64_t contents) {
          auto& st = self->state;
          self->send(st.dict, stop_atom::value);
          st.done.deliver(st.answers, size, contents, st.readsum);
          self->quit();
        });
    },
  };
}

} // namespace

outcome run_concdict(caf::actor_system& sys, const bench_args& args) {
  auto r = sys.spawn(root, args.get("workers"), args.get("messages"),
                     args.get("write_pct"));
  std::string check;
  await_reply(
    sys, r,
    [&](uint64_t answers, uint64_t size, uint64_t contents, uint64_t readsum) {
      check = std::to_string(answers) + ":" + std::to_string(size) + ":"
              + std::to_string(contents) + ":" + std::to_string(readsum);
    },
    run_atom::value);
  return {check, ""};
}

} // namespace suite
