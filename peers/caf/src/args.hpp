// Command-line parsing for caf-suite, exactly as docs/benchmarks.md ("Bad input and failures")
// pins it down.
//
// The invocation is `caf-suite BENCH [NAME=VALUE ...]`. Every benchmark has a
// fixed table of parameters, each with a quick default and an inclusive range.
// Values are non-negative decimal integers; a repeated, unknown or malformed
// parameter, or a value outside its range, is a usage error. Skynet adds one
// rule across two parameters: `size` must be a power of `div`.
//
// The parser never touches CAF: CAF's own option parser is not run at all, so
// benchmark arguments can never be mistaken for CAF options.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace suite {

/// A usage error. `what()` is the message without the `error: ` prefix; the
/// caller prints it as one stderr line and exits with status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A validated invocation: the benchmark name and a value for every one of
/// its parameters (defaults filled in).
struct bench_args {
  std::string bench;
  std::map<std::string, uint64_t> values;

  /// The value of parameter `name`; the parameter must belong to `bench`.
  uint64_t get(const std::string& name) const;
};

/// The benchmark names, in the contract's order.
std::vector<std::string> benchmark_names();

/// Parses `argv[1..argc)`; throws `usage_error` on bad input.
bench_args parse_args(int argc, const char* const* argv);

/// Parses an environment knob that must be a positive integer (for example
/// `CAF_THREADS`). Returns 0 when the variable is unset; throws `usage_error`
/// when it is set to anything else than a positive decimal integer.
uint64_t positive_env(const char* name);

} // namespace suite
