// The exercise as a PyTorch program: the learner's next step after the page.  From an exercise's settings (its
// variants, seeds, steps, threshold and every setting of the model, task and optimizer) it writes a plain Python
// script or a Jupyter notebook (nbformat 4) that builds the same model, task and optimizer in PyTorch, trains each
// variant on each seed, plots the loss curves of every variant on one axis (each seed thin, the median over seeds
// bold, the threshold) and prints the answer in the lab's definitions (analysis.hpp: the smoothed loss over the
// same window, learned vs touched, steps to threshold, the pairs verdict).
//
// One generator: `sqrtdk export-torch` and the page's "Download as notebook / as Python script" (lab.exportTorch)
// both call torch_export, so the same settings give the same text byte for byte.  Every number the program uses
// comes from the core (the settings table, CurveDefinitions, CopyLayout, the layers' epsilons, the init scales,
// the divergence bound, each variant's attention factor, the claims' measurement); the model is the one of
// tests/reference/torch_model.py, written into the file so that it runs on its own.  PyTorch draws its own random
// numbers, so a seed there is not the lab's seed: single runs differ, rates over seeds agree
// (tests/torch_export/check.py measures that).
#pragma once
#include <string>

#include "core/claims/scenarios.hpp"

namespace sqrtdk {

enum class TorchFormat { script, notebook };

// Throws ConfigError on invalid settings (a variant name, a range, the model's memory cap), naming the setting.
void check_torch_export(const ExerciseSettings& exercise);

// The program: a Python script, or a notebook as nbformat-4 JSON.  When the settings are one of the lab's presets
// (scenarios.hpp; the seeds may differ) the file names it and quotes what the lab measured for it.  Checks the
// settings first (see above).
std::string torch_export(const ExerciseSettings& exercise, TorchFormat format);

// The `sqrtdk export-torch` command line that writes the same program: the variants, seeds, steps and threshold,
// the first seed when not 0, and every other setting that differs from its default.
std::string torch_export_command(const ExerciseSettings& exercise);

// The preset whose settings these are, apart from the seeds (how many, and the first one); nullptr if none.
const Scenario* preset_of(const ExerciseSettings& exercise);

}  // namespace sqrtdk
