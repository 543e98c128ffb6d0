#include "bench/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace sqrtdk::bench {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double seconds_per_call(const Calls& run, long calls) {
  const double t0 = now_seconds();
  run(calls);
  return (now_seconds() - t0) / static_cast<double>(calls);
}

long calls_lasting(double seconds, double per_call) { return std::max(1L, std::lround(seconds / per_call)); }

// V8 compiles a hot wasm function with its optimising tier in the background and uses the result only
// from the next call on, so the first seconds can run several times slower (in chromium more than under
// Node): warming up for a fixed time is not enough.
WarmUp warm_up(const Calls& run, const Protocol& p) {
  const double start = now_seconds();
  double last = 0;
  for (long calls = 0; calls < p.warmup_min_calls || now_seconds() - start < p.warmup_seconds; ++calls)
    last = seconds_per_call(run, 1);
  while (now_seconds() - start < p.warmup_max_seconds) {
    const double round = seconds_per_call(run, calls_lasting(p.repeat_seconds, last));
    const bool improving = round < 0.95 * last;
    last = round;
    if (!improving) break;
  }
  return WarmUp{last, now_seconds() - start};
}

Timing time_calls(const Calls& run, const Protocol& protocol) {
  const WarmUp warm = warm_up(run, protocol);
  Timing t;
  t.warmup_seconds = warm.seconds;
  t.calls_per_repeat = calls_lasting(protocol.repeat_seconds, warm.seconds_per_call);
  for (int r = 0; r < protocol.repeats; ++r) t.per_repeat.push_back(seconds_per_call(run, t.calls_per_repeat));
  t.seconds_per_call = median(t.per_repeat);
  return t;
}

std::vector<double> fastest_interleaved(const std::vector<Calls>& runs, const Protocol& protocol) {
  std::vector<long> calls;
  for (const Calls& run : runs)
    calls.push_back(calls_lasting(protocol.repeat_seconds, warm_up(run, protocol).seconds_per_call));
  std::vector<double> fastest(runs.size(), std::numeric_limits<double>::infinity());
  for (int r = 0; r < protocol.repeats; ++r)
    for (std::size_t i = 0; i < runs.size(); ++i)
      fastest[i] = std::min(fastest[i], seconds_per_call(runs[i], calls[i]));
  return fastest;
}

}  // namespace sqrtdk::bench
