#!/usr/bin/env bash
# Measures every scenario's claims over seeds 0-19 and writes src/core/claims/claims_table.cpp, the one table the
# captions, `sqrtdk claims`, the README and tests/cpp/test_scenarios.cpp read, with the arithmetic's fingerprint it
# was measured with.  Run it after changing a preset, the model or the arithmetic (the scenario tests, and the
# recorded fingerprint, say when the table is stale).  About 25 minutes on 2 idle cores (large-dk, at d_model 128,
# is the longest part).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

log "build the CLI"
cmake --preset native-release -S "$ROOT" >/dev/null
cmake --build --preset native-release -j "$JOBS" --target sqrtdk
parts="$(mktemp -d)"
trap 'rm -rf "$parts"' EXIT
# A copy: a rebuild of build/release during the measurement must not change the binary half-way through it.
CLI="$parts/sqrtdk"
cp "$ROOT/build/release/sqrtdk" "$CLI"

# Each run (a variant trained with a scenario's settings) once, even when several scenarios share it.
runs=$("$CLI" claims --runs)
log "measuring $(wc -l <<<"$runs") runs, ${JOBS} at a time"
# shellcheck disable=SC2016
# xargs appends each line's two words: $2 the scenario, $3 the variant.
xargs -P "$JOBS" -L 1 sh -c '"$0" claims --measure "$2" --variant "$3" > "$1/$2.$3.part" && echo "measured $2 $3" >&2' \
  "$CLI" "$parts" <<<"$runs"

table="$ROOT/src/core/claims/claims_table.cpp"
{
  sed -n '1,/static const std::vector<MeasuredRun> table = {/p' "$table"
  while read -r id variant; do cat "$parts/$id.$variant.part"; done <<<"$runs"
  sed -n '/^  };$/,$p' "$table" |
    sed "s/measured_with_fingerprint() { return \"[0-9a-f]*\"; }/measured_with_fingerprint() { return \"$("$CLI" fingerprint)\"; }/"
} > "$parts/table.cpp"
mv "$parts/table.cpp" "$table"
log "wrote $table"
"$CLI" claims >/dev/null  # the new table parses (the next build compiles it)
