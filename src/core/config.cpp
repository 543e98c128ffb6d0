#include "core/config.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace sqrtdk {
namespace {

// Appends "name (value) must be in [lo, hi]" when value is outside.
bool check_range(std::ostringstream& err, const char* name, long long value, long long lo, long long hi) {
  if (value >= lo && value <= hi) return true;
  err << name << " must be in [" << lo << ", " << hi << "], got " << value;
  return false;
}

bool check_real(std::ostringstream& err, const char* name, double value, double lo, double hi, bool lo_open) {
  const bool ok = std::isfinite(value) && (lo_open ? value > lo : value >= lo) && value <= hi;
  if (ok) return true;
  err << name << " must be a finite number in " << (lo_open ? "(" : "[") << lo << ", " << hi << "], got " << value;
  return false;
}

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
  std::ostringstream err;
  const ModelConfig& m = c.model;
  const TaskConfig& t = c.task;
  const OptimConfig& o = c.optim;
  const bool ok =
      check_range(err, "n_layers", m.n_layers, 1, Limits::max_layers) &&
      check_range(err, "d_model", m.d_model, 1, Limits::max_d_model) &&
      check_range(err, "n_heads", m.n_heads, 1, Limits::max_heads) &&
      check_range(err, "d_ff", m.d_ff, 0, Limits::max_d_ff) &&
      check_real(err, "alpha", m.alpha, 0.0, 2.0, false) &&
      check_range(err, "copy_length", t.copy_length, 1, Limits::max_copy_length) &&
      check_range(err, "n_symbols", t.n_symbols, 2, Limits::max_symbols) &&
      check_range(err, "batch", t.batch, 1, Limits::max_batch) &&
      check_range(err, "eval_batch", t.eval_batch, 1, Limits::max_eval_batch) &&
      check_real(err, "lr", o.lr, 0.0, 100.0, true) &&
      check_real(err, "beta1", o.beta1, 0.0, 1.0, false) && check_real(err, "beta2", o.beta2, 0.0, 1.0, false) &&
      check_real(err, "eps", o.eps, 0.0, 1.0, true) &&
      check_real(err, "clip_norm", o.clip_norm, 0.0, 1e9, false) &&
      check_range(err, "eval_every", c.eval_every, 1, 1000000);
  if (!ok) return err.str();
  if (o.beta1 >= 1.0 || o.beta2 >= 1.0) return "beta1 and beta2 must be below 1";
  if (!(o.momentum >= 0.0 && o.momentum < 1.0)) {  // NaN fails both
    err << "momentum must be a finite number in [0, 1), got " << o.momentum;
    return err.str();
  }
  if (o.optimizer != Optimizer::adam && o.optimizer != Optimizer::sgd) return "optimizer must be one of adam, sgd";
  if (m.d_model % m.n_heads != 0) {
    err << "d_model (" << m.d_model << ") must be divisible by n_heads (" << m.n_heads << ")";
    return err.str();
  }
  if (m.scale != ScaleMode::scaled && m.scale != ScaleMode::unscaled && m.scale != ScaleMode::alpha &&
      m.scale != ScaleMode::qknorm)
    return "scale must be one of scaled, unscaled, alpha, qknorm";
  if (m.init != InitScheme::xavier && m.init != InitScheme::torch && m.init != InitScheme::gpt)
    return "init must be one of xavier, torch, gpt";
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

const char* to_string(ScaleMode mode) {
  switch (mode) {
    case ScaleMode::scaled: return "scaled";
    case ScaleMode::unscaled: return "unscaled";
    case ScaleMode::alpha: return "alpha";
    case ScaleMode::qknorm: return "qknorm";
  }
  return "?";
}

const char* to_string(InitScheme init) {
  switch (init) {
    case InitScheme::xavier: return "xavier";
    case InitScheme::torch: return "torch";
    case InitScheme::gpt: return "gpt";
  }
  return "?";
}

const char* to_string(Optimizer optimizer) {
  switch (optimizer) {
    case Optimizer::adam: return "adam";
    case Optimizer::sgd: return "sgd";
  }
  return "?";
}

Optimizer parse_optimizer(const std::string& text) {
  if (text == "adam") return Optimizer::adam;
  if (text == "sgd") return Optimizer::sgd;
  throw ConfigError("optimizer must be adam or sgd, got '" + text.substr(0, 40) + "'");
}

void parse_scale(const std::string& text, ModelConfig& model) {
  if (text == "scaled") { model.scale = ScaleMode::scaled; return; }
  if (text == "unscaled") { model.scale = ScaleMode::unscaled; return; }
  if (text == "qknorm") { model.scale = ScaleMode::qknorm; return; }
  if (text == "alpha") { model.scale = ScaleMode::alpha; return; }
  if (text.rfind("alpha=", 0) == 0) {
    const std::string number = text.substr(6);
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !std::isfinite(value) || value < 0.0 || value > 2.0)
      throw ConfigError("scale alpha=" + number + ": alpha must be a number in [0, 2]");
    model.scale = ScaleMode::alpha;
    model.alpha = value;
    return;
  }
  throw ConfigError("scale must be scaled, unscaled, qknorm or alpha=<number>, got '" + text + "'");
}

InitScheme parse_init(const std::string& text) {
  if (text == "xavier") return InitScheme::xavier;
  if (text == "torch") return InitScheme::torch;
  if (text == "gpt") return InitScheme::gpt;
  throw ConfigError("init must be xavier, torch or gpt, got '" + text + "'");
}

std::string scale_label(const ModelConfig& model) {
  if (model.scale != ScaleMode::alpha) return to_string(model.scale);
  std::ostringstream out;
  out << "alpha=" << model.alpha;
  return out.str();
}

}  // namespace sqrtdk
