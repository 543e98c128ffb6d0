#include "cli/train_flags.hpp"

#include "cli/commands.hpp"

namespace sqrtdk {

const char kTrainFlagsUsage[] =
    "model:     --layers 2  --d-model 64  --heads 1 (d_k = d_model/heads)  --d-ff 256 (0 = 4 d_model)\n"
    "           --init xavier|torch|gpt (xavier)\n"
    "task:      --copy-length 10  --symbols 10  --batch 32  --eval-batch 64  --eval-every 50\n"
    "optimizer: --optimizer adam|sgd (adam)  --lr 1e-3 (sgd: 0.1)  --momentum 0.9 (sgd)\n"
    "           --beta1 0.9  --beta2 0.98  --eps 1e-9 (adam)  --clip 0 (global-norm clipping, 0 = off)\n";

std::vector<std::string> train_flag_names(std::initializer_list<const char*> extra) {
  std::vector<std::string> names{"layers", "d-model", "heads", "d-ff", "init", "copy-length", "symbols", "batch",
                                 "eval-batch", "eval-every", "optimizer", "lr", "momentum", "beta1", "beta2", "eps",
                                 "clip", "seed"};
  names.insert(names.end(), extra.begin(), extra.end());
  return names;
}

TrainConfig read_train_config(const Args& args, bool with_scale) {
  TrainConfig c;
  c.model.n_layers = args.get_int("layers", c.model.n_layers, 1, Limits::max_layers);
  c.model.d_model = args.get_int("d-model", c.model.d_model, 1, Limits::max_d_model);
  c.model.n_heads = args.get_int("heads", c.model.n_heads, 1, Limits::max_heads);
  c.model.d_ff = args.get_int("d-ff", 4 * c.model.d_model, 0, Limits::max_d_ff);
  c.model.init = parse_init(args.get_string("init", "xavier"));
  if (with_scale) parse_scale(args.get_string("scale", "scaled"), c.model);
  c.task.copy_length = args.get_int("copy-length", c.task.copy_length, 1, Limits::max_copy_length);
  c.task.n_symbols = args.get_int("symbols", c.task.n_symbols, 2, Limits::max_symbols);
  c.task.batch = args.get_int("batch", c.task.batch, 1, Limits::max_batch);
  c.task.eval_batch = args.get_int("eval-batch", c.task.eval_batch, 1, Limits::max_eval_batch);
  c.eval_every = args.get_int("eval-every", c.eval_every, 1, 1000000);
  c.optim.optimizer = parse_optimizer(args.get_string("optimizer", "adam"));
  const double default_lr = c.optim.optimizer == Optimizer::sgd ? kSgdDefaultLr : c.optim.lr;
  c.optim.lr = args.get_double("lr", default_lr, 1e-12, 100.0);
  c.optim.momentum = args.get_double("momentum", c.optim.momentum, 0.0, 1.0);  // validate() refuses 1
  c.optim.beta1 = args.get_double("beta1", c.optim.beta1, 0.0, 0.999999);
  c.optim.beta2 = args.get_double("beta2", c.optim.beta2, 0.0, 0.999999);
  c.optim.eps = args.get_double("eps", c.optim.eps, 1e-30, 1.0);
  c.optim.clip_norm = args.get_double("clip", c.optim.clip_norm, 0.0, 1e9);
  c.seed = args.get_u64("seed", 0, 0, kMaxSeed);
  require_valid(c);
  return c;
}

}  // namespace sqrtdk
