#!/usr/bin/env bash
# Runs every test of the lab:
#   1. native Catch2 suite (release, -march=native) and the arithmetic's fingerprint at a baseline -march,
#   2. the same suite under ASan + UBSan,
#   3. the Catch2 suite compiled to wasm under Node, 4. the wasm module's JS API under Node,
#   5. the page in headless chromium (Playwright), then in chromium, Firefox ESR and WebKit,
#   6. the PyTorch export run in PyTorch against the claims table, 7. libFuzzer targets for a bounded time.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_packages test
ensure_node_modules test

build_native native-release
log "native Catch2 suite (release)"
# ctest learns the test names from Catch2; a name holding ';' or '[', or starting with '-', is split or mangled
# there and silently runs nothing: the two counts must agree and no name may start with '-'.
test_names=$("$ROOT/build/release/sqrtdk_tests" --list-test-names-only || true)  # Catch2 exits with the count
catch_count=$(grep -c . <<<"$test_names")
ctest_count=$(ctest --preset native-release -N | sed -n 's/^Total Tests: //p')
if [ "$catch_count" != "$ctest_count" ]; then
  echo "ctest registers $ctest_count tests but Catch2 has $catch_count: a test name holds ';' or '['" >&2
  exit 1
fi
if grep -q '^-' <<<"$test_names"; then
  echo "a Catch2 test name starts with '-': ctest passes it as an option and it runs nothing" >&2
  exit 1
fi
ctest --preset native-release -j "$JOBS"

# One float arithmetic on every CPU: a build for the compiler's default target (no AVX, no -march=native) must
# give the committed fingerprint too, as the -march=native suite above and the ASan and wasm suites below do.
log "fingerprint at a baseline -march"
cmake --preset native-baseline -S "$ROOT" >/dev/null
cmake --build --preset native-baseline -j "$JOBS" --target sqrtdk
baseline=$("$ROOT/build/baseline/sqrtdk" fingerprint)
committed=$(cat "$ROOT/tests/fixtures/fingerprint.txt")
if [ "$baseline" != "$committed" ]; then
  echo "the baseline build's fingerprint $baseline differs from the committed $committed" >&2
  exit 1
fi
echo "baseline build: fingerprint $baseline, the committed one"

build_native native-asan
log "native Catch2 suite under ASan + UBSan"
ctest --preset native-asan -j "$JOBS"

build_wasm
log "Catch2 suite compiled to wasm, under Node"
ctest --test-dir "$ROOT/wasm_build/build" --output-on-failure -j "$JOBS"

log "wasm module API under Node"
(cd "$ROOT" && node --test tests/node/)

log "page in headless chromium"
(cd "$ROOT" && npm run --silent build:web && node --test --test-concurrency=1 tests/web/)

log "the page in chromium, Firefox ESR and WebKit"
bash "$ROOT/tests/engines/run.sh"

log "the PyTorch export, run in PyTorch, against the claims table"
bash "$ROOT/tests/torch_export/run.sh"

log "fuzzers (libFuzzer + ASan + UBSan), ${FUZZ_SECONDS:=60} s each"
cmake --preset fuzz -S "$ROOT" >/dev/null
cmake --build --preset fuzz -j "$JOBS" --target fuzz_config fuzz_cli_args
for target in config cli_args; do
  corpus="$(mktemp -d)"
  cp "$ROOT/tests/fuzz/corpus/$target/"* "$corpus/"
  "$ROOT/build/fuzz/fuzz_$target" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=4096 -print_final_stats=1 \
    "$corpus" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)|#[0-9]+ +DONE"
  rm -rf "$corpus"
done

log "all tests passed"
