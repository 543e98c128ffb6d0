# Shared by the project's scripts: install what is missing, build the native and wasm presets.
# Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${JOBS:-$(nproc)}"
# emcc runs its JS tools with the machine's Node, which cannot see Debian's node-acorn without this.
export NODE_PATH=/usr/share/nodejs

# Debian packages the lab needs to build and test (chromium drives the browser tests).
DEBIAN_PACKAGES=(build-essential cmake emscripten libeigen3-dev catch2 chromium clang libclang-rt-14-dev xz-utils)

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

# Installs the Debian packages above that are missing (as root), or prints the command to do it.
ensure_packages() {
  local missing=()
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  # Node and npm may come from elsewhere (a newer Node than Debian's); Debian's only when there is none.
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "missing Debian packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

# npm packages from package.json, exactly as package-lock.json pins them.
ensure_node_modules() {
  if [ ! -d "$ROOT/node_modules" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    log "npm ci"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build_native() {  # $1 = preset (native-release | native-asan)
  log "build $1"
  cmake --preset "$1" -S "$ROOT" >/dev/null
  cmake --build --preset "$1" -j "$JOBS"
}

build_wasm() {
  log "build wasm"
  cmake --preset wasm -S "$ROOT" >/dev/null
  cmake --build --preset wasm -j "$JOBS"
}
