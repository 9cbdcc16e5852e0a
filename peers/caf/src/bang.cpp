// bang: many senders flooding one receiver (BenchErl's bang).
//
// CAF mapping: the root is the receiver, a stateful event-based actor. On
// `run` it spawns `senders` sender actors. A sender is a function-based actor
// whose body sends `messages` `bang` messages to the receiver and then one
// `done`; it sets no behaviour, so CAF terminates it when the body returns.
// The receiver counts every `bang`; since messages from one sender arrive in
// order, a sender's `done` follows all its bangs, so when every sender's
// `done` has arrived the count is complete and the receiver delivers it.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using bang_atom = caf::atom_constant<caf::atom("bang")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

void sender(caf::event_based_actor* self, caf::actor receiver,
            uint64_t messages) {
  for (uint64_t i = 0; i < messages; ++i)
    self->send(receiver, bang_atom::value);
  self->send(receiver, done_atom::value);
}

struct receiver_state {
  uint64_t received = 0;
  uint32_t senders_done = 0;
  caf::response_promise done;
};

caf::behavior receiver(caf::stateful_actor<receiver_state>* self,
                       uint32_t senders, uint64_t messages) {
  return {
    [=](run_atom) {
      self->state.done = self->make_response_promise();
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint32_t i = 0; i < senders; ++i)
        self->spawn(sender, me, messages);
      return self->state.done;
    },
    [=](bang_atom) { ++self->state.received; },
    [=](done_atom) {
      auto& st = self->state;
      if (++st.senders_done < senders)
        return;
      st.done.deliver(st.received);
      self->quit();
    },
  };
}

} // namespace

outcome run_bang(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(receiver, static_cast<uint32_t>(args.get("senders")),
                        args.get("messages"));
  uint64_t received = 0;
  await_reply(
    sys, root, [&](uint64_t n) { received = n; }, run_atom::value);
  return {std::to_string(received), ""};
}

} // namespace suite
