// sqrtdk_bench: how fast one build of the core trains, and how fast its matrix products run.
//
//   sqrtdk_bench [--json | --serve] [--repeats N] [--seconds S] [--warmup S]
//
// For the canonical configuration and a wider one (4 heads, d_model 128) it reports
//   - training steps per second: Trainer::step() alone (no evaluation), after warm-up, median of repeats;
//   - heap allocations per step (operator new, counted as tests/cpp/alloc_counter.cpp does; must be 0);
//   - GFLOP/s of every matrix product of a step on its training shape, and weighted per phase; time per step
//     spent in them (from these isolated timings) and its share of the measured step;
// and the 128-bit SIMD peak of the core from a probe, timed together with the products (fastest of 15 short
// repeats each, taken in rounds: see fastest_interleaved in timing.hpp).  Where the products run on the f32x4
// kernels (natively and in wasm) it also times each product on Eigen (eigen_ref), for comparison.
// With --serve it only trains, driven through stdin by scripts/bench.mjs (see step_server.hpp).
//
// The same source builds natively (CMake target sqrtdk_bench: the f32x4 kernels as SSE; sqrtdk_bench_eigen: float
// products on Eigen, the opt-in fast backend whose results depend on the CPU) and for wasm (target
// sqrtdk_bench_wasm of the wasm preset: the f32x4 kernels as simd128, under Node); scripts/bench.mjs runs them.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/common.hpp"
#include "bench/configs.hpp"
#include "bench/products.hpp"
#include "bench/simd_peak.hpp"
#include "bench/step_server.hpp"
#include "bench/timing.hpp"
#include "core/arith/gemm.hpp"
#include "core/train/trainer.hpp"

namespace sqrtdk::bench {
namespace {

struct Options {
  bool json = false;
  bool serve = false;
  // {warm-up at least, warm-up at most, warm-up calls at least, repeats, seconds per repeat}
  Protocol steps{1.0, 15.0, 5, 7, 0.4};
  // Products and the probe last microseconds to a millisecond: short repeats suffice, and keep the run short.
  Protocol kernels{0.03, 1.0, 20, 15, 0.01};
};

struct StepRate {
  double steps_per_second = 0;
  std::vector<double> per_repeat;  // steps/s of each repeat
  long steps_per_repeat = 0;
  double warmup_seconds = 0;
  double allocations_per_step = 0;
  float last_loss = 0;
  bool diverged = false;
};

StepRate measure_steps(const TrainConfig& config, const Protocol& protocol) {
  Trainer trainer(config);
  StepRate r;
  const auto run = [&](long steps) {
    for (long i = 0; i < steps; ++i) r.diverged |= !trainer.step();
  };
  const Timing t = time_calls(run, protocol);
  r.allocations_per_step = allocations_per_call(run, 20);
  r.steps_per_second = 1.0 / t.seconds_per_call;
  for (double s : t.per_repeat) r.per_repeat.push_back(1.0 / s);
  r.steps_per_repeat = t.calls_per_repeat;
  r.warmup_seconds = t.warmup_seconds;
  r.last_loss = trainer.last().loss;
  return r;
}

// Products weighted by their calls per step: flop and seconds per step, for one phase or all ("").
struct Weighted {
  double flop = 0, seconds = 0;
  double gflops() const { return seconds > 0 ? flop / seconds * 1e-9 : 0; }
};

Weighted weighted(const std::vector<ProductTiming>& timings, const char* phase) {
  Weighted w;
  for (const ProductTiming& t : timings)
    if (!*phase || std::strcmp(t.product.phase, phase) == 0) {
      w.flop += t.product.calls * t.product.flop();
      w.seconds += t.product.calls * t.seconds_per_call;
    }
  return w;
}

struct ConfigResult {
  NamedConfig named;
  StepRate steps;
  std::vector<ProductTiming> products;
};

// Whether the build's float products are Eigen's (sqrtdk_bench_eigen): otherwise (the f32x4 kernels, natively and
// in wasm) Eigen is timed too, for comparison.
bool kernels_are_eigen() { return std::strncmp(gemm_backend_name(), "eigen", 5) == 0; }

// The 128-bit peak probe and every product of every configuration (and its Eigen reference when the build's
// kernels are not Eigen's), timed together (fastest_interleaved): returns the peak in GFLOP/s and fills each
// result's products.
double measure_kernels(std::vector<ConfigResult>& results, const Protocol& protocol) {
  const bool reference = !kernels_are_eigen();
  std::vector<std::unique_ptr<ProductOperands>> operands;
  std::vector<Calls> runs = {simd128_probe()};
  for (ConfigResult& r : results)
    for (const Product& p : training_products(r.named.config)) {
      operands.push_back(std::make_unique<ProductOperands>(p));
      ProductOperands* o = operands.back().get();
      runs.push_back([o](long calls) { o->run(calls); });
      if (reference) runs.push_back([o](long calls) { o->run_reference(calls); });
      r.products.push_back(ProductTiming{p, 0});
    }
  const std::vector<double> seconds = fastest_interleaved(runs, protocol);
  std::size_t next = 1;
  for (ConfigResult& r : results)
    for (ProductTiming& t : r.products) {
      t.seconds_per_call = seconds[next++];
      if (reference) t.reference_seconds_per_call = seconds[next++];
    }
  return simd128_probe_flop() / seconds[0] * 1e-9;
}

// ---- output -----------------------------------------------------------------------------------

void print_number_array(const std::vector<double>& values) {
  std::printf("[");
  for (std::size_t i = 0; i < values.size(); ++i) std::printf("%s%.6g", i ? "," : "", values[i]);
  std::printf("]");
}

void print_json_products(const std::vector<ProductTiming>& timings) {
  std::printf("[");
  for (std::size_t i = 0; i < timings.size(); ++i) {
    const Product& p = timings[i].product;
    std::printf(
        "%s{\"phase\":\"%s\",\"name\":\"%s\",\"op\":\"%s\",\"m\":%d,\"k\":%d,\"n\":%d,\"lda\":%d,\"ldb\":%d,"
        "\"ldc\":%d,\"calls\":%d,\"gflops\":%.6g",
        i ? "," : "", p.phase, p.name.c_str(), to_string(p.op), p.m, p.k, p.n, p.lda, p.ldb, p.ldc, p.calls,
        timings[i].gflops());
    if (timings[i].reference_seconds_per_call > 0)
      std::printf(",\"eigen_ref_gflops\":%.6g", timings[i].reference_gflops());
    std::printf("}");
  }
  std::printf("]");
}

void print_json_config(const ConfigResult& r) {
  const TrainConfig& c = r.named.config;
  const Weighted all = weighted(r.products, ""), fwd = weighted(r.products, "forward"),
                 bwd = weighted(r.products, "backward");
  std::printf("{\"name\":\"%s\",\"layers\":%d,\"d_model\":%d,\"heads\":%d,\"d_ff\":%d,\"copy_length\":%d,\"batch\":%d,",
              r.named.name, c.model.n_layers, c.model.d_model, c.model.n_heads, c.model.ff(), c.task.copy_length,
              c.task.batch);
  std::printf("\"steps_per_second\":%.6g,\"steps_per_second_repeats\":", r.steps.steps_per_second);
  print_number_array(r.steps.per_repeat);
  std::printf(",\"steps_per_repeat\":%ld,\"warmup_seconds\":%.6g,\"allocations_per_step\":%s,\"last_loss\":%.6g,"
              "\"diverged\":%s,",
              r.steps.steps_per_repeat, r.steps.warmup_seconds, json_number(r.steps.allocations_per_step).c_str(),
              r.steps.last_loss,
              r.steps.diverged ? "true" : "false");
  std::printf("\"gemm\":{\"mflop_per_step\":%.6g,\"ms_per_step\":%.6g,\"gflops\":%.6g,\"forward_gflops\":%.6g,"
              "\"backward_gflops\":%.6g,\"products\":",
              all.flop * 1e-6, all.seconds * 1e3, all.gflops(), fwd.gflops(), bwd.gflops());
  print_json_products(r.products);
  std::printf("}}");
}

void print_json(const std::vector<ConfigResult>& results, double peak, const Options& o) {
  std::printf("{\"target\":\"%s\",\"gemm_backend\":\"%s\",\"simd128_peak_gflops\":%.6g,",
#if defined(__wasm__)
              "wasm",
#else
              "native",
#endif
              gemm_backend_name(), peak);
  std::printf("\"protocol\":{\"warmup_seconds\":%.6g,\"repeats\":%d,\"repeat_seconds\":%.6g},\"configs\":[",
              o.steps.warmup_seconds, o.steps.repeats, o.steps.repeat_seconds);
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (i) std::printf(",");
    print_json_config(results[i]);
  }
  std::printf("]}\n");
}

void print_text(const std::vector<ConfigResult>& results, double peak) {
  std::printf("sqrtdk_bench: gemm %s; 128-bit SIMD peak probe %.1f GFLOP/s\n\n", gemm_backend_name(), peak);
  for (const ConfigResult& r : results) {
    const TrainConfig& c = r.named.config;
    const Weighted all = weighted(r.products, "");
    std::printf("%s (layers %d, d_model %d, heads %d, d_ff %d, copy %d, batch %d)\n", r.named.name,
                c.model.n_layers, c.model.d_model, c.model.n_heads, c.model.ff(), c.task.copy_length, c.task.batch);
    const std::string allocations = std::isnan(r.steps.allocations_per_step)
                                        ? "allocations not counted (AddressSanitizer build)"
                                        : json_number(r.steps.allocations_per_step) + " allocations/step";
    std::printf("  %.1f steps/s (%.2f ms/step), %s%s\n", r.steps.steps_per_second, 1e3 / r.steps.steps_per_second,
                allocations.c_str(), r.steps.diverged ? ", DIVERGED" : "");
    std::printf("  products: %.1f MFLOP/step, %.2f ms/step at %.1f GFLOP/s (forward %.1f, backward %.1f), "
                "%.0f%% of the step\n",
                all.flop * 1e-6, all.seconds * 1e3, all.gflops(), weighted(r.products, "forward").gflops(),
                weighted(r.products, "backward").gflops(), 100.0 * all.seconds * r.steps.steps_per_second);
    const bool reference = !kernels_are_eigen();
    std::printf("    %-8s %-38s %2s %5s %5s %5s %6s %8s %6s%s\n", "phase", "product", "op", "M", "K", "N", "calls",
                "GFLOP/s", "%peak", reference ? "    Eigen" : "");
    for (const ProductTiming& t : r.products) {
      const Product& p = t.product;
      std::printf("    %-8s %-38s %2s %5d %5d %5d %6d %8.1f %5.0f%%", p.phase, p.name.c_str(), to_string(p.op),
                  p.m, p.k, p.n, p.calls, t.gflops(), 100.0 * t.gflops() / peak);
      if (reference) std::printf(" %8.1f", t.reference_gflops());
      std::printf("\n");
    }
    std::printf("\n");
  }
}

// ---- command line -----------------------------------------------------------------------------

const char* kUsage = "usage: sqrtdk_bench [--json | --serve] [--repeats N] [--seconds S] [--warmup S]\n";

bool parse_positive(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && std::isfinite(out) && out > 0;
}

// "" or the problem.
std::string parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--json" || flag == "--serve") {
      (flag == "--json" ? o.json : o.serve) = true;
      continue;
    }
    double value = 0;
    if (flag != "--repeats" && flag != "--seconds" && flag != "--warmup") return "unknown flag " + flag;
    if (i + 1 >= argc || !parse_positive(argv[i + 1], value)) return flag + " needs a positive number";
    ++i;
    if (flag == "--repeats") o.steps.repeats = static_cast<int>(value);
    else if (flag == "--seconds") o.steps.repeat_seconds = value;
    else o.steps.warmup_seconds = value;
  }
  if (o.steps.repeats < 1) return "--repeats must be at least 1";
  return "";
}

}  // namespace
}  // namespace sqrtdk::bench

int main(int argc, char** argv) {
  using namespace sqrtdk::bench;
  Options options;
  const std::string problem = parse_options(argc, argv, options);
  if (!problem.empty()) {
    std::fprintf(stderr, "sqrtdk_bench: %s\n%s", problem.c_str(), kUsage);
    return 2;
  }
  if (options.serve) return serve_steps(options.steps);
  std::vector<ConfigResult> results;
  for (const NamedConfig& named : bench_configs())
    results.push_back({named, measure_steps(named.config, options.steps), {}});
  const double peak = measure_kernels(results, options.kernels);
  if (options.json) print_json(results, peak, options);
  else print_text(results, peak);
  bool diverged = false;
  for (const ConfigResult& r : results) diverged |= r.steps.diverged;
  if (diverged) std::fprintf(stderr, "sqrtdk_bench: a run diverged; its steps/s is not a training rate\n");
  return diverged ? 1 : 0;
}
