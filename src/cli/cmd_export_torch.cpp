// sqrtdk export-torch: the exercise as a PyTorch script or notebook (src/core/export/torch_export.hpp), the text
// the page's "Download as Python script / as notebook" saves for the same settings.
#include <string>

#include "cli/commands.hpp"
#include "cli/exercise_flags.hpp"
#include "cli/output.hpp"
#include "cli/range_flags.hpp"
#include "cli/train_flags.hpp"
#include "core/export/torch_export.hpp"

namespace sqrtdk {
namespace {

const std::string kUsage = std::string(
    "usage: sqrtdk export-torch [--variants " + default_variants() + "] " +
    range_synopsis({&run::seeds, &run::steps, &run::threshold}) + " [--seed N]\n"
    "                           [--notebook] [model, task, optimizer flags]\n"
    "       sqrtdk export-torch --scenario <id> [--seeds N] [--seed N] [--notebook]   (a page scenario; see\n"
    "                           'sqrtdk scenarios')\n"
    "\n"
    "Writes the exercise as a self-contained PyTorch program to stdout: a Python script, or with --notebook a\n"
    "Jupyter notebook (nbformat 4).  It builds the lab's model, task and optimizer with these settings, trains\n"
    "every variant on seeds seed .. seed+seeds-1, plots their loss curves on one axis and prints the answer in the\n"
    "lab's definitions (those of 'sqrtdk compare').  PyTorch draws its own random numbers: single seeds differ\n"
    "from the lab's, rates over seeds agree.\n\n"
    "  --notebook    a notebook (.ipynb) instead of a script (.py)\n") +
    exercise_flags_usage() + train_flags_usage(/*with_scale=*/false);

}  // namespace

int run_export_torch(const Args& args) {
  if (args.wants_help()) return emit(kUsage);
  args.accept(exercise_flag_names({"notebook"}));
  const ExerciseSettings e = read_exercise_settings(args, {"seeds", "seed"});
  const bool notebook = args.get_switch("notebook");
  return emit(torch_export(e, notebook ? TorchFormat::notebook : TorchFormat::script));
}

}  // namespace sqrtdk
