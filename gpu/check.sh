#!/bin/sh
# gpu/check.sh — builds grothmpi with nvcc and runs the GPU-versus-CPU
# equality tests and the GPU benchmarks (gpu/check/gpu_check.c), for a
# session on a machine with an NVIDIA GPU (H100/H200: sm_90 machine code;
# other GPUs run the compute_90 PTX). Under 8 minutes on an H200 with 16 cores.
#
#   sh gpu/check.sh [results.md]        (default: gpu-check-results.md)
#   QUICK=1 sh gpu/check.sh             smaller sizes (a first smoke run)
#   BUILD=build-gpu JOBS=16 ...         build directory and make -j
#
# Steps: (1) nvidia-smi and nvcc versions; (2) make the unit runner and
# gpu_check; (3) the unit tests of gpu/ (gpu/* suite: the host emulation of
# the kernels; the no-device case skips on a GPU machine); (4) gpu_check:
# MSM 2^10..2^22, NTT 2^10..2^24, Groth16 h, a full Groth16 proof whose G1
# MSMs and h run on the GPU (byte-equal to the CPU proof and verified), then
# G1 MSM and NTT at 2^24 against the H200 bounds of anchors.md Part C.
# The results file is Markdown, ready to paste into docs/gpu.md ("Results").
# Exit status: 0 when every check passed.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${1:-gpu-check-results.md}
BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
export PATH=/usr/local/cuda/bin:$PATH

{
    echo "## Results: gpu/check.sh, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo
    echo '```'
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -5
    nvcc --version 2>&1 | tail -2
    echo '```'
} >"$OUT"

echo "gpu/check.sh: building in $BUILD (-j$JOBS)"
t0=$(date +%s)
if ! make -j"$JOBS" BUILD="$BUILD" "$BUILD/tests/unit_tests" gpu-check >"$OUT.build.log" 2>&1; then
    tail -30 "$OUT.build.log"
    echo "build failed: see $OUT.build.log" >>"$OUT"
    exit 1
fi
echo "built in $(( $(date +%s) - t0 )) s" | tee -a "$OUT"

status=0
echo "gpu/check.sh: unit tests gpu/*"
if "$BUILD/tests/unit_tests" --filter 'gpu/*' >"$OUT.unit.log" 2>&1; then
    echo "unit tests gpu/*: passed ($(grep -o 'Tested: [0-9]*.*' "$OUT.unit.log" | tail -1))" | tee -a "$OUT"
else
    echo "unit tests gpu/*: FAILED" | tee -a "$OUT"; tail -20 "$OUT.unit.log"; status=1
fi

echo "gpu/check.sh: gpu_check"
args=""
[ -n "${QUICK:-}" ] && args="--quick"
# 7 minutes at most for the checks and benchmarks.
timeout 420 "$BUILD/gpu_check" $args --out "$OUT"
rc=$?
case $rc in
    0) ;;
    2) echo "gpu_check: no usable GPU (see above)" | tee -a "$OUT"; status=1 ;;
    124) echo "gpu_check: stopped after 420 s (timeout)" | tee -a "$OUT"; status=1 ;;
    *) status=1 ;;
esac
echo "gpu/check.sh: done in $(( $(date +%s) - t0 )) s, results in $OUT"
exit $status
