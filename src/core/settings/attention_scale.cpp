#include "core/settings/attention_scale.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/arith/det_math.hpp"
#include "core/settings/settings.hpp"

namespace sqrtdk {

double attention_scale(const ModelConfig& m) {
  switch (m.scale) {
    case ScaleMode::scaled: return 1.0 / std::sqrt(static_cast<double>(m.d_k()));
    case ScaleMode::unscaled: return 1.0;
    case ScaleMode::alpha: return det::pow(static_cast<double>(m.d_k()), -m.alpha);
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
  char text[48];
  std::snprintf(text, sizeof text, "alpha=%g", model.alpha);  // %g: what an ostream prints by default
  return text;
}

}  // namespace sqrtdk
