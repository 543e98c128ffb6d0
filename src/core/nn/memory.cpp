#include "core/nn/memory.hpp"

#include "core/nn/adam.hpp"
#include "core/nn/model.hpp"
#include "core/nn/sgd.hpp"

namespace sqrtdk {

int parameter_blocks(const OptimConfig& optim) { return 2 + (optim.optimizer == Optimizer::sgd ? 1 : 2); }

MemoryPlan memory_plan(const TrainConfig& c) {
  const ParamLayout layout(c.model, c.task);
  const uint64_t L = c.model.n_layers, H = c.model.n_heads, T = c.task.seq_len();
  MemoryPlan plan;
  plan.parameters = uint64_t(parameter_blocks(c.optim)) * layout.total() * sizeof(float);
  for (const int batch : {c.task.batch, c.task.eval_batch}) {
    const WorkspaceSize ws = Workspace<float>::size(c, batch);
    const uint64_t N = uint64_t(batch) * T;
    plan.activations += ws.activations * sizeof(float) + Workspace<float>::token_bytes(c, batch);
    plan.activations += 2 * N * sizeof(int32_t);  // the trainer's CopyBatch: inputs and targets
    plan.attention += ws.attention * sizeof(float);
    plan.logits += ws.logits * sizeof(float);
    plan.bookkeeping += L * sizeof(Workspace<float>::Layer);
  }
  // The parameter table: entries, names (an allocation of at most the name rounded up to 16 bytes, whatever
  // the string's small-buffer size) and shapes; the layer ranges; weight and gradient views; the fixed attention
  // factors (H); the last step's metrics (7 L + L H floats); the optimizer object; the trainer's ranges of the
  // query and key tensors (4 L, grown one at a time: capacity below 8 L).
  for (const ParamInfo& e : layout.entries()) {
    const uint64_t name = (e.name.size() + 16) / 16 * 16, shape = e.shape.size() * sizeof(int);
    plan.bookkeeping += sizeof(ParamInfo) + name + shape;
    plan.slack += name;
  }
  plan.bookkeeping += L * sizeof(std::pair<std::size_t, std::size_t>) + 2 * L * sizeof(LayerView<float>);
  plan.bookkeeping += (H + 7 * L + L * H) * sizeof(float);
  plan.bookkeeping += c.optim.optimizer == Optimizer::sgd ? sizeof(Sgd) : sizeof(Adam);
  const uint64_t range = sizeof(std::pair<std::size_t, std::size_t>);
  plan.bookkeeping += 8 * L * range;
  plan.slack += 4 * L * range;
  return plan;
}

std::string MemoryPlan::largest_part() const {
  if (logits >= parameters && logits >= activations && logits >= attention)
    return "the output logits (3 x batch x sequence x vocabulary: reduce symbols, batch, eval_batch or copy_length)";
  if (attention >= parameters && attention >= activations)
    return "the attention maps (layers x batch x heads x sequence^2: reduce copy_length, batch, eval_batch, heads or "
           "layers)";
  if (activations >= parameters)
    return "the activations (layers x batch x sequence x width: reduce batch, eval_batch, copy_length, d_model, d_ff "
           "or layers)";
  return "the parameters (4 copies of layers x d_model x d_ff and symbols x d_model: reduce d_model, d_ff, layers "
         "or symbols)";
}

}  // namespace sqrtdk
