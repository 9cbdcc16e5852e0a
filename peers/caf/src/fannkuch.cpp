// fannkuch: fannkuch-redux split into index ranges handled by worker actors.
//
// The algorithm (Computer Language Benchmarks Game order): permutation k of
// 0..n-1 is described by digits c[1..n-1] with 0 <= c[i] <= i and
// k = sum c[i] * i!. Starting from the identity, rotating the prefix
// p[0..=i] left by c[i], for i = n-1 down to 1, yields permutation k. Going
// from k to k+1 increments c[1] and rotates p[0..=1] left once; whenever a
// digit c[i] exceeds i it wraps to 0 (its prefix rotation is back to where it
// began) and the carry rotates p[0..=i+1] left once more. For each
// permutation, the flips count how often the prefix p[0..=p[0]] is reversed
// until p[0] = 0; the checksum adds flips for even k and subtracts them for
// odd k; maxflips is the largest count.
//
// CAF mapping: the root (the collector) splits the n! indices into up to 128
// contiguous ranges, spawns one worker actor per range and sends each a
// (`task`, first, count) request. A worker computes its range in the handler
// (a CPU-bound message handler occupies one scheduler thread), replies with
// its partial (checksum, maxflips) and quits. The collector combines the
// replies in its `then` continuations and delivers CHECKSUM:MAXFLIPS.
#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using task_atom = caf::atom_constant<caf::atom("task")>;

constexpr uint64_t max_tasks = 128;

using perm_array = std::array<int32_t, 16>;

uint64_t factorial(uint32_t n) {
  uint64_t f = 1;
  for (uint32_t i = 2; i <= n; ++i)
    f *= i;
  return f;
}

// Rotates p[0..=last] left by one position.
void rotate_prefix(perm_array& p, uint32_t last) {
  auto head = p[0];
  for (uint32_t j = 0; j < last; ++j)
    p[j] = p[j + 1];
  p[last] = head;
}

int64_t count_flips(const perm_array& p) {
  if (p[0] == 0)
    return 0;
  auto q = p;
  int64_t flips = 0;
  while (q[0] != 0) {
    std::reverse(q.begin(), q.begin() + q[0] + 1);
    ++flips;
  }
  return flips;
}

// Checksum and maxflips over permutations first .. first+count-1.
std::tuple<int64_t, int64_t> fannkuch_range(uint32_t n, uint64_t first,
                                            uint64_t count) {
  perm_array p{};
  perm_array digit{};
  for (uint32_t i = 0; i < n; ++i)
    p[i] = static_cast<int32_t>(i);
  auto rest = first;
  for (uint32_t i = n - 1; i >= 1; --i) {
    auto f = factorial(i);
    digit[i] = static_cast<int32_t>(rest / f);
    rest %= f;
    for (int32_t r = 0; r < digit[i]; ++r)
      rotate_prefix(p, i);
  }
  int64_t checksum = 0;
  int64_t max_flips = 0;
  for (uint64_t k = first; k < first + count; ++k) {
    auto flips = count_flips(p);
    checksum += (k % 2 == 0) ? flips : -flips;
    max_flips = std::max(max_flips, flips);
    for (uint32_t i = 1; i < n; ++i) { // step to permutation k+1
      rotate_prefix(p, i);
      if (++digit[i] <= static_cast<int32_t>(i))
        break;
      digit[i] = 0;
    }
  }
  return {checksum, max_flips};
}

caf::behavior fannkuch_worker(caf::event_based_actor* self, uint32_t n) {
  return {
    [=](task_atom, uint64_t first, uint64_t count) {
      self->quit();
      return fannkuch_range(n, first, count);
    },
  };
}

struct collector_state {
  uint64_t tasks = 0;
  uint64_t received = 0;
  int64_t checksum = 0;
  int64_t max_flips = 0;
  caf::response_promise done;
};

caf::behavior collector(caf::stateful_actor<collector_state>* self,
                        uint32_t n) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      auto total = factorial(n);
      st.tasks = std::min(total, max_tasks);
      for (uint64_t t = 0; t < st.tasks; ++t) {
        auto first = total * t / st.tasks;
        auto count = total * (t + 1) / st.tasks - first;
        auto w = self->spawn(fannkuch_worker, n);
        self->request(w, caf::infinite, task_atom::value, first, count)
          .then([=](int64_t checksum, int64_t max_flips) {
            auto& st = self->state;
            st.checksum += checksum;
            st.max_flips = std::max(st.max_flips, max_flips);
            if (++st.received == st.tasks) {
              st.done.deliver(st.checksum, st.max_flips);
              self->quit();
            }
          });
      }
      return st.done;
    },
  };
}

} // namespace

outcome run_fannkuch(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(collector, static_cast<uint32_t>(args.get("n")));
  int64_t checksum = 0;
  int64_t max_flips = 0;
  await_reply(
    sys, root,
    [&](int64_t cs, int64_t mf) {
      checksum = cs;
      max_flips = mf;
    },
    run_atom::value);
  return {std::to_string(checksum) + ":" + std::to_string(max_flips), ""};
}

} // namespace suite
