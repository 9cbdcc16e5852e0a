// serialmsg: messages proxied through one dispatcher (BenchErl's serialmsg).
//
// CAF mapping: the root is a collector (stateful event-based actor). On `run`
// it spawns the dispatcher and `pairs` receiver/generator pairs. A generator
// is a function-based actor whose body sends `messages` (`route`, receiver,
// seq) messages to the dispatcher, addressed to its own receiver by handle,
// then one (`end`, receiver); it sets no behaviour, so CAF terminates it
// when the body returns. The dispatcher forwards each `route` to the
// addressed receiver as (`deliver`, seq) and each `end` as `end`. A receiver
// counts its deliveries; the end marker travels the same path
// (generator -> dispatcher -> receiver, each hop in order), so it arrives
// after all of its generator's messages, and the receiver then reports its
// count to the collector and quits. When every receiver has reported, the
// collector stops the dispatcher and delivers the total.
#include <cstdint>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"

namespace suite {

namespace {

using route_atom = caf::atom_constant<caf::atom("route")>;
using deliver_atom = caf::atom_constant<caf::atom("deliver")>;
using end_atom = caf::atom_constant<caf::atom("end")>;
using count_atom = caf::atom_constant<caf::atom("count")>;

caf::behavior dispatcher(caf::event_based_actor* self) {
  return {
    [=](route_atom, const caf::actor& to, uint64_t seq) {
      self->send(to, deliver_atom::value, seq);
    },
    [=](end_atom, const caf::actor& to) { self->send(to, end_atom::value); },
    [=](stop_atom) { self->quit(); },
  };
}

void generator(caf::event_based_actor* self, caf::actor dispatcher,
               caf::actor receiver, uint64_t messages) {
  for (uint64_t seq = 0; seq < messages; ++seq)
    self->send(dispatcher, route_atom::value, receiver, seq);
  self->send(dispatcher, end_atom::value, receiver);
}

struct receiver_state {
  uint64_t delivered = 0;
};

caf::behavior receiver(caf::stateful_actor<receiver_state>* self,
                       caf::actor collector) {
  return {
    [=](deliver_atom, uint64_t) { ++self->state.delivered; },
    [=](end_atom) {
      self->send(collector, count_atom::value, self->state.delivered);
      self->quit();
    },
  };
}

struct collector_state {
  caf::actor dispatcher;
  uint32_t reported = 0;
  uint64_t delivered = 0;
  caf::response_promise done;
};

caf::behavior collector(caf::stateful_actor<collector_state>* self,
                        uint32_t pairs, uint64_t messages) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.dispatcher = self->spawn(dispatcher);
      auto me = caf::actor_cast<caf::actor>(self);
      for (uint32_t i = 0; i < pairs; ++i) {
        auto to = self->spawn(receiver, me);
        self->spawn(generator, st.dispatcher, to, messages);
      }
      return st.done;
    },
    [=](count_atom, uint64_t n) {
      auto& st = self->state;
      st.delivered += n;
      if (++st.reported < pairs)
        return;
      self->send(st.dispatcher, stop_atom::value);
      st.done.deliver(st.delivered);
      self->quit();
    },
  };
}

} // namespace

outcome run_serialmsg(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(collector, static_cast<uint32_t>(args.get("pairs")),
                        args.get("messages"));
  uint64_t delivered = 0;
  await_reply(
    sys, root, [&](uint64_t n) { delivered = n; }, run_atom::value);
  return {std::to_string(delivered), ""};
}

} // namespace suite
