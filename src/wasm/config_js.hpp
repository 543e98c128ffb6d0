// A training configuration between JS and the core: a JS object read over the settings table's defaults, the
// core's full config as a JS object, and the memory check every new trainer passes (config_bindings.cpp).
#pragma once
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "core/settings/config.hpp"

namespace sqrtdk::wasm {

// A copy of `data` as a JS typed array of `type` ("Float32Array"); constructing it from a memory view copies it
// out of the heap.
template <typename T>
emscripten::val typed_copy(const char* type, const std::vector<T>& data) {
  return emscripten::val::global(type).new_(emscripten::typed_memory_view(data.size(), data.data()));
}

// Reads a JS config object over the canonical defaults (settings.hpp) into `c`; "" or the first problem.
std::string read_config(const emscripten::val& object, TrainConfig& c);

// The full config as JS sees it: the settings table's JS keys, a choice by its name.
emscripten::val config_to_js(const TrainConfig& c);

// "" when a trainer for `c` fits in what the heap may still grow to, else why not.
std::string check_memory(const TrainConfig& c);

}  // namespace sqrtdk::wasm
