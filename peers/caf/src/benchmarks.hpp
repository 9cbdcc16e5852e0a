// The twenty-two benchmarks of docs/benchmarks.md on CAF.
//
// Each `run_*` function runs one benchmark to completion in `sys` and returns
// what the result line reports. It spawns the benchmark's root actor, waits
// for its reply with `await_reply` (driver.hpp) and throws `run_failure` when
// the run fails. Every actor a run spawns has quit by the time the root
// replies or shortly after, so the actor system can shut down cleanly.
#pragma once

#include <string>

#include "caf/fwd.hpp"

#include "args.hpp"

namespace suite {

/// What a run reports: the check value and, for chameneos, the extra
/// ` counts=...` field (empty for the other benchmarks).
struct outcome {
  std::string check;
  std::string extra;
};

outcome run_threadring(caf::actor_system& sys, const bench_args& args);
outcome run_chameneos(caf::actor_system& sys, const bench_args& args);
outcome run_big(caf::actor_system& sys, const bench_args& args);
outcome run_fannkuch(caf::actor_system& sys, const bench_args& args);
outcome run_fibtree(caf::actor_system& sys, const bench_args& args);
outcome run_skynet(caf::actor_system& sys, const bench_args& args);
outcome run_spreading(caf::actor_system& sys, const bench_args& args);
outcome run_mixed(caf::actor_system& sys, const bench_args& args);
outcome run_bang(caf::actor_system& sys, const bench_args& args);
outcome run_serialmsg(caf::actor_system& sys, const bench_args& args);
outcome run_pingpong(caf::actor_system& sys, const bench_args& args);
outcome run_counting(caf::actor_system& sys, const bench_args& args);
outcome run_fjthrput(caf::actor_system& sys, const bench_args& args);
outcome run_fjcreate(caf::actor_system& sys, const bench_args& args);
outcome run_concdict(caf::actor_system& sys, const bench_args& args);
outcome run_concsll(caf::actor_system& sys, const bench_args& args);
outcome run_bndbuffer(caf::actor_system& sys, const bench_args& args);
outcome run_philosopher(caf::actor_system& sys, const bench_args& args);
outcome run_barber(caf::actor_system& sys, const bench_args& args);
outcome run_cigsmok(caf::actor_system& sys, const bench_args& args);
outcome run_logmap(caf::actor_system& sys, const bench_args& args);
outcome run_banking(caf::actor_system& sys, const bench_args& args);

} // namespace suite
