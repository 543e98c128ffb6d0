#!/usr/bin/env bash
# The PyTorch export is the lab's experiment: runs check.py against the release CLI with Debian's python3, which
# has torch, matplotlib and nbformat (python3-torch python3-matplotlib python3-nbformat), headless, one BLAS
# thread per process, stopped after 30 minutes (on a fresh 2-core machine the default run took more than 20: the adam
# preset's 20 runs alone over 12 minutes, the sgd preset's 600-step runs longer).
#   bash tests/torch_export/run.sh [--seeds N]      (default 10 seeds per variant, in two processes)
set -euo pipefail
cd "$(dirname "$0")/../.."
sqrtdk=build/release/sqrtdk
[[ -x $sqrtdk ]] || { echo "torch_export: $sqrtdk is not built (cmake --build --preset native-release)" >&2; exit 1; }
for module in torch matplotlib nbformat; do
  /usr/bin/python3 -c "import $module" 2>/dev/null || {
    echo "torch_export: /usr/bin/python3 cannot import $module (apt-get install python3-torch python3-matplotlib python3-nbformat)" >&2
    exit 1
  }
done
MPLBACKEND=Agg OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 exec timeout 1800 /usr/bin/python3 tests/torch_export/check.py "$sqrtdk" "$@"
