// How a benchmark run is started and awaited.
//
// Every benchmark has a root actor (an event-based actor) that owns the run:
// it spawns the other actors, collects what they report and answers one
// request with the check value. The driver sends that request from a
// `scoped_actor` (CAF's blocking handle for non-actor code) and blocks in
// `request(...).receive(...)` until the reply, an error (for example the root
// died: CAF then answers the request with an error) or the run deadline,
// whichever comes first. An error or the deadline becomes a `run_failure`,
// which main turns into exit status 1.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "caf/all.hpp"

namespace suite {

/// Tag of the request that starts a run at a root actor.
using run_atom = caf::atom_constant<caf::atom("run")>;

/// Tag that tells a long-lived actor to quit once the run is over.
using stop_atom = caf::atom_constant<caf::atom("stop")>;

/// A failure during a run (error reply, dead root, deadline passed).
struct run_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How long the driver waits for the root's reply: `CAF_SUITE_TIMEOUT`
/// seconds if set, else one hour. Read once by `init_run_timeout`.
std::chrono::seconds run_timeout();

/// Reads and validates `CAF_SUITE_TIMEOUT` (throws `usage_error`).
void init_run_timeout();

/// Sends `xs...` as a request to `root` and blocks until the reply, which is
/// handed to `on_reply` (a callable whose parameters are the reply's types).
/// Throws `run_failure` on an error reply or when `run_timeout()` passes.
template <class OnReply, class... Ts>
void await_reply(caf::actor_system& sys, const caf::actor& root,
                 OnReply on_reply, Ts&&... xs) {
  caf::scoped_actor self{sys};
  bool failed = false;
  std::string reason;
  self->request(root, run_timeout(), std::forward<Ts>(xs)...)
    .receive(on_reply, [&](caf::error& err) {
      failed = true;
      if (err == caf::sec::request_timeout)
        reason = "no result within " + std::to_string(run_timeout().count())
                 + " s (CAF_SUITE_TIMEOUT)";
      else
        reason = sys.render(err);
    });
  if (failed)
    throw run_failure(reason);
}

} // namespace suite
