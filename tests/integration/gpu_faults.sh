#!/bin/sh
# tests/integration/gpu_faults.sh — the GPU path of a campaign on a machine
# without a GPU, through the emulate backend (gpu/'s device code run on the
# host): 2 ranks, resources.gpus 2 (two emulated finish workers per rank,
# each with its own resident bases), a test-synthetic circuit; first with no
# fault, then with each injected fault (GROTHMPI_GPU_FAULT=oom, error,
# corrupt): exit 0, every proof written verifies and they are the proofs of
# the CPU campaign's units, and the report counts the fallbacks (and none
# without a fault). Then `"backend": "cuda"` without a device fails with one
# line naming the backend, and a bad backend or resources.gpus is refused
# naming file, key and value. (The 2 KiB PoRep partition through the
# emulated device: gpu_porep.sh.)
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp gpufault
. "$(cd "$(dirname "$0")" && pwd)/lib/journal.sh"
need mpirun

mk() { # mk NAME OUTDIR BACKEND GPUS
cat > "$T/$1.json" <<JSON
{
  "name": "gpu", "circuit": "test-synthetic", "constraints": 1024,
  "params": "params", "setup": "auto",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000c4",
  "sectors": {"count": 3}, "partitions": 2, "batch_size": 2, "backend": "$3",
  "output": "$2", "verify": "rank", "resources": {"threads": 1, "gpus": $4}, "progress_interval": 0
}
JSON
}
mk cpu outc cpu 0
(cd "$T" && timeout 300 mpirun -np 2 "$BIN" prove cpu.json > log.cpu 2>&1) || { cat "$T/log.cpu"; fail "cpu campaign"; }
dirs="$T/outc"
fallbacks() { grep -o '"gpu_fallbacks": [0-9]*' "$1/report.json" | grep -o '[0-9]*$'; }
for f in none oom error corrupt; do
  mk "$f" "out$f" emulate 2
  if [ "$f" = none ]; then
    (cd "$T" && timeout 300 mpirun -np 2 "$BIN" prove "$f.json" > "log.$f" 2>&1) || { cat "$T/log.$f"; fail "emulate campaign"; }
  else
    (cd "$T" && GROTHMPI_GPU_FAULT=$f timeout 300 mpirun -np 2 -x GROTHMPI_GPU_FAULT "$BIN" prove "$f.json" \
      > "log.$f" 2>&1) || { cat "$T/log.$f"; fail "emulate campaign with fault $f"; }
  fi
  consistent "$T/out$f"
  dirs="$dirs $T/out$f"
  grep -q '"backend": "emulate"' "$T/out$f/report.json" || fail "$f: report.json does not say backend emulate"
  grep -q "emulate:1" "$T/log.$f" || fail "$f: no row for the second emulated device in the report"
  n=$(fallbacks "$T/out$f")
  if [ "$f" = none ]; then
    [ "$n" -eq 0 ] || fail "no fault, yet $n fallbacks"
  else
    [ "$n" -ge 1 ] || { cat "$T/log.$f"; fail "$f: no fallback counted"; }
    grep -q "GROTHMPI_GPU_FAULT=$f\|does not verify" "$T/log.$f" || fail "$f: the fault is not in the log"
    # oom and error fail every call of the prepare's NTTs too: device 0 of
    # each rank meets the limit (corrupt is caught once per unit, later).
    [ "$f" = corrupt ] || grep -q "retired" "$T/log.$f" || fail "$f: no device retired after failing at every call"
  fi
done
same_proofs "$T/params/test-synthetic-1024.vk" 6 $dirs

# cuda is strict: no device, no campaign (a machine with a GPU skips this).
mk cuda outg cuda 0
st=0
(cd "$T" && timeout 120 "$BIN" prove cuda.json > log.cuda 2>&1) || st=$?
if [ "$st" -eq 0 ]; then
  echo "note: a CUDA device answered: the no-device refusal is not checked here"
else
  [ "$st" -eq 2 ] || { cat "$T/log.cuda"; fail "cuda without a device: exit $st, expected 2"; }
  grep -q "backend cuda: no usable CUDA device" "$T/log.cuda" || { cat "$T/log.cuda"; fail "cuda without a device: message"; }
fi
mk bad outb gpu 0
(cd "$T" && "$BIN" prove bad.json > log.bad 2>&1) && fail "backend gpu was accepted"
grep -q "bad.json: backend: 'gpu' is not a backend" "$T/log.bad" || { cat "$T/log.bad"; fail "bad backend message"; }
mk bad2 outb emulate 17
(cd "$T" && "$BIN" prove bad2.json > log.bad2 2>&1) && fail "resources.gpus 17 was accepted"
grep -q "bad2.json: resources.gpus: 17" "$T/log.bad2" || { cat "$T/log.bad2"; fail "bad gpus message"; }
echo "PASS: emulated GPUs on 2 ranks: no fault and oom, error, corrupt give the CPU's 6 valid proofs, fallbacks counted"
