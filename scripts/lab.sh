#!/usr/bin/env bash
# Builds the lab and runs it: for now the native CLI's lesson demo and the exercise's answer.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_packages
build_native native-release
"$ROOT/build/release/sqrtdk" softmax --dk 128 --keys 50 --seed 0
"$ROOT/build/release/sqrtdk" compare --variants scaled,unscaled --seeds 3 --steps 1500 --threshold 0.1
