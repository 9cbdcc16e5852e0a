// mixed: token rings that are built and torn down, plus CPU-bound workers
// (libcppa's "mixed case").
//
// CAF mapping: the root is the collector, a stateful event-based actor. On
// `run` it spawns `rings` masters. Each master spawns its own worker and then
// runs `reps` repetitions. A repetition sends `calc` to the worker, spawns
// ring_size-1 chain actors back to front (the last one's successor is the
// master, each earlier one's successor is the one spawned before it) and
// sends the token to the first. A chain actor forwards every token to its
// successor and quits after forwarding 0. The master passes t-1 on when it
// receives t > 0 and ends the repetition when it receives 0; after the last
// repetition it tells the collector it is done, stops its worker (after the
// worker's pending `calc`s, which come from the same sender) and quits.
//
// The worker factorises 28350160440309881 by trial division inside its
// `calc` handler and sends the two factors to the collector, which checks
// that both exceed 1 and that their product is the number (p divides it and
// the quotient is q). The collector
// delivers the count of verified results once it has received all
// rings*reps results and every master is done.
#include <cstdint>
#include <utility>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using calc_atom = caf::atom_constant<caf::atom("calc")>;
using factors_atom = caf::atom_constant<caf::atom("factors")>;
using token_atom = caf::atom_constant<caf::atom("token")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

constexpr uint64_t semiprime = 28350160440309881ULL;

// Smallest factor p > 1 of n by trial division, and n / p.
std::pair<uint64_t, uint64_t> factorise(uint64_t n) {
  if (n % 2 == 0)
    return {2, n / 2};
  for (uint64_t d = 3; d <= n / d; d += 2)
    if (n % d == 0)
      return {d, n / d};
  return {n, 1};
}

caf::behavior factor_worker(caf::event_based_actor* self,
                            caf::actor collector) {
  return {
    [=](calc_atom) {
      auto [p, q] = factorise(semiprime);
      self->send(collector, factors_atom::value, p, q);
    },
    [=](stop_atom) { self->quit(); },
  };
}

caf::behavior chain_link(caf::event_based_actor* self, caf::actor next) {
  return {
    [=](token_atom, uint64_t token) {
      self->send(next, token_atom::value, token);
      if (token == 0)
        self->quit();
    },
  };
}

struct master_state {
  uint32_t reps_left = 0;
  caf::actor worker;
  caf::actor first_link;
};

using master_actor = caf::stateful_actor<master_state>;

void start_repetition(master_actor* self, uint32_t ring_size, uint64_t token) {
  auto& st = self->state;
  self->send(st.worker, calc_atom::value);
  auto next = caf::actor_cast<caf::actor>(self);
  for (uint32_t i = 1; i < ring_size; ++i)
    next = self->spawn(chain_link, next);
  st.first_link = next;
  self->send(st.first_link, token_atom::value, token);
}

caf::behavior master(master_actor* self, uint32_t ring_size, uint64_t token,
                     uint32_t reps, caf::actor collector) {
  self->state.reps_left = reps;
  self->state.worker = self->spawn(factor_worker, collector);
  return {
    [=](start_atom) { start_repetition(self, ring_size, token); },
    [=](token_atom, uint64_t t) {
      auto& st = self->state;
      if (t > 0) {
        self->send(st.first_link, token_atom::value, t - 1);
        return;
      }
      if (--st.reps_left > 0) {
        start_repetition(self, ring_size, token);
        return;
      }
      self->send(collector, done_atom::value);
      self->send(st.worker, stop_atom::value);
      self->quit();
    },
  };
}

struct collector_state {
  uint64_t expected = 0;
  uint64_t received = 0;
  uint64_t verified = 0;
  uint32_t masters_done = 0;
  caf::response_promise done;
};

using collector_actor = caf::stateful_actor<collector_state>;

void finish_if_complete(collector_actor* self, uint32_t rings) {
  auto& st = self->state;
  if (st.received < st.expected || st.masters_done < rings)
    return;
  if (st.verified != st.received)
    st.done.deliver(caf::make_error(caf::sec::runtime_error,
                                    "a worker sent wrong factors"));
  else
    st.done.deliver(st.verified);
  self->quit();
}

caf::behavior collector(collector_actor* self, uint32_t rings,
                        uint32_t ring_size, uint64_t token, uint32_t reps) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.expected = uint64_t{rings} * reps;
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint32_t r = 0; r < rings; ++r)
        self->send(self->spawn(master, ring_size, token, reps, me),
                   start_atom::value);
      return st.done;
    },
    [=](factors_atom, uint64_t p, uint64_t q) {
      auto& st = self->state;
      ++st.received;
      if (p > 1 && q > 1 && semiprime % p == 0 && semiprime / p == q)
        ++st.verified;
      finish_if_complete(self, rings);
    },
    [=](done_atom) {
      ++self->state.masters_done;
      finish_if_complete(self, rings);
    },
  };
}

} // namespace

outcome run_mixed(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(collector, static_cast<uint32_t>(args.get("rings")),
                        static_cast<uint32_t>(args.get("ring_size")),
                        args.get("token"),
                        static_cast<uint32_t>(args.get("reps")));
  uint64_t verified = 0;
  await_reply(
    sys, root, [&](uint64_t n) { verified = n; }, run_atom::value);
  return {std::to_string(verified), ""};
}

} // namespace suite
