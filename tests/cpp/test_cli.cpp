// The `sqrtdk` executable end to end (SQRTDK_CLI_PATH): output formats, exit codes and error messages.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/train/metrics.hpp"
#include "core/settings/settings.hpp"
#include "core/lesson/softmax_stats.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `sqrtdk <arguments>` through the shell, capturing stdout, stderr and the exit code.
RunResult run_cli(const std::string& arguments) {
  char err_path[] = "/tmp/sqrtdk_test_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string command = std::string("'") + SQRTDK_CLI_PATH + "' " + arguments + " 2>'" + err_path + "'";
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) result.out.append(buf, got);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err_file(err_path);
  std::stringstream err;
  err << err_file.rdbuf();
  result.err = err.str();
  std::remove(err_path);
  return result;
}

int count_lines(const std::string& text) {
  int lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

// A minimal JSON reader for checking the CLI's output (objects, arrays, numbers, strings, true/false/null).
struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  double number = 0.0;
  bool boolean = false;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  const Json& operator[](const std::string& key) const {
    const auto it = object.find(key);
    if (type != Type::object || it == object.end()) throw std::runtime_error("missing key " + key);
    return it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : text_(text) {}

  Json document() {
    Json value = parse_value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) fail(std::string("expected '") + c + "'");
  }
  bool consume_word(const std::string& word) {
    if (text_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }
  std::string parse_string() {
    expect('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) fail("bad escape");
        c = text_[pos_++];
        if (c == 'n') c = '\n';
        if (c == 't') c = '\t';
        if (c == 'u') fail("\\u escapes are not expected here");
      }
      out += c;
    }
    expect('"');
    return out;
  }
  Json parse_value() {
    skip_space();
    Json value;
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      value.type = Json::Type::object;
      if (consume('}')) return value;
      do {
        skip_space();
        const std::string key = parse_string();
        expect(':');
        value.object[key] = parse_value();
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      value.type = Json::Type::array;
      if (consume(']')) return value;
      do {
        value.array.push_back(parse_value());
      } while (consume(','));
      expect(']');
    } else if (c == '"') {
      value.type = Json::Type::string;
      value.string = parse_string();
    } else if (consume_word("true")) {
      value.type = Json::Type::boolean;
      value.boolean = true;
    } else if (consume_word("false")) {
      value.type = Json::Type::boolean;
    } else if (consume_word("null")) {
      value.type = Json::Type::null;
    } else {
      const char* start = text_.c_str() + pos_;
      char* end = nullptr;
      value.number = std::strtod(start, &end);
      if (end == start) fail("bad value");
      value.type = Json::Type::number;
      pos_ += static_cast<size_t>(end - start);
    }
    return value;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

Json parse_json(const std::string& text) { return JsonReader(text).document(); }

std::vector<std::string> keys_of(const Json& value) {
  std::vector<std::string> keys;
  for (const auto& entry : value.object) keys.push_back(entry.first);
  return keys;
}

}  // namespace

TEST_CASE("softmax --json prints one object with exactly the documented fields", "[cli]") {
  const RunResult result = run_cli("softmax --dk 128 --keys 50 --seed 0 --json");
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(count_lines(result.out) == 1);
  const Json json = parse_json(result.out);
  CHECK(keys_of(json) == std::vector<std::string>{"alpha", "dk", "keys", "raw", "scaled", "seed"});
  CHECK(json["dk"].number == 128);
  CHECK(json["keys"].number == 50);
  CHECK(json["seed"].number == 0);
  CHECK(json["alpha"].number == 0.5);
  for (const char* side : {"raw", "scaled"}) {
    CAPTURE(side);
    const Json& stats = json[side];
    CHECK(keys_of(stats) == std::vector<std::string>{"effective_keys", "entropy", "jacobian_norm", "max", "top5"});
    const std::vector<Json>& top = stats["top5"].array;
    REQUIRE(top.size() == 5);
    for (size_t i = 1; i < top.size(); ++i) CHECK(top[i - 1].number >= top[i].number);
    CHECK(top[0].number == stats["max"].number);
  }
  CHECK(json["raw"]["max"].number > json["scaled"]["max"].number);
}

TEST_CASE("softmax --json numbers read back as the library's exact doubles", "[cli]") {
  const Json json = parse_json(run_cli("softmax --dk 64 --keys 30 --seed 7 --alpha 0.5 --json").out);
  sqrtdk::DemoParams params;
  params.dk = 64;
  params.keys = 30;
  params.seed = 7;
  const sqrtdk::SoftmaxDemo demo = sqrtdk::softmax_demo(params);
  CHECK(json["raw"]["max"].number == demo.raw.stats.max_weight);
  CHECK(json["raw"]["entropy"].number == demo.raw.stats.entropy);
  CHECK(json["scaled"]["jacobian_norm"].number == demo.scaled.stats.jacobian_norm);
  CHECK(json["scaled"]["effective_keys"].number == demo.scaled.stats.effective_keys);
}

TEST_CASE("a flag given as --name=value means the same as --name value", "[cli]") {
  const RunResult spaced = run_cli("softmax --dk 16 --keys 8 --seed 3 --top 2 --json");
  const RunResult joined = run_cli("softmax --dk=16 --keys=8 --seed=3 --top=2 --json");
  REQUIRE(spaced.exit_code == 0);
  CHECK(joined.out == spaced.out);
  CHECK(parse_json(joined.out)["raw"]["top2"].array.size() == 2);
}

TEST_CASE("sweep --json has one row per d_k with median and quartiles", "[cli]") {
  const RunResult result = run_cli("sweep --dk 4,64 --keys 20 --draws 50 --seed 1 --json");
  REQUIRE(result.exit_code == 0);
  const Json json = parse_json(result.out);
  CHECK(keys_of(json) == std::vector<std::string>{"alpha", "draws", "keys", "method", "rows", "seed"});
  CHECK(json["method"].string == "fast");
  const std::vector<Json>& rows = json["rows"].array;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["dk"].number == 4);
  CHECK(rows[1]["dk"].number == 64);
  for (const Json& row : rows) {
    CHECK(row["dot_variance"].number > 0);
    for (const char* side : {"raw", "scaled"}) {
      for (const char* stat : {"max_weight", "entropy", "jacobian_norm"}) {
        const Json& q = row[side][stat];
        CHECK(q["q1"].number <= q["median"].number);
        CHECK(q["median"].number <= q["q3"].number);
      }
    }
  }
}

TEST_CASE("sweep --csv has a header and one row of 20 columns per d_k", "[cli]") {
  const RunResult result = run_cli("sweep --dk 1,8,32 --draws 20 --csv");
  REQUIRE(result.exit_code == 0);
  CHECK(count_lines(result.out) == 4);
  CHECK_THAT(result.out, StartsWith("dk,dot_variance,raw_max_weight_median,raw_max_weight_q1,"));
  std::istringstream lines(result.out);
  std::string line;
  while (std::getline(lines, line)) {
    int commas = 0;
    for (const char c : line) commas += c == ',';
    CHECK(commas == 19);
  }
}

TEST_CASE("histogram --json counts every sample once per histogram", "[cli]") {
  const RunResult result = run_cli("histogram --dk 32 --keys 10 --draws 100 --bins 8 --json");
  REQUIRE(result.exit_code == 0);
  const Json json = parse_json(result.out);
  CHECK(json["edges"].array.size() == 9);
  for (const char* side : {"raw", "scaled"}) {
    double total = json[side]["below"].number + json[side]["above"].number;
    for (const Json& count : json[side]["counts"].array) total += count.number;
    CHECK(total == 1000);
  }
}

// Exit code 2, nothing on stdout, one line on stderr containing `expected`.
static void check_refused(const std::string& arguments, const std::string& expected) {
  CAPTURE(arguments);
  const RunResult result = run_cli(arguments);
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK(count_lines(result.err) == 1);
  CHECK_THAT(result.err, Contains(expected));
}

TEST_CASE("a bad flag exits 2 with one stderr line naming the flag and an empty stdout", "[cli]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"softmax --bogus 1", "--bogus"},    {"softmax --keys 1", "--keys"},   {"softmax --keys=abc", "--keys"},
      {"softmax --json=1", "--json"},      {"softmax --alpha 3", "--alpha"}, {"sweep --dk 1,0,4", "--dk"},
      {"sweep --method slow", "--method"}, {"histogram --bins 0", "--bins"}, {"softmax --dk 8 --dk 9", "--dk"},
      {"softmax --keys", "--keys"},
  };
  for (const auto& [arguments, flag] : cases) check_refused(arguments, flag);
}

TEST_CASE("an unknown subcommand exits 2 and writes nothing to stdout", "[cli]") {
  const RunResult result = run_cli("frobnicate --dk 3");
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK(count_lines(result.err) == 1);
  CHECK_THAT(result.err, Contains("frobnicate"));
}

TEST_CASE("no subcommand prints the usage to stderr and exits 2", "[cli]") {
  const RunResult result = run_cli("");
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Contains("usage: sqrtdk"));
}

TEST_CASE("the --help flag prints the usage to stdout and exits 0", "[cli]") {
  const RunResult top = run_cli("--help");
  CHECK(top.exit_code == 0);
  CHECK_THAT(top.out, Contains("softmax") && Contains("sweep") && Contains("train"));
  for (const char* command : {"softmax", "sweep", "histogram"}) {
    CAPTURE(command);
    const RunResult result = run_cli(std::string(command) + " --help");
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.out, StartsWith(std::string("usage: sqrtdk ") + command));
    CHECK(result.err.empty());
  }
}

TEST_CASE("the human table of softmax shows raw and scaled rows", "[cli]") {
  const RunResult result = run_cli("softmax --dk 128 --keys 50");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Contains("\nraw ") && Contains("\nscaled ") && Contains("top 5 weights"));
}

TEST_CASE("train, dump, compare and export-torch list every setting of the table in their usage", "[cli][settings]") {
  for (const char* command : {"train", "dump", "compare", "export-torch"}) {
    CAPTURE(command);
    const RunResult result = run_cli(std::string(command) + " --help");
    REQUIRE(result.exit_code == 0);
    for (const sqrtdk::Setting& s : sqrtdk::settings()) {
      CAPTURE(s.name);
      if (std::string(command) != "train" && std::string(command) != "dump" && std::string(s.name) == "scale")
        continue;  // --variants instead
      CHECK_THAT(result.out, Contains("  --" + sqrtdk::cli_flag(s) + " " + sqrtdk::format_value(s, sqrtdk::default_value(s))));
      CHECK_THAT(result.out, Contains(s.doc));
    }
  }
}

TEST_CASE("export-torch writes the script or the notebook, takes the seeds over a scenario and refuses the rest",
          "[cli][export]") {
  const RunResult script = run_cli("export-torch --scenario sgd --seeds 10 --seed 3");
  REQUIRE(script.exit_code == 0);
  CHECK_THAT(script.out, Contains("preset 'sgd'") && Contains("SEEDS = list(range(3, 13))\n"));
  const RunResult notebook = run_cli("export-torch --steps 50 --notebook");
  REQUIRE(notebook.exit_code == 0);
  CHECK_THAT(notebook.out, StartsWith("{\"cells\":[") && Contains("STEPS = 50\\n"));
  for (const auto& [flags, message] : std::vector<std::pair<std::string, std::string>>{
           {"--scenario sgd --lr 0.2", "--scenario sets every setting: drop --lr"},
           {"--scenario nope", "--scenario: no scenario 'nope'"},
           {"--variants scaled,sqrt", "--variants: "},
           {"--seeds 0", "--seeds"},
           {"--format notebook", "unknown flag --format"}}) {
    CAPTURE(flags);
    const RunResult result = run_cli("export-torch " + flags);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(count_lines(result.err) == 1);
    CHECK_THAT(result.err, StartsWith("sqrtdk export-torch: " + message));
  }
}

TEST_CASE("a bad optimizer setting exits 2 with one stderr line and an empty stdout, in train and compare", "[cli]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--optimizer rmsprop", "optimizer must be one of adam, sgd, got 'rmsprop'"},
      {"--optimizer SGD", "optimizer must be one of adam, sgd, got 'SGD'"},
      {"--optimizer sgd --momentum 1", "momentum must be a finite number in [0, 1), got 1"},
      {"--optimizer sgd --momentum -0.1", "momentum must be a finite number in [0, 1), got -0.1"},
      {"--optimizer sgd --momentum nan", "--momentum must be a number, got 'nan'"},
      {"--optimizer sgd --lr 0", "lr must be a finite number in (0, 100], got 0"},
      {"--optimizer sgd --lr 1000", "lr must be a finite number in (0, 100], got 1000"},
      {"--optimizer sgd --lr nan", "--lr must be a number, got 'nan'"},
      {"--optimizer", "--optimizer needs a value"},
  };
  for (const char* command : {"train", "compare"}) {
    for (const auto& [flags, message] : cases) {
      CAPTURE(command, flags);
      const RunResult result = run_cli(std::string(command) + " --steps 2 --quiet " + flags);
      CHECK(result.exit_code == 2);
      CHECK(result.out.empty());
      CHECK(count_lines(result.err) == 1);
      CHECK_THAT(result.err, StartsWith(std::string("sqrtdk ") + command + ": " + message));
    }
  }
}

TEST_CASE("a bad setting on the command line is refused with the core's one-line message", "[cli][settings]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"train --optimizer rmsprop", "optimizer must be one of adam, sgd, got 'rmsprop'"},
      {"train --momentum 1", "momentum must be a finite number in [0, 1), got 1"},
      {"train --momentum -0.5", "momentum must be a finite number in [0, 1), got -0.5"},
      {"train --momentum nan", "--momentum must be a number, got 'nan'"},
      {"train --lr inf", "--lr must be a number, got 'inf'"},
      {"train --d-model 0", "d_model must be in [1, 1024], got 0"},
      {"train --heads 1.5", "--heads must be an integer, got '1.5'"},
      {"train --d-model 64 --heads 3", "d_model (64) must be divisible by heads (3)"},
      {"compare --scale qknorm", "unknown flag --scale"},
      {"train --scale alpha=0.5 --alpha 0.5", "give the alpha once"},
  };
  for (const auto& [arguments, message] : cases) check_refused(arguments + " --steps 1 --quiet", message);
}

TEST_CASE("the CLI's --scale alpha=0.25 means --scale alpha --alpha 0.25", "[cli][settings]") {
  const RunResult shorthand = run_cli("train --scale alpha=0.25 --steps 3 --quiet --json --layers 1 --d-model 16");
  const RunResult fields = run_cli("train --scale alpha --alpha 0.25 --steps 3 --quiet --json --layers 1 --d-model 16");
  REQUIRE(shorthand.exit_code == 0);
  const auto strip_speed = [](std::string text) { return text.substr(0, text.find("\"steps_per_second\"")); };
  CHECK(strip_speed(shorthand.out) == strip_speed(fields.out));
  CHECK_THAT(shorthand.out, Contains("\"scale\":\"alpha=0.25\""));
}

TEST_CASE("compare --json names its configuration with the settings table's names", "[cli][settings]") {
  const RunResult result = run_cli("compare --steps 3 --seeds 1 --json --quiet --optimizer sgd --layers 1");
  REQUIRE(result.exit_code == 0);
  const Json config = JsonReader(result.out).document()["config"];
  for (const sqrtdk::Setting& s : sqrtdk::settings()) {
    const std::string name = s.name;
    if (name == "scale" || name == "alpha" || name == "seed" || name == "eval_every") continue;  // per variant/run
    CAPTURE(name);
    CHECK(config.object.count(name) == 1);
  }
  CHECK(config["optimizer"].string == "sgd");
  CHECK(config["lr"].number == sqrtdk::kSgdDefaultLr);
  CHECK(config["layers"].number == 1);
}

TEST_CASE("train --optimizer sgd uses SGD's default lr 0.1 and writes the curves in the one CSV format", "[cli]") {
  char csv_path[] = "/tmp/sqrtdk_test_sgd_XXXXXX";
  const int fd = mkstemp(csv_path);
  REQUIRE(fd >= 0);
  close(fd);
  const RunResult result = run_cli(std::string("train --optimizer sgd --steps 3 --quiet --json --csv ") + csv_path);
  REQUIRE(result.exit_code == 0);
  const Json j = parse_json(result.out);
  CHECK(j["optimizer"].string == "sgd");
  CHECK(j["lr"].number == 0.1);
  CHECK(j["qk_grad_peak"].number > 0);
  CHECK(j["qk_grad_final"].number > 0);
  std::ifstream file(csv_path);
  std::string header, row;
  std::getline(file, header);
  // The page's export writes this header too (tests/node/metrics.test.mjs compares them).
  std::string expected;
  for (const std::string& c : sqrtdk::curves_csv_header(2, 1)) expected += (expected.empty() ? "" : ",") + c;
  CHECK(header == expected);
  for (const char* column : {"qk_grad_norm_l1", "qk_grad_norm_l2", "entropy_l2_h1", "jacobian_norm_l2", "eval_token_accuracy"}) {
    CAPTURE(column);
    CHECK_THAT("," + header + ",", Contains(std::string(",") + column + ","));
  }
  int rows = 0;
  while (std::getline(file, row)) {
    ++rows;
    CHECK(row.rfind("scaled,0," + std::to_string(rows) + ",", 0) == 0);
  }
  CHECK(rows == 3);
  std::remove(csv_path);
}

TEST_CASE("scenarios --json lists the six presets, and compare --scenario refuses unknown ids and extra settings", "[cli]") {
  const RunResult list = run_cli("scenarios --json");
  REQUIRE(list.exit_code == 0);
  const Json j = parse_json(list.out);
  REQUIRE(j.array.size() == 6);
  const char* ids[] = {"adam", "sgd", "adam-high-lr", "gpt-init", "large-dk", "qknorm"};
  for (int i = 0; i < 6; ++i) {
    CHECK(j.array[i]["id"].string == ids[i]);
    CHECK(j.array[i]["title"].string.size() > 0);
    CHECK(j.array[i]["headline"].string.size() > 0);
    CHECK(j.array[i]["details"].string.size() > 0);
    CHECK(j.array[i]["messages"]["details"].array.size() > 1);
    CHECK_THAT(j.array[i]["settings"].string, Contains("variants="));
  }
  const RunResult text = run_cli("scenarios");
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("run: sqrtdk compare --scenario sgd"));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"compare --scenario nope", "--scenario: no scenario 'nope'"},
      {"compare --scenario sgd --lr 0.2", "--scenario sets every setting: drop --lr"},
      {"compare --scenario sgd --steps 5", "--scenario sets every setting: drop --steps"},
      {"scenarios --bogus", "--bogus"},
  };
  for (const auto& [arguments, message] : bad) {
    CAPTURE(arguments);
    const RunResult result = run_cli(arguments);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(count_lines(result.err) == 1);
    CHECK_THAT(result.err, Contains(message));
  }
}

TEST_CASE("glossary prints the lesson's claim and every entry of the core's glossary, and refuses flags", "[cli]") {
  const RunResult result = run_cli("glossary");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Contains("“We suspect that for large values of d_k"));
  CHECK_THAT(result.out, Contains("https://arxiv.org/abs/1706.03762"));
  CHECK_THAT(result.out, Contains("\n|J|_F (Jacobian norm): "));
  CHECK_THAT(result.out, Contains("\nSmoothed loss: the mean of the last 20 steps' losses"));
  const RunResult bad = run_cli("glossary --bogus");
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.empty());
  CHECK(count_lines(bad.err) == 1);
}
