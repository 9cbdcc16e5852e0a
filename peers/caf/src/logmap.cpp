// logmap: logistic-map series computed through rate actors (Savina).
//
// CAF mapping: the master is the root, a stateful event-based actor. On `run`
// it spawns, for i = 0..series-1, rate actor i with the rate
// r = R + (double)i * D (R = rate/10000.0, D = increment/10000.0) and series
// actor i starting from x = (i+1)/(series+1), told rate actor i's handle. A
// series asks its rate actor for each next term with
// `request(rate, next, x).then(...)`; the rate actor's handler returns
// (r * x) * (1.0 - x), which becomes the series' term, and the series adds
// floor(term * 2^32) of every term it receives to its sum. After `terms` terms
// it reports `(done, sum)` and quits. The master adds up the reports, stops
// the rate actors and delivers the total.
//
// The arithmetic must be IEEE double exactly as the contract spells it, with
// no fused multiply-add: this file is compiled with -ffp-contract=off
// (CMakeLists.txt), so neither R + i*D nor r*x*(1-x) can be contracted.
#include <cmath>
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using next_atom = caf::atom_constant<caf::atom("next")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

caf::behavior rate_actor(caf::event_based_actor* self, double r) {
  return {
    [r](next_atom, double x) { return (r * x) * (1.0 - x); },
    [=](stop_atom) { self->quit(); },
  };
}

struct series_state {
  double x = 0;
  uint64_t computed = 0;
  uint64_t sum = 0; // floor(term * 2^32) over the terms received
};

using series_actor = caf::stateful_actor<series_state>;

void next_term(series_actor* self, uint64_t terms, const caf::actor& rate,
               const caf::actor& master) {
  auto& st = self->state;
  if (st.computed == terms) {
    self->send(master, done_atom::value, st.sum);
    self->quit();
    return;
  }
  self->request(rate, caf::infinite, next_atom::value, st.x)
    .then([=](double y) {
      auto& st = self->state;
      st.x = y;
      st.sum += static_cast<uint64_t>(std::floor(y * 4294967296.0));
      ++st.computed;
      next_term(self, terms, rate, master);
    });
}

caf::behavior series_worker(series_actor* self, double x0, uint64_t terms,
                            caf::actor rate, caf::actor master) {
  self->state.x = x0;
  return {
    [=](start_atom) { next_term(self, terms, rate, master); },
  };
}

struct master_state {
  std::vector<caf::actor> rates;
  uint64_t reported = 0;
  uint64_t sum = 0;
  caf::response_promise done;
};

using master_actor = caf::stateful_actor<master_state>;

caf::behavior master(master_actor* self, uint64_t terms, uint64_t series,
                     uint64_t rate, uint64_t increment) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      const double big_r = static_cast<double>(rate) / 10000.0;
      const double big_d = static_cast<double>(increment) / 10000.0;
      for (uint64_t i = 0; i < series; ++i) {
        const double d = static_cast<double>(i) * big_d;
        auto r = self->spawn(rate_actor, big_r + d);
        st.rates.push_back(r);
        const double x0 = static_cast<double>(i + 1)
                          / static_cast<double>(series + 1);
        self->send(self->spawn(series_worker, x0, terms, r, me),
                   start_atom::value);
      }
      return st.done;
    },
    [=](done_atom, uint64_t series_sum) {
      auto& st = self->state;
      st.sum += series_sum;
      if (++st.reported < series)
        return;
      for (const auto& r : st.rates)
        self->send(r, stop_atom::value);
      st.done.deliver(st.sum);
      self->quit();
    },
  };
}

} // namespace

outcome run_logmap(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(master, args.get("terms"), args.get("series"),
                        args.get("rate"), args.get("increment"));
  uint64_t sum = 0;
  await_reply(
    sys, root, [&](uint64_t s) { sum = s; }, run_atom::value);
  return {std::to_string(sum), ""};
}

} // namespace suite
