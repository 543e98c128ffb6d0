// Why attention divides by sqrt(d_k): how saturated softmax(q.k / d_k^alpha) is when q and the keys are random.
//
// Size letters: D = d_k (1..4096), N = number of keys (2..10000), S = draws (1..100000).
//
// The experiment: q ~ N(0, I_D) and keys k_1..k_N ~ N(0, I_D), all independent. Then q.k_i has mean 0 and
// variance D (a sum of D unit-variance products), so raw logits spread like sqrt(D) and softmax saturates
// towards one-hot as D grows; dividing by sqrt(D) (alpha = 0.5) restores unit variance.
//
// Reproducing the numbers in another port (JS, Python): every draw uses sqrtdk::Rng (rng.hpp) as follows.
//   DrawMethod::exact  q[j] = rng.normal() for j < D, then the keys row by row: k_i[j] = rng.normal() for
//                      i < N, j < D. dots[i] = sum_j q[j] * k_i[j], accumulated in double in increasing j.
//   DrawMethod::fast   q[j] = rng.normal() for j < D, then z[i] = rng.normal() for i < N, and
//                      dots[i] = |q| * z[i] with |q| = sqrt(sum_j q[j]^2). Given q, the q.k_i are independent
//                      N(0, |q|^2), so this has exactly the distribution of the exact method with D + N normals
//                      per draw instead of D + N*D (the sweep needs it: 2000 draws x 50 keys at D = 1024 would
//                      otherwise be 100M normals for one row).
// The stream never restarts inside a run: Box-Muller's spare normal carries over from q to the keys and from one
// draw to the next. softmax_demo() starts Rng(seed) and makes one exact draw. sweep_row() and dot_histogram()
// start a fresh Rng(seed) for each D and make S consecutive draws, so with DrawMethod::exact their draw 0 is the
// demo's draw, and the rows of a sweep share random numbers (their curves are smoother, each row is still exact).
//
// Scores of one draw: score_i = dots[i] * D^-alpha (alpha 0: raw, 0.5: standard, 1: muP's 1/D).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/settings/explorer_settings.hpp"
#include "core/arith/rng.hpp"

namespace sqrtdk {

// Input ranges: explorer_settings.hpp (anything outside is rejected with a message naming the parameter), and
// the two limits that are not a setting's.
struct SoftmaxLimits {
  static constexpr int max_sweep_dks = 100;  // entries of a sweep's d_k list
};

enum class DrawMethod {
  exact,  // explicit keys: D + N*D normals per draw
  fast,   // dots = |q| z: D + N normals per draw, same distribution (see the header comment)
};

const char* to_string(DrawMethod method);  // "exact" or "fast"

// ---- one softmax ------------------------------------------------------------------------------

// Statistics of one probability vector p (N).
struct WeightStats {
  double max_weight = 0.0;      // max_i p_i, in [1/N, 1]
  double entropy = 0.0;         // -sum_i p_i ln p_i, in nats, in [0, ln N]
  double effective_keys = 0.0;  // exp(entropy), in [1, N]: how many keys the weight is spread over
  double jacobian_norm = 0.0;   // ||J||_F with J = dp/ds = diag(p) - p p^T, in [0, 1)
};

// p (N) = softmax(logits (N)), N >= 1, stable for any finite logits: p_i = exp(s_i - max s) / sum_j exp(s_j - max s).
void softmax(double* p, const double* logits, int n);

// ||diag(p) - p p^T||_F for a probability vector p (N), N >= 1. Equal to sqrt(S2 - 2 S3 + S2^2) with Sk = sum_i p_i^k,
// but evaluated as sum_i p_i^2 ((1 - p_i)^2 + sum_{j != i} p_j^2), every term non-negative and 1 - p_max taken
// as the sum of the other weights, so it keeps full relative precision when softmax is saturated, where the
// closed form cancels: at p_max = 1 - 4e-7 it keeps 4 digits, at p_max = 1 - 3e-9 it returns 0.
double softmax_jacobian_norm(const double* p, int n);

// ||J||_F of a row of N >= 1 keys sharing the weight evenly (p_i = 1/N): sqrt(N - 1) / N. It shrinks as
// the row gets longer, so |J|_F is compared between rows of the same number of keys.
double even_row_jacobian_norm(int n);

// Max, entropy, effective keys and Jacobian norm of a probability vector p (N), N >= 1; the top weight's entropy
// term uses ln(1 - rest) = log1p(-rest) with rest the sum of the other weights, for the same reason.
WeightStats weight_stats(const double* p, int n);

// ---- one draw: the lesson demo ----------------------------------------------------------------

// Defaults: explorer_settings.hpp.
struct DemoParams {
  int dk = static_cast<int>(explorer::dk.value);
  int keys = static_cast<int>(explorer::keys.value);
  uint64_t seed = static_cast<uint64_t>(explorer::seed.value);
  double alpha = explorer::alpha.value;
  int top = static_cast<int>(explorer::top.value);  // how many of the largest weights to report, 1..keys
};

// One softmax of one draw's scores.
struct SoftmaxView {
  double scale = 1.0;           // D^-alpha
  std::vector<double> scores;   // (N) scale * dots
  std::vector<double> weights;  // (N) softmax(scores)
  std::vector<double> top;      // (top) the largest weights, descending
  WeightStats stats;
};

// Raw and scaled softmax of the same draw (same q and keys).
struct SoftmaxDemo {
  DemoParams params;
  std::vector<double> dots;  // (N) q.k_i
  SoftmaxView raw;           // alpha = 0
  SoftmaxView scaled;        // alpha = params.alpha
};

// "" if valid, otherwise one line naming the parameter, e.g. "keys must be in [2, 10000], got 1". Never throws.
std::string validate(const DemoParams& params);
// Throws ConfigError (config.hpp) with validate()'s message.
void require_valid(const DemoParams& params);

// dots (N) of one exact or fast draw of dimension D, consuming rng as documented at the top of this file.
// `q` (D) is scratch (it holds the draw's q afterwards). No allocation.
void draw_dots(double* dots, double* q, int dk, int n, DrawMethod method, Rng& rng);

// Softmax of given dots (N >= 1) at scale exponent alpha for dimension D; top is clamped to [0, N]. No other
// validation: call it with values that passed validate().
SoftmaxView softmax_view(const std::vector<double>& dots, int dk, double alpha, int top);

// The lesson demo: one exact draw from Rng(seed), softmax raw and scaled. Throws ConfigError on invalid params.
// Memory O(D + N): keys are consumed row by row, never stored.
SoftmaxDemo softmax_demo(const DemoParams& params);

// ---- many draws: the saturation sweep ---------------------------------------------------------

// The d_k a sweep covers unless told: the powers of two 1 .. 1024.
std::vector<int> default_sweep_dks();

struct SweepParams {
  std::vector<int> dks = default_sweep_dks();  // 1..max_sweep_dks entries
  int keys = static_cast<int>(explorer::keys.value);
  int draws = static_cast<int>(explorer::draws.value);
  uint64_t seed = static_cast<uint64_t>(explorer::seed.value);
  double alpha = explorer::alpha.value;  // the "scaled" side; "raw" is always alpha = 0
  DrawMethod method = DrawMethod::fast;
};

// Quantiles over draws, linear interpolation between order statistics (numpy's default, R type 7).
struct Quartiles {
  double q1 = 0.0;
  double median = 0.0;
  double q3 = 0.0;
};

// q1, median and q3 of values (S >= 1), which it sorts in place.
Quartiles quartiles(std::vector<double>& values);

struct SweepStats {
  Quartiles max_weight;
  Quartiles entropy;
  Quartiles jacobian_norm;
};

struct SweepRow {
  int dk = 0;
  double dot_variance = 0.0;  // sample variance of q.k over all S*N dots (expected: D)
  SweepStats raw;             // alpha = 0
  SweepStats scaled;          // alpha = params.alpha
};

std::string validate(const SweepParams& params);  // "" if valid; never throws
void require_valid(const SweepParams& params);    // throws ConfigError

// One row: S draws at dimension dk from a fresh Rng(params.seed); params.dks is ignored (dk is checked).
// Memory O(S + N + D), allocated once per row. Throws ConfigError on invalid params.
SweepRow sweep_row(const SweepParams& params, int dk);

// All rows, in params.dks order (call sweep_row() directly to report progress between rows).
std::vector<SweepRow> sweep(const SweepParams& params);

// ---- histogram of q.k at one d_k ----------------------------------------------------------------

struct HistogramParams {
  int dk = static_cast<int>(explorer::dk.value);
  int keys = static_cast<int>(explorer::keys.value);
  int draws = static_cast<int>(explorer::draws.value);
  uint64_t seed = static_cast<uint64_t>(explorer::seed.value);
  double alpha = explorer::alpha.value;
  DrawMethod method = DrawMethod::fast;
  int bins = static_cast<int>(explorer::bins.value);
  double half_width = 0.0;  // range [-half_width, half_width); 0 means 4 sqrt(D), i.e. +-4 std of q.k
};

// Both histograms share the edges, so the scaled scores (spread D^(0.5 - alpha)) sit inside the raw ones
// (spread sqrt(D)) on one axis: at D = 128, alpha = 0.5 the raw q.k fill +-45 and the scaled ones +-4.
struct DotHistogram {
  int dk = 0;
  double dot_variance = 0.0;             // sample variance of q.k over all S*N dots
  std::vector<double> edges;             // (bins + 1) ascending, edges[0] = -half_width, edges[bins] = half_width
  std::vector<int64_t> raw_counts;       // (bins) q.k in [edges[b], edges[b + 1])
  std::vector<int64_t> scaled_counts;    // (bins) q.k * D^-alpha in [edges[b], edges[b + 1])
  int64_t raw_below = 0, raw_above = 0;  // outside the range (below edges[0], at or above edges[bins])
  int64_t scaled_below = 0, scaled_above = 0;
  int64_t total = 0;  // S * N samples in each histogram, out-of-range ones included
};

std::string validate(const HistogramParams& params);  // "" if valid; never throws
void require_valid(const HistogramParams& params);    // throws ConfigError

// Uses the same draws as sweep_row() with the same keys, draws, seed and method at params.dk.
// Memory O(bins + N + D). Throws ConfigError.
DotHistogram dot_histogram(const HistogramParams& params);

}  // namespace sqrtdk
