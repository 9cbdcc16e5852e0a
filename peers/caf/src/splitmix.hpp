// SplitMix64, the one generator of the Savina ten (docs/benchmarks.md, "The
// generator and the arithmetic").
//
// `step(x)` adds the golden-ratio gamma to x and scrambles the sum with two
// xor-shift-multiply rounds; `work(x, n)` applies `step` n times and is the
// unit of CPU work the benchmarks compute where Savina busy-waits. A
// `splitmix` generator keeps a state, adds gamma to it on every draw and
// returns the scrambled state, so its draws are `step` of the state before.
// All arithmetic is on uint64_t, which C++ defines to wrap mod 2^64.
#pragma once

#include <cstdint>

namespace suite {

/// The Weyl-sequence increment of SplitMix64.
constexpr uint64_t splitmix_gamma = 0x9E3779B97F4A7C15ULL;

/// SplitMix64's finalizer.
constexpr uint64_t splitmix_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// `mix(x + gamma)`.
constexpr uint64_t step(uint64_t x) {
  return splitmix_mix(x + splitmix_gamma);
}

/// `step` applied `n` times to `x` (`work(x, 0) == x`).
constexpr uint64_t work(uint64_t x, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    x = step(x);
  return x;
}

/// A SplitMix64 generator: one per drawing actor, never shared.
class splitmix {
public:
  explicit splitmix(uint64_t seed = 0) : state_(seed) {
    // nop
  }

  /// The next draw.
  uint64_t next() {
    state_ += splitmix_gamma;
    return splitmix_mix(state_);
  }

  /// `next() mod n`, for n >= 1.
  uint64_t below(uint64_t n) {
    return next() % n;
  }

private:
  uint64_t state_;
};

// The known values of docs/benchmarks.md.
static_assert(step(0) == 16294208416658607535ULL, "step(0)");
static_assert(work(0, 2) == 12035550249420947055ULL, "work(0, 2)");

} // namespace suite
