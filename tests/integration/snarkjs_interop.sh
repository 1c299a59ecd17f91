#!/bin/sh
# gm-test: heavy
# tests/integration/snarkjs_interop.sh — grothmpi against the real snarkjs and
# circom2 (tests/interop/run.sh): multiplier, 7 chained Poseidon, SHA-256 of 64
# bytes; grothmpi's proofs verified by `snarkjs groth16 verify`, snarkjs's by
# `grothmpi snarkjs verify`, and altered proofs rejected by both. Needs node +
# npm (npm ci in tests/interop on the first run; artifacts are cached in
# $BUILD/interop, so later runs take about a minute). GM_SKIP_INTEROP=1 skips
# it (reported as a pass with a note), for machines without node.
set -eu
BUILD=${BUILD:-build}
if [ "${GM_SKIP_INTEROP:-0}" = 1 ]; then
    echo "snarkjs_interop: skipped (GM_SKIP_INTEROP=1)"
    exit 0
fi
command -v node >/dev/null && command -v npm >/dev/null || {
    echo "snarkjs_interop: node and npm are needed (tests/interop); GM_SKIP_INTEROP=1 skips this test"
    exit 1
}
exec env BUILD="$BUILD" sh tests/interop/run.sh
