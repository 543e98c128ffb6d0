// libFuzzer target: the CLI's argument handling.  Input bytes are split at NUL/newline into tokens, parsed as
// `sqrtdk train` flags and read into a configuration.  The only acceptable outcomes are a valid configuration
// or a UsageError/ConfigError with a one-line message; anything else (crash, UB, other exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/train_flags.hpp"
#include "core/settings/config.hpp"
#include "core/nn/valid_config.hpp"

namespace {
std::vector<std::string> tokens_of(const uint8_t* data, std::size_t size) {
  std::vector<std::string> tokens(1);
  for (std::size_t i = 0; i < size && tokens.size() <= 64; ++i) {
    if (data[i] == 0 || data[i] == '\n') tokens.emplace_back();
    else tokens.back().push_back(static_cast<char>(data[i]));
  }
  return tokens;
}

void require_one_line(const char* message) {
  const std::string m(message);
  if (m.empty() || m.find('\n') != std::string::npos) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  try {
    const sqrtdk::Args args(tokens_of(data, size));
    args.accept(sqrtdk::train_flag_names({"scale", "steps", "threshold", "csv", "json", "quiet"}));
    const sqrtdk::TrainConfig config = sqrtdk::read_train_config(args);
    if (!sqrtdk::validate(config).empty()) std::abort();  // read_train_config must only return valid ones
    args.get_int("steps", 1500, 1, 1000000);
    args.get_double("threshold", 0.1, 1e-9, 100.0);
    args.get_switch("json");
  } catch (const sqrtdk::UsageError& e) {
    require_one_line(e.what());
  } catch (const sqrtdk::ConfigError& e) {
    require_one_line(e.what());
  }
  return 0;
}
