// The attention score's scale, score = scale * q.k: its factor for each ScaleMode, its spelling as a variant
// name ("alpha=0.25"), and the size of the logits it predicts at initialisation.
#pragma once
#include <string>

#include "core/settings/config.hpp"

namespace sqrtdk {

double attention_scale(const ModelConfig& model);   // the factor on q.k (1 for qknorm: its gain is learned)
double initial_qk_gain(const ModelConfig& model);   // sqrt(d_k)

// Predicted std of the attention logits at initialisation, assuming unit-variance LayerNorm outputs
// and zero biases: sqrt(d_k) * var(W) * fan_in * scale (derivation in attention_scale.cpp).
double predicted_logit_std(const ModelConfig& model);

// A variant name: "scaled", "unscaled", "qknorm", "alpha" or "alpha=0.25", the last being short for the two
// settings scale = alpha and alpha = 0.25 (the only other spelling of alpha anywhere).  Throws ConfigError on
// anything else.
void parse_scale(const std::string& text, ModelConfig& model);
// "scaled", "unscaled", "qknorm" or "alpha=0.25": the inverse of parse_scale.
std::string scale_label(const ModelConfig& model);

}  // namespace sqrtdk
