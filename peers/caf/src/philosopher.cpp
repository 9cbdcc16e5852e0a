// philosopher: dining philosophers with an arbitrator (Savina).
//
// CAF mapping: the arbitrator is the root, a stateful event-based actor
// holding one flag per fork. A philosopher is a stateful event-based actor
// that asks for its forks with `request(arbitrator, hungry, i).then(...)`;
// the arbitrator's handler returns true (and takes forks i and (i+1) mod n)
// when both are free, false otherwise. A denied philosopher asks again at
// once from the response handler; one told to eat eats a meal and sends
// `(done, i)`, which frees both forks and which the arbitrator counts as a
// meal. After `rounds` meals a philosopher sends `(finished)` and quits; when
// every philosopher has finished the arbitrator delivers its meal count.
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using hungry_atom = caf::atom_constant<caf::atom("hungry")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using finished_atom = caf::atom_constant<caf::atom("finished")>;
using start_atom = caf::atom_constant<caf::atom("start")>;

struct philosopher_state {
  uint64_t meals = 0;
};

using philosopher_actor = caf::stateful_actor<philosopher_state>;

void get_hungry(philosopher_actor* self, uint64_t i, uint64_t rounds,
                const caf::actor& arbitrator) {
  if (self->state.meals == rounds) {
    self->send(arbitrator, finished_atom::value);
    self->quit();
    return;
  }
  self->request(arbitrator, caf::infinite, hungry_atom::value, i)
    .then([=](bool eat) {
      if (eat) {
        ++self->state.meals;
        self->send(arbitrator, done_atom::value, i);
      }
      get_hungry(self, i, rounds, arbitrator);
    });
}

caf::behavior philosopher(philosopher_actor* self, uint64_t i, uint64_t rounds,
                          caf::actor arbitrator) {
  return {
    [=](start_atom) { get_hungry(self, i, rounds, arbitrator); },
  };
}

struct arbitrator_state {
  std::vector<bool> fork_taken;
  uint64_t meals = 0;
  uint64_t finished = 0;
  caf::response_promise done;
};

using arbitrator_actor = caf::stateful_actor<arbitrator_state>;

caf::behavior arbitrator(arbitrator_actor* self, uint64_t philosophers,
                         uint64_t rounds) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.fork_taken.assign(philosophers, false);
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint64_t i = 0; i < philosophers; ++i)
        self->send(self->spawn(philosopher, i, rounds, me), start_atom::value);
      return st.done;
    },
    [=](hungry_atom, uint64_t i) {
      auto& forks = self->state.fork_taken;
      auto left = i;
      auto right = (i + 1) % philosophers;
      if (forks[left] || forks[right])
        return false;
      forks[left] = true;
      forks[right] = true;
      return true;
    },
    [=](done_atom, uint64_t i) {
      auto& st = self->state;
      st.fork_taken[i] = false;
      st.fork_taken[(i + 1) % philosophers] = false;
      ++st.meals;
    },
    [=](finished_atom) {
      auto& st = self->state;
      if (++st.finished == philosophers) {
        st.done.deliver(st.meals);
        self->quit();
      }
    },
  };
}

} // namespace

outcome run_philosopher(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(arbitrator, args.get("philosophers"),
                        args.get("rounds"));
  uint64_t meals = 0;
  await_reply(
    sys, root, [&](uint64_t n) { meals = n; }, run_atom::value);
  return {std::to_string(meals), ""};
}

} // namespace suite
