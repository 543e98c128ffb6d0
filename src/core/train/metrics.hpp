// The per-step metrics table: one row per metric a training step records, in the order every consumer uses.
// TrainLog's append and extend, the fingerprint, the CLI's CSV columns, Embind's step chunk and the page's
// generated list (web/src/core-tables.js: the worker's reply, the run record, the export) are loops over it.
//
// Adding a metric: a member in StepMetrics and in TrainLog (trainer.hpp), its computation (trainer.cpp or
// model.cpp), and one row here; a chart that shows it is one more line in the page.
//
// Names are snake_case; a JS key is the camelCase of the name (qk_grad_norm -> qkGradNorm).  A CSV column is
// the name, then _l<layer> for a per-layer metric and _l<layer>_h<head> for a per-head one, both 1-based (the
// page's "layer 1" is the first block).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/train/trainer.hpp"

namespace sqrtdk {

enum class MetricShape { step, layer, layer_head };  // per step: 1, n_layers or n_layers * n_heads values

// How the values of the layers make one value for the whole model (mechanism.hpp, the page's combined curves).
enum class LayerCombine {
  none,             // not combined
  root_sum_square,  // a norm: the norm of all layers' tensors together
  mean,             // an average over rows: the mean over layers
};

struct Metric {
  const char* name;  // snake_case
  MetricShape shape;
  LayerCombine combine;
  const char* unit;  // "" when it has none
  const char* doc;
  std::vector<float> TrainLog::*series;      // (steps, width) step-major
  float StepMetrics::*scalar;                // shape step: the value in a step's metrics
  std::vector<float> StepMetrics::*values;   // shape layer or layer_head: (width) values in a step's metrics
};

inline constexpr std::size_t kMetricCount = 10;
const std::array<Metric, kMetricCount>& metrics();

const Metric& find_metric(const std::string& name);  // throws std::out_of_range for an unknown name

// Values per step: 1, n_layers or n_layers * n_heads.
int metric_width(const Metric& m, int n_layers, int n_heads);

// The metric's CSV columns for a model of n_layers and n_heads: loss | layer_grad_norm_l1 | entropy_l1_h1.
std::vector<std::string> metric_columns(const Metric& m, int n_layers, int n_heads);

// The columns of a run's curves, in the one CSV format the CLI (sqrtdk train --csv) and the page's export
// write: variant, seed, step, every metric's columns, then the evaluation's columns (filled at the steps where an
// evaluation ran, empty elsewhere).  Non-finite values are empty cells.
std::vector<std::string> curves_csv_header(int n_layers, int n_heads);

// The evaluation's columns: CSV name and the EvalMetrics field (its JS key is the camelCase of `field`).
struct EvalColumn {
  const char* csv_name;
  const char* field;
  const char* doc;
  float EvalMetrics::*value;
};
const std::array<EvalColumn, 3>& eval_columns();

std::string camel_case(const std::string& snake_name);  // qk_grad_norm -> qkGradNorm

const char* to_string(MetricShape shape);       // "step", "layer", "layerHead"
const char* to_string(LayerCombine combine);    // "none", "rootSumSquare", "mean"

}  // namespace sqrtdk
