#include "core/train/trainer.hpp"
#include "core/settings/attention_scale.hpp"
#include "core/arith/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/train/metrics.hpp"
#include "core/arith/simd_math.hpp"
#include "core/nn/valid_config.hpp"

namespace sqrtdk {

namespace {
const TrainConfig& validated(const TrainConfig& config) {
  require_valid(config);
  return config;
}

}  // namespace

void TrainLog::append(const StepMetrics& m) {
  step.push_back(m.step);
  for (const Metric& metric : metrics()) {
    std::vector<float>& into = this->*metric.series;
    if (metric.scalar) into.push_back(m.*metric.scalar);
    else into.insert(into.end(), (m.*metric.values).begin(), (m.*metric.values).end());
  }
}

void TrainLog::extend(const TrainLog& later) {
  n_layers = later.n_layers;
  n_heads = later.n_heads;
  step.insert(step.end(), later.step.begin(), later.step.end());
  for (const Metric& metric : metrics()) {
    std::vector<float>& into = this->*metric.series;
    const std::vector<float>& from = later.*metric.series;
    into.insert(into.end(), from.begin(), from.end());
  }
  evals.insert(evals.end(), later.evals.begin(), later.evals.end());
}

Trainer::Trainer(const TrainConfig& config)
    : config_(validated(config)),
      model_(config_),
      train_ws_(config_, config_.task.batch),
      eval_ws_(config_, config_.task.eval_batch),
      optimizer_(make_update_rule(config_.optim, model_.params().size())) {
  const int L = config_.model.n_layers, H = config_.model.n_heads;
  batch_.resize(config_.task.batch, config_.task.seq_len());
  eval_batch_.resize(config_.task.eval_batch, config_.task.seq_len());
  for (const Metric& metric : metrics())
    if (metric.values) (last_.*metric.values).assign(static_cast<std::size_t>(metric_width(metric, L, H)), 0.0f);
  for (int l = 0; l < L; ++l)
    for (const char* name : {"attn.wq", "attn.bq", "attn.wk", "attn.bk"}) {
      const ParamInfo& p = model_.layout().find("blocks." + std::to_string(l) + "." + name);
      qk_ranges_.emplace_back(p.offset, p.offset + p.size);
    }
  reset(config_.seed);
}

void Trainer::reset(uint64_t seed) {
  config_.seed = seed;
  Rng init = Rng::derive(seed, static_cast<uint64_t>(Stream::init));
  model_.initialize(init);
  model_.zero_grad();
  optimizer_->reset();
  data_rng_ = Rng::derive(seed, static_cast<uint64_t>(Stream::data));
  Rng eval_rng = Rng::derive(seed, static_cast<uint64_t>(Stream::eval));
  sample_copy_batch(config_.task, eval_rng, eval_batch_);
  steps_done_ = 0;
  diverged_step_ = 0;
}

bool Trainer::step() {
  if (diverged()) return false;
  const int L = config_.model.n_layers, H = config_.model.n_heads;
  sample_copy_batch(config_.task, data_rng_, batch_);
  const float loss = model_.forward(train_ws_, batch_.inputs.data(), batch_.targets.data());
  model_.zero_grad();
  model_.backward(train_ws_);
  const std::vector<float>& g = model_.grads();
  const ParamLayout& layout = model_.layout();
  // One pass over the gradient: the blocks are contiguous, so the total is embeddings + layers + head.
  double total = simd::sum_squares(g.data(), layout.layer_begin(0)) +
                 simd::sum_squares(g.data() + layout.layer_end(L - 1), g.size() - layout.layer_end(L - 1));
  for (int l = 0; l < L; ++l) {
    const double layer = simd::sum_squares(g.data() + layout.layer_begin(l), layout.layer_end(l) - layout.layer_begin(l));
    last_.layer_grad_norm[l] = static_cast<float>(std::sqrt(layer));
    total += layer;
  }
  last_.step = steps_done_ + 1;
  last_.loss = loss;
  last_.grad_norm = static_cast<float>(std::sqrt(total));
  for (int l = 0; l < L; ++l) {
    const Workspace<float>::Layer& A = train_ws_.layers[l];
    std::copy(A.entropy, A.entropy + H, last_.entropy.begin() + static_cast<long>(l) * H);
    last_.max_logit[l] = A.max_logit;
    last_.top_weight[l] = A.top_weight;
    last_.logit_spread[l] = A.logit_spread;
    last_.jacobian_norm[l] = A.jacobian_norm;
    double qk = 0;
    for (int r = 0; r < 4; ++r) {
      const auto& range = qk_ranges_[4 * l + r];
      qk += simd::sum_squares(g.data() + range.first, range.second - range.first);
    }
    last_.qk_grad_norm[l] = static_cast<float>(std::sqrt(qk));
    last_.qk_update_norm[l] = 0.0f;
  }
  ++steps_done_;
  if (!std::isfinite(loss) || !std::isfinite(total) || loss > divergence_loss()) {
    diverged_step_ = steps_done_;
    return false;
  }
  optimizer_->step(model_.params().data(), g.data(), std::sqrt(total));
  for (int l = 0; l < L; ++l) {
    double moved = 0;
    for (int r = 0; r < 4; ++r) {
      const auto& range = qk_ranges_[4 * l + r];
      moved += optimizer_->update_sum_squares(range.first, range.second);
    }
    last_.qk_update_norm[l] = static_cast<float>(std::sqrt(moved));
  }
  return true;
}

double Trainer::divergence_loss() const { return kDivergenceFactor * det::log(static_cast<double>(config_.task.vocab())); }

TrainLog Trainer::run(int k) {
  TrainLog log;
  log.n_layers = config_.model.n_layers;
  log.n_heads = config_.model.n_heads;
  for (int i = 0; i < k && !diverged(); ++i) {
    step();
    log.append(last_);
    if (!diverged() && steps_done_ % config_.eval_every == 0) log.evals.push_back(evaluate());
  }
  return log;
}

// Greedy decoding is exact but cheap: the model is causal, so until a sequence's first mistake its greedy
// inputs equal the true ones and greedy predictions equal the teacher-forced ones.  One teacher-forced pass
// finds each sequence's first mistake; decoding then starts at the earliest one (none: one pass in all).
// Sequence accuracy is therefore the teacher-forced one; token accuracy needs the decoding after a mistake.
EvalMetrics Trainer::evaluate() {
  const int B = config_.task.eval_batch, TT = config_.task.seq_len(), V = config_.task.vocab();
  const CopyLayout layout{config_.task.copy_length};
  auto predicted = [&](int b, int p) {  // p is a scored position: the last layer computed it
    const float* logits = eval_ws_.logits_at(b, p);
    return static_cast<int>(std::max_element(logits, logits + V) - logits);
  };
  auto target = [&](int b, int p) { return eval_batch_.targets[static_cast<std::size_t>(b) * TT + p]; };
  EvalMetrics out;
  out.step = steps_done_;
  out.loss = model_.forward(eval_ws_, eval_batch_.inputs.data(), eval_batch_.targets.data());
  int first_mistake = TT;  // earliest over the batch
  int sequences_right = 0;
  for (int b = 0; b < B; ++b) {
    int p = layout.first_scored();
    while (p < TT && predicted(b, p) == target(b, p)) ++p;
    first_mistake = std::min(first_mistake, p);
    sequences_right += p == TT ? 1 : 0;
  }
  // Tokens before first_mistake are right in every sequence; decode greedily from there.
  long tokens_right = static_cast<long>(B) * (first_mistake - layout.first_scored());
  for (int p = first_mistake; p < TT; ++p) {
    if (p > first_mistake) model_.forward(eval_ws_);  // inputs up to p now hold the greedy predictions
    for (int b = 0; b < B; ++b) {
      const int next = predicted(b, p);
      tokens_right += next == target(b, p) ? 1 : 0;
      if (p + 1 < TT) eval_ws_.inputs[static_cast<std::size_t>(b) * TT + p + 1] = next;
    }
  }
  out.token_accuracy = static_cast<float>(tokens_right) / (static_cast<float>(B) * config_.task.copy_length);
  out.sequence_accuracy = static_cast<float>(sequences_right) / static_cast<float>(B);
  return out;
}

std::vector<float> Trainer::attention_map(int example, int layer, int head) {
  const int B = config_.task.eval_batch, TT = config_.task.seq_len(), H = config_.model.n_heads;
  if (example < 0 || example >= B) throw ConfigError("example must be in [0, " + std::to_string(B - 1) + "]");
  if (layer < 0 || layer >= config_.model.n_layers)
    throw ConfigError("layer must be in [0, " + std::to_string(config_.model.n_layers - 1) + "]");
  if (head < 0 || head >= H) throw ConfigError("head must be in [0, " + std::to_string(H - 1) + "]");
  model_.forward(eval_ws_, eval_batch_.inputs.data(), eval_batch_.targets.data());
  const float* P = eval_ws_.layers[layer].att + (static_cast<long>(example) * H + head) * TT * TT;
  return std::vector<float>(P, P + static_cast<long>(TT) * TT);
}

double Trainer::measured_logit_std() {
  model_.forward(eval_ws_, eval_batch_.inputs.data(), eval_batch_.targets.data());
  const ModelConfig& m = config_.model;
  const int B = config_.task.eval_batch, TT = config_.task.seq_len(), H = m.n_heads, D = m.d_k(), C = m.d_model;
  const Workspace<float>::Layer& A = eval_ws_.layers[0];
  const bool qk = m.scale == ScaleMode::qknorm;
  const float* q = qk ? A.qhat : A.q;
  const float* k = qk ? A.khat : A.k;
  const float* gain = model_.weights().layers[0].qk_gain;  // null unless qknorm
  const double fixed = attention_scale(m);
  double sum = 0, sum_sq = 0;
  long count = 0;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < TT; ++i)
        for (int j = 0; j <= i; ++j) {
          const float* qi = q + (static_cast<long>(b) * TT + i) * C + h * D;
          const float* kj = k + (static_cast<long>(b) * TT + j) * C + h * D;
          double dot = 0;
          for (int d = 0; d < D; ++d) dot += static_cast<double>(qi[d]) * kj[d];
          const double logit = dot * (qk ? gain[h] : fixed);
          sum += logit;
          sum_sq += logit * logit;
          ++count;
        }
  const double mean = sum / count;
  return std::sqrt(std::max(0.0, sum_sq / count - mean * mean));
}

}  // namespace sqrtdk
