// barber: the sleeping barber (Savina).
//
// CAF mapping: every actor is an event-based actor and every message a plain
// `send`.
// - The factory is the root. It has a SplitMix64 generator seeded with 0 and,
//   on `run`, for each customer k in order draws a = below(arrival+1) and
//   c = below(cut+1), adds work(k, a) (the time until the customer arrives) to
//   its digest, spawns customer k knowing (k, c) and sends the room
//   `(enter, customer, k, c)`. A customer the room turns away tells the
//   factory `(returned, k, c)` and the factory sends it to the room again.
//   Each customer's `(paid, result)` is added to the digest; after the last
//   one the factory stops the room and the barber and delivers
//   HAIRCUTS:DIGEST.
// - The room holds at most `room` seated customers in a FIFO queue. A customer
//   who enters is turned away (`full`) if every chair is taken; otherwise he
//   is seated, and if the barber sleeps the room wakes him with the first
//   seated customer. When the barber asks for the `next` customer the room
//   hands him the oldest one, or marks him asleep when the room is empty.
// - The barber, for `(cut, customer, k, c)`, computes work(k, c), sends the
//   customer `(done, result)` and asks the room for the next one.
// - A customer told `done` sends the factory `(paid, result)` and quits.
#include <cstdint>
#include <deque>
#include <tuple>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using enter_atom = caf::atom_constant<caf::atom("enter")>;
using full_atom = caf::atom_constant<caf::atom("full")>;
using returned_atom = caf::atom_constant<caf::atom("returned")>;
using next_atom = caf::atom_constant<caf::atom("next")>;
using cut_atom = caf::atom_constant<caf::atom("cut")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using paid_atom = caf::atom_constant<caf::atom("paid")>;

caf::behavior customer(caf::event_based_actor* self, uint64_t k, uint64_t c,
                       caf::actor factory) {
  return {
    [=](full_atom) { self->send(factory, returned_atom::value, k, c); },
    [=](done_atom, uint64_t result) {
      self->send(factory, paid_atom::value, result);
      self->quit();
    },
  };
}

caf::behavior barber(caf::event_based_actor* self, caf::actor room) {
  return {
    [=](cut_atom, const caf::actor& cust, uint64_t k, uint64_t c) {
      self->send(cust, done_atom::value, work(k, c));
      self->send(room, next_atom::value);
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct seated {
  caf::actor customer;
  uint64_t k;
  uint64_t c;
};

struct room_state {
  caf::actor barber;
  std::deque<seated> chairs;
  bool barber_asleep = true;
};

using room_actor = caf::stateful_actor<room_state>;

caf::behavior waiting_room(room_actor* self, uint64_t capacity) {
  self->state.barber = self->spawn(barber, caf::actor_cast<caf::actor>(self));
  return {
    [=](enter_atom, caf::actor cust, uint64_t k, uint64_t c) {
      auto& st = self->state;
      if (st.chairs.size() >= capacity) {
        self->send(cust, full_atom::value);
        return;
      }
      st.chairs.push_back(seated{std::move(cust), k, c});
      if (st.barber_asleep) {
        st.barber_asleep = false;
        self->send(self, next_atom::value);
      }
    },
    [=](next_atom) {
      auto& st = self->state;
      if (st.chairs.empty()) {
        st.barber_asleep = true;
        return;
      }
      auto& first = st.chairs.front();
      self->send(st.barber, cut_atom::value, first.customer, first.k, first.c);
      st.chairs.pop_front();
    },
    [=](stop_atom) {
      self->send(self->state.barber, stop_atom::value);
      self->quit();
    },
  };
}

struct factory_state {
  caf::actor room;
  uint64_t paid = 0;
  uint64_t digest = 0;
  caf::response_promise done;
};

using factory_actor = caf::stateful_actor<factory_state>;

void finish(factory_actor* self) {
  auto& st = self->state;
  self->send(st.room, stop_atom::value);
  st.done.deliver(st.paid, st.digest);
  self->quit();
}

caf::behavior factory(factory_actor* self, uint64_t haircuts, uint64_t room,
                      uint64_t arrival, uint64_t cut) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.room = self->spawn(waiting_room, room);
      auto me = caf::actor_cast<caf::actor>(self);
      splitmix rng{0};
      for (uint64_t k = 0; k < haircuts; ++k) {
        auto a = rng.below(arrival + 1);
        auto c = rng.below(cut + 1);
        st.digest += work(k, a);
        auto cust = self->spawn(customer, k, c, me);
        self->send(st.room, enter_atom::value, cust, k, c);
      }
      if (haircuts == 0)
        finish(self);
      return st.done;
    },
    [=](returned_atom, uint64_t k, uint64_t c) {
      auto cust = caf::actor_cast<caf::actor>(self->current_sender());
      self->send(self->state.room, enter_atom::value, cust, k, c);
    },
    [=](paid_atom, uint64_t result) {
      auto& st = self->state;
      st.digest += result;
      if (++st.paid == haircuts)
        finish(self);
    },
  };
}

} // namespace

outcome run_barber(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(factory, args.get("haircuts"), args.get("room"),
                        args.get("arrival"), args.get("cut"));
  uint64_t haircuts = 0;
  uint64_t digest = 0;
  await_reply(
    sys, root,
    [&](uint64_t h, uint64_t d) {
      haircuts = h;
      digest = d;
    },
    run_atom::value);
  return {std::to_string(haircuts) + ":" + std::to_string(digest), ""};
}

} // namespace suite
