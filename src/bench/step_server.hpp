// sqrtdk_bench --serve: Trainer::step() behind the step-server protocol of scripts/bench/protocol.mjs, so that
// scripts/bench.mjs can interleave the repeats of every implementation (native, wasm, PyTorch, TF.js): on a
// shared machine a busy moment then slows all of them alike instead of whichever happened to be running.
#pragma once
#include "bench/timing.hpp"

namespace sqrtdk::bench {

// Reads requests from stdin until "finish" or end of input; returns the exit status.
int serve_steps(const Protocol& protocol);

}  // namespace sqrtdk::bench
