#include "bench/step_server.hpp"

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/common.hpp"
#include "bench/configs.hpp"
#include "core/arith/gemm.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk::bench {
namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Trainer> trainer;
  bool diverged = false;
  Calls steps() {
    return [this](long n) {
      for (long i = 0; i < n; ++i) diverged |= !trainer->step();
    };
  }
};

void reply(const std::string& json) {
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);  // the client waits for this line
}

std::string finish(std::vector<Entry>& entries) {
  std::string configs;
  for (Entry& e : entries) {
    const double allocations = allocations_per_call(e.steps(), 20);
    configs += std::string(configs.empty() ? "" : ",") + "{\"name\":\"" + e.name + "\",\"allocations_per_step\":" +
               json_number(allocations) + ",\"last_loss\":" + json_number(e.trainer->last().loss) + "}";
  }
  return "{\"configs\":[" + configs + "]}";
}

}  // namespace

int serve_steps(const Protocol& protocol) {
  std::vector<Entry> entries;
  for (NamedConfig& c : bench_configs()) entries.push_back(Entry{c.name, std::make_unique<Trainer>(c.config)});
  reply(std::string("{\"ready\":true,\"gemm_backend\":\"") + gemm_backend_name() + "\"}");
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string op, name;
    long steps = 0;
    words >> op >> name >> steps;
    if (op == "finish") {
      reply(finish(entries));
      return 0;
    }
    Entry* e = nullptr;
    for (Entry& candidate : entries) e = name == candidate.name ? &candidate : e;
    if (!e || (op != "warmup" && op != "run") || (op == "run" && steps < 1)) {
      reply("{\"error\":\"bad request\"}");
      return 1;
    }
    std::string out;
    if (op == "warmup") {
      const WarmUp w = warm_up(e->steps(), protocol);
      out = "{\"seconds_per_step\":" + json_number(w.seconds_per_call) +
            ",\"warmup_seconds\":" + json_number(w.seconds) + "}";
    } else {
      out = "{\"seconds\":" + json_number(steps * seconds_per_call(e->steps(), steps)) + "}";
    }
    if (e->diverged) {
      reply(std::string("{\"error\":\"") + e->name + " diverged: its steps/s would not be a training rate\"}");
      return 1;
    }
    reply(out);
  }
  return 1;  // input ended without "finish"
}

}  // namespace sqrtdk::bench
