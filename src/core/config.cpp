#include "core/config.hpp"

#include "core/settings.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace sqrtdk {
namespace {

// Float counts, computed in double so absurd sizes cannot overflow before they are refused.
double parameter_count(const TrainConfig& c) {
  const double C = c.model.d_model, F = c.model.d_ff > 0 ? c.model.d_ff : 4.0 * C, V = c.task.vocab(),
               T = c.task.seq_len(), H = c.model.n_heads, L = c.model.n_layers;
  const double per_layer = 4 * C + 4 * (C * C + C) + H + (C * F + F) + (F * C + C);
  return V * C + T * C + L * per_layer + 2 * C + C * V + V;
}

double workspace_floats(const TrainConfig& c, double batch) {
  const double C = c.model.d_model, F = c.model.d_ff > 0 ? c.model.d_ff : 4.0 * C, V = c.task.vocab(),
               T = c.task.seq_len(), H = c.model.n_heads, L = c.model.n_layers;
  const double N = batch * T;
  const double per_layer = 14 * N * C + 2 * N * F + 2 * batch * H * T * T + 8 * N;
  return N * C + L * per_layer + 3 * N * C + 2 * N * V + 8 * N * C + 2 * N * F + 2 * T * T;
}

double estimated_bytes_exact(const TrainConfig& c) {
  const double floats =
      4 * parameter_count(c) + workspace_floats(c, c.task.batch) + workspace_floats(c, c.task.eval_batch);
  return floats * sizeof(float);
}

}  // namespace

std::size_t estimated_bytes(const TrainConfig& c) {
  const double bytes = estimated_bytes_exact(c);
  // size_t is 32 bits in wasm32: saturate rather than overflow the conversion.
  const double largest = static_cast<double>(std::numeric_limits<std::size_t>::max());
  return bytes >= largest ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(bytes);
}

std::string validate(const TrainConfig& c) {
  for (const Setting& s : settings()) {
    const std::string problem = check_setting(s, s.get(c));
    if (!problem.empty()) return problem;
  }
  if (c.model.d_model % c.model.n_heads != 0) {
    return "d_model (" + std::to_string(c.model.d_model) + ") must be divisible by heads (" +
           std::to_string(c.model.n_heads) + ")";
  }
  std::ostringstream err;
  const double bytes = estimated_bytes_exact(c);
  if (bytes > static_cast<double>(Limits::max_bytes)) {
    err << "configuration needs about " << static_cast<long long>(bytes / (1 << 20)) << " MiB, over the cap of "
        << (Limits::max_bytes >> 20) << " MiB (reduce batch, d_model, d_ff, layers or copy_length)";
    return err.str();
  }
  return "";
}

void require_valid(const TrainConfig& config) {
  const std::string message = validate(config);
  if (!message.empty()) throw ConfigError(message);
}

double attention_scale(const ModelConfig& m) {
  switch (m.scale) {
    case ScaleMode::scaled: return 1.0 / std::sqrt(static_cast<double>(m.d_k()));
    case ScaleMode::unscaled: return 1.0;
    case ScaleMode::alpha: return std::pow(static_cast<double>(m.d_k()), -m.alpha);
    case ScaleMode::qknorm: return 1.0;
  }
  return 1.0;
}

double initial_qk_gain(const ModelConfig& m) { return std::sqrt(static_cast<double>(m.d_k())); }

// With LayerNorm outputs x of unit variance and W_ij of variance s2, a q (or k) component has variance
// d_model * s2; the logit scale * sum_{j<d_k} q_j k_j then has variance scale^2 * d_k * (d_model * s2)^2.
// For qknorm, q/|q| . k/|k| has variance ~1/d_k, times the gain g = sqrt(d_k): std 1.
double predicted_logit_std(const ModelConfig& m) {
  const double C = m.d_model, dk = m.d_k();
  if (m.scale == ScaleMode::qknorm) return initial_qk_gain(m) / std::sqrt(dk);
  double s2 = 0;
  switch (m.init) {
    case InitScheme::xavier: s2 = 2.0 / (C + C) ; break;       // U(+-a), a^2 = 6/(in+out), var = a^2/3
    case InitScheme::torch: s2 = 1.0 / (3.0 * C); break;       // U(+-1/sqrt(in)); its bias adds var 1/(3C)
    case InitScheme::gpt: s2 = 0.02 * 0.02; break;
  }
  double q_var = C * s2;
  if (m.init == InitScheme::torch) q_var += 1.0 / (3.0 * C);   // the bias term of PyTorch's default init
  return attention_scale(m) * std::sqrt(dk) * q_var;
}

namespace {
template <typename Enum, std::size_t N>
const char* name_of(Enum value, const char* const (&names)[N]) {
  const int i = static_cast<int>(value);
  return i >= 0 && i < static_cast<int>(N) ? names[i] : "?";
}
}  // namespace

const char* to_string(ScaleMode mode) { return name_of(mode, kScaleNames); }
const char* to_string(InitScheme init) { return name_of(init, kInitNames); }
const char* to_string(Optimizer optimizer) { return name_of(optimizer, kOptimizerNames); }

void parse_scale(const std::string& text, ModelConfig& model) {
  const int index = choice_index(*find_setting("scale"), text);
  if (index >= 0) {
    model.scale = static_cast<ScaleMode>(index);
    return;
  }
  if (text.rfind("alpha=", 0) == 0) {
    const std::string number = text.substr(6);
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    const std::string problem = number.empty() || *end != '\0' ? "alpha must be a number, got '" + number + "'"
                                                                : check_setting(*find_setting("alpha"), value);
    if (!problem.empty()) throw ConfigError("scale " + text + ": " + problem);
    model.scale = ScaleMode::alpha;
    model.alpha = value;
    return;
  }
  throw ConfigError("scale must be scaled, unscaled, alpha, qknorm or alpha=<number>, got '" + text + "'");
}

std::string scale_label(const ModelConfig& model) {
  if (model.scale != ScaleMode::alpha) return to_string(model.scale);
  std::ostringstream out;
  out << "alpha=" << model.alpha;
  return out.str();
}

}  // namespace sqrtdk
