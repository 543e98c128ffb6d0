#!/usr/bin/env bash
# Builds what serving the lab needs (native CLI, the page's wasm module, web bundle) and serves it on 127.0.0.1.
# Prints the URL and the path of the HTML file to double-click (it also works from file://).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_packages build
ensure_node_modules build
build_served
log "bundle the page"
(cd "$ROOT" && npm run --silent build:web)

log "the lesson demo from the native CLI"
"$ROOT/build/release/sqrtdk" softmax --dk 128 --keys 50 --seed 0

exec node "$ROOT/scripts/serve.mjs" "$ROOT/web/dist" "${PORT:-8000}"
