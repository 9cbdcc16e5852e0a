// fjthrput: fork-join throughput, one sender and many receivers (Savina).
//
// CAF mapping: the root is the sender and the collector, a stateful
// event-based actor. On `run` it spawns `actors` receivers, then in one
// handler sends, for i = 0..messages-1 and within that for every receiver r
// in order, a plain `(msg, v)` with v = r*messages + i. A receiver counts each
// message and adds `step(v)` to its digest; when it has counted `messages`
// (the count it was spawned with) it sends `(done, count, digest)` to the root
// and quits. A receiver spawned with messages=0 reports at once from its spawn
// function. The root adds up the reports and, after the last, delivers
// HANDLED:DIGEST to the driver.
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using msg_atom = caf::atom_constant<caf::atom("msg")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct receiver_state {
  uint64_t count = 0;
  uint64_t digest = 0;
};

using receiver_actor = caf::stateful_actor<receiver_state>;

caf::behavior receiver(receiver_actor* self, uint64_t messages,
                       caf::actor collector) {
  if (messages == 0) {
    self->send(collector, done_atom::value, uint64_t{0}, uint64_t{0});
    self->quit();
    return {};
  }
  return {
    [=](msg_atom, uint64_t v) {
      auto& st = self->state;
      st.digest += step(v);
      if (++st.count == messages) {
        self->send(collector, done_atom::value, st.count, st.digest);
        self->quit();
      }
    },
  };
}

struct sender_state {
  uint64_t reported = 0;
  uint64_t handled = 0;
  uint64_t digest = 0;
  caf::response_promise done;
};

caf::behavior sender(caf::stateful_actor<sender_state>* self, uint64_t actors,
                     uint64_t messages) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      std::vector<caf::actor> receivers;
      receivers.reserve(actors);
      for (uint64_t r = 0; r < actors; ++r)
        receivers.push_back(self->spawn(receiver, messages, me));
      for (uint64_t i = 0; i < messages; ++i)
        for (uint64_t r = 0; r < actors; ++r)
          self->send(receivers[r], msg_atom::value, r * messages + i);
      return self->state.done;
    },
    [=](done_atom, uint64_t count, uint64_t digest) {
      auto& st = self->state;
      st.handled += count;
      st.digest += digest;
      if (++st.reported == actors) {
        st.done.deliver(st.handled, st.digest);
        self->quit();
      }
    },
  };
}

} // namespace

outcome run_fjthrput(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(sender, args.get("actors"), args.get("messages"));
  uint64_t handled = 0;
  uint64_t digest = 0;
  await_reply(
    sys, root,
    [&](uint64_t h, uint64_t d) {
      handled = h;
      digest = d;
    },
    run_atom::value);
  return {std::to_string(handled) + ":" + std::to_string(digest), ""};
}

} // namespace suite
