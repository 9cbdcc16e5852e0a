// The run deadline of the driver (see driver.hpp).
#include "driver.hpp"

#include "args.hpp"

namespace suite {

namespace {

std::chrono::seconds timeout{3600};

} // namespace

std::chrono::seconds run_timeout() {
  return timeout;
}

void init_run_timeout() {
  if (auto secs = positive_env("CAF_SUITE_TIMEOUT"))
    timeout = std::chrono::seconds{secs};
}

} // namespace suite
