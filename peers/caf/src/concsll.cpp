// concsll: workers inserting into and searching one sorted-list actor
// (Savina).
//
// CAF mapping: the list is a stateful event-based actor holding its values
// in ascending order in a `std::vector<uint64_t>`, searched element by element
// from the front as Savina's linked list is walked: an insert walks to the
// first element that is not smaller and inserts before it (equal values are
// all kept), a lookup walks until it finds the value or passes it. (A
// `std::list` does the same walk ten times slower, chasing a pointer per
// element: peers/README.md.) It answers `(insert, v)` with an
// empty reply, `(contains, v)` with a bool and `(size)` with the length, each
// as the handler's return value. A worker is a stateful event-based actor with
// its own SplitMix64 generator seeded with its number w; it draws one
// operation at a time, sends it with `request(...).then(...)` and draws the
// next in the response handler, so it waits for each answer. After `messages`
// answers it sends `(done, answers, hits)` to the root and quits. After the
// last report the root asks the list `(contents)`, answered with its length
// and the sum of (p+1)*value over positions p, stops it and delivers
// ANSWERS:SIZE:CONTENTS:HITS.
#include <algorithm>
#include <cstdint>
#include <vector>
#include <memory>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using insert_atom = caf::atom_constant<caf::atom("insert")>;
using contains_atom = caf::atom_constant<caf::atom("contains")>;
using size_atom = caf::atom_constant<caf::atom("size")>;
using contents_atom = caf::atom_constant<caf::atom("contents")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct list_state {
  std::vector<uint64_t> items;
};

using list_actor = caf::stateful_actor<list_state>;

// The first element that is not smaller than v (or the end).
std::vector<uint64_t>::iterator first_not_less(std::vector<uint64_t>& items,
                                             uint64_t v) {
  return std::find_if(items.begin(), items.end(),
                      [v](uint64_t x) { return x >= v; });
}

caf::behavior sorted_list(list_actor* self) {
  return {
    [=](insert_atom, uint64_t v) {
      auto& items = self->state.items;
      items.insert(first_not_less(items, v), v);
    },
    [=](contains_atom, uint64_t v) {
      auto& items = self->state.items;
      auto i = first_not_less(items, v);
      return i != items.end() && *i == v;
    },
    [=](size_atom) { return static_cast<uint64_t>(self->state.items.size()); },
    [=](contents_atom) -> caf::result<uint64_t, uint64_t> {
      uint64_t contents = 0;
      uint64_t position = 0;
      for (auto value : self->state.items)
        contents += ++position * value;
      return {position, contents};
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct worker_params {
  uint64_t w;
  uint64_t workers;
  uint64_t messages;
  uint64_t write_pct;
  uint64_t size_pct;
  caf::actor list;
  caf::actor collector;
};

struct worker_state {
  splitmix rng;
  uint64_t answers = 0;
  uint64_t hits = 0;
};

using worker_actor = caf::stateful_actor<worker_state>;

void next_operation(worker_actor* self,
                    std::shared_ptr<const worker_params> p) {
  auto& st = self->state;
  if (st.answers == p->messages) {
    self->send(p->collector, done_atom::value, st.answers, st.hits);
    self->quit();
    return;
  }
  auto r = st.rng.below(100);
  if (r < p->size_pct) {
    self->request(p->list, caf::infinite, size_atom::value)
      .then([=](uint64_t) {
        ++self->state.answers;
        next_operation(self, p);
      });
    return;
  }
  auto v = st.rng.below(1024) * p->workers + p->w;
  if (r < p->size_pct + p->write_pct) {
    self->request(p->list, caf::infinite, insert_atom::value, v).then([=] {
      ++self->state.answers;
      next_operation(self, p);
    });
  } else {
    self->request(p->list, caf::infinite, contains_atom::value, v)
      .then([=](bool found) {
        ++self->state.answers;
        if (found)
          ++self->state.hits;
        next_operation(self, p);
      });
  }
}

caf::behavior worker(worker_actor* self,
                     std::shared_ptr<const worker_params> p) {
  self->state.rng = splitmix{p->w};
  return {
    [=](start_atom) { next_operation(self, p); },
  };
}

struct root_state {
  caf::actor list;
  uint64_t reported = 0;
  uint64_t answers = 0;
  uint64_t hits = 0;
  caf::response_promise done;
};

using root_actor = caf::stateful_actor<root_state>;

caf::behavior root(root_actor* self, uint64_t workers, uint64_t messages,
                   uint64_t write_pct, uint64_t size_pct) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.list = self->spawn(sorted_list);
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint64_t w = 0; w < workers; ++w) {
        auto p = std::make_shared<const worker_params>(worker_params{
          w, workers, messages, write_pct, size_pct, st.list, me});
        self->send(self->spawn(worker, std::move(p)), start_atom::value);
      }
      return st.done;
    },
    [=](done_atom, uint64_t answers, uint64_t hits) {
      auto& st = self->state;
      st.answers += answers;
      st.hits += hits;
      if (++st.reported < workers)
        return;
      self->request(st.list, caf::infinite, contents_atom::value)
        .then([=](uint64_t size, uint64_t contents) {
          auto& st = self->state;
          self->send(st.list, stop_atom::value);
          st.done.deliver(st.answers, size, contents, st.hits);
          self->quit();
        });
    },
  };
}

} // namespace

outcome run_concsll(caf::actor_system& sys, const bench_args& args) {
  auto r = sys.spawn(root, args.get("workers"), args.get("messages"),
                     args.get("write_pct"), args.get("size_pct"));
  std::string check;
  await_reply(
    sys, r,
    [&](uint64_t answers, uint64_t size, uint64_t contents, uint64_t hits) {
      check = std::to_string(answers) + ":" + std::to_string(size) + ":"
              + std::to_string(contents) + ":" + std::to_string(hits);
    },
    run_atom::value);
  return {check, ""};
}

} // namespace suite
