// The one timing protocol behind every figure of the benchmark: warm up until the rate stops improving,
// size a repeat from the warm rate, then take the median of several repeats.  The wasm, PyTorch and
// TensorFlow.js runners (scripts/bench/protocol.mjs, tests/reference/bench_torch.py) implement the same
// steps, so their figures compare.
#pragma once
#include <functional>
#include <vector>

namespace sqrtdk::bench {

double now_seconds();  // monotonic
double median(std::vector<double> values);

struct Protocol {
  double warmup_seconds;      // at least this long, one call at a time
  double warmup_max_seconds;  // then in rounds until a round is not 5% faster than the last, up to this
  int warmup_min_calls;
  int repeats;
  double repeat_seconds;      // each repeat runs a fixed number of calls sized to last about this long
};

// `run(n)` performs n calls of the measured operation.
using Calls = std::function<void(long)>;

double seconds_per_call(const Calls& run, long calls);
long calls_lasting(double seconds, double seconds_per_call);

struct WarmUp {
  double seconds_per_call = 0;  // of the last warm-up round
  double seconds = 0;           // spent warming up
};
WarmUp warm_up(const Calls& run, const Protocol& protocol);

struct Timing {
  double seconds_per_call = 0;     // median over the repeats
  std::vector<double> per_repeat;  // seconds per call of each repeat
  long calls_per_repeat = 0;
  double warmup_seconds = 0;
};
// warm_up, then protocol.repeats repeats.
Timing time_calls(const Calls& run, const Protocol& protocol);

// Seconds per call of several operations, each its fastest repeat, the repeats taken in rounds (one of each
// operation per round) after every operation has warmed up.  For throughput figures on a shared machine:
// another process can only slow an operation down, and a burst of load then spreads over all of them instead
// of landing on one (or on the peak they are compared with).
std::vector<double> fastest_interleaved(const std::vector<Calls>& runs, const Protocol& protocol);

}  // namespace sqrtdk::bench
