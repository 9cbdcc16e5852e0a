// chameneos: creatures meeting pairwise at one meeting place.
//
// CAF mapping: the meeting place is the root, a stateful event-based actor.
// Each creature is a stateful actor that asks for a meeting with
// `request(place, meet, id, colour).then(...)` and asks again only from the
// `then` continuation, i.e. after its meeting is confirmed. The place answers
// each meet request through a response promise: the first creature's promise
// is kept while it waits; when a second one arrives, both promises are
// delivered (partner id, complement colour). After the last meeting the place
// sends every creature a `stop` request; each creature replies with the
// number of meetings it counted itself (and how many times it was paired with
// itself, which must be zero) and quits. When all have replied, the place
// delivers the per-creature counts to the driver.
//
// Ordering: a creature's last confirmation and its `stop` both come from the
// place, so the confirmation is counted before the stop is handled. A meet
// request reaching the place after the last meeting is never answered: its
// creature is being stopped.
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using meet_atom = caf::atom_constant<caf::atom("meet")>;

constexpr int32_t blue = 0;
constexpr int32_t red = 1;
constexpr int32_t yellow = 2;

int32_t complement(int32_t a, int32_t b) {
  return a == b ? a : 3 - a - b; // the third colour
}

struct creature_state {
  uint32_t id = 0;
  int32_t colour = blue;
  uint64_t meetings = 0;
  uint64_t self_meetings = 0;
};

using creature_actor = caf::stateful_actor<creature_state>;

void ask_for_meeting(creature_actor* self, const caf::actor& place) {
  self
    ->request(place, caf::infinite, meet_atom::value, self->state.id,
              self->state.colour)
    .then([=](uint32_t partner, int32_t colour) {
      auto& st = self->state;
      if (partner == st.id)
        ++st.self_meetings;
      ++st.meetings;
      st.colour = colour;
      ask_for_meeting(self, place);
    });
}

caf::behavior creature(creature_actor* self, uint32_t id, caf::actor place) {
  static constexpr int32_t start_colours[] = {blue, red, yellow};
  self->state.id = id;
  self->state.colour = start_colours[id % 3];
  ask_for_meeting(self, place);
  return {
    [=](stop_atom) {
      self->quit();
      return std::make_tuple(self->state.meetings, self->state.self_meetings);
    },
  };
}

struct waiting {
  uint32_t id;
  int32_t colour;
  caf::response_promise reply;
};

struct place_state {
  uint64_t meetings_left = 0;
  std::optional<waiting> first;
  std::vector<caf::actor> creatures;
  std::vector<uint64_t> counts;
  uint64_t reported = 0;
  uint64_t self_meetings = 0;
  caf::response_promise done;
};

using place_actor = caf::stateful_actor<place_state>;

// Stops every creature and collects its count; answers the driver at the end.
void close_place(place_actor* self) {
  auto& creatures = self->state.creatures;
  for (size_t i = 0; i < creatures.size(); ++i) {
    self->request(creatures[i], caf::infinite, stop_atom::value)
      .then([=](uint64_t meetings, uint64_t self_meetings) {
        auto& st = self->state;
        st.counts[i] = meetings;
        st.self_meetings += self_meetings;
        if (++st.reported < st.creatures.size())
          return;
        if (st.self_meetings > 0)
          st.done.deliver(caf::make_error(caf::sec::runtime_error,
                                          "a creature met itself"));
        else
          st.done.deliver(st.counts);
        self->quit();
      });
  }
}

caf::behavior meeting_place(place_actor* self, uint32_t creatures,
                            uint64_t meetings) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.meetings_left = meetings;
      st.counts.assign(creatures, 0);
      auto place = caf::actor_cast<caf::actor>(self);
      for (uint32_t id = 0; id < creatures; ++id)
        st.creatures.push_back(self->spawn(creature, id, place));
      if (meetings == 0)
        close_place(self);
      return st.done;
    },
    [=](meet_atom, uint32_t id, int32_t colour) {
      auto& st = self->state;
      auto reply = self->make_response_promise();
      if (st.meetings_left == 0)
        return reply; // meetings are over; this creature is being stopped
      if (!st.first) {
        st.first = waiting{id, colour, reply};
        return reply;
      }
      auto other = std::move(*st.first);
      st.first.reset();
      if (other.id == id) {
        st.done.deliver(
          caf::make_error(caf::sec::runtime_error, "paired a creature with itself"));
        self->quit();
        return reply;
      }
      auto next_colour = complement(other.colour, colour);
      other.reply.deliver(id, next_colour);
      reply.deliver(other.id, next_colour);
      if (--st.meetings_left == 0)
        close_place(self);
      return reply;
    },
  };
}

} // namespace

outcome run_chameneos(caf::actor_system& sys, const bench_args& args) {
  auto creatures = static_cast<uint32_t>(args.get("creatures"));
  auto root = sys.spawn(meeting_place, creatures, args.get("meetings"));
  std::vector<uint64_t> counts;
  await_reply(
    sys, root, [&](std::vector<uint64_t>& xs) { counts = std::move(xs); },
    run_atom::value);
  if (counts.size() != creatures)
    throw run_failure("expected " + std::to_string(creatures) + " counts, got "
                      + std::to_string(counts.size()));
  auto total = std::accumulate(counts.begin(), counts.end(), uint64_t{0});
  std::string listed;
  for (auto n : counts) {
    listed += listed.empty() ? " counts=" : ",";
    listed += std::to_string(n);
  }
  return {std::to_string(total), listed};
}

} // namespace suite
