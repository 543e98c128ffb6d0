// Command-line flags of one subcommand: `--name value`, `--name=value`, or a bare switch `--name`.
//
// A token after `--name` is taken as its value unless it starts with "--" (so `--alpha -0.5` works and
// `--json --keys 50` reads `json` as a switch). `-h` means `--help`. Every problem is a UsageError whose
// message is one line naming the flag; main.cpp prints it to stderr and exits with code 2.
//
// Typical command (read and check every flag before writing any output):
//
//   int run_train(const Args& args) {
//     if (args.wants_help()) return emit(kTrainUsage);                    // output.hpp
//     args.accept({"steps", "seed", "lr", "dk", "scale", "json"});          // anything else: "unknown flag --x"
//     const int steps = args.get_int("steps", 1500, 1, 1000000);           // default, then inclusive range
//     const double lr = args.get_double("lr", 1e-3, 0.0, 1.0);
//     const uint64_t seed = args.get_u64("seed", 0, 0, kMaxSeed);          // kMaxSeed: commands.hpp
//     const std::string scale = args.get_choice("scale", "scaled", {"scaled", "unscaled", "qknorm"});
//     const std::vector<int> dks = args.get_int_list("dk", {64}, 1, 4096);  // "--dk 16,32,64"
//     const bool json = args.get_switch("json");                            // true if given; a value is an error
//     ...
//   }
#pragma once
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace sqrtdk {

// A malformed command line; the message is one line and names the flag, e.g. "--keys must be an integer in
// [2, 10000], got '1'".
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // Parses the tokens after the subcommand name. Throws UsageError on a stray token ("unexpected argument
  // 'x'"), an empty flag name, or a flag given twice.
  explicit Args(const std::vector<std::string>& tokens);

  // True if --help (or -h) was given; check it first, before accept().
  bool wants_help() const;

  // Throws UsageError "unknown flag --x" for the first given flag not in `names` ("help" is always accepted).
  void accept(std::initializer_list<const char*> names) const;
  void accept(const std::vector<std::string>& names) const;

  // True if the flag was given, with or without a value.
  bool has(const std::string& name) const;

  // True if the bare switch was given, false if absent; throws if it was given a value ("--json takes no value").
  bool get_switch(const std::string& name) const;

  // `fallback` if absent; otherwise the value, which must parse completely and lie in [lo, hi]. Doubles must be
  // finite. Throws UsageError naming the flag, the rule and the text given.
  int get_int(const std::string& name, int fallback, int lo, int hi) const;
  uint64_t get_u64(const std::string& name, uint64_t fallback, uint64_t lo, uint64_t hi) const;
  double get_double(const std::string& name, double fallback, double lo, double hi) const;

  // `fallback` if absent; otherwise the value, which must parse completely as a finite number (as an integer,
  // digits only, if `integer`).  The range is the caller's to check (the settings table does).
  double get_number(const std::string& name, double fallback, bool integer) const;

  // `fallback` if absent; the value as given otherwise (it must not be empty).
  std::string get_string(const std::string& name, const std::string& fallback) const;

  // Like get_string, but the value must be one of `choices`.
  std::string get_choice(const std::string& name, const std::string& fallback,
                         std::initializer_list<const char*> choices) const;

  // Comma-separated integers, each in [lo, hi], at least one and at most max_count ("--dk 1,2,4").
  std::vector<int> get_int_list(const std::string& name, const std::vector<int>& fallback, int lo, int hi,
                                int max_count = 1000) const;

 private:
  struct Flag {
    std::string name;
    std::string value;
    bool has_value = false;
  };

  const Flag* find(const std::string& name) const;
  // The flag's value; throws "--name needs a value" if it was given as a bare switch.
  const std::string& value_of(const Flag& flag) const;

  std::vector<Flag> flags_;  // in command-line order
};

}  // namespace sqrtdk
