// sqrtdk: the lab's command-line front end. `sqrtdk <command> [flags]`; `sqrtdk <command> --help` for flags.
// Exit codes: 0 success, 1 runtime failure, 2 bad command line or invalid parameters.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "core/settings/config.hpp"

namespace {

struct Command {
  const char* name;
  int (*run)(const sqrtdk::Args&);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"softmax", sqrtdk::run_softmax, "one draw of q and keys: softmax weights of raw vs scaled q.k (the demo)"},
    {"sweep", sqrtdk::run_sweep, "saturation across d_k: max weight, entropy, Jacobian norm over many draws"},
    {"histogram", sqrtdk::run_histogram, "histogram of q.k and of the scaled q.k at one d_k"},
    {"train", sqrtdk::run_train, "train the copy-task transformer"},
    {"compare", sqrtdk::run_compare, "train scaled and unscaled variants over several seeds and compare"},
    {"dump", sqrtdk::run_dump, "dump model internals"},
    {"scenarios", sqrtdk::run_scenarios, "the page's one-click scenarios (run one: compare --scenario <id>)"},
    {"fingerprint", sqrtdk::run_fingerprint, "a hash of short training curves: the same on every machine and build"},
    {"claims", sqrtdk::run_claims, "each scenario's claims counted over its measured seeds (--measure: measure)"},
    {"export-torch", sqrtdk::run_export_torch, "the exercise as a PyTorch script or notebook (--notebook)"},
    {"glossary", sqrtdk::run_glossary, "the lesson's claim quoted, and every term the lab uses, defined"},
};

// Messages may quote user input: keep them on one line.
std::string one_line(const char* message) {
  std::string text = message;
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

std::string usage() {
  std::string text = "usage: sqrtdk <command> [flags]\n\ncommands:\n";
  for (const Command& command : kCommands) {
    text += "  " + std::string(command.name) + std::string(14 - std::string(command.name).size(), ' ') +
            command.summary + "\n";
  }
  text += "\nRun 'sqrtdk <command> --help' for its flags. Exit codes: 0 ok, 1 failure, 2 bad arguments.\n";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(usage().c_str(), stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  const Command* command = nullptr;
  for (const Command& candidate : kCommands) {
    if (name == candidate.name) command = &candidate;
  }
  if (command == nullptr) {
    std::fprintf(stderr, "sqrtdk: unknown command '%s' (run 'sqrtdk --help' for the list)\n", name.c_str());
    return 2;
  }
  try {
    const sqrtdk::Args args(std::vector<std::string>(argv + 2, argv + argc));
    return command->run(args);
  } catch (const sqrtdk::UsageError& e) {
    std::fprintf(stderr, "sqrtdk %s: %s (see 'sqrtdk %s --help')\n", command->name, one_line(e.what()).c_str(),
                 command->name);
    return 2;
  } catch (const sqrtdk::ConfigError& e) {
    std::fprintf(stderr, "sqrtdk %s: %s\n", command->name, one_line(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sqrtdk %s: error: %s\n", command->name, one_line(e.what()).c_str());
    return 1;
  }
}
