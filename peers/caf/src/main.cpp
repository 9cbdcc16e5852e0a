// caf-suite: the actor benchmark suite on CAF 0.17 (the C++ Actor Framework).
//
// `caf-suite BENCH [NAME=VALUE ...]` parses and validates the arguments
// (args.hpp; exit 2 with one stderr line on bad input), builds an
// `actor_system_config` whose only change from CAF's defaults is
// `scheduler.max-threads` from the `CAF_THREADS` environment variable (and,
// for barber alone, the `sharing` scheduler policy), starts
// the actor system, runs the benchmark and prints the single result line on
// stdout, with `seconds=` the work time from just before the actor system is
// configured until the check is known. CAF's own command-line and config-file
// parsing is never invoked, so the benchmark arguments cannot be taken for CAF
// options and no caf-application.ini is read.
//
// A failed run prints one stderr line and exits 1 at once, without waiting
// for the actor system to shut down (stray actors could otherwise keep it
// alive). After a successful run a watchdog bounds the shutdown as well.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>

#include "caf/all.hpp"

#include "args.hpp"
#include "benchmarks.hpp"
#include "driver.hpp"

namespace {

using runner = suite::outcome (*)(caf::actor_system&, const suite::bench_args&);

runner find_runner(const std::string& bench) {
  struct entry {
    const char* name;
    runner run;
  };
  static const entry table[] = {
    {"threadring", suite::run_threadring}, {"chameneos", suite::run_chameneos},
    {"big", suite::run_big},               {"fannkuch", suite::run_fannkuch},
    {"fibtree", suite::run_fibtree},       {"skynet", suite::run_skynet},
    {"spreading", suite::run_spreading},   {"mixed", suite::run_mixed},
    {"bang", suite::run_bang},             {"serialmsg", suite::run_serialmsg},
    {"pingpong", suite::run_pingpong},     {"counting", suite::run_counting},
    {"fjthrput", suite::run_fjthrput},     {"fjcreate", suite::run_fjcreate},
    {"concdict", suite::run_concdict},     {"concsll", suite::run_concsll},
    {"bndbuffer", suite::run_bndbuffer},   {"philosopher", suite::run_philosopher},
    {"barber", suite::run_barber},         {"cigsmok", suite::run_cigsmok},
    {"logmap", suite::run_logmap},         {"banking", suite::run_banking},
  };
  for (const auto& e : table)
    if (bench == e.name)
      return e.run;
  return nullptr;
}

[[noreturn]] void fail(const std::string& bench, const std::string& what) {
  std::fprintf(stderr, "error: %s: run failed: %s\n", bench.c_str(),
               what.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

// Ends the process if the actor system has not shut down within a minute.
void arm_shutdown_watchdog(const std::string& bench) {
  std::thread([bench] {
    std::this_thread::sleep_for(std::chrono::seconds{60});
    fail(bench, "actor system did not shut down within 60 s");
  }).detach();
}

} // namespace

int main(int argc, char** argv) {
  suite::bench_args args;
  uint64_t threads = 0;
  try {
    args = suite::parse_args(argc, argv);
    threads = suite::positive_env("CAF_THREADS");
    suite::init_run_timeout();
  } catch (const suite::usage_error& err) {
    std::fprintf(stderr, "error: %s\n", err.what());
    return 2;
  }
  auto run = find_runner(args.bench);
  if (run == nullptr)
    fail(args.bench, "no implementation");
  // Work time: from just before the actor system is configured and started
  // until the check is known (the result line's `seconds=`).
  auto start = std::chrono::steady_clock::now();
  caf::actor_system_config cfg;
  if (threads > 0)
    cfg.set("scheduler.max-threads", static_cast<size_t>(threads));
  // barber alone runs on CAF's FIFO `sharing` scheduler: under the default
  // `stealing` policy a worker runs the actor it scheduled last first, so the
  // customers the room turns away, bouncing between room, customer and
  // factory, can keep one worker busy for ever while the barber waits below
  // them (peers/README.md).
  if (args.bench == "barber")
    cfg.set("scheduler.policy", caf::atom("sharing"));
  caf::actor_system sys{cfg};
  suite::outcome out;
  try {
    out = run(sys, args);
  } catch (const std::exception& err) {
    fail(args.bench, err.what());
  }
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("result bench=%s check=%s%s seconds=%.9f\n", args.bench.c_str(),
              out.check.c_str(), out.extra.c_str(), took.count());
  std::fflush(stdout);
  std::fprintf(stderr, "caf-suite: %s ran in %.3f s\n", args.bench.c_str(),
               took.count());
  arm_shutdown_watchdog(args.bench);
  return 0; // ~actor_system waits until every actor has quit
}
