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

ids=$("$CLI" scenarios --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).map(x=>x.id).join("\n")))')
log "measuring $(wc -w <<<"$ids") scenarios, ${JOBS} at a time"
# shellcheck disable=SC2016
xargs -P "$JOBS" -I{} sh -c '"$0" claims --measure "$1" > "$2/$1.part" && echo "measured $1" >&2' "$CLI" {} "$parts" <<<"$ids"

table="$ROOT/src/core/claims/claims_table.cpp"
{
  sed -n '1,/static const std::vector<MeasuredScenario> table = {/p' "$table"
  for id in $ids; do cat "$parts/$id.part"; done
  sed -n '/^  };$/,$p' "$table" |
    sed "s/measured_with_fingerprint() { return \"[0-9a-f]*\"; }/measured_with_fingerprint() { return \"$("$CLI" fingerprint)\"; }/"
} > "$parts/table.cpp"
mv "$parts/table.cpp" "$table"
log "wrote $table"
"$CLI" claims >/dev/null  # the new table parses (the next build compiles it)
