// chameneos: creatures meeting pairwise at one meeting place.
//
// CAF mapping: the meeting place is the root, a stateful event-based actor.
// Each creature is a stateful actor that asks for a meeting by sending a plain
// (`meet`, id, colour) message to the place, and asks again only from its
// `met` handler, i.e. after its meeting is confirmed. The place keeps the
// first waiting creature; when a second one arrives it sends both a `met`
// message (partner id, complement colour), addressed through the creature
// handles it spawned. After the last meeting the place sends every creature
// `stop`; each answers with a `count` message (its id, the meetings it
// counted itself, and how many times it was paired with itself, which must be
// zero) and quits. When all have answered, the place delivers the
// per-creature counts to the driver.
//
// Ordering: a creature's last confirmation and its `stop` both come from the
// place, and CAF keeps the order of messages between two actors, so the
// confirmation is counted before the stop is handled. A meet request reaching
// the place after the last meeting is ignored: its creature is being stopped.
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
using met_atom = caf::atom_constant<caf::atom("met")>;
using count_atom = caf::atom_constant<caf::atom("count")>;

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

caf::behavior creature(creature_actor* self, uint32_t id, caf::actor place) {
  static constexpr int32_t start_colours[] = {blue, red, yellow};
  self->state.id = id;
  self->state.colour = start_colours[id % 3];
  self->send(place, meet_atom::value, id, self->state.colour);
  return {
    [=](met_atom, uint32_t partner, int32_t colour) {
      auto& st = self->state;
      if (partner == st.id)
        ++st.self_meetings;
      ++st.meetings;
      st.colour = colour;
      self->send(place, meet_atom::value, st.id, st.colour);
    },
    [=](stop_atom) {
      auto& st = self->state;
      self->send(place, count_atom::value, st.id, st.meetings,
                 st.self_meetings);
      self->quit();
    },
  };
}

struct waiting {
  uint32_t id;
  int32_t colour;
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

// Tells every creature to stop; each answers with its count.
void close_place(place_actor* self) {
  for (const auto& c : self->state.creatures)
    self->send(c, stop_atom::value);
}

// Ends the run with an error for the driver.
void fail_run(place_actor* self, const char* what) {
  self->state.done.deliver(caf::make_error(caf::sec::runtime_error, what));
  for (const auto& c : self->state.creatures)
    self->send_exit(c, caf::exit_reason::user_shutdown);
  self->quit();
}

caf::behavior meeting_place(place_actor* self, uint32_t creatures,
                            uint64_t meetings) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.meetings_left = meetings;
      st.counts.assign(creatures, 0);
      st.creatures.reserve(creatures);
      auto place = caf::actor_cast<caf::actor>(self);
      for (uint32_t id = 0; id < creatures; ++id)
        st.creatures.push_back(self->spawn(creature, id, place));
      if (meetings == 0)
        close_place(self);
      return st.done;
    },
    [=](meet_atom, uint32_t id, int32_t colour) {
      auto& st = self->state;
      if (st.meetings_left == 0)
        return; // meetings are over; this creature is being stopped
      if (!st.first) {
        st.first = waiting{id, colour};
        return;
      }
      auto other = *st.first;
      st.first.reset();
      if (other.id == id)
        return fail_run(self, "paired a creature with itself");
      auto next_colour = complement(other.colour, colour);
      self->send(st.creatures[other.id], met_atom::value, id, next_colour);
      self->send(st.creatures[id], met_atom::value, other.id, next_colour);
      if (--st.meetings_left == 0)
        close_place(self);
    },
    [=](count_atom, uint32_t id, uint64_t meetings, uint64_t self_meetings) {
      auto& st = self->state;
      st.counts[id] = meetings;
      st.self_meetings += self_meetings;
      if (++st.reported < st.creatures.size())
        return;
      if (st.self_meetings > 0)
        return fail_run(self, "a creature met itself");
      st.done.deliver(st.counts);
      self->quit();
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
