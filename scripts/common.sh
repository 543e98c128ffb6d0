# Shared by the project's scripts: install what is missing, build the native and wasm presets.
# Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${JOBS:-$(nproc)}"
# emcc runs its JS tools with the machine's Node, which cannot see Debian's node-acorn without this.
export NODE_PATH=/usr/share/nodejs

# Debian packages in two sets: what building and serving the lab needs (lab.sh), and what the tests add
# (test.sh): Catch2, chromium for the page, Firefox ESR and WebKit (with a virtual X display) for the other engines,
# clang and its sanitizer runtime for the fuzzers, xz for the LZMA tests, PyTorch, matplotlib and nbformat for
# the check of the PyTorch export.
BUILD_PACKAGES=(build-essential cmake emscripten libeigen3-dev)
TEST_PACKAGES=(catch2 chromium firefox-esr webkit2gtk-driver xvfb clang libclang-rt-14-dev xz-utils
               python3-torch python3-matplotlib python3-nbformat)

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

# Installs the Debian packages of a set that are missing (as root), or prints the command to do it.
ensure_packages() {  # $1 = build | test (test includes build)
  local wanted=("${BUILD_PACKAGES[@]}") missing=()
  [ "${1:-test}" = test ] && wanted+=("${TEST_PACKAGES[@]}")
  for pkg in "${wanted[@]}"; do
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

# npm packages exactly as package-lock.json pins them: the build set is package.json's dependencies (esbuild, the
# charts), the test set adds its devDependencies (browser drivers, TF.js for the benchmark, TypeScript, ...).
ensure_node_modules() {  # $1 = build | test
  local set="${1:-test}" probe=playwright-core omit=()
  [ "$set" = build ] && probe=esbuild omit=(--omit=dev)
  if [ ! -d "$ROOT/node_modules/$probe" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    log "npm ci (the $set set)"
    (cd "$ROOT" && npm ci "${omit[@]}" --no-audit --no-fund --loglevel=error)
  fi
  # esbuild and uplot are optionalDependencies (the published bundle needs neither: uplot is bundled), so an npm that
  # could not fetch them goes on without them; the build cannot.
  for needed in esbuild uplot "$probe"; do
    if [ ! -d "$ROOT/node_modules/$needed" ]; then
      echo "npm ci did not install $needed, which the build needs (is the npm registry reachable?)" >&2
      exit 1
    fi
  done
}

# The tests' builds: every target of a preset, the Catch2 suites included.
build_native() {  # $1 = preset (native-release | native-asan)
  log "build $1"
  cmake --preset "$1" -S "$ROOT" -DBUILD_TESTING=ON >/dev/null
  cmake --build --preset "$1" -j "$JOBS"
}

build_wasm() {
  log "build wasm"
  cmake --preset wasm -S "$ROOT" -DBUILD_TESTING=ON >/dev/null
  cmake --build --preset wasm -j "$JOBS"
}

# What serving the lab needs and nothing else: the native CLI, the page's module and the module the page's build
# reads the core's tables from (no tests, no benchmark, no second core with exceptions).
build_served() {
  log "build the CLI"
  cmake --preset native-release -S "$ROOT" -DBUILD_TESTING=OFF >/dev/null
  cmake --build --preset native-release -j "$JOBS" --target sqrtdk
  log "build the page's wasm module"
  cmake --preset wasm -S "$ROOT" -DBUILD_TESTING=OFF >/dev/null
  cmake --build --preset wasm -j "$JOBS" --target sqrtdk_web_module sqrtdk_module
}
