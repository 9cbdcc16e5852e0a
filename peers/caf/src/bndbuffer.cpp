// bndbuffer: producers and consumers through a manager with a bounded buffer
// (Savina).
//
// CAF mapping: every actor is a stateful event-based actor and every message
// a plain `send`; the manager learns who sent a message from
// `current_sender()`, as Savina's manager reads it from the message.
// - Producer p has a SplitMix64 generator seeded with p. On `start` and on
//   every `produce` from the manager it either sends its next item,
//   `(data, work(next(), cost))`, or, once all `items` are sent, tells the
//   manager `(pexit)` and quits.
// - The manager keeps the buffer, the consumers waiting for data and the
//   producers held back, each in a FIFO queue. An item goes straight to a
//   waiting consumer if there is one, else into the buffer; the producer is
//   then told to produce, unless the buffer is full, in which case it is held
//   back. A consumer that says `available` gets the oldest buffered item (and
//   the oldest held-back producer is released) or waits. When every producer
//   has exited and every consumer waits (so the buffer is empty), the manager
//   tells the consumers to stop and quits.
// - A consumer says `available` when it starts and after each item; for an
//   item it adds `work(item, cost)` to its sum. Told to stop, it reports
//   `(done, count, sum)` to the root and quits.
// The root spawns everything, adds up the consumers' reports and delivers
// CONSUMED:SUM after the last.
#include <cstdint>
#include <deque>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using data_atom = caf::atom_constant<caf::atom("data")>;
using produce_atom = caf::atom_constant<caf::atom("produce")>;
using pexit_atom = caf::atom_constant<caf::atom("pexit")>;
using available_atom = caf::atom_constant<caf::atom("available")>;
using start_atom = caf::atom_constant<caf::atom("start")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct producer_state {
  splitmix rng;
  uint64_t produced = 0;
};

using producer_actor = caf::stateful_actor<producer_state>;

caf::behavior producer(producer_actor* self, uint64_t p, uint64_t items,
                       uint64_t cost, caf::actor manager) {
  self->state.rng = splitmix{p};
  auto produce = [=] {
    auto& st = self->state;
    if (st.produced == items) {
      self->send(manager, pexit_atom::value);
      self->quit();
      return;
    }
    ++st.produced;
    self->send(manager, data_atom::value, work(st.rng.next(), cost));
  };
  return {
    [=](start_atom) { produce(); },
    [=](produce_atom) { produce(); },
  };
}

struct manager_state {
  std::deque<uint64_t> buffer;
  std::deque<caf::actor> waiting_consumers;
  std::deque<caf::actor> held_producers;
  uint64_t exited_producers = 0;
};

using manager_actor = caf::stateful_actor<manager_state>;

caf::behavior manager(manager_actor* self, uint64_t capacity,
                      uint64_t producers, uint64_t consumers) {
  auto try_exit = [=] {
    auto& st = self->state;
    if (st.exited_producers < producers
        || st.waiting_consumers.size() < consumers)
      return;
    for (const auto& c : st.waiting_consumers)
      self->send(c, stop_atom::value);
    self->quit();
  };
  return {
    [=](data_atom, uint64_t item) {
      auto& st = self->state;
      auto from = caf::actor_cast<caf::actor>(self->current_sender());
      if (st.waiting_consumers.empty()) {
        st.buffer.push_back(item);
      } else {
        self->send(st.waiting_consumers.front(), data_atom::value, item);
        st.waiting_consumers.pop_front();
      }
      if (st.buffer.size() >= capacity)
        st.held_producers.push_back(std::move(from));
      else
        self->send(from, produce_atom::value);
    },
    [=](available_atom) {
      auto& st = self->state;
      auto from = caf::actor_cast<caf::actor>(self->current_sender());
      if (st.buffer.empty()) {
        st.waiting_consumers.push_back(std::move(from));
        try_exit();
        return;
      }
      self->send(from, data_atom::value, st.buffer.front());
      st.buffer.pop_front();
      if (!st.held_producers.empty()) {
        self->send(st.held_producers.front(), produce_atom::value);
        st.held_producers.pop_front();
      }
    },
    [=](pexit_atom) {
      ++self->state.exited_producers;
      try_exit();
    },
  };
}

struct consumer_state {
  uint64_t count = 0;
  uint64_t sum = 0;
};

using consumer_actor = caf::stateful_actor<consumer_state>;

caf::behavior consumer(consumer_actor* self, uint64_t cost, caf::actor manager,
                       caf::actor collector) {
  return {
    [=](start_atom) { self->send(manager, available_atom::value); },
    [=](data_atom, uint64_t item) {
      auto& st = self->state;
      ++st.count;
      st.sum += work(item, cost);
      self->send(manager, available_atom::value);
    },
    [=](stop_atom) {
      self->send(collector, done_atom::value, self->state.count,
                 self->state.sum);
      self->quit();
    },
  };
}

struct root_state {
  uint64_t reported = 0;
  uint64_t consumed = 0;
  uint64_t sum = 0;
  caf::response_promise done;
};

caf::behavior root(caf::stateful_actor<root_state>* self, uint64_t capacity,
                   uint64_t producers, uint64_t consumers, uint64_t items,
                   uint64_t cost) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      auto mgr = self->spawn(manager, capacity, producers, consumers);
      for (uint64_t c = 0; c < consumers; ++c)
        self->send(self->spawn(consumer, cost, mgr, me), start_atom::value);
      for (uint64_t p = 0; p < producers; ++p)
        self->send(self->spawn(producer, p, items, cost, mgr),
                   start_atom::value);
      return self->state.done;
    },
    [=](done_atom, uint64_t count, uint64_t sum) {
      auto& st = self->state;
      st.consumed += count;
      st.sum += sum;
      if (++st.reported == consumers) {
        st.done.deliver(st.consumed, st.sum);
        self->quit();
      }
    },
  };
}

} // namespace

outcome run_bndbuffer(caf::actor_system& sys, const bench_args& args) {
  auto r = sys.spawn(root, args.get("buffer"), args.get("producers"),
                     args.get("consumers"), args.get("items"),
                     args.get("cost"));
  uint64_t consumed = 0;
  uint64_t sum = 0;
  await_reply(
    sys, r,
    [&](uint64_t c, uint64_t s) {
      consumed = c;
      sum = s;
    },
    run_atom::value);
  return {std::to_string(consumed) + ":" + std::to_string(sum), ""};
}

} // namespace suite
