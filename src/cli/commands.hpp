// The subcommands of the `sqrtdk` CLI; main.cpp dispatches `sqrtdk <name> [flags]` to them.
//
// Contract for every command (see args.hpp for the flag API):
//   - `--help`: print the usage to stdout, return 0.
//   - Read and check every flag before writing anything: a bad flag must leave stdout empty.
//   - Throw UsageError (args.hpp) or ConfigError (core/settings/config.hpp) for bad input: main prints
//     "sqrtdk <name>: <message>" on one line to stderr and exits 2. Any other exception exits 1.
//   - Build the output in a string and end with `return emit(text);` (output.hpp).
#pragma once
#include <cstdint>

#include "cli/args.hpp"
#include "core/arith/rng.hpp"  // kMaxSeed

namespace sqrtdk {

int run_softmax(const Args& args);    // cmd_softmax.cpp: one draw, softmax of raw vs scaled q.k
int run_sweep(const Args& args);      // cmd_sweep.cpp: saturation statistics across d_k
int run_histogram(const Args& args);  // cmd_histogram.cpp: histogram of q.k at one d_k
int run_train(const Args& args);      // cmd_train.cpp
int run_compare(const Args& args);    // cmd_compare.cpp
int run_dump(const Args& args);       // cmd_dump.cpp
int run_scenarios(const Args& args);  // cmd_scenarios.cpp: the page's one-click presets
int run_fingerprint(const Args& args);  // cmd_fingerprint.cpp: the hash of the float arithmetic
int run_claims(const Args& args);     // cmd_claims.cpp: the scenarios' claims over many seeds, and measuring them
int run_export_torch(const Args& args);  // cmd_export_torch.cpp: the exercise as a PyTorch script or notebook
int run_glossary(const Args& args);   // cmd_glossary.cpp: the terms the lab uses, and the lesson's claim quoted

}  // namespace sqrtdk
