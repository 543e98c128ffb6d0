#include "core/lesson/softmax_stats.hpp"
#include "core/arith/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <utility>

#include "core/settings/config.hpp"
#include "core/settings/explorer_settings.hpp"
#include "core/text/number_text.hpp"

namespace sqrtdk {
namespace {

// The checks shared by every entry point, in the order the messages are reported (ranges: explorer_settings.hpp).
std::string validate_common(int dk, int keys, double alpha) {
  const std::pair<const RangeSetting*, double> checks[] = {
      {&explorer::dk, dk}, {&explorer::keys, keys}, {&explorer::alpha, alpha}};
  for (const auto& [setting, value] : checks) {
    std::string message = check_range(*setting, value);
    if (!message.empty()) return message;
  }
  return "";
}

std::string validate_draws(int draws) { return check_range(explorer::draws, draws); }

void throw_if(const std::string& message) {
  if (!message.empty()) throw ConfigError(message);
}

// D^-alpha: the factor on q.k.
double score_scale(int dk, double alpha) { return det::pow(static_cast<double>(dk), -alpha); }

// p (N) = softmax(scale * x (N)), scale > 0, so max(scale * x) = scale * max(x).
void softmax_scaled(double* p, const double* x, double scale, int n) {
  const double x_max = *std::max_element(x, x + n);
  double z = 0.0;
  for (int i = 0; i < n; ++i) {
    p[i] = det::exp(scale * (x[i] - x_max));
    z += p[i];
  }
  for (int i = 0; i < n; ++i) p[i] /= z;
}

// Sample variance of a stream of batches (Chan et al.'s pairwise update: one exact two-pass per batch).
class RunningVariance {
 public:
  void add(const double* x, int n) {
    double batch_mean = 0.0;
    for (int i = 0; i < n; ++i) batch_mean += x[i];
    batch_mean /= n;
    double batch_m2 = 0.0;
    for (int i = 0; i < n; ++i) batch_m2 += (x[i] - batch_mean) * (x[i] - batch_mean);
    const double total = count_ + n;
    const double delta = batch_mean - mean_;
    mean_ += delta * n / total;
    m2_ += batch_m2 + delta * delta * count_ * n / total;
    count_ = total;
  }
  double variance() const { return count_ > 1.0 ? m2_ / (count_ - 1.0) : 0.0; }

 private:
  double count_ = 0.0;
  double mean_ = 0.0;
  double m2_ = 0.0;
};

// Quantile p of sorted values (S), linear interpolation: h = (S - 1) p, v[floor h] + frac(h) (v[ceil h] - ...).
double sorted_quantile(const std::vector<double>& v, double p) {
  const double h = (static_cast<double>(v.size()) - 1.0) * p;
  const size_t lo = static_cast<size_t>(h);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// Per-draw statistics of one side (raw or scaled) of a sweep row, each (S).
struct StatColumns {
  std::vector<double> max_weight, entropy, jacobian_norm;

  explicit StatColumns(int draws) : max_weight(draws), entropy(draws), jacobian_norm(draws) {}
  void set(int draw, const WeightStats& s) {
    max_weight[draw] = s.max_weight;
    entropy[draw] = s.entropy;
    jacobian_norm[draw] = s.jacobian_norm;
  }
  SweepStats summarize() { return {quartiles(max_weight), quartiles(entropy), quartiles(jacobian_norm)}; }
};

// Adds samples to counts (bins) over the shared edges (bins + 1).
void add_to_histogram(std::vector<int64_t>& counts, int64_t& below, int64_t& above, const std::vector<double>& edges,
                      const double* x, double scale, int n) {
  const int bins = static_cast<int>(counts.size());
  const double lo = edges.front();
  const double hi = edges.back();
  for (int i = 0; i < n; ++i) {
    const double v = scale * x[i];
    if (v < lo) {
      ++below;
    } else if (v >= hi) {
      ++above;
    } else {
      // Guess the bin arithmetically, then settle rounding at the edges against the edges themselves.
      int b = std::min(bins - 1, static_cast<int>((v - lo) / (hi - lo) * bins));
      while (b > 0 && v < edges[b]) --b;
      while (b + 1 < bins && v >= edges[b + 1]) ++b;
      ++counts[b];
    }
  }
}

}  // namespace

Quartiles quartiles(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  return {sorted_quantile(values, 0.25), sorted_quantile(values, 0.5), sorted_quantile(values, 0.75)};
}

const char* to_string(DrawMethod method) { return method == DrawMethod::exact ? "exact" : "fast"; }

void softmax(double* p, const double* logits, int n) { softmax_scaled(p, logits, 1.0, n); }

double softmax_jacobian_norm(const double* p, int n) { return weight_stats(p, n).jacobian_norm; }

double even_row_jacobian_norm(int n) { return std::sqrt(n - 1.0) / n; }

WeightStats weight_stats(const double* p, int n) {
  const int m = static_cast<int>(std::max_element(p, p + n) - p);
  const double p_max = p[m];
  double rest = 0.0;   // sum_{j != m} p_j = 1 - p_max without cancellation
  double rest2 = 0.0;  // sum_{j != m} p_j^2
  for (int j = 0; j < n; ++j) {
    if (j == m) continue;
    rest += p[j];
    rest2 += p[j] * p[j];
  }
  // H = -sum p_i ln p_i; for the top weight ln p_max = log1p(-rest) keeps the digits lost in p_max ~ 1.
  double entropy = -p_max * (rest < 0.5 ? det::log1p(-rest) : det::log(p_max));
  // ||J||_F^2 = sum_i p_i^2 ((1 - p_i)^2 + sum_{j != i} p_j^2)
  double jacobian2 = p_max * p_max * (rest * rest + rest2);
  for (int j = 0; j < n; ++j) {
    if (j == m || p[j] <= 0.0) continue;
    const double pj2 = p[j] * p[j];
    entropy -= p[j] * det::log(p[j]);
    const double others2 = p_max * p_max + std::max(0.0, rest2 - pj2);  // sum_{k != j} p_k^2
    jacobian2 += pj2 * ((1.0 - p[j]) * (1.0 - p[j]) + others2);
  }
  WeightStats stats;
  stats.max_weight = p_max;
  stats.entropy = std::max(0.0, entropy);
  stats.effective_keys = det::exp(stats.entropy);
  stats.jacobian_norm = std::sqrt(jacobian2);
  return stats;
}

std::string validate(const DemoParams& params) {
  std::string message = validate_common(params.dk, params.keys, params.alpha);
  if (message.empty() && !check_range(explorer::top, params.top, params.keys).empty()) {
    message =
        "top must be in [1, keys], got " + std::to_string(params.top) + " with keys " + std::to_string(params.keys);
  }
  return message;
}

void require_valid(const DemoParams& params) { throw_if(validate(params)); }

void draw_dots(double* dots, double* q, int dk, int n, DrawMethod method, Rng& rng) {
  for (int j = 0; j < dk; ++j) q[j] = rng.normal();
  if (method == DrawMethod::exact) {
    for (int i = 0; i < n; ++i) {
      double dot = 0.0;  // q . k_i, k_i drawn component by component
      for (int j = 0; j < dk; ++j) dot += q[j] * rng.normal();
      dots[i] = dot;
    }
  } else {
    double q2 = 0.0;
    for (int j = 0; j < dk; ++j) q2 += q[j] * q[j];
    const double q_norm = std::sqrt(q2);
    for (int i = 0; i < n; ++i) dots[i] = q_norm * rng.normal();  // q.k_i | q ~ N(0, |q|^2)
  }
}

SoftmaxView softmax_view(const std::vector<double>& dots, int dk, double alpha, int top) {
  const int n = static_cast<int>(dots.size());
  SoftmaxView view;
  view.scale = score_scale(dk, alpha);
  view.scores.resize(n);
  for (int i = 0; i < n; ++i) view.scores[i] = view.scale * dots[i];
  view.weights.resize(n);
  softmax_scaled(view.weights.data(), dots.data(), view.scale, n);
  view.stats = weight_stats(view.weights.data(), n);
  const int k = std::max(0, std::min(top, n));
  view.top = view.weights;
  std::partial_sort(view.top.begin(), view.top.begin() + k, view.top.end(), std::greater<double>());
  view.top.resize(k);
  return view;
}

SoftmaxDemo softmax_demo(const DemoParams& params) {
  require_valid(params);
  SoftmaxDemo demo;
  demo.params = params;
  demo.dots.resize(params.keys);
  std::vector<double> q(params.dk);
  Rng rng(params.seed);
  draw_dots(demo.dots.data(), q.data(), params.dk, params.keys, DrawMethod::exact, rng);
  demo.raw = softmax_view(demo.dots, params.dk, 0.0, params.top);
  demo.scaled = softmax_view(demo.dots, params.dk, params.alpha, params.top);
  return demo;
}

std::vector<int> default_sweep_dks() {
  std::vector<int> dks;
  for (int dk = 1; dk <= 1024; dk *= 2) dks.push_back(dk);
  return dks;
}

std::string validate(const SweepParams& params) {
  if (params.dks.empty() || params.dks.size() > static_cast<size_t>(SoftmaxLimits::max_sweep_dks)) {
    return "dk list must have 1 to " + std::to_string(SoftmaxLimits::max_sweep_dks) + " entries, got " +
           std::to_string(params.dks.size());
  }
  for (int dk : params.dks) {
    std::string message = validate_common(dk, params.keys, params.alpha);
    if (!message.empty()) return message;
  }
  return validate_draws(params.draws);
}

void require_valid(const SweepParams& params) { throw_if(validate(params)); }

SweepRow sweep_row(const SweepParams& params, int dk) {
  throw_if(validate_common(dk, params.keys, params.alpha));
  throw_if(validate_draws(params.draws));
  const int n = params.keys;
  const double scale = score_scale(dk, params.alpha);
  std::vector<double> q(dk);    // (D)
  std::vector<double> dots(n);  // (N) q.k_i of the current draw
  std::vector<double> p(n);     // (N) softmax weights of the current draw
  StatColumns raw(params.draws), scaled(params.draws);
  RunningVariance dot_variance;
  Rng rng(params.seed);
  for (int s = 0; s < params.draws; ++s) {
    draw_dots(dots.data(), q.data(), dk, n, params.method, rng);
    dot_variance.add(dots.data(), n);
    softmax_scaled(p.data(), dots.data(), 1.0, n);
    raw.set(s, weight_stats(p.data(), n));
    softmax_scaled(p.data(), dots.data(), scale, n);
    scaled.set(s, weight_stats(p.data(), n));
  }
  SweepRow row;
  row.dk = dk;
  row.dot_variance = dot_variance.variance();
  row.raw = raw.summarize();
  row.scaled = scaled.summarize();
  return row;
}

std::vector<SweepRow> sweep(const SweepParams& params) {
  require_valid(params);
  std::vector<SweepRow> rows;
  rows.reserve(params.dks.size());
  for (int dk : params.dks) rows.push_back(sweep_row(params, dk));
  return rows;
}

std::string validate(const HistogramParams& params) {
  std::string message = validate_common(params.dk, params.keys, params.alpha);
  if (message.empty()) message = validate_draws(params.draws);
  if (message.empty()) message = check_range(explorer::bins, params.bins);
  if (message.empty() && !(std::isfinite(params.half_width) && params.half_width >= 0.0)) {
    message = "half_width must be a finite number >= 0 (0: 4 sqrt(dk)), got " + format_given(params.half_width);
  }
  return message;
}

void require_valid(const HistogramParams& params) { throw_if(validate(params)); }

DotHistogram dot_histogram(const HistogramParams& params) {
  require_valid(params);
  const int dk = params.dk;
  const int n = params.keys;
  const int bins = params.bins;
  const double half_width = params.half_width > 0.0 ? params.half_width : 4.0 * std::sqrt(static_cast<double>(dk));
  const double scale = score_scale(dk, params.alpha);

  DotHistogram h;
  h.dk = dk;
  h.edges.resize(bins + 1);
  for (int b = 0; b < bins; ++b) h.edges[b] = -half_width + 2.0 * half_width * b / bins;
  h.edges[bins] = half_width;
  h.raw_counts.assign(bins, 0);
  h.scaled_counts.assign(bins, 0);

  std::vector<double> q(dk);    // (D)
  std::vector<double> dots(n);  // (N)
  RunningVariance dot_variance;
  Rng rng(params.seed);
  for (int s = 0; s < params.draws; ++s) {
    draw_dots(dots.data(), q.data(), dk, n, params.method, rng);
    dot_variance.add(dots.data(), n);
    add_to_histogram(h.raw_counts, h.raw_below, h.raw_above, h.edges, dots.data(), 1.0, n);
    add_to_histogram(h.scaled_counts, h.scaled_below, h.scaled_above, h.edges, dots.data(), scale, n);
  }
  h.dot_variance = dot_variance.variance();
  h.total = static_cast<int64_t>(params.draws) * n;
  return h;
}

}  // namespace sqrtdk
