// A setting given by a default and an inclusive range, written once as a row: the saturation explorer's
// (explorer_settings.hpp) and an exercise run's (run_settings.hpp).  A row drives the CLI flag that reads it
// and its usage line, the core's check of a value, and the page's control (through lab.explorerSchema() and
// lab.runSchema()).  The training settings, which are fields of a TrainConfig, are the other table
// (settings.hpp).
#pragma once
#include <string>

namespace sqrtdk {

struct RangeSetting {
  const char* name;        // the CLI flag without "--", the JS option key and the name in messages
  bool integer;            // an integer (a seed included), else a finite real
  double value;            // the default
  double lo, hi;           // inclusive range
  const char* doc;         // one line
  const char* hi_name = nullptr;  // the upper end in usage text when another setting sets it ("keys" for top)
};

// "" if `value` is allowed, else "dk must be in [1, 4096], got 0" or "alpha must be a finite number in [0, 2],
// got nan" (a row's own range; `hi` overrides it, for top whose upper end is the number of keys).
std::string check_range(const RangeSetting& s, double value);
std::string check_range(const RangeSetting& s, double value, double hi);

// The range as usage text writes it: "1..4096" for an integer ("0..2^53-1" for a seed, "1..keys" with
// hi_name), "[0, 2]" for a real.
std::string range_text(const RangeSetting& s);

// The default as usage text writes it: "128", "0.5".
std::string default_text(const RangeSetting& s);

// One usage line: "  --dk N        query/key dimension, 1..4096 (default 128)".
std::string range_usage_line(const RangeSetting& s);

}  // namespace sqrtdk
