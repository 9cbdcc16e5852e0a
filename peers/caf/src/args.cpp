// Command-line parsing for caf-suite (see args.hpp for the rules).
//
// The parameter table below is the single source of the defaults (the
// contract's quick values) and the inclusive ranges. Arguments are checked in
// the order given: shape (NAME=VALUE), known name, not repeated, numeric, in
// range; the skynet power rule is checked last, on the final values.
#include "args.hpp"

#include <cstdlib>
#include <limits>

namespace suite {

namespace {

struct param_spec {
  const char* name;
  uint64_t quick;
  uint64_t min;
  uint64_t max;
};

struct bench_spec {
  const char* name;
  std::vector<param_spec> params;
};

const std::vector<bench_spec>& specs() {
  static const std::vector<bench_spec> table = {
    {"threadring", {{"actors", 503, 1, 1000000}, {"hops", 1000000, 0, 1000000000}}},
    {"chameneos",
     {{"creatures", 70, 2, 1000000}, {"meetings", 200000, 0, 100000000}}},
    {"big",
     {{"workers", 500, 1, 1000000},
      {"pings", 2000, 0, 100000000},
      {"hood", 1000, 1, 1000000}}},
    {"fannkuch", {{"n", 10, 3, 12}}},
    {"fibtree", {{"n", 20, 0, 40}}},
    {"skynet", {{"size", 100000, 1, 100000000}, {"div", 10, 2, 1000}}},
    {"spreading", {{"depth", 16, 0, 24}}},
    {"mixed",
     {{"rings", 4, 1, 10000},
      {"ring_size", 50, 2, 100000},
      {"token", 100, 0, 100000000},
      {"reps", 2, 1, 1000}}},
    {"bang", {{"senders", 100, 1, 1000000}, {"messages", 1000, 0, 100000000}}},
    {"serialmsg", {{"pairs", 40, 1, 100000}, {"messages", 1000, 0, 100000000}}},
    {"pingpong", {{"pings", 100000, 0, 1000000000}}},
    {"counting", {{"count", 1000000, 0, 1000000000}}},
    {"fjthrput", {{"actors", 60, 1, 100000}, {"messages", 2000, 0, 100000000}}},
    {"fjcreate", {{"actors", 20000, 1, 10000000}}},
    {"concdict",
     {{"workers", 20, 1, 10000},
      {"messages", 5000, 0, 100000000},
      {"write_pct", 10, 0, 100}}},
    {"concsll",
     {{"workers", 20, 1, 10000},
      {"messages", 1000, 0, 100000000},
      {"write_pct", 10, 0, 100},
      {"size_pct", 1, 0, 100}}},
    {"bndbuffer",
     {{"buffer", 50, 1, 1000000},
      {"producers", 40, 1, 10000},
      {"consumers", 40, 1, 10000},
      {"items", 500, 0, 100000000},
      {"cost", 25, 0, 1000000}}},
    {"philosopher",
     {{"philosophers", 20, 1, 10000}, {"rounds", 5000, 0, 100000000}}},
    {"barber",
     {{"haircuts", 1000, 0, 10000000},
      {"room", 1000, 1, 1000000},
      {"arrival", 1000, 0, 1000000},
      {"cut", 1000, 0, 1000000}}},
    {"cigsmok", {{"rounds", 1000, 0, 100000000}, {"smokers", 200, 1, 100000}}},
    {"logmap",
     {{"terms", 10000, 0, 100000000},
      {"series", 10, 1, 100},
      {"rate", 34600, 0, 36000},
      {"increment", 25, 0, 40}}},
    {"banking",
     {{"accounts", 1000, 2, 1000000}, {"transactions", 30000, 0, 100000000}}},
  };
  return table;
}

std::string known_benchmarks() {
  std::string out;
  for (const auto& spec : specs()) {
    if (!out.empty())
      out += ", ";
    out += spec.name;
  }
  return out;
}

std::string known_params(const bench_spec& spec) {
  std::string out;
  for (const auto& p : spec.params) {
    if (!out.empty())
      out += ", ";
    out += p.name;
  }
  return out;
}

enum class number { ok, not_numeric, too_big };

// Parses a non-empty string of decimal digits into `out`.
number parse_decimal(const std::string& text, uint64_t& out) {
  if (text.empty())
    return number::not_numeric;
  uint64_t value = 0;
  bool overflow = false;
  for (char c : text) {
    if (c < '0' || c > '9')
      return number::not_numeric;
    auto digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
      overflow = true;
    else
      value = value * 10 + digit;
  }
  if (overflow)
    return number::too_big;
  out = value;
  return number::ok;
}

bool is_power_of(uint64_t size, uint64_t div) {
  while (size % div == 0)
    size /= div;
  return size == 1;
}

} // namespace

uint64_t bench_args::get(const std::string& name) const {
  auto i = values.find(name);
  if (i == values.end())
    throw std::logic_error(bench + ": no parameter " + name);
  return i->second;
}

std::vector<std::string> benchmark_names() {
  std::vector<std::string> out;
  for (const auto& spec : specs())
    out.emplace_back(spec.name);
  return out;
}

bench_args parse_args(int argc, const char* const* argv) {
  if (argc < 2)
    throw usage_error("no benchmark given (known: " + known_benchmarks() + ")");
  std::string bench = argv[1];
  const bench_spec* spec = nullptr;
  for (const auto& s : specs())
    if (bench == s.name)
      spec = &s;
  if (spec == nullptr)
    throw usage_error("unknown benchmark '" + bench + "' (known: "
                      + known_benchmarks() + ")");
  bench_args out;
  out.bench = bench;
  std::map<std::string, bool> given;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    if (eq == std::string::npos)
      throw usage_error(bench + ": argument '" + arg + "' is not NAME=VALUE");
    std::string name = arg.substr(0, eq);
    std::string text = arg.substr(eq + 1);
    const param_spec* param = nullptr;
    for (const auto& p : spec->params)
      if (name == p.name)
        param = &p;
    if (param == nullptr)
      throw usage_error(bench + ": unknown parameter " + arg + " (known: "
                        + known_params(*spec) + ")");
    if (given[name])
      throw usage_error(bench + ": parameter " + arg + " given twice");
    given[name] = true;
    uint64_t value = 0;
    auto range = "(" + std::to_string(param->min) + "..="
                 + std::to_string(param->max) + ")";
    switch (parse_decimal(text, value)) {
      case number::not_numeric:
        throw usage_error(bench + ": " + arg + " is not a non-negative integer");
      case number::too_big:
        throw usage_error(bench + ": " + arg + " is out of range " + range);
      case number::ok:
        break;
    }
    if (value < param->min || value > param->max)
      throw usage_error(bench + ": " + arg + " is out of range " + range);
    out.values[name] = value;
  }
  for (const auto& p : spec->params)
    out.values.emplace(p.name, p.quick); // keeps given values
  if (bench == "skynet") {
    auto size = out.get("size");
    auto div = out.get("div");
    if (!is_power_of(size, div))
      throw usage_error("skynet: size=" + std::to_string(size)
                        + " is not a power of div=" + std::to_string(div));
  }
  return out;
}

uint64_t positive_env(const char* name) {
  const char* raw = std::getenv(name);
  if (raw == nullptr)
    return 0;
  std::string text = raw;
  uint64_t value = 0;
  if (parse_decimal(text, value) != number::ok || value == 0)
    throw usage_error(std::string{name} + "=" + text
                      + " is not a positive integer");
  return value;
}

} // namespace suite
