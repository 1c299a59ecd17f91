#!/bin/sh
# tests/integration/gpu_porep_faults.sh — a 2 KiB PoRep campaign on 2 ranks
# through the emulate backend with a device that fails: GROTHMPI_GPU_FAULT
# oom, then error, at every call. Each unit is proved again on the CPU (one
# warning line each), the run exits 0, the report counts the fallbacks, and
# every proof written verifies against the C1 (the public inputs derived from
# the graph). The corrupt fault needs a whole emulated 2 KiB proof per unit
# (minutes): it is checked on a test-synthetic campaign (gpu_faults.sh) and on
# the unit level (backend/*); gpu_porep.sh runs one emulated 2 KiB proof.
# The parameters come from the cache mpi_porep.sh and porep_prove.sh share.
# gm-test: heavy
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
porep_cache
gm_tmp gpuporepfault
. "$(cd "$(dirname "$0")" && pwd)/lib/journal.sh"

"$BIN" porep seal --sector-size 2KiB --seed 31 --out "$T/sa" >"$T/seal.log" 2>&1 || { cat "$T/seal.log"; fail "seal a"; }
"$BIN" porep seal --sector-size 2KiB --seed 32 --out "$T/sb" >"$T/seal.log" 2>&1 || { cat "$T/seal.log"; fail "seal b"; }
for s in a b; do
  "$BIN" porep c1 "$T/s$s" --seed 9 --out "$T/$s.c1.json" >"$T/c1.log" 2>&1 || { cat "$T/c1.log"; fail "c1 $s"; }
done
fallbacks() { grep -o '"gpu_fallbacks": [0-9]*' "$1/report.json" | grep -o '[0-9]*$'; }
for f in oom error; do
  cat > "$T/$f.json" <<JSON
{
  "name": "gpu-porep-$f", "circuit": "porep", "sector_size": "2KiB",
  "params": "$CACHE", "setup": "auto",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b2",
  "trust_params": true, "backend": "emulate",
  "sectors": [{"id": "a", "c1": "a.c1.json"}, {"id": "b", "c1": "b.c1.json"}],
  "batch_size": 1, "output": "out$f", "verify": "rank",
  "resources": {"threads": 1, "gpus": 1}, "progress_interval": 0
}
JSON
  (cd "$T" && GROTHMPI_GPU_FAULT=$f timeout 1500 mpirun -np 2 -x GROTHMPI_GPU_FAULT "$BIN" prove "$f.json" \
    > "log.$f" 2>&1) || { cat "$T/log.$f"; fail "2 KiB campaign with fault $f"; }
  consistent "$T/out$f"
  n=$(fallbacks "$T/out$f")
  [ "$n" -ge 2 ] || { cat "$T/log.$f"; fail "$f: $n fallbacks counted, expected one per unit (2)"; }
  grep -q "GROTHMPI_GPU_FAULT=$f.*proving it on the CPU" "$T/log.$f" || { cat "$T/log.$f"; fail "$f: no fallback line"; }
  for s in a b; do
    p="$T/out$f/proofs/$s-p0.proof"
    [ -f "$p" ] || fail "$f: no proof for sector $s"
    "$BIN" verify --vk "$CACHE/porep-2048-v2.vk" --c1 "$T/$s.c1.json" --proof "$p" >"$T/v.log" 2>&1 \
      || { cat "$T/v.log"; fail "$f: sector $s: verify --c1"; }
  done
done
echo "PASS: 2 KiB PoRep campaign on 2 ranks, emulated device failing (oom, error): every unit proved on the CPU, fallbacks counted, proofs verify"
