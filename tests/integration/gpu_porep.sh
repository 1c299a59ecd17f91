#!/bin/sh
# tests/integration/gpu_porep.sh — a 2 KiB PoRep partition (2.69 M
# constraints, a 2^22 domain: the H MSM has 2^22 - 1 points) proved through
# the emulated device (gpu/'s kernels on host threads) is byte-identical to
# the CPU prover's proof for the same r and s, and verifies (the unit test
# backend_porep/porep_2k_emulate_equals_cpu, which needs the parameters:
# they come from the cache porep_prove.sh and mpi_porep.sh share,
# GROTHMPI_POREP_CACHE or $BUILD/porep-cache, set up here when missing);
# and so it is on emulated devices of three sizes from the device memory
# plan, one where every set streams and h runs in steps
# (backend_porep/porep_2k_emulated_memory_sizes; GROTHMPI_EMU_SIZES picks
# some of them: 3, every set streamed, unless set; "123" runs all three). About 2-3 minutes an emulated proof on an idle 2-core
# machine besides the setup (docs/gpu.md).
# gm-test: heavy
set -eu
. "$(dirname "$0")/lib/common.sh"
CACHE=${GROTHMPI_POREP_CACHE:-$BUILD/porep-cache}
mkdir -p "$CACHE"
"$BIN" setup --circuit porep --sector-size 2KiB --out "$CACHE" > /dev/null 2>"$CACHE.gpu_porep.err" \
  || { cat "$CACHE.gpu_porep.err"; fail "2 KiB setup"; }
rm -f "$CACHE.gpu_porep.err"
CACHE=$(cd "$CACHE" && pwd)
# Of the three device sizes, the one where every set streams and h runs in
# steps (3) by default: the unlimited device of porep_2k_emulate_equals_cpu
# already keeps every set resident, and each emulated proof takes minutes.
out=$(GROTHMPI_EMU_SIZES=${GROTHMPI_EMU_SIZES:-3} GROTHMPI_POREP_CACHE=$CACHE timeout 5400 \
      "$BUILD/tests/unit_tests" --filter 'backend_porep/*' 2>&1) \
  || { echo "$out"; fail "2 KiB partition through the emulated device"; }
echo "$out" | grep -q "Passing: 2 " || { echo "$out"; fail "the 2 KiB tests did not run"; }
echo "PASS: 2 KiB PoRep partition: the emulated device's proofs are the CPU's, and verify, at every device size"
