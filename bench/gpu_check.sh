#!/usr/bin/env bash
# target="cuda" on a real GPU, in one command (from anywhere):   bash bench/gpu_check.sh
#
#   1. machine      python, the GPU (nvidia-smi), numba / numba-cuda / torch / cupy versions
#   2. packages     Cuvil runs from src/ (PYTHONPATH: nothing is installed into the machine's Python); a missing
#                   dependency is installed into a scratch folder (pip --target) from $CUVIL_WHEELS when that
#                   folder has wheels (offline machines), else from the package registry
#   3. smoke        one kernel on the GPU equals NumPy (fails fast when the driver or toolkit is unusable)
#   4. tests        tests/cuda with CUVIL_GPU=1 (no simulator), one pytest-xdist worker per 2 cores (up to 8)
#   5. bench        bench/gpu_bench.py: fused GELU and row softmax (loops; whole arrays) vs torch eager and CuPy,
#                   each kernel timed by CUDA events against the measured copy bandwidth -> bench/gpu_results.md
#
# The whole run on a GPU fits CUVIL_GPU_BUDGET seconds (default 280: under 5 minutes with the start): each step's
# cap is cut to what is left less what the later steps keep (pip 90 s; smoke 60 s; tests CUVIL_GPU_TEST_TIMEOUT,
# 150 s, keeping 90 s for the bench; bench CUVIL_GPU_BENCH_TIMEOUT, 100 s, which writes what it measured when
# stopped), and a step with no time left fails as skipped. Exit status: the number of failed steps (0: all
# passed). Every step prints one line, and the tail of its log when it fails; full logs in $CUVIL_GPU_LOGS
# (default: a new temporary folder), copied with the results into $OUT when that is set.
#
# Offline GPU machine: fetch the wheels here first (needs pip and the registry; Python 3.12, x86-64 Linux by
# default: CUVIL_WHEELS_PYTHON=3.11 for another), carry bench/.cache/wheels along, then run the check there:
#     bash bench/gpu_check.sh --fetch-wheels
# Without a GPU, `--simulate` runs every step on the CUDA simulator with tiny sizes (checks this script; its
# figures mean nothing) and a few test files of tests/cuda (the whole folder is the ordinary suite's, and takes
# 4-12 minutes on the simulator here); CUVIL_GPU_TESTS chooses the tests (pytest arguments; default tests/cuda).
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PY=${PYTHON:-python3}
WHEELS=${CUVIL_WHEELS:-$ROOT/bench/.cache/wheels}
NEEDED="libcst:libcst>=1.4 yaml:pyyaml platformdirs:platformdirs>=3 filelock:filelock>=3.12 numpy:numpy scipy:scipy numba:numba pytest:pytest xdist:pytest-xdist hypothesis:hypothesis"

if [ "${1:-}" = "--fetch-wheels" ]; then
  pyver=${CUVIL_WHEELS_PYTHON:-3.12}
  mkdir -p "$WHEELS"
  plats=""
  for p in manylinux_2_28_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64; do plats="$plats --platform $p"; done
  $PY -m pip download -q --no-deps --only-binary=:all: --python-version "$pyver" --implementation cp $plats \
    -d "$WHEELS" "libcst==1.9.0" "pyyaml>=6" "platformdirs>=3" "filelock>=3.12" || exit 1
  ls -1 "$WHEELS"
  echo "carry ${WHEELS#"$ROOT"/} to the GPU machine, then: bash bench/gpu_check.sh"
  exit 0
fi
SIMULATE=${CUVIL_GPU_SIMULATE:-0}
[ "${1:-}" = "--simulate" ] && SIMULATE=1
# The simulator runs each GPU thread as Python: a budget of its own, and a few test files.
BUDGET=${CUVIL_GPU_BUDGET:-$([ "$SIMULATE" = 1 ] && echo 900 || echo 280)}
SIM_TESTS="tests/cuda/test_kernels.py tests/cuda/test_launch.py tests/cuda/test_cuda_profile.py tests/cuda/test_cuda_rows.py"
TESTS=${CUVIL_GPU_TESTS:-$([ "$SIMULATE" = 1 ] && echo "$SIM_TESTS" || echo tests/cuda)}
# cap DEFAULT KEEP: seconds for a step, its default cut to the budget left less KEEP seconds for later steps
cap() { local c=$1 room=$((BUDGET - SECONDS - $2)); [ $room -lt "$c" ] && c=$room; echo $((c < 0 ? 0 : c)); }

LOGS=${CUVIL_GPU_LOGS:-$(mktemp -d -t cuvil-gpu-XXXXXX)}
mkdir -p "$LOGS"
SITE="$LOGS/site"
export PYTHONPATH="$SITE:$ROOT/src:$ROOT${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
export CUVIL_CACHE_DIR="$LOGS/cache"
if [ "$SIMULATE" = 1 ]; then
  export NUMBA_ENABLE_CUDASIM=1
  unset CUVIL_GPU
else
  unset NUMBA_ENABLE_CUDASIM
  export CUVIL_GPU=1
fi
failed=0
summary=()
n=0
step() { n=$((n + 1)); START=$SECONDS; echo "== [$n/5] $*"; }
ok() { echo "   ok ($((SECONDS - START)) s): $*"; summary+=("ok      $*"); }
bad() { echo "   FAILED ($((SECONDS - START)) s): $*"; summary+=("FAILED  $*"); failed=$((failed + 1)); }
tail_of() { tail -n "${2:-15}" "$1" | grep -v '^\s*$' | sed 's/^/   | /'; }
finish() {
  [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ] && cp -f "$LOGS"/*.log bench/gpu_results.md "$OUT"/ 2>/dev/null
  echo "== summary ($SECONDS s; logs in $LOGS)"
  printf '   %s\n' "${summary[@]}"
  echo "== $([ $failed -eq 0 ] && echo 'all steps passed' || echo "$failed step(s) FAILED")"
  exit $failed
}

step "machine"
$PY -c 'import sys; print("   python", sys.version.split()[0], sys.executable)'
if [ "$SIMULATE" = 1 ]; then
  echo "   simulator: NUMBA_ENABLE_CUDASIM=1 (no GPU used)"
elif command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>&1 | sed 's/^/   /'
else
  echo "   nvidia-smi: not found"
fi
for pkg in numba numba-cuda cuda-core torch cupy-cuda13x cupy-cuda12x; do
  $PY -c "import importlib.metadata as m; print('  ', '$pkg', m.version('$pkg'))" 2>/dev/null
done
ok "machine"

step "packages"
missing() {
  $PY - "$NEEDED" <<'PYEOF'
import importlib.util, sys
print(" ".join(spec for item in sys.argv[1].split() for module, spec in [item.split(":", 1)]
               if importlib.util.find_spec(module) is None))
PYEOF
}
need=$(missing)
if [ -n "$need" ]; then
  echo "   missing: $need"
  if ls "$WHEELS"/*.whl >/dev/null 2>&1; then
    $PY -m pip install -q --no-index --no-deps --no-compile --target "$SITE" --find-links "$WHEELS" \
      $(ls "$WHEELS"/*.whl) >"$LOGS/pip-wheels.log" 2>&1 || tail_of "$LOGS/pip-wheels.log" 5
    need=$(missing)
  fi
  if [ -n "$need" ] && [ "$(cap 90 200)" -ge 10 ]; then
    timeout "$(cap 90 200)" $PY -m pip install -q --no-compile --target "$SITE" --retries 1 --timeout 15 $need \
      >"$LOGS/pip.log" 2>&1 || tail_of "$LOGS/pip.log" 5
    need=$(missing)
  fi
fi
if [ -z "$need" ] && $PY -c 'import cuvil, numba.cuda' >"$LOGS/import.log" 2>&1; then
  ok "packages (cuvil from $ROOT/src)"
else
  tail_of "$LOGS/import.log" 5
  bad "packages: still missing ${need:-nothing, but cuvil or numba.cuda does not import}; offline, fetch wheels with 'bash bench/gpu_check.sh --fetch-wheels' on a machine with the registry and carry bench/.cache/wheels"
  finish
fi

step "smoke: one kernel"  # a file: Cuvil reads the function's source
cat >"$LOGS/smoke.py" <<'PYEOF'
import numpy as np
import cuvil
from numba import cuda

def saxpy(a, x, y, out):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]
    return out

x, y = np.arange(1000.0), np.ones(1000)
got = cuvil.jit(saxpy, target="cuda")(2.0, x, y, np.empty(1000))
assert np.array_equal(got, 2.0 * x + y), got[:8]
from cuvil.runtime import cuda_runtime

name = "the simulator" if cuda_runtime.simulator() or cuda_runtime._is_sim() else cuda.get_current_device().name
device = name.decode() if isinstance(name, bytes) else name
print("saxpy of 1000 float64 equals NumPy on", device)
PYEOF
if timeout "$(cap 60 180)" $PY "$LOGS/smoke.py" >"$LOGS/smoke.log" 2>&1; then ok "smoke: $(tail -n 1 "$LOGS/smoke.log")"; else tail_of "$LOGS/smoke.log"; bad "smoke"; finish; fi

step "tests ($TESTS)"
workers=$($PY -c 'import os; print(max(1, min(8, (os.cpu_count() or 2) // 2)))')
xdist=""
$PY -c 'import xdist' 2>/dev/null && xdist="-n $workers"
limit=$(cap "${CUVIL_GPU_TEST_TIMEOUT:-$([ "$SIMULATE" = 1 ] && echo 500 || echo 150)}" 90)
# shellcheck disable=SC2086 (word splitting of the selection and of xdist's options is meant)
[ "$limit" -ge 10 ] && timeout -k 10 "$limit" $PY -m pytest -q -p no:randomly -p no:cacheprovider --maxfail=20 -rfE \
  $xdist $TESTS >"$LOGS/tests.log" 2>&1
rc=$?
[ "$limit" -lt 10 ] && echo "no time left in the ${BUDGET} s budget" >"$LOGS/tests.log" && rc=124
result=$(grep -E '^(=+ )?[0-9]+ (passed|failed|error)|no tests ran' "$LOGS/tests.log" | tail -n 1 | tr -d '=')
if [ $rc -eq 0 ]; then
  ok "tests: ${result:-passed}"
else
  grep -E '^(FAILED|ERROR) ' "$LOGS/tests.log" | head -n 20 | sed 's/^/   | /'
  [ $rc -eq 124 ] && result="stopped at the ${limit} s limit; ${result:-no summary}"
  [ "$limit" -lt 10 ] && result="skipped: no time left in the ${BUDGET} s budget"
  tail_of "$LOGS/tests.log" 6
  bad "tests (rc $rc): ${result:-see $LOGS/tests.log}"
fi

step "bench -> bench/gpu_results.md"
bench_args=""
[ "$SIMULATE" = 1 ] && bench_args="--simulate --out $LOGS/gpu_results.md"
limit=$(cap "${CUVIL_GPU_BENCH_TIMEOUT:-100}" 12)
# shellcheck disable=SC2086 (SIGTERM at the cap: the bench writes what it measured; killed 10 s later at worst)
[ "$limit" -ge 10 ] && timeout -k 10 "$limit" $PY bench/gpu_bench.py $bench_args >"$LOGS/bench.log" 2>&1
rc=$?
[ "$limit" -lt 10 ] && echo "no time left in the ${BUDGET} s budget" >"$LOGS/bench.log" && rc=124
sed 's/^/   /' "$LOGS/bench.log" | tail -n 8
if [ $rc -eq 0 ]; then ok "bench: $(head -n 1 "$LOGS/bench.log")"
elif [ "$limit" -lt 10 ]; then bad "bench: skipped: no time left in the ${BUDGET} s budget"
elif [ $rc -eq 124 ]; then bad "bench: stopped at the ${limit} s limit (what it measured is in the results)"
else bad "bench (rc $rc)"; fi
finish
