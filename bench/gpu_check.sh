#!/usr/bin/env bash
# target="cuda" on a real GPU (run from the repository root): installs Cuvil into the machine's Python, runs
# tests/cuda without the simulator, then bench/gpu_bench.py (fused GELU, row softmax) → bench/gpu_results.md.
# The repository's .venv is not usable on that machine: Cuvil goes into the machine's own Python with
# `pip install --no-deps -e .`; its dependencies come from the registry when reachable, else from
# bench/.cache/wheels (libcst and pyyaml wheels for cp312, carried with the working tree; fetch them with
# `pip download --only-binary=:all: --python-version 3.12 --no-deps -d bench/.cache/wheels libcst==1.9.0 pyyaml`).
# Whole script: a few minutes. Output kept short: each step prints one line, failures their tail.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
LOG=$(mktemp -d)
fail=0
step() { echo "== $*"; }
ok() { echo "   ok: $*"; }
bad() { echo "   FAILED: $*"; fail=1; }

step "python and GPU"
$PY -c 'import sys; print("  ", sys.version.split()[0], sys.executable)'
nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>&1 | sed 's/^/   /' \
  || bad "nvidia-smi"

step "install cuvil (no build isolation, machine's numba/numba-cuda/torch/cupy kept)"
need=$($PY - <<'PYEOF'
import importlib.util as u
print(" ".join(m for m in ("libcst", "yaml", "numba", "numpy", "scipy", "pytest", "hypothesis") if u.find_spec(m) is None))
PYEOF
)
if [ -n "$need" ]; then
  echo "   missing: $need"
  if [ -d bench/.cache/wheels ] && ls bench/.cache/wheels/*.whl >/dev/null 2>&1; then
    $PY -m pip install -q --no-index --find-links bench/.cache/wheels libcst pyyaml >"$LOG/wheels" 2>&1 \
      && ok "libcst/pyyaml from bench/.cache/wheels" || { bad "offline wheels"; tail -3 "$LOG/wheels"; }
  fi
  need=$($PY -c 'import importlib.util as u; print(" ".join(m for m in ("libcst","yaml","numba","numpy","pytest","hypothesis") if u.find_spec(m) is None))')
  if [ -n "$need" ]; then
    timeout 120 $PY -m pip install -q "libcst>=1.4" pyyaml numba numpy pytest hypothesis >"$LOG/pip" 2>&1 \
      && ok "dependencies from the registry" || { bad "pip from the registry (offline?): still missing $need"; tail -2 "$LOG/pip"; }
  fi
fi
$PY -m pip install -q --no-deps --no-build-isolation -e . >"$LOG/cuvil" 2>&1 && ok "cuvil (editable)" \
  || { echo "   pip -e failed, using PYTHONPATH=src"; tail -2 "$LOG/cuvil"; }
export PYTHONPATH="$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}"
$PY -c 'import cuvil, numba, numba.cuda as c; print("   cuvil", cuvil.__version__, "numba", numba.__version__, "numba-cuda", getattr(c, "__version__", "?"), "device", c.get_current_device().name)' \
  || { bad "import cuvil / numba.cuda"; }
$PY -c 'import torch; print("   torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>/dev/null || echo "   torch: not importable"
$PY -c 'import cupy; print("   cupy", cupy.__version__)' 2>/dev/null || echo "   cupy: not importable"

step "tests/cuda on the GPU (no simulator)"
export CUVIL_CACHE_DIR=$(mktemp -d)
unset NUMBA_ENABLE_CUDASIM
# Compiling the kernels is most of the time: one worker per core (up to 8) when pytest-xdist is there or
# installs (optional: without it the tests run in one process).
$PY -c 'import xdist' 2>/dev/null || timeout 60 $PY -m pip install -q pytest-xdist >/dev/null 2>&1 || true
XDIST=$($PY -c 'import os, xdist; print("-n", min(8, os.cpu_count() or 1))' 2>/dev/null || true)
CUVIL_GPU=1 timeout 200 $PY -m pytest -q -x -p no:randomly -p no:cacheprovider $XDIST tests/cuda >"$LOG/tests" 2>&1
rc=$?
tail -n 15 "$LOG/tests" | grep -vE "^\s*$" | sed 's/^/   /'
[ $rc -eq 0 ] && ok "tests/cuda" || bad "tests/cuda (rc=$rc)"

step "bench/gpu_bench.py"
timeout 150 $PY bench/gpu_bench.py >"$LOG/bench" 2>&1
rc=$?
tail -n 14 "$LOG/bench" | sed 's/^/   /'
[ $rc -eq 0 ] && ok "bench → bench/gpu_results.md" || bad "bench (rc=$rc)"

echo "== done: $([ $fail -eq 0 ] && echo all ok || echo SOME STEPS FAILED) (logs in $LOG)"
exit $fail
